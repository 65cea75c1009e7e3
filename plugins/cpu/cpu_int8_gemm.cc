#include "plugins/cpu/cpu_int8_gemm.h"

#include "plugins/cpu/cpu_features.h"

#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace phal::cpu {
namespace {

// A micro-kernel's tile: kRows rows of the sums by kColumns columns (two
// vectors of 16 s32 lanes), summed over k four products at a time.
constexpr int64_t kRows = 8;
constexpr int64_t kColumns = 32;

// The operands as VPDPBUSD takes them: the left one as u8 (an s8 value
// plus 128, i.e. its bits with the top one flipped), the right one as s8
// (a u8 value minus 128). Then
//   sum a*b = sum a'*b' + shift_b * sum_p a' - shift_a * sum_p b'
//             - k * shift_a * shift_b
// for a' = a + shift_a and b' = b - shift_b, all modulo 2^32.
struct Operands {
  const llvm_emitter::GemmShape* shape;
  const uint8_t* lhs;
  const uint8_t* rhs;
  uint8_t lhs_flip;  // 0x80 where the left operand is s8
  uint8_t rhs_flip;  // 0x80 where the right operand is u8
  int64_t quads;     // k in groups of four, the last padded with zeros
  int64_t row_strips;
  int64_t column_strips;

  uint8_t Lhs(int64_t batch, int64_t row, int64_t p) const {
    const llvm_emitter::GemmShape& s = *shape;
    const int64_t at =
        batch * s.lhs_batch_stride +
        (s.lhs_transposed ? p * s.lhs_leading + row : row * s.lhs_leading + p);
    return lhs[at] ^ lhs_flip;
  }
  uint8_t Rhs(int64_t batch, int64_t p, int64_t column) const {
    const llvm_emitter::GemmShape& s = *shape;
    const int64_t at = batch * s.rhs_batch_stride +
                       (s.rhs_transposed ? column * s.rhs_leading + p
                                         : p * s.rhs_leading + column);
    return rhs[at] ^ rhs_flip;
  }
};

// Packs one strip of kRows rows of the left operand: per group of four k,
// each row's four bytes side by side (zeros past m and k), and the sums of
// the shifted rows.
void PackLhsStrip(const Operands& o, int64_t batch, int64_t strip, uint8_t* out,
                  uint32_t* row_sums) {
  const llvm_emitter::GemmShape& s = *o.shape;
  std::memset(out, 0, static_cast<size_t>(o.quads * kRows * 4));
  for (int64_t r = 0; r < kRows; ++r) {
    const int64_t row = strip * kRows + r;
    if (row >= s.m) break;
    uint32_t sum = 0;
    if (!s.lhs_transposed) {
      const uint8_t* source =
          o.lhs + batch * s.lhs_batch_stride + row * s.lhs_leading;
      const uint32_t flip = 0x01010101u * o.lhs_flip;
      const int64_t whole = s.k / 4;
      for (int64_t q = 0; q < whole; ++q) {
        uint32_t word;
        std::memcpy(&word, source + q * 4, sizeof(word));
        word ^= flip;
        std::memcpy(out + q * kRows * 4 + r * 4, &word, sizeof(word));
      }
      for (int64_t p = whole * 4; p < s.k; ++p) {
        out[whole * kRows * 4 + r * 4 + p % 4] = source[p] ^ o.lhs_flip;
      }
      for (int64_t p = 0; p < s.k; ++p) {
        sum += static_cast<uint8_t>(source[p] ^ o.lhs_flip);
      }
    } else {
      for (int64_t p = 0; p < s.k; ++p) {
        const uint8_t value = o.Lhs(batch, row, p);
        out[(p / 4) * kRows * 4 + r * 4 + p % 4] = value;
        sum += value;
      }
    }
    row_sums[row] = sum;
  }
}

// Packs one strip of kColumns columns of the right operand: per group of
// four k, each column's four bytes side by side (zeros past n and k), and
// the sums of the shifted columns.
void PackRhsStrip(const Operands& o, int64_t batch, int64_t strip, int8_t* out,
                  uint32_t* column_sums) {
  const llvm_emitter::GemmShape& s = *o.shape;
  const int64_t first = strip * kColumns;
  const int64_t width = std::min(kColumns, s.n - first);
  std::memset(out, 0, static_cast<size_t>(o.quads * kColumns * 4));
  uint32_t sums[kColumns] = {};
  int64_t p = 0;
#if defined(__x86_64__)
  if (!s.rhs_transposed && width == kColumns) {
    // Four rows of k at a time, interleaved bytewise into each column's
    // four bytes, sixteen columns per step.
    const __m128i flip = _mm_set1_epi8(static_cast<char>(o.rhs_flip));
    const uint8_t* base = o.rhs + batch * s.rhs_batch_stride + first;
    for (; p + 4 <= s.k; p += 4) {
      int8_t* quad = out + (p / 4) * kColumns * 4;
      for (int64_t half = 0; half < kColumns; half += 16) {
        __m128i row[4];
        for (int64_t i = 0; i < 4; ++i) {
          row[i] =
              _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                base + (p + i) * s.rhs_leading + half)),
                            flip);
        }
        const __m128i low01 = _mm_unpacklo_epi8(row[0], row[1]);
        const __m128i high01 = _mm_unpackhi_epi8(row[0], row[1]);
        const __m128i low23 = _mm_unpacklo_epi8(row[2], row[3]);
        const __m128i high23 = _mm_unpackhi_epi8(row[2], row[3]);
        auto* target = reinterpret_cast<__m128i*>(quad + half * 4);
        _mm_storeu_si128(target + 0, _mm_unpacklo_epi16(low01, low23));
        _mm_storeu_si128(target + 1, _mm_unpackhi_epi16(low01, low23));
        _mm_storeu_si128(target + 2, _mm_unpacklo_epi16(high01, high23));
        _mm_storeu_si128(target + 3, _mm_unpackhi_epi16(high01, high23));
      }
      for (int64_t i = 0; i < 4; ++i) {
        const uint8_t* source = base + (p + i) * s.rhs_leading;
        for (int64_t c = 0; c < kColumns; ++c) {
          sums[c] += static_cast<uint32_t>(
              static_cast<int8_t>(source[c] ^ o.rhs_flip));
        }
      }
    }
  }
#endif
  if (s.rhs_transposed) {
    // Each column's k are contiguous: four bytes at a time.
    const uint32_t flip = 0x01010101u * o.rhs_flip;
    const int64_t whole = s.k / 4;
    for (int64_t c = 0; c < width; ++c) {
      const uint8_t* source =
          o.rhs + batch * s.rhs_batch_stride + (first + c) * s.rhs_leading;
      for (int64_t q = 0; q < whole; ++q) {
        uint32_t word;
        std::memcpy(&word, source + q * 4, sizeof(word));
        word ^= flip;
        std::memcpy(out + q * kColumns * 4 + c * 4, &word, sizeof(word));
      }
      for (int64_t i = 0; i < whole * 4; ++i) {
        sums[c] +=
            static_cast<uint32_t>(static_cast<int8_t>(source[i] ^ o.rhs_flip));
      }
    }
    p = whole * 4;
  }
  for (; p < s.k; ++p) {
    int8_t* quad = out + (p / 4) * kColumns * 4 + p % 4;
    for (int64_t c = 0; c < width; ++c) {
      const auto value = static_cast<int8_t>(o.Rhs(batch, p, first + c));
      quad[c * 4] = value;
      sums[c] += static_cast<uint32_t>(value);
    }
  }
  for (int64_t c = 0; c < width; ++c) {
    column_sums[first + c] = sums[c];
  }
}

#if defined(__x86_64__)
// tile[kRows][kColumns] = the sums over `quads` groups of four k of a
// packed left strip by a packed right strip.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void MultiplyStrips(
    const uint8_t* lhs, const int8_t* rhs, int64_t quads, int32_t* tile) {
  __m512i sums[kRows][2];
  for (auto& row : sums) row[0] = row[1] = _mm512_setzero_si512();
  for (int64_t q = 0; q < quads; ++q) {
    const __m512i right0 = _mm512_loadu_si512(rhs + q * kColumns * 4);
    const __m512i right1 = _mm512_loadu_si512(rhs + q * kColumns * 4 + 64);
#pragma GCC unroll 8
    for (int64_t r = 0; r < kRows; ++r) {
      int32_t word;
      std::memcpy(&word, lhs + q * kRows * 4 + r * 4, sizeof(word));
      const __m512i left = _mm512_set1_epi32(word);
      sums[r][0] = _mm512_dpbusd_epi32(sums[r][0], left, right0);
      sums[r][1] = _mm512_dpbusd_epi32(sums[r][1], left, right1);
    }
  }
  for (int64_t r = 0; r < kRows; ++r) {
    _mm512_storeu_si512(tile + r * kColumns, sums[r][0]);
    _mm512_storeu_si512(tile + r * kColumns + 16, sums[r][1]);
  }
}
#else
void MultiplyStrips(const uint8_t*, const int8_t*, int64_t, int32_t*) {}
#endif

}  // namespace

bool HasInt8GemmFeatures(const std::string& features) {
#if defined(__x86_64__)
  return HasIsaFeature(features, "avx512f") &&
         HasIsaFeature(features, "avx512bw") &&
         HasIsaFeature(features, "avx512vnni");
#else
  (void)features;
  return false;
#endif
}

void RunInt8Gemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                 int32_t* sums, ThreadPool& pool) {
  Operands o;
  o.shape = &shape;
  o.lhs = static_cast<const uint8_t*>(buffers[shape.lhs]);
  o.rhs = static_cast<const uint8_t*>(buffers[shape.rhs]);
  const bool lhs_signed = shape.lhs_type == PHAL_ELEMENT_TYPE_S8;
  const bool rhs_unsigned = shape.rhs_type == PHAL_ELEMENT_TYPE_U8;
  o.lhs_flip = lhs_signed ? 0x80 : 0;
  o.rhs_flip = rhs_unsigned ? 0x80 : 0;
  o.quads = (shape.k + 3) / 4;
  o.row_strips = (shape.m + kRows - 1) / kRows;
  o.column_strips = (shape.n + kColumns - 1) / kColumns;
  const int64_t lhs_strip_bytes = o.quads * kRows * 4;
  const int64_t rhs_strip_bytes = o.quads * kColumns * 4;
  const int64_t lhs_strips = shape.batch * o.row_strips;
  const int64_t rhs_strips = shape.batch * o.column_strips;
  // The packed operands stay with the calling thread between GEMMs.
  thread_local std::vector<uint8_t> packed_lhs;
  thread_local std::vector<int8_t> packed_rhs;
  thread_local std::vector<uint32_t> row_sums, column_sums;
  packed_lhs.resize(static_cast<size_t>(lhs_strips * lhs_strip_bytes));
  packed_rhs.resize(static_cast<size_t>(rhs_strips * rhs_strip_bytes));
  row_sums.resize(static_cast<size_t>(shape.batch * shape.m));
  column_sums.resize(static_cast<size_t>(shape.batch * shape.n));
  uint8_t* lhs_data = packed_lhs.data();
  int8_t* rhs_data = packed_rhs.data();
  uint32_t* row_sum_data = row_sums.data();
  uint32_t* column_sum_data = column_sums.data();
  pool.ParallelFor(lhs_strips + rhs_strips, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      if (t < lhs_strips) {
        const int64_t batch = t / o.row_strips;
        PackLhsStrip(o, batch, t % o.row_strips, lhs_data + t * lhs_strip_bytes,
                     row_sum_data + batch * shape.m);
      } else {
        const int64_t u = t - lhs_strips;
        const int64_t batch = u / o.column_strips;
        PackRhsStrip(o, batch, u % o.column_strips,
                     rhs_data + u * rhs_strip_bytes,
                     column_sum_data + batch * shape.n);
      }
    }
  });
  const uint32_t lhs_shift = lhs_signed ? 128 : 0;
  const uint32_t rhs_shift = rhs_unsigned ? 128 : 0;
  const uint32_t both = static_cast<uint32_t>(shape.k) * lhs_shift * rhs_shift;
  // Consecutive tiles share their right strip, which stays in cache while
  // a thread runs along the left ones.
  const int64_t tiles = shape.batch * o.column_strips * o.row_strips;
  pool.ParallelFor(tiles, 1, [&](int64_t begin, int64_t end) {
    alignas(64) int32_t tile[kRows * kColumns];
    for (int64_t t = begin; t < end; ++t) {
      const int64_t row_strip = t % o.row_strips;
      const int64_t column_strip = (t / o.row_strips) % o.column_strips;
      const int64_t batch = t / (o.row_strips * o.column_strips);
      MultiplyStrips(
          lhs_data + (batch * o.row_strips + row_strip) * lhs_strip_bytes,
          rhs_data + (batch * o.column_strips + column_strip) * rhs_strip_bytes,
          o.quads, tile);
      const int64_t first_row = row_strip * kRows;
      const int64_t first_column = column_strip * kColumns;
      const int64_t rows = std::min(kRows, shape.m - first_row);
      const int64_t columns = std::min(kColumns, shape.n - first_column);
      const uint32_t* row_sum = row_sum_data + batch * shape.m + first_row;
      const uint32_t* column_sum =
          column_sum_data + batch * shape.n + first_column;
      for (int64_t r = 0; r < rows; ++r) {
        const uint32_t row_term = rhs_shift * row_sum[r] - both;
        auto* out = reinterpret_cast<uint32_t*>(
            sums + (batch * shape.m + first_row + r) * shape.n + first_column);
        for (int64_t c = 0; c < columns; ++c) {
          out[c] = static_cast<uint32_t>(tile[r * kColumns + c]) + row_term -
                   lhs_shift * column_sum[c];
        }
      }
    }
  });
}

}  // namespace phal::cpu
