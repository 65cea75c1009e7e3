// libFuzzer target: any text must parse as a plugin manifest or give an
// error, never crash or throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/loader/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)phal::ParseManifest("/fuzz/plugins.d/fuzz.json", text);
  return 0;
}
