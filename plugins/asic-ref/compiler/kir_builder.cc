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
