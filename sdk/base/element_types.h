// Facts about the ABI's element types, the one table the core, the emitter
// toolkits, the KIR interpreter and the plugins share: names, storage sizes
// and classes.
#ifndef POLYHAL_SDK_BASE_ELEMENT_TYPES_H_
#define POLYHAL_SDK_BASE_ELEMENT_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "polyhal/types.h"

namespace phal {

using ElementType = phal_element_type_t;

// PHAL_ELEMENT_TYPE_BIT of every valid element type: the element_types
// of a device that stores and computes on all of them.
inline constexpr uint64_t kAllElementTypesMask =
    ((uint64_t{1} << PHAL_ELEMENT_TYPE_COUNT) - 1) &
    ~PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_INVALID);

// Short names of the element types, for tables and tests, which bring
// them in with `using namespace ::phal::element_type_names;`.
namespace element_type_names {
inline constexpr ElementType kPred = PHAL_ELEMENT_TYPE_PRED;
inline constexpr ElementType kS8 = PHAL_ELEMENT_TYPE_S8;
inline constexpr ElementType kS16 = PHAL_ELEMENT_TYPE_S16;
inline constexpr ElementType kS32 = PHAL_ELEMENT_TYPE_S32;
inline constexpr ElementType kS64 = PHAL_ELEMENT_TYPE_S64;
inline constexpr ElementType kU8 = PHAL_ELEMENT_TYPE_U8;
inline constexpr ElementType kU16 = PHAL_ELEMENT_TYPE_U16;
inline constexpr ElementType kU32 = PHAL_ELEMENT_TYPE_U32;
inline constexpr ElementType kU64 = PHAL_ELEMENT_TYPE_U64;
inline constexpr ElementType kF16 = PHAL_ELEMENT_TYPE_F16;
inline constexpr ElementType kBF16 = PHAL_ELEMENT_TYPE_BF16;
inline constexpr ElementType kF32 = PHAL_ELEMENT_TYPE_F32;
inline constexpr ElementType kF64 = PHAL_ELEMENT_TYPE_F64;
inline constexpr ElementType kC64 = PHAL_ELEMENT_TYPE_C64;
inline constexpr ElementType kC128 = PHAL_ELEMENT_TYPE_C128;
}  // namespace element_type_names

// Size in bytes of one stored element; 0 for an invalid type (any value
// outside the enum included).
std::size_t ElementTypeByteSize(ElementType type);
// The same for the number stored in an element-type field (EnumValue,
// sdk/kir/facts.h), for fields not yet validated: any 32-bit value is safe,
// whereas loading a value outside the enum as the enum is undefined.
std::size_t ElementTypeByteSize(uint32_t type_value);
// The same size as a signed count, for index arithmetic in bytes.
inline int64_t StorageBytes(ElementType type) {
  return static_cast<int64_t>(ElementTypeByteSize(type));
}
// The HLO and KIR spelling: "pred", "s32", "bf16", "c64", ...; "invalid" for
// a value outside the enum, which is read as an integer first so that such
// a value is never loaded as the enum.
const char* ElementTypeName(ElementType type);
// Parses an HLO spelling; returns false when `name` is not an element type.
bool ParseElementTypeName(const std::string& name, ElementType* out);

bool IsIntegral(ElementType type);  // s* and u*
bool IsSigned(ElementType type);    // s*
bool IsUnsigned(ElementType type);  // u*
bool IsFloat(ElementType type);     // f16, bf16, f32, f64
bool IsComplex(ElementType type);   // c64, c128
// Bit width of the stored value (pred: 1 bit of meaning, 8 of storage -> 8).
int ElementTypeBitWidth(ElementType type);
// c64 -> f32, c128 -> f64; other types map to themselves.
ElementType ComplexComponentType(ElementType type);
// Whether every value of `from` is a value of `to`, so converting to `to`
// and on to any third type gives what converting to the third type directly
// gives (f32 -> f64, bf16 -> f32, s8 -> bf16: yes; f32 -> bf16, f16 -> bf16,
// s16 -> f16, s8 -> u8: no).
bool ConvertsExactly(ElementType from, ElementType to);

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_ELEMENT_TYPES_H_
