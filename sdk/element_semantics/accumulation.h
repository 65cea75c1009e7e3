// What dot, convolution and batch norm compute in: each element type's
// accumulation domain, where values are summed and multiplied before the
// result is rounded once to its element type. Domains are double (real
// floats), std::complex<double> (complex), uint64_t (integers, wrapping
// modulo 2^64; signed values sign-extended) and PredDomain (pred: 0 or 1,
// where the sum is or and the product is and).
#ifndef POLYHAL_SDK_ELEMENT_SEMANTICS_ACCUMULATION_H_
#define POLYHAL_SDK_ELEMENT_SEMANTICS_ACCUMULATION_H_

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "sdk/element_semantics/element_traits.h"

namespace phal::element_semantics {

// pred's domain: one byte holding 0 or 1 (std::vector<bool> has no data()).
using PredDomain = uint8_t;

// The accumulation domain of element type T.
template <typename T>
using Domain = std::conditional_t<
    kIsFloat<T>, double,
    std::conditional_t<kIsComplex<T>, Complex,
                       std::conditional_t<kIsPred<T>, PredDomain, uint64_t>>>;

// Calls fn(D{}) with D the accumulation domain of `type`.
template <typename Fn>
auto DispatchAccumulationDomain(ElementType type, Fn&& fn) {
  if (IsComplex(type)) return fn(Complex{});
  if (IsFloat(type)) return fn(double{});
  if (type == PHAL_ELEMENT_TYPE_PRED) return fn(PredDomain{});
  return fn(uint64_t{});
}

// `value`, of element type From, in domain D: non-zero is 1 in PredDomain,
// a complex value keeps its real part in a real domain, and a real value
// truncates toward zero (as int64_t) in the integer domain.
template <typename D, typename From>
D ToDomain(typename From::Value value) {
  if constexpr (std::is_same_v<D, PredDomain>) {
    return value != decltype(value){} ? 1 : 0;
  } else if constexpr (kIsComplex<From> && !std::is_same_v<D, Complex>) {
    return static_cast<D>(value.real());
  } else if constexpr (std::is_same_v<D, uint64_t> &&
                       (kIsFloat<From> || kIsInteger<From>)) {
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  } else {
    return static_cast<D>(value);
  }
}

// A domain value stored as element type To, rounding (floats) or wrapping
// (integers) once; a complex value keeps its real part in a real type, and
// pred is value != 0.
template <typename To, typename D>
typename To::Storage FromDomain(D value) {
  using V = typename To::Value;
  if constexpr (std::is_same_v<D, Complex> && !kIsComplex<To>) {
    return To::Store(static_cast<V>(value.real()));
  } else if constexpr (kIsPred<To>) {
    return To::Store(value != D{});
  } else {
    return To::Store(static_cast<V>(value));
  }
}

// accumulator + a * b in domain D (for pred, accumulator | (a & b)), each
// operation rounded on its own.
template <typename D>
D MultiplyAdd(D accumulator, D a, D b) {
  if constexpr (std::is_same_v<D, PredDomain>) {
    return static_cast<D>(accumulator | (a & b));
  } else {
    return accumulator + a * b;
  }
}

// The batched matrix product C[b, i, j] = sum_p A[b, i, p] * B[b, p, j] of
// dense row-major A [batches, m, k] and B [batches, k, n]: each sum runs
// over p in increasing order from zero, with MultiplyAdd. Defined for the
// four domains and for float and std::complex<float> (the reference sums
// f32 and c64 results in their own precision).
template <typename D>
std::vector<D> MultiplyBatched(std::span<const D> a, std::span<const D> b,
                               int64_t batches, int64_t m, int64_t k,
                               int64_t n);

}  // namespace phal::element_semantics

#endif  // POLYHAL_SDK_ELEMENT_SEMANTICS_ACCUMULATION_H_
