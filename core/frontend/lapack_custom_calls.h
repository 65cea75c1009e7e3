// The LAPACK custom calls JAX writes for CPU (lapack_<t><routine>_ffi, t
// one of s, d, c, z), lowered to the HLO IR's linear-algebra ops with the
// outputs LAPACK gives: potrf, getrf (1-based pivots), geqrf, orgqr/ungqr,
// trsm, syevd/heevd and gesdd, each with its `info` where LAPACK has one. The
// layouts JAX attaches (column-major) are storage only: the ops read the
// logical matrices.
#ifndef POLYHAL_CORE_FRONTEND_LAPACK_CUSTOM_CALLS_H_
#define POLYHAL_CORE_FRONTEND_LAPACK_CUSTOM_CALLS_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// The character-valued attributes of a call's backend_config (uplo, side,
// trans_x, diag, mode), as LAPACK's letters. The GPU solvers' boolean ones
// map onto them (SetFlag).
struct LapackOptions {
  char uplo = 'L';
  char side = 'L';
  char trans_x = 'N';
  char diag = 'N';
  char mode = 'V';

  // A character code (uplo = 76) or a GPU solver's flag (lower = true,
  // full_matrices, compute_uv) by name; other names are ignored.
  void SetCode(const std::string& name, char letter);
  void SetFlag(const std::string& name, bool value);
};

// Whether `target` names a LAPACK or GPU solver routine JAX calls
// (lowered or not).
bool IsLapackTarget(const std::string& target);

// Names a computation the lowering adds (a reducer) uniquely from `base`,
// then hands it to the module.
struct LapackComputations {
  std::function<std::string(const std::string& base)> unique_name;
  std::function<HloComputation*(std::unique_ptr<HloComputation>)> add;
};

// The call's results, of `result_types` as the call states them (a count
// or shape that does not fit is INVALID_ARGUMENT), or UNIMPLEMENTED naming
// the routine when it is one this front end does not lower yet.
StatusOr<std::vector<HloInstruction*>> LowerLapackCustomCall(
    HloBuilder& builder, const LapackComputations& computations,
    const std::string& target, const LapackOptions& options,
    const std::vector<HloInstruction*>& operands,
    const std::vector<Shape>& result_types);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_LAPACK_CUSTOM_CALLS_H_
