// StableHLO ops the HLO IR has no opcode for, decomposed into HLO that any
// backend runs: triangular_solve (unrolled substitution, one row per step).
// It is exact up to rounding and costs O(n) ops per row, so it suits the
// small static sizes StableHLO programs use it with.
#ifndef POLYHAL_CORE_FRONTEND_LINEAR_ALGEBRA_DECOMPOSITIONS_H_
#define POLYHAL_CORE_FRONTEND_LINEAR_ALGEBRA_DECOMPOSITIONS_H_

#include <vector>

#include "core/frontend/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

enum class TriangularSolveTranspose { kNone, kTranspose, kAdjoint };

struct TriangularSolveOptions {
  bool left_side = true;       // op(a) x = b; otherwise x op(a) = b
  bool lower = true;           // a's lower triangle holds the matrix
  bool unit_diagonal = false;  // a's diagonal is taken to be ones
  TriangularSolveTranspose transpose_a = TriangularSolveTranspose::kNone;
};

// Solves for x with a of shape [batch..., m, m] and b of [batch..., m, n]
// (left side) or [batch..., n, m] (right side). Only the triangle `lower`
// names (and the diagonal unless unit_diagonal) is read.
StatusOr<HloInstruction*> DecomposeTriangularSolve(
    HloBuilder& builder, HloInstruction* a, HloInstruction* b,
    const TriangularSolveOptions& options);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_LINEAR_ALGEBRA_DECOMPOSITIONS_H_
