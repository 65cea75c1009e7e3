// The AVX-512 BF16 GEMM against sums of the same bf16 products in double:
// both operand layouts, ragged m, n and odd k, batches with padded leading
// dimensions and batch strides, an empty depth, and infinities and NaN,
// which reach exactly the sums they enter. Within f32 accumulation's bound
// (k + 2 roundings of the sum of the products' magnitudes). Skipped on a
// processor without AVX-512 BF16; the kernels that call it are also tested
// against the reference interpreter by the conformance suite.
#include "plugins/cpu/cpu_bf16_gemm.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace phal::cpu {
namespace {

bool ProcessorHasBf16() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512bf16");
#else
  return false;
#endif
}

float Bf16Value(uint16_t bits) {
  const uint32_t word = uint32_t{bits} << 16;
  float value;
  std::memcpy(&value, &word, sizeof(value));
  return value;
}

uint16_t Bf16Bits(float value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof(word));
  return static_cast<uint16_t>(word >> 16);
}

struct Case {
  bool lhs_transposed;
  bool rhs_transposed;
  int64_t batch, m, n, k;
  // Extra elements past each row of the operands as stored, and between
  // their batches.
  int64_t padding;
};

std::string Describe(const Case& c) {
  return std::string("bf16") + (c.lhs_transposed ? "^T" : "") + " x bf16" +
         (c.rhs_transposed ? "^T" : "") + " " + std::to_string(c.batch) + "x" +
         std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + " padding " + std::to_string(c.padding);
}

class Bf16GemmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ProcessorHasBf16()) {
      GTEST_SKIP() << "this processor has no AVX-512 BF16; the plugin widens "
                      "bf16 operands to f32 GEMMs instead";
    }
  }

  // Runs the GEMM on random operands, with `special` (if not 0) written
  // at lhs[0][row 0][p 0]; checks every sum.
  void Check(const Case& c, float special = 0) {
    SCOPED_TRACE(Describe(c));
    llvm_emitter::GemmShape shape;
    shape.type = PHAL_ELEMENT_TYPE_F32;
    shape.lhs_type = shape.rhs_type = PHAL_ELEMENT_TYPE_BF16;
    shape.lhs = 0;
    shape.rhs = 1;
    shape.lhs_transposed = c.lhs_transposed;
    shape.rhs_transposed = c.rhs_transposed;
    shape.batch = c.batch;
    shape.m = c.m;
    shape.n = c.n;
    shape.k = c.k;
    shape.lhs_leading = (c.lhs_transposed ? c.m : c.k) + c.padding;
    shape.rhs_leading = (c.rhs_transposed ? c.k : c.n) + c.padding;
    shape.lhs_batch_stride =
        (c.lhs_transposed ? c.k : c.m) * shape.lhs_leading + c.padding;
    shape.rhs_batch_stride =
        (c.rhs_transposed ? c.n : c.k) * shape.rhs_leading + c.padding;
    std::vector<uint16_t> lhs(
        static_cast<size_t>(c.batch * shape.lhs_batch_stride));
    std::vector<uint16_t> rhs(
        static_cast<size_t>(c.batch * shape.rhs_batch_stride));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (uint16_t& bits : lhs) bits = Bf16Bits(normal(random_));
    for (uint16_t& bits : rhs) bits = Bf16Bits(normal(random_));
    if (special != 0 && c.m > 0 && c.k > 0) lhs[0] = Bf16Bits(special);
    std::vector<float> sums(static_cast<size_t>(c.batch * c.m * c.n), 12345);
    void* buffers[] = {lhs.data(), rhs.data()};
    RunBf16Gemm(shape, buffers, sums.data(), pool_);
    int64_t wrong = 0;
    for (int64_t b = 0; b < c.batch; ++b) {
      for (int64_t i = 0; i < c.m; ++i) {
        for (int64_t j = 0; j < c.n; ++j) {
          double exact = 0;
          double magnitude = 0;
          for (int64_t p = 0; p < c.k; ++p) {
            const int64_t a = b * shape.lhs_batch_stride +
                              (c.lhs_transposed ? p * shape.lhs_leading + i
                                                : i * shape.lhs_leading + p);
            const int64_t r = b * shape.rhs_batch_stride +
                              (c.rhs_transposed ? j * shape.rhs_leading + p
                                                : p * shape.rhs_leading + j);
            const double product =
                static_cast<double>(Bf16Value(lhs[static_cast<size_t>(a)])) *
                Bf16Value(rhs[static_cast<size_t>(r)]);
            exact += product;
            magnitude += std::fabs(product);
          }
          const float got = sums[static_cast<size_t>((b * c.m + i) * c.n + j)];
          const double bound =
              static_cast<double>(c.k + 2) * std::ldexp(magnitude, -24) + 1e-30;
          const bool right =
              std::isnan(exact) ? std::isnan(got)
              : std::isinf(exact)
                  ? got == static_cast<float>(exact)
                  : std::fabs(static_cast<double>(got) - exact) <= bound;
          if (!right && ++wrong <= 3) {
            ADD_FAILURE() << "sum [" << b << "," << i << "," << j << "] is "
                          << got << ", expected " << exact << " within "
                          << bound;
          }
        }
      }
    }
    EXPECT_EQ(wrong, 0);
  }

  ThreadPool pool_{2};
  std::mt19937 random_{11};
};

TEST(Bf16GemmFeatures, NeedAvx512BwAndBf16) {
  EXPECT_TRUE(HasBf16GemmFeatures("sse2 avx2 avx512f avx512bw avx512bf16"));
  EXPECT_FALSE(HasBf16GemmFeatures("avx2 avx512f avx512bw avx512vnni"));
  EXPECT_FALSE(HasBf16GemmFeatures("avx512f avx512bf16"));
  EXPECT_FALSE(HasBf16GemmFeatures("avx2 avxvnni"));
  EXPECT_FALSE(HasBf16GemmFeatures(""));
}

TEST_F(Bf16GemmTest, BothLayoutsOnRaggedShapes) {
  for (int layout = 0; layout < 4; ++layout) {
    for (const auto& [m, n, k] :
         {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1},
          {8, 32, 2},
          {9, 33, 5},
          {17, 70, 67},
          {40, 64, 130},
          {3, 96, 1031}}) {
      Check({(layout & 1) != 0, (layout & 2) != 0, 1, m, n, k, 0});
    }
  }
}

TEST_F(Bf16GemmTest, BatchesWithPaddedRowsAndStrides) {
  for (int layout = 0; layout < 4; ++layout) {
    Check({(layout & 1) != 0, (layout & 2) != 0, 3, 13, 45, 38, 5});
    Check({(layout & 1) != 0, (layout & 2) != 0, 2, 24, 96, 63, 3});
  }
}

TEST_F(Bf16GemmTest, InfinitiesAndNanReachTheirSums) {
  for (int layout = 0; layout < 4; ++layout) {
    const Case c = {(layout & 1) != 0, (layout & 2) != 0, 1, 9, 40, 7, 0};
    Check(c, std::numeric_limits<float>::infinity());
    Check(c, -std::numeric_limits<float>::infinity());
    Check(c, std::numeric_limits<float>::quiet_NaN());
  }
}

TEST_F(Bf16GemmTest, AnEmptyDepthGivesZeros) {
  Check({false, false, 2, 5, 7, 0, 0});
}

}  // namespace
}  // namespace phal::cpu
