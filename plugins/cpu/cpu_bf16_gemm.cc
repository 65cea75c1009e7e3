#include "plugins/cpu/cpu_bf16_gemm.h"

#include "plugins/cpu/cpu_features.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace phal::cpu {
namespace {

// A micro-kernel's tile: kRows rows of the sums by kColumns columns (two
// vectors of 16 f32 lanes), summed over k two products at a time.
constexpr int64_t kRows = 8;
constexpr int64_t kColumns = 32;

struct Operands {
  const llvm_emitter::GemmShape* shape;
  const uint16_t* lhs;
  const uint16_t* rhs;
  int64_t pairs;  // k in pairs, the last padded with a zero
  int64_t row_strips;
  int64_t column_strips;

  uint16_t Lhs(int64_t batch, int64_t row, int64_t p) const {
    const llvm_emitter::GemmShape& s = *shape;
    return lhs[batch * s.lhs_batch_stride + (s.lhs_transposed
                                                 ? p * s.lhs_leading + row
                                                 : row * s.lhs_leading + p)];
  }
  uint16_t Rhs(int64_t batch, int64_t p, int64_t column) const {
    const llvm_emitter::GemmShape& s = *shape;
    return rhs[batch * s.rhs_batch_stride + (s.rhs_transposed
                                                 ? column * s.rhs_leading + p
                                                 : p * s.rhs_leading + column)];
  }
};

// Packs one strip of kRows rows of the left operand: per pair of k, each
// row's two elements side by side (zeros past m and k).
void PackLhsStrip(const Operands& o, int64_t batch, int64_t strip,
                  uint16_t* out) {
  const llvm_emitter::GemmShape& s = *o.shape;
  std::memset(out, 0, static_cast<size_t>(o.pairs * kRows * 2) * 2);
  for (int64_t r = 0; r < kRows; ++r) {
    const int64_t row = strip * kRows + r;
    if (row >= s.m) break;
    if (!s.lhs_transposed) {
      const uint16_t* source =
          o.lhs + batch * s.lhs_batch_stride + row * s.lhs_leading;
      const int64_t whole = s.k / 2;
      for (int64_t q = 0; q < whole; ++q) {
        std::memcpy(out + (q * kRows + r) * 2, source + q * 2, 4);
      }
      if (s.k % 2 != 0) out[(whole * kRows + r) * 2] = source[s.k - 1];
    } else {
      for (int64_t p = 0; p < s.k; ++p) {
        out[((p / 2) * kRows + r) * 2 + p % 2] = o.Lhs(batch, row, p);
      }
    }
  }
}

// Packs one strip of kColumns columns of the right operand: per pair of k,
// each column's two elements side by side (zeros past n and k).
void PackRhsStrip(const Operands& o, int64_t batch, int64_t strip,
                  uint16_t* out) {
  const llvm_emitter::GemmShape& s = *o.shape;
  const int64_t first = strip * kColumns;
  const int64_t width = std::min(kColumns, s.n - first);
  std::memset(out, 0, static_cast<size_t>(o.pairs * kColumns * 2) * 2);
  int64_t p = 0;
  if (!s.rhs_transposed) {
    const uint16_t* base = o.rhs + batch * s.rhs_batch_stride + first;
#if defined(__x86_64__)
    if (width == kColumns) {
      // Two rows of k at a time, interleaved into each column's pair,
      // eight columns per step.
      for (; p + 2 <= s.k; p += 2) {
        uint16_t* pair = out + (p / 2) * kColumns * 2;
        const uint16_t* row0 = base + p * s.rhs_leading;
        const uint16_t* row1 = row0 + s.rhs_leading;
        for (int64_t c = 0; c < kColumns; c += 8) {
          const __m128i a =
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(row0 + c));
          const __m128i b =
              _mm_loadu_si128(reinterpret_cast<const __m128i*>(row1 + c));
          auto* target = reinterpret_cast<__m128i*>(pair + c * 2);
          _mm_storeu_si128(target, _mm_unpacklo_epi16(a, b));
          _mm_storeu_si128(target + 1, _mm_unpackhi_epi16(a, b));
        }
      }
    }
#endif
  } else {
    // Each column's k are contiguous: a pair is one 32-bit word.
    const int64_t whole = s.k / 2;
    for (int64_t c = 0; c < width; ++c) {
      const uint16_t* source =
          o.rhs + batch * s.rhs_batch_stride + (first + c) * s.rhs_leading;
      for (int64_t q = 0; q < whole; ++q) {
        std::memcpy(out + (q * kColumns + c) * 2, source + q * 2, 4);
      }
    }
    p = whole * 2;
  }
  for (; p < s.k; ++p) {
    uint16_t* pair = out + (p / 2) * kColumns * 2 + p % 2;
    for (int64_t c = 0; c < width; ++c) {
      pair[c * 2] = o.Rhs(batch, p, first + c);
    }
  }
}

#if defined(__x86_64__)
// tile[kRows][kColumns] = the sums over `pairs` pairs of k of a packed
// left strip by a packed right strip.
__attribute__((target("avx512f,avx512bw,avx512bf16"))) void MultiplyStrips(
    const uint16_t* lhs, const uint16_t* rhs, int64_t pairs, float* tile) {
  __m512 sums[kRows][2];
  for (auto& row : sums) row[0] = row[1] = _mm512_setzero_ps();
  for (int64_t q = 0; q < pairs; ++q) {
    const auto right0 =
        reinterpret_cast<__m512bh>(_mm512_loadu_si512(rhs + q * kColumns * 2));
    const auto right1 = reinterpret_cast<__m512bh>(
        _mm512_loadu_si512(rhs + q * kColumns * 2 + 32));
#pragma GCC unroll 8
    for (int64_t r = 0; r < kRows; ++r) {
      int32_t word;
      std::memcpy(&word, lhs + (q * kRows + r) * 2, sizeof(word));
      const auto left = reinterpret_cast<__m512bh>(_mm512_set1_epi32(word));
      sums[r][0] = _mm512_dpbf16_ps(sums[r][0], left, right0);
      sums[r][1] = _mm512_dpbf16_ps(sums[r][1], left, right1);
    }
  }
  for (int64_t r = 0; r < kRows; ++r) {
    _mm512_storeu_ps(tile + r * kColumns, sums[r][0]);
    _mm512_storeu_ps(tile + r * kColumns + 16, sums[r][1]);
  }
}
#else
void MultiplyStrips(const uint16_t*, const uint16_t*, int64_t, float*) {}
#endif

}  // namespace

bool HasBf16GemmFeatures(const std::string& features) {
#if defined(__x86_64__)
  return HasIsaFeature(features, "avx512f") &&
         HasIsaFeature(features, "avx512bw") &&
         HasIsaFeature(features, "avx512bf16");
#else
  (void)features;
  return false;
#endif
}

void RunBf16Gemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                 float* sums, ThreadPool& pool) {
  Operands o;
  o.shape = &shape;
  o.lhs = static_cast<const uint16_t*>(buffers[shape.lhs]);
  o.rhs = static_cast<const uint16_t*>(buffers[shape.rhs]);
  o.pairs = (shape.k + 1) / 2;
  o.row_strips = (shape.m + kRows - 1) / kRows;
  o.column_strips = (shape.n + kColumns - 1) / kColumns;
  const int64_t lhs_strip_elements = o.pairs * kRows * 2;
  const int64_t rhs_strip_elements = o.pairs * kColumns * 2;
  const int64_t lhs_strips = shape.batch * o.row_strips;
  const int64_t rhs_strips = shape.batch * o.column_strips;
  // The packed operands stay with the calling thread between GEMMs.
  thread_local std::vector<uint16_t> packed_lhs;
  thread_local std::vector<uint16_t> packed_rhs;
  packed_lhs.resize(static_cast<size_t>(lhs_strips * lhs_strip_elements));
  packed_rhs.resize(static_cast<size_t>(rhs_strips * rhs_strip_elements));
  uint16_t* lhs_data = packed_lhs.data();
  uint16_t* rhs_data = packed_rhs.data();
  pool.ParallelFor(lhs_strips + rhs_strips, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      if (t < lhs_strips) {
        PackLhsStrip(o, t / o.row_strips, t % o.row_strips,
                     lhs_data + t * lhs_strip_elements);
      } else {
        const int64_t u = t - lhs_strips;
        PackRhsStrip(o, u / o.column_strips, u % o.column_strips,
                     rhs_data + u * rhs_strip_elements);
      }
    }
  });
  // Consecutive tiles share their right strip, which stays in cache while
  // a thread runs along the left ones.
  const int64_t tiles = shape.batch * o.column_strips * o.row_strips;
  pool.ParallelFor(tiles, 1, [&](int64_t begin, int64_t end) {
    alignas(64) float tile[kRows * kColumns];
    for (int64_t t = begin; t < end; ++t) {
      const int64_t row_strip = t % o.row_strips;
      const int64_t column_strip = (t / o.row_strips) % o.column_strips;
      const int64_t batch = t / (o.row_strips * o.column_strips);
      MultiplyStrips(
          lhs_data + (batch * o.row_strips + row_strip) * lhs_strip_elements,
          rhs_data +
              (batch * o.column_strips + column_strip) * rhs_strip_elements,
          o.pairs, tile);
      const int64_t first_row = row_strip * kRows;
      const int64_t first_column = column_strip * kColumns;
      const int64_t rows = std::min(kRows, shape.m - first_row);
      const int64_t columns = std::min(kColumns, shape.n - first_column);
      for (int64_t r = 0; r < rows; ++r) {
        std::memcpy(
            sums + (batch * shape.m + first_row + r) * shape.n + first_column,
            tile + r * kColumns, sizeof(float) * static_cast<size_t>(columns));
      }
    }
  });
}

}  // namespace phal::cpu
