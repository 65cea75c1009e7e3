// The attributes of the linear-algebra ops (cholesky, triangular-solve, lu,
// qr, householder-product, eigh, svd): which triangle holds a matrix, on which
// side a triangular system is solved and how its matrix is transposed.
#ifndef POLYHAL_CORE_HLO_LINEAR_ALGEBRA_OPTIONS_H_
#define POLYHAL_CORE_HLO_LINEAR_ALGEBRA_OPTIONS_H_

#include <optional>
#include <string_view>

namespace phal {

// triangular-solve's transpose_a: op(a) is a, its transpose or its
// conjugate transpose.
enum class TriangularSolveTranspose { kNone, kTranspose, kAdjoint };

// XLA's spelling: NO_TRANSPOSE, TRANSPOSE or ADJOINT.
std::string_view TriangularSolveTransposeName(TriangularSolveTranspose value);
std::optional<TriangularSolveTranspose> TriangularSolveTransposeFromName(
    std::string_view name);

struct LinearAlgebraOptions {
  // triangular-solve: op(a) x = b when set, x op(a) = b otherwise.
  bool left_side = true;
  // cholesky and triangular-solve: the lower triangle of a holds the
  // matrix (cholesky's result is lower-triangular); otherwise the upper.
  bool lower = true;
  // triangular-solve: a's diagonal is taken to be ones and not read.
  bool unit_diagonal = false;
  TriangularSolveTranspose transpose_a = TriangularSolveTranspose::kNone;
  // svd: u is [.., m, m] and vt [.., n, n] when set, [.., m, k] and
  // [.., k, n] (k = min(m, n)) otherwise.
  bool full_matrices = true;

  bool operator==(const LinearAlgebraOptions&) const = default;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_LINEAR_ALGEBRA_OPTIONS_H_
