#include "core/frontend/linear_algebra_decompositions.h"

#include <numeric>
#include <string>

namespace phal {
namespace {

using Dims = std::vector<int64_t>;

StatusOr<HloInstruction*> Transpose(HloBuilder& b, HloInstruction* x,
                                    const Dims& permutation) {
  auto transpose = b.Create(HloOpcode::kTranspose, Shape(), {x});
  transpose->set_dimensions(permutation);
  return b.Add(std::move(transpose));
}

// Swaps the two minor dimensions.
StatusOr<HloInstruction*> TransposeMatrix(HloBuilder& b, HloInstruction* x) {
  Dims permutation(static_cast<std::size_t>(x->shape().rank()));
  std::iota(permutation.begin(), permutation.end(), 0);
  std::swap(permutation[permutation.size() - 1],
            permutation[permutation.size() - 2]);
  return Transpose(b, x, permutation);
}

StatusOr<HloInstruction*> Reverse(HloBuilder& b, HloInstruction* x,
                                  const Dims& dimensions) {
  auto reverse = b.Create(HloOpcode::kReverse, Shape(), {x});
  reverse->set_dimensions(dimensions);
  return b.Add(std::move(reverse));
}

// x[..., rows, cols] for the two minor dimensions.
StatusOr<HloInstruction*> Block(HloBuilder& b, HloInstruction* x,
                                int64_t row_begin, int64_t row_end,
                                int64_t col_begin, int64_t col_end) {
  Dims starts(static_cast<std::size_t>(x->shape().rank()), 0);
  Dims limits = x->shape().dims();
  starts[starts.size() - 2] = row_begin;
  limits[limits.size() - 2] = row_end;
  starts.back() = col_begin;
  limits.back() = col_end;
  return b.Slice(x, starts, limits);
}

// Batched [.., p, q] x [.., q, r] matrix product.
StatusOr<HloInstruction*> BatchMatMul(HloBuilder& b, HloInstruction* x,
                                      HloInstruction* y) {
  const int64_t rank = x->shape().rank();
  DotDimensionNumbers numbers;
  for (int64_t i = 0; i + 2 < rank; ++i) {
    numbers.lhs_batch_dimensions.push_back(i);
    numbers.rhs_batch_dimensions.push_back(i);
  }
  numbers.lhs_contracting_dimensions = {rank - 1};
  numbers.rhs_contracting_dimensions = {rank - 2};
  auto dot =
      b.Create(HloOpcode::kDot, Shape(x->shape().element_type(), {}), {x, y});
  dot->set_dot_dimension_numbers(std::move(numbers));
  return b.Add(std::move(dot));
}

// Forward substitution for a lower-triangular a: row i of x is
// (b_i - a[i, :i] x[:i]) / a[i, i].
StatusOr<HloInstruction*> SolveLowerLeft(HloBuilder& b, HloInstruction* a,
                                         HloInstruction* rhs,
                                         bool unit_diagonal) {
  const Shape& shape = rhs->shape();
  const int64_t rank = shape.rank();
  const int64_t m = shape.dim(rank - 2);
  const int64_t n = shape.dim(rank - 1);
  std::vector<HloInstruction*> rows;
  HloInstruction* solved = nullptr;
  for (int64_t i = 0; i < m; ++i) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * row, Block(b, rhs, i, i + 1, 0, n));
    if (i > 0) {
      PHAL_ASSIGN_OR_RETURN(HloInstruction * coefficients,
                            Block(b, a, i, i + 1, 0, i));
      PHAL_ASSIGN_OR_RETURN(HloInstruction * known,
                            BatchMatMul(b, coefficients, solved));
      PHAL_ASSIGN_OR_RETURN(row, b.Binary(HloOpcode::kSubtract, row, known));
    }
    if (!unit_diagonal) {
      PHAL_ASSIGN_OR_RETURN(HloInstruction * diagonal,
                            Block(b, a, i, i + 1, i, i + 1));
      Dims identity(static_cast<std::size_t>(rank));
      std::iota(identity.begin(), identity.end(), 0);
      PHAL_ASSIGN_OR_RETURN(
          HloInstruction * divisor,
          b.Broadcast(diagonal, row->shape().dims(), identity));
      PHAL_ASSIGN_OR_RETURN(row, b.Binary(HloOpcode::kDivide, row, divisor));
    }
    rows.push_back(row);
    auto concatenate = b.Create(HloOpcode::kConcatenate, Shape(), rows);
    concatenate->set_dimensions({rank - 2});
    PHAL_ASSIGN_OR_RETURN(solved, b.Add(std::move(concatenate)));
  }
  return solved == nullptr ? rhs : solved;
}

}  // namespace

StatusOr<HloInstruction*> DecomposeTriangularSolve(
    HloBuilder& b, HloInstruction* a, HloInstruction* rhs,
    const TriangularSolveOptions& options) {
  const Shape& a_shape = a->shape();
  const Shape& b_shape = rhs->shape();
  if (!a_shape.IsArray() || a_shape.rank() < 2 ||
      a_shape.dim(a_shape.rank() - 1) != a_shape.dim(a_shape.rank() - 2)) {
    return InvalidArgument("a must be a batch of square matrices, got " +
                           a_shape.ToString());
  }
  if (!b_shape.IsArray() || b_shape.rank() != a_shape.rank()) {
    return InvalidArgument("b must have a's rank, got " + b_shape.ToString());
  }
  // Reduce every variant to a left-side, lower-triangular, untransposed
  // solve: transposing a swaps its triangles, a right-side solve is the
  // left-side solve of the transposed system, and reversing rows and
  // columns turns an upper triangle into a lower one.
  HloInstruction* matrix = a;
  bool lower = options.lower;
  if (options.transpose_a != TriangularSolveTranspose::kNone) {
    PHAL_ASSIGN_OR_RETURN(matrix, TransposeMatrix(b, matrix));
    if (options.transpose_a == TriangularSolveTranspose::kAdjoint) {
      PHAL_ASSIGN_OR_RETURN(matrix, b.Conjugate(matrix));
    }
    lower = !lower;
  }
  HloInstruction* system = rhs;
  if (!options.left_side) {
    PHAL_ASSIGN_OR_RETURN(matrix, TransposeMatrix(b, matrix));
    PHAL_ASSIGN_OR_RETURN(system, TransposeMatrix(b, system));
    lower = !lower;
  }
  const int64_t rank = a_shape.rank();
  if (!lower) {
    PHAL_ASSIGN_OR_RETURN(matrix, Reverse(b, matrix, {rank - 2, rank - 1}));
    PHAL_ASSIGN_OR_RETURN(system, Reverse(b, system, {rank - 2}));
  }
  if (system->shape().dim(rank - 2) != a_shape.dim(rank - 1)) {
    return InvalidArgument("b " + b_shape.ToString() + " does not fit a " +
                           a_shape.ToString());
  }
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * x,
      SolveLowerLeft(b, matrix, system, options.unit_diagonal));
  if (!lower) {
    PHAL_ASSIGN_OR_RETURN(x, Reverse(b, x, {rank - 2}));
  }
  if (!options.left_side) {
    PHAL_ASSIGN_OR_RETURN(x, TransposeMatrix(b, x));
  }
  return x;
}

}  // namespace phal
