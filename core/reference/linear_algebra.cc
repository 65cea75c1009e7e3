#include "core/reference/linear_algebra.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
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

// A real symmetric (or, for svd, any real) matrix in double.
using Real = std::vector<double>;

double& At(Real& m, int64_t cols, int64_t i, int64_t j) {
  return m[static_cast<std::size_t>(i * cols + j)];
}

// The Jacobi rotation (c, s) that zeroes the (p, q) entry of a symmetric
// 2x2 block [[app, apq], [apq, aqq]] as J^T A J with J = [[c, s], [-s, c]];
// (1, 0) when apq is zero.
void JacobiRotation(double app, double aqq, double apq, double* c, double* s) {
  if (apq == 0) {
    *c = 1;
    *s = 0;
    return;
  }
  const double theta = (aqq - app) / (2 * apq);
  const double t = (theta >= 0 ? 1.0 : -1.0) /
                   (std::abs(theta) + std::sqrt(1 + theta * theta));
  *c = 1 / std::sqrt(1 + t * t);
  *s = t * *c;
}

// (x, y) <- (c x - s u y, s x + c u y): the plane rotation of a pair of
// entries, u the phase applied to the second (1 for real matrices).
template <typename T>
void RotatePair(T* x, T* y, double c, double s, T u) {
  const T a = *x;
  const T b = *y;
  *x = c * a - s * u * b;
  *y = s * a + c * u * b;
}

// The stable order of `keys` ascending (or descending).
std::vector<int64_t> Order(const std::vector<double>& keys, bool descending) {
  std::vector<int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    const double a = keys[static_cast<std::size_t>(x)];
    const double b = keys[static_cast<std::size_t>(y)];
    return descending ? a > b : a < b;
  });
  return order;
}

// -1 when the entry of largest magnitude (the first of equals) of column
// j of the rows x cols matrix m is negative, else 1.
double ColumnSign(Real& m, int64_t rows, int64_t cols, int64_t j) {
  int64_t best = 0;
  for (int64_t i = 1; i < rows; ++i) {
    if (std::abs(At(m, cols, i, j)) > std::abs(At(m, cols, best, j))) best = i;
  }
  return At(m, cols, best, j) < 0 ? -1 : 1;
}

constexpr int kMaxSweeps = 60;

// eigh: cyclic Jacobi to convergence, eigenvalues ascending, each
// eigenvector's entry of largest magnitude positive.
void Eigh(const Matrix& input, bool lower, Matrix* vectors,
          std::vector<double>* values) {
  const int64_t n = input.rows;
  Real a(static_cast<std::size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const bool read = lower ? i >= j : i <= j;
      At(a, n, i, j) = (read ? input.at(i, j) : input.at(j, i)).real();
    }
  }
  Real v(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) At(v, n, i, i) = 1;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0;
    double total = 0;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = 0; q < n; ++q) {
        const double square = At(a, n, p, q) * At(a, n, p, q);
        total += square;
        if (p != q) off += square;
      }
    }
    if (!(off > 1e-32 * total)) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double c = 1;
        double s = 0;
        JacobiRotation(At(a, n, p, p), At(a, n, q, q), At(a, n, p, q), &c, &s);
        if (s == 0) continue;
        for (int64_t k = 0; k < n; ++k) {
          RotatePair(&At(a, n, p, k), &At(a, n, q, k), c, s, 1.0);
        }
        for (int64_t k = 0; k < n; ++k) {
          RotatePair(&At(a, n, k, p), &At(a, n, k, q), c, s, 1.0);
          RotatePair(&At(v, n, k, p), &At(v, n, k, q), c, s, 1.0);
        }
      }
    }
  }
  std::vector<double> diagonal(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    diagonal[static_cast<std::size_t>(i)] = At(a, n, i, i);
  const std::vector<int64_t> order = Order(diagonal, false);
  *vectors = Zeros(n, n);
  values->assign(static_cast<std::size_t>(n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t from = order[static_cast<std::size_t>(j)];
    (*values)[static_cast<std::size_t>(j)] =
        diagonal[static_cast<std::size_t>(from)];
    const double sign = ColumnSign(v, n, n, from);
    for (int64_t i = 0; i < n; ++i)
      vectors->at(i, j) = sign * At(v, n, i, from);
  }
}

// eigh of a Hermitian (complex) matrix: cyclic Jacobi with the rotations
// J = diag(1, u) R, u = conj(a_pq) / |a_pq| making the pair's entry real
// for the real rotation R; eigenvalues ascending, each eigenvector scaled
// by conj(e) / |e| of its entry e of largest modulus (the first of equals).
void EighHermitian(const Matrix& input, bool lower, Matrix* vectors,
                   std::vector<double>* values) {
  const int64_t n = input.rows;
  Matrix a = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const bool read = lower ? i >= j : i <= j;
      a.at(i, j) = read ? input.at(i, j) : std::conj(input.at(j, i));
    }
    a.at(i, i) = a.at(i, i).real();
  }
  Matrix v = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) v.at(i, i) = 1;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0;
    double total = 0;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = 0; q < n; ++q) {
        const double square = std::norm(a.at(p, q));
        total += square;
        if (p != q) off += square;
      }
    }
    if (!(off > 1e-32 * total)) break;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const double magnitude = std::abs(a.at(p, q));
        if (magnitude == 0) continue;
        const Complex u = std::conj(a.at(p, q)) / magnitude;
        double c = 1;
        double s = 0;
        JacobiRotation(a.at(p, p).real(), a.at(q, q).real(), magnitude, &c, &s);
        for (int64_t k = 0; k < n; ++k) {
          RotatePair(&a.at(k, p), &a.at(k, q), c, s, u);
          RotatePair(&v.at(k, p), &v.at(k, q), c, s, u);
        }
        for (int64_t k = 0; k < n; ++k) {
          RotatePair(&a.at(p, k), &a.at(q, k), c, s, std::conj(u));
        }
      }
    }
  }
  std::vector<double> diagonal(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    diagonal[static_cast<std::size_t>(i)] = a.at(i, i).real();
  }
  const std::vector<int64_t> order = Order(diagonal, false);
  *vectors = Zeros(n, n);
  values->assign(static_cast<std::size_t>(n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t from = order[static_cast<std::size_t>(j)];
    (*values)[static_cast<std::size_t>(j)] =
        diagonal[static_cast<std::size_t>(from)];
    int64_t best = 0;
    for (int64_t i = 1; i < n; ++i) {
      if (std::abs(v.at(i, from)) > std::abs(v.at(best, from))) best = i;
    }
    const Complex e = v.at(best, from);
    const Complex phase =
        std::abs(e) == 0 ? Complex(1) : std::conj(e) / std::abs(e);
    for (int64_t i = 0; i < n; ++i) vectors->at(i, j) = phase * v.at(i, from);
  }
}

// svd of a tall (m >= n) matrix: one-sided Jacobi on the columns of w = a
// to convergence, v accumulating the rotations; singular values the
// column norms, descending; each v column's entry of largest magnitude
// positive; u the normalised columns, completed to `u_cols` orthonormal
// columns by Householder QR (the columns of Q, with the signs of R's
// diagonal, where a singular value is positive).
void TallSvd(const Matrix& input, int64_t u_cols, Matrix* u,
             std::vector<double>* sigma, Matrix* v_out) {
  const int64_t m = input.rows;
  const int64_t n = input.cols;
  Real w(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) At(w, n, i, j) = input.at(i, j).real();
  }
  Real v(static_cast<std::size_t>(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) At(v, n, i, i) = 1;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < m; ++i) {
          alpha += At(w, n, i, p) * At(w, n, i, p);
          beta += At(w, n, i, q) * At(w, n, i, q);
          gamma += At(w, n, i, p) * At(w, n, i, q);
        }
        if (!(std::abs(gamma) > 1e-15 * std::sqrt(alpha * beta))) continue;
        rotated = true;
        double c = 1, s = 0;
        JacobiRotation(alpha, beta, gamma, &c, &s);
        for (int64_t i = 0; i < m; ++i) {
          RotatePair(&At(w, n, i, p), &At(w, n, i, q), c, s, 1.0);
        }
        for (int64_t i = 0; i < n; ++i) {
          RotatePair(&At(v, n, i, p), &At(v, n, i, q), c, s, 1.0);
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> norms(static_cast<std::size_t>(n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double sum = 0;
    for (int64_t i = 0; i < m; ++i) sum += At(w, n, i, j) * At(w, n, i, j);
    norms[static_cast<std::size_t>(j)] = std::sqrt(sum);
  }
  const std::vector<int64_t> order = Order(norms, true);
  sigma->assign(static_cast<std::size_t>(n), 0.0);
  *v_out = Zeros(n, n);
  Matrix padded = Zeros(m, u_cols);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t from = order[static_cast<std::size_t>(j)];
    const double s = norms[static_cast<std::size_t>(from)];
    (*sigma)[static_cast<std::size_t>(j)] = s;
    const double sign = ColumnSign(v, n, n, from);
    for (int64_t i = 0; i < n; ++i) v_out->at(i, j) = sign * At(v, n, i, from);
    if (s > 0) {
      for (int64_t i = 0; i < m; ++i) {
        padded.at(i, j) = sign * At(w, n, i, from) / s;
      }
    }
  }
  Matrix factors = padded;
  std::vector<Complex> taus;
  Qr(&factors, &taus);
  *u = HouseholderProduct(factors, taus);
  for (int64_t j = 0; j < n; ++j) {
    if (!((*sigma)[static_cast<std::size_t>(j)] > 0)) continue;
    if (factors.at(j, j).real() < 0) {
      for (int64_t i = 0; i < m; ++i) u->at(i, j) = -u->at(i, j);
    }
  }
}

// The tall svd of a complex matrix, as TallSvd: the pair rotations
// J = diag(1, u) R with u = conj(g) / |g| for g = w_p^H w_q, and each right
// singular vector scaled by conj(e) / |e| of its entry e of largest
// modulus (the left one alike).
void TallSvdComplex(const Matrix& input, int64_t u_cols, Matrix* u,
                    std::vector<double>* sigma, Matrix* v_out) {
  const int64_t m = input.rows;
  const int64_t n = input.cols;
  Matrix w = input;
  Matrix v = Zeros(n, n);
  for (int64_t i = 0; i < n; ++i) v.at(i, i) = 1;
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        double alpha = 0, beta = 0;
        Complex gamma = 0;
        for (int64_t i = 0; i < m; ++i) {
          alpha += std::norm(w.at(i, p));
          beta += std::norm(w.at(i, q));
          gamma += std::conj(w.at(i, p)) * w.at(i, q);
        }
        const double magnitude = std::abs(gamma);
        if (!(magnitude > 1e-15 * std::sqrt(alpha * beta))) continue;
        rotated = true;
        const Complex phase = std::conj(gamma) / magnitude;
        double c = 1, s = 0;
        JacobiRotation(alpha, beta, magnitude, &c, &s);
        for (Matrix* x : {&w, &v}) {
          for (int64_t i = 0; i < x->rows; ++i) {
            RotatePair(&x->at(i, p), &x->at(i, q), c, s, phase);
          }
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> norms(static_cast<std::size_t>(n), 0.0);
  for (int64_t j = 0; j < n; ++j) {
    double sum = 0;
    for (int64_t i = 0; i < m; ++i) sum += std::norm(w.at(i, j));
    norms[static_cast<std::size_t>(j)] = std::sqrt(sum);
  }
  const std::vector<int64_t> order = Order(norms, true);
  sigma->assign(static_cast<std::size_t>(n), 0.0);
  *v_out = Zeros(n, n);
  Matrix padded = Zeros(m, u_cols);
  for (int64_t j = 0; j < n; ++j) {
    const int64_t from = order[static_cast<std::size_t>(j)];
    const double size = norms[static_cast<std::size_t>(from)];
    (*sigma)[static_cast<std::size_t>(j)] = size;
    int64_t best = 0;
    for (int64_t i = 1; i < n; ++i) {
      if (std::abs(v.at(i, from)) > std::abs(v.at(best, from))) best = i;
    }
    const Complex e = v.at(best, from);
    const Complex phase =
        std::abs(e) == 0 ? Complex(1) : std::conj(e) / std::abs(e);
    for (int64_t i = 0; i < n; ++i) v_out->at(i, j) = phase * v.at(i, from);
    if (size > 0) {
      for (int64_t i = 0; i < m; ++i) {
        padded.at(i, j) = phase * w.at(i, from) / size;
      }
    }
  }
  Matrix factors = padded;
  std::vector<Complex> taus;
  Qr(&factors, &taus);
  *u = HouseholderProduct(factors, taus);
  for (int64_t j = 0; j < n; ++j) {
    if (!((*sigma)[static_cast<std::size_t>(j)] > 0)) continue;
    if (factors.at(j, j).real() < 0) {
      for (int64_t i = 0; i < m; ++i) u->at(i, j) = -u->at(i, j);
    }
  }
}

Matrix Adjoint(const Matrix& m) {
  Matrix t = Zeros(m.cols, m.rows);
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j) t.at(j, i) = std::conj(m.at(i, j));
  }
  return t;
}

// svd(a) = u diag(s) vt, through the tall case (of a^T when m < n).
void Svd(const Matrix& a, bool full, bool complex, Matrix* u,
         std::vector<double>* sigma, Matrix* vt) {
  const int64_t m = a.rows;
  const int64_t n = a.cols;
  const int64_t k = std::min(m, n);
  const auto tall = complex ? TallSvdComplex : TallSvd;
  if (m >= n) {
    Matrix v;
    tall(a, full ? m : k, u, sigma, &v);
    *vt = Adjoint(v);
    return;
  }
  Matrix v;
  Matrix left;
  tall(Adjoint(a), full ? n : k, &left, sigma, &v);
  *u = v;
  *vt = Adjoint(left);
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
    case HloOpcode::kEigh: {
      Literal vectors(instruction.shape().tuple_shapes()[0]);
      Literal values(instruction.shape().tuple_shapes()[1]);
      const int64_t n = a.shape().dim(a.shape().rank() - 1);
      for (int64_t b = 0; b < batches; ++b) {
        Matrix v;
        std::vector<double> w;
        if (IsComplex(a.element_type())) {
          EighHermitian(ReadMatrix(a, b), options.lower, &v, &w);
        } else {
          Eigh(ReadMatrix(a, b), options.lower, &v, &w);
        }
        WriteMatrix(v, b, &vectors);
        for (int64_t j = 0; j < n; ++j) {
          values.SetFromDouble(b * n + j, w[static_cast<std::size_t>(j)]);
        }
      }
      std::vector<Literal> elements;
      elements.push_back(std::move(vectors));
      elements.push_back(std::move(values));
      return Literal::Tuple(std::move(elements));
    }
    case HloOpcode::kSvd: {
      Literal u(instruction.shape().tuple_shapes()[0]);
      Literal s(instruction.shape().tuple_shapes()[1]);
      Literal vt(instruction.shape().tuple_shapes()[2]);
      const Shape& shape = a.shape();
      const int64_t k =
          std::min(shape.dim(shape.rank() - 2), shape.dim(shape.rank() - 1));
      for (int64_t b = 0; b < batches; ++b) {
        Matrix left, right;
        std::vector<double> sigma;
        Svd(ReadMatrix(a, b), options.full_matrices,
            IsComplex(a.element_type()), &left, &sigma, &right);
        WriteMatrix(left, b, &u);
        WriteMatrix(right, b, &vt);
        for (int64_t j = 0; j < k; ++j) {
          s.SetFromDouble(b * k + j, sigma[static_cast<std::size_t>(j)]);
        }
      }
      std::vector<Literal> elements;
      elements.push_back(std::move(u));
      elements.push_back(std::move(s));
      elements.push_back(std::move(vt));
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
