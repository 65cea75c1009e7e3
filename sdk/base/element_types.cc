#include "sdk/base/element_types.h"

namespace phal {
namespace {

struct ElementTypeInfo {
  ElementType type;
  const char* name;
  std::size_t byte_size;
};

constexpr ElementTypeInfo kElementTypes[] = {
    {PHAL_ELEMENT_TYPE_INVALID, "invalid", 0},
    {PHAL_ELEMENT_TYPE_PRED, "pred", 1},
    {PHAL_ELEMENT_TYPE_S8, "s8", 1},
    {PHAL_ELEMENT_TYPE_S16, "s16", 2},
    {PHAL_ELEMENT_TYPE_S32, "s32", 4},
    {PHAL_ELEMENT_TYPE_S64, "s64", 8},
    {PHAL_ELEMENT_TYPE_U8, "u8", 1},
    {PHAL_ELEMENT_TYPE_U16, "u16", 2},
    {PHAL_ELEMENT_TYPE_U32, "u32", 4},
    {PHAL_ELEMENT_TYPE_U64, "u64", 8},
    {PHAL_ELEMENT_TYPE_F16, "f16", 2},
    {PHAL_ELEMENT_TYPE_BF16, "bf16", 2},
    {PHAL_ELEMENT_TYPE_F32, "f32", 4},
    {PHAL_ELEMENT_TYPE_F64, "f64", 8},
    {PHAL_ELEMENT_TYPE_C64, "c64", 8},
    {PHAL_ELEMENT_TYPE_C128, "c128", 16},
};
static_assert(sizeof(kElementTypes) / sizeof(kElementTypes[0]) ==
                  PHAL_ELEMENT_TYPE_COUNT,
              "every element type of types.h has a row");

const ElementTypeInfo& InfoOf(uint32_t index) {
  if (index == 0 || index >= PHAL_ELEMENT_TYPE_COUNT) return kElementTypes[0];
  return kElementTypes[index];
}

const ElementTypeInfo& InfoOf(ElementType type) {
  return InfoOf(static_cast<uint32_t>(type));
}

}  // namespace

std::size_t ElementTypeByteSize(ElementType type) {
  return InfoOf(type).byte_size;
}

std::size_t ElementTypeByteSize(uint32_t type_value) {
  return InfoOf(type_value).byte_size;
}

const char* ElementTypeName(ElementType type) { return InfoOf(type).name; }

bool ParseElementTypeName(const std::string& name, ElementType* out) {
  for (const ElementTypeInfo& info : kElementTypes) {
    if (info.type != PHAL_ELEMENT_TYPE_INVALID && name == info.name) {
      *out = info.type;
      return true;
    }
  }
  return false;
}

bool IsSigned(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_S8 || type == PHAL_ELEMENT_TYPE_S16 ||
         type == PHAL_ELEMENT_TYPE_S32 || type == PHAL_ELEMENT_TYPE_S64;
}

bool IsUnsigned(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_U8 || type == PHAL_ELEMENT_TYPE_U16 ||
         type == PHAL_ELEMENT_TYPE_U32 || type == PHAL_ELEMENT_TYPE_U64;
}

bool IsIntegral(ElementType type) { return IsSigned(type) || IsUnsigned(type); }

bool IsFloat(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16 ||
         type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64;
}

bool IsComplex(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_C64 || type == PHAL_ELEMENT_TYPE_C128;
}

int ElementTypeBitWidth(ElementType type) {
  return static_cast<int>(ElementTypeByteSize(type) * 8);
}

ElementType ComplexComponentType(ElementType type) {
  if (type == PHAL_ELEMENT_TYPE_C64) return PHAL_ELEMENT_TYPE_F32;
  if (type == PHAL_ELEMENT_TYPE_C128) return PHAL_ELEMENT_TYPE_F64;
  return type;
}

namespace {

// The reach of a float type: significand bits (the implicit one counted),
// the largest exponent, and the exponent of the smallest subnormal.
struct FloatReach {
  int significand_bits;
  int max_exponent;
  int min_subnormal_exponent;
};

FloatReach ReachOf(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
      return {11, 15, -24};
    case PHAL_ELEMENT_TYPE_BF16:
      return {8, 127, -133};
    case PHAL_ELEMENT_TYPE_F32:
      return {24, 127, -149};
    default:
      return {53, 1023, -1074};
  }
}

// Bits of an integer type's magnitude: its width less the sign bit.
int MagnitudeBits(ElementType type) {
  return ElementTypeBitWidth(type) - (IsSigned(type) ? 1 : 0);
}

}  // namespace

bool ConvertsExactly(ElementType from, ElementType to) {
  if (from == to) return true;
  if (from == PHAL_ELEMENT_TYPE_PRED) return to != PHAL_ELEMENT_TYPE_INVALID;
  if (IsComplex(from)) {
    return IsComplex(to) && ConvertsExactly(ComplexComponentType(from),
                                            ComplexComponentType(to));
  }
  if (IsComplex(to)) return ConvertsExactly(from, ComplexComponentType(to));
  if (IsFloat(from)) {
    if (!IsFloat(to)) return false;
    const FloatReach source = ReachOf(from);
    const FloatReach target = ReachOf(to);
    return target.significand_bits >= source.significand_bits &&
           target.max_exponent >= source.max_exponent &&
           target.min_subnormal_exponent <= source.min_subnormal_exponent;
  }
  if (!IsIntegral(from)) return false;
  if (IsIntegral(to)) {
    if (IsSigned(from) && IsUnsigned(to)) return false;
    return MagnitudeBits(to) >= MagnitudeBits(from);
  }
  return IsFloat(to) && ReachOf(to).significand_bits >= MagnitudeBits(from);
}

}  // namespace phal
