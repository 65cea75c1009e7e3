// What dot and convolution compute in, as the reference does: operands are
// first converted to the accumulation type (rounding once, as convert
// does), then loaded into its domain (sdk/element_semantics/accumulation.h),
// multiplied and summed there, and each sum rounded once to the
// accumulation type.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
#define POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_

#include <cstdint>
#include <span>

#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/convert.h"
#include "sdk/element_semantics/element_traits.h"

namespace phal::kir_interpreter {

using element_semantics::Domain;

// out[i] = element offset_of(i) of the array at `base` (of element type
// `from`), converted to Acc and loaded into Acc's domain, for i < count.
template <typename Acc, typename OffsetOf>
void LoadIntoDomain(ElementType from, const uint8_t* base, int64_t count,
                    OffsetOf offset_of, Domain<Acc>* out) {
  element_semantics::DispatchElementType(from, [&](auto from_traits) {
    using From = decltype(from_traits);
    constexpr auto kSize = static_cast<int64_t>(sizeof(typename From::Storage));
    for (int64_t i = 0; i < count; ++i) {
      const typename Acc::Value converted =
          element_semantics::ConvertValue<From, Acc>(
              element_semantics::LoadUnaligned<From>(base +
                                                     offset_of(i) * kSize));
      out[i] = element_semantics::ToDomain<Domain<Acc>, Acc>(
          Acc::Load(Acc::Store(converted)));
    }
    return 0;
  });
}

// The sums, rounded to Acc, into the Acc array at `out`.
template <typename Acc>
void StoreFromDomain(std::span<const Domain<Acc>> sums, uint8_t* out) {
  auto* stored = reinterpret_cast<typename Acc::Storage*>(out);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    stored[i] = element_semantics::FromDomain<Acc>(sums[i]);
  }
}

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
