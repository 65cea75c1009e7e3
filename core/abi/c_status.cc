#include "core/abi/c_status.h"

#include <new>

#include "polyhal/runtime.h"

namespace phal {
namespace {

phal_status_t* OutOfMemoryStatus() {
  static phal_status_t status{PHAL_RESOURCE_EXHAUSTED,
                              "out of host memory while reporting an error"};
  return &status;
}

}  // namespace

phal_status_t* MakeCStatus(phal_status_code_t code, const char* message) {
  if (code == PHAL_OK) code = PHAL_UNKNOWN;
  try {
    return new phal_status_t{code, message ? message : "", false};
  } catch (const std::bad_alloc&) {
    return OutOfMemoryStatus();
  }
}

phal_status_t* ToCStatus(const Status& status) {
  if (status.ok()) return nullptr;
  return MakeCStatus(status.code(), status.message().c_str());
}

phal_status_code_t CodeOf(const phal_status& status) {
  return status.code > PHAL_OK && status.code <= PHAL_UNAUTHENTICATED
             ? static_cast<phal_status_code_t>(status.code)
             : PHAL_UNKNOWN;
}

Status TakeCStatus(phal_status_t* status) {
  if (status == nullptr) return OkStatus();
  Status result(CodeOf(*status), status->message);
  phal_status_free(status);
  return result;
}

phal_status_t* HostStatusCreate(phal_status_code_t code, const char* message) {
  phal_status_t* status = MakeCStatus(code, message);
  if (code == PHAL_OK && status != OutOfMemoryStatus()) {
    status->created_as_ok = true;
  }
  return status;
}

}  // namespace phal

extern "C" {

PHAL_API phal_status_code_t phal_status_get_code(const phal_status_t* status) {
  return status ? phal::CodeOf(*status) : PHAL_OK;
}

PHAL_API const char* phal_status_get_message(const phal_status_t* status) {
  return status ? status->message.c_str() : "";
}

PHAL_API void phal_status_free(phal_status_t* status) {
  if (status == phal::OutOfMemoryStatus()) return;
  delete status;
}

PHAL_API const char* phal_status_code_name(phal_status_code_t code) {
  return phal::StatusCodeName(code);
}

}  // extern "C"
