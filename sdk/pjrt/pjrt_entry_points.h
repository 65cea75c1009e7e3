// The entry points Polyhal's PJRT plugin implements, declared with the
// function types of pjrt_c_api.h and defined in the file of their concept:
// pjrt_error.cc and pjrt_event.cc, pjrt_client.cc (client, devices,
// memories), pjrt_buffer.cc, pjrt_executable.cc. Internal to
// libpolyhal_pjrt.
#ifndef POLYHAL_SDK_PJRT_PJRT_ENTRY_POINTS_H_
#define POLYHAL_SDK_PJRT_PJRT_ENTRY_POINTS_H_

#include "xla/pjrt/c/pjrt_c_api.h"

namespace phal::pjrt {

#define PHAL_PJRT_IMPLEMENTED(name) PJRT_##name name;
#define PHAL_PJRT_UNIMPLEMENTED(name)
#include "sdk/pjrt/pjrt_entry_points.def"
#undef PHAL_PJRT_IMPLEMENTED
#undef PHAL_PJRT_UNIMPLEMENTED

}  // namespace phal::pjrt

#endif  // POLYHAL_SDK_PJRT_PJRT_ENTRY_POINTS_H_
