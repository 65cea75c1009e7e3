// The matrix unit: matrix multiplication into an accumulator.
#include "simulator/asic_execution.h"

#include <cmath>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "sdk/base/float16.h"

namespace phal::asic_ref::simulation {
namespace {

float LoadAsFloat(phal_element_type_t type, const uint8_t* p) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_BF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return BFloat16ToFloat(bits);
    }
    case PHAL_ELEMENT_TYPE_F16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return HalfToFloat(bits);
    }
    default: {
      float value;
      std::memcpy(&value, p, 4);
      return value;
    }
  }
}

void ToFloats(phal_element_type_t type, const uint8_t* src, int64_t count,
              float* out) {
  const int64_t size = static_cast<int64_t>(SizeOf(type));
  if (type == PHAL_ELEMENT_TYPE_F32) {
    std::memcpy(out, src, static_cast<size_t>(count) * 4);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    out[i] = LoadAsFloat(type, src + i * size);
}

// acc[m x n] += a[m x k] * b[k x n]: for each output, the products in k
// order, each added with one rounding (a fused multiply-add). The loop runs
// along n, so independent outputs may share a vector instruction.
template <typename Fma>
inline void MatMulFloatLoop(const float* a, const float* b, float* acc,
                            int64_t m, int64_t k, int64_t n, Fma fma) {
  for (int64_t i = 0; i < m; ++i) {
    float* __restrict row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const float a_ik = a[i * k + kk];
      const float* __restrict b_row = b + kk * n;
      for (int64_t j = 0; j < n; ++j) row[j] = fma(a_ik, b_row[j], row[j]);
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same loop with eight outputs per AVX2 fused multiply-add, for
// processors that have them (the build's baseline target may not); each
// lane rounds exactly as the scalar fma does.
__attribute__((target("avx2,fma"))) void MatMulFloatFma(const float* a,
                                                        const float* b,
                                                        float* acc, int64_t m,
                                                        int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    float* row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const float a_ik = a[i * k + kk];
      const __m256 a_lanes = _mm256_set1_ps(a_ik);
      const float* b_row = b + kk * n;
      int64_t j = 0;
      for (; j + 8 <= n; j += 8) {
        const __m256 sum = _mm256_fmadd_ps(a_lanes, _mm256_loadu_ps(b_row + j),
                                           _mm256_loadu_ps(row + j));
        _mm256_storeu_ps(row + j, sum);
      }
      for (; j < n; ++j) row[j] = __builtin_fmaf(a_ik, b_row[j], row[j]);
    }
  }
}
#endif

void MatMulFloat(const float* a, const float* b, float* acc, int64_t m,
                 int64_t k, int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool kHasFma =
      __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (kHasFma) return MatMulFloatFma(a, b, acc, m, k, n);
#endif
  MatMulFloatLoop(a, b, acc, m, k, n,
                  [](float x, float y, float z) { return std::fma(x, y, z); });
}

// The accumulator never overlaps the inputs (it is scratch memory).
inline void MatMulS8Loop(const int8_t* a, const int8_t* b, uint32_t* acc,
                         int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    uint32_t* __restrict row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t a_ik = a[i * k + kk];
      const int8_t* __restrict b_row = b + kk * n;
      for (int64_t j = 0; j < n; ++j) {
        row[j] += static_cast<uint32_t>(a_ik * static_cast<int32_t>(b_row[j]));
      }
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Eight outputs per AVX2 instruction; 32-bit lanes wrap as the scalar loop's
// unsigned arithmetic does.
__attribute__((target("avx2"))) void MatMulS8Avx2(const int8_t* a,
                                                  const int8_t* b,
                                                  uint32_t* acc, int64_t m,
                                                  int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    uint32_t* row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t a_ik = a[i * k + kk];
      const __m256i a_lanes = _mm256_set1_epi32(a_ik);
      const int8_t* b_row = b + kk * n;
      int64_t j = 0;
      for (; j + 8 <= n; j += 8) {
        int64_t eight;
        std::memcpy(&eight, b_row + j, 8);
        const __m256i b_lanes = _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(eight));
        __m256i* out = reinterpret_cast<__m256i*>(row + j);
        _mm256_storeu_si256(
            out, _mm256_add_epi32(_mm256_loadu_si256(out),
                                  _mm256_mullo_epi32(a_lanes, b_lanes)));
      }
      for (; j < n; ++j) {
        row[j] += static_cast<uint32_t>(a_ik * static_cast<int32_t>(b_row[j]));
      }
    }
  }
}
#endif

// acc[m x n] += a[m x k] * b[k x n] in s32 arithmetic that wraps.
void MatMulS8(const int8_t* a, const int8_t* b, uint32_t* acc, int64_t m,
              int64_t k, int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool kHasAvx2 = __builtin_cpu_supports("avx2");
  if (kHasAvx2) return MatMulS8Avx2(a, b, acc, m, k, n);
#endif
  MatMulS8Loop(a, b, acc, m, k, n);
}

}  // namespace

Status Execution::MatMul(const Instruction& in) {
  uint64_t m = 0, k = 0, n = 0;
  PHAL_RETURN_IF_ERROR(Count(in.rm, "m", &m));
  PHAL_RETURN_IF_ERROR(Count(in.rk, "k", &k));
  PHAL_RETURN_IF_ERROR(Count(in.rn, "n", &n));
  const uint64_t limit = config_.sram_bytes;
  if (m > limit || k > limit || n > limit || (m * k) > limit ||
      (k * n) > limit || (m * n) > limit) {
    return OutOfRange("tile " + std::to_string(m) + "x" + std::to_string(k) +
                      "x" + std::to_string(n) + " exceeds SRAM");
  }
  const uint64_t base = x_[in.rb];
  const uint64_t d = base + in.offset[0];
  const uint64_t a = base + in.offset[1];
  const uint64_t b = base + in.offset[2];
  const uint64_t a_bytes = m * k * SizeOf(in.type);
  const uint64_t b_bytes = k * n * SizeOf(in.type2);
  const uint64_t d_bytes = m * n * 4;
  PHAL_RETURN_IF_ERROR(CheckSram(d, d_bytes, "accumulator"));
  PHAL_RETURN_IF_ERROR(CheckSram(a, a_bytes, "lhs"));
  PHAL_RETURN_IF_ERROR(CheckSram(b, b_bytes, "rhs"));
  const bool zero = (in.flags & kMatMulZeroFlag) != 0;
  Access accesses[4] = {{a, a + a_bytes, false},
                        {b, b + b_bytes, false},
                        {d, d + d_bytes, true},
                        {d, zero ? d : d + d_bytes, false}};
  if (d_bytes > 0) {
    uint8_t* acc = s_.Scratch(0, d_bytes);
    if (zero) {
      std::memset(acc, 0, d_bytes);
    } else {
      std::memcpy(acc, sram_ + d, d_bytes);
    }
    const auto mi = static_cast<int64_t>(m), ki = static_cast<int64_t>(k),
               ni = static_cast<int64_t>(n);
    if (in.type == PHAL_ELEMENT_TYPE_S8) {
      MatMulS8(reinterpret_cast<const int8_t*>(sram_ + a),
               reinterpret_cast<const int8_t*>(sram_ + b),
               reinterpret_cast<uint32_t*>(acc), mi, ki, ni);
    } else {
      auto* fa = reinterpret_cast<float*>(s_.Scratch(1, m * k * 4));
      auto* fb = reinterpret_cast<float*>(s_.Scratch(2, k * n * 4));
      ToFloats(in.type, sram_ + a, mi * ki, fa);
      ToFloats(in.type2, sram_ + b, ki * ni, fb);
      MatMulFloat(fa, fb, reinterpret_cast<float*>(acc), mi, ki, ni);
    }
    std::memcpy(sram_ + d, acc, d_bytes);
    MarkWritten(d + d_bytes);
  }
  counters_.macs += m * k * n;
  const uint64_t array = config_.array_size;
  const uint64_t cost =
      array + CeilDiv(k, array) * CeilDiv(n, array) * (m + array);
  Issue(Unit::kMatrix, cost, accesses, 4);
  return OkStatus();
}

}  // namespace phal::asic_ref::simulation
