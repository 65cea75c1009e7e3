#include "core/compiler/decompositions.h"

namespace phal {
namespace {

// comparator(a, b, index_a, index_b) = a GT b (largest) or a LT b, in the
// total order for floating-point values: a stable sort then keeps equal
// values in index order, as the reference's top-k does.
HloComputation* TopKComparator(RewriteContext& context, ElementType value_type,
                               ElementType index_type, bool largest) {
  auto computation = std::make_unique<HloComputation>(
      "top_k_comparator." +
      std::to_string(context.module()->computations().size()));
  const Shape value(value_type, {});
  const Shape index(index_type, {});
  std::vector<HloInstruction*> parameters;
  for (int64_t p = 0; p < 4; ++p) {
    auto parameter = std::make_unique<HloInstruction>(
        HloOpcode::kParameter, "p" + std::to_string(p), p < 2 ? value : index);
    parameter->set_parameter_number(p);
    parameters.push_back(computation->AddInstruction(std::move(parameter)));
  }
  auto compare = std::make_unique<HloInstruction>(
      HloOpcode::kCompare, "before", Shape(PHAL_ELEMENT_TYPE_PRED, {}));
  compare->AppendOperand(parameters[0]);
  compare->AppendOperand(parameters[1]);
  compare->set_comparison_direction(largest ? ComparisonDirection::kGt
                                            : ComparisonDirection::kLt);
  if (IsFloat(value_type)) {
    compare->set_comparison_type(ComparisonType::kTotalOrder);
  }
  computation->set_root_instruction(
      computation->AddInstruction(std::move(compare)));
  return context.module()->AddComputation(std::move(computation));
}

HloInstruction* LeadingSlice(RewriteContext& context, HloInstruction* value,
                             int64_t k) {
  std::vector<int64_t> dims = value->shape().dims();
  std::vector<int64_t> starts(dims.size(), 0);
  std::vector<int64_t> strides(dims.size(), 1);
  std::vector<int64_t> limits = dims;
  dims.back() = k;
  limits.back() = k;
  return context.AddNew(
      HloOpcode::kSlice, Shape(value->shape().element_type(), dims), {value},
      [&](HloInstruction& slice) { slice.set_slice(starts, limits, strides); });
}

}  // namespace

StatusOr<HloInstruction*> DecomposeTopK(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const ElementType value_type = x->shape().element_type();
  if (IsComplex(value_type)) {
    return Unimplemented("topk of complex values (instruction %" +
                         source.name() + ") has no order");
  }
  const ElementType index_type =
      source.shape().tuple_shapes()[1].element_type();
  const std::vector<int64_t>& dims = x->shape().dims();
  const int64_t last = static_cast<int64_t>(dims.size()) - 1;
  HloInstruction* iota =
      context.AddNew(HloOpcode::kIota, Shape(index_type, dims), {},
                     [&](HloInstruction& i) { i.set_iota_dimension(last); });
  HloComputation* comparator =
      TopKComparator(context, value_type, index_type, source.largest());
  HloInstruction* sorted = context.AddNew(
      HloOpcode::kSort, Shape::Tuple({x->shape(), Shape(index_type, dims)}),
      {x, iota}, [&](HloInstruction& sort) {
        sort.set_dimensions({last});
        sort.set_is_stable(true);
        sort.AppendCalledComputation(comparator);
      });
  std::vector<HloInstruction*> leaves;
  for (int64_t i = 0; i < 2; ++i) {
    HloInstruction* element = context.AddNew(
        HloOpcode::kGetTupleElement, sorted->shape().tuple_shapes()[i],
        {sorted}, [&](HloInstruction& g) { g.set_tuple_index(i); });
    leaves.push_back(LeadingSlice(context, element, source.top_k()));
  }
  return context.AddNew(HloOpcode::kTuple, source.shape(), leaves);
}

}  // namespace phal
