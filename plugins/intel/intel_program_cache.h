// Built OpenCL programs kept for reuse: in memory for the device's
// lifetime, and across processes as program binaries in the plugin's disk
// cache (sdk/plugin_support/disk_cache.h: where it lives, its size limit,
// PHAL_CACHE_DIR=off). A program is keyed by the hash of its source, the
// build options and the compiler's identity (device name, driver and
// platform versions), so a driver update never loads a stale binary; a
// binary the driver refuses is rebuilt from source and replaced.
//
// A driver that caches programs itself builds through the program batcher
// instead (intel_program_batcher.h): PoCL (unless POCL_KERNEL_CACHE=0)
// stores each program's bitcode and each work-group specialisation's
// machine code in POCL_CACHE_DIR, and asking it for a program binary makes
// it compile a generic work-group function besides the one each launch
// needs, which doubled the compile work of a cold conformance run.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_CACHE_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_CACHE_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "plugins/intel/intel_opencl.h"
#include "sdk/base/status.h"
#include "sdk/plugin_support/disk_cache.h"

namespace phal::intel {

// Builds `source` with `options` for `device`: the program (the caller
// holds its reference), or INTERNAL with the driver's build log.
StatusOr<cl_program> CompileProgram(cl_context context, cl_device_id device,
                                    const std::string& source,
                                    const std::string& options);

// Thread-safe. Owns one reference to every program it holds.
class ProgramCache {
 public:
  ProgramCache();
  ~ProgramCache();
  ProgramCache(const ProgramCache&) = delete;
  ProgramCache& operator=(const ProgramCache&) = delete;

  // A built program for `source` on `device`: from memory, from a disk
  // binary, or compiled (and then written to disk). The caller receives its
  // own reference (release it with clReleaseProgram). A failed build
  // returns INTERNAL with the build log.
  StatusOr<cl_program> Build(cl_context context, cl_device_id device,
                             const std::string& source,
                             const std::string& options,
                             const std::string& compiler_identity);

 private:
  cl_program LoadBinary(cl_context context, cl_device_id device, uint64_t key,
                        const std::string& options) const;
  void StoreBinary(cl_program program, uint64_t key) const;

  DiskCache disk_;
  std::mutex mutex_;
  std::unordered_map<uint64_t, cl_program> programs_;
};

}  // namespace phal::intel

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_CACHE_H_
