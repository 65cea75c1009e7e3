#include "compiler/vector_body.h"

#include <bit>
#include <cstring>
#include <limits>

#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;
constexpr phal_element_type_t kPred = PHAL_ELEMENT_TYPE_PRED;
constexpr uint8_t kScratchReg = reg::kFirstTemp;
constexpr uint8_t kAddressReg = reg::kFirstTemp + 1;
constexpr uint8_t kOffsetReg = reg::kFirstTemp + 2;
// Buffers up to this size are read whole into SRAM and indexed there.
constexpr int64_t kResidentBytes = 64 << 10;

uint8_t CompareFlags(phal_kir_comparison_direction_t direction,
                     phal_kir_comparison_type_t type) {
  return static_cast<uint8_t>(static_cast<uint32_t>(direction) |
                              (static_cast<uint32_t>(type) << 3));
}

// The vector opcode computing a KIR op directly; kInvalid for ops that are
// leaves, derived or special.
Opcode DirectOpcode(phal_kir_op_t op) {
  switch (op) {
    case PHAL_KIR_OP_ADD:
      return Opcode::kVAdd;
    case PHAL_KIR_OP_SUBTRACT:
      return Opcode::kVSub;
    case PHAL_KIR_OP_MULTIPLY:
      return Opcode::kVMul;
    case PHAL_KIR_OP_DIVIDE:
      return Opcode::kVDiv;
    case PHAL_KIR_OP_REMAINDER:
      return Opcode::kVRem;
    case PHAL_KIR_OP_MAXIMUM:
      return Opcode::kVMax;
    case PHAL_KIR_OP_MINIMUM:
      return Opcode::kVMin;
    case PHAL_KIR_OP_AND:
      return Opcode::kVAnd;
    case PHAL_KIR_OP_OR:
      return Opcode::kVOr;
    case PHAL_KIR_OP_XOR:
      return Opcode::kVXor;
    case PHAL_KIR_OP_SHIFT_LEFT:
      return Opcode::kVShl;
    case PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC:
      return Opcode::kVShra;
    case PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL:
      return Opcode::kVShrl;
    case PHAL_KIR_OP_POWER:
      return Opcode::kVPow;
    case PHAL_KIR_OP_ATAN2:
      return Opcode::kVAtan2;
    case PHAL_KIR_OP_NEGATE:
      return Opcode::kVNeg;
    case PHAL_KIR_OP_ABS:
      return Opcode::kVAbs;
    case PHAL_KIR_OP_SIGN:
      return Opcode::kVSign;
    case PHAL_KIR_OP_FLOOR:
      return Opcode::kVFloor;
    case PHAL_KIR_OP_CEIL:
      return Opcode::kVCeil;
    case PHAL_KIR_OP_ROUND_NEAREST_AFZ:
      return Opcode::kVRoundAfz;
    case PHAL_KIR_OP_ROUND_NEAREST_EVEN:
      return Opcode::kVRoundEven;
    case PHAL_KIR_OP_NOT:
      return Opcode::kVNot;
    case PHAL_KIR_OP_POPCNT:
      return Opcode::kVPopcnt;
    case PHAL_KIR_OP_CLZ:
      return Opcode::kVClz;
    case PHAL_KIR_OP_EXP:
      return Opcode::kVExp;
    case PHAL_KIR_OP_LOG:
      return Opcode::kVLog;
    case PHAL_KIR_OP_SIN:
      return Opcode::kVSin;
    case PHAL_KIR_OP_COS:
      return Opcode::kVCos;
    case PHAL_KIR_OP_ERF:
      return Opcode::kVErf;
    case PHAL_KIR_OP_SQRT:
      return Opcode::kVSqrt;
    case PHAL_KIR_OP_RSQRT:
      return Opcode::kVRsqrt;
    default:
      return Opcode::kInvalid;
  }
}

bool IsDerived(phal_kir_op_t op) {
  switch (op) {
    case PHAL_KIR_OP_EXPM1:
    case PHAL_KIR_OP_LOG1P:
    case PHAL_KIR_OP_LOGISTIC:
    case PHAL_KIR_OP_TANH:
    case PHAL_KIR_OP_TAN:
    case PHAL_KIR_OP_CBRT:
      return true;
    default:
      return false;
  }
}

uint64_t FloatBits(float value) { return std::bit_cast<uint32_t>(value); }

}  // namespace

std::vector<bool> UsedIndexDims(const phal_kir_body_t& body,
                                std::span<const phal_kir_buffer_t> buffers,
                                uint32_t rank,
                                std::span<const int64_t> box_dims) {
  std::vector<bool> used(rank, false);
  auto mark = [&](const phal_kir_node_t& node) {
    if (node.op == PHAL_KIR_OP_INDEX && node.attributes[0] >= 0 &&
        node.attributes[0] < rank) {
      used[static_cast<size_t>(node.attributes[0])] = true;
    }
  };
  for (uint32_t i = 0; i < body.node_count; ++i) {
    const phal_kir_node_t& node = body.nodes[i];
    bool box = !box_dims.empty() && node.op == PHAL_KIR_OP_READ &&
               node.attributes[0] >= 0 &&
               static_cast<size_t>(node.attributes[0]) < buffers.size();
    if (box) {
      const phal_kir_buffer_t& buffer =
          buffers[static_cast<size_t>(node.attributes[0])];
      box = buffer.rank == box_dims.size() &&
            node.operand_count == box_dims.size();
      for (uint32_t a = 0; box && a < buffer.rank; ++a) {
        const phal_kir_node_t& index =
            body.nodes[body.operands[node.operand_begin + a]];
        box = buffer.dims[a] == box_dims[a] && index.op == PHAL_KIR_OP_INDEX &&
              index.attributes[0] == a;
      }
    }
    if (box) continue;
    for (uint32_t o = 0; o < node.operand_count; ++o) {
      mark(body.nodes[body.operands[node.operand_begin + o]]);
    }
  }
  for (uint32_t r = 0; r < body.result_count; ++r) {
    mark(body.nodes[body.results[r]]);
  }
  return used;
}

VectorBody::VectorBody(ProgramBuilder& program, SramAllocator& sram,
                       std::span<const phal_kir_buffer_t> buffers,
                       int64_t lanes)
    : program_(program), sram_(sram), buffers_(buffers), lanes_(lanes) {}

StatusOr<Slot> VectorBody::NewSlot(phal_element_type_t type,
                                   const std::string& what) {
  const uint64_t bytes =
      static_cast<uint64_t>(lanes_) * ElementTypeByteSize(type);
  PHAL_ASSIGN_OR_RETURN(uint32_t offset, sram_.Allocate(bytes, what));
  return Slot{offset, type};
}

StatusOr<Slot> VectorBody::Constant(phal_element_type_t type, uint64_t bits) {
  PHAL_ASSIGN_OR_RETURN(Slot slot, NewSlot(type, "a constant"));
  program_.Li(kScratchReg, static_cast<int64_t>(bits));
  program_.Fill(type, slot.offset, kScratchReg);
  return slot;
}

StatusOr<Slot> VectorBody::FloatConstant(float value) {
  return Constant(kF32, FloatBits(value));
}

StatusOr<Slot> VectorBody::Broadcast(uint8_t reg) {
  PHAL_ASSIGN_OR_RETURN(Slot slot, NewSlot(kS64, "a broadcast register"));
  program_.Fill(kS64, slot.offset, reg);
  return slot;
}

void VectorBody::Op(Opcode op, const Slot& d, const Slot& a, const Slot& b,
                    const Slot& c, uint8_t flags) {
  const bool operand_typed = op == Opcode::kVCmp || op == Opcode::kVIsFinite;
  program_.Vector(op, operand_typed ? a.type : d.type, d.offset, a.offset,
                  b.offset == kNoSlot ? 0 : b.offset,
                  c.offset == kNoSlot ? 0 : c.offset, PHAL_ELEMENT_TYPE_INVALID,
                  flags);
}

Status VectorBody::Decompose(const Slot& linear, std::span<const int64_t> dims,
                             const std::vector<bool>& used,
                             std::vector<uint32_t>* index) {
  index->assign(dims.size(), kNoSlot);
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    if (used[d]) {
      PHAL_ASSIGN_OR_RETURN(Slot out, NewSlot(kS64, "an index vector"));
      if (stride == 1) {
        Op(Opcode::kVMov, out, linear);
      } else {
        PHAL_ASSIGN_OR_RETURN(Slot s, IndexConstant(stride));
        Op(Opcode::kVDiv, out, linear, s);
        Free(s);
      }
      if (d > 0) {
        PHAL_ASSIGN_OR_RETURN(Slot m, IndexConstant(dims[d]));
        Op(Opcode::kVRem, out, out, m);
        Free(m);
      }
      (*index)[d] = out.offset;
    }
    stride *= dims[d];
  }
  return OkStatus();
}

StatusOr<std::vector<Slot>> VectorBody::Emit(const phal_kir_body_t& body,
                                             const TileLeaves& leaves,
                                             const std::string& what) {
  // The last node reading each value; results live past the body.
  std::vector<int64_t> last_use(body.node_count, -1);
  for (uint32_t i = 0; i < body.node_count; ++i) {
    const phal_kir_node_t& node = body.nodes[i];
    for (uint32_t o = 0; o < node.operand_count; ++o) {
      last_use[body.operands[node.operand_begin + o]] = i;
    }
  }
  for (uint32_t r = 0; r < body.result_count; ++r) {
    last_use[body.results[r]] = std::numeric_limits<int64_t>::max();
  }
  std::vector<Slot> values(body.node_count);
  std::vector<bool> owned(body.node_count, false);
  for (uint32_t i = 0; i < body.node_count; ++i) {
    const phal_kir_node_t& node = body.nodes[i];
    if (!IsMachineType(node.type)) {
      return Unimplemented(std::string("asic-ref: ") +
                           ElementTypeName(node.type) +
                           " is not a type of this machine (node %" +
                           std::to_string(i) + " of the " + what + ")");
    }
    if (node.op == PHAL_KIR_OP_INDEX || node.op == PHAL_KIR_OP_PARAMETER) {
      const auto a = static_cast<size_t>(node.attributes[0]);
      if (node.op == PHAL_KIR_OP_INDEX) {
        // A dimension without a vector may only feed box reads, which do
        // not look at it; any other use fails below.
        values[i] =
            Slot{a < leaves.index.size() ? leaves.index[a] : kNoSlot, kS64};
      } else {
        if (a >= leaves.parameters.size()) {
          return Internal("asic-ref compiler: PARAMETER " + std::to_string(a) +
                          " has no vector in the " + what);
        }
        values[i] = leaves.parameters[a];
      }
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(values[i], EmitNode(body, i, values, leaves, what));
    owned[i] = true;
    for (uint32_t o = 0; o < node.operand_count; ++o) {
      const uint32_t operand = body.operands[node.operand_begin + o];
      if (owned[operand] && last_use[operand] == i) {
        Free(values[operand]);
        owned[operand] = false;
      }
    }
    if (last_use[i] < 0) {
      Free(values[i]);
      owned[i] = false;
    }
  }
  std::vector<Slot> results;
  for (uint32_t r = 0; r < body.result_count; ++r) {
    const uint32_t n = body.results[r];
    if (owned[n]) {
      // A node listed twice as a result gets a copy for the second.
      bool seen = false;
      for (uint32_t q = 0; q < r; ++q) seen |= body.results[q] == n;
      if (!seen) {
        results.push_back(values[n]);
        continue;
      }
    }
    // A leaf (or repeated) result: copy it, so every result is the caller's.
    PHAL_ASSIGN_OR_RETURN(Slot copy, NewSlot(values[n].type, "a result"));
    Op(Opcode::kVMov, copy, values[n]);
    results.push_back(copy);
  }
  return results;
}

StatusOr<Slot> VectorBody::EmitNode(const phal_kir_body_t& body,
                                    uint32_t node_index,
                                    const std::vector<Slot>& values,
                                    const TileLeaves& leaves,
                                    const std::string& what) {
  const phal_kir_node_t& node = body.nodes[node_index];
  auto operand = [&](uint32_t o) {
    return values[body.operands[node.operand_begin + o]];
  };
  if (node.op == PHAL_KIR_OP_READ) {
    return EmitRead(body, node, values, leaves, what);
  }
  for (uint32_t o = 0; o < node.operand_count; ++o) {
    if (operand(o).offset == kNoSlot) {
      return Internal("asic-ref compiler: node %" + std::to_string(node_index) +
                      " of the " + what + " uses a value with no vector");
    }
    if (!IsMachineType(operand(o).type)) {
      return Unimplemented(
          std::string("asic-ref: ") + ElementTypeName(operand(o).type) +
          " is not a type of this machine (node %" +
          std::to_string(node_index) + " of the " + what + ")");
    }
  }
  if (node.op == PHAL_KIR_OP_CONSTANT) {
    return Constant(node.type, node.constant[0]);
  }
  PHAL_ASSIGN_OR_RETURN(Slot d, NewSlot(node.type, "node values"));
  const Opcode direct = DirectOpcode(node.op);
  if (direct != Opcode::kInvalid) {
    Op(direct, d, operand(0), node.operand_count > 1 ? operand(1) : Slot{},
       node.operand_count > 2 ? operand(2) : Slot{});
    return d;
  }
  switch (node.op) {
    case PHAL_KIR_OP_COMPARE:
      Op(Opcode::kVCmp, d, operand(0), operand(1), {},
         CompareFlags(
             static_cast<phal_kir_comparison_direction_t>(node.attributes[0]),
             static_cast<phal_kir_comparison_type_t>(node.attributes[1])));
      return d;
    case PHAL_KIR_OP_IS_FINITE:
      Op(Opcode::kVIsFinite, d, operand(0));
      return d;
    case PHAL_KIR_OP_SELECT:
      Op(Opcode::kVSel, d, operand(0), operand(1), operand(2));
      return d;
    case PHAL_KIR_OP_CLAMP:
      Op(Opcode::kVClamp, d, operand(0), operand(1), operand(2));
      return d;
    case PHAL_KIR_OP_CONVERT:
    case PHAL_KIR_OP_BITCAST_CONVERT:
      program_.Vector(
          node.op == PHAL_KIR_OP_CONVERT ? Opcode::kVCvt : Opcode::kVBitcast,
          node.type, d.offset, operand(0).offset, 0, 0, operand(0).type);
      return d;
    case PHAL_KIR_OP_REDUCE_PRECISION:
      program_.Vector(Opcode::kVReducePrecision, node.type, d.offset,
                      operand(0).offset,
                      static_cast<uint32_t>(node.attributes[0]),
                      static_cast<uint32_t>(node.attributes[1]));
      return d;
    default:
      break;
  }
  if (IsDerived(node.op) && IsFloat(node.type)) {
    if (node.type == kF32) {
      PHAL_RETURN_IF_ERROR(EmitDerived(node.op, d, operand(0)));
      return d;
    }
    // 16-bit floats: computed in f32, rounded once.
    PHAL_ASSIGN_OR_RETURN(Slot x, NewSlot(kF32, "a widened operand"));
    PHAL_ASSIGN_OR_RETURN(Slot y, NewSlot(kF32, "a widened result"));
    program_.Vector(Opcode::kVCvt, kF32, x.offset, operand(0).offset, 0, 0,
                    node.type);
    PHAL_RETURN_IF_ERROR(EmitDerived(node.op, y, x));
    program_.Vector(Opcode::kVCvt, node.type, d.offset, y.offset, 0, 0, kF32);
    Free(x);
    Free(y);
    return d;
  }
  Free(d);
  return Unimplemented("asic-ref: node %" + std::to_string(node_index) +
                       " of the " + what + " (op " + std::to_string(node.op) +
                       " on " + ElementTypeName(node.type) +
                       ") has no lowering on this machine");
}

StatusOr<Slot> VectorBody::EmitRead(const phal_kir_body_t& body,
                                    const phal_kir_node_t& node,
                                    const std::vector<Slot>& values,
                                    const TileLeaves& leaves,
                                    const std::string& what) {
  const auto buffer_index = static_cast<uint32_t>(node.attributes[0]);
  if (buffer_index >= buffers_.size()) {
    return InvalidArgument("asic-ref: READ of buffer " +
                           std::to_string(buffer_index) + " in the " + what +
                           ", which has " + std::to_string(buffers_.size()));
  }
  const phal_kir_buffer_t& buffer = buffers_[buffer_index];
  const phal_element_type_t type = buffer.element_type;
  using Box = TileLeaves::Box;
  if (!IsMachineType(type)) {
    return Unimplemented(std::string("asic-ref: ") + ElementTypeName(type) +
                         " is not a type of this machine (buffer " +
                         std::to_string(buffer_index) + ")");
  }
  const int64_t size = static_cast<int64_t>(ElementTypeByteSize(type));
  PHAL_ASSIGN_OR_RETURN(Slot d, NewSlot(type, "read values"));
  program_.LoadBufferAddress(kAddressReg, buffer_index);
  // A scalar: one element, then broadcast.
  if (buffer.rank == 0) {
    const uint16_t one = program_.Descriptor({{1, 0, 0}, {1, 0, 0}});
    program_.DmaBox(Opcode::kDmaLoad, type, d.offset, kAddressReg, reg::kZero,
                    reg::kZero, reg::kZero, one);
    program_.Vector(Opcode::kVBcast, type, d.offset, d.offset);
    return d;
  }
  // Consecutive lanes reading consecutive elements: one box.
  bool linear = leaves.linear_dims.size() == buffer.rank;
  for (uint32_t a = 0; linear && a < buffer.rank; ++a) {
    const phal_kir_node_t& index =
        body.nodes[body.operands[node.operand_begin + a]];
    linear = buffer.dims[a] == leaves.linear_dims[a] &&
             index.op == PHAL_KIR_OP_INDEX && index.attributes[0] == a;
  }
  if (linear) {
    program_.Muli(kOffsetReg, leaves.linear_start, size);
    program_.Alu(Opcode::kAdd, kAddressReg, kAddressReg, kOffsetReg);
    const uint16_t row = program_.Descriptor({{1, 0, 0}, {1, 0, 0}});
    program_.DmaBox(Opcode::kDmaLoad, type, d.offset, kAddressReg, reg::kLanes,
                    reg::kZero, reg::kZero, row);
    return d;
  }
  // A tile's lanes reading a box of the buffer (a reduction's rows and
  // columns, a dot's C tile).
  const Box& box = leaves.box;
  const size_t skipped = box.dims.size() - buffer.rank;
  bool boxed = !box.dims.empty() && buffer.rank >= 1 &&
               buffer.rank <= box.dims.size() &&
               (skipped == 0 || (box.trailing && buffer.rank <= 2));
  for (uint32_t a = 0; boxed && a < buffer.rank; ++a) {
    const phal_kir_node_t& index =
        body.nodes[body.operands[node.operand_begin + a]];
    boxed = buffer.dims[a] == box.dims[a + skipped] &&
            index.op == PHAL_KIR_OP_INDEX &&
            index.attributes[0] == static_cast<int64_t>(a + skipped);
  }
  if (boxed) {
    // A trailing-dimension buffer: [n] has no rows, [m, n] rows of n.
    const int64_t r_stride =
        skipped == 0 ? box.r_stride : (buffer.rank == 1 ? 0 : buffer.dims[1]);
    const int64_t b_stride = skipped == 0 ? box.b_stride : 0;
    program_.Muli(kOffsetReg, box.c_start, box.c_stride * size);
    program_.Alu(Opcode::kAdd, kAddressReg, kAddressReg, kOffsetReg);
    if (r_stride != 0) {
      program_.Muli(kOffsetReg, box.r_start, r_stride * size);
      program_.Alu(Opcode::kAdd, kAddressReg, kAddressReg, kOffsetReg);
    }
    if (b_stride != 0 && box.b_start != reg::kZero) {
      program_.Muli(kOffsetReg, box.b_start, b_stride * size);
      program_.Alu(Opcode::kAdd, kAddressReg, kAddressReg, kOffsetReg);
    }

    if (box.transpose != kNoSlot) {
      PHAL_ASSIGN_OR_RETURN(Slot rows, NewSlot(type, "rows read"));
      const uint16_t descriptor =
          program_.Descriptor({{box.c_stride, r_stride, 0}, {box.rows, 1, 0}});
      program_.DmaBox(Opcode::kDmaLoad, type, rows.offset, kAddressReg,
                      box.c_count, box.r_count, reg::kZero, descriptor);
      program_.Vector(Opcode::kVPerm, type, d.offset, rows.offset,
                      box.transpose);
      Free(rows);
      return d;
    }
    const uint16_t descriptor =
        program_.Descriptor({{r_stride, box.c_stride, 0}, {box.columns, 1, 0}});
    program_.DmaBox(Opcode::kDmaLoad, type, d.offset, kAddressReg, box.r_count,
                    box.c_count, reg::kZero, descriptor);
    return d;
  }
  // Otherwise offsets sum(index[a] * stride[a]): a small buffer comes in
  // whole (one box) and vperm picks the elements; a large one is gathered.
  int64_t count = 1;
  for (uint32_t a = 0; a < buffer.rank; ++a) count *= buffer.dims[a];
  const bool resident = count <= lanes_ && count * size <= kResidentBytes;
  PHAL_ASSIGN_OR_RETURN(Slot offsets, NewSlot(kS64, "read offsets"));
  int64_t stride = 1;
  bool first = true;
  for (uint32_t a = buffer.rank; a-- > 0;) {
    const Slot index = values[body.operands[node.operand_begin + a]];
    if (index.offset == kNoSlot) {
      return Internal("asic-ref compiler: a READ index with no vector in the " +
                      what);
    }
    if (index.type != kS64) {
      return InvalidArgument("asic-ref: READ index of type " +
                             std::string(ElementTypeName(index.type)) +
                             " in the " + what);
    }
    if (stride == 1) {
      Op(first ? Opcode::kVMov : Opcode::kVAdd, offsets,
         first ? index : offsets, first ? Slot{} : index);
    } else {
      PHAL_ASSIGN_OR_RETURN(Slot s, IndexConstant(stride));
      if (first) {
        Op(Opcode::kVMul, offsets, index, s);
      } else {
        Op(Opcode::kVMul, s, index, s);
        Op(Opcode::kVAdd, offsets, offsets, s);
      }
      Free(s);
    }
    first = false;
    stride *= buffer.dims[a];
  }
  if (resident) {
    PHAL_ASSIGN_OR_RETURN(uint32_t whole,
                          sram_.Allocate(count * size, "a small buffer"));
    program_.Li(kOffsetReg, count);
    const uint16_t row = program_.Descriptor({{1, 0, 0}, {1, 0, 0}});
    program_.DmaBox(Opcode::kDmaLoad, type, whole, kAddressReg, kOffsetReg,
                    reg::kZero, reg::kZero, row);
    program_.Vector(Opcode::kVPerm, type, d.offset, whole, offsets.offset);
    sram_.Free(whole);
  } else {
    program_.DmaIndirect(Opcode::kDmaGather, type, d.offset, kAddressReg,
                         offsets.offset, reg::kLanes);
  }
  Free(offsets);
  return d;
}

// -- functions built from the SFU's primitives (f32) --------------------------

Status VectorBody::EmitDerived(phal_kir_op_t op, const Slot& d, const Slot& x) {
  switch (op) {
    case PHAL_KIR_OP_EXPM1:
      return Expm1(d, x);
    case PHAL_KIR_OP_LOG1P:
      return Log1p(d, x);
    case PHAL_KIR_OP_LOGISTIC:
      return Logistic(d, x);
    case PHAL_KIR_OP_TANH:
      return Tanh(d, x);
    case PHAL_KIR_OP_TAN:
      return Tan(d, x);
    case PHAL_KIR_OP_CBRT:
      return Cbrt(d, x);
    default:
      return Internal("asic-ref compiler: no derived function for op " +
                      std::to_string(op));
  }
}

namespace {

// Temporaries freed when the function that made them returns.
class Temps {
 public:
  explicit Temps(VectorBody& body) : body_(body) {}
  ~Temps() {
    for (const Slot& slot : slots_) body_.Free(slot);
  }
  StatusOr<Slot> F32() { return Keep(body_.NewSlot(kF32, "a temporary")); }
  StatusOr<Slot> Pred() { return Keep(body_.NewSlot(kPred, "a temporary")); }
  StatusOr<Slot> Const(float value) { return Keep(body_.FloatConstant(value)); }

 private:
  StatusOr<Slot> Keep(StatusOr<Slot> slot) {
    if (slot.ok()) slots_.push_back(*slot);
    return slot;
  }
  VectorBody& body_;
  std::vector<Slot> slots_;
};

uint8_t Cmp(phal_kir_comparison_direction_t direction) {
  return CompareFlags(direction, PHAL_KIR_COMPARISON_FLOAT);
}

}  // namespace

// expm1(x) = (u - 1) * x / log(u) with u = exp(x) (Kahan) for |x| <= 0.5,
// u - 1 beyond (no cancellation there), and x where u == 1.
Status VectorBody::Expm1(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot one, t.Const(1.0f));
  PHAL_ASSIGN_OR_RETURN(Slot half, t.Const(0.5f));
  PHAL_ASSIGN_OR_RETURN(Slot u, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot um1, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot lu, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot c, t.Pred());
  Op(Opcode::kVExp, u, x);
  Op(Opcode::kVSub, um1, u, one);
  Op(Opcode::kVLog, lu, u);
  Op(Opcode::kVMul, d, um1, x);
  Op(Opcode::kVDiv, d, d, lu);
  Op(Opcode::kVCmp, c, u, one, {}, Cmp(PHAL_KIR_COMPARE_EQ));
  Op(Opcode::kVSel, d, c, x, d);
  Op(Opcode::kVAbs, lu, x);
  Op(Opcode::kVCmp, c, lu, half, {}, Cmp(PHAL_KIR_COMPARE_GT));
  Op(Opcode::kVSel, d, c, um1, d);
  return OkStatus();
}

// log1p(x) = log(u) * x / (u - 1) with u = 1 + x (Goldberg) for |x| <=
// 0.5, log(u) beyond (u is exact or its rounding is below an ulp of the
// result there), and x where u == 1.
Status VectorBody::Log1p(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot one, t.Const(1.0f));
  PHAL_ASSIGN_OR_RETURN(Slot half, t.Const(0.5f));
  PHAL_ASSIGN_OR_RETURN(Slot u, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot um1, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot lu, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot c, t.Pred());
  Op(Opcode::kVAdd, u, x, one);
  Op(Opcode::kVSub, um1, u, one);
  Op(Opcode::kVLog, lu, u);
  Op(Opcode::kVMul, d, lu, x);
  Op(Opcode::kVDiv, d, d, um1);
  Op(Opcode::kVCmp, c, u, one, {}, Cmp(PHAL_KIR_COMPARE_EQ));
  Op(Opcode::kVSel, d, c, x, d);
  Op(Opcode::kVAbs, um1, x);
  Op(Opcode::kVCmp, c, um1, half, {}, Cmp(PHAL_KIR_COMPARE_GT));
  Op(Opcode::kVSel, d, c, lu, d);
  return OkStatus();
}

// logistic(x) = e / (1 + e) with e = exp(-|x|) for x < 0, 1 / (1 + e)
// otherwise: no overflow, and tiny results keep their precision.
Status VectorBody::Logistic(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot one, t.Const(1.0f));
  PHAL_ASSIGN_OR_RETURN(Slot zero, t.Const(0.0f));
  PHAL_ASSIGN_OR_RETURN(Slot e, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot den, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot low, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot negative, t.Pred());
  Op(Opcode::kVAbs, e, x);
  Op(Opcode::kVNeg, e, e);
  Op(Opcode::kVExp, e, e);
  Op(Opcode::kVAdd, den, one, e);
  Op(Opcode::kVDiv, low, e, den);
  Op(Opcode::kVDiv, d, one, den);
  Op(Opcode::kVCmp, negative, x, zero, {}, Cmp(PHAL_KIR_COMPARE_LT));
  Op(Opcode::kVSel, d, negative, low, d);
  return OkStatus();
}

// tanh(|x|) = 1 - 2 / (exp(2|x|) + 1) from 0.55 up, -m / (2 + m) with
// m = expm1(-2|x|) below; x itself under 2^-12; the sign of x.
Status VectorBody::Tanh(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot one, t.Const(1.0f));
  PHAL_ASSIGN_OR_RETURN(Slot two, t.Const(2.0f));
  PHAL_ASSIGN_OR_RETURN(Slot zero, t.Const(0.0f));
  PHAL_ASSIGN_OR_RETURN(Slot split, t.Const(0.55f));
  PHAL_ASSIGN_OR_RETURN(Slot tiny, t.Const(0x1p-12f));
  PHAL_ASSIGN_OR_RETURN(Slot ax, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot a2, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot big, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot small, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot c, t.Pred());
  Op(Opcode::kVAbs, ax, x);
  Op(Opcode::kVAdd, a2, ax, ax);
  Op(Opcode::kVExp, big, a2);
  Op(Opcode::kVAdd, big, big, one);
  Op(Opcode::kVDiv, big, two, big);
  Op(Opcode::kVSub, big, one, big);
  Op(Opcode::kVNeg, a2, a2);
  PHAL_RETURN_IF_ERROR(Expm1(small, a2));
  Op(Opcode::kVAdd, a2, two, small);
  Op(Opcode::kVNeg, small, small);
  Op(Opcode::kVDiv, small, small, a2);
  Op(Opcode::kVCmp, c, ax, split, {}, Cmp(PHAL_KIR_COMPARE_LT));
  Op(Opcode::kVSel, d, c, small, big);
  Op(Opcode::kVNeg, big, d);
  Op(Opcode::kVCmp, c, x, zero, {}, Cmp(PHAL_KIR_COMPARE_LT));
  Op(Opcode::kVSel, d, c, big, d);
  Op(Opcode::kVCmp, c, ax, tiny, {}, Cmp(PHAL_KIR_COMPARE_LT));
  Op(Opcode::kVSel, d, c, x, d);
  return OkStatus();
}

Status VectorBody::Tan(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot c, t.F32());
  Op(Opcode::kVSin, d, x);
  Op(Opcode::kVCos, c, x);
  Op(Opcode::kVDiv, d, d, c);
  return OkStatus();
}

// cbrt(x) = sign(x) * y, y = exp(log|x| / 3) refined by one Newton step
// y += (|x| / y^2 - y) / 3; x itself at 0, infinities and NaN.
Status VectorBody::Cbrt(const Slot& d, const Slot& x) {
  Temps t(*this);
  PHAL_ASSIGN_OR_RETURN(Slot third, t.Const(1.0f / 3.0f));
  PHAL_ASSIGN_OR_RETURN(Slot zero, t.Const(0.0f));
  PHAL_ASSIGN_OR_RETURN(Slot ax, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot y, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot q, t.F32());
  PHAL_ASSIGN_OR_RETURN(Slot c, t.Pred());
  PHAL_ASSIGN_OR_RETURN(Slot keep, t.Pred());
  Op(Opcode::kVAbs, ax, x);
  Op(Opcode::kVLog, y, ax);
  Op(Opcode::kVMul, y, y, third);
  Op(Opcode::kVExp, y, y);
  Op(Opcode::kVMul, q, y, y);
  Op(Opcode::kVDiv, q, ax, q);
  Op(Opcode::kVSub, q, q, y);
  Op(Opcode::kVMul, q, q, third);
  Op(Opcode::kVAdd, y, y, q);
  Op(Opcode::kVNeg, q, y);
  Op(Opcode::kVCmp, c, x, zero, {}, Cmp(PHAL_KIR_COMPARE_LT));
  Op(Opcode::kVSel, d, c, q, y);
  // Keep x where it is zero or not finite.
  Op(Opcode::kVIsFinite, keep, x);
  Op(Opcode::kVNot, keep, keep);
  Op(Opcode::kVCmp, c, ax, zero, {}, Cmp(PHAL_KIR_COMPARE_EQ));
  Op(Opcode::kVOr, keep, keep, c);
  Op(Opcode::kVSel, d, keep, x, d);
  return OkStatus();
}

}  // namespace phal::asic_ref
