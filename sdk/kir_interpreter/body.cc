#include "sdk/kir_interpreter/body.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "sdk/kir/facts.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

bool IsValidElementType(uint32_t type) {
  return type > PHAL_ELEMENT_TYPE_INVALID && type < PHAL_ELEMENT_TYPE_COUNT;
}

// Copies element offsets[p] of `source` to position p of `out`.
template <std::size_t kSize>
void GatherElements(const uint8_t* source, const uint64_t* offsets,
                    int64_t count, uint8_t* out) {
  for (int64_t p = 0; p < count; ++p) {
    std::memcpy(out + p * kSize, source + offsets[p] * kSize, kSize);
  }
}

void Gather(std::size_t size, const uint8_t* source, const uint64_t* offsets,
            int64_t count, uint8_t* out) {
  switch (size) {
    case 1:
      return GatherElements<1>(source, offsets, count, out);
    case 2:
      return GatherElements<2>(source, offsets, count, out);
    case 4:
      return GatherElements<4>(source, offsets, count, out);
    case 8:
      return GatherElements<8>(source, offsets, count, out);
    default:
      return GatherElements<16>(source, offsets, count, out);
  }
}

}  // namespace

StatusOr<CompiledBody> CompiledBody::Compile(const phal_kernel_desc_t& kernel,
                                             const phal_kir_body_t& body,
                                             const BodySignature& signature) {
  CompiledBody compiled;
  compiled.kernel_ = &kernel;
  compiled.body_ = &body;
  compiled.role_ = signature.role;
  compiled.nodes_.resize(body.node_count);
  for (uint32_t i = 0; i < body.node_count; ++i) {
    PHAL_RETURN_IF_ERROR(compiled.CompileNode(i, signature));
  }
  const std::string where = signature.role + " body: ";
  if (body.result_count != signature.result_count) {
    return KernelError(kernel, where + "has " +
                                   std::to_string(body.result_count) +
                                   " results; the kernel needs " +
                                   std::to_string(signature.result_count));
  }
  for (uint32_t r = 0; r < body.result_count; ++r) {
    if (body.results[r] >= body.node_count) {
      return KernelError(kernel,
                         where + "result " + std::to_string(r) + " is node %" +
                             std::to_string(body.results[r]) +
                             ", which does not exist (" +
                             std::to_string(body.node_count) + " nodes)");
    }
    compiled.results_.push_back(body.results[r]);
  }
  compiled.PlanScratch();
  return compiled;
}

Status CompiledBody::NodeError(uint32_t index,
                               const std::string& message) const {
  return KernelError(*kernel_,
                     role_ + " body: node %" + std::to_string(index) + " (" +
                         KirOpName(EnumValue(body_->nodes[index].op)) +
                         "): " + message);
}

Status CompiledBody::CheckResultType(uint32_t result, ElementType expected,
                                     const std::string& what) const {
  const ElementType type = result_type(result);
  if (type == expected) return OkStatus();
  return KernelError(*kernel_, role_ + " body: result " +
                                   std::to_string(result) + " (node %" +
                                   std::to_string(results_[result]) + ") is " +
                                   ElementTypeName(type) + ", but " + what +
                                   " is " + ElementTypeName(expected));
}

Status CompiledBody::CompileNode(uint32_t index,
                                 const BodySignature& signature) {
  const phal_kir_node_t& n = body_->nodes[index];
  const uint32_t op = EnumValue(n.op);
  const uint32_t type = EnumValue(n.type);
  Node& node = nodes_[index];
  node.node = &n;
  if (KirOpClassOf(op) == KirOpClass::kUnknown) {
    return Status(
        PHAL_UNIMPLEMENTED,
        NodeError(index, "op " + std::to_string(op) + " is not a KIR node op")
            .message());
  }
  if (!IsValidElementType(type)) {
    return NodeError(index,
                     "element type " + std::to_string(type) + " is invalid");
  }
  node.type = n.type;
  node.size = static_cast<uint32_t>(ElementTypeByteSize(n.type));
  if (uint64_t{n.operand_begin} + n.operand_count > body_->operand_count) {
    return NodeError(
        index, "operands [" + std::to_string(n.operand_begin) + ", +" +
                   std::to_string(n.operand_count) + ") run past the body's " +
                   std::to_string(body_->operand_count) + " operand entries");
  }
  node.operand_begin = static_cast<uint32_t>(operands_.size());
  node.operand_count = n.operand_count;
  std::vector<ElementType> operand_types;
  for (uint32_t k = 0; k < n.operand_count; ++k) {
    const uint32_t operand = body_->operands[n.operand_begin + k];
    if (operand >= index) {
      return NodeError(index, "operand " + std::to_string(k) + " is %" +
                                  std::to_string(operand) +
                                  ", not an earlier node");
    }
    operands_.push_back(operand);
    operand_types.push_back(nodes_[operand].type);
  }
  const bool leaf = op == PHAL_KIR_OP_CONSTANT || op == PHAL_KIR_OP_INDEX ||
                    op == PHAL_KIR_OP_PARAMETER;
  if (leaf && n.operand_count != 0) {
    return NodeError(
        index, "takes no operands, has " + std::to_string(n.operand_count));
  }
  const int64_t attribute = n.attributes[0];
  switch (op) {
    case PHAL_KIR_OP_CONSTANT:
      node.source = Source::kConstant;
      return OkStatus();
    case PHAL_KIR_OP_INDEX:
      if (n.type != PHAL_ELEMENT_TYPE_S64) {
        return NodeError(
            index, "is " + std::string(ElementTypeName(n.type)) + ", not s64");
      }
      if (attribute < 0 || attribute >= signature.rank) {
        return NodeError(index, "dimension " + std::to_string(attribute) +
                                    " is outside the " + signature.role +
                                    " body's iteration space of rank " +
                                    std::to_string(signature.rank));
      }
      node.source = Source::kIndex;
      node.slot_or_leaf = static_cast<uint32_t>(attribute);
      return OkStatus();
    case PHAL_KIR_OP_PARAMETER: {
      const auto count = static_cast<int64_t>(signature.parameters.size());
      if (attribute < 0 || attribute >= count) {
        return NodeError(index, "parameter " + std::to_string(attribute) +
                                    " does not exist; the " + signature.role +
                                    " body takes " + std::to_string(count));
      }
      const ElementType expected =
          signature.parameters[static_cast<std::size_t>(attribute)];
      if (n.type != expected) {
        return NodeError(index, "parameter " + std::to_string(attribute) +
                                    " is " + ElementTypeName(expected) +
                                    ", not " + ElementTypeName(n.type));
      }
      node.source = Source::kParameter;
      node.slot_or_leaf = static_cast<uint32_t>(attribute);
      return OkStatus();
    }
    case PHAL_KIR_OP_READ: {
      if (attribute < 0 || attribute >= kernel_->buffer_count) {
        return NodeError(index, "buffer " + std::to_string(attribute) +
                                    " does not exist (the kernel has " +
                                    std::to_string(kernel_->buffer_count) +
                                    " buffers)");
      }
      const phal_kir_buffer_t& buffer = kernel_->buffers[attribute];
      if (EnumValue(buffer.element_type) != type) {
        return NodeError(index, std::string("reads ") +
                                    ElementTypeName(n.type) + " from buf" +
                                    std::to_string(attribute) + " of " +
                                    ElementTypeName(buffer.element_type));
      }
      if (n.operand_count != buffer.rank) {
        return NodeError(index, "has " + std::to_string(n.operand_count) +
                                    " indices for buf" +
                                    std::to_string(attribute) + " of rank " +
                                    std::to_string(buffer.rank));
      }
      for (uint32_t k = 0; k < n.operand_count; ++k) {
        if (operand_types[k] != PHAL_ELEMENT_TYPE_S64) {
          return NodeError(index, "index " + std::to_string(k) + " is " +
                                      ElementTypeName(operand_types[k]) +
                                      ", not s64");
        }
      }
      node.source = Source::kRead;
      node.slot_or_leaf = static_cast<uint32_t>(attribute);
      if (std::find(read_buffers_.begin(), read_buffers_.end(),
                    node.slot_or_leaf) == read_buffers_.end()) {
        read_buffers_.push_back(node.slot_or_leaf);
      }
      return OkStatus();
    }
    default:
      break;
  }
  const uint32_t arity = KirOperandCount(KirOpClassOf(op));
  if (n.operand_count != arity) {
    return NodeError(index, "takes " + std::to_string(arity) +
                                " operands, has " +
                                std::to_string(n.operand_count));
  }
  StatusOr<ScalarOp> scalar_op = SelectScalarOp(n, operand_types);
  if (!scalar_op.ok()) {
    return Status(scalar_op.status().code(),
                  NodeError(index, scalar_op.status().message()).message());
  }
  node.source = Source::kScalarOp;
  node.op = *scalar_op;
  return OkStatus();
}

// Gives every constant, read and scalar op node a scratch slot. Constants
// and results keep theirs; other slots return to a free list after the
// last node using their value, so a long body needs few slots.
void CompiledBody::PlanScratch() {
  const auto count = static_cast<uint32_t>(nodes_.size());
  constexpr uint32_t kForever = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> last_use(count, 0);
  for (uint32_t i = 0; i < count; ++i) {
    last_use[i] = i;
    const Node& node = nodes_[i];
    for (uint32_t k = 0; k < node.operand_count; ++k) {
      last_use[operands_[node.operand_begin + k]] = i;
    }
  }
  for (uint32_t result : results_) last_use[result] = kForever;
  for (uint32_t i = 0; i < count; ++i) {
    if (nodes_[i].source == Source::kConstant) last_use[i] = kForever;
  }
  std::vector<int32_t> free_slots;
  auto release = [&](uint32_t node_index) {
    const int32_t slot = nodes_[node_index].scratch;
    if (slot >= 0) free_slots.push_back(slot);
  };
  for (uint32_t i = 0; i < count; ++i) {
    Node& node = nodes_[i];
    const bool needs_slot =
        node.source == Source::kRead || node.source == Source::kScalarOp;
    // Constants are written once per frame, so their slots are theirs
    // alone.
    if (node.source == Source::kConstant) {
      node.scratch = static_cast<int32_t>(slot_sizes_.size());
      slot_sizes_.push_back(node.size);
    } else if (needs_slot) {
      auto reusable =
          std::find_if(free_slots.begin(), free_slots.end(), [&](int32_t slot) {
            return slot_sizes_[static_cast<std::size_t>(slot)] == node.size;
          });
      if (reusable != free_slots.end()) {
        node.scratch = *reusable;
        free_slots.erase(reusable);
      } else {
        node.scratch = static_cast<int32_t>(slot_sizes_.size());
        slot_sizes_.push_back(node.size);
      }
    }
    // Operands whose last use is this node, each once, then this node if
    // nothing uses it.
    for (uint32_t k = 0; k < node.operand_count; ++k) {
      const uint32_t operand = operands_[node.operand_begin + k];
      bool first = true;
      for (uint32_t j = 0; j < k; ++j) {
        first = first && operands_[node.operand_begin + j] != operand;
      }
      if (first && last_use[operand] == i) release(operand);
    }
    if (last_use[i] == i) release(i);
  }
}

BodyFrame::BodyFrame(const CompiledBody& body, int64_t capacity)
    : body_(body), capacity_(std::max<int64_t>(capacity, 1)) {
  constexpr std::size_t kAlignment = 64;
  std::vector<std::size_t> offsets;
  std::size_t total = 0;
  for (uint32_t size : body.slot_sizes_) {
    offsets.push_back(total);
    const std::size_t bytes = static_cast<std::size_t>(capacity_) * size;
    total += (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }
  scratch_ = std::make_unique<std::byte[]>(std::max<std::size_t>(total, 1));
  for (std::size_t offset : offsets) {
    slots_.push_back(reinterpret_cast<uint8_t*>(scratch_.get() + offset));
  }
  values_.assign(body.nodes_.size(), nullptr);
  offsets_.resize(static_cast<std::size_t>(capacity_));
  for (std::size_t i = 0; i < body.nodes_.size(); ++i) {
    const CompiledBody::Node& node = body.nodes_[i];
    if (node.source != CompiledBody::Source::kConstant) continue;
    uint8_t* out = slots_[static_cast<std::size_t>(node.scratch)];
    for (int64_t p = 0; p < capacity_; ++p) {
      std::memcpy(out + p * node.size, node.node->constant, node.size);
    }
    values_[i] = out;
  }
}

Status BodyFrame::Evaluate(std::span<uint8_t* const> buffers, int64_t count,
                           std::span<const int64_t* const> indices,
                           std::span<const uint8_t* const> parameters) {
  using Source = CompiledBody::Source;
  const auto& nodes = body_.nodes_;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    const CompiledBody::Node& node = nodes[i];
    switch (node.source) {
      case Source::kConstant:
        break;
      case Source::kIndex:
        values_[i] =
            reinterpret_cast<const uint8_t*>(indices[node.slot_or_leaf]);
        break;
      case Source::kParameter:
        values_[i] = parameters[node.slot_or_leaf];
        break;
      case Source::kRead: {
        uint8_t* out = slots_[static_cast<std::size_t>(node.scratch)];
        PHAL_RETURN_IF_ERROR(Read(node, i, buffers, count, out));
        values_[i] = out;
        break;
      }
      case Source::kScalarOp: {
        ScalarOpArgs args;
        for (uint32_t k = 0; k < node.operand_count; ++k) {
          args.operands[k] = values_[body_.operands_[node.operand_begin + k]];
        }
        args.result = slots_[static_cast<std::size_t>(node.scratch)];
        args.count = count;
        args.node = node.node;
        node.op(args);
        values_[i] = args.result;
        break;
      }
    }
  }
  return OkStatus();
}

Status BodyFrame::Read(const CompiledBody::Node& node, uint32_t index,
                       std::span<uint8_t* const> buffers, int64_t count,
                       uint8_t* out) {
  const phal_kir_buffer_t& buffer = body_.kernel_->buffers[node.slot_or_leaf];
  const uint8_t* source = buffers[node.slot_or_leaf];
  // Unsigned, so that an index out of bounds wraps instead of overflowing
  // before it is reported.
  uint64_t* offsets = offsets_.data();
  std::fill(offsets, offsets + count, 0);
  for (uint32_t d = 0; d < buffer.rank; ++d) {
    const auto* position = reinterpret_cast<const int64_t*>(
        values_[body_.operands_[node.operand_begin + d]]);
    const int64_t dim = buffer.dims[d];
    bool outside = false;
    for (int64_t p = 0; p < count; ++p) {
      outside |=
          static_cast<uint64_t>(position[p]) >= static_cast<uint64_t>(dim);
      offsets[p] = offsets[p] * static_cast<uint64_t>(dim) +
                   static_cast<uint64_t>(position[p]);
    }
    if (!outside) continue;
    const int64_t* bad =
        std::find_if(position, position + count, [&](int64_t i) {
          return static_cast<uint64_t>(i) >= static_cast<uint64_t>(dim);
        });
    const Status error = body_.NodeError(
        index, "index " + std::to_string(*bad) +
                   " is out of bounds in dimension " + std::to_string(d) +
                   " of buf" + std::to_string(node.slot_or_leaf) + " " +
                   DimsText(BufferDims(buffer)));
    return OutOfRange(error.message());
  }
  Gather(node.size, source, offsets, count, out);
  return OkStatus();
}

}  // namespace phal::kir_interpreter
