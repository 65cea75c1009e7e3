// Loading whole arrays into a wide accumulation domain and storing them back
// rounded once: what dot, convolution and batch norm compute in. Domains are
// double (real floats), std::complex<double> (complex), uint64_t (integers,
// wrapping modulo 2^64; signed values are sign-extended) and PredDomain
// (pred: 0 or 1, where sum is or and product is and).
#ifndef POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
#define POLYHAL_CORE_REFERENCE_ACCUMULATION_H_

#include <complex>
#include <cstdint>
#include <vector>

#include "core/hlo/literal.h"
#include "core/reference/element_types.h"
#include "sdk/base/status.h"

namespace phal::reference {

// pred's domain: one byte holding 0 or 1 (std::vector<bool> has no data()).
using PredDomain = uint8_t;

// Converts every element of `literal` to domain D.
template <typename D>
Status LoadInto(const Literal& literal, std::vector<D>* out) {
  out->resize(static_cast<std::size_t>(literal.ElementCount()));
  return DispatchElementType(literal.element_type(), [&](auto traits) {
    using T = decltype(traits);
    const auto* in = literal.data_as<typename T::Storage>();
    for (std::size_t i = 0; i < out->size(); ++i) {
      const auto value = T::Load(in[i]);
      if constexpr (std::is_same_v<D, PredDomain>) {
        (*out)[i] = value != decltype(value){} ? 1 : 0;
      } else if constexpr (kIsComplex<T> &&
                           !std::is_same_v<D, std::complex<double>>) {
        (*out)[i] = static_cast<D>(value.real());
      } else if constexpr (std::is_same_v<D, uint64_t> && kIsFloat<T>) {
        (*out)[i] = static_cast<uint64_t>(static_cast<int64_t>(value));
      } else if constexpr (std::is_same_v<D, uint64_t> && kIsInteger<T>) {
        (*out)[i] = static_cast<uint64_t>(static_cast<int64_t>(value));
      } else {
        (*out)[i] = static_cast<D>(value);
      }
    }
    return OkStatus();
  });
}

// Stores domain values into `literal`, rounding (floats) or wrapping
// (integers) once.
template <typename D>
Status StoreFrom(const std::vector<D>& values, Literal* literal) {
  return DispatchElementType(literal->element_type(), [&](auto traits) {
    using T = decltype(traits);
    using V = typename T::Value;
    auto* out = literal->data_as<typename T::Storage>();
    for (std::size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<D, std::complex<double>> && !kIsComplex<T>) {
        out[i] = T::Store(static_cast<V>(values[i].real()));
      } else if constexpr (kIsPred<T>) {
        out[i] = T::Store(values[i] != D{});
      } else {
        out[i] = T::Store(static_cast<V>(values[i]));
      }
    }
    return OkStatus();
  });
}

// accumulator + a * b in domain D (or, for pred, accumulator | (a & b)).
template <typename D>
D MultiplyAdd(D accumulator, D a, D b) {
  if constexpr (std::is_same_v<D, PredDomain>) {
    return static_cast<D>(accumulator | (a & b));
  } else {
    return accumulator + a * b;
  }
}

// Calls fn(D{}) with D the accumulation domain of `type`.
template <typename Fn>
auto DispatchAccumulationDomain(ElementType type, Fn&& fn) {
  if (IsComplex(type)) return fn(std::complex<double>{});
  if (IsFloat(type)) return fn(double{});
  if (type == PHAL_ELEMENT_TYPE_PRED) return fn(PredDomain{});
  return fn(uint64_t{});
}

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
