// The chlo ops JAX emits, decomposed into HLO: erf, erfc, tan, lgamma,
// digamma, bessel_i1e, next_after, polygamma, zeta, the inverse
// trigonometric functions and the complex hyperbolic ones map onto HLO
// opcodes; real sinh, cosh, asinh, acosh and atanh expand as CHLO defines
// them (chlo_hyperbolic_functions.h); erf_inv,
// top_k, constant_like, mulhi, is_inf and the numpy-style broadcasting
// binary ops (chlo.broadcast_add, ...) become small HLO graphs.
// docs/stablehlo.md lists each decomposition and its accuracy.
#ifndef POLYHAL_CORE_FRONTEND_CHLO_DECOMPOSITIONS_H_
#define POLYHAL_CORE_FRONTEND_CHLO_DECOMPOSITIONS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/comparison.h"
#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// Everything a chlo op's decomposition needs, read from the op's text.
struct ChloOp {
  std::string name;  // "chlo.erf_inv"
  std::vector<HloInstruction*> operands;
  std::vector<Shape> result_types;  // as stated; may be empty
  // chlo.broadcast_*: which result dimensions the lower-rank operand maps
  // to; absent means numpy's right alignment.
  std::optional<std::vector<int64_t>> broadcast_dimensions;
  // chlo.broadcast_compare.
  ComparisonDirection comparison_direction = ComparisonDirection::kEq;
  ComparisonType comparison_type = ComparisonType::kDefault;
  int64_t k = 0;     // chlo.top_k
  double value = 0;  // chlo.constant_like
  // A name, unique in the module, for a helper computation (top_k's
  // comparator).
  std::string helper_computation_name;
};

// Adds a helper computation (a sort comparator) to the module being built
// and returns it.
using ComputationSink =
    std::function<HloComputation*(std::unique_ptr<HloComputation>)>;

bool IsDecomposableChloOp(const std::string& name);

// The op's results as instructions added to `builder`.
StatusOr<std::vector<HloInstruction*>> DecomposeChloOp(
    const ChloOp& op, HloBuilder& builder,
    const ComputationSink& add_computation);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_CHLO_DECOMPOSITIONS_H_
