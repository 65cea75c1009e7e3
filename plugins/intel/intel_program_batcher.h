// Kernels built together: on a driver that caches programs itself (PoCL,
// intel_program_cache.h), a kernel's program is built at its first launch,
// in one program with every other kernel emitted and not yet launched.
//
// A program costs PoCL about 110 ms before its first kernel: Clang parses
// the OpenCL builtin declarations (opencl-c.h) for every program. Built in
// one program, 8 kernels cost 29 ms each and 32 kernels 18 ms each (PoCL
// 3.1, a 2-core AVX-512 machine), so kernels emitted together (an
// executable's kernels, or those of executables compiled at once on
// several threads) share that cost. Each kernel's text is its own: its
// helper functions and entry point are renamed apart (phal_ -> phal<n>_),
// and identical texts are built once. A batch that does not build is built
// again kernel by kernel, so a build error names its own kernel.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_BATCHER_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_BATCHER_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "plugins/intel/intel_opencl.h"
#include "sdk/base/status.h"

namespace phal::intel {

// A kernel's source waiting for its program, then the program (one
// reference held here) and the name of its entry point in it.
struct PendingKernel {
  std::string source;
  uint64_t key = 0;
  bool done = false;
  Status status;
  cl_program program = nullptr;
  std::string entry;
  ~PendingKernel();
};

// Thread-safe: any thread may add kernels and resolve them.
class ProgramBatcher {
 public:
  ProgramBatcher(cl_context context, cl_device_id device, std::string options);
  ~ProgramBatcher();
  ProgramBatcher(const ProgramBatcher&) = delete;
  ProgramBatcher& operator=(const ProgramBatcher&) = delete;

  // Registers `source` (an OpenCL C kernel whose entry point is
  // source_emitter::kEntryName) for the next batch; resolved at once when
  // an identical source was built before.
  std::shared_ptr<PendingKernel> Add(const std::string& source);

  // Builds the batch `kernel` waits in (with every kernel added and not yet
  // built), unless another thread is building it; returns once `kernel` is
  // built, with its status (INTERNAL with the build log when it does not
  // build).
  Status Resolve(PendingKernel& kernel);

 private:
  void BuildBatch(const std::vector<std::shared_ptr<PendingKernel>>& batch);

  cl_context context_;
  cl_device_id device_;
  std::string options_;
  std::mutex mutex_;
  std::condition_variable built_;
  bool building_ = false;
  std::vector<std::weak_ptr<PendingKernel>> pending_;
  // Built sources: the program (one reference) and entry point of each.
  struct Built {
    cl_program program;
    std::string entry;
  };
  std::unordered_map<uint64_t, Built> built_sources_;
};

}  // namespace phal::intel

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_PROGRAM_BATCHER_H_
