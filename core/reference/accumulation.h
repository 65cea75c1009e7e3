// Whole literals in and out of an accumulation domain
// (sdk/element_semantics/accumulation.h): what dot, convolution and batch
// norm load their operands with and store their results with.
#ifndef POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
#define POLYHAL_CORE_REFERENCE_ACCUMULATION_H_

#include <vector>

#include "core/hlo/literal.h"
#include "sdk/base/status.h"
#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/element_traits.h"

namespace phal::reference {

// Converts every element of `literal` to domain D.
template <typename D>
Status LoadInto(const Literal& literal, std::vector<D>* out) {
  out->resize(static_cast<std::size_t>(literal.ElementCount()));
  return element_semantics::DispatchElementType(
      literal.element_type(), [&](auto traits) {
        using T = decltype(traits);
        const auto* in = literal.data_as<typename T::Storage>();
        for (std::size_t i = 0; i < out->size(); ++i) {
          (*out)[i] = element_semantics::ToDomain<D, T>(T::Load(in[i]));
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
          out[i] = element_semantics::FromDomain<T>(values[i]);
        }
        return OkStatus();
      });
}

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_ACCUMULATION_H_
