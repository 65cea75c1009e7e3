// Which build of the plugin this is: its release version and the GNU build
// ID the linker stamped into the library. Compiled kernels carry it, so a
// rebuilt plugin (whose emitter may emit other code) never runs kernels a
// different build compiled, even at the same release version.
#ifndef POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_
#define POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_

#include <string>

namespace phal::cpu {

// "<version>+<build id in hex>", or "<version>" when the library has no
// build ID note. Computed once.
const std::string& PluginBuildIdentity();

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_BUILD_IDENTITY_H_
