// PJRT errors and events made from Polyhal statuses, and the conversions
// between PJRT's and Polyhal's element types. Internal to libpolyhal_pjrt.
#ifndef POLYHAL_SDK_PJRT_PJRT_ERROR_H_
#define POLYHAL_SDK_PJRT_PJRT_ERROR_H_

#include <string>

#include "sdk/pjrt/pjrt_objects.h"

namespace phal::pjrt {

// A new error; the caller (PJRT's client) frees it with PJRT_Error_Destroy.
PJRT_Error* MakeError(PJRT_Error_Code code, std::string message);
// The error of a failed Polyhal call, which it frees; null for success.
PJRT_Error* FromStatus(phal_status_t* status);
// INVALID_ARGUMENT when an args struct is smaller than the fields read.
PJRT_Error* CheckArgs(const char* function, size_t given, size_t needed);
// A signalled event carrying `error` (null: success), which it keeps a copy
// of.
PJRT_Event* MakeEvent(const PJRT_Error* error);

PJRT_Buffer_Type ToPjrtType(phal_element_type_t type);
// PHAL_ELEMENT_TYPE_INVALID for types Polyhal does not have.
phal_element_type_t ToPolyhalType(PJRT_Buffer_Type type);
const char* PjrtTypeName(PJRT_Buffer_Type type);

}  // namespace phal::pjrt

// Returns INVALID_ARGUMENT from the entry point when `args` is smaller than
// the fields it reads and writes, up to `last_field`.
#define PHAL_PJRT_CHECK_ARGS(type, args)                       \
  do {                                                         \
    if (PJRT_Error* error = ::phal::pjrt::CheckArgs(           \
            #type, (args)->struct_size, type##_STRUCT_SIZE)) { \
      return error;                                            \
    }                                                          \
  } while (0)

#endif  // POLYHAL_SDK_PJRT_PJRT_ERROR_H_
