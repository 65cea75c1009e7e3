// Helpers for the extern "C" entry points: run the body, turn its Status
// into a phal_status_t*, and make sure no exception escapes across the ABI.
#ifndef POLYHAL_CORE_RUNTIME_API_GUARD_H_
#define POLYHAL_CORE_RUNTIME_API_GUARD_H_

#include <cstddef>
#include <cstring>
#include <string>

#include "core/abi/c_status.h"
#include "sdk/base/exception_status.h"

namespace phal {

template <typename Body>
phal_status_t* GuardedCall(Body&& body) noexcept {
  try {
    return ToCStatus(body());
  } catch (...) {
    return ToCStatus(StatusFromCurrentException("libpolyhal"));
  }
}

// Status for a NULL argument named `what`.
inline Status NullArgument(const char* what) {
  return InvalidArgument(std::string(what) + " is NULL");
}

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_API_GUARD_H_
