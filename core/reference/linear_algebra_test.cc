// The linear-algebra ops on the reference interpreter, checked by what
// each result must satisfy (residuals and orthogonality against
// tolerances scaled by the condition number), on well- and ill-conditioned
// matrices, and on the inputs LAPACK reports through info: matrices that
// are not positive definite and singular ones.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

// A row-major rows x cols matrix in double.
struct Dense {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<double> values;
  double operator()(int64_t i, int64_t j) const {
    return values[static_cast<std::size_t>(i * cols + j)];
  }
  double& operator()(int64_t i, int64_t j) {
    return values[static_cast<std::size_t>(i * cols + j)];
  }
};

Dense Make(int64_t rows, int64_t cols) {
  return {rows, cols,
          std::vector<double>(static_cast<std::size_t>(rows * cols))};
}

Dense Product(const Dense& a, const Dense& b) {
  Dense c = Make(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < b.cols; ++j) {
      double sum = 0;
      for (int64_t k = 0; k < a.cols; ++k) sum += a(i, k) * b(k, j);
      c(i, j) = sum;
    }
  }
  return c;
}

Dense Transposed(const Dense& a) {
  Dense t = Make(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
  }
  return t;
}

double MaxDifference(const Dense& a, const Dense& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    worst = std::max(worst, std::abs(a.values[i] - b.values[i]));
  }
  return worst;
}

double MaxAbs(const Dense& a) {
  double worst = 0;
  for (double v : a.values) worst = std::max(worst, std::abs(v));
  return worst;
}

Dense Identity(int64_t n) {
  Dense i = Make(n, n);
  for (int64_t k = 0; k < n; ++k) i(k, k) = 1;
  return i;
}

// Hilbert's matrix 1 / (i + j + 1): condition number about 1.5e7 for n = 6.
Dense Hilbert(int64_t n) {
  Dense h = Make(n, n);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j)
      h(i, j) = 1.0 / static_cast<double>(i + j + 1);
  }
  return h;
}

// A fixed, well-conditioned general matrix.
Dense General(int64_t rows, int64_t cols) {
  Dense g = Make(rows, cols);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      g(i, j) = std::sin(static_cast<double>(3 * i + 7 * j + 1)) +
                (i == j ? 1.5 : 0.0);
    }
  }
  return g;
}

Literal ToLiteral(const Dense& a) {
  return Literal::FromValues(kF64, {a.rows, a.cols}, a.values);
}

Dense FromLiteral(const Literal& literal) {
  const Shape& shape = literal.shape();
  Dense a = Make(shape.dim(0), shape.dim(1));
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    a.values[i] = literal.GetAsDouble(static_cast<int64_t>(i));
  }
  return a;
}

constexpr double kEps = 2.220446049250313e-16;

TEST(ReferenceLinearAlgebra, CholeskyResidualScalesWithTheConditionNumber) {
  for (const Dense& a :
       {Hilbert(6), Product(General(5, 5), Transposed(General(5, 5)))}) {
    for (bool lower : {true, false}) {
      const Dense factor = FromLiteral(
          EvaluateOp("cholesky", {ToLiteral(a)}, Shape(kF64, {a.rows, a.rows}),
                     lower ? "lower=true" : "lower=false"));
      const Dense rebuilt = lower ? Product(factor, Transposed(factor))
                                  : Product(Transposed(factor), factor);
      EXPECT_LT(MaxDifference(rebuilt, a), 50 * kEps * MaxAbs(a));
      for (int64_t i = 0; i < a.rows; ++i) {
        for (int64_t j = 0; j < a.rows; ++j) {
          if (lower ? j > i : j < i) {
            EXPECT_EQ(factor(i, j), 0);
          }
        }
      }
    }
  }
}

TEST(ReferenceLinearAlgebra,
     CholeskyOfAMatrixNotPositiveDefiniteIsNaNFromThere) {
  Dense a = Identity(3);
  a(1, 1) = -1;
  const Dense factor = FromLiteral(EvaluateOp(
      "cholesky", {ToLiteral(a)}, Shape(kF64, {3, 3}), "lower=true"));
  EXPECT_EQ(factor(0, 0), 1);
  EXPECT_EQ(factor(1, 0), 0);
  EXPECT_TRUE(std::isnan(factor(1, 1)));
  EXPECT_TRUE(std::isnan(factor(2, 1)));
  EXPECT_TRUE(std::isnan(factor(2, 2)));
  EXPECT_EQ(factor(0, 1), 0);
}

TEST(ReferenceLinearAlgebra, TriangularSolveEveryVariant) {
  const Dense a = General(4, 4);
  const Dense left = General(4, 3);
  const Dense right = General(3, 4);
  for (bool left_side : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {true, false}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          const Dense& b = left_side ? left : right;
          const std::string attributes =
              std::string("left_side=") + (left_side ? "true" : "false") +
              ", lower=" + (lower ? "true" : "false") +
              ", unit_diagonal=" + (unit ? "true" : "false") +
              ", transpose_a=" + transpose;
          const Dense x = FromLiteral(
              EvaluateOp("triangular-solve", {ToLiteral(a), ToLiteral(b)},
                         Shape(kF64, {b.rows, b.cols}), attributes));
          Dense t = Make(4, 4);
          for (int64_t i = 0; i < 4; ++i) {
            for (int64_t j = 0; j < 4; ++j) {
              if (i == j) t(i, j) = unit ? 1 : a(i, j);
              if (lower ? j < i : j > i) t(i, j) = a(i, j);
            }
          }
          if (std::string(transpose) != "NO_TRANSPOSE") t = Transposed(t);
          const Dense product = left_side ? Product(t, x) : Product(x, t);
          EXPECT_LT(MaxDifference(product, b), 100 * kEps) << attributes;
        }
      }
    }
  }
}

// P a = L U from lu's factors and pivots.
void ExpectLuRebuilds(const Dense& a, double tolerance) {
  const int64_t m = a.rows;
  const int64_t n = a.cols;
  const int64_t k = std::min(m, n);
  const Literal result =
      EvaluateOp("lu", {ToLiteral(a)},
                 Shape::Tuple({Shape(kF64, {m, n}), Shape(kS32, {k})}));
  const Dense factors = FromLiteral(result.tuple_elements()[0]);
  Dense l = Make(m, k);
  Dense u = Make(k, n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      if (j < i && j < k) l(i, j) = factors(i, j);
      if (i == j && i < k) l(i, j) = 1;
      if (j >= i && i < k) u(i, j) = factors(i, j);
    }
  }
  Dense permuted = a;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t p = result.tuple_elements()[1].GetAsInt64(j);
    ASSERT_GE(p, j);
    ASSERT_LT(p, m);
    for (int64_t c = 0; c < n; ++c) std::swap(permuted(j, c), permuted(p, c));
  }
  EXPECT_LT(MaxDifference(Product(l, u), permuted), tolerance);
}

TEST(ReferenceLinearAlgebra, LuRebuildsThePermutedMatrix) {
  ExpectLuRebuilds(General(5, 5), 20 * kEps * 5);
  ExpectLuRebuilds(General(6, 4), 20 * kEps * 5);
  ExpectLuRebuilds(General(3, 6), 20 * kEps * 5);
  ExpectLuRebuilds(Hilbert(6), 20 * kEps);
}

TEST(ReferenceLinearAlgebra, LuOfASingularMatrixKeepsItsZeroPivot) {
  Dense a = Make(3, 3);
  a.values = {1, 2, 3, 2, 4, 6, 0, 1, 1};
  const Literal result =
      EvaluateOp("lu", {ToLiteral(a)},
                 Shape::Tuple({Shape(kF64, {3, 3}), Shape(kS32, {3})}));
  const Dense factors = FromLiteral(result.tuple_elements()[0]);
  // Column 0 pivots on row 1 (|2| > |1|); row 0 then becomes [1, 2, 3] -
  // 0.5 [2, 4, 6] = 0, so the second pivot is row 2 and the last is zero.
  EXPECT_EQ(result.tuple_elements()[1].GetAsInt64(0), 1);
  EXPECT_EQ(result.tuple_elements()[1].GetAsInt64(1), 2);
  EXPECT_EQ(factors(2, 2), 0);
  ExpectLuRebuilds(a, 1e-15);
}

TEST(ReferenceLinearAlgebra, QrAndTheProductOfItsReflectors) {
  for (const Dense& a : {General(6, 4), General(4, 4), Hilbert(5)}) {
    const int64_t m = a.rows;
    const int64_t n = a.cols;
    const Literal qr = EvaluateOp(
        "qr", {ToLiteral(a)},
        Shape::Tuple({Shape(kF64, {m, n}), Shape(kF64, {std::min(m, n)})}));
    const Literal q = EvaluateOp(
        "householder-product", {qr.tuple_elements()[0], qr.tuple_elements()[1]},
        Shape(kF64, {m, n}));
    const Dense qm = FromLiteral(q);
    Dense r = FromLiteral(qr.tuple_elements()[0]);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        if (j < i) r(i, j) = 0;
      }
    }
    r.rows = n;
    r.values.resize(static_cast<std::size_t>(n * n));
    EXPECT_LT(MaxDifference(Product(qm, r), a), 50 * kEps * MaxAbs(a));
    EXPECT_LT(MaxDifference(Product(Transposed(qm), qm), Identity(n)),
              50 * kEps);
  }
}

TEST(ReferenceLinearAlgebra, EighResidualOrthogonalityAndOrder) {
  for (const Dense& a :
       {Hilbert(6), Product(General(5, 5), Transposed(General(5, 5)))}) {
    const int64_t n = a.rows;
    const Literal result = EvaluateOp(
        "eigh", {ToLiteral(a)},
        Shape::Tuple({Shape(kF64, {n, n}), Shape(kF64, {n})}), "lower=true");
    const Dense v = FromLiteral(result.tuple_elements()[0]);
    Dense lambda = Make(n, n);
    for (int64_t j = 0; j < n; ++j) {
      lambda(j, j) = result.tuple_elements()[1].GetAsDouble(j);
      if (j > 0) {
        EXPECT_LE(lambda(j - 1, j - 1), lambda(j, j));
      }
    }
    EXPECT_LT(MaxDifference(Product(a, v), Product(v, lambda)),
              50 * kEps * MaxAbs(a));
    EXPECT_LT(MaxDifference(Product(Transposed(v), v), Identity(n)), 50 * kEps);
  }
}

TEST(ReferenceLinearAlgebra, SvdRebuildsTallWideAndRankDeficientMatrices) {
  const Dense rank_two = Product(General(6, 2), General(2, 5));
  for (const Dense& a : {General(6, 4), General(3, 5), Hilbert(5), rank_two}) {
    const int64_t m = a.rows;
    const int64_t n = a.cols;
    const int64_t k = std::min(m, n);
    const Literal result =
        EvaluateOp("svd", {ToLiteral(a)},
                   Shape::Tuple({Shape(kF64, {m, m}), Shape(kF64, {k}),
                                 Shape(kF64, {n, n})}),
                   "full_matrices=true");
    const Dense u = FromLiteral(result.tuple_elements()[0]);
    const Dense vt = FromLiteral(result.tuple_elements()[2]);
    Dense sigma = Make(m, n);
    for (int64_t j = 0; j < k; ++j) {
      sigma(j, j) = result.tuple_elements()[1].GetAsDouble(j);
      EXPECT_GE(sigma(j, j), 0);
      if (j > 0) {
        EXPECT_GE(sigma(j - 1, j - 1), sigma(j, j));
      }
    }
    EXPECT_LT(MaxDifference(Product(Product(u, sigma), vt), a),
              50 * kEps * MaxAbs(a));
    EXPECT_LT(MaxDifference(Product(Transposed(u), u), Identity(m)), 50 * kEps);
    EXPECT_LT(MaxDifference(Product(vt, Transposed(vt)), Identity(n)),
              50 * kEps);
  }
}

TEST(ReferenceLinearAlgebra, HermitianEighResidualAndOrthogonality) {
  using C = std::complex<double>;
  const int64_t n = 4;
  std::vector<C> a(static_cast<std::size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      const C value(std::sin(1.0 + 3 * i + j),
                    i == j ? 0 : std::cos(2.0 + i * j));
      a[static_cast<std::size_t>(i * n + j)] = value;
      a[static_cast<std::size_t>(j * n + i)] = std::conj(value);
    }
  }
  Literal input(Shape(kC128, {n, n}));
  for (std::size_t k = 0; k < a.size(); ++k) {
    input.SetFromComplex(static_cast<int64_t>(k), a[k]);
  }
  const Literal result = EvaluateOp(
      "eigh", {input}, Shape::Tuple({Shape(kC128, {n, n}), Shape(kF64, {n})}),
      "lower=true");
  const Literal& v = result.tuple_elements()[0];
  const Literal& w = result.tuple_elements()[1];
  auto at = [&](const Literal& m, int64_t i, int64_t j) {
    return m.GetAsComplex(i * n + j);
  };
  for (int64_t j = 0; j < n; ++j) {
    if (j > 0) {
      EXPECT_LE(w.GetAsDouble(j - 1), w.GetAsDouble(j));
    }
    for (int64_t i = 0; i < n; ++i) {
      C av = 0;
      for (int64_t k = 0; k < n; ++k) {
        av += a[static_cast<std::size_t>(i * n + k)] * at(v, k, j);
      }
      EXPECT_LT(std::abs(av - at(v, i, j) * w.GetAsDouble(j)), 50 * kEps * 4);
    }
    for (int64_t k = 0; k < n; ++k) {
      C dot = 0;
      for (int64_t i = 0; i < n; ++i)
        dot += std::conj(at(v, i, k)) * at(v, i, j);
      EXPECT_LT(std::abs(dot - (k == j ? 1.0 : 0.0)), 50 * kEps);
    }
  }
}

}  // namespace
}  // namespace phal::testing
