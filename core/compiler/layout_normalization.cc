#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

void ClearLayouts(Shape* shape) {
  shape->set_minor_to_major({});
  for (Shape& element : shape->mutable_tuple_shapes()) ClearLayouts(&element);
}

// The dimensions of an array in `layout` from the most major to the most
// minor (empty: row-major).
std::vector<int64_t> MajorToMinor(const Shape& shape) {
  const std::vector<int64_t>& layout = shape.minor_to_major();
  if (layout.empty()) {
    std::vector<int64_t> order(static_cast<std::size_t>(shape.rank()));
    for (std::size_t d = 0; d < order.size(); ++d) {
      order[d] = static_cast<int64_t>(d);
    }
    return order;
  }
  return std::vector<int64_t>(layout.rbegin(), layout.rend());
}

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (std::size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// A bitcast reinterprets the operand's bytes in its layout as the result's
// bytes in its layout. Row-major, that is: transpose the operand into its
// physical order, reinterpret those bytes as the result's physical array,
// and transpose that back into the result's logical order.
HloInstruction* RowMajorBitcast(const HloInstruction& source,
                                HloInstruction* operand,
                                RewriteContext& context) {
  const std::vector<int64_t> operand_order =
      MajorToMinor(source.operand(0)->shape());
  const std::vector<int64_t> result_order = MajorToMinor(source.shape());
  HloInstruction* physical = AddTranspose(context, operand, operand_order);
  std::vector<int64_t> physical_dims;
  for (int64_t d : result_order) physical_dims.push_back(source.shape().dim(d));
  HloInstruction* reinterpreted = context.AddNew(
      HloOpcode::kBitcast, Shape(source.shape().element_type(), physical_dims),
      {physical});
  std::vector<int64_t> logical(result_order.size());
  for (std::size_t k = 0; k < result_order.size(); ++k) {
    logical[static_cast<std::size_t>(result_order[k])] =
        static_cast<int64_t>(k);
  }
  return AddTranspose(context, reinterpreted, logical);
}

bool HasExplicitLayout(const Shape& shape) {
  return shape.IsArray() && !IsIdentity(MajorToMinor(shape));
}

StatusOr<HloInstruction*> RowMajor(const HloInstruction& source,
                                   const std::vector<HloInstruction*>& operands,
                                   const std::vector<HloComputation*>& called,
                                   RewriteContext& context) {
  if (source.opcode() == HloOpcode::kBitcast &&
      (HasExplicitLayout(source.shape()) ||
       HasExplicitLayout(source.operand(0)->shape()))) {
    return RowMajorBitcast(source, operands[0], context);
  }
  std::unique_ptr<HloInstruction> copy =
      CloneInstruction(source, operands, called, source.name());
  ClearLayouts(&copy->mutable_shape());
  return context.computation()->AddInstruction(std::move(copy));
}

}  // namespace

std::unique_ptr<HloPass> MakeLayoutNormalizationPass() {
  return MakeRewritePass("normalize-layouts", RowMajor);
}

}  // namespace phal
