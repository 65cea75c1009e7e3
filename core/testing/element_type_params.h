// Element types as the parameters of value-parameterized tests.
#ifndef POLYHAL_CORE_TESTING_ELEMENT_TYPE_PARAMS_H_
#define POLYHAL_CORE_TESTING_ELEMENT_TYPE_PARAMS_H_

#include <string>

#include <gtest/gtest.h>

#include "sdk/base/element_types.h"

namespace phal::testing {

// Every element type an array holds.
inline auto EveryArrayElementType() {
  return ::testing::Values(
      PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S16,
      PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S64, PHAL_ELEMENT_TYPE_U8,
      PHAL_ELEMENT_TYPE_U16, PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_U64,
      PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F32,
      PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128);
}

// Names each test after its element type ("f32").
struct ElementTypeParamName {
  std::string operator()(
      const ::testing::TestParamInfo<ElementType>& info) const {
    return ElementTypeName(info.param);
  }
};

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_ELEMENT_TYPE_PARAMS_H_
