#include "core/compiler/kir_kernel.h"

#include <algorithm>
#include <cstring>

namespace phal {

KirBody::KirBody(const phal_kir_body_t& body)
    : nodes_(body.nodes, body.nodes + body.node_count),
      operands_(body.operands, body.operands + body.operand_count),
      results_(body.results, body.results + body.result_count),
      parameter_count_(body.parameter_count) {}

uint32_t KirBody::Intern(phal_kir_node_t node,
                         std::span<const uint32_t> operands) {
  Key key{node.op,
          node.type,
          std::vector<uint32_t>(operands.begin(), operands.end()),
          std::vector<int64_t>(node.attributes, node.attributes + 4),
          node.constant[0],
          node.constant[1]};
  auto found = numbering_.find(key);
  if (found != numbering_.end()) return found->second;
  node.operand_begin = static_cast<uint32_t>(operands_.size());
  node.operand_count = static_cast<uint32_t>(operands.size());
  operands_.insert(operands_.end(), operands.begin(), operands.end());
  const auto index = static_cast<uint32_t>(nodes_.size());
  nodes_.push_back(node);
  numbering_.emplace(std::move(key), index);
  return index;
}

uint32_t KirBody::Add(phal_kir_op_t op, phal_element_type_t type,
                      std::span<const uint32_t> operands,
                      std::span<const int64_t> attributes) {
  phal_kir_node_t node{};
  node.op = op;
  node.type = type;
  std::copy_n(attributes.begin(), std::min<std::size_t>(attributes.size(), 4),
              node.attributes);
  return Intern(node, operands);
}

uint32_t KirBody::Constant(phal_element_type_t type, uint64_t low,
                           uint64_t high) {
  phal_kir_node_t node{};
  node.op = PHAL_KIR_OP_CONSTANT;
  node.type = type;
  node.constant[0] = low;
  node.constant[1] = high;
  return Intern(node, {});
}

uint32_t KirBody::Index64(int64_t value) {
  return Constant(PHAL_ELEMENT_TYPE_S64, static_cast<uint64_t>(value));
}

uint32_t KirBody::Index(int64_t dimension) {
  const int64_t attributes[] = {dimension};
  return Add(PHAL_KIR_OP_INDEX, PHAL_ELEMENT_TYPE_S64, {}, attributes);
}

uint32_t KirBody::Read(phal_element_type_t type, uint32_t buffer,
                       std::span<const uint32_t> indices) {
  const int64_t attributes[] = {buffer};
  return Add(PHAL_KIR_OP_READ, type, indices, attributes);
}

uint32_t KirBody::Parameter(phal_element_type_t type, int64_t number) {
  const int64_t attributes[] = {number};
  return Add(PHAL_KIR_OP_PARAMETER, type, {}, attributes);
}

bool KirBody::IsIndexConstant(uint32_t node, int64_t* value) const {
  const phal_kir_node_t& n = nodes_[node];
  if (n.op != PHAL_KIR_OP_CONSTANT || n.type != PHAL_ELEMENT_TYPE_S64) {
    return false;
  }
  *value = static_cast<int64_t>(n.constant[0]);
  return true;
}

uint32_t KirBody::AddIndex(uint32_t lhs, uint32_t rhs) {
  int64_t a = 0;
  int64_t b = 0;
  const bool lhs_constant = IsIndexConstant(lhs, &a);
  const bool rhs_constant = IsIndexConstant(rhs, &b);
  if (lhs_constant && rhs_constant) return Index64(a + b);
  if (lhs_constant && a == 0) return rhs;
  if (rhs_constant && b == 0) return lhs;
  const uint32_t operands[] = {lhs, rhs};
  return Add(PHAL_KIR_OP_ADD, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::SubtractIndex(uint32_t lhs, uint32_t rhs) {
  int64_t a = 0;
  int64_t b = 0;
  const bool lhs_constant = IsIndexConstant(lhs, &a);
  const bool rhs_constant = IsIndexConstant(rhs, &b);
  if (lhs_constant && rhs_constant) return Index64(a - b);
  if (rhs_constant && b == 0) return lhs;
  const uint32_t operands[] = {lhs, rhs};
  return Add(PHAL_KIR_OP_SUBTRACT, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::MultiplyIndex(uint32_t lhs, int64_t factor) {
  int64_t a = 0;
  if (IsIndexConstant(lhs, &a)) return Index64(a * factor);
  if (factor == 1) return lhs;
  if (factor == 0) return Index64(0);
  const uint32_t operands[] = {lhs, Index64(factor)};
  return Add(PHAL_KIR_OP_MULTIPLY, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::DivideIndex(uint32_t lhs, int64_t divisor) {
  int64_t a = 0;
  if (IsIndexConstant(lhs, &a)) return Index64(a / divisor);
  if (divisor == 1) return lhs;
  const uint32_t operands[] = {lhs, Index64(divisor)};
  return Add(PHAL_KIR_OP_DIVIDE, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::RemainderIndex(uint32_t lhs, int64_t divisor) {
  int64_t a = 0;
  if (IsIndexConstant(lhs, &a)) return Index64(a % divisor);
  if (divisor == 1) return Index64(0);
  const uint32_t operands[] = {lhs, Index64(divisor)};
  return Add(PHAL_KIR_OP_REMAINDER, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::CompareIndex(phal_kir_comparison_direction_t direction,
                               uint32_t lhs, uint32_t rhs) {
  const uint32_t operands[] = {lhs, rhs};
  const int64_t attributes[] = {direction, PHAL_KIR_COMPARISON_SIGNED};
  return Add(PHAL_KIR_OP_COMPARE, PHAL_ELEMENT_TYPE_PRED, operands, attributes);
}

uint32_t KirBody::ClampIndex(int64_t low, uint32_t value, int64_t high) {
  int64_t a = 0;
  if (IsIndexConstant(value, &a)) return Index64(std::clamp(a, low, high));
  const uint32_t operands[] = {Index64(low), value, Index64(high)};
  return Add(PHAL_KIR_OP_CLAMP, PHAL_ELEMENT_TYPE_S64, operands);
}

uint32_t KirBody::And(uint32_t lhs, uint32_t rhs) {
  const uint32_t operands[] = {lhs, rhs};
  return Add(PHAL_KIR_OP_AND, PHAL_ELEMENT_TYPE_PRED, operands);
}

std::span<const uint32_t> KirBody::operands_of(uint32_t index) const {
  const phal_kir_node_t& n = nodes_[index];
  return std::span<const uint32_t>(operands_.data() + n.operand_begin,
                                   n.operand_count);
}

void KirBody::RemapBuffers(const std::vector<uint32_t>& mapping) {
  for (phal_kir_node_t& n : nodes_) {
    if (n.op == PHAL_KIR_OP_READ) {
      n.attributes[0] = mapping[static_cast<std::size_t>(n.attributes[0])];
    }
  }
  numbering_.clear();
}

phal_kir_body_t KirBody::View() const {
  phal_kir_body_t view{};
  view.nodes = nodes_.data();
  view.node_count = static_cast<uint32_t>(nodes_.size());
  view.operands = operands_.data();
  view.operand_count = static_cast<uint32_t>(operands_.size());
  view.results = results_.data();
  view.result_count = static_cast<uint32_t>(results_.size());
  view.parameter_count = parameter_count_;
  return view;
}

KirKernel::KirKernel(std::string name, phal_kernel_kind_t kind)
    : name_(std::move(name)), kind_(kind) {}

uint32_t KirKernel::AddBuffer(phal_element_type_t type,
                              std::vector<int64_t> dims,
                              phal_kir_access_t access) {
  buffers_.push_back(KirBuffer{type, access, std::move(dims)});
  return static_cast<uint32_t>(buffers_.size() - 1);
}

namespace {

std::vector<int64_t> ArrayOf(const int64_t* data, std::size_t count) {
  return count == 0 ? std::vector<int64_t>()
                    : std::vector<int64_t>(data, data + count);
}

const int64_t* DataOrNull(const std::vector<int64_t>& values) {
  return values.empty() ? nullptr : values.data();
}

}  // namespace

std::unique_ptr<KirKernel> KirKernel::Copy(const phal_kernel_desc_t& desc) {
  auto kernel = std::make_unique<KirKernel>(
      desc.name != nullptr ? desc.name : "", desc.kind);
  for (uint32_t i = 0; i < desc.buffer_count; ++i) {
    const phal_kir_buffer_t& b = desc.buffers[i];
    kernel->AddBuffer(b.element_type, ArrayOf(b.dims, b.rank), b.access);
  }
  KirKernel& k = *kernel;
  switch (desc.kind) {
    case PHAL_KERNEL_KIND_LOOP: {
      const phal_kir_loop_t& loop = *desc.u.loop;
      k.dims = ArrayOf(loop.dims, loop.rank);
      k.outputs.assign(loop.outputs, loop.outputs + loop.output_count);
      k.body = KirBody(loop.body);
      break;
    }
    case PHAL_KERNEL_KIND_REDUCE: {
      const phal_kir_reduce_t& reduce = *desc.u.reduce;
      k.dims = ArrayOf(reduce.dims, reduce.rank);
      k.reduced_dims = ArrayOf(reduce.reduced_dims, reduce.reduced_count);
      k.accumulator_count = reduce.accumulator_count;
      k.outputs.assign(reduce.outputs, reduce.outputs + reduce.output_count);
      k.init = KirBody(reduce.init);
      k.body = KirBody(reduce.values);
      k.reducer = KirBody(reduce.reducer);
      k.epilogue = KirBody(reduce.epilogue);
      break;
    }
    case PHAL_KERNEL_KIND_DOT:
      k.dot = *desc.u.dot;
      k.body = KirBody(desc.u.dot->epilogue);
      break;
    case PHAL_KERNEL_KIND_CONV: {
      const phal_kir_conv_t& c = *desc.u.conv;
      k.conv = c;
      const std::size_t n = c.spatial_count;
      k.arrays = {ArrayOf(c.input_spatial_dimensions, n),
                  ArrayOf(c.kernel_spatial_dimensions, n),
                  ArrayOf(c.output_spatial_dimensions, n),
                  ArrayOf(c.window_strides, n),
                  ArrayOf(c.padding, 2 * n),
                  ArrayOf(c.lhs_dilation, n),
                  ArrayOf(c.rhs_dilation, n)};
      k.window_reversal.assign(c.window_reversal, c.window_reversal + n);
      k.body = KirBody(c.epilogue);
      break;
    }
    case PHAL_KERNEL_KIND_GATHER: {
      const phal_kir_gather_t& g = *desc.u.gather;
      k.gather = g;
      k.arrays = {
          ArrayOf(g.offset_dims, g.offset_dims_count),
          ArrayOf(g.collapsed_slice_dims, g.collapsed_slice_dims_count),
          ArrayOf(g.start_index_map, g.start_index_map_count),
          ArrayOf(g.operand_batching_dims, g.operand_batching_dims_count),
          ArrayOf(g.start_indices_batching_dims,
                  g.start_indices_batching_dims_count),
          ArrayOf(g.slice_sizes, desc.buffers[g.operand].rank)};
      break;
    }
    case PHAL_KERNEL_KIND_SCATTER: {
      const phal_kir_scatter_t& s = *desc.u.scatter;
      k.scatter = s;
      k.arrays = {ArrayOf(s.update_window_dims, s.update_window_dims_count),
                  ArrayOf(s.inserted_window_dims, s.inserted_window_dims_count),
                  ArrayOf(s.scatter_dims_to_operand_dims,
                          s.scatter_dims_to_operand_dims_count),
                  ArrayOf(s.input_batching_dims, s.input_batching_dims_count),
                  ArrayOf(s.scatter_indices_batching_dims,
                          s.scatter_indices_batching_dims_count)};
      k.reducer = KirBody(s.combiner);
      break;
    }
    case PHAL_KERNEL_KIND_SORT: {
      const phal_kir_sort_t& s = *desc.u.sort;
      k.sort = s;
      k.operands.assign(s.operands, s.operands + s.operand_count);
      k.outputs.assign(s.outputs, s.outputs + s.operand_count);
      k.reducer = KirBody(s.comparator);
      break;
    }
    case PHAL_KERNEL_KIND_COPY:
      k.copy = *desc.u.copy;
      break;
  }
  return kernel;
}

void KirKernel::AliasOutputToInput(uint32_t output, uint32_t input) {
  const uint32_t dropped = outputs[output];
  outputs[output] = input;
  buffers_[input].access = PHAL_KIR_ACCESS_READ_WRITE;
  buffers_.erase(buffers_.begin() + dropped);
  for (uint32_t& o : outputs) {
    if (o > dropped) --o;
  }
}

const phal_kernel_desc_t& KirKernel::Desc() {
  buffer_views_.clear();
  for (const KirBuffer& b : buffers_) {
    phal_kir_buffer_t view{};
    view.element_type = b.element_type;
    view.access = b.access;
    view.rank = static_cast<uint32_t>(b.dims.size());
    view.dims = DataOrNull(b.dims);
    buffer_views_.push_back(view);
  }
  desc_ = phal_kernel_desc_t{};
  desc_.struct_size = sizeof(phal_kernel_desc_t);
  desc_.name = name_.c_str();
  desc_.kind = kind_;
  desc_.buffer_count = static_cast<uint32_t>(buffer_views_.size());
  desc_.buffers = buffer_views_.data();
  switch (kind_) {
    case PHAL_KERNEL_KIND_LOOP:
      loop_.rank = static_cast<uint32_t>(dims.size());
      loop_.dims = DataOrNull(dims);
      loop_.output_count = static_cast<uint32_t>(outputs.size());
      loop_.outputs = outputs.data();
      loop_.body = body.View();
      desc_.u.loop = &loop_;
      break;
    case PHAL_KERNEL_KIND_REDUCE:
      reduce_.rank = static_cast<uint32_t>(dims.size());
      reduce_.dims = DataOrNull(dims);
      reduce_.reduced_count = static_cast<uint32_t>(reduced_dims.size());
      reduce_.reduced_dims = DataOrNull(reduced_dims);
      reduce_.accumulator_count = accumulator_count;
      reduce_.output_count = static_cast<uint32_t>(outputs.size());
      reduce_.outputs = outputs.data();
      reduce_.init = init.View();
      reduce_.values = body.View();
      reduce_.reducer = reducer.View();
      reduce_.epilogue = epilogue.View();
      desc_.u.reduce = &reduce_;
      break;
    case PHAL_KERNEL_KIND_DOT:
      dot.epilogue = body.View();
      desc_.u.dot = &dot;
      break;
    case PHAL_KERNEL_KIND_CONV:
      conv.input_spatial_dimensions = DataOrNull(arrays[0]);
      conv.kernel_spatial_dimensions = DataOrNull(arrays[1]);
      conv.output_spatial_dimensions = DataOrNull(arrays[2]);
      conv.window_strides = DataOrNull(arrays[3]);
      conv.padding = DataOrNull(arrays[4]);
      conv.lhs_dilation = DataOrNull(arrays[5]);
      conv.rhs_dilation = DataOrNull(arrays[6]);
      conv.window_reversal =
          window_reversal.empty() ? nullptr : window_reversal.data();
      conv.epilogue = body.View();
      desc_.u.conv = &conv;
      break;
    case PHAL_KERNEL_KIND_GATHER:
      gather.offset_dims = DataOrNull(arrays[0]);
      gather.collapsed_slice_dims = DataOrNull(arrays[1]);
      gather.start_index_map = DataOrNull(arrays[2]);
      gather.operand_batching_dims = DataOrNull(arrays[3]);
      gather.start_indices_batching_dims = DataOrNull(arrays[4]);
      gather.slice_sizes = DataOrNull(arrays[5]);
      desc_.u.gather = &gather;
      break;
    case PHAL_KERNEL_KIND_SCATTER:
      scatter.update_window_dims = DataOrNull(arrays[0]);
      scatter.inserted_window_dims = DataOrNull(arrays[1]);
      scatter.scatter_dims_to_operand_dims = DataOrNull(arrays[2]);
      scatter.input_batching_dims = DataOrNull(arrays[3]);
      scatter.scatter_indices_batching_dims = DataOrNull(arrays[4]);
      scatter.combiner = reducer.View();
      desc_.u.scatter = &scatter;
      break;
    case PHAL_KERNEL_KIND_SORT:
      sort.operand_count = static_cast<uint32_t>(operands.size());
      sort.operands = operands.data();
      sort.outputs = outputs.data();
      sort.comparator = reducer.View();
      desc_.u.sort = &sort;
      break;
    case PHAL_KERNEL_KIND_COPY:
      desc_.u.copy = &copy;
      break;
  }
  return desc_;
}

}  // namespace phal
