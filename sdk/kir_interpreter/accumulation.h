// What dot and convolution compute in, as the reference does: operands are
// first converted to the accumulation type (rounding once, as convert
// does), then loaded into a wide domain, multiplied and summed there, and
// the sum rounded once to the accumulation type. Domains are double (real
// floats), std::complex<double> (complex), uint64_t (integers, wrapping
// modulo 2^64; signed values sign-extended) and uint8_t for pred (0 or 1,
// where the sum is or and the product is and).
#ifndef POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
#define POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_

#include <cstdint>
#include <type_traits>

#include "sdk/kir_interpreter/convert.h"
#include "sdk/kir_interpreter/element_traits.h"

namespace phal::kir_interpreter {

template <typename Acc>
using Domain = std::conditional_t<
    kIsFloat<Acc>, double,
    std::conditional_t<kIsComplex<Acc>, Complex,
                       std::conditional_t<kIsPred<Acc>, uint8_t, uint64_t>>>;

template <typename Acc>
Domain<Acc> ToDomain(typename Acc::Value value) {
  if constexpr (kIsPred<Acc>) {
    return value ? 1 : 0;
  } else if constexpr (kIsInteger<Acc>) {
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  } else {
    return value;
  }
}

template <typename Acc>
typename Acc::Storage FromDomain(Domain<Acc> value) {
  if constexpr (kIsPred<Acc>) {
    return Acc::Store(value != 0);
  } else {
    return Acc::Store(static_cast<typename Acc::Value>(value));
  }
}

// accumulator + a * b in domain D (for pred, accumulator | (a & b)).
template <typename D>
D MultiplyAdd(D accumulator, D a, D b) {
  if constexpr (std::is_same_v<D, uint8_t>) {
    return static_cast<D>(accumulator | (a & b));
  } else {
    return accumulator + a * b;
  }
}

// out[i] = element offset_of(i) of the array at `base` (of element type
// `from`), converted to Acc and loaded into Acc's domain, for i < count.
template <typename Acc, typename OffsetOf>
void LoadIntoDomain(ElementType from, const uint8_t* base, int64_t count,
                    OffsetOf offset_of, Domain<Acc>* out) {
  DispatchElementType(from, [&](auto from_traits) {
    using From = decltype(from_traits);
    constexpr auto kSize = static_cast<int64_t>(sizeof(typename From::Storage));
    for (int64_t i = 0; i < count; ++i) {
      const typename Acc::Value converted = ConvertValue<From, Acc>(
          LoadUnaligned<From>(base + offset_of(i) * kSize));
      out[i] = ToDomain<Acc>(Acc::Load(Acc::Store(converted)));
    }
    return 0;
  });
}

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
