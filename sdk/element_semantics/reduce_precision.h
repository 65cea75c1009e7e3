// Reduce-precision as XLA does it on the bits of the operand's type: round
// the mantissa to nearest even, then values whose exponent does not fit
// become infinities (overflow) or signed zeros (underflow, so results that
// would be subnormal in the reduced format flush to zero). NaN stays NaN,
// except with no mantissa bits where it becomes +infinity.
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_REDUCE_PRECISION_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_REDUCE_PRECISION_H_

#include <cmath>
#include <cstring>
#include <type_traits>

#include "sdk/element_semantics/element_traits.h"

namespace phal::element_semantics {

template <typename Storage, typename Uint>
Storage ReducePrecisionBits(Storage input, int total_bits, int mantissa_bits,
                            int target_exponent_bits, int target_mantissa_bits,
                            bool is_nan) {
  const int exponent_bits = total_bits - 1 - mantissa_bits;
  Uint bits;
  std::memcpy(&bits, &input, sizeof(bits));
  if (target_mantissa_bits < mantissa_bits) {
    const int dropped = mantissa_bits - target_mantissa_bits;
    const Uint last_kept_bit = Uint{1} << dropped;
    const Uint base_bias = (last_kept_bit >> 1) - 1;
    const Uint bias =
        static_cast<Uint>(((bits & last_kept_bit) >> dropped) + base_bias);
    bits = static_cast<Uint>((bits + bias) & ~(last_kept_bit - 1));
  }
  const Uint sign = bits & (Uint{1} << (total_bits - 1));
  const Uint exponent_mask =
      static_cast<Uint>(((Uint{1} << exponent_bits) - 1) << mantissa_bits);
  if (target_exponent_bits < exponent_bits) {
    const Uint bias = (Uint{1} << (exponent_bits - 1)) - 1;
    const Uint target_bias = (Uint{1} << (target_exponent_bits - 1)) - 1;
    const Uint exponent = bits & exponent_mask;
    if (exponent > ((bias + target_bias) << mantissa_bits)) {
      bits = sign | exponent_mask;
    } else if (exponent <= ((bias - target_bias) << mantissa_bits)) {
      bits = sign;
    }
  }
  if (is_nan) {
    if (target_mantissa_bits > 0) return input;
    bits = exponent_mask;
  }
  Storage output;
  std::memcpy(&output, &bits, sizeof(bits));
  return output;
}

// One stored element of the real floating type T reduced to
// `exponent_bits` (at least 1) and `mantissa_bits` (at least 0).
template <typename T>
typename T::Storage ReducePrecision(typename T::Storage x, int exponent_bits,
                                    int mantissa_bits) {
  using Storage = typename T::Storage;
  using Uint = std::make_unsigned_t<typename T::Bits>;
  constexpr int kTotalBits = static_cast<int>(sizeof(Storage) * 8);
  return ReducePrecisionBits<Storage, Uint>(x, kTotalBits, T::kMantissaBits,
                                            exponent_bits, mantissa_bits,
                                            std::isnan(T::Load(x)));
}

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_REDUCE_PRECISION_H_
