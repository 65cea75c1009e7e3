#include "compiler/kir_builder.h"

#include <algorithm>

namespace phal::asic_ref {

BodyBuilder::Node BodyBuilder::Push(phal_kir_node_t node,
                                    std::span<const Node> operands) {
  node.operand_begin = static_cast<uint32_t>(operands_.size());
  node.operand_count = static_cast<uint32_t>(operands.size());
  operands_.insert(operands_.end(), operands.begin(), operands.end());
  nodes_.push_back(node);
  return static_cast<Node>(nodes_.size() - 1);
}

BodyBuilder::Node BodyBuilder::Constant(phal_element_type_t type,
                                        uint64_t bits) {
  phal_kir_node_t node{};
  node.op = PHAL_KIR_OP_CONSTANT;
  node.type = type;
  node.constant[0] = bits;
  return Push(node, {});
}

BodyBuilder::Node BodyBuilder::Index(int64_t dimension) {
  phal_kir_node_t node{};
  node.op = PHAL_KIR_OP_INDEX;
  node.type = kS64;
  node.attributes[0] = dimension;
  return Push(node, {});
}

BodyBuilder::Node BodyBuilder::Parameter(uint32_t index,
                                         phal_element_type_t type) {
  phal_kir_node_t node{};
  node.op = PHAL_KIR_OP_PARAMETER;
  node.type = type;
  node.attributes[0] = index;
  parameter_count_ = std::max(parameter_count_, index + 1);
  return Push(node, {});
}

BodyBuilder::Node BodyBuilder::Read(uint32_t buffer, phal_element_type_t type,
                                    std::span<const Node> indices) {
  phal_kir_node_t node{};
  node.op = PHAL_KIR_OP_READ;
  node.type = type;
  node.attributes[0] = buffer;
  return Push(node, indices);
}

BodyBuilder::Node BodyBuilder::ReadLinear(uint32_t buffer,
                                          phal_element_type_t type,
                                          std::span<const int64_t> dims,
                                          Node offset) {
  std::vector<Node> indices(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    Node index = stride == 1 ? offset : Div(offset, Int(stride));
    if (d > 0) index = Rem(index, Int(dims[d]));
    indices[d] = index;
    stride *= dims[d];
  }
  return Read(buffer, type, indices);
}

BodyBuilder::Node BodyBuilder::Op(phal_kir_op_t op, phal_element_type_t type,
                                  std::initializer_list<Node> operands,
                                  int64_t attribute0, int64_t attribute1) {
  phal_kir_node_t node{};
  node.op = op;
  node.type = type;
  node.attributes[0] = attribute0;
  node.attributes[1] = attribute1;
  return Push(node, std::span<const Node>(operands.begin(), operands.size()));
}

BodyBuilder::Node BodyBuilder::Compare(
    Node a, Node b, phal_kir_comparison_direction_t direction) {
  const phal_element_type_t type = TypeOf(a);
  phal_kir_comparison_type_t comparison = PHAL_KIR_COMPARISON_SIGNED;
  if (type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16 ||
      type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64) {
    comparison = PHAL_KIR_COMPARISON_FLOAT;
  }
  return Op(PHAL_KIR_OP_COMPARE, PHAL_ELEMENT_TYPE_PRED, {a, b}, direction,
            comparison);
}

phal_kir_body_t BodyBuilder::Body() const {
  phal_kir_body_t body{};
  body.nodes = nodes_.data();
  body.node_count = static_cast<uint32_t>(nodes_.size());
  body.operands = operands_.data();
  body.operand_count = static_cast<uint32_t>(operands_.size());
  body.results = results_.data();
  body.result_count = static_cast<uint32_t>(results_.size());
  body.parameter_count = parameter_count_;
  return body;
}

std::vector<BodyBuilder::Node> SliceIndex(
    BodyBuilder& v, const SliceDims& dims, uint32_t operand_rank,
    std::span<const BodyBuilder::Node> batch,
    std::span<const BodyBuilder::Node> window,
    const std::function<BodyBuilder::Node(int64_t, BodyBuilder::Node)>& start) {
  using Node = BodyBuilder::Node;
  auto contains = [](std::span<const int64_t> values, int64_t value) {
    return std::find(values.begin(), values.end(), value) != values.end();
  };
  std::vector<Node> index(operand_rank);
  for (uint32_t d = 0; d < operand_rank; ++d) index[d] = v.Int(0);
  for (size_t k = 0; k < dims.start_index_map.size(); ++k) {
    std::vector<Node> at;
    size_t b = 0;
    for (uint32_t d = 0; d < dims.indices->rank; ++d) {
      at.push_back(d == dims.index_vector_dim ? v.Int(static_cast<int64_t>(k))
                                              : batch[b++]);
    }
    const int64_t d = dims.start_index_map[k];
    index[d] = v.Add(index[d],
                     start(d, v.Convert(v.Read(dims.indices_buffer,
                                               dims.indices->element_type, at),
                                        PHAL_ELEMENT_TYPE_S64)));
  }
  for (size_t k = 0; k < dims.operand_batching_dims.size(); ++k) {
    const int64_t indices_dim = dims.indices_batching_dims[k];
    const Node position =
        batch[indices_dim < dims.index_vector_dim ? indices_dim
                                                  : indices_dim - 1];
    const int64_t d = dims.operand_batching_dims[k];
    index[d] = v.Add(index[d], position);
  }
  size_t w = 0;
  for (uint32_t d = 0; d < operand_rank; ++d) {
    if (contains(dims.collapsed_dims, d) ||
        contains(dims.operand_batching_dims, d)) {
      continue;
    }
    index[d] = v.Add(index[d], window[w++]);
  }
  return index;
}

phal_kir_loop_t OwnedLoop::Describe() const {
  phal_kir_loop_t loop{};
  loop.rank = static_cast<uint32_t>(dims.size());
  loop.dims = dims.data();
  loop.output_count = static_cast<uint32_t>(outputs.size());
  loop.outputs = outputs.data();
  loop.body = body.Body();
  return loop;
}

phal_kir_reduce_t OwnedReduce::Describe() const {
  phal_kir_reduce_t reduce{};
  reduce.rank = static_cast<uint32_t>(dims.size());
  reduce.dims = dims.data();
  reduce.reduced_count = static_cast<uint32_t>(reduced_dims.size());
  reduce.reduced_dims = reduced_dims.data();
  reduce.accumulator_count = accumulator_count;
  reduce.output_count = static_cast<uint32_t>(outputs.size());
  reduce.outputs = outputs.data();
  reduce.init = init.Body();
  reduce.values = values.Body();
  reduce.reducer = reducer.Body();
  reduce.epilogue = epilogue.Body();
  return reduce;
}

}  // namespace phal::asic_ref
