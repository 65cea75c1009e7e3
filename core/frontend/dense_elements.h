// Turns the elements of a dense<...> attribute into a Literal of the
// attribute's tensor type: nested lists matching the shape, a splat (one
// value for every element), a hex string of raw little-endian bytes (the
// whole tensor or one splatted element), booleans, complex pairs and
// 0x... bit patterns for floating-point values.
#ifndef POLYHAL_CORE_FRONTEND_DENSE_ELEMENTS_H_
#define POLYHAL_CORE_FRONTEND_DENSE_ELEMENTS_H_

#include <cstdint>

#include "core/frontend/emulated_types.h"
#include "core/frontend/mlir_syntax.h"
#include "core/frontend/source_text.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal {

// The most bytes a constant may expand to from fewer values than it holds
// (a splat, or one element as hex): beyond it the text is refused rather
// than materialized. Constants whose every element is written out are
// bounded by the text instead.
inline constexpr uint64_t kMaxExpandedConstantBytes = uint64_t{256} << 20;

// Errors point at the offending element in `source`. With `minifloat`, the
// f32 literal holds values of that small float format: numbers are rounded
// to it and 0x... bit patterns are the format's own bits.
StatusOr<Literal> DenseElementsToLiteral(
    const DenseElements& elements, const Shape& type, const SourceText& source,
    const MinifloatFormat* minifloat = nullptr);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_DENSE_ELEMENTS_H_
