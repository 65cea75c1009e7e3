#include "plugins/cpu/cpu_linalg.h"

#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <exception>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "plugins/cpu/cpu_gemm.h"

namespace phal::cpu {
namespace {

// ---- scalars ----------------------------------------------------------------

template <typename T>
struct RealOfImpl {
  using type = T;
};
template <typename T>
struct RealOfImpl<std::complex<T>> {
  using type = T;
};
// The real type of a scalar's precision.
template <typename T>
using RealOf = typename RealOfImpl<T>::type;
template <typename T>
constexpr bool kIsComplex = !std::is_same_v<T, RealOf<T>>;
// The scalar the reference computes in: double or complex<double>.
template <typename T>
using WideOf = std::conditional_t<kIsComplex<T>, std::complex<double>, double>;

template <typename T>
T Conj(T x) {
  if constexpr (kIsComplex<T>) {
    return std::conj(x);
  } else {
    return x;
  }
}

template <typename T>
bool IsNan(T x) {
  if constexpr (kIsComplex<T>) {
    return std::isnan(x.real()) || std::isnan(x.imag());
  } else {
    return std::isnan(x);
  }
}

template <typename T>
bool IsFinite(T x) {
  if constexpr (kIsComplex<T>) {
    return std::isfinite(x.real()) && std::isfinite(x.imag());
  } else {
    return std::isfinite(x);
  }
}

template <typename T>
bool AnyNan(const T* values, int64_t count) {
  return std::any_of(values, values + count, [](T x) { return IsNan(x); });
}

// Whether every value is finite: x - x is +0 for a finite x and NaN
// otherwise, and sums of +0 stay +0. Four sums side by side, no branch
// per value: a large triangular solve checks its whole triangle.
template <typename T>
bool AllFinite(const T* values, int64_t count) {
  using R = decltype(std::real(T()));
  const auto* parts = reinterpret_cast<const R*>(values);
  const int64_t n = count * static_cast<int64_t>(sizeof(T) / sizeof(R));
  R sums[4] = {0, 0, 0, 0};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int lane = 0; lane < 4; ++lane) {
      sums[lane] += parts[i + lane] - parts[i + lane];
    }
  }
  for (; i < n; ++i) sums[0] += parts[i] - parts[i];
  return sums[0] + sums[1] + sums[2] + sums[3] == R(0);
}

// |re| + |im|: the magnitude LAPACK's pivot search (and the reference's)
// compares.
double Magnitude1(double x) { return std::abs(x); }
double Magnitude1(std::complex<double> z) {
  return std::abs(z.real()) + std::abs(z.imag());
}

// The unit-modulus factor that makes `e` real positive (1 for zero).
template <typename W>
W PhaseToPositive(W e) {
  if constexpr (kIsComplex<W>) {
    const double magnitude = std::abs(e);
    return magnitude == 0 ? W(1) : std::conj(e) / magnitude;
  } else {
    return e < 0 ? -1.0 : 1.0;
  }
}

// ---- matrices ---------------------------------------------------------------

// Turns -0 into +0 (x + 0 does, in IEEE arithmetic). Before geqrf: LAPACK's
// reflector takes the sign of a diagonal -0 to be negative, the
// reference's positive, and no -0 arises on the diagonal from +0 inputs.
template <typename T>
void ClearNegativeZeros(T* values, int64_t count) {
  for (int64_t i = 0; i < count; ++i) values[i] += T(0);
}

// to[j * rows + i] = from[i * cols + j]: the rows x cols matrix `from`
// transposed, a square tile of 4 KiB at a time gathered into a local
// buffer from whole rows and written out as whole columns, so that every
// cache line is read and written once, in full (element by element, one
// side strides through memory, and at power-of-two orders its lines evict
// each other before the tile is done with them).
template <typename T>
void Transpose(const T* from, int64_t rows, int64_t cols, T* to) {
  constexpr int64_t kTile = sizeof(T) <= 4 ? 32 : 16;
  T tile[kTile][kTile];
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t ni = std::min(kTile, rows - i0);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t nj = std::min(kTile, cols - j0);
      for (int64_t i = 0; i < ni; ++i) {
        const T* row = from + (i0 + i) * cols + j0;
        for (int64_t j = 0; j < nj; ++j) tile[j][i] = row[j];
      }
      for (int64_t j = 0; j < nj; ++j) {
        std::copy(tile[j], tile[j] + ni, to + (j0 + j) * rows + i0);
      }
    }
  }
}

// Copies the rows x cols row-major matrix `from` into the column-major `to`.
template <typename T>
void ToColumnMajor(const T* from, int64_t rows, int64_t cols, T* to) {
  Transpose(from, rows, cols, to);
}

// Copies the rows x cols column-major matrix `from` into the row-major `to`.
template <typename T>
void ToRowMajor(const T* from, int64_t rows, int64_t cols, T* to) {
  Transpose(from, cols, rows, to);
}

// The index of the entry of largest magnitude of `column` (the first of
// equals).
template <typename T>
int64_t LargestEntry(const T* column, int64_t count) {
  int64_t best = 0;
  for (int64_t i = 1; i < count; ++i) {
    if (std::abs(column[i]) > std::abs(column[best])) best = i;
  }
  return best;
}

// The stable order of `keys` ascending (or descending), as the reference
// sorts eigenvalues and singular values.
std::vector<int64_t> StableOrder(const std::vector<double>& keys,
                                 bool descending) {
  std::vector<int64_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
    const double a = keys[static_cast<size_t>(x)];
    const double b = keys[static_cast<size_t>(y)];
    return descending ? a > b : a < b;
  });
  return order;
}

// ---- the reference's algorithms, for the matrices LAPACK cannot match ------

// cholesky column by column in the wide type W, reading the lower
// triangle (or the conjugate of the upper), NaN columns from the first
// pivot that is not positive on; writes the factor in T.
template <typename T>
void ReferenceCholesky(const T* a, int64_t n, bool lower, T* out) {
  using W = WideOf<T>;
  const auto entry = [&](int64_t i, int64_t j) {
    return lower ? W(a[i * n + j]) : Conj(W(a[j * n + i]));
  };
  std::vector<W> l(static_cast<size_t>(n * n), W(0));
  const auto at = [&](int64_t i, int64_t j) -> W& {
    return l[static_cast<size_t>(i * n + j)];
  };
  bool failed = false;
  for (int64_t j = 0; j < n; ++j) {
    W pivot = entry(j, j);
    for (int64_t k = 0; k < j; ++k) pivot -= at(j, k) * Conj(at(j, k));
    failed = failed || !(std::real(pivot) > 0);
    if (failed) {
      for (int64_t i = j; i < n; ++i) {
        at(i, j) = std::numeric_limits<double>::quiet_NaN();
      }
      continue;
    }
    const double d = std::sqrt(std::real(pivot));
    at(j, j) = d;
    for (int64_t i = j + 1; i < n; ++i) {
      W sum = entry(i, j);
      for (int64_t k = 0; k < j; ++k) sum -= at(i, k) * Conj(at(j, k));
      at(i, j) = sum / d;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      W value = 0;
      if (lower && j <= i) value = at(i, j);
      if (!lower && j >= i) value = Conj(at(j, i));
      out[i * n + j] = static_cast<T>(value);
    }
  }
}

// lu with the reference's pivot rule (the first row of largest |re| + |im|,
// the diagonal row when the column holds a NaN), in the wide type.
template <typename T>
void ReferenceLu(const T* input, int64_t m, int64_t n, T* out,
                 int32_t* pivots) {
  using W = WideOf<T>;
  std::vector<W> a(input, input + m * n);
  const auto at = [&](int64_t i, int64_t j) -> W& {
    return a[static_cast<size_t>(i * n + j)];
  };
  for (int64_t j = 0; j < std::min(m, n); ++j) {
    double largest = -1;
    bool nan = false;
    for (int64_t i = j; i < m; ++i) {
      const double magnitude = Magnitude1(at(i, j));
      nan = nan || std::isnan(magnitude);
      largest = std::max(largest, magnitude);
    }
    int64_t p = j;
    while (!nan && Magnitude1(at(p, j)) != largest) ++p;
    pivots[j] = static_cast<int32_t>(p);
    for (int64_t c = 0; c < n; ++c) std::swap(at(j, c), at(p, c));
    const W pivot = at(j, j);
    if (pivot != W(0)) {
      for (int64_t i = j + 1; i < m; ++i) at(i, j) /= pivot;
    }
    for (int64_t i = j + 1; i < m; ++i) {
      for (int64_t c = j + 1; c < n; ++c) at(i, c) -= at(i, j) * at(j, c);
    }
  }
  for (int64_t i = 0; i < m * n; ++i) {
    out[i] = static_cast<T>(a[static_cast<size_t>(i)]);
  }
}

// triangular-solve by the reference's substitution, row by row, in the
// wide type: b is m x k with `left`, k x m otherwise, x op(a) = b solved as
// op(a)^T x^T = b^T.
template <typename T>
void ReferenceTriangularSolve(const T* a, const T* b, int64_t m, int64_t k,
                              const LinalgShape& shape, T* x) {
  using W = WideOf<T>;
  const bool left = (shape.flags & PHAL_KIR_LINALG_LEFT_SIDE) != 0;
  const bool lower = (shape.flags & PHAL_KIR_LINALG_LOWER) != 0;
  const bool unit = (shape.flags & PHAL_KIR_LINALG_UNIT_DIAGONAL) != 0;
  const bool transposed = shape.transpose_a != PHAL_KIR_TRANSPOSE_NONE;
  // t: the matrix solved with, op(a) (transposed again for the right
  // side), dense; t_lower: whether it is lower-triangular.
  const bool flip = transposed != !left;
  const bool t_lower = lower != flip;
  std::vector<W> t(static_cast<size_t>(m * m), W(0));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      if (i != j && !(lower ? j < i : j > i)) continue;
      W value = i == j && unit ? W(1) : W(a[i * m + j]);
      if (shape.transpose_a == PHAL_KIR_TRANSPOSE_ADJOINT) value = Conj(value);
      t[static_cast<size_t>(flip ? j * m + i : i * m + j)] = value;
    }
  }
  std::vector<W> solution(static_cast<size_t>(m * k), W(0));
  const auto at = [&](int64_t i, int64_t c) -> W& {
    return solution[static_cast<size_t>(i * k + c)];
  };
  for (int64_t step = 0; step < m; ++step) {
    const int64_t i = t_lower ? step : m - 1 - step;
    for (int64_t c = 0; c < k; ++c) {
      W sum = W(left ? b[i * k + c] : b[c * m + i]);
      for (int64_t j = 0; j < m; ++j) {
        const bool known = t_lower ? j < i : j > i;
        if (known) sum -= t[static_cast<size_t>(i * m + j)] * at(j, c);
      }
      at(i, c) = sum / t[static_cast<size_t>(i * m + i)];
    }
  }
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t c = 0; c < k; ++c) {
      x[left ? i * k + c : c * m + i] = static_cast<T>(at(i, c));
    }
  }
}

// The rotation (c, s) that zeroes the off-diagonal entry of the symmetric
// 2x2 block [[app, apq], [apq, aqq]]; (1, 0) when apq is zero.
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

template <typename W>
void RotatePair(W* x, W* y, double c, double s, W u) {
  const W a = *x;
  const W b = *y;
  *x = c * a - s * u * b;
  *y = s * a + c * u * b;
}

// The reference's one-sided Jacobi rotates the pair of columns (p, q) of
// a tall matrix when their inner product exceeds 1e-15 of their norms'
// product; false when it rotates none of `matrix` (rows x cols,
// column-major), which it then leaves as it is.
template <typename T>
bool JacobiRotatesAPair(const T* matrix, int64_t rows, int64_t cols) {
  using W = WideOf<T>;
  std::vector<double> norms(static_cast<size_t>(cols), 0.0);
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) {
      norms[static_cast<size_t>(j)] += std::norm(W(matrix[i + j * rows]));
    }
  }
  for (int64_t p = 0; p < cols; ++p) {
    for (int64_t q = p + 1; q < cols; ++q) {
      W gamma = 0;
      for (int64_t i = 0; i < rows; ++i) {
        gamma += Conj(W(matrix[i + p * rows])) * W(matrix[i + q * rows]);
      }
      const double bound = 1e-15 * std::sqrt(norms[static_cast<size_t>(p)] *
                                             norms[static_cast<size_t>(q)]);
      if (std::abs(gamma) > bound) return true;
    }
  }
  return false;
}

constexpr int kMaxSweeps = 60;

// lu factors matrices of up to this m * n * min(m, n) the reference's way.
constexpr int64_t kReferenceLuWork = 16 * 16 * 16;

// The reference's svd of a tall matrix (rows x cols, column-major, in
// `matrix`): one-sided Jacobi in the wide type, singular values the
// column norms in stable descending order. Writes `sigma`, the right
// singular vectors unscaled as the columns of `v` (cols x cols) and, where
// sigma is positive, the normalised columns in the first cols columns of
// `u` (leading dimension rows).
template <typename T>
void ReferenceTallSvd(const T* matrix, int64_t rows, int64_t cols, T* u,
                      RealOf<T>* sigma, T* v) {
  using W = WideOf<T>;
  std::vector<W> w(matrix, matrix + rows * cols);
  std::vector<W> rotations(static_cast<size_t>(cols * cols), W(0));
  for (int64_t i = 0; i < cols; ++i) {
    rotations[static_cast<size_t>(i + i * cols)] = 1;
  }
  const auto column = [](std::vector<W>& x, int64_t length, int64_t j) {
    return x.data() + j * length;
  };
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (int64_t p = 0; p < cols; ++p) {
      for (int64_t q = p + 1; q < cols; ++q) {
        W* wp = column(w, rows, p);
        W* wq = column(w, rows, q);
        double alpha = 0, beta = 0;
        W gamma = 0;
        for (int64_t i = 0; i < rows; ++i) {
          alpha += std::norm(wp[i]);
          beta += std::norm(wq[i]);
          gamma += Conj(wp[i]) * wq[i];
        }
        const double magnitude = std::abs(gamma);
        if (!(magnitude > 1e-15 * std::sqrt(alpha * beta))) continue;
        rotated = true;
        double c = 1, s = 0;
        W phase = 1;
        if constexpr (kIsComplex<W>) {
          phase = std::conj(gamma) / magnitude;
          JacobiRotation(alpha, beta, magnitude, &c, &s);
        } else {
          JacobiRotation(alpha, beta, gamma, &c, &s);
        }
        for (int64_t i = 0; i < rows; ++i) {
          RotatePair(&wp[i], &wq[i], c, s, phase);
        }
        W* vp = column(rotations, cols, p);
        W* vq = column(rotations, cols, q);
        for (int64_t i = 0; i < cols; ++i) {
          RotatePair(&vp[i], &vq[i], c, s, phase);
        }
      }
    }
    if (!rotated) break;
  }
  std::vector<double> norms(static_cast<size_t>(cols), 0.0);
  for (int64_t j = 0; j < cols; ++j) {
    double sum = 0;
    for (int64_t i = 0; i < rows; ++i) sum += std::norm(column(w, rows, j)[i]);
    norms[static_cast<size_t>(j)] = std::sqrt(sum);
  }
  const std::vector<int64_t> order = StableOrder(norms, true);
  for (int64_t j = 0; j < cols; ++j) {
    const int64_t from = order[static_cast<size_t>(j)];
    const double size = norms[static_cast<size_t>(from)];
    sigma[j] = static_cast<RealOf<T>>(size);
    for (int64_t i = 0; i < cols; ++i) {
      v[i + j * cols] = static_cast<T>(column(rotations, cols, from)[i]);
    }
    for (int64_t i = 0; i < rows; ++i) {
      u[i + j * rows] =
          size > 0 ? static_cast<T>(column(w, rows, from)[i] / size) : T(0);
    }
  }
}

// ---- LAPACK -----------------------------------------------------------------

// The OpenBLAS routines of one scalar type, looked up once; null where
// missing. Fortran passes every argument by pointer, integers as 32-bit
// int (OpenBLAS's LP64 interface), and appends a hidden length for each
// character argument.
template <typename T>
struct Lapack {
  using R = RealOf<T>;
  using Potrf = void (*)(const char*, const int*, T*, const int*, int*, size_t);
  using Getrf = void (*)(const int*, const int*, T*, const int*, int*, int*);
  using Geqrf = void (*)(const int*, const int*, T*, const int*, T*, T*,
                         const int*, int*);
  using Orgqr = void (*)(const int*, const int*, const int*, T*, const int*,
                         const T*, T*, const int*, int*);
  // syevd(jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork, info).
  using Syevd = void (*)(const char*, const char*, const int*, T*, const int*,
                         R*, T*, const int*, int*, const int*, int*, size_t,
                         size_t);
  // heevd: syevd's arguments with rwork, lrwork before iwork.
  using Heevd = void (*)(const char*, const char*, const int*, T*, const int*,
                         R*, T*, const int*, R*, const int*, int*, const int*,
                         int*, size_t, size_t);
  // gesdd(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info).
  using RealGesdd = void (*)(const char*, const int*, const int*, T*,
                             const int*, R*, T*, const int*, T*, const int*, T*,
                             const int*, int*, int*, size_t);
  // The complex gesdd: rwork before iwork.
  using ComplexGesdd = void (*)(const char*, const int*, const int*, T*,
                                const int*, R*, T*, const int*, T*, const int*,
                                T*, const int*, R*, int*, int*, size_t);
  using RealTrsm = void (*)(CBLAS_ORDER, CBLAS_SIDE, CBLAS_UPLO,
                            CBLAS_TRANSPOSE, CBLAS_DIAG, blasint, blasint, R,
                            const R*, blasint, R*, blasint);
  using ComplexTrsm = void (*)(CBLAS_ORDER, CBLAS_SIDE, CBLAS_UPLO,
                               CBLAS_TRANSPOSE, CBLAS_DIAG, blasint, blasint,
                               const void*, const void*, blasint, void*,
                               blasint);
  using RealGemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE,
                            blasint, blasint, blasint, R, const R*, blasint,
                            const R*, blasint, R, R*, blasint);
  using ComplexGemm = void (*)(CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE,
                               blasint, blasint, blasint, const void*,
                               const void*, blasint, const void*, blasint,
                               const void*, void*, blasint);

  static constexpr char kPrefix = std::is_same_v<T, float>    ? 's'
                                  : std::is_same_v<T, double> ? 'd'
                                  : std::is_same_v<R, float>  ? 'c'
                                                              : 'z';
  static constexpr const char* kOrgqr = kIsComplex<T> ? "ungqr_" : "orgqr_";
  static constexpr const char* kEigen = kIsComplex<T> ? "heevd_" : "syevd_";

  static std::string Name(const char* base) {
    return kPrefix + std::string(base);
  }

  template <typename F>
  static F Find(const std::string& name) {
    return reinterpret_cast<F>(OpenBlasSymbol(name.c_str()));
  }

  static const Lapack& Get() {
    static const Lapack lapack = [] {
      Lapack l;
      l.potrf = Find<Potrf>(Name("potrf_"));
      l.getrf = Find<Getrf>(Name("getrf_"));
      l.geqrf = Find<Geqrf>(Name("geqrf_"));
      l.orgqr = Find<Orgqr>(Name(kOrgqr));
      l.eigen = Find<decltype(l.eigen)>(Name(kEigen));
      l.gesdd = Find<decltype(l.gesdd)>(Name("gesdd_"));
      l.trsm = Find<decltype(l.trsm)>("cblas_" + Name("trsm"));
      l.gemm = Find<decltype(l.gemm)>("cblas_" + Name("gemm"));
      return l;
    }();
    return lapack;
  }

  // FAILED_PRECONDITION naming the first routine `op` needs that is
  // missing.
  Status Require(phal_kir_linalg_op_t op) const {
    const auto need = [](const void* routine, const std::string& name) {
      if (routine != nullptr) return OkStatus();
      return FailedPrecondition("cpu plugin: LINALG kernels need OpenBLAS's " +
                                name + ", which could not be loaded");
    };
    switch (op) {
      case PHAL_KIR_LINALG_CHOLESKY:
        return need(reinterpret_cast<const void*>(potrf), Name("potrf_"));
      case PHAL_KIR_LINALG_TRIANGULAR_SOLVE:
        return need(reinterpret_cast<const void*>(trsm),
                    "cblas_" + Name("trsm"));
      case PHAL_KIR_LINALG_LU:
        return need(reinterpret_cast<const void*>(getrf), Name("getrf_"));
      case PHAL_KIR_LINALG_QR:
        return need(reinterpret_cast<const void*>(geqrf), Name("geqrf_"));
      case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT:
        return need(reinterpret_cast<const void*>(orgqr), Name(kOrgqr));
      case PHAL_KIR_LINALG_EIGH:
        return need(reinterpret_cast<const void*>(eigen), Name(kEigen));
      case PHAL_KIR_LINALG_SVD:
        PHAL_RETURN_IF_ERROR(
            need(reinterpret_cast<const void*>(gesdd), Name("gesdd_")));
        PHAL_RETURN_IF_ERROR(
            need(reinterpret_cast<const void*>(geqrf), Name("geqrf_")));
        return need(reinterpret_cast<const void*>(orgqr), Name(kOrgqr));
    }
    return Internal("cpu plugin: LINALG kernel of unknown op");
  }

  Potrf potrf = nullptr;
  Getrf getrf = nullptr;
  Geqrf geqrf = nullptr;
  Orgqr orgqr = nullptr;
  std::conditional_t<kIsComplex<T>, Heevd, Syevd> eigen = nullptr;
  std::conditional_t<kIsComplex<T>, ComplexGesdd, RealGesdd> gesdd = nullptr;
  std::conditional_t<kIsComplex<T>, ComplexTrsm, RealTrsm> trsm = nullptr;
  std::conditional_t<kIsComplex<T>, ComplexGemm, RealGemm> gemm = nullptr;

  // Column-major trsm and gemm with alpha (and gemm's beta) real, for
  // either kind of T.
  void Trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE transpose,
            CBLAS_DIAG diag, int64_t m, int64_t n, const T* a, int64_t lda,
            T* b, int64_t ldb) const {
    const auto i = [](int64_t v) { return static_cast<blasint>(v); };
    if constexpr (kIsComplex<T>) {
      const T one = 1;
      trsm(CblasColMajor, side, uplo, transpose, diag, i(m), i(n), &one, a,
           i(lda), b, i(ldb));
    } else {
      trsm(CblasColMajor, side, uplo, transpose, diag, i(m), i(n), T(1), a,
           i(lda), b, i(ldb));
    }
  }
  // c = c - op_a(a) op_b(b).
  void GemmSubtract(CBLAS_TRANSPOSE op_a, CBLAS_TRANSPOSE op_b, int64_t m,
                    int64_t n, int64_t k, const T* a, int64_t lda, const T* b,
                    int64_t ldb, T* c, int64_t ldc) const {
    const auto i = [](int64_t v) { return static_cast<blasint>(v); };
    if constexpr (kIsComplex<T>) {
      const T minus_one = -1, one = 1;
      gemm(CblasColMajor, op_a, op_b, i(m), i(n), i(k), &minus_one, a, i(lda),
           b, i(ldb), &one, c, i(ldc));
    } else {
      gemm(CblasColMajor, op_a, op_b, i(m), i(n), i(k), T(-1), a, i(lda), b,
           i(ldb), T(1), c, i(ldc));
    }
  }
};

int ToInt(int64_t value) { return static_cast<int>(value); }

// The workspace size a LAPACK query answered in work[0] (a float, so a
// little is added against its rounding down).
template <typename T>
int64_t QueriedSize(T answer) {
  const double size = static_cast<double>(std::real(answer));
  return static_cast<int64_t>(std::ceil(size * (1 + 1e-6))) + 1;
}

// The workspace of one task: sized once per run, reused for each matrix.
template <typename T>
struct Workspace {
  std::vector<T> matrix;  // the column-major copy LAPACK works on
  std::vector<T> u;       // svd: u (rows x u columns), column-major
  std::vector<T> vt;      // svd: LAPACK's vt, then v
  std::vector<T> v;
  std::vector<T> tau;
  std::vector<T> work;
  std::vector<RealOf<T>> values;  // eigenvalues, singular values
  std::vector<RealOf<T>> rwork;
  std::vector<int> iwork;
};

struct WorkspaceSizes {
  int64_t matrix = 0;
  int64_t u = 0;
  int64_t vt = 0;
  int64_t v = 0;
  int64_t tau = 0;
  int64_t work = 0;
  int64_t values = 0;
  int64_t rwork = 0;
  int64_t iwork = 0;
};

template <typename T>
void Resize(std::vector<T>& vector, int64_t count) {
  vector.resize(static_cast<size_t>(std::max<int64_t>(count, 1)));
}

// ---- the kernel -------------------------------------------------------------

template <typename T>
class TypedLinalgKernel final : public LinalgKernel {
 public:
  using R = RealOf<T>;
  using W = WideOf<T>;

  explicit TypedLinalgKernel(const LinalgShape& shape)
      : LinalgKernel(shape), lapack_(Lapack<T>::Get()) {}

  Status Run(void* const* buffers, ThreadPool& pool) const override {
    const LinalgShape& s = shape();
    if (s.batch == 0) return OkStatus();
    WorkspaceSizes sizes;
    if (s.op == PHAL_KIR_LINALG_SVD) {
      // A zero-sized svd still writes u's (or vt's) identity columns.
      sizes.u = std::max(s.m, s.n) * UColumns();
    }
    if (CallsLapack()) {
      if (std::max({s.m, s.n, s.k}) > INT_MAX) {
        return Unimplemented(
            "cpu plugin: LINALG matrices with a dimension beyond 2^31 - 1");
      }
      PHAL_RETURN_IF_ERROR(lapack_.Require(s.op));
      sizes = Sizes();
      if (std::max({sizes.work, sizes.rwork, sizes.iwork}) > INT_MAX) {
        return ResourceExhausted(
            "cpu plugin: a LINALG kernel's LAPACK workspace exceeds 2^31 - 1 "
            "elements");
      }
    }
    std::atomic<bool> out_of_memory{false};
    const bool parallel_cholesky =
        s.op == PHAL_KIR_LINALG_CHOLESKY && s.n >= kParallelCholeskyOrder;
    const bool parallel_lu =
        s.op == PHAL_KIR_LINALG_LU && std::min(s.m, s.n) >= kParallelLuOrder;
    if ((parallel_cholesky || parallel_lu) && s.batch < pool.thread_count() &&
        lapack_.gemm != nullptr && lapack_.trsm != nullptr) {
      // A few large matrices: each factored by blocks, the panel's solves
      // and the trailing update spread over the pool.
      Workspace<T> workspace;
      try {
        Resize(workspace.matrix, sizes.matrix);
        if (parallel_lu) Resize(workspace.iwork, sizes.iwork);
      } catch (const std::exception&) {
        return ResourceExhausted(
            "cpu plugin: no memory for a LINALG kernel's workspace");
      }
      for (int64_t b = 0; b < s.batch; ++b) {
        if (parallel_lu) {
          ParallelLu(buffers, b, workspace, pool);
        } else {
          ParallelCholesky(buffers, b, workspace, pool);
        }
      }
      return OkStatus();
    }
    if (s.op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE) {
      // Whether trsm solves each matrix as the reference does, decided
      // once per matrix; then the pieces.
      std::vector<char> like_trsm(static_cast<size_t>(s.batch));
      pool.ParallelFor(s.batch, 1, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          like_trsm[static_cast<size_t>(b)] = SolvesLikeTrsm(buffers, b);
        }
      });
      const int64_t pieces = SolvePieces(pool.thread_count());
      pool.ParallelFor(s.batch * pieces, 1, [&](int64_t begin, int64_t end) {
        for (int64_t task = begin; task < end; ++task) {
          const int64_t b = task / pieces;
          TriangularSolve(buffers, b, task % pieces, pieces,
                          like_trsm[static_cast<size_t>(b)] != 0);
        }
      });
      return OkStatus();
    }
    pool.ParallelFor(s.batch, 1, [&](int64_t begin, int64_t end) {
      try {
        Workspace<T> workspace;
        Resize(workspace.matrix, sizes.matrix);
        Resize(workspace.u, sizes.u);
        Resize(workspace.vt, sizes.vt);
        Resize(workspace.v, sizes.v);
        Resize(workspace.tau, sizes.tau);
        Resize(workspace.work, sizes.work);
        Resize(workspace.values, sizes.values);
        Resize(workspace.rwork, sizes.rwork);
        Resize(workspace.iwork, sizes.iwork);
        for (int64_t b = begin; b < end; ++b) RunMatrix(buffers, b, workspace);
      } catch (const std::exception&) {
        out_of_memory = true;
      }
    });
    if (out_of_memory) {
      return ResourceExhausted(
          "cpu plugin: no memory for a LINALG kernel's workspace");
    }
    return OkStatus();
  }

 private:
  const T* Operand(void* const* buffers, int i) const {
    return static_cast<const T*>(buffers[shape().operands[i]]);
  }
  template <typename U = T>
  U* Result(void* const* buffers, int i) const {
    return static_cast<U*>(buffers[shape().results[i]]);
  }
  bool Lower() const { return (shape().flags & PHAL_KIR_LINALG_LOWER) != 0; }

  // Whether a matrix of the shape reaches LAPACK: none of its dimensions
  // is 0 (a zero-sized svd only writes identities).
  bool CallsLapack() const {
    const LinalgShape& s = shape();
    if (s.m == 0 || s.n == 0) return false;
    return s.op != PHAL_KIR_LINALG_TRIANGULAR_SOLVE || s.k != 0;
  }

  WorkspaceSizes Sizes() const {
    const LinalgShape& s = shape();
    const int64_t k = std::min(s.m, s.n);
    WorkspaceSizes sizes;
    switch (s.op) {
      case PHAL_KIR_LINALG_CHOLESKY:
      case PHAL_KIR_LINALG_EIGH:
      case PHAL_KIR_LINALG_LU:
      case PHAL_KIR_LINALG_QR:
      case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT:
        sizes.matrix = s.m * s.n;
        break;
      case PHAL_KIR_LINALG_TRIANGULAR_SOLVE:
        return sizes;
      case PHAL_KIR_LINALG_SVD:
        return SvdSizes();
    }
    if (s.op == PHAL_KIR_LINALG_LU) sizes.iwork = k;
    if (s.op == PHAL_KIR_LINALG_QR) {
      sizes.tau = k;
      sizes.work = GeqrfWork(s.m, s.n);
    }
    if (s.op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT) {
      sizes.work = OrgqrWork(s.m, s.n, s.k);
    }
    if (s.op == PHAL_KIR_LINALG_EIGH) EighSizes(&sizes);
    return sizes;
  }

  int64_t GeqrfWork(int64_t m, int64_t n) const {
    const int mi = ToInt(m), ni = ToInt(n), query = -1;
    T answer = 0;
    int info = 0;
    lapack_.geqrf(&mi, &ni, nullptr, &mi, nullptr, &answer, &query, &info);
    return QueriedSize(answer);
  }

  int64_t OrgqrWork(int64_t m, int64_t n, int64_t k) const {
    const int mi = ToInt(m), ni = ToInt(n), ki = ToInt(k), query = -1;
    T answer = 0;
    int info = 0;
    lapack_.orgqr(&mi, &ni, &ki, nullptr, &mi, nullptr, &answer, &query, &info);
    return QueriedSize(answer);
  }

  void EighSizes(WorkspaceSizes* sizes) const {
    const int n = ToInt(shape().n), query = -1;
    T work = 0;
    R rwork = 0;
    int iwork = 0, info = 0;
    if constexpr (kIsComplex<T>) {
      lapack_.eigen("V", "L", &n, nullptr, &n, nullptr, &work, &query, &rwork,
                    &query, &iwork, &query, &info, 1, 1);
    } else {
      lapack_.eigen("V", "L", &n, nullptr, &n, nullptr, &work, &query, &iwork,
                    &query, &info, 1, 1);
    }
    sizes->values = n;
    sizes->work = QueriedSize(work);
    sizes->rwork = QueriedSize(rwork);
    sizes->iwork = iwork + 1;
  }

  WorkspaceSizes SvdSizes() const {
    const LinalgShape& s = shape();
    const int64_t rows = std::max(s.m, s.n), cols = std::min(s.m, s.n);
    const int64_t u_cols = UColumns();
    WorkspaceSizes sizes;
    sizes.matrix = rows * cols;
    sizes.u = rows * u_cols;
    sizes.vt = cols * cols;
    sizes.v = cols * cols;
    sizes.tau = cols;
    sizes.values = cols;
    sizes.iwork = 8 * cols;
    // LAPACK 3.7's bound for the complex gesdd with jobz 'S'.
    sizes.rwork = std::max(5 * cols * cols + 5 * cols,
                           2 * rows * cols + 2 * cols * cols + cols);
    const int ri = ToInt(rows), ci = ToInt(cols), query = -1;
    T answer = 0;
    R rwork = 0;
    int iwork = 0, info = 0;
    if constexpr (kIsComplex<T>) {
      lapack_.gesdd("S", &ri, &ci, nullptr, &ri, nullptr, nullptr, &ri, nullptr,
                    &ci, &answer, &query, &rwork, &iwork, &info, 1);
    } else {
      lapack_.gesdd("S", &ri, &ci, nullptr, &ri, nullptr, nullptr, &ri, nullptr,
                    &ci, &answer, &query, &iwork, &info, 1);
    }
    sizes.work = std::max({QueriedSize(answer), GeqrfWork(rows, cols),
                           OrgqrWork(rows, u_cols, cols)});
    return sizes;
  }

  // svd: the columns of u of the tall problem (a, or a^H when a is wide).
  int64_t UColumns() const {
    const LinalgShape& s = shape();
    return (s.flags & PHAL_KIR_LINALG_FULL_MATRICES) != 0 ? std::max(s.m, s.n)
                                                          : std::min(s.m, s.n);
  }

  // Pieces of each solve (TriangularSolve): enough for two tasks per
  // thread over the batch, none of fewer than 8 right-hand sides or of
  // less than about 2^18 multiply-adds.
  int64_t SolvePieces(int64_t threads) const {
    const LinalgShape& s = shape();
    const int64_t wanted = (2 * threads + s.batch - 1) / s.batch;
    const int64_t by_count = s.k / 8;
    const int64_t by_work = s.m * s.m * s.k / (int64_t{1} << 18);
    return std::clamp<int64_t>(std::min({wanted, by_count, by_work}), 1,
                               std::max<int64_t>(1, s.k));
  }

  void RunMatrix(void* const* buffers, int64_t b, Workspace<T>& w) const {
    switch (shape().op) {
      case PHAL_KIR_LINALG_CHOLESKY:
        return Cholesky(buffers, b, w);
      case PHAL_KIR_LINALG_TRIANGULAR_SOLVE:
        return TriangularSolve(buffers, b, 0, 1, SolvesLikeTrsm(buffers, b));
      case PHAL_KIR_LINALG_LU:
        return Lu(buffers, b, w);
      case PHAL_KIR_LINALG_QR:
        return Qr(buffers, b, w);
      case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT:
        return HouseholderProduct(buffers, b, w);
      case PHAL_KIR_LINALG_EIGH:
        return Eigh(buffers, b, w);
      case PHAL_KIR_LINALG_SVD:
        return Svd(buffers, b, w);
    }
  }

  // The factor's triangle of the n x n `work` (row-major, as the
  // transposition-free potrf leaves it) into `l`, the other triangle zero.
  static void WriteFactor(const T* work, int64_t n, bool lower, T* l) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t first = lower ? 0 : i, last = lower ? i + 1 : n;
      std::fill(l + i * n, l + i * n + first, T(0));
      std::copy(work + i * n + first, work + i * n + last, l + i * n + first);
      std::fill(l + i * n + last, l + (i + 1) * n, T(0));
    }
  }

  // potrf; where it stops at a pivot that is not positive, or meets a NaN
  // (OpenBLAS's potrf takes a NaN pivot for a positive one), the
  // reference's own factorisation, whose columns before that pivot are
  // complete (a blocked potrf leaves some unfinished).
  //
  // No transposition: the row-major matrix read as column-major is a^T,
  // whose other triangle holds the same entries; a^T = conj(a) for a
  // Hermitian a, and conj(a) = u^H u gives a = u^T conj(u), so the factor
  // of the other triangle of a^T, read back row-major, is a's own factor.
  void Cholesky(void* const* buffers, int64_t b, Workspace<T>& w) const {
    const int64_t n = shape().n;
    if (n == 0) return;
    const T* a = Operand(buffers, 0) + b * n * n;
    T* l = Result(buffers, 0) + b * n * n;
    const bool lower = Lower();
    T* work = w.matrix.data();
    std::copy(a, a + n * n, work);
    const int ni = ToInt(n);
    int info = 0;
    lapack_.potrf(lower ? "U" : "L", &ni, work, &ni, &info, 1);
    if (info != 0 || AnyNan(work, n * n)) {
      return ReferenceCholesky(a, n, lower, l);
    }
    WriteFactor(work, n, lower, l);
  }

  // Piece `piece` of `pieces` of matrix `b`'s solve: the right-hand sides
  // (b's columns on the left side, its rows on the right) cut into that
  // many runs, each one trsm, so that one large system keeps every thread
  // of the pool busy.
  // The order from which a matrix alone is factored by ParallelCholesky,
  // and its blocks.
  static constexpr int64_t kParallelCholeskyOrder = 384;
  static constexpr int64_t kCholeskyBlock = 128;

  // Cholesky's factorisation of matrix `b`, as Cholesky computes it, by
  // blocks of kCholeskyBlock columns (of the column-major matrix
  // Cholesky's transposition-free view factors): each diagonal block by
  // potrf, the blocks beside it by trsm and the trailing matrix by gemm,
  // those two cut into blocks run on `pool`. A potrf that fails, or a NaN,
  // sends the matrix to the reference's factorisation, as in Cholesky.
  void ParallelCholesky(void* const* buffers, int64_t b, Workspace<T>& w,
                        ThreadPool& pool) const {
    const int64_t n = shape().n;
    const T* a = Operand(buffers, 0) + b * n * n;
    T* l = Result(buffers, 0) + b * n * n;
    const bool lower = Lower();
    // The column-major factor's triangle: upper for a's lower one.
    const bool upper = lower;
    T* work = w.matrix.data();
    std::copy(a, a + n * n, work);
    const auto at = [&](int64_t i, int64_t j) { return work + i + j * n; };
    constexpr int64_t kBlock = kCholeskyBlock;
    for (int64_t j = 0; j < n; j += kBlock) {
      const int64_t jb = std::min(kBlock, n - j);
      const int jbi = ToInt(jb), ni = ToInt(n);
      int info = 0;
      lapack_.potrf(upper ? "U" : "L", &jbi, at(j, j), &ni, &info, 1);
      if (info != 0) return ReferenceCholesky(a, n, lower, l);
      const int64_t rest = n - j - jb;
      if (rest == 0) break;
      const int64_t blocks = (rest + kBlock - 1) / kBlock;
      // The blocks beside the diagonal one: U's rows j..j+jb to its right
      // (U^H x = a), or L's columns below it (x L^H = a), block by block.
      pool.ParallelFor(blocks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t c0 = j + jb + t * kBlock;
          const int64_t count = std::min(kBlock, n - c0);
          if (upper) {
            lapack_.Trsm(CblasLeft, CblasUpper, CblasConjTrans, CblasNonUnit,
                         jb, count, at(j, j), n, at(j, c0), n);
          } else {
            lapack_.Trsm(CblasRight, CblasLower, CblasConjTrans, CblasNonUnit,
                         count, jb, at(j, j), n, at(c0, j), n);
          }
        }
      });
      // The trailing matrix, block column by block column: its triangle's
      // part (and the diagonal block's other half, which nothing reads)
      // minus the panel's products.
      pool.ParallelFor(blocks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t c0 = j + jb + t * kBlock;
          const int64_t count = std::min(kBlock, n - c0);
          if (upper) {
            // a[j+jb..c0+count, c0..] -= U[j.., j+jb..]^H U[j.., c0..]
            lapack_.GemmSubtract(
                CblasConjTrans, CblasNoTrans, c0 + count - (j + jb), count, jb,
                at(j, j + jb), n, at(j, c0), n, at(j + jb, c0), n);
          } else {
            // a[c0.., c0..c0+count] -= L[c0.., j..] L[c0..c0+count, j..]^H
            lapack_.GemmSubtract(CblasNoTrans, CblasConjTrans, n - c0, count,
                                 jb, at(c0, j), n, at(c0, j), n, at(c0, c0), n);
          }
        }
      });
    }
    if (AnyNan(work, n * n)) return ReferenceCholesky(a, n, lower, l);
    WriteFactor(work, n, lower, l);
  }

  // The order from which a matrix alone is factored by ParallelLu, and its
  // blocks.
  static constexpr int64_t kParallelLuOrder = 256;
  static constexpr int64_t kLuBlock = 64;

  // Lu's factorisation of matrix `b` by blocks of kLuBlock columns: each
  // panel (the block's columns from its diagonal down) by getrf, then, on
  // `pool`, block column by block column, the panel's row swaps applied to
  // the columns on either side, the rows of U to its right solved (trsm)
  // and the trailing matrix updated (gemm). A NaN in the input or the
  // factors sends the matrix to the reference's factorisation, as in Lu.
  void ParallelLu(void* const* buffers, int64_t b, Workspace<T>& w,
                  ThreadPool& pool) const {
    const int64_t m = shape().m, n = shape().n, k = std::min(m, n);
    const T* a = Operand(buffers, 0) + b * m * n;
    T* lu = Result(buffers, 0) + b * m * n;
    int32_t* pivots = Result<int32_t>(buffers, 1) + b * k;
    if (AnyNan(a, m * n)) return ReferenceLu(a, m, n, lu, pivots);
    T* work = w.matrix.data();
    int* ipiv = w.iwork.data();
    ToColumnMajor(a, m, n, work);
    const auto at = [&](int64_t i, int64_t j) { return work + i + j * m; };
    constexpr int64_t kBlock = kLuBlock;
    for (int64_t j = 0; j < k; j += kBlock) {
      const int64_t jb = std::min(kBlock, k - j);
      const int rows = ToInt(m - j), cols = ToInt(jb), ld = ToInt(m);
      int info = 0;
      lapack_.getrf(&rows, &cols, at(j, j), &ld, ipiv + j, &info);
      // The panel's pivots, 1-based within it, as rows of the matrix.
      for (int64_t p = j; p < j + jb; ++p) ipiv[p] += ToInt(j);
      const int64_t left_blocks = (j + kBlock - 1) / kBlock;
      const int64_t right_blocks = (n - j - jb + kBlock - 1) / kBlock;
      pool.ParallelFor(
          left_blocks + right_blocks, 1, [&](int64_t begin, int64_t end) {
            for (int64_t t = begin; t < end; ++t) {
              const bool left = t < left_blocks;
              const int64_t c0 =
                  left ? t * kBlock : j + jb + (t - left_blocks) * kBlock;
              const int64_t c1 = std::min(left ? j : n, c0 + kBlock);
              // Column by column (each one contiguous), the swaps in order.
              for (int64_t c = c0; c < c1; ++c) {
                T* column = at(0, c);
                for (int64_t p = j; p < j + jb; ++p) {
                  std::swap(column[p], column[ipiv[p] - 1]);
                }
              }
              if (left) continue;
              lapack_.Trsm(CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb,
                           c1 - c0, at(j, j), m, at(j, c0), m);
              if (j + jb < m) {
                lapack_.GemmSubtract(CblasNoTrans, CblasNoTrans, m - j - jb,
                                     c1 - c0, jb, at(j + jb, j), m, at(j, c0),
                                     m, at(j + jb, c0), m);
              }
            }
          });
    }
    if (AnyNan(work, m * n)) return ReferenceLu(a, m, n, lu, pivots);
    ToRowMajor(work, m, n, lu);
    for (int64_t p = 0; p < k; ++p) pivots[p] = ipiv[p] - 1;
  }

  void TriangularSolve(void* const* buffers, int64_t b, int64_t piece,
                       int64_t pieces, bool like_trsm) const {
    const LinalgShape& s = shape();
    const bool left = (s.flags & PHAL_KIR_LINALG_LEFT_SIDE) != 0;
    const int64_t rows = left ? s.m : s.k, cols = left ? s.k : s.m;
    if (rows == 0 || cols == 0) return;
    const T* a = Operand(buffers, 0) + b * s.m * s.m;
    const T* rhs = Operand(buffers, 1) + b * rows * cols;
    T* x = Result(buffers, 0) + b * rows * cols;
    if (!like_trsm) {
      if (piece == 0) ReferenceTriangularSolve(a, rhs, s.m, s.k, s, x);
      return;
    }
    const int64_t per_piece = (s.k + pieces - 1) / pieces;
    const int64_t first = std::min(s.k, piece * per_piece);
    const int64_t count = std::min(s.k - first, per_piece);
    if (count == 0) return;
    // The piece's part of b and x: columns [first, first + count) of a
    // [m, k] row-major matrix (leading dimension k), or rows of a [k, m]
    // one.
    const int64_t offset = left ? first : first * s.m;
    rhs += offset;
    x += offset;
    if (left) {
      for (int64_t i = 0; i < rows; ++i) {
        std::copy(rhs + i * cols, rhs + i * cols + count, x + i * cols);
      }
    } else {
      std::copy(rhs, rhs + count * cols, x);
    }
    const CBLAS_TRANSPOSE transpose =
        s.transpose_a == PHAL_KIR_TRANSPOSE_NONE        ? CblasNoTrans
        : s.transpose_a == PHAL_KIR_TRANSPOSE_TRANSPOSE ? CblasTrans
                                                        : CblasConjTrans;
    const CBLAS_SIDE side = left ? CblasLeft : CblasRight;
    const CBLAS_UPLO uplo = Lower() ? CblasLower : CblasUpper;
    const CBLAS_DIAG diag = (s.flags & PHAL_KIR_LINALG_UNIT_DIAGONAL) != 0
                                ? CblasUnit
                                : CblasNonUnit;
    const auto m = static_cast<blasint>(s.m);
    const auto r = static_cast<blasint>(left ? rows : count);
    const auto c = static_cast<blasint>(left ? count : cols);
    const auto leading = static_cast<blasint>(cols);
    if constexpr (kIsComplex<T>) {
      const T one = 1;
      lapack_.trsm(CblasRowMajor, side, uplo, transpose, diag, r, c, &one, a, m,
                   x, leading);
    } else {
      lapack_.trsm(CblasRowMajor, side, uplo, transpose, diag, r, c, T(1), a, m,
                   x, leading);
    }
  }

  // SolvesLikeTrsm for matrix `b` of the batch.
  bool SolvesLikeTrsm(void* const* buffers, int64_t b) const {
    const LinalgShape& s = shape();
    const int64_t count = s.m * s.k;
    return SolvesLikeTrsm(Operand(buffers, 0) + b * s.m * s.m,
                          Operand(buffers, 1) + b * count, count);
  }

  // Whether trsm's answer is the reference's: false for a zero on a
  // diagonal it divides by (its complex reciprocal gives NaN where the
  // reference divides to infinity) and for a NaN or infinity in a's
  // triangle or in b (trsm may skip the products with b's zeros).
  bool SolvesLikeTrsm(const T* a, const T* rhs, int64_t rhs_count) const {
    const int64_t m = shape().m;
    const bool lower = Lower();
    const bool unit = (shape().flags & PHAL_KIR_LINALG_UNIT_DIAGONAL) != 0;
    for (int64_t i = 0; i < m; ++i) {
      // Row i's part of the triangle, the diagonal left out when it is
      // taken to be ones.
      const int64_t begin = lower || unit ? (lower ? 0 : i + 1) : i;
      const int64_t end = lower ? (unit ? i : i + 1) : m;
      if (!AllFinite(a + i * m + begin, end - begin)) return false;
      if (!unit && a[i * m + i] == T(0)) return false;
    }
    return AllFinite(rhs, rhs_count);
  }

  // getrf; a matrix where a NaN appears, in the input or the factors, is
  // factored again the reference's way, since LAPACK's pivot search
  // treats NaN differently. So are small matrices: there the reference's
  // loop is as fast as getrf, and candidates for a pivot that are equal in
  // exact arithmetic (frequent in small integer matrices) are told apart
  // by the same roundings.
  void Lu(void* const* buffers, int64_t b, Workspace<T>& w) const {
    const int64_t m = shape().m, n = shape().n, k = std::min(m, n);
    if (k == 0) return;
    const T* a = Operand(buffers, 0) + b * m * n;
    T* lu = Result(buffers, 0) + b * m * n;
    int32_t* pivots = Result<int32_t>(buffers, 1) + b * k;
    if (m * n * k <= kReferenceLuWork) {
      return ReferenceLu(a, m, n, lu, pivots);
    }
    T* work = w.matrix.data();
    ToColumnMajor(a, m, n, work);
    const int mi = ToInt(m), ni = ToInt(n);
    int info = 0;
    lapack_.getrf(&mi, &ni, work, &mi, w.iwork.data(), &info);
    if (AnyNan(a, m * n) || AnyNan(work, m * n)) {
      return ReferenceLu(a, m, n, lu, pivots);
    }
    ToRowMajor(work, m, n, lu);
    for (int64_t j = 0; j < k; ++j)
      pivots[j] = w.iwork[static_cast<size_t>(j)] - 1;
  }

  void Qr(void* const* buffers, int64_t b, Workspace<T>& w) const {
    const int64_t m = shape().m, n = shape().n, k = std::min(m, n);
    if (k == 0) return;
    const T* a = Operand(buffers, 0) + b * m * n;
    T* qr = Result(buffers, 0) + b * m * n;
    T* taus = Result(buffers, 1) + b * k;
    T* work = w.matrix.data();
    ToColumnMajor(a, m, n, work);
    ClearNegativeZeros(work, m * n);
    const int mi = ToInt(m), ni = ToInt(n);
    const int lwork = ToInt(static_cast<int64_t>(w.work.size()));
    int info = 0;
    lapack_.geqrf(&mi, &ni, work, &mi, taus, w.work.data(), &lwork, &info);
    ToRowMajor(work, m, n, qr);
  }

  void HouseholderProduct(void* const* buffers, int64_t b,
                          Workspace<T>& w) const {
    const int64_t m = shape().m, n = shape().n, k = shape().k;
    if (n == 0) return;
    const T* a = Operand(buffers, 0) + b * m * n;
    const T* taus = Operand(buffers, 1) + b * k;
    T* q = Result(buffers, 0) + b * m * n;
    T* work = w.matrix.data();
    ToColumnMajor(a, m, n, work);
    const int mi = ToInt(m), ni = ToInt(n), ki = ToInt(k);
    const int lwork = ToInt(static_cast<int64_t>(w.work.size()));
    int info = 0;
    lapack_.orgqr(&mi, &ni, &ki, work, &mi, taus, w.work.data(), &lwork, &info);
    ToRowMajor(work, m, n, q);
  }

  // syevd/heevd, each eigenvector scaled so that its entry of largest
  // magnitude is real positive. A matrix the reference's Jacobi sweeps
  // leave as it is (off-diagonal part within rounding of zero, or a NaN or
  // infinity anywhere, which stops them) gets the reference's answer: its
  // diagonal in stable ascending order, the unit vectors.
  void Eigh(void* const* buffers, int64_t b, Workspace<T>& w) const {
    const int64_t n = shape().n;
    if (n == 0) return;
    const T* a = Operand(buffers, 0) + b * n * n;
    T* vectors = Result(buffers, 0) + b * n * n;
    R* values = Result<R>(buffers, 1) + b * n;
    const bool lower = Lower();
    if (!JacobiRotatesEigh(a, n, lower)) {
      std::vector<double> diagonal(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        diagonal[static_cast<size_t>(i)] = std::real(a[i * n + i]);
      }
      const std::vector<int64_t> order = StableOrder(diagonal, false);
      for (int64_t j = 0; j < n; ++j) {
        const int64_t from = order[static_cast<size_t>(j)];
        values[j] = static_cast<R>(diagonal[static_cast<size_t>(from)]);
        for (int64_t i = 0; i < n; ++i) {
          vectors[i * n + j] = i == from ? T(1) : T(0);
        }
      }
      return;
    }
    T* z = w.matrix.data();
    ToColumnMajor(a, n, n, z);
    const int ni = ToInt(n);
    const int lwork = ToInt(static_cast<int64_t>(w.work.size()));
    const int lrwork = ToInt(static_cast<int64_t>(w.rwork.size()));
    const int liwork = ToInt(static_cast<int64_t>(w.iwork.size()));
    const char* uplo = lower ? "L" : "U";
    int info = 0;
    if constexpr (kIsComplex<T>) {
      lapack_.eigen("V", uplo, &ni, z, &ni, values, w.work.data(), &lwork,
                    w.rwork.data(), &lrwork, w.iwork.data(), &liwork, &info, 1,
                    1);
    } else {
      lapack_.eigen("V", uplo, &ni, z, &ni, values, w.work.data(), &lwork,
                    w.iwork.data(), &liwork, &info, 1, 1);
    }
    if (info != 0) {
      std::fill(vectors, vectors + n * n, T(NaN()));
      std::fill(values, values + n, NaN());
      return;
    }
    for (int64_t j = 0; j < n; ++j) {
      T* column = z + j * n;
      const W phase = PhaseToPositive(W(column[LargestEntry(column, n)]));
      for (int64_t i = 0; i < n; ++i) {
        vectors[i * n + j] = static_cast<T>(phase * W(column[i]));
      }
    }
  }

  // The reference's first Jacobi sweep rotates when the off-diagonal part
  // of the matrix read from one triangle exceeds 1e-32 of the whole (sums
  // of squares in double); false when it stops before it.
  static bool JacobiRotatesEigh(const T* a, int64_t n, bool lower) {
    double off = 0, total = 0;
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t q = 0; q < n; ++q) {
        const bool read = lower ? p >= q : p <= q;
        const W entry = W(read ? a[p * n + q] : a[q * n + p]);
        const double square =
            p == q ? std::real(entry) * std::real(entry) : std::norm(entry);
        total += square;
        if (p != q) off += square;
      }
    }
    return off > 1e-32 * total;
  }

  static R NaN() { return std::numeric_limits<R>::quiet_NaN(); }

  // svd of the tall problem t (a, or a^H when a is wide): gesdd, or the
  // reference's Jacobi where its sweeps leave t as it is or t is not
  // finite; then the reference's scaling of the right vectors (the left
  // ones alike) and its completion of u.
  void Svd(void* const* buffers, int64_t b, Workspace<T>& w) const {
    const LinalgShape& s = shape();
    const int64_t m = s.m, n = s.n;
    const bool tall = m >= n;
    const int64_t rows = std::max(m, n), cols = std::min(m, n);
    const int64_t u_cols = UColumns();
    const T* a = Operand(buffers, 0) + b * m * n;
    T* u_out = Result(buffers, 0) + b * m * (tall ? u_cols : m);
    R* s_out = Result<R>(buffers, 1) + b * cols;
    T* vt_out = Result(buffers, 2) + b * (tall ? n : u_cols) * n;
    T* t = w.matrix.data();
    T* u = w.u.data();
    T* v = w.v.data();
    R* sigma = w.values.data();
    const auto load = [&] {
      if (tall) {
        ToColumnMajor(a, m, n, t);
      } else {
        for (int64_t i = 0; i < m * n; ++i) t[i] = Conj(a[i]);
      }
    };
    if (cols > 0) {
      load();
      if (!AllFinite(t, rows * cols) || !JacobiRotatesAPair(t, rows, cols) ||
          !Gesdd(rows, cols, w)) {
        load();
        ReferenceTallSvd(t, rows, cols, u, sigma, v);
      }
      ScaleSingularVectors(rows, cols, u, v);
    }
    CompleteU(rows, cols, u_cols, sigma, w);
    std::copy(sigma, sigma + cols, s_out);
    if (tall) {
      ToRowMajor(u, m, u_cols, u_out);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) vt_out[i * n + j] = Conj(v[j + i * n]);
      }
    } else {
      ToRowMajor(v, m, m, u_out);
      for (int64_t i = 0; i < u_cols; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          vt_out[i * n + j] = Conj(u[j + i * rows]);
        }
      }
    }
  }

  // gesdd of the tall w.matrix into w.values, w.u (the first cols
  // columns) and w.v (v itself, not v^H); false when it fails.
  bool Gesdd(int64_t rows, int64_t cols, Workspace<T>& w) const {
    const int ri = ToInt(rows), ci = ToInt(cols);
    const int lwork = ToInt(static_cast<int64_t>(w.work.size()));
    int info = 0;
    if constexpr (kIsComplex<T>) {
      lapack_.gesdd("S", &ri, &ci, w.matrix.data(), &ri, w.values.data(),
                    w.u.data(), &ri, w.vt.data(), &ci, w.work.data(), &lwork,
                    w.rwork.data(), w.iwork.data(), &info, 1);
    } else {
      lapack_.gesdd("S", &ri, &ci, w.matrix.data(), &ri, w.values.data(),
                    w.u.data(), &ri, w.vt.data(), &ci, w.work.data(), &lwork,
                    w.iwork.data(), &info, 1);
    }
    if (info != 0) return false;
    // Where the reference's Jacobi leaves an exact zero (a zero column),
    // gesdd leaves about eps * s_0: such values are zero, so that u's
    // column is the reference's completion.
    R* sigma = w.values.data();
    const R negligible =
        sigma[0] * std::numeric_limits<R>::epsilon() * static_cast<R>(8 * rows);
    for (int64_t j = 0; j < cols; ++j) {
      if (sigma[j] <= negligible) sigma[j] = 0;
    }
    for (int64_t i = 0; i < cols; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        w.v[static_cast<size_t>(i + j * cols)] =
            Conj(w.vt[static_cast<size_t>(j + i * cols)]);
      }
    }
    return true;
  }

  // Scales each column of v so that its entry of largest magnitude is
  // real positive, and the matching column of u by the same factor.
  static void ScaleSingularVectors(int64_t rows, int64_t cols, T* u, T* v) {
    for (int64_t j = 0; j < cols; ++j) {
      T* column = v + j * cols;
      const W phase = PhaseToPositive(W(column[LargestEntry(column, cols)]));
      for (int64_t i = 0; i < cols; ++i) {
        column[i] = static_cast<T>(phase * W(column[i]));
      }
      for (int64_t i = 0; i < rows; ++i) {
        u[i + j * rows] = static_cast<T>(phase * W(u[i + j * rows]));
      }
    }
  }

  // The reference's u: the columns of positive singular values, the
  // others zero, padded to u_cols columns; its Householder QR; u the
  // QR's q, each column of a positive singular value negated where r's
  // diagonal is negative. The columns past the last positive singular
  // value are zero, so their reflectors are the identity: geqrf stops
  // there. When every column of u has a positive singular value, q is u
  // itself up to rounding, and u is kept.
  void CompleteU(int64_t rows, int64_t cols, int64_t u_cols, const R* sigma,
                 Workspace<T>& w) const {
    T* u = w.u.data();
    int64_t factored = 0;  // the columns up to the last positive value
    for (int64_t j = 0; j < cols; ++j) {
      if (sigma[j] > 0) factored = j + 1;
    }
    const bool all_positive =
        std::all_of(sigma, sigma + cols, [](R x) { return x > 0; });
    if (all_positive && u_cols == cols) return;
    for (int64_t j = 0; j < u_cols; ++j) {
      if (j >= cols || !(sigma[j] > 0)) {
        std::fill(u + j * rows, u + (j + 1) * rows, T(0));
      }
    }
    if (factored == 0) {
      for (int64_t j = 0; j < u_cols; ++j) u[j + j * rows] = 1;
      return;
    }
    ClearNegativeZeros(u, rows * factored);
    const int ri = ToInt(rows), fi = ToInt(factored), ui = ToInt(u_cols);
    const int lwork = ToInt(static_cast<int64_t>(w.work.size()));
    int info = 0;
    lapack_.geqrf(&ri, &fi, u, &ri, w.tau.data(), w.work.data(), &lwork, &info);
    std::vector<int64_t> negated;
    for (int64_t j = 0; j < factored; ++j) {
      if (sigma[j] > 0 && std::real(u[j + j * rows]) < 0) negated.push_back(j);
    }
    lapack_.orgqr(&ri, &ui, &fi, u, &ri, w.tau.data(), w.work.data(), &lwork,
                  &info);
    for (int64_t j : negated) {
      for (int64_t i = 0; i < rows; ++i) u[i + j * rows] = -u[i + j * rows];
    }
  }

  const Lapack<T>& lapack_;
};

bool MultipliesWithin(int64_t a, int64_t b, int64_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}

// The operand and result counts of each op.
uint32_t OperandCount(phal_kir_linalg_op_t op) {
  return op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                 op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT
             ? 2
             : 1;
}

uint32_t ResultCount(phal_kir_linalg_op_t op) {
  switch (op) {
    case PHAL_KIR_LINALG_LU:
    case PHAL_KIR_LINALG_QR:
    case PHAL_KIR_LINALG_EIGH:
      return 2;
    case PHAL_KIR_LINALG_SVD:
      return 3;
    default:
      return 1;
  }
}

}  // namespace

LinalgShape LinalgShapeOf(const phal_kernel_desc_t& kernel) {
  const phal_kir_linalg_t& linalg = *kernel.u.linalg;
  const phal_kir_buffer_t& a = kernel.buffers[linalg.operands[0]];
  LinalgShape shape;
  shape.op = linalg.op;
  shape.flags = linalg.flags;
  shape.transpose_a = linalg.transpose_a;
  shape.type = a.element_type;
  shape.operand_count = linalg.operand_count;
  for (uint32_t i = 0; i < linalg.operand_count && i < 2; ++i) {
    shape.operands[i] = linalg.operands[i];
  }
  shape.result_count = linalg.result_count;
  for (uint32_t i = 0; i < linalg.result_count && i < 3; ++i) {
    shape.results[i] = linalg.results[i];
  }
  shape.batch = 1;
  for (uint32_t d = 0; d + 2 < a.rank; ++d) shape.batch *= a.dims[d];
  shape.m = a.dims[a.rank - 2];
  shape.n = a.dims[a.rank - 1];
  if (linalg.op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE) {
    const phal_kir_buffer_t& b = kernel.buffers[linalg.operands[1]];
    const bool left = (linalg.flags & PHAL_KIR_LINALG_LEFT_SIDE) != 0;
    shape.k = b.dims[b.rank - (left ? 1 : 2)];
  } else if (linalg.op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT) {
    const phal_kir_buffer_t& taus = kernel.buffers[linalg.operands[1]];
    shape.k = taus.dims[taus.rank - 1];
  }
  return shape;
}

Status CheckLinalgShape(const LinalgShape& shape, uint32_t buffer_count) {
  const auto fail = [](const std::string& what) {
    return InvalidArgument("cpu plugin: the LINALG kernel's " + what);
  };
  if (static_cast<uint32_t>(shape.op) > PHAL_KIR_LINALG_SVD) {
    return fail("op is not one of ABI 1.14");
  }
  constexpr uint32_t kKnownFlags =
      PHAL_KIR_LINALG_LOWER | PHAL_KIR_LINALG_LEFT_SIDE |
      PHAL_KIR_LINALG_UNIT_DIAGONAL | PHAL_KIR_LINALG_FULL_MATRICES;
  if ((shape.flags & ~kKnownFlags) != 0) return fail("flags has unknown bits");
  if (static_cast<uint32_t>(shape.transpose_a) > PHAL_KIR_TRANSPOSE_ADJOINT) {
    return fail("transpose_a is not one of ABI 1.14");
  }
  if (shape.type != PHAL_ELEMENT_TYPE_F32 &&
      shape.type != PHAL_ELEMENT_TYPE_F64 &&
      shape.type != PHAL_ELEMENT_TYPE_C64 &&
      shape.type != PHAL_ELEMENT_TYPE_C128) {
    return fail("type is not f32, f64, c64 or c128");
  }
  if (shape.operand_count != OperandCount(shape.op)) {
    return fail("operand_count is not its op's");
  }
  if (shape.result_count != ResultCount(shape.op)) {
    return fail("result_count is not its op's");
  }
  for (uint32_t i = 0; i < 2; ++i) {
    const bool used = i < shape.operand_count;
    if (used ? shape.operands[i] >= buffer_count : shape.operands[i] != 0) {
      return fail("operands are not its buffers (unused entries 0)");
    }
  }
  for (uint32_t i = 0; i < 3; ++i) {
    const bool used = i < shape.result_count;
    if (used ? shape.results[i] >= buffer_count : shape.results[i] != 0) {
      return fail("results are not its buffers (unused entries 0)");
    }
    for (uint32_t j = 0; used && j < i; ++j) {
      if (shape.results[j] == shape.results[i]) {
        return fail("results are not distinct buffers");
      }
    }
    for (uint32_t j = 0; used && j < shape.operand_count; ++j) {
      if (shape.operands[j] == shape.results[i]) {
        return fail("results overlap its operands");
      }
    }
  }
  if (shape.batch < 0 || shape.m < 0 || shape.n < 0 || shape.k < 0) {
    return fail("sizes are negative");
  }
  switch (shape.op) {
    case PHAL_KIR_LINALG_CHOLESKY:
    case PHAL_KIR_LINALG_TRIANGULAR_SOLVE:
    case PHAL_KIR_LINALG_EIGH:
      if (shape.m != shape.n) return fail("matrix a is not square");
      break;
    case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT:
      if (shape.n > shape.m || shape.k > shape.n) {
        return fail("sizes are not m >= n >= k");
      }
      break;
    default:
      break;
  }
  const bool uses_k = shape.op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                      shape.op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT;
  if (!uses_k && shape.k != 0) return fail("k is not 0 for its op");
  // Every buffer has at most batch * max(m, n, k)^2 elements.
  const int64_t largest = std::max({shape.m, shape.n, shape.k});
  int64_t elements = 0;
  if (!MultipliesWithin(shape.batch, largest, &elements) ||
      !MultipliesWithin(elements, largest, &elements)) {
    return fail("sizes are too large");
  }
  return OkStatus();
}

int64_t LinalgKernel::work() const {
  const auto m = static_cast<double>(shape_.m);
  const auto n = static_cast<double>(shape_.n);
  const auto k = static_cast<double>(shape_.k);
  const double small = std::min(m, n);
  const double large = std::max(m, n);
  double per_matrix = 0;
  switch (shape_.op) {
    case PHAL_KIR_LINALG_CHOLESKY:
      per_matrix = n * n * n / 3;
      break;
    case PHAL_KIR_LINALG_TRIANGULAR_SOLVE:
      per_matrix = m * m * k;
      break;
    case PHAL_KIR_LINALG_LU:
      per_matrix = m * n * small - (m + n) * small * small / 2 +
                   small * small * small / 3;
      break;
    case PHAL_KIR_LINALG_QR:
      per_matrix = 2 * (m * n * small - (m + n) * small * small / 2 +
                        small * small * small / 3);
      break;
    case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT:
      per_matrix = 2 * (m * n * k - (m + n) * k * k / 2 + k * k * k / 3);
      break;
    case PHAL_KIR_LINALG_EIGH:
      per_matrix = 5 * n * n * n;
      break;
    case PHAL_KIR_LINALG_SVD:
      per_matrix = 6 * large * small * small + 8 * small * small * small;
      break;
  }
  const bool complex = shape_.type == PHAL_ELEMENT_TYPE_C64 ||
                       shape_.type == PHAL_ELEMENT_TYPE_C128;
  const double total = static_cast<double>(shape_.batch) *
                       std::max(per_matrix, 1.0) * (complex ? 4 : 1);
  constexpr auto kMax = static_cast<double>(INT64_MAX / 2);
  return static_cast<int64_t>(std::min(total, kMax));
}

std::unique_ptr<const LinalgKernel> LinalgKernel::Create(
    const LinalgShape& shape) {
  switch (shape.type) {
    case PHAL_ELEMENT_TYPE_F64:
      return std::make_unique<const TypedLinalgKernel<double>>(shape);
    case PHAL_ELEMENT_TYPE_C64:
      return std::make_unique<const TypedLinalgKernel<std::complex<float>>>(
          shape);
    case PHAL_ELEMENT_TYPE_C128:
      return std::make_unique<const TypedLinalgKernel<std::complex<double>>>(
          shape);
    default:
      return std::make_unique<const TypedLinalgKernel<float>>(shape);
  }
}

}  // namespace phal::cpu
