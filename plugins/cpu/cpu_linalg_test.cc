// The plugin's LINALG kernels (ABI 1.14), run directly on batches of
// matrices of every element type: each op's defining property checked in
// long double (l l^H = a, op(a) x = b, p l u = a, q r = a, a v = v w,
// u s vt = a), the reference interpreter's conventions (zero triangles,
// NaN columns and pivots, ascending and descending orders, the sign of
// vectors), zero-sized shapes, and malformed shapes refused. The
// differential tests against the reference interpreter itself, through the
// core's compiler, are the conformance suite's.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>

#include "plugins/cpu/cpu_gemm.h"
#include "plugins/cpu/cpu_linalg.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::cpu {

// The test binary holds the LINALG kernels without the rest of the plugin
// (cpu_gemm.cc and the JIT): it opens OpenBLAS itself, single-threaded, as
// the plugin does.
void* OpenBlasSymbol(const char* name) {
  static void* const library = [] {
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    return dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  }();
  return library == nullptr ? nullptr : dlsym(library, name);
}

namespace {

using ::phal::plugin_testing::HasCode;
using ::phal::plugin_testing::IsOk;

// ---- scalars and matrices ---------------------------------------------------

template <typename T>
constexpr bool kIsComplex = !std::is_floating_point_v<T>;
// The real type of T's precision (a complex type's value_type).
template <typename T>
using RealOf = decltype(std::real(T()));
// The type the checks compute in.
template <typename T>
using Exact =
    std::conditional_t<kIsComplex<T>, std::complex<long double>, long double>;

template <typename T>
constexpr phal_element_type_t kType =
    std::is_same_v<T, float>                 ? PHAL_ELEMENT_TYPE_F32
    : std::is_same_v<T, double>              ? PHAL_ELEMENT_TYPE_F64
    : std::is_same_v<T, std::complex<float>> ? PHAL_ELEMENT_TYPE_C64
                                             : PHAL_ELEMENT_TYPE_C128;

template <typename T>
T Conj(T x) {
  if constexpr (kIsComplex<T>) {
    return std::conj(x);
  } else {
    return x;
  }
}

// A row-major matrix in the exact type.
template <typename E>
struct Matrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<E> values;
  E& at(int64_t i, int64_t j) { return values[size_t(i * cols + j)]; }
  E at(int64_t i, int64_t j) const { return values[size_t(i * cols + j)]; }
};

template <typename T>
Matrix<Exact<T>> Load(const std::vector<T>& buffer, int64_t b, int64_t rows,
                      int64_t cols) {
  Matrix<Exact<T>> m{rows, cols, {}};
  for (int64_t i = 0; i < rows * cols; ++i) {
    m.values.push_back(Exact<T>(buffer[size_t(b * rows * cols + i)]));
  }
  return m;
}

template <typename E>
Matrix<E> Multiply(const Matrix<E>& a, const Matrix<E>& b) {
  Matrix<E> c{a.rows, b.cols, std::vector<E>(size_t(a.rows * b.cols))};
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < b.cols; ++j) {
      for (int64_t k = 0; k < a.cols; ++k)
        c.at(i, j) += a.at(i, k) * b.at(k, j);
    }
  }
  return c;
}

template <typename E>
Matrix<E> Adjoint(const Matrix<E>& a) {
  Matrix<E> t{a.cols, a.rows, std::vector<E>(a.values.size())};
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) t.at(j, i) = Conj(a.at(i, j));
  }
  return t;
}

template <typename E>
Matrix<E> Identity(int64_t n) {
  Matrix<E> m{n, n, std::vector<E>(size_t(n * n))};
  for (int64_t i = 0; i < n; ++i) m.at(i, i) = 1;
  return m;
}

// The largest |x - y| over the entries.
template <typename E>
long double Distance(const Matrix<E>& x, const Matrix<E>& y) {
  EXPECT_EQ(x.rows, y.rows);
  EXPECT_EQ(x.cols, y.cols);
  long double largest = 0;
  for (size_t i = 0; i < x.values.size(); ++i) {
    largest = std::max(largest, std::abs(x.values[i] - y.values[i]));
  }
  return largest;
}

// Rounding allowance for sums of n products of entries about 1.
template <typename T>
long double Tolerance(int64_t n) {
  return 64 * static_cast<long double>(std::max<int64_t>(n, 1)) *
         std::numeric_limits<RealOf<T>>::epsilon();
}

template <typename T>
T Random(std::mt19937& rng) {
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (kIsComplex<T>) {
    return T(RealOf<T>(d(rng)), RealOf<T>(d(rng)));
  } else {
    return T(d(rng));
  }
}

template <typename T>
std::vector<T> RandomVector(std::mt19937& rng, int64_t count) {
  std::vector<T> v(static_cast<size_t>(count));
  for (T& x : v) x = Random<T>(rng);
  return v;
}

// ---- running kernels --------------------------------------------------------

// A shape with the operands in buffers 0.. and the results after them.
LinalgShape MakeShape(phal_kir_linalg_op_t op, phal_element_type_t type,
                      uint32_t flags, int64_t batch, int64_t m, int64_t n,
                      int64_t k = 0) {
  LinalgShape s;
  s.op = op;
  s.flags = flags;
  s.type = type;
  s.operand_count = op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                            op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT
                        ? 2
                        : 1;
  s.result_count = op == PHAL_KIR_LINALG_SVD ? 3
                   : op == PHAL_KIR_LINALG_LU || op == PHAL_KIR_LINALG_QR ||
                           op == PHAL_KIR_LINALG_EIGH
                       ? 2
                       : 1;
  for (uint32_t i = 0; i < s.operand_count; ++i) s.operands[i] = i;
  for (uint32_t i = 0; i < s.result_count; ++i) {
    s.results[i] = s.operand_count + i;
  }
  s.batch = batch;
  s.m = m;
  s.n = n;
  s.k = k;
  return s;
}

Status RunKernel(const LinalgShape& shape, std::vector<void*> buffers) {
  static ThreadPool pool(3);
  EXPECT_TRUE(
      IsOk(CheckLinalgShape(shape, static_cast<uint32_t>(buffers.size()))));
  return LinalgKernel::Create(shape)->Run(buffers.data(), pool);
}

template <typename T>
class LinalgKernelTest : public ::testing::Test {
 protected:
  using R = RealOf<T>;
  using E = Exact<T>;
  static constexpr int64_t kBatch = 3;
  std::mt19937 rng_{7};

  // A random Hermitian positive definite matrix per batch entry, with
  // 99 in the triangle that is not read.
  std::vector<T> PositiveDefinite(int64_t n, bool lower) {
    std::vector<T> a(size_t(kBatch * n * n));
    for (int64_t b = 0; b < kBatch; ++b) {
      const std::vector<T> g = RandomVector<T>(rng_, n * n);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          T sum = i == j ? T(R(n)) : T(0);
          for (int64_t k = 0; k < n; ++k) {
            sum += g[size_t(i * n + k)] * Conj(g[size_t(j * n + k)]) / T(R(n));
          }
          const bool read = lower ? j <= i : j >= i;
          a[size_t(b * n * n + i * n + j)] = read ? sum : T(99);
        }
      }
    }
    return a;
  }

  // The Hermitian matrix a reads from one triangle.
  static Matrix<E> Hermitian(const Matrix<E>& a, bool lower) {
    Matrix<E> h = a;
    for (int64_t i = 0; i < a.rows; ++i) {
      for (int64_t j = 0; j < a.cols; ++j) {
        const bool read = lower ? j <= i : j >= i;
        if (!read) h.at(i, j) = Conj(a.at(j, i));
      }
      h.at(i, i) = std::real(a.at(i, i));
    }
    return h;
  }
};

using Types =
    ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(LinalgKernelTest, Types);

// ---- cholesky ---------------------------------------------------------------

TYPED_TEST(LinalgKernelTest, CholeskyFactorsOneTriangleAndZeroesTheOther) {
  using T = TypeParam;
  using E = Exact<T>;
  for (const bool lower : {true, false}) {
    for (const int64_t n : {1, 5, 33}) {
      const std::vector<T> a = this->PositiveDefinite(n, lower);
      std::vector<T> l(a.size(), T(7));
      const LinalgShape shape =
          MakeShape(PHAL_KIR_LINALG_CHOLESKY, kType<T>,
                    lower ? PHAL_KIR_LINALG_LOWER : 0, this->kBatch, n, n);
      ASSERT_TRUE(IsOk(RunKernel(shape, {(void*)a.data(), l.data()})));
      for (int64_t b = 0; b < this->kBatch; ++b) {
        const Matrix<E> f = Load(l, b, n, n);
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = lower ? i + 1 : 0; j < (lower ? n : i); ++j) {
            EXPECT_EQ(f.at(i, j), E(0)) << "entry " << i << "," << j;
          }
        }
        const Matrix<E> product =
            lower ? Multiply(f, Adjoint(f)) : Multiply(Adjoint(f), f);
        EXPECT_LE(Distance(product, this->Hermitian(Load(a, b, n, n), lower)),
                  Tolerance<T>(n) * n)
            << "n " << n << " lower " << lower;
      }
    }
  }
}

TYPED_TEST(LinalgKernelTest, CholeskyColumnsFromTheFailingPivotOnAreNaN) {
  using T = TypeParam;
  using E = Exact<T>;
  // Order 40, positive definite but for a_20,20: potrf's blocks stop
  // mid-way, and the factor's first 20 columns must still be complete.
  constexpr int64_t n = 40, failing = 20;
  std::vector<T> a = this->PositiveDefinite(n, true);
  for (int64_t b = 0; b < this->kBatch; ++b) {
    a[size_t(b * n * n + failing * n + failing)] = T(-100);
  }
  std::vector<T> l(a.size());
  ASSERT_TRUE(
      IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_CHOLESKY, kType<T>,
                               PHAL_KIR_LINALG_LOWER, this->kBatch, n, n),
                     {a.data(), l.data()})));
  for (int64_t b = 0; b < this->kBatch; ++b) {
    const Matrix<E> f = Load(l, b, n, n);
    const Matrix<E> h = this->Hermitian(Load(a, b, n, n), true);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(f.at(i, j), E(0));
        } else if (j >= failing) {
          EXPECT_TRUE(std::isnan(std::real(f.at(i, j)))) << i << "," << j;
        } else {
          // (l l^H)_ij over the complete columns 0..j.
          E product = 0;
          for (int64_t c = 0; c <= j; ++c) {
            product += f.at(i, c) * Conj(f.at(j, c));
          }
          EXPECT_NEAR(double(std::abs(product - h.at(i, j))), 0,
                      double(Tolerance<T>(n) * n))
              << i << "," << j;
        }
      }
    }
  }
}

// ---- triangular-solve -------------------------------------------------------

TYPED_TEST(LinalgKernelTest,
           TriangularSolveMeetsEverySideTransposeAndDiagonal) {
  using T = TypeParam;
  using E = Exact<T>;
  using R = RealOf<T>;
  constexpr int64_t k = 4;
  for (const int64_t m : {1, 5, 33}) {
    for (uint32_t flags = 0; flags < 8; ++flags) {
      for (const phal_kir_transpose_t transpose :
           {PHAL_KIR_TRANSPOSE_NONE, PHAL_KIR_TRANSPOSE_TRANSPOSE,
            PHAL_KIR_TRANSPOSE_ADJOINT}) {
        const bool lower = (flags & PHAL_KIR_LINALG_LOWER) != 0;
        const bool left = (flags & PHAL_KIR_LINALG_LEFT_SIDE) != 0;
        const bool unit = (flags & PHAL_KIR_LINALG_UNIT_DIAGONAL) != 0;
        // Diagonal-dominant triangle; 99 elsewhere, and on the diagonal
        // when it is not read.
        std::vector<T> a = RandomVector<T>(this->rng_, this->kBatch * m * m);
        for (int64_t b = 0; b < this->kBatch; ++b) {
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < m; ++j) {
              T& x = a[size_t(b * m * m + i * m + j)];
              if (i == j) {
                x = unit ? T(99) : T(R(2)) + x;
              } else if (lower ? j < i : j > i) {
                x /= T(R(m));
              } else {
                x = T(99);
              }
            }
          }
        }
        const int64_t rows = left ? m : k, cols = left ? k : m;
        const std::vector<T> rhs =
            RandomVector<T>(this->rng_, this->kBatch * rows * cols);
        std::vector<T> x(rhs.size());
        LinalgShape shape = MakeShape(PHAL_KIR_LINALG_TRIANGULAR_SOLVE,
                                      kType<T>, flags, this->kBatch, m, m, k);
        shape.transpose_a = transpose;
        ASSERT_TRUE(
            IsOk(RunKernel(shape, {a.data(), (void*)rhs.data(), x.data()})));
        for (int64_t b = 0; b < this->kBatch; ++b) {
          Matrix<E> t = Load(a, b, m, m);
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < m; ++j) {
              if (i == j && unit) t.at(i, j) = 1;
              if (i != j && !(lower ? j < i : j > i)) t.at(i, j) = 0;
            }
          }
          if (transpose != PHAL_KIR_TRANSPOSE_NONE) {
            t = Adjoint(t);
            if (transpose == PHAL_KIR_TRANSPOSE_TRANSPOSE) {
              for (E& e : t.values) e = Conj(e);
            }
          }
          const Matrix<E> solution = Load(x, b, rows, cols);
          const Matrix<E> product =
              left ? Multiply(t, solution) : Multiply(solution, t);
          EXPECT_LE(Distance(product, Load(rhs, b, rows, cols)),
                    Tolerance<T>(m))
              << "m " << m << " flags " << flags << " transpose " << transpose;
        }
      }
    }
  }
}

// ---- lu ---------------------------------------------------------------------

// Runs lu on `a` (batch x m x n) and checks p l u = a for every matrix.
template <typename T>
void ExpectLuFactors(const std::vector<T>& a, int64_t batch, int64_t m,
                     int64_t n, std::vector<T>* lu,
                     std::vector<int32_t>* pivots) {
  using E = Exact<T>;
  const int64_t k = std::min(m, n);
  lu->assign(a.size(), T(7));
  pivots->assign(size_t(batch * k), -1);
  ASSERT_TRUE(
      IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_LU, kType<T>, 0, batch, m, n),
                     {(void*)a.data(), lu->data(), pivots->data()})));
  for (int64_t b = 0; b < batch; ++b) {
    const Matrix<E> f = Load(*lu, b, m, n);
    Matrix<E> l{m, k, std::vector<E>(size_t(m * k))};
    Matrix<E> u{k, n, std::vector<E>(size_t(k * n))};
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (j < i && j < k) l.at(i, j) = f.at(i, j);
        if (j >= i && i < k) u.at(i, j) = f.at(i, j);
      }
      if (i < k) l.at(i, i) = 1;
    }
    Matrix<E> permuted = Load(a, b, m, n);
    for (int64_t j = 0; j < k; ++j) {
      const int32_t p = (*pivots)[size_t(b * k + j)];
      ASSERT_GE(p, j);
      ASSERT_LT(p, m);
      for (int64_t c = 0; c < n; ++c) {
        std::swap(permuted.at(j, c), permuted.at(p, c));
      }
    }
    EXPECT_LE(Distance(Multiply(l, u), permuted), Tolerance<T>(k) * 4)
        << m << "x" << n;
  }
}

TYPED_TEST(LinalgKernelTest, LuFactorsWithPartialPivoting) {
  using T = TypeParam;
  std::vector<T> lu;
  std::vector<int32_t> pivots;
  for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {5, 5}, {33, 33}, {7, 4}, {4, 7}}) {
    const std::vector<T> a = RandomVector<T>(this->rng_, this->kBatch * m * n);
    ExpectLuFactors(a, this->kBatch, m, n, &lu, &pivots);
  }
  // The first row of the largest |re| + |im| is the pivot.
  const std::vector<T> tie = {T(1), T(2), T(-2), T(1), T(2), T(0)};
  ExpectLuFactors(tie, 1, 3, 2, &lu, &pivots);
  EXPECT_EQ(pivots[0], 1);
}

TYPED_TEST(LinalgKernelTest, LuPivotsOnTheDiagonalOfAColumnHoldingNaN) {
  using T = TypeParam;
  const T nan = T(std::numeric_limits<RealOf<T>>::quiet_NaN());
  // Column 0 holds a NaN below a smaller diagonal entry than row 2's.
  const std::vector<T> a = {T(1), T(2), T(3), nan, T(4),
                            T(5), T(8), T(1), T(6)};
  std::vector<T> lu(a.size());
  std::vector<int32_t> pivots(3, -1);
  ASSERT_TRUE(
      IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_LU, kType<T>, 0, 1, 3, 3),
                     {(void*)a.data(), lu.data(), pivots.data()})));
  EXPECT_EQ(pivots, (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(lu[0], T(1));
  EXPECT_EQ(lu[1], T(2));
  EXPECT_EQ(lu[6], T(8));  // row 2 divided by the pivot 1
  EXPECT_TRUE(std::isnan(std::real(lu[3])));
}

TYPED_TEST(LinalgKernelTest, LuOfASingularMatrixKeepsTheZeroPivot) {
  using T = TypeParam;
  // Column 0 is zero: no division, no NaN; then rows swapped for column 1.
  const std::vector<T> a = {T(0), T(1), T(0), T(0), T(2),
                            T(3), T(0), T(4), T(5)};
  std::vector<T> lu;
  std::vector<int32_t> pivots;
  ExpectLuFactors(a, 1, 3, 3, &lu, &pivots);
  EXPECT_EQ(pivots, (std::vector<int32_t>{0, 2, 2}));
  for (const T& x : lu) EXPECT_FALSE(std::isnan(std::real(x)));
  EXPECT_EQ(lu[0], T(0));
  EXPECT_EQ(lu[3], T(0));
}

// ---- qr and householder-product ---------------------------------------------

TYPED_TEST(LinalgKernelTest, QrAndHouseholderProductRebuildTheMatrix) {
  using T = TypeParam;
  using E = Exact<T>;
  for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {5, 5}, {33, 33}, {9, 4}, {4, 9}}) {
    const int64_t k = std::min(m, n), batch = this->kBatch;
    const std::vector<T> a = RandomVector<T>(this->rng_, batch * m * n);
    std::vector<T> qr(a.size()), taus(size_t(batch * k));
    ASSERT_TRUE(
        IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_QR, kType<T>, 0, batch, m, n),
                       {(void*)a.data(), qr.data(), taus.data()})));
    // q from the reflectors in the first k columns.
    std::vector<T> reflectors(size_t(batch * m * k)), q(reflectors.size());
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < k; ++j) {
          reflectors[size_t((b * m + i) * k + j)] =
              qr[size_t((b * m + i) * n + j)];
        }
      }
    }
    ASSERT_TRUE(IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT,
                                         kType<T>, 0, batch, m, k, k),
                               {reflectors.data(), taus.data(), q.data()})));
    for (int64_t b = 0; b < batch; ++b) {
      Matrix<E> r = Load(qr, b, m, n);
      r.rows = k;
      r.values.resize(size_t(k * n));
      for (int64_t i = 0; i < k; ++i) {
        for (int64_t j = 0; j < i; ++j) r.at(i, j) = 0;
        // beta is real, of the sign opposite to re(alpha).
        EXPECT_EQ(std::imag(r.at(i, i)), 0);
      }
      const Matrix<E> qm = Load(q, b, m, k);
      EXPECT_LE(Distance(Multiply(qm, r), Load(a, b, m, n)),
                Tolerance<T>(m) * 4)
          << m << "x" << n;
      EXPECT_LE(Distance(Multiply(Adjoint(qm), qm), Identity<E>(k)),
                Tolerance<T>(m))
          << m << "x" << n;
    }
  }
}

// ---- eigh -------------------------------------------------------------------

// Whether the entry of largest magnitude of each column of `v` is real
// positive.
template <typename E>
void ExpectColumnsNormalised(const Matrix<E>& v, long double tolerance) {
  for (int64_t j = 0; j < v.cols; ++j) {
    int64_t best = 0;
    for (int64_t i = 1; i < v.rows; ++i) {
      if (std::abs(v.at(i, j)) > std::abs(v.at(best, j)) + tolerance) best = i;
    }
    EXPECT_GT(std::real(v.at(best, j)), 0) << "column " << j;
    EXPECT_NEAR(double(std::imag(v.at(best, j))), 0, double(tolerance));
  }
}

TYPED_TEST(LinalgKernelTest, EighGivesAscendingValuesAndNormalisedVectors) {
  using T = TypeParam;
  using E = Exact<T>;
  using R = RealOf<T>;
  for (const bool lower : {true, false}) {
    for (const int64_t n : {1, 5, 33}) {
      std::vector<T> a = RandomVector<T>(this->rng_, this->kBatch * n * n);
      for (int64_t b = 0; b < this->kBatch; ++b) {
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            if (!(lower ? j <= i : j >= i)) a[size_t((b * n + i) * n + j)] = 99;
          }
        }
      }
      std::vector<T> vectors(a.size());
      std::vector<R> values(size_t(this->kBatch * n));
      ASSERT_TRUE(IsOk(RunKernel(
          MakeShape(PHAL_KIR_LINALG_EIGH, kType<T>,
                    lower ? PHAL_KIR_LINALG_LOWER : 0, this->kBatch, n, n),
          {a.data(), vectors.data(), values.data()})));
      for (int64_t b = 0; b < this->kBatch; ++b) {
        const Matrix<E> h = this->Hermitian(Load(a, b, n, n), lower);
        const Matrix<E> v = Load(vectors, b, n, n);
        Matrix<E> vw = v;
        for (int64_t j = 0; j < n; ++j) {
          const R w = values[size_t(b * n + j)];
          if (j > 0) {
            EXPECT_LE(values[size_t(b * n + j - 1)], w);
          }
          for (int64_t i = 0; i < n; ++i) vw.at(i, j) *= w;
        }
        EXPECT_LE(Distance(Multiply(h, v), vw), Tolerance<T>(n) * 4);
        EXPECT_LE(Distance(Multiply(Adjoint(v), v), Identity<E>(n)),
                  Tolerance<T>(n));
        ExpectColumnsNormalised(v, Tolerance<T>(n));
      }
    }
  }
}

TYPED_TEST(LinalgKernelTest, EighOfADiagonalMatrixKeepsTiesInOrder) {
  using T = TypeParam;
  using R = RealOf<T>;
  // The reference's Jacobi sweeps leave a diagonal matrix as it is: the
  // values sorted stably, the unit vectors.
  const std::vector<T> a = {T(3), T(0), T(0), T(0), T(1),
                            T(0), T(0), T(0), T(3)};
  std::vector<T> vectors(9);
  std::vector<R> values(3);
  ASSERT_TRUE(IsOk(RunKernel(
      MakeShape(PHAL_KIR_LINALG_EIGH, kType<T>, PHAL_KIR_LINALG_LOWER, 1, 3, 3),
      {(void*)a.data(), vectors.data(), values.data()})));
  EXPECT_EQ(values, (std::vector<R>{1, 3, 3}));
  EXPECT_EQ(vectors, (std::vector<T>{T(0), T(1), T(0), T(1), T(0), T(0), T(0),
                                     T(0), T(1)}));
}

// ---- svd --------------------------------------------------------------------

template <typename T>
void ExpectSvd(const std::vector<T>& a, int64_t batch, int64_t m, int64_t n,
               bool full) {
  using E = Exact<T>;
  using R = RealOf<T>;
  const int64_t k = std::min(m, n);
  const int64_t u_cols = full ? m : k, vt_rows = full ? n : k;
  std::vector<T> u(size_t(batch * m * u_cols)), vt(size_t(batch * vt_rows * n));
  std::vector<R> s(size_t(batch * k));
  ASSERT_TRUE(IsOk(RunKernel(
      MakeShape(PHAL_KIR_LINALG_SVD, kType<T>,
                full ? PHAL_KIR_LINALG_FULL_MATRICES : 0, batch, m, n),
      {(void*)a.data(), u.data(), s.data(), vt.data()})));
  const long double tolerance = Tolerance<T>(std::max(m, n));
  for (int64_t b = 0; b < batch; ++b) {
    const Matrix<E> um = Load(u, b, m, u_cols);
    const Matrix<E> vm = Load(vt, b, vt_rows, n);
    Matrix<E> us{m, n, std::vector<E>(size_t(m * n))};
    for (int64_t j = 0; j < k; ++j) {
      const R sigma = s[size_t(b * k + j)];
      EXPECT_GE(sigma, 0);
      if (j > 0) {
        EXPECT_GE(s[size_t(b * k + j - 1)], sigma);
      }
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t c = 0; c < n; ++c) {
          us.at(i, c) += um.at(i, j) * E(sigma) * vm.at(j, c);
        }
      }
    }
    EXPECT_LE(Distance(us, Load(a, b, m, n)), tolerance * 4)
        << m << "x" << n << " full " << full;
    EXPECT_LE(Distance(Multiply(Adjoint(um), um), Identity<E>(u_cols)),
              tolerance)
        << m << "x" << n << " full " << full;
    EXPECT_LE(Distance(Multiply(vm, Adjoint(vm)), Identity<E>(vt_rows)),
              tolerance)
        << m << "x" << n << " full " << full;
    // The right singular vectors of the tall problem are normalised: vt's
    // rows (as columns of v) for a tall matrix, u's columns for a wide one.
    if (m >= n) {
      ExpectColumnsNormalised(Adjoint(vm), tolerance);
    } else {
      ExpectColumnsNormalised(um, tolerance);
    }
  }
}

TYPED_TEST(LinalgKernelTest, SvdOfTallAndWideMatrices) {
  using T = TypeParam;
  for (const bool full : {false, true}) {
    for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{
             {1, 1}, {5, 5}, {33, 20}, {20, 33}, {1, 7}, {7, 1}}) {
      ExpectSvd(RandomVector<T>(this->rng_, this->kBatch * m * n), this->kBatch,
                m, n, full);
    }
  }
}

TYPED_TEST(LinalgKernelTest, SvdCompletesURankDeficientMatrices) {
  using T = TypeParam;
  // Rank 1 and rank 0: u completed to an orthonormal set.
  ExpectSvd<T>({T(1), T(2), T(2), T(4), T(0), T(0)}, 1, 3, 2, true);
  ExpectSvd<T>({T(1), T(2), T(0), T(2), T(4), T(0)}, 1, 2, 3, true);
  ExpectSvd<T>(std::vector<T>(12, T(0)), 1, 4, 3, true);
}

TYPED_TEST(LinalgKernelTest, SvdOfMatricesJacobiLeavesAsTheyAre) {
  using T = TypeParam;
  using R = RealOf<T>;
  // Orthogonal columns: s the column norms in stable order, v the unit
  // vectors, u the normalised columns; a zero matrix gives identities.
  const std::vector<T> a = {T(0), T(2), T(0), T(-3), T(0),
                            T(0), T(0), T(0), T(2)};
  std::vector<T> u(9), vt(9);
  std::vector<R> s(3);
  ASSERT_TRUE(
      IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_SVD, kType<T>, 0, 1, 3, 3),
                     {(void*)a.data(), u.data(), s.data(), vt.data()})));
  EXPECT_EQ(s, (std::vector<R>{3, 2, 2}));
  EXPECT_EQ(vt, (std::vector<T>{T(1), T(0), T(0), T(0), T(1), T(0), T(0), T(0),
                                T(1)}));
  EXPECT_EQ(u, (std::vector<T>{T(0), T(1), T(0), T(-1), T(0), T(0), T(0), T(0),
                               T(1)}));
  const std::vector<T> zero(6, T(0));
  std::vector<T> u0(9, T(7)), vt0(4, T(7));
  std::vector<R> s0(2, 7);
  ASSERT_TRUE(
      IsOk(RunKernel(MakeShape(PHAL_KIR_LINALG_SVD, kType<T>,
                               PHAL_KIR_LINALG_FULL_MATRICES, 1, 3, 2),
                     {(void*)zero.data(), u0.data(), s0.data(), vt0.data()})));
  EXPECT_EQ(s0, (std::vector<R>{0, 0}));
  EXPECT_EQ(u0, (std::vector<T>{T(1), T(0), T(0), T(0), T(1), T(0), T(0), T(0),
                                T(1)}));
  EXPECT_EQ(vt0, (std::vector<T>{T(1), T(0), T(0), T(1)}));
}

// ---- sizes of zero ----------------------------------------------------------

TYPED_TEST(LinalgKernelTest, ZeroSizedBatchesAndMatricesRun) {
  using T = TypeParam;
  using R = RealOf<T>;
  std::vector<T> none(1);
  std::vector<R> real_none(1);
  for (uint32_t op = PHAL_KIR_LINALG_CHOLESKY; op <= PHAL_KIR_LINALG_SVD;
       ++op) {
    const auto o = static_cast<phal_kir_linalg_op_t>(op);
    const int64_t k = o == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                              o == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT
                          ? 2
                          : 0;
    std::vector<void*> buffers(5, none.data());
    EXPECT_TRUE(
        IsOk(RunKernel(MakeShape(o, kType<T>, 0, 0, 4, 4, k), buffers)));
    EXPECT_TRUE(IsOk(RunKernel(MakeShape(o, kType<T>, 0, 2, 0, 0), buffers)));
  }
  // A full svd of a 3 x 0 matrix: u the identity, no s, an empty vt; of a
  // 0 x 3 one: vt the identity.
  for (const bool tall : {true, false}) {
    std::vector<T> identity(18, T(7));
    ASSERT_TRUE(IsOk(RunKernel(
        MakeShape(PHAL_KIR_LINALG_SVD, kType<T>, PHAL_KIR_LINALG_FULL_MATRICES,
                  2, tall ? 3 : 0, tall ? 0 : 3),
        {none.data(), tall ? identity.data() : none.data(), real_none.data(),
         tall ? none.data() : identity.data()})));
    for (int64_t i = 0; i < 18; ++i) {
      EXPECT_EQ(identity[size_t(i)], T(i % 9 % 4 == 0 ? 1 : 0)) << i;
    }
  }
}

// ---- malformed shapes -------------------------------------------------------

TEST(CheckLinalgShapeTest, RefusesMalformedShapes) {
  const LinalgShape good = MakeShape(PHAL_KIR_LINALG_TRIANGULAR_SOLVE,
                                     PHAL_ELEMENT_TYPE_F32, 0, 2, 3, 3, 4);
  EXPECT_TRUE(IsOk(CheckLinalgShape(good, 3)));
  const auto refuses = [&](auto change, const char* member) {
    LinalgShape s = good;
    change(s);
    EXPECT_TRUE(
        HasCode(CheckLinalgShape(s, 3), PHAL_INVALID_ARGUMENT, {member}));
  };
  refuses([](LinalgShape& s) { s.op = phal_kir_linalg_op_t(7); }, "op");
  refuses([](LinalgShape& s) { s.flags = 1u << 4; }, "flags");
  refuses([](LinalgShape& s) { s.transpose_a = phal_kir_transpose_t(3); },
          "transpose_a");
  refuses([](LinalgShape& s) { s.type = PHAL_ELEMENT_TYPE_S32; }, "type");
  refuses([](LinalgShape& s) { s.operand_count = 1; }, "operand_count");
  refuses([](LinalgShape& s) { s.result_count = 2; }, "result_count");
  refuses([](LinalgShape& s) { s.operands[1] = 3; }, "operands");
  refuses([](LinalgShape& s) { s.results[0] = 1; }, "results");
  refuses([](LinalgShape& s) { s.results[1] = 1; }, "results");
  refuses([](LinalgShape& s) { s.m = -1; }, "negative");
  refuses([](LinalgShape& s) { s.n = 4; }, "square");
  refuses([](LinalgShape& s) { s.batch = int64_t{1} << 62; }, "too large");
  LinalgShape lu =
      MakeShape(PHAL_KIR_LINALG_LU, PHAL_ELEMENT_TYPE_C128, 0, 1, 5, 3, 1);
  EXPECT_TRUE(HasCode(CheckLinalgShape(lu, 3), PHAL_INVALID_ARGUMENT, {"k"}));
  const LinalgShape product = MakeShape(PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT,
                                        PHAL_ELEMENT_TYPE_F64, 0, 1, 3, 4, 2);
  EXPECT_TRUE(HasCode(CheckLinalgShape(product, 3), PHAL_INVALID_ARGUMENT,
                      {"m >= n >= k"}));
}

}  // namespace
}  // namespace phal::cpu
