// Quantized computations spelled out in plain HLO. A quantized value
// (quantized_type.h) lives in HLO as its storage integers; these build the
// specification's dequantize and quantize from converts, a subtraction of
// the zero points, a multiplication or division by the scales (per-axis
// ones broadcast along the quantization dimension), clamping to the storage
// range and rounding to nearest even. The reference interpreter and every
// plugin then run quantized programs with no quantized type of their own.
#ifndef POLYHAL_CORE_FRONTEND_QUANTIZED_LOWERING_H_
#define POLYHAL_CORE_FRONTEND_QUANTIZED_LOWERING_H_

#include <vector>

#include "core/frontend/quantized_type.h"
#include "core/hlo/hlo_builder.h"
#include "sdk/base/status.h"

namespace phal {

// The expressed-type values `storage` (the storage values of `type`) stand
// for: (storage - zero_point) * scale, the subtraction done in a wide
// integer type so that it cannot wrap.
StatusOr<HloInstruction*> DequantizeValues(HloBuilder& builder,
                                           HloInstruction* storage,
                                           const QuantizedType& type);

// The storage values of `type` nearest to `value`: value / scale +
// zero_point, clamped to the storage range, rounded to nearest even and
// converted to the storage type. `value` is first converted to the
// expressed type when it has another floating-point type.
StatusOr<HloInstruction*> QuantizeValues(HloBuilder& builder,
                                         HloInstruction* value,
                                         const QuantizedType& type);

// One value per index of dimension `dimension` of `dims` (or, with a single
// value and dimension -1, one value for every element) as a tensor of
// `dims` and `element_type`: how per-axis scales and zero points meet the
// values they apply to.
StatusOr<HloInstruction*> QuantizationParameterTensor(
    HloBuilder& builder, const std::vector<double>& values,
    ElementType element_type, const std::vector<int64_t>& dims,
    int64_t dimension);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_QUANTIZED_LOWERING_H_
