// The ABI's status object and its conversion to and from phal::Status.
#ifndef POLYHAL_CORE_ABI_C_STATUS_H_
#define POLYHAL_CORE_ABI_C_STATUS_H_

#include <cstdint>
#include <string>

#include "polyhal/types.h"
#include "sdk/base/status.h"

struct phal_status {
  // The code as the plugin gave it: a plugin may pass a value that is no
  // phal_status_code_t, which the validation layer reports and CodeOf
  // reads as PHAL_UNKNOWN, so it is never loaded as the enum.
  int32_t code;
  std::string message;
  // Set when a plugin asked status_create for PHAL_OK, which the core reads
  // as PHAL_UNKNOWN (success is NULL); the validation layer reports it.
  bool created_as_ok = false;
};

namespace phal {

// A new C status for a non-OK `status`; NULL for OK. Never throws: when
// memory runs out it returns a shared static out-of-memory status, which
// phal_status_free recognises and leaves alone.
phal_status_t* ToCStatus(const Status& status);
phal_status_t* MakeCStatus(phal_status_code_t code, const char* message);
// Takes ownership of `status` (which may be NULL) and frees it.
Status TakeCStatus(phal_status_t* status);
// The code of `status`: PHAL_UNKNOWN for a value no phal_status_code_t
// has.
phal_status_code_t CodeOf(const phal_status& status);
// The plugin-facing status constructor (phal_host_services_t::status_create).
phal_status_t* HostStatusCreate(phal_status_code_t code, const char* message);

}  // namespace phal

#endif  // POLYHAL_CORE_ABI_C_STATUS_H_
