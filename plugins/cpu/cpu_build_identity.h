// The cpu plugin's build identity (sdk/plugin_support/build_identity.h):
// compiled kernels carry it.
#ifndef POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_
#define POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_

#include <string>

#include "sdk/plugin_support/build_identity.h"

namespace phal::cpu {

inline const std::string& PluginBuildIdentity() {
  static const std::string identity = BuildIdentity(PHAL_PLUGIN_VERSION);
  return identity;
}

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_
