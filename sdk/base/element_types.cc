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

}  // namespace phal
