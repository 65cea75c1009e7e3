// Helpers for the extern "C" entry points: run the body, turn its Status
// into a phal_status_t*, and make sure no exception escapes across the ABI.
#ifndef POLYHAL_CORE_RUNTIME_API_GUARD_H_
#define POLYHAL_CORE_RUNTIME_API_GUARD_H_

#include <cstddef>
#include <cstring>
#include <string>

#include "core/loader/c_status.h"
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

// Copies the payload of an extensible struct (everything after the
// `struct_size`/`next` header that starts at offset 0 and ends at
// `payload_offset`) up to the smaller of the two sizes, leaving the
// destination's header untouched.
template <typename T>
Status CopyExtensible(T* destination, const T& source,
                      std::size_t payload_offset, const char* what) {
  if (destination == nullptr) return NullArgument(what);
  std::size_t size = destination->struct_size;
  if (size < payload_offset) {
    return InvalidArgument(std::string(what) + "->struct_size " +
                           std::to_string(size) + " is smaller than the " +
                           std::to_string(payload_offset) +
                           "-byte header; set it to sizeof the struct");
  }
  if (size > sizeof(T)) size = sizeof(T);
  std::memcpy(reinterpret_cast<char*>(destination) + payload_offset,
              reinterpret_cast<const char*>(&source) + payload_offset,
              size - payload_offset);
  return OkStatus();
}

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_API_GUARD_H_
