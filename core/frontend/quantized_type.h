// StableHLO's quantized element types, `!quant.uniform<...>`, as the front
// end reads them. A quantized value is stored as its integer storage value
// q and stands for the real number (q - zero_point) * scale in the
// expressed type; per-axis quantization gives each index along one
// dimension its own scale and zero point. The HLO IR has no such type: the
// front end keeps the storage values in an HLO integer type and spells out
// every quantized computation with integer and float ops
// (quantized_lowering.h).
#ifndef POLYHAL_CORE_FRONTEND_QUANTIZED_TYPE_H_
#define POLYHAL_CORE_FRONTEND_QUANTIZED_TYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frontend/source_text.h"
#include "core/hlo/shape.h"
#include "sdk/base/status.h"

namespace phal {

struct QuantizedType {
  // The HLO type holding storage values: s8/u8 for widths up to 8 bits
  // (i2 and i4 included), s16/u16, s32/u32.
  ElementType storage = PHAL_ELEMENT_TYPE_INVALID;
  int storage_bits = 0;  // as written: 2, 4, 8, 16 or 32
  bool storage_signed = true;
  // The storage range values are clamped to: the storage type's full range
  // unless the type narrows it (`i8<-127:127>`).
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  ElementType expressed = PHAL_ELEMENT_TYPE_INVALID;  // f16, bf16, f32, f64
  // One entry per tensor, or one per index of the quantization dimension.
  std::vector<double> scales;
  std::vector<int64_t> zero_points;
  int64_t quantization_dimension = -1;  // -1: per-tensor

  bool IsPerAxis() const { return quantization_dimension >= 0; }
  // Same storage, expressed type, range, scales and zero points; the
  // quantization dimension may differ (data movement may move it).
  bool SameParameters(const QuantizedType& other) const;
  // The type as MLIR writes it, for messages.
  std::string ToString() const;
};

// Parses the `!quant.uniform<...>` type that starts at `offset` of the
// source text (at its '!'). On success `*end` is the offset just past the
// closing '>'. Malformed types are errors at the character at fault.
StatusOr<QuantizedType> ParseQuantizedType(const SourceText& source,
                                           std::size_t offset,
                                           std::size_t* end);

// Checks a per-axis type against the dimensions of the tensor it is the
// element type of: the quantization dimension must exist and have one scale
// per index. Errors are reported at `offset`.
Status CheckQuantizedDimensions(const QuantizedType& type,
                                const std::vector<int64_t>& dims,
                                const SourceText& source, std::size_t offset);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_QUANTIZED_TYPE_H_
