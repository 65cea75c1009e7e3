#include "core/reference/linear_algebra.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

namespace phal::reference {
namespace {

using Complex = std::complex<double>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One row-major matrix of a batch.
struct Matrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<Complex> values;
  Complex& at(int64_t i, int64_t j) {
    return values[static_cast<std::size_t>(i * cols + j)];
  }
  Complex at(int64_t i, int64_t j) const {
    return values[static_cast<std::size_t>(i * cols + j)];
  }
};

Matrix Zeros(int64_t rows, int64_t cols) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  m.values.assign(static_cast<std::size_t>(rows * cols), Complex());
  return m;
}

int64_t BatchCount(const Shape& shape, int64_t trailing) {
  int64_t count = 1;
  for (int64_t i = 0; i + trailing < shape.rank(); ++i) count *= shape.dim(i);
  return count;
}

Matrix ReadMatrix(const Literal& literal, int64_t batch) {
  const Shape& shape = literal.shape();
  Matrix m = Zeros(shape.dim(shape.rank() - 2), shape.dim(shape.rank() - 1));
  const int64_t size = m.rows * m.cols;
  for (int64_t i = 0; i < size; ++i) {
    m.values[static_cast<std::size_t>(i)] =
        literal.GetAsComplex(batch * size + i);
  }
  return m;
}

void WriteMatrix(const Matrix& m, int64_t batch, Literal* literal) {
  const int64_t size = m.rows * m.cols;
  for (int64_t i = 0; i < size; ++i) {
    literal->SetFromComplex(batch * size + i,
                            m.values[static_cast<std::size_t>(i)]);
  }
}

Matrix Cholesky(const Matrix& a, bool lower) {
  const int64_t n = a.rows;
  // The lower-triangle view of the Hermitian matrix.
  auto entry = [&](int64_t i, int64_t j) {
    return lower ? a.at(i, j) : std::conj(a.at(j, i));
  };
  Matrix l = Zeros(n, n);
  bool failed = false;
  for (int64_t j = 0; j < n; ++j) {
    if (failed) {
      for (int64_t i = j; i < n; ++i) l.at(i, j) = kNaN;
      continue;
    }
    Complex pivot = entry(j, j);
    for (int64_t k = 0; k < j; ++k) pivot -= l.at(j, k) * std::conj(l.at(j, k));
    if (!(pivot.real() > 0)) {
      failed = true;
      for (int64_t i = j; i < n; ++i) l.at(i, j) = kNaN;
      continue;
    }
    const double d = std::sqrt(pivot.real());
    l.at(j, j) = d;
    for (int64_t i = j + 1; i < n; ++i) {
      Complex sum = entry(i, j);
      for (int64_t k = 0; k < j; ++k) sum -= l.at(i, k) * std::conj(l.at(j, k));
      l.at(i, j) = sum / d;
    }
  }
  if (lower) return l;
  Matrix u = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = i; j < n; ++j) u.at(i, j) = std::conj(l.at(j, i));
  }
  return u;
}

// op(a) as a dense triangular matrix, and whether it is lower-triangular.
Matrix TriangularOperand(const Matrix& a, const LinearAlgebraOptions& options,
                         bool* op_lower) {
  const int64_t n = a.rows;
  Matrix t = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const bool in_triangle = options.lower ? j < i : j > i;
      if (i == j) {
        t.at(i, j) = options.unit_diagonal ? Complex(1) : a.at(i, j);
      } else if (in_triangle) {
        t.at(i, j) = a.at(i, j);
      }
    }
  }
  *op_lower = options.lower;
  if (options.transpose_a == TriangularSolveTranspose::kNone) return t;
  Matrix transposed = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      transposed.at(j, i) =
          options.transpose_a == TriangularSolveTranspose::kAdjoint
              ? std::conj(t.at(i, j))
              : t.at(i, j);
    }
  }
  *op_lower = !options.lower;
  return transposed;
}

Matrix Transposed(const Matrix& m) {
  Matrix t = Zeros(m.cols, m.rows);
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j) t.at(j, i) = m.at(i, j);
  }
  return t;
}

// Solves t x = b for a triangular t by substitution.
Matrix SolveLeft(const Matrix& t, bool lower, const Matrix& b) {
  const int64_t n = t.rows;
  Matrix x = Zeros(b.rows, b.cols);
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = lower ? step : n - 1 - step;
    for (int64_t c = 0; c < b.cols; ++c) {
      Complex sum = b.at(i, c);
      for (int64_t k = 0; k < n; ++k) {
        const bool known = lower ? k < i : k > i;
        if (known) sum -= t.at(i, k) * x.at(k, c);
      }
      x.at(i, c) = sum / t.at(i, i);
    }
  }
  return x;
}

Matrix TriangularSolve(const Matrix& a, const Matrix& b,
                       const LinearAlgebraOptions& options) {
  bool op_lower = true;
  const Matrix t = TriangularOperand(a, options, &op_lower);
  if (options.left_side) return SolveLeft(t, op_lower, b);
  // x t = b is t^T x^T = b^T.
  return Transposed(SolveLeft(Transposed(t), !op_lower, Transposed(b)));
}

double Magnitude1(Complex z) { return std::abs(z.real()) + std::abs(z.imag()); }

void Lu(Matrix* a, std::vector<int64_t>* pivots) {
  const int64_t k = std::min(a->rows, a->cols);
  pivots->assign(static_cast<std::size_t>(k), 0);
  for (int64_t j = 0; j < k; ++j) {
    double largest = -1;
    bool nan = false;
    for (int64_t i = j; i < a->rows; ++i) {
      const double m = Magnitude1(a->at(i, j));
      if (std::isnan(m)) nan = true;
      largest = std::max(largest, m);
    }
    int64_t p = j;
    if (!nan) {
      for (int64_t i = j; i < a->rows; ++i) {
        if (Magnitude1(a->at(i, j)) == largest) {
          p = i;
          break;
        }
      }
    }
    (*pivots)[static_cast<std::size_t>(j)] = p;
    for (int64_t c = 0; c < a->cols; ++c) std::swap(a->at(j, c), a->at(p, c));
    const Complex pivot = a->at(j, j);
    if (pivot != Complex(0)) {
      for (int64_t i = j + 1; i < a->rows; ++i) a->at(i, j) /= pivot;
    }
    for (int64_t i = j + 1; i < a->rows; ++i) {
      for (int64_t c = j + 1; c < a->cols; ++c) {
        a->at(i, c) -= a->at(i, j) * a->at(j, c);
      }
    }
  }
}

void Qr(Matrix* a, std::vector<Complex>* taus) {
  const int64_t m = a->rows;
  const int64_t n = a->cols;
  const int64_t k = std::min(m, n);
  taus->assign(static_cast<std::size_t>(k), Complex());
  for (int64_t j = 0; j < k; ++j) {
    const Complex alpha = a->at(j, j);
    double xnorm2 = 0;
    for (int64_t i = j + 1; i < m; ++i) xnorm2 += std::norm(a->at(i, j));
    if (xnorm2 == 0 && alpha.imag() == 0) continue;
    const double norm = std::sqrt(std::norm(alpha) + xnorm2);
    const double beta = alpha.real() < 0 ? norm : -norm;
    const Complex tau = (Complex(beta) - alpha) / beta;
    const Complex scale = Complex(1) / (alpha - beta);
    for (int64_t i = j + 1; i < m; ++i) a->at(i, j) *= scale;
    a->at(j, j) = beta;
    (*taus)[static_cast<std::size_t>(j)] = tau;
    // H^H = I - conj(tau) v v^H on the columns to the right.
    for (int64_t c = j + 1; c < n; ++c) {
      Complex w = a->at(j, c);
      for (int64_t i = j + 1; i < m; ++i)
        w += std::conj(a->at(i, j)) * a->at(i, c);
      w *= std::conj(tau);
      a->at(j, c) -= w;
      for (int64_t i = j + 1; i < m; ++i) a->at(i, c) -= a->at(i, j) * w;
    }
  }
}

Matrix HouseholderProduct(const Matrix& a, const std::vector<Complex>& taus) {
  const int64_t m = a.rows;
  const int64_t n = a.cols;
  Matrix q = Zeros(m, n);
  for (int64_t i = 0; i < n; ++i) q.at(i, i) = 1;
  for (auto j = static_cast<int64_t>(taus.size()) - 1; j >= 0; --j) {
    const Complex tau = taus[static_cast<std::size_t>(j)];
    for (int64_t c = 0; c < n; ++c) {
      Complex w = q.at(j, c);
      for (int64_t i = j + 1; i < m; ++i)
        w += std::conj(a.at(i, j)) * q.at(i, c);
      w *= tau;
      q.at(j, c) -= w;
      for (int64_t i = j + 1; i < m; ++i) q.at(i, c) -= a.at(i, j) * w;
    }
  }
  return q;
}

}  // namespace

StatusOr<Literal> EvaluateLinearAlgebra(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  const Literal& a = *operands[0];
  const int64_t batches = BatchCount(a.shape(), 2);
  const LinearAlgebraOptions& options = instruction.linear_algebra();
  switch (instruction.opcode()) {
    case HloOpcode::kCholesky: {
      Literal result(instruction.shape());
      for (int64_t b = 0; b < batches; ++b) {
        WriteMatrix(Cholesky(ReadMatrix(a, b), options.lower), b, &result);
      }
      return result;
    }
    case HloOpcode::kTriangularSolve: {
      Literal result(instruction.shape());
      for (int64_t b = 0; b < batches; ++b) {
        WriteMatrix(TriangularSolve(ReadMatrix(a, b),
                                    ReadMatrix(*operands[1], b), options),
                    b, &result);
      }
      return result;
    }
    case HloOpcode::kLu:
    case HloOpcode::kQr: {
      const bool lu = instruction.opcode() == HloOpcode::kLu;
      Literal factors(instruction.shape().tuple_shapes()[0]);
      Literal second(instruction.shape().tuple_shapes()[1]);
      for (int64_t b = 0; b < batches; ++b) {
        Matrix m = ReadMatrix(a, b);
        const int64_t k = std::min(m.rows, m.cols);
        if (lu) {
          std::vector<int64_t> pivots;
          Lu(&m, &pivots);
          for (int64_t j = 0; j < k; ++j) {
            second.SetFromInt64(b * k + j, pivots[static_cast<std::size_t>(j)]);
          }
        } else {
          std::vector<Complex> taus;
          Qr(&m, &taus);
          for (int64_t j = 0; j < k; ++j) {
            second.SetFromComplex(b * k + j, taus[static_cast<std::size_t>(j)]);
          }
        }
        WriteMatrix(m, b, &factors);
      }
      std::vector<Literal> elements;
      elements.push_back(std::move(factors));
      elements.push_back(std::move(second));
      return Literal::Tuple(std::move(elements));
    }
    case HloOpcode::kHouseholderProduct: {
      Literal result(instruction.shape());
      const Literal& taus = *operands[1];
      const int64_t k = taus.shape().dim(taus.shape().rank() - 1);
      for (int64_t b = 0; b < batches; ++b) {
        std::vector<Complex> tau(static_cast<std::size_t>(k));
        for (int64_t j = 0; j < k; ++j) {
          tau[static_cast<std::size_t>(j)] = taus.GetAsComplex(b * k + j);
        }
        WriteMatrix(HouseholderProduct(ReadMatrix(a, b), tau), b, &result);
      }
      return result;
    }
    default:
      return InvalidArgument("not a linear-algebra op: " +
                             std::string(HloOpcodeName(instruction.opcode())));
  }
}

}  // namespace phal::reference
