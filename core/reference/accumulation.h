// Whole literals in and out of an accumulation domain
// (sdk/element_semantics/accumulation.h): what dot, convolution and batch
// norm load their operands with and store their results with, and the
// domain dot and convolution sum their products in.
#ifndef POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
#define POLYHAL_CORE_REFERENCE_ACCUMULATION_H_

#include <complex>
#include <type_traits>
#include <vector>

#include "core/hlo/literal.h"
#include "sdk/base/status.h"
#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/element_traits.h"

namespace phal::reference {

// The single-precision domains: f32 and c64 results are summed in their
// own precision.
using ComplexFloat = std::complex<float>;

// The accumulation domain a narrower domain D is loaded and stored
// through: double for float, Complex for ComplexFloat, D itself otherwise.
template <typename D>
using WideDomain =
    std::conditional_t<std::is_same_v<D, float>, double,
                       std::conditional_t<std::is_same_v<D, ComplexFloat>,
                                          element_semantics::Complex, D>>;

// Calls fn(D{}) with D the domain dot and convolution sum the products of
// a `type` result in. The specification defines dot_general as a reduce
// of the products in the result's element type, and the StableHLO
// project's test data (JAX on XLA) holds f32 and c64 sums rounded at every
// addition, in the order of the contracting dimensions: so f32 sums in
// float and c64 in complex<float>, one addition after the other. f64 and
// c128 already sum in their own precision; f16, bf16 and the small floats
// sum in double and round once, as XLA sums them in f32.
template <typename Fn>
auto DispatchSummationDomain(ElementType type, Fn&& fn) {
  if (type == PHAL_ELEMENT_TYPE_F32) return fn(float{});
  if (type == PHAL_ELEMENT_TYPE_C64) return fn(ComplexFloat{});
  return element_semantics::DispatchAccumulationDomain(type, fn);
}

// Converts every element of `literal` to domain D.
template <typename D>
Status LoadInto(const Literal& literal, std::vector<D>* out) {
  out->resize(static_cast<std::size_t>(literal.ElementCount()));
  return element_semantics::DispatchElementType(
      literal.element_type(), [&](auto traits) {
        using T = decltype(traits);
        const auto* in = literal.data_as<typename T::Storage>();
        for (std::size_t i = 0; i < out->size(); ++i) {
          (*out)[i] = static_cast<D>(
              element_semantics::ToDomain<WideDomain<D>, T>(T::Load(in[i])));
        }
        return OkStatus();
      });
}

// Stores domain values into `literal`, rounding (floats) or wrapping
// (integers) once.
template <typename D>
Status StoreFrom(const std::vector<D>& values, Literal* literal) {
  return element_semantics::DispatchElementType(
      literal->element_type(), [&](auto traits) {
        using T = decltype(traits);
        auto* out = literal->data_as<typename T::Storage>();
        for (std::size_t i = 0; i < values.size(); ++i) {
          out[i] = element_semantics::FromDomain<T>(
              static_cast<WideDomain<D>>(values[i]));
        }
        return OkStatus();
      });
}

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
