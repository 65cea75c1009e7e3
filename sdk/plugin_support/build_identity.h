// Which build of a plugin this is: its release version and the GNU build ID
// the linker stamped into the library this code is linked into. Compiled
// kernels a plugin caches carry it, so a rebuilt plugin (whose emitter may
// emit other code) never runs kernels a different build compiled, even at
// the same release version.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_BUILD_IDENTITY_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_BUILD_IDENTITY_H_

#include <string>
#include <string_view>

namespace phal {

// "<version>+<build id in hex>", or `version` alone when the library has no
// build ID note. The build ID is read once per library.
std::string BuildIdentity(std::string_view version);

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_BUILD_IDENTITY_H_
