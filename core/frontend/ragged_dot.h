// chlo.ragged_dot, the grouped matrix product of mixture-of-experts layers,
// as HLO. The lhs's ragged dimension is cut into consecutive groups of
// group_sizes[j] elements (elements past the last group belong to none):
//   - ragged non-contracting dimension (rhs has a group dimension): each
//     lhs row of group j is multiplied by rhs group j; rows of no group
//     give zeros;
//   - ragged contracting dimension: result group j sums only the
//     contracting indices of group j (the result gains a leading group
//     dimension);
//   - ragged batch dimension: an ordinary dot_general.
// The lowering is exact: the product of every group is computed as a dot
// of its own (one dot over all groups), and a select keeps each element's
// group, so each result element is the sum of the same products, in the
// same order, as the dot of its group alone.
#ifndef POLYHAL_CORE_FRONTEND_RAGGED_DOT_H_
#define POLYHAL_CORE_FRONTEND_RAGGED_DOT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/frontend/chlo_decompositions.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

struct RaggedDotDimensionNumbers {
  DotDimensionNumbers dot;
  std::vector<int64_t> lhs_ragged_dimensions;  // exactly one
  std::vector<int64_t> rhs_group_dimensions;   // one, or none
};

struct RaggedDot {
  HloInstruction* lhs = nullptr;
  HloInstruction* rhs = nullptr;
  HloInstruction* group_sizes = nullptr;  // integers, [groups]
  RaggedDotDimensionNumbers numbers;
  ElementType result_type = PHAL_ELEMENT_TYPE_INVALID;
  // A name, unique in the module, prefixing the helper computations (the
  // additions of the reduces).
  std::string helper_computation_name;
};

// The ragged dot as instructions added to `builder`; malformed dimension
// numbers or shapes are InvalidArgument errors naming the problem.
StatusOr<HloInstruction*> LowerRaggedDot(
    const RaggedDot& dot, HloBuilder& builder,
    const ComputationSink& add_computation);

// The ragged dot as a computation named `name` of three parameters (lhs,
// rhs and group_sizes, of the given shapes), for front ends whose ragged
// dot is one instruction (XLA's HLO text `ragged-dot`) that becomes a call.
// Its helper computations, named `name` followed by ".0", ".1", ..., go to
// `add_computation` before it is returned.
StatusOr<std::unique_ptr<HloComputation>> RaggedDotComputation(
    const std::string& name, const Shape& lhs, const Shape& rhs,
    const Shape& group_sizes, const RaggedDotDimensionNumbers& numbers,
    ElementType result_type, const ComputationSink& add_computation);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_RAGGED_DOT_H_
