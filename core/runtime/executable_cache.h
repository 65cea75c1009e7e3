// Executables on disk for the next process: a module compiled once is read
// back, kernels and all, by every later process that compiles the same
// text for the same device, skipping the parse, the compiler's passes and
// the plugin's kernel emission (its kernel_deserialize loads them).
//
// Entries live in the disk cache of sdk/plugin_support/disk_cache.h under
// the name "executables": $PHAL_CACHE_DIR/executables (else
// $XDG_CACHE_HOME/polyhal/executables, else ~/.cache/polyhal/executables),
// within PHAL_CACHE_MAX_BYTES; PHAL_CACHE_DIR=off turns it off with the
// plugins' caches. A client reads the environment when it is created.
//
// An entry is the serialized executable (phal_executable_serialize's
// bytes) behind a second, independent hash of its key. The key covers what
// decides the executable: the core's build (release and GNU build ID), the
// program cache's key (text, format, source name, compiler options, among
// them whether the device runs FFT and LINALG kernels), the optimization level,
// the plugin (name, version, and its library file's path, size and modification
// time, so that a rebuilt plugin misses), the device's name, its features (the
// cpu plugin's are those of the processor it compiles for, PHAL_CPU_TARGET) and
// its target. An entry the plugin refuses to load is compiled again and stored
// over.
#ifndef POLYHAL_CORE_RUNTIME_EXECUTABLE_CACHE_H_
#define POLYHAL_CORE_RUNTIME_EXECUTABLE_CACHE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sdk/plugin_support/disk_cache.h"

struct phal_device;

namespace phal {

// Thread-safe.
class ExecutableCache {
 public:
  // Configured from the environment (see above).
  ExecutableCache();

  bool enabled() const { return disk_.enabled(); }

  // The serialized executable stored for `program_key` compiled at
  // `optimization_level` for `device`, or nullopt.
  std::optional<std::string> Load(std::string_view program_key,
                                  uint32_t optimization_level,
                                  const phal_device& device) const;
  // Stores `serialized` for `program_key` at `optimization_level` on
  // `device`.
  void Store(std::string_view program_key, uint32_t optimization_level,
             const phal_device& device, std::string_view serialized) const;

 private:
  DiskCache disk_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_EXECUTABLE_CACHE_H_
