// The linear-algebra ops in the reference interpreter, each computed on
// every matrix of the batch in double precision (complex<double> for c64
// and c128) and rounded once to the result type.
#ifndef POLYHAL_CORE_REFERENCE_LINEAR_ALGEBRA_H_
#define POLYHAL_CORE_REFERENCE_LINEAR_ALGEBRA_H_

#include <span>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// cholesky: the column-by-column (Cholesky-Banachiewicz) factor L with
// a = L L^H read from the lower triangle (lower) or U = L^H from the upper;
// the other triangle is zero. Where a pivot a_jj - sum_k |L_jk|^2 is not
// positive (or NaN), the factor's columns from that one on are NaN in the
// factor's triangle, as a factorisation that stops there leaves them.
//
// triangular-solve: substitution, row by row, on op(a) built from a's
// triangle (ones on the diagonal for unit_diagonal).
//
// lu: LAPACK getrf's factorisation with partial pivoting, column by
// column: the pivot is the first row at or below the diagonal of largest
// |re| + |im| (the diagonal row when the column holds a NaN), rows swapped
// whole, the column below divided by the pivot unless the pivot is zero,
// then the rank-one update of the trailing rows and columns. Results: the
// factors (unit-lower L below the diagonal, U on and above) and the
// 0-based pivot row of each step.
//
// qr: LAPACK geqrf's Householder QR: for each column j, the reflector
// H = I - tau v v^H (v_j = 1, beta = -sign(re a_jj) |a_j:,j|) that maps
// the column to beta e_j, stored as R on and above the diagonal and v
// below it, and H^H applied to the columns on the right. tau = 0 when the
// column below the diagonal is zero and a_jj real. Results: (a, taus).
//
// householder-product(a, taus): LAPACK orgqr's Q = H_0 H_1 ... H_{k-1}
// restricted to a's n columns.
//
// eigh: cyclic Jacobi rotations on the symmetric matrix read from one
// triangle until the off-diagonal part is below rounding; eigenvalues
// ascending, each eigenvector's entry of largest magnitude (the first of
// equals) positive.
//
// svd: one-sided Jacobi (Hestenes) on the columns of a (of a^T when it is
// wide) until every pair is orthogonal to rounding; singular values
// descending; each right singular vector's largest entry positive; u's
// columns the normalised ones, completed to an orthonormal set (and to m
// columns for full_matrices) by Householder QR, keeping their signs.
StatusOr<Literal> EvaluateLinearAlgebra(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_LINEAR_ALGEBRA_H_
