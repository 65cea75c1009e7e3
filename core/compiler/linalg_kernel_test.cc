// LINALG kernels (ABI 1.14) end to end: linear-algebra programs compiled
// through the phal_executable_* C API for the cpu plugin's device, which
// reports the kind, become one LINALG kernel per op, run the plugin's
// LAPACK calls, and match the reference interpreter (the oracle, in
// double): every op in f32, f64, c64 and c128, batched, at orders 1, 7
// and 33, every side, triangle and transpose of triangular-solve, tall,
// wide and square svd with and without full matrices, one large Cholesky,
// LU and solve (cut over the pool); a factorisation
// that fails (NaN columns), LU of singular matrices and of NaN, and empty
// batches and matrices. Skipped, with the reason, where the cpu plugin has
// no device.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

using Complex = std::complex<double>;

const ElementType kTypes[] = {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64,
                              PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128};

std::string ShapeText(ElementType type, const std::vector<int64_t>& dims) {
  return Shape(type, dims).ToString();
}

ElementType RealType(ElementType type) {
  return IsComplex(type) ? ComplexComponentType(type) : type;
}

// Uniform values in [-1, 1), complex ones for a complex type.
Literal Random(ElementType type, const std::vector<int64_t>& dims,
               uint32_t seed) {
  Literal literal(Shape(type, dims));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    const double re = value(random);
    literal.SetFromComplex(i, {re, IsComplex(type) ? value(random) : 0.0});
  }
  return literal;
}

// A random batch [batch, n, n] plus `shift` on the diagonal; with
// `gram`, x x^H + n I (Hermitian positive definite) instead.
Literal Square(ElementType type, int64_t batch, int64_t n, uint32_t seed,
               bool gram, double shift = 0) {
  const Literal x = Random(type, {batch, n, n}, seed);
  Literal a(Shape(type, {batch, n, n}));
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t base = b * n * n;
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        Complex value = x.GetAsComplex(base + i * n + j);
        if (gram) {
          value = 0;
          for (int64_t k = 0; k < n; ++k) {
            value += x.GetAsComplex(base + i * n + k) *
                     std::conj(x.GetAsComplex(base + j * n + k));
          }
          if (i == j) value += static_cast<double>(n);
        } else if (i == j) {
          value += shift;
        }
        a.SetFromComplex(base + i * n + j, value);
      }
    }
  }
  return a;
}

class CpuLinalgKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_ = std::make_unique<PluginDevice>("cpu");
    device_ = plugin_->device();
    if (device_ == nullptr) GTEST_SKIP() << plugin_->absence();
  }

  // The result leaves of `text` on `operands`, run on the cpu device;
  // leaves shaped as `expected`.
  std::vector<Literal> Run(const std::string& text,
                           const std::vector<Literal>& operands,
                           const std::vector<Literal>& expected) {
    std::vector<Literal> results;
    for (const Literal& leaf : expected) results.emplace_back(leaf.shape());
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        device_, text.data(), text.size(), nullptr, &executable);
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status) << text;
    phal_status_free(status);
    if (executable == nullptr) return results;
    std::vector<phal_buffer_t*> inputs(operands.size(), nullptr);
    for (std::size_t i = 0; i < operands.size(); ++i) {
      const phal_buffer_desc_t desc =
          BufferDesc(operands[i].element_type(), operands[i].shape().dims());
      EXPECT_EQ(phal_buffer_allocate(device_, &desc, &inputs[i]), nullptr);
      EXPECT_EQ(phal_buffer_copy_from_host(inputs[i], 0, operands[i].data(),
                                           operands[i].byte_size()),
                nullptr);
    }
    std::vector<phal_buffer_t*> outputs(results.size(), nullptr);
    status = phal_executable_execute(executable, inputs.data(), inputs.size(),
                                     outputs.data(), outputs.size());
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status) << text;
    phal_status_free(status);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      if (outputs[i] == nullptr) continue;
      EXPECT_EQ(phal_buffer_copy_to_host(outputs[i], 0, results[i].data(),
                                         results[i].byte_size()),
                nullptr);
      phal_buffer_free(outputs[i]);
    }
    for (phal_buffer_t* input : inputs) phal_buffer_free(input);
    phal_executable_free(executable);
    return results;
  }

  // `text` on `operands` against the reference: integers (pivots) equal;
  // floating values within `units` times the precision's epsilon times
  // `order` times the leaf's largest finite magnitude; NaN and infinities
  // where the reference has them.
  void ExpectMatchesReference(const std::string& text,
                              const std::vector<Literal>& operands,
                              int64_t order, double units) {
    const std::vector<Literal> expected = ReferenceLeaves(text, operands);
    ASSERT_FALSE(expected.empty()) << text;
    const std::vector<Literal> actual = Run(text, operands, expected);
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t leaf = 0; leaf < expected.size(); ++leaf) {
      const Literal& e = expected[leaf];
      const Literal& a = actual[leaf];
      const ElementType type = e.element_type();
      if (IsIntegral(type)) {
        for (int64_t i = 0; i < e.ElementCount(); ++i) {
          ASSERT_EQ(a.GetAsInt64(i), e.GetAsInt64(i))
              << "result " << leaf << " element " << i << " of\n"
              << text;
        }
        continue;
      }
      double largest = 0;
      for (int64_t i = 0; i < e.ElementCount(); ++i) {
        const Complex value = e.GetAsComplex(i);
        if (std::isfinite(value.real()) && std::isfinite(value.imag())) {
          largest = std::max(largest, std::abs(value));
        }
      }
      const double epsilon = RealType(type) == PHAL_ELEMENT_TYPE_F32
                                 ? std::numeric_limits<float>::epsilon()
                                 : std::numeric_limits<double>::epsilon();
      const double bound = units * epsilon *
                           static_cast<double>(std::max<int64_t>(order, 1)) *
                           std::max(largest, 1e-30);
      for (int64_t i = 0; i < e.ElementCount(); ++i) {
        const Complex want = e.GetAsComplex(i);
        const Complex got = a.GetAsComplex(i);
        const bool finite =
            std::isfinite(want.real()) && std::isfinite(want.imag());
        const bool got_finite =
            std::isfinite(got.real()) && std::isfinite(got.imag());
        if (!finite || !got_finite) {
          ASSERT_EQ(finite, got_finite)
              << "result " << leaf << " element " << i << ": " << got << " vs "
              << want << " of\n"
              << text;
          continue;
        }
        ASSERT_LE(std::abs(got - want), bound)
            << "result " << leaf << " element " << i << ": " << got << " vs "
            << want << " of\n"
            << text;
      }
    }
  }

  std::unique_ptr<PluginDevice> plugin_;
  phal_device_t* device_ = nullptr;
};

std::string Module(const std::vector<std::string>& lines) {
  std::string text = "HloModule linalg\nENTRY main {\n";
  for (const std::string& line : lines) text += "  " + line + "\n";
  return text + "}\n";
}

constexpr int64_t kBatch = 2;
const int64_t kOrders[] = {1, 7, 33};

TEST_F(CpuLinalgKernels, CholeskyOfEveryTriangleMatchesTheReference) {
  for (ElementType type : kTypes) {
    for (int64_t n : kOrders) {
      for (bool lower : {true, false}) {
        const std::string t = ShapeText(type, {kBatch, n, n});
        ExpectMatchesReference(
            Module({"a = " + t + " parameter(0)",
                    "ROOT l = " + t +
                        " cholesky(a), lower=" + (lower ? "true" : "false")}),
            {Square(type, kBatch, n, 3, true)}, n, 64);
      }
    }
  }
}

TEST_F(CpuLinalgKernels, TriangularSolveOfEverySideAndTransposeMatches) {
  const int64_t n = 7;
  for (ElementType type : kTypes) {
    const Literal a = Square(type, kBatch, n, 5, false, 4.0);
    for (bool left : {true, false}) {
      const std::vector<int64_t> b_dims =
          left ? std::vector<int64_t>{kBatch, n, 3}
               : std::vector<int64_t>{kBatch, 3, n};
      const Literal b = Random(type, b_dims, 6);
      for (bool lower : {true, false}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          for (bool unit : {false, true}) {
            ExpectMatchesReference(
                Module(
                    {"a = " + ShapeText(type, {kBatch, n, n}) + " parameter(0)",
                     "b = " + ShapeText(type, b_dims) + " parameter(1)",
                     "ROOT x = " + ShapeText(type, b_dims) +
                         " triangular-solve(a, b), left_side=" +
                         (left ? "true" : "false") +
                         ", lower=" + (lower ? "true" : "false") +
                         ", unit_diagonal=" + (unit ? "true" : "false") +
                         ", transpose_a=" + transpose}),
                {a, b}, n, 256);
          }
        }
      }
    }
  }
}

// A solve with the transpose of a: the compiler reads the other triangle
// of a itself (its transpose folded into the solve), except for a complex
// adjoint, which keeps the transpose.
TEST_F(CpuLinalgKernels, TriangularSolveOfATransposedMatrixMatches) {
  const int64_t n = 6;
  for (ElementType type : kTypes) {
    const Literal a = Square(type, kBatch, n, 20, false, 4.0);
    for (bool left : {true, false}) {
      const std::vector<int64_t> b_dims =
          left ? std::vector<int64_t>{kBatch, n, 2}
               : std::vector<int64_t>{kBatch, 2, n};
      const Literal b = Random(type, b_dims, 21);
      for (bool lower : {true, false}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          ExpectMatchesReference(
              Module(
                  {"a = " + ShapeText(type, {kBatch, n, n}) + " parameter(0)",
                   "t = " + ShapeText(type, {kBatch, n, n}) +
                       " transpose(a), dimensions={0,2,1}",
                   "b = " + ShapeText(type, b_dims) + " parameter(1)",
                   "ROOT x = " + ShapeText(type, b_dims) +
                       " triangular-solve(t, b), left_side=" +
                       (left ? "true" : "false") +
                       ", lower=" + (lower ? "true" : "false") +
                       ", unit_diagonal=false, transpose_a=" + transpose}),
              {a, b}, n, 256);
        }
      }
    }
  }
}

// One large matrix: the plugin factors it by blocks on its pool; one that
// fails past the first block falls back to the reference's way.
TEST_F(CpuLinalgKernels, OneLargeCholeskyByBlocksMatchesTheReference) {
  const int64_t n = 400;
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_C128}) {
    Literal a = Square(type, 1, n, 18, true);
    for (bool fails : {false, true}) {
      if (fails) a.SetFromComplex(300 * n + 300, {-1e4, 0});
      for (bool lower : {true, false}) {
        const std::string t = ShapeText(type, {1, n, n});
        ExpectMatchesReference(
            Module({"a = " + t + " parameter(0)",
                    "ROOT l = " + t +
                        " cholesky(a), lower=" + (lower ? "true" : "false")}),
            {a}, n, 64);
      }
    }
  }
}

// One large LU, square, tall and wide: the plugin factors it by blocks of
// columns on its pool (the same pivots as the reference); a zero column
// (a zero pivot past the first block) and a NaN.
TEST_F(CpuLinalgKernels, OneLargeLuByBlocksMatchesTheReference) {
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_C128}) {
    for (const auto& [m, n] :
         {std::pair<int64_t, int64_t>{300, 300}, {400, 270}, {270, 400}}) {
      const int64_t k = std::min(m, n);
      const std::string t = ShapeText(type, {1, m, n});
      const std::string pivots = ShapeText(PHAL_ELEMENT_TYPE_S32, {1, k});
      const std::string text =
          Module({"a = " + t + " parameter(0)",
                  "ROOT r = (" + t + ", " + pivots + ") lu(a)"});
      Literal a = Random(type, {1, m, n}, 19);
      ExpectMatchesReference(text, {a}, std::max(m, n), 1024);
      for (int64_t i = 0; i < m; ++i) a.SetFromComplex(i * n + 100, {0, 0});
      ExpectMatchesReference(text, {a}, std::max(m, n), 1024);
      a.SetFromComplex(150 * n + 7,
                       {std::numeric_limits<double>::quiet_NaN(), 0});
      ExpectMatchesReference(text, {a}, std::max(m, n), 1024);
    }
  }
}

// One system with many right-hand sides: the plugin cuts it into pieces
// on its pool; with a NaN in b, the whole matrix is solved the reference's
// way once.
TEST_F(CpuLinalgKernels, OneLargeSolveInPiecesMatchesTheReference) {
  const int64_t n = 128, k = 64;
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_C128}) {
    const Literal a = Square(type, 1, n, 16, false, 8.0);
    for (bool left : {true, false}) {
      const std::vector<int64_t> b_dims =
          left ? std::vector<int64_t>{1, n, k} : std::vector<int64_t>{1, k, n};
      Literal b = Random(type, b_dims, 17);
      for (bool with_nan : {false, true}) {
        if (with_nan) {
          b.SetFromComplex(5, {std::numeric_limits<double>::quiet_NaN(), 0});
        }
        for (const char* transpose : {"NO_TRANSPOSE", "ADJOINT"}) {
          for (bool lower : {true, false}) {
            ExpectMatchesReference(
                Module({"a = " + ShapeText(type, {1, n, n}) + " parameter(0)",
                        "b = " + ShapeText(type, b_dims) + " parameter(1)",
                        "ROOT x = " + ShapeText(type, b_dims) +
                            " triangular-solve(a, b), left_side=" +
                            (left ? "true" : "false") +
                            ", lower=" + (lower ? "true" : "false") +
                            ", unit_diagonal=false, transpose_a=" + transpose}),
                {a, b}, n, 256);
          }
        }
      }
    }
  }
}

TEST_F(CpuLinalgKernels, LuPivotsAndFactorsMatchTheReference) {
  for (ElementType type : kTypes) {
    for (int64_t n : kOrders) {
      const std::string t = ShapeText(type, {kBatch, n, n});
      const std::string pivots = ShapeText(PHAL_ELEMENT_TYPE_S32, {kBatch, n});
      ExpectMatchesReference(
          Module({"a = " + t + " parameter(0)",
                  "ROOT r = (" + t + ", " + pivots + ") lu(a)"}),
          {Square(type, kBatch, n, 7, false, 0.5)}, n, 256);
    }
    // Rectangular: more rows than columns and the other way round.
    for (const auto& [m, n] : {std::pair<int64_t, int64_t>{9, 4}, {4, 9}}) {
      const std::string t = ShapeText(type, {kBatch, m, n});
      const std::string pivots =
          ShapeText(PHAL_ELEMENT_TYPE_S32, {kBatch, std::min(m, n)});
      ExpectMatchesReference(
          Module({"a = " + t + " parameter(0)",
                  "ROOT r = (" + t + ", " + pivots + ") lu(a)"}),
          {Random(type, {kBatch, m, n}, 8)}, std::max(m, n), 256);
    }
  }
}

TEST_F(CpuLinalgKernels, QrAndHouseholderProductMatchTheReference) {
  for (ElementType type : kTypes) {
    for (const auto& [m, n] :
         {std::pair<int64_t, int64_t>{9, 5}, {33, 33}, {1, 1}}) {
      const std::string t = ShapeText(type, {kBatch, m, n});
      const std::string taus = ShapeText(type, {kBatch, std::min(m, n)});
      ExpectMatchesReference(
          Module({"a = " + t + " parameter(0)",
                  "qr = (" + t + ", " + taus + ") qr(a)",
                  "v = " + t + " get-tuple-element(qr), index=0",
                  "tau = " + taus + " get-tuple-element(qr), index=1",
                  "q = " + t + " householder-product(v, tau)",
                  "ROOT r = (" + t + ", " + taus + ", " + t +
                      ") tuple(v, tau, q)"}),
          {Random(type, {kBatch, m, n}, 9)}, m, 256);
    }
    // A wide QR: taus for its rows only.
    const std::string wide = ShapeText(type, {kBatch, 4, 9});
    const std::string taus = ShapeText(type, {kBatch, 4});
    ExpectMatchesReference(
        Module({"a = " + wide + " parameter(0)",
                "ROOT r = (" + wide + ", " + taus + ") qr(a)"}),
        {Random(type, {kBatch, 4, 9}, 10)}, 9, 256);
  }
}

TEST_F(CpuLinalgKernels, EighOfEitherTriangleMatchesTheReference) {
  for (ElementType type : kTypes) {
    for (int64_t n : kOrders) {
      for (bool lower : {true, false}) {
        const std::string t = ShapeText(type, {kBatch, n, n});
        const std::string values = ShapeText(RealType(type), {kBatch, n});
        // Only the triangle named is read: the other holds other values.
        ExpectMatchesReference(
            Module({"a = " + t + " parameter(0)",
                    "ROOT r = (" + t + ", " + values +
                        ") eigh(a), lower=" + (lower ? "true" : "false")}),
            {Random(type, {kBatch, n, n}, 11)}, n, 4096);
      }
    }
  }
}

TEST_F(CpuLinalgKernels, SvdOfTallWideAndSquareMatricesMatchesTheReference) {
  for (ElementType type : kTypes) {
    for (const auto& [m, n] : {std::pair<int64_t, int64_t>{9, 5},
                               {5, 9},
                               {7, 7},
                               {33, 20},
                               {1, 3}}) {
      for (bool full : {true, false}) {
        const int64_t k = std::min(m, n);
        const std::string u = ShapeText(type, {kBatch, m, full ? m : k});
        const std::string s = ShapeText(RealType(type), {kBatch, k});
        const std::string vt = ShapeText(type, {kBatch, full ? n : k, n});
        ExpectMatchesReference(
            Module(
                {"a = " + ShapeText(type, {kBatch, m, n}) + " parameter(0)",
                 "ROOT r = (" + u + ", " + s + ", " + vt +
                     ") svd(a), full_matrices=" + (full ? "true" : "false")}),
            {Random(type, {kBatch, m, n}, 12)}, std::max(m, n), 4096);
      }
    }
  }
}

// A matrix that is not positive definite: the factor's columns from the
// failing pivot on are NaN, as in the reference.
TEST_F(CpuLinalgKernels,
       CholeskyOfAnIndefiniteMatrixHasNanColumnsFromThePivot) {
  for (ElementType type : kTypes) {
    const int64_t n = 6;
    Literal a = Square(type, kBatch, n, 13, true);
    a.SetFromComplex(3 * n + 3, {-50.0, 0.0});         // batch 0, pivot 3
    a.SetFromComplex(n * n + 0 * n + 0, {-1.0, 0.0});  // batch 1, pivot 0
    for (bool lower : {true, false}) {
      const std::string t = ShapeText(type, {kBatch, n, n});
      ExpectMatchesReference(Module({"a = " + t + " parameter(0)",
                                     "ROOT l = " + t + " cholesky(a), lower=" +
                                         (lower ? "true" : "false")}),
                             {a}, n, 64);
    }
  }
}

// LU of a singular matrix (a zero column: a zero pivot, nothing divided)
// and of a matrix holding a NaN: the same pivots and NaNs as the
// reference.
TEST_F(CpuLinalgKernels, LuOfSingularAndNanMatricesMatchesTheReference) {
  for (ElementType type : kTypes) {
    const int64_t n = 5;
    Literal a = Square(type, kBatch, n, 14, false);
    for (int64_t i = 0; i < n; ++i) a.SetFromComplex(i * n + 2, {0.0, 0.0});
    a.SetFromComplex(n * n + 3 * n + 1,
                     {std::numeric_limits<double>::quiet_NaN(), 0.0});
    const std::string t = ShapeText(type, {kBatch, n, n});
    const std::string pivots = ShapeText(PHAL_ELEMENT_TYPE_S32, {kBatch, n});
    ExpectMatchesReference(
        Module({"a = " + t + " parameter(0)",
                "ROOT r = (" + t + ", " + pivots + ") lu(a)"}),
        {a}, n, 256);
  }
}

TEST_F(CpuLinalgKernels, EmptyBatchesAndMatricesGiveEmptyResults) {
  for (ElementType type : kTypes) {
    for (const std::vector<int64_t>& dims :
         {std::vector<int64_t>{0, 4, 4}, std::vector<int64_t>{3, 0, 0}}) {
      const std::string t = ShapeText(type, dims);
      const std::vector<int64_t> vector_dims = {dims[0], dims[1]};
      const std::string values = ShapeText(RealType(type), vector_dims);
      const std::string pivots = ShapeText(PHAL_ELEMENT_TYPE_S32, vector_dims);
      const Literal a = Random(type, dims, 15);
      ExpectMatchesReference(
          Module({"a = " + t + " parameter(0)",
                  "l = " + t + " cholesky(a), lower=true",
                  "lu = (" + t + ", " + pivots + ") lu(a)",
                  "e = (" + t + ", " + values + ") eigh(a), lower=true",
                  "s = (" + t + ", " + values + ", " + t +
                      ") svd(a), "
                      "full_matrices=true",
                  "ROOT r = (" + t + ", (" + t + ", " + pivots + "), (" + t +
                      ", " + values + "), (" + t + ", " + values + ", " + t +
                      ")) tuple(l, lu, e, s)"}),
          {a}, 4, 64);
    }
  }
}

}  // namespace
}  // namespace phal::testing
