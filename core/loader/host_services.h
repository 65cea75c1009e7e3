// The phal_host_services_t table the core hands to every plugin. It is one
// process-wide table because a plugin library is loaded once per process
// however many clients use it; plugin log messages go to every live
// client's logger.
#ifndef POLYHAL_CORE_LOADER_HOST_SERVICES_H_
#define POLYHAL_CORE_LOADER_HOST_SERVICES_H_

#include "sdk/base/log.h"
#include "polyhal/plugin.h"

namespace phal {

const phal_host_services_t* HostServices();

// Adds or removes a logger that receives plugin log messages.
void RegisterPluginLogSink(const Logger* logger);
void UnregisterPluginLogSink(const Logger* logger);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_HOST_SERVICES_H_
