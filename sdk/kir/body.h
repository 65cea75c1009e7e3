// KirBody: the one builder of KIR bodies (phal_kir_body_t, polyhal/kernel.h).
// The compiler's fusion, asic-ref's compiler and every test that hand-builds
// a kernel add nodes through it; the nodes, operands and results live in
// vectors it owns, and View() hands them out as the C struct.
#ifndef POLYHAL_SDK_KIR_BODY_H_
#define POLYHAL_SDK_KIR_BODY_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <tuple>
#include <vector>

#include "polyhal/kernel.h"

namespace phal {

// A scalar computation under construction. Nodes are value-numbered: adding
// a node equal to an existing one (same op, type, operands, attributes and
// constant) returns the existing index, so index arithmetic shared by many
// reads is computed once.
class KirBody {
 public:
  uint32_t Add(phal_kir_op_t op, phal_element_type_t type,
               std::span<const uint32_t> operands,
               std::span<const int64_t> attributes = {});
  uint32_t Add(phal_kir_op_t op, phal_element_type_t type,
               std::initializer_list<uint32_t> operands = {},
               std::initializer_list<int64_t> attributes = {}) {
    return Add(op, type, std::span<const uint32_t>(operands),
               std::span<const int64_t>(attributes));
  }
  uint32_t Constant(phal_element_type_t type, uint64_t low, uint64_t high = 0);
  // An s64 constant, for index arithmetic.
  uint32_t Index64(int64_t value);
  uint32_t Index(int64_t dimension);
  uint32_t Read(phal_element_type_t type, uint32_t buffer,
                std::span<const uint32_t> indices);
  uint32_t Read(phal_element_type_t type, uint32_t buffer,
                std::initializer_list<uint32_t> indices) {
    return Read(type, buffer, std::span<const uint32_t>(indices));
  }
  // PARAMETER `number`; the body's parameter count grows to cover it.
  uint32_t Parameter(phal_element_type_t type, int64_t number);
  // COMPARE of `lhs` and `rhs` (a pred).
  uint32_t Compare(phal_kir_comparison_direction_t direction,
                   phal_kir_comparison_type_t comparison, uint32_t lhs,
                   uint32_t rhs);
  // SELECT of `on_true` where `predicate` holds, else `on_false`.
  uint32_t Select(uint32_t predicate, uint32_t on_true, uint32_t on_false);
  // CONVERT of `value` to `type`; `value` itself when it is of `type`.
  uint32_t Convert(uint32_t value, phal_element_type_t type);

  // s64 arithmetic that folds constants and neutral operands, so identity
  // index maps stay identities in the dump.
  uint32_t AddIndex(uint32_t lhs, uint32_t rhs);
  uint32_t SubtractIndex(uint32_t lhs, uint32_t rhs);
  uint32_t MultiplyIndex(uint32_t lhs, int64_t factor);
  uint32_t DivideIndex(uint32_t lhs, int64_t divisor);
  uint32_t RemainderIndex(uint32_t lhs, int64_t divisor);
  uint32_t CompareIndex(phal_kir_comparison_direction_t direction, uint32_t lhs,
                        uint32_t rhs);
  uint32_t ClampIndex(int64_t low, uint32_t value, int64_t high);
  uint32_t And(uint32_t lhs, uint32_t rhs);
  // The value of an s64 constant node, if `node` is one.
  bool IsIndexConstant(uint32_t node, int64_t* value) const;

  void AddResult(uint32_t node) { results_.push_back(node); }
  void set_parameter_count(uint32_t count) { parameter_count_ = count; }

  const std::vector<phal_kir_node_t>& nodes() const { return nodes_; }
  const phal_kir_node_t& node(uint32_t index) const { return nodes_[index]; }
  phal_element_type_t type_of(uint32_t index) const {
    return nodes_[index].type;
  }
  std::span<const uint32_t> operands_of(uint32_t index) const;
  const std::vector<uint32_t>& results() const { return results_; }
  uint32_t parameter_count() const { return parameter_count_; }

  // Renumbers buffer attributes of READ nodes through `mapping`.
  void RemapBuffers(const std::vector<uint32_t>& mapping);

  // The C view; valid until the body is next modified.
  phal_kir_body_t View() const;

 private:
  using Key = std::tuple<int, int, std::vector<uint32_t>, std::vector<int64_t>,
                         uint64_t, uint64_t>;
  uint32_t Intern(phal_kir_node_t node, std::span<const uint32_t> operands);

  std::vector<phal_kir_node_t> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<uint32_t> results_;
  uint32_t parameter_count_ = 0;
  std::map<Key, uint32_t> numbering_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_BODY_H_
