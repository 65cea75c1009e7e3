#include "sdk/kir/body.h"

#include <algorithm>

namespace phal {

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
  parameter_count_ =
      std::max(parameter_count_, static_cast<uint32_t>(number + 1));
  const int64_t attributes[] = {number};
  return Add(PHAL_KIR_OP_PARAMETER, type, {}, attributes);
}

uint32_t KirBody::Compare(phal_kir_comparison_direction_t direction,
                          phal_kir_comparison_type_t comparison, uint32_t lhs,
                          uint32_t rhs) {
  const uint32_t operands[] = {lhs, rhs};
  const int64_t attributes[] = {direction, comparison};
  return Add(PHAL_KIR_OP_COMPARE, PHAL_ELEMENT_TYPE_PRED, operands, attributes);
}

uint32_t KirBody::Select(uint32_t predicate, uint32_t on_true,
                         uint32_t on_false) {
  const uint32_t operands[] = {predicate, on_true, on_false};
  return Add(PHAL_KIR_OP_SELECT, nodes_[on_true].type, operands);
}

uint32_t KirBody::Convert(uint32_t value, phal_element_type_t type) {
  if (nodes_[value].type == type) return value;
  const uint32_t operands[] = {value};
  return Add(PHAL_KIR_OP_CONVERT, type, operands);
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
  return Compare(direction, PHAL_KIR_COMPARISON_SIGNED, lhs, rhs);
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

}  // namespace phal
