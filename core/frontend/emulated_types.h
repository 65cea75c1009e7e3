// StableHLO element types the HLO IR has no counterpart for, and how the
// front end stores them in HLO types: the narrow integers i2, i4, ui2, ui4
// in s8/u8 (narrow_integers.h), and the small floating-point formats (f8*,
// f6*, f4*) in f32 holding only values of the format. An op whose result
// has such a type rounds or wraps its result back into the type. Quantized
// types (!quant.uniform) are stored as their storage integers and lowered
// by quantized_lowering.h.
#ifndef POLYHAL_CORE_FRONTEND_EMULATED_TYPES_H_
#define POLYHAL_CORE_FRONTEND_EMULATED_TYPES_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "core/hlo/shape.h"

namespace phal {

// A small floating-point format (OCP and MLIR spellings).
struct MinifloatFormat {
  enum class Specials {
    kIeee,           // infinities, and NaNs with an all-ones exponent
    kFiniteAllOnes,  // "FN": no infinities; NaN only when all bits are ones
    kNegativeZero,   // "FNUZ": no infinities, no -0; NaN is the -0 pattern
    kNone,           // no infinities, no NaN
    kExponentOnly,   // f8E8M0FNU: unsigned powers of two, NaN is 0xFF
  };
  std::string_view name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  Specials specials;
};

// The format called `name` ("f8E4M3FN"), or null.
const MinifloatFormat* FindMinifloatFormat(std::string_view name);

// The value of the format's bit pattern `bits`.
double DecodeMinifloat(const MinifloatFormat& format, uint32_t bits);

// The format's value nearest to `value` (ties to even); out-of-range values
// become an infinity, or NaN in formats without one (saturating to the
// largest value in formats without either).
double RoundToMinifloat(const MinifloatFormat& format, double value);

// The largest finite value of the format.
double MinifloatMax(const MinifloatFormat& format);

struct QuantizedType;

struct EmulatedType {
  int integer_bits = 0;                        // 2 or 4 for i2, i4, ui2, ui4
  const MinifloatFormat* minifloat = nullptr;  // f8*, f6*, f4*
  // !quant.uniform<...>, stored as its storage values (quantized_type.h).
  std::shared_ptr<const QuantizedType> quantized;

  bool IsEmulated() const {
    return integer_bits > 0 || minifloat != nullptr || quantized != nullptr;
  }
};

// Recognizes an emulated element type name: the HLO type that stores it in
// `storage` and what it is in `type`; false for any other name.
bool FindEmulatedType(std::string_view name, ElementType* storage,
                      EmulatedType* type);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_EMULATED_TYPES_H_
