// Element-type facts every emitter toolkit needs: classes, storage sizes and
// the names KIR's text dump uses. Header-only, so a toolkit takes it without
// a library to link.
#ifndef POLYHAL_SDK_EMITTERS_ELEMENT_TYPES_H_
#define POLYHAL_SDK_EMITTERS_ELEMENT_TYPES_H_

#include <cstdint>

#include "polyhal/types.h"

namespace phal::emitters {

// f16, bf16, f32, f64.
inline bool IsFloat(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16 ||
         type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
}

inline bool IsComplex(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_C64 || type == PHAL_ELEMENT_TYPE_C128;
}

inline bool IsSignedInteger(phal_element_type_t type) {
  return type >= PHAL_ELEMENT_TYPE_S8 && type <= PHAL_ELEMENT_TYPE_S64;
}

// pred excluded.
inline bool IsUnsignedInteger(phal_element_type_t type) {
  return type >= PHAL_ELEMENT_TYPE_U8 && type <= PHAL_ELEMENT_TYPE_U64;
}

// Bytes of one element in a buffer; 0 for an invalid type.
inline int64_t StorageBytes(phal_element_type_t type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
    case PHAL_ELEMENT_TYPE_S8:
    case PHAL_ELEMENT_TYPE_U8:
      return 1;
    case PHAL_ELEMENT_TYPE_S16:
    case PHAL_ELEMENT_TYPE_U16:
    case PHAL_ELEMENT_TYPE_F16:
    case PHAL_ELEMENT_TYPE_BF16:
      return 2;
    case PHAL_ELEMENT_TYPE_S32:
    case PHAL_ELEMENT_TYPE_U32:
    case PHAL_ELEMENT_TYPE_F32:
      return 4;
    case PHAL_ELEMENT_TYPE_S64:
    case PHAL_ELEMENT_TYPE_U64:
    case PHAL_ELEMENT_TYPE_F64:
    case PHAL_ELEMENT_TYPE_C64:
      return 8;
    case PHAL_ELEMENT_TYPE_C128:
      return 16;
    default:
      return 0;
  }
}

// "f32", "c128", ...; "invalid" for a value outside the enum. The enum is
// read as an integer first: a value outside it must not be loaded as one.
inline const char* ElementTypeName(phal_element_type_t type) {
  static constexpr const char* kNames[] = {
      "invalid", "pred", "s8",  "s16",  "s32", "s64", "u8",  "u16",
      "u32",     "u64",  "f16", "bf16", "f32", "f64", "c64", "c128"};
  const auto index = static_cast<uint32_t>(type);
  return index < sizeof(kNames) / sizeof(kNames[0]) ? kNames[index] : "invalid";
}

}  // namespace phal::emitters

#endif  // POLYHAL_SDK_EMITTERS_ELEMENT_TYPES_H_
