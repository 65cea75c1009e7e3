#include "sdk/emitters/llvm/runtime_functions.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <numeric>
#include <vector>

#include "sdk/base/float16.h"
#include "sdk/emitters/llvm/math/math_library.h"

namespace {

using Complex = std::complex<double>;

// XLA's reduce-precision on the raw bits of a float with `mantissa_bits`
// stored mantissa bits and `total_bits` bits in all.
template <typename Bits>
Bits ReducePrecisionBits(Bits bits, int total_bits, int mantissa_bits,
                         int target_exponent_bits, int target_mantissa_bits) {
  const int exponent_bits = total_bits - 1 - mantissa_bits;
  const Bits sign_mask = Bits{1} << (total_bits - 1);
  const Bits exponent_mask =
      static_cast<Bits>(((Bits{1} << exponent_bits) - 1) << mantissa_bits);
  const Bits mantissa_mask = (Bits{1} << mantissa_bits) - 1;
  const bool is_nan =
      (bits & exponent_mask) == exponent_mask && (bits & mantissa_mask) != 0;
  Bits result = bits;
  if (target_mantissa_bits < mantissa_bits) {
    // Round to nearest even at the last kept bit, then drop the rest.
    const int dropped = mantissa_bits - target_mantissa_bits;
    const Bits last_kept_bit = Bits{1} << dropped;
    const Bits base_bias = (last_kept_bit >> 1) - 1;
    const Bits bias =
        static_cast<Bits>(((result & last_kept_bit) >> dropped) + base_bias);
    result = static_cast<Bits>((result + bias) & ~(last_kept_bit - 1));
  }
  const Bits sign = bits & sign_mask;
  if (target_exponent_bits < exponent_bits) {
    const Bits bias = (Bits{1} << (exponent_bits - 1)) - 1;
    const Bits target_bias = (Bits{1} << (target_exponent_bits - 1)) - 1;
    const Bits exponent = result & exponent_mask;
    if (exponent > ((bias + target_bias) << mantissa_bits)) {
      result = sign | exponent_mask;  // overflow: infinity
    } else if (exponent <= ((bias - target_bias) << mantissa_bits)) {
      result = sign;  // underflow: zero
    }
  }
  if (is_nan) {
    // A NaN stays a NaN; with no mantissa bit left it keeps the input.
    return target_mantissa_bits > 0 ? bits : (sign | exponent_mask);
  }
  return result;
}

template <typename Function>
void ComplexUnary(double real, double imag, double* out, Function function) {
  const Complex result = function(Complex(real, imag));
  out[0] = result.real();
  out[1] = result.imag();
}

// Every operand of a SORT's slice starting at `base` permuted into its
// outputs: element j of each output is element order[j] of its operand,
// through `staging`, so outputs may be the operands themselves.
void PermuteSlice(void* const* buffers, const int64_t* description,
                  int64_t base, const std::vector<int64_t>& order,
                  std::vector<unsigned char>* staging) {
  const int64_t count = description[0];
  const int64_t inner = description[3];
  const int64_t* element_bytes = description + 4;
  const int64_t* operands = element_bytes + count;
  const int64_t* outputs = operands + count;
  for (int64_t i = 0; i < count; ++i) {
    const auto size = static_cast<size_t>(element_bytes[i]);
    const auto* source =
        static_cast<const unsigned char*>(buffers[operands[i]]);
    auto* destination = static_cast<unsigned char*>(buffers[outputs[i]]);
    staging->resize(size * order.size());
    if (size == 4 || size == 8) {
      // The common widths copied as words: a fixed-size memcpy is one load.
      const auto gather = [&](auto word) {
        using Word = decltype(word);
        for (size_t j = 0; j < order.size(); ++j) {
          Word value;
          std::memcpy(&value, source + (base + order[j] * inner) * sizeof(Word),
                      sizeof(Word));
          std::memcpy(staging->data() + j * sizeof(Word), &value, sizeof(Word));
        }
      };
      if (size == 4) {
        gather(uint32_t{});
      } else {
        gather(uint64_t{});
      }
    } else {
      for (size_t j = 0; j < order.size(); ++j) {
        std::memcpy(
            staging->data() + j * size,
            source + (base + order[j] * inner) * static_cast<int64_t>(size),
            size);
      }
    }
    if (inner == 1) {
      std::memcpy(destination + base * static_cast<int64_t>(size),
                  staging->data(), size * order.size());
    } else {
      for (size_t j = 0; j < order.size(); ++j) {
        std::memcpy(destination + (base + static_cast<int64_t>(j) * inner) *
                                      static_cast<int64_t>(size),
                    staging->data() + j * size, size);
      }
    }
  }
}

// A slice's sort entry: its key, and its index along the sorted dimension.
struct SortEntry {
  uint64_t key;
  int64_t index;
};

// Shorter slices sort by comparisons; longer ones by radix.
constexpr size_t kRadixSortMinimum = 64;

// Sorts `entries`, which are in index order, by key, ties in index order:
// by comparisons when short, else a least-significant-digit radix sort by
// bytes of the key's low `key_bytes` bytes, which is stable and skips the
// bytes all keys share (the exponent bytes of values of similar
// magnitude, the high bytes of small integers).
void SortEntries(std::vector<SortEntry>& entries,
                 std::vector<SortEntry>& scratch, int key_bytes) {
  const size_t n = entries.size();
  if (n < kRadixSortMinimum) {
    std::sort(entries.begin(), entries.end(),
              [](const SortEntry& a, const SortEntry& b) {
                return a.key != b.key ? a.key < b.key : a.index < b.index;
              });
    return;
  }
  uint32_t counts[8][256];
  std::memset(counts, 0, sizeof(counts[0]) * static_cast<size_t>(key_bytes));
  for (const SortEntry& entry : entries) {
    for (int b = 0; b < key_bytes; ++b) {
      ++counts[b][(entry.key >> (8 * b)) & 0xFF];
    }
  }
  scratch.resize(n);
  SortEntry* from = entries.data();
  SortEntry* to = scratch.data();
  for (int b = 0; b < key_bytes; ++b) {
    uint32_t* count = counts[b];
    const uint64_t digit_of_first = (from[0].key >> (8 * b)) & 0xFF;
    if (count[digit_of_first] == n) continue;
    uint32_t offset = 0;
    for (int d = 0; d < 256; ++d) {
      const uint32_t c = count[d];
      count[d] = offset;
      offset += c;
    }
    for (size_t i = 0; i < n; ++i) {
      to[count[(from[i].key >> (8 * b)) & 0xFF]++] = from[i];
    }
    std::swap(from, to);
  }
  if (from != entries.data()) std::copy(from, from + n, entries.data());
}

}  // namespace

extern "C" {

float phal_rt_round_f32_to_f16(float value) {
  return phal::HalfToFloat(phal::FloatToHalf(value));
}
float phal_rt_round_f64_to_f16(double value) {
  return phal::HalfToFloat(phal::DoubleToHalf(value));
}
float phal_rt_round_f32_to_bf16(float value) {
  return phal::BFloat16ToFloat(phal::FloatToBFloat16(value));
}
float phal_rt_round_f64_to_bf16(double value) {
  return phal::BFloat16ToFloat(phal::DoubleToBFloat16(value));
}
uint16_t phal_rt_f16_bits(float value) { return phal::FloatToHalf(value); }
float phal_rt_f16_from_bits(uint16_t bits) { return phal::HalfToFloat(bits); }
uint16_t phal_rt_bf16_bits(float value) { return phal::FloatToBFloat16(value); }

float phal_rt_reduce_precision_f16(float value, int32_t exponent_bits,
                                   int32_t mantissa_bits) {
  const uint16_t bits = ReducePrecisionBits<uint16_t>(
      phal::FloatToHalf(value), 16, 10, exponent_bits, mantissa_bits);
  return phal::HalfToFloat(bits);
}
float phal_rt_reduce_precision_bf16(float value, int32_t exponent_bits,
                                    int32_t mantissa_bits) {
  const uint16_t bits = ReducePrecisionBits<uint16_t>(
      phal::FloatToBFloat16(value), 16, 7, exponent_bits, mantissa_bits);
  return phal::BFloat16ToFloat(bits);
}
float phal_rt_reduce_precision_f32(float value, int32_t exponent_bits,
                                   int32_t mantissa_bits) {
  return std::bit_cast<float>(ReducePrecisionBits<uint32_t>(
      std::bit_cast<uint32_t>(value), 32, 23, exponent_bits, mantissa_bits));
}
double phal_rt_reduce_precision_f64(double value, int32_t exponent_bits,
                                    int32_t mantissa_bits) {
  return std::bit_cast<double>(ReducePrecisionBits<uint64_t>(
      std::bit_cast<uint64_t>(value), 64, 52, exponent_bits, mantissa_bits));
}

double phal_rt_hypot(double x, double y) { return std::hypot(x, y); }

uint64_t phal_rt_power_u64(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  while (exponent != 0) {
    if ((exponent & 1) != 0) result *= base;
    base *= base;
    exponent >>= 1;
  }
  return result;
}

int64_t phal_rt_power_s64(int64_t base, int64_t exponent) {
  uint64_t magnitude = static_cast<uint64_t>(exponent);
  if (exponent < 0) {
    if (base != 1 && base != -1) return 0;
    magnitude = uint64_t{0} - magnitude;
  }
  return static_cast<int64_t>(
      phal_rt_power_u64(static_cast<uint64_t>(base), magnitude));
}

void phal_rt_complex_exp(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::exp(z); });
}
void phal_rt_complex_expm1(double real, double imag, double* out) {
  // exp(z) - 1 = expm1(x) cos(y) - 2 sin^2(y/2) + i exp(x) sin(y), exact
  // near zero where exp(z) - 1 would cancel.
  const double half_sin = std::sin(imag / 2);
  out[0] = std::expm1(real) * std::cos(imag) - 2 * half_sin * half_sin;
  out[1] = std::exp(real) * std::sin(imag);
}
void phal_rt_complex_log(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::log(z); });
}
void phal_rt_complex_log1p(double real, double imag, double* out) {
  // log|1 + z| through log1p of |1 + z|^2 - 1 = 2x + x^2 + y^2.
  out[0] = std::log1p(real * (2 + real) + imag * imag) / 2;
  out[1] = std::atan2(imag, 1 + real);
}
void phal_rt_complex_logistic(double real, double imag, double* out) {
  ComplexUnary(real, imag, out,
               [](Complex z) { return 1.0 / (1.0 + std::exp(-z)); });
}
void phal_rt_complex_sqrt(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::sqrt(z); });
}
void phal_rt_complex_rsqrt(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return 1.0 / std::sqrt(z); });
}
void phal_rt_complex_tanh(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::tanh(z); });
}
void phal_rt_complex_sin(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::sin(z); });
}
void phal_rt_complex_cos(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::cos(z); });
}
void phal_rt_complex_tan(double real, double imag, double* out) {
  ComplexUnary(real, imag, out, [](Complex z) { return std::tan(z); });
}
void phal_rt_complex_cbrt(double real, double imag, double* out) {
  // The principal cube root, as the reference computes it.
  ComplexUnary(real, imag, out, [](Complex z) { return std::pow(z, 1.0 / 3); });
}
void phal_rt_complex_divide(double a_real, double a_imag, double b_real,
                            double b_imag, double* out) {
  const Complex result = Complex(a_real, a_imag) / Complex(b_real, b_imag);
  out[0] = result.real();
  out[1] = result.imag();
}
void phal_rt_complex_power(double a_real, double a_imag, double b_real,
                           double b_imag, double* out) {
  const Complex result =
      std::pow(Complex(a_real, a_imag), Complex(b_real, b_imag));
  out[0] = result.real();
  out[1] = result.imag();
}
void phal_rt_complex_atan2(double a_real, double a_imag, double b_real,
                           double b_imag, double* out) {
  const Complex y(a_real, a_imag);
  const Complex x(b_real, b_imag);
  const Complex i(0, 1);
  const Complex result = -i * std::log((x + i * y) / std::sqrt(x * x + y * y));
  out[0] = result.real();
  out[1] = result.imag();
}

void phal_rt_sort(void* const* buffers, int64_t begin, int64_t end,
                  const int64_t* description,
                  bool (*compare)(void* const* buffers, int64_t base,
                                  int64_t stride, int64_t a, int64_t b)) {
  const bool stable = description[1] != 0;
  const int64_t length = description[2];
  const int64_t inner = description[3];
  // Each thread keeps its scratch between calls: a sort kernel runs as
  // many small chunks of slices.
  thread_local std::vector<int64_t> order;
  thread_local std::vector<unsigned char> staging;
  order.resize(static_cast<size_t>(length));
  for (int64_t slice = begin; slice < end; ++slice) {
    const int64_t base = (slice / inner) * length * inner + slice % inner;
    std::iota(order.begin(), order.end(), int64_t{0});
    auto before = [&](int64_t a, int64_t b) {
      return compare(buffers, base, inner, a, b);
    };
    if (stable) {
      std::stable_sort(order.begin(), order.end(), before);
    } else {
      std::sort(order.begin(), order.end(), before);
    }
    PermuteSlice(buffers, description, base, order, &staging);
  }
}

void phal_rt_sort_keyed(void* const* buffers, int64_t begin, int64_t end,
                        const int64_t* description) {
  const int64_t count = description[0];
  const int64_t length = description[2];
  const int64_t inner = description[3];
  const int64_t* operands = description + 4 + count;
  const int64_t key_count = operands[2 * count];
  const int64_t* keys = operands + 2 * count + 1;
  thread_local std::vector<SortEntry> entries, scratch;
  thread_local std::vector<int64_t> order;
  thread_local std::vector<unsigned char> staging;
  entries.resize(static_cast<size_t>(length));
  order.resize(static_cast<size_t>(length));
  for (int64_t slice = begin; slice < end; ++slice) {
    const int64_t base = (slice / inner) * length * inner + slice % inner;
    for (int64_t j = 0; j < length; ++j) {
      entries[static_cast<size_t>(j)] = {0, j};
    }
    for (int64_t k = 0; k < key_count; ++k) {
      const int64_t operand = keys[3 * k];
      const int64_t kind = keys[3 * k + 1];
      const uint32_t flip = keys[3 * k + 2] != 0 ? 0xFFFFFFFFu : 0u;
      const auto* values =
          static_cast<const uint32_t*>(buffers[operands[operand]]) + base;
      for (int64_t j = 0; j < length; ++j) {
        const uint32_t bits = values[j * inner];
        uint32_t key = bits;
        if (kind == phal::llvm_emitter::kSortKeyF32CanonicalTotalOrder) {
          const uint32_t magnitude = bits & 0x7FFFFFFFu;
          key = magnitude > 0x7F800000u ? 0x7FC00000u
                : magnitude == 0        ? 0u
                                        : bits;
        }
        if (kind == phal::llvm_emitter::kSortKeyF32TotalOrder ||
            kind == phal::llvm_emitter::kSortKeyF32CanonicalTotalOrder) {
          const uint32_t value = key;
          // Negative values (sign set) order by their complemented bits,
          // below every value with the sign clear.
          key = (value & 0x80000000u) != 0 ? ~value : value | 0x80000000u;
        } else if (kind == phal::llvm_emitter::kSortKeyS32) {
          key = bits ^ 0x80000000u;
        }
        SortEntry& entry = entries[static_cast<size_t>(j)];
        entry.key = (entry.key << 32) | (key ^ flip);
      }
    }
    SortEntries(entries, scratch, key_count >= 2 ? 8 : 4);
    for (size_t j = 0; j < entries.size(); ++j) order[j] = entries[j].index;
    PermuteSlice(buffers, description, base, order, &staging);
  }
}

}  // extern "C"

namespace phal::llvm_emitter {
namespace {

// C library functions LLVM lowers intrinsics and IR instructions to on some
// targets (frem becomes fmod, large copies become memcpy, ...).
using UnaryDouble = double (*)(double);
using UnaryFloat = float (*)(float);
using BinaryDouble = double (*)(double, double);
using BinaryFloat = float (*)(float, float);
using TernaryDouble = double (*)(double, double, double);
using TernaryFloat = float (*)(float, float, float);

#define PHAL_SYMBOL(function) \
  RuntimeSymbol { #function, reinterpret_cast < void*>(&function) }
#define PHAL_MATH_SYMBOLS(name) \
  PHAL_SYMBOL(phal_math_##name##_f32), PHAL_SYMBOL(phal_math_##name##_f64)
#define PHAL_CAST_SYMBOL(function, type)                                  \
  RuntimeSymbol {                                                         \
#function, reinterpret_cast < void*>(static_cast <type>(&::function)) \
  }

const RuntimeSymbol kRuntimeSymbols[] = {
    PHAL_MATH_SYMBOLS(exp),
    PHAL_MATH_SYMBOLS(expm1),
    PHAL_MATH_SYMBOLS(log),
    PHAL_MATH_SYMBOLS(log1p),
    PHAL_MATH_SYMBOLS(logistic),
    PHAL_MATH_SYMBOLS(tanh),
    PHAL_MATH_SYMBOLS(sin),
    PHAL_MATH_SYMBOLS(cos),
    PHAL_MATH_SYMBOLS(tan),
    PHAL_MATH_SYMBOLS(erf),
    PHAL_MATH_SYMBOLS(cbrt),
    PHAL_MATH_SYMBOLS(rsqrt),
    PHAL_MATH_SYMBOLS(atan2),
    PHAL_MATH_SYMBOLS(pow),
    PHAL_SYMBOL(phal_rt_round_f32_to_f16),
    PHAL_SYMBOL(phal_rt_round_f64_to_f16),
    PHAL_SYMBOL(phal_rt_round_f32_to_bf16),
    PHAL_SYMBOL(phal_rt_round_f64_to_bf16),
    PHAL_SYMBOL(phal_rt_f16_bits),
    PHAL_SYMBOL(phal_rt_f16_from_bits),
    PHAL_SYMBOL(phal_rt_bf16_bits),
    PHAL_SYMBOL(phal_rt_reduce_precision_f16),
    PHAL_SYMBOL(phal_rt_reduce_precision_bf16),
    PHAL_SYMBOL(phal_rt_reduce_precision_f32),
    PHAL_SYMBOL(phal_rt_reduce_precision_f64),
    PHAL_SYMBOL(phal_rt_power_s64),
    PHAL_SYMBOL(phal_rt_power_u64),
    PHAL_SYMBOL(phal_rt_hypot),
    PHAL_SYMBOL(phal_rt_complex_exp),
    PHAL_SYMBOL(phal_rt_complex_expm1),
    PHAL_SYMBOL(phal_rt_complex_log),
    PHAL_SYMBOL(phal_rt_complex_log1p),
    PHAL_SYMBOL(phal_rt_complex_logistic),
    PHAL_SYMBOL(phal_rt_complex_sqrt),
    PHAL_SYMBOL(phal_rt_complex_rsqrt),
    PHAL_SYMBOL(phal_rt_complex_tanh),
    PHAL_SYMBOL(phal_rt_complex_sin),
    PHAL_SYMBOL(phal_rt_complex_cos),
    PHAL_SYMBOL(phal_rt_complex_tan),
    PHAL_SYMBOL(phal_rt_complex_divide),
    PHAL_SYMBOL(phal_rt_complex_power),
    PHAL_SYMBOL(phal_rt_complex_atan2),
    PHAL_SYMBOL(phal_rt_complex_cbrt),
    PHAL_SYMBOL(phal_rt_sort),
    PHAL_SYMBOL(phal_rt_sort_keyed),
    PHAL_SYMBOL(memcpy),
    PHAL_SYMBOL(memmove),
    PHAL_SYMBOL(memset),
    PHAL_CAST_SYMBOL(fma, TernaryDouble),
    PHAL_CAST_SYMBOL(fmaf, TernaryFloat),
    PHAL_CAST_SYMBOL(fmod, BinaryDouble),
    PHAL_CAST_SYMBOL(fmodf, BinaryFloat),
    PHAL_CAST_SYMBOL(floor, UnaryDouble),
    PHAL_CAST_SYMBOL(floorf, UnaryFloat),
    PHAL_CAST_SYMBOL(ceil, UnaryDouble),
    PHAL_CAST_SYMBOL(ceilf, UnaryFloat),
    PHAL_CAST_SYMBOL(round, UnaryDouble),
    PHAL_CAST_SYMBOL(roundf, UnaryFloat),
    PHAL_CAST_SYMBOL(roundeven, UnaryDouble),
    PHAL_CAST_SYMBOL(roundevenf, UnaryFloat),
    PHAL_CAST_SYMBOL(sqrt, UnaryDouble),
    PHAL_CAST_SYMBOL(sqrtf, UnaryFloat),
};

#undef PHAL_CAST_SYMBOL
#undef PHAL_MATH_SYMBOLS
#undef PHAL_SYMBOL

}  // namespace

std::span<const RuntimeSymbol> RuntimeSymbols() { return kRuntimeSymbols; }

}  // namespace phal::llvm_emitter
