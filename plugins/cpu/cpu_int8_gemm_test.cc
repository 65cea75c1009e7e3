// The VNNI GEMM of s8 and u8 operands against direct s32 sums: every pair
// of operand types, both operand layouts, ragged m, n and k, batches with
// padded leading dimensions and batch strides, extreme values, and sums
// long enough to wrap modulo 2^32 as s32 accumulation does. Skipped on a
// processor without AVX-512 VNNI; the kernels that call it are also tested
// against the reference interpreter by the conformance suite.
#include "plugins/cpu/cpu_int8_gemm.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace phal::cpu {
namespace {

bool ProcessorHasVnni() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

struct Case {
  phal_element_type_t lhs_type;
  phal_element_type_t rhs_type;
  bool lhs_transposed;
  bool rhs_transposed;
  int64_t batch, m, n, k;
  // Extra elements past each row of the operands as stored, and between
  // their batches.
  int64_t padding;
  // 0: random bytes; 1: every byte the type's extreme.
  int values;
};

std::string Describe(const Case& c) {
  auto type = [](phal_element_type_t t) {
    return t == PHAL_ELEMENT_TYPE_S8 ? "s8" : "u8";
  };
  return std::string(type(c.lhs_type)) + (c.lhs_transposed ? "^T" : "") +
         " x " + type(c.rhs_type) + (c.rhs_transposed ? "^T" : "") + " " +
         std::to_string(c.batch) + "x" + std::to_string(c.m) + "x" +
         std::to_string(c.n) + "x" + std::to_string(c.k) + " padding " +
         std::to_string(c.padding) + " values " + std::to_string(c.values);
}

int32_t Element(const std::vector<uint8_t>& data, phal_element_type_t type,
                int64_t at) {
  return type == PHAL_ELEMENT_TYPE_S8 ? static_cast<int8_t>(data[at])
                                      : static_cast<int32_t>(data[at]);
}

void Check(const Case& c, std::mt19937& random, ThreadPool& pool) {
  SCOPED_TRACE(Describe(c));
  llvm_emitter::GemmShape shape;
  shape.type = PHAL_ELEMENT_TYPE_S32;
  shape.lhs_type = c.lhs_type;
  shape.rhs_type = c.rhs_type;
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
  std::vector<uint8_t> lhs(
      static_cast<size_t>(c.batch * shape.lhs_batch_stride));
  std::vector<uint8_t> rhs(
      static_cast<size_t>(c.batch * shape.rhs_batch_stride));
  auto fill = [&](std::vector<uint8_t>& data, phal_element_type_t type) {
    for (uint8_t& byte : data) {
      byte = c.values == 0                  ? static_cast<uint8_t>(random())
             : type == PHAL_ELEMENT_TYPE_S8 ? uint8_t{0x80}
                                            : uint8_t{0xFF};
    }
  };
  fill(lhs, c.lhs_type);
  fill(rhs, c.rhs_type);
  std::vector<int32_t> sums(static_cast<size_t>(c.batch * c.m * c.n), 12345);
  void* buffers[] = {lhs.data(), rhs.data()};
  RunInt8Gemm(shape, buffers, sums.data(), pool);
  int64_t wrong = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        uint32_t expected = 0;
        for (int64_t p = 0; p < c.k; ++p) {
          const int64_t a = b * shape.lhs_batch_stride +
                            (c.lhs_transposed ? p * shape.lhs_leading + i
                                              : i * shape.lhs_leading + p);
          const int64_t r = b * shape.rhs_batch_stride +
                            (c.rhs_transposed ? j * shape.rhs_leading + p
                                              : p * shape.rhs_leading + j);
          expected += static_cast<uint32_t>(Element(lhs, c.lhs_type, a) *
                                            Element(rhs, c.rhs_type, r));
        }
        const int32_t got = sums[static_cast<size_t>((b * c.m + i) * c.n + j)];
        if (got != static_cast<int32_t>(expected) && ++wrong <= 3) {
          ADD_FAILURE() << "sum [" << b << "," << i << "," << j << "] is "
                        << got << ", expected "
                        << static_cast<int32_t>(expected);
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

class Int8GemmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ProcessorHasVnni()) {
      GTEST_SKIP() << "this processor has no AVX-512 VNNI; the plugin sums "
                      "s8 and u8 dots in f32 GEMMs instead";
    }
  }
  ThreadPool pool_{2};
  std::mt19937 random_{7};
};

TEST(Int8GemmFeatures, NeedAvx512BwAndVnni) {
  EXPECT_TRUE(HasInt8GemmFeatures("sse2 avx2 avx512f avx512bw avx512vnni"));
  EXPECT_FALSE(HasInt8GemmFeatures("avx2 avx512f avx512bw"));
  EXPECT_FALSE(HasInt8GemmFeatures("avx512f avx512vnni"));
  EXPECT_FALSE(HasInt8GemmFeatures("avx2 avxvnni"));
  EXPECT_FALSE(HasInt8GemmFeatures(""));
}

TEST_F(Int8GemmTest, EveryOperandTypeAndLayoutOnRaggedShapes) {
  const phal_element_type_t types[] = {PHAL_ELEMENT_TYPE_S8,
                                       PHAL_ELEMENT_TYPE_U8};
  for (phal_element_type_t lhs_type : types) {
    for (phal_element_type_t rhs_type : types) {
      for (int layout = 0; layout < 4; ++layout) {
        for (const auto& [m, n, k] :
             {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1},
              {8, 32, 4},
              {9, 33, 5},
              {17, 70, 67},
              {40, 64, 130}}) {
          Check({lhs_type, rhs_type, (layout & 1) != 0, (layout & 2) != 0, 1, m,
                 n, k, 0, 0},
                random_, pool_);
        }
      }
    }
  }
}

TEST_F(Int8GemmTest, BatchesWithPaddedRowsAndStrides) {
  for (int layout = 0; layout < 4; ++layout) {
    Check({PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S8, (layout & 1) != 0,
           (layout & 2) != 0, 3, 13, 45, 38, 5, 0},
          random_, pool_);
    Check({PHAL_ELEMENT_TYPE_U8, PHAL_ELEMENT_TYPE_S8, (layout & 1) != 0,
           (layout & 2) != 0, 2, 24, 96, 64, 3, 0},
          random_, pool_);
  }
}

TEST_F(Int8GemmTest, ExtremeValuesAndSumsThatWrap) {
  // -128 * -128 over k = 2^17 + 3 is 2^31 + 3 * 2^14: past the s32 range,
  // so the sum wraps as an s32 accumulation does; 255 * 255 likewise.
  const phal_element_type_t types[] = {PHAL_ELEMENT_TYPE_S8,
                                       PHAL_ELEMENT_TYPE_U8};
  for (phal_element_type_t lhs_type : types) {
    for (phal_element_type_t rhs_type : types) {
      Check({lhs_type, rhs_type, false, false, 1, 2, 3, 8, 0, 1}, random_,
            pool_);
      Check({lhs_type, rhs_type, false, true, 1, 1, 2, (1 << 17) + 3, 0, 1},
            random_, pool_);
    }
  }
}

TEST_F(Int8GemmTest, AnEmptyDepthGivesZeros) {
  Check({PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_U8, false, false, 2, 5, 7, 0,
         0, 0},
        random_, pool_);
}

}  // namespace
}  // namespace phal::cpu
