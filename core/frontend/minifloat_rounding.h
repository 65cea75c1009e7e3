// Rounding f32 values to a small floating-point format (emulated_types.h)
// inside an HLO graph, after each op whose result has such a type.
#ifndef POLYHAL_CORE_FRONTEND_MINIFLOAT_ROUNDING_H_
#define POLYHAL_CORE_FRONTEND_MINIFLOAT_ROUNDING_H_

#include "core/frontend/emulated_types.h"
#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// reduce-precision to the format's mantissa bits over an exponent range
// covering the format's (one more exponent bit for the formats that use
// the all-ones exponent for numbers), then overflow past the format's
// largest value to infinity, NaN or saturation as the format defines.
// Exact for the IEEE-like formats (f8E5M2, f8E4M3, f8E3M4); for the others
// values below the smallest normal number keep more precision than the
// format has.
StatusOr<HloInstruction*> RoundToMinifloatFormat(HloBuilder& builder,
                                                 HloInstruction* value,
                                                 const MinifloatFormat& format);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_MINIFLOAT_ROUNDING_H_
