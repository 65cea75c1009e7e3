// Kernels: KIR printed as OpenCL C by the source emitter toolkit
// (sdk/emitters/source), built with clBuildProgram through the program cache
// (intel_program_cache.h) or, on a driver that caches programs itself, in
// batches at their first launch (intel_program_batcher.h), and launched
// with clEnqueueNDRangeKernel.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_KERNEL_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_KERNEL_H_

#include <memory>
#include <mutex>
#include <string>

#include "plugins/intel/intel_device.h"
#include "plugins/intel/intel_program_batcher.h"
#include "plugins/intel/intel_stream.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/source_emitter.h"

namespace phal::intel {

class Kernel {
 public:
  // Takes the references to `program` and `kernel`.
  Kernel(const Device* device, std::string name, uint32_t buffer_count,
         source_emitter::SourceKernel source, cl_program program,
         cl_kernel kernel)
      : device_(device),
        name_(std::move(name)),
        buffer_count_(buffer_count),
        source_(std::move(source)),
        program_(program),
        kernel_(kernel) {}
  // A kernel whose program the device's batcher builds at its first launch
  // (intel_program_batcher.h).
  Kernel(const Device* device, std::string name, uint32_t buffer_count,
         source_emitter::SourceKernel source,
         std::shared_ptr<PendingKernel> pending)
      : device_(device),
        name_(std::move(name)),
        buffer_count_(buffer_count),
        source_(std::move(source)),
        pending_(std::move(pending)) {}
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  // Builds `source` on `device` (through its program cache), or leaves it
  // to the device's batcher where it has one.
  static StatusOr<std::unique_ptr<phal_plugin_kernel>> Build(
      const Device& device, std::string name, uint32_t buffer_count,
      source_emitter::SourceKernel source);

  // Enqueues one run on `stream`. Setting a cl_kernel's arguments and
  // enqueueing it is one critical section: launches from many threads
  // serialise here and nowhere else.
  Status Launch(const Stream& stream, phal_plugin_buffer_t* const* buffers,
                uint32_t buffer_count) const;

  const std::string& name() const { return name_; }
  const source_emitter::SourceKernel& source() const { return source_; }
  // The kernel_serialize bytes: the source and its launch shape (the
  // program binary is the program cache's business).
  std::string Serialize() const;

 private:
  // Builds the kernel's batch where it waits in one; under launch_mutex_.
  Status Resolve() const;

  const Device* device_;
  std::string name_;
  uint32_t buffer_count_;
  source_emitter::SourceKernel source_;
  // Set when built; until then, the batch the kernel waits in. Guarded by
  // launch_mutex_.
  mutable cl_program program_ = nullptr;
  mutable cl_kernel kernel_ = nullptr;
  mutable std::shared_ptr<PendingKernel> pending_;
  mutable std::mutex launch_mutex_;
};

}  // namespace phal::intel

struct phal_plugin_kernel final : phal::intel::Kernel {
  using Kernel::Kernel;
};

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_KERNEL_H_
