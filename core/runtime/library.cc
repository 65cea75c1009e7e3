// Library-wide C functions: versions and element-type facts.
#include "core/hlo/shape.h"
#include "polyhal/runtime.h"

extern "C" {

PHAL_API uint32_t phal_get_abi_version(void) { return PHAL_ABI_VERSION; }

PHAL_API const char* phal_get_version_string(void) {
  return PHAL_PROJECT_VERSION;
}

PHAL_API const char* phal_element_type_name(phal_element_type_t type) {
  if (type <= PHAL_ELEMENT_TYPE_INVALID || type >= PHAL_ELEMENT_TYPE_COUNT) {
    return "invalid";
  }
  return phal::ElementTypeName(type);
}

PHAL_API size_t phal_element_type_byte_size(phal_element_type_t type) {
  if (type <= PHAL_ELEMENT_TYPE_INVALID || type >= PHAL_ELEMENT_TYPE_COUNT) {
    return 0;
  }
  return phal::ElementTypeByteSize(type);
}

}  // extern "C"
