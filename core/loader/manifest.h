// Plugin manifests: the JSON file that names a plugin and its library.
//
//   {"file_format_version": "1.0",
//    "plugin": {"name": "cpu", "library_path": "../../../lib/libcpu.so",
//               "abi_version": "1.0", "version": "0.1.0",
//               "description": "..."}}
//
// A relative library_path is resolved against the manifest's directory; a
// bare file name (no '/') is left to the dynamic linker's search.
#ifndef POLYHAL_CORE_LOADER_MANIFEST_H_
#define POLYHAL_CORE_LOADER_MANIFEST_H_

#include <cstdint>
#include <string>

#include "sdk/base/status.h"

namespace phal {

struct PluginManifest {
  std::string manifest_path;  // absolute
  std::string name;
  std::string description;
  std::string version;
  std::string library_path;  // absolute, or a bare name for the linker
  uint32_t abi_version = 0;  // PHAL_MAKE_VERSION of "abi_version"
};

// Parses the manifest text of `manifest_path`. Errors name the file, and for
// JSON syntax errors the line and column.
StatusOr<PluginManifest> ParseManifest(const std::string& manifest_path,
                                       const std::string& text);
// Reads and parses a manifest file.
StatusOr<PluginManifest> ReadManifest(const std::string& manifest_path);

// Parses "major.minor" into PHAL_MAKE_VERSION form.
bool ParseVersion(const std::string& text, uint32_t* out);
// "1.0".
std::string VersionToString(uint32_t version);

}  // namespace phal

#endif  // POLYHAL_CORE_LOADER_MANIFEST_H_
