// What dot and convolution compute in, as the reference does: operands are
// first converted to the accumulation type (rounding once, as convert
// does), then loaded into its domain (sdk/element_semantics/accumulation.h),
// multiplied and summed there, and each sum rounded once to the
// accumulation type; the epilogue then runs on the sums.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
#define POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/status.h"
#include "sdk/element_semantics/accumulation.h"
#include "sdk/element_semantics/convert.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/kernel_checks.h"

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

// Runs `epilogue` at every point of the row-major index space `dims` of
// buffer `output`, its parameter 0 the point's sum from `sums` (stored as
// `accumulation_type`), and writes its result there. `inputs` are the
// buffers the kernel reads (OutputTargets).
Status RunEpilogueOnSums(const phal_kernel_desc_t& kernel,
                         std::span<uint8_t* const> buffers,
                         const CompiledBody& epilogue,
                         std::span<const int64_t> dims,
                         ElementType accumulation_type, const uint8_t* sums,
                         uint32_t output, std::span<const uint32_t> inputs);

// A dot or convolution: sum_into(Acc{}, sums) writes the sum of every point
// of `dims` as Acc, the traits of `accumulation_type`, then the epilogue runs
// on them (RunEpilogueOnSums).
template <typename SumInto>
Status AccumulateThenRunEpilogue(const phal_kernel_desc_t& kernel,
                                 std::span<uint8_t* const> buffers,
                                 const CompiledBody& epilogue,
                                 std::span<const int64_t> dims,
                                 ElementType accumulation_type, uint32_t output,
                                 std::span<const uint32_t> inputs,
                                 SumInto sum_into) {
  const int64_t points = ElementCount(dims);
  if (points == 0) return OkStatus();
  std::vector<uint8_t> sums(
      static_cast<std::size_t>(points * StorageBytes(accumulation_type)));
  element_semantics::DispatchElementType(accumulation_type, [&](auto acc) {
    sum_into(acc, sums.data());
    return 0;
  });
  return RunEpilogueOnSums(kernel, buffers, epilogue, dims, accumulation_type,
                           sums.data(), output, inputs);
}

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_ACCUMULATION_H_
