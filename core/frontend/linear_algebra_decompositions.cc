#include "core/frontend/linear_algebra_decompositions.h"

#include <cmath>
#include <complex>
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

// The DFT matrix w[j][k] = scale * exp(sign * 2 pi i j k / n).
Literal DftMatrix(ElementType type, int64_t n, double sign, double scale) {
  Literal matrix(Shape(type, {n, n}));
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t k = 0; k < n; ++k) {
      const double angle = sign * 2 * M_PI * static_cast<double>((j * k) % n) /
                           static_cast<double>(n);
      matrix.SetFromComplex(j * n + k, std::polar(scale, angle));
    }
  }
  return matrix;
}

// Applies `matrix` ([n, n_out]) along `dimension` of x, keeping the
// dimension in place.
StatusOr<HloInstruction*> ApplyAlong(HloBuilder& b, HloInstruction* x,
                                     Literal matrix, int64_t dimension) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * constant,
                        b.Constant(std::move(matrix)));
  DotDimensionNumbers numbers;
  numbers.lhs_contracting_dimensions = {dimension};
  numbers.rhs_contracting_dimensions = {0};
  auto dot = b.Create(HloOpcode::kDot, Shape(x->shape().element_type(), {}),
                      {x, constant});
  dot->set_dot_dimension_numbers(std::move(numbers));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * product, b.Add(std::move(dot)));
  const int64_t rank = x->shape().rank();
  if (dimension == rank - 1) return product;
  Dims permutation;
  for (int64_t i = 0; i < rank; ++i) {
    permutation.push_back(i < dimension    ? i
                          : i == dimension ? rank - 1
                                           : i - 1);
  }
  return Transpose(b, product, permutation);
}

// The last dimension of an inverse real transform: n real outputs from
// n/2+1 complex inputs, out[t] = (1/n) sum_j c_j Re(X_j e^{2 pi i j t / n})
// with c_j = 2 for the frequencies that stand for a conjugate pair.
StatusOr<HloInstruction*> InverseRealLastDimension(HloBuilder& b,
                                                   HloInstruction* x,
                                                   int64_t n) {
  const int64_t rank = x->shape().rank();
  const int64_t inputs = x->shape().dim(rank - 1);
  const ElementType real_type = ComplexComponentType(x->shape().element_type());
  Literal cosines(Shape(real_type, {inputs, n}));
  Literal sines(Shape(real_type, {inputs, n}));
  for (int64_t j = 0; j < inputs; ++j) {
    const bool paired = j != 0 && !(n % 2 == 0 && j == n / 2);
    const double weight = (paired ? 2.0 : 1.0) / static_cast<double>(n);
    for (int64_t t = 0; t < n; ++t) {
      const double angle =
          2 * M_PI * static_cast<double>((j * t) % n) / static_cast<double>(n);
      cosines.SetFromDouble(j * n + t, weight * std::cos(angle));
      sines.SetFromDouble(j * n + t, -weight * std::sin(angle));
    }
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * real, b.Unary(HloOpcode::kReal, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * imag, b.Unary(HloOpcode::kImag, x));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * from_real,
                        ApplyAlong(b, real, std::move(cosines), rank - 1));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * from_imag,
                        ApplyAlong(b, imag, std::move(sines), rank - 1));
  return b.Binary(HloOpcode::kAdd, from_real, from_imag);
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

StatusOr<HloInstruction*> DecomposeFft(HloBuilder& b, HloInstruction* operand,
                                       FftType type,
                                       const std::vector<int64_t>& lengths) {
  const Shape& shape = operand->shape();
  const auto count = static_cast<int64_t>(lengths.size());
  if (count < 1 || count > 3 || shape.rank() < count) {
    return InvalidArgument(
        "fft_length must name 1 to 3 trailing dimensions of " +
        shape.ToString());
  }
  const int64_t first = shape.rank() - count;
  HloInstruction* x = operand;
  if (type == FftType::kRfft) {
    if (!IsFloat(shape.element_type()))
      return InvalidArgument("RFFT needs a real operand");
    PHAL_ASSIGN_OR_RETURN(HloInstruction * zeros, b.FullLike(x, 0.0));
    PHAL_ASSIGN_OR_RETURN(x, b.Binary(HloOpcode::kComplex, x, zeros));
  } else if (!IsComplex(shape.element_type())) {
    return InvalidArgument("FFT, IFFT and IRFFT need a complex operand");
  }
  const ElementType complex_type = x->shape().element_type();
  const bool inverse = type == FftType::kIfft || type == FftType::kIrfft;
  const int64_t complex_dims = type == FftType::kIrfft ? count - 1 : count;
  for (int64_t i = 0; i < complex_dims; ++i) {
    const int64_t dimension = first + i;
    const int64_t n = lengths[static_cast<std::size_t>(i)];
    if (x->shape().dim(dimension) != n) {
      return InvalidArgument("dimension " + std::to_string(dimension) + " of " +
                             shape.ToString() + " does not have fft_length " +
                             std::to_string(n));
    }
    PHAL_ASSIGN_OR_RETURN(
        x, ApplyAlong(b, x,
                      DftMatrix(complex_type, n, inverse ? 1 : -1,
                                inverse ? 1.0 / n : 1.0),
                      dimension));
  }
  const int64_t last_length = lengths.back();
  if (type == FftType::kRfft) {
    Dims starts(static_cast<std::size_t>(shape.rank()), 0);
    Dims limits = x->shape().dims();
    limits.back() = last_length / 2 + 1;
    return b.Slice(x, starts, limits);
  }
  if (type == FftType::kIrfft) {
    if (x->shape().dims().back() != last_length / 2 + 1) {
      return InvalidArgument(
          "IRFFT needs " + std::to_string(last_length / 2 + 1) +
          " frequencies in the last dimension of " + shape.ToString());
    }
    return InverseRealLastDimension(b, x, last_length);
  }
  return x;
}

}  // namespace phal
