#include "sdk/base/status.h"

namespace phal {

const char* StatusCodeName(phal_status_code_t code) {
  switch (code) {
    case PHAL_OK:
      return "OK";
    case PHAL_CANCELLED:
      return "CANCELLED";
    case PHAL_UNKNOWN:
      return "UNKNOWN";
    case PHAL_INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case PHAL_DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case PHAL_NOT_FOUND:
      return "NOT_FOUND";
    case PHAL_ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case PHAL_PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case PHAL_RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case PHAL_FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case PHAL_ABORTED:
      return "ABORTED";
    case PHAL_OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case PHAL_UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case PHAL_INTERNAL:
      return "INTERNAL";
    case PHAL_UNAVAILABLE:
      return "UNAVAILABLE";
    case PHAL_DATA_LOSS:
      return "DATA_LOSS";
    case PHAL_UNAUTHENTICATED:
      return "UNAUTHENTICATED";
  }
  return "UNKNOWN_CODE";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

}  // namespace phal
