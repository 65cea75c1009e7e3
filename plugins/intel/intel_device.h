// Devices: every OpenCL 1.2+ device of every platform the ICD loader knows,
// GPUs first (Intel's first among them), then the others (PoCL's CPU
// device, ...), each with its vendor shown. One OpenCL context per device,
// shared by every open of it.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_DEVICE_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "plugins/intel/intel_opencl.h"
#include "plugins/intel/intel_program_batcher.h"
#include "plugins/intel/intel_program_cache.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/dialect.h"

namespace phal::intel {

// Immutable once opened: every method may run on many threads at once.
class Device {
 public:
  static constexpr uint32_t kDeviceMemorySpace = 0;

  Device(uint32_t ordinal, cl_platform_id platform, cl_device_id device,
         cl_context context);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  Status GetProperties(phal_device_properties_t* out) const;
  Status GetMemorySpace(uint32_t index, phal_memory_space_info_t* out) const;

  cl_device_id id() const { return device_; }
  cl_context context() const { return context_; }
  uint64_t max_allocation_bytes() const { return max_allocation_bytes_; }
  // What the source emitter needs to know of the device.
  const source_emitter::DeviceFeatures& features() const { return features_; }
  // Options every program is built with.
  const std::string& build_options() const { return build_options_; }
  // Names the compiler: device, driver and platform versions (program cache
  // keys).
  const std::string& compiler_identity() const { return compiler_identity_; }
  ProgramCache& program_cache() const { return *program_cache_; }
  // Where the driver caches programs itself (PoCL): the batcher that builds
  // kernels at their first launch; else null, and kernels build at emit.
  ProgramBatcher* program_batcher() const { return program_batcher_.get(); }

 private:
  uint32_t ordinal_;
  cl_device_id device_;
  cl_context context_;
  std::string name_, vendor_, driver_version_, extensions_;
  phal_device_kind_t kind_ = PHAL_DEVICE_KIND_UNKNOWN;
  uint32_t compute_units_ = 0;
  uint64_t memory_bytes_ = 0;
  uint64_t max_allocation_bytes_ = 0;
  uint64_t min_alignment_ = 0;
  bool unified_memory_ = false;
  uint8_t uuid_[16] = {};
  source_emitter::DeviceFeatures features_;
  std::string build_options_;
  std::string compiler_identity_;
  std::unique_ptr<ProgramCache> program_cache_ =
      std::make_unique<ProgramCache>();
  std::unique_ptr<ProgramBatcher> program_batcher_;
};

// Releases the OpenCL contexts devices share (one per OpenCL device, kept
// from its first open). Called by shutdown, after every device has closed.
void ReleaseContexts();

}  // namespace phal::intel

struct phal_plugin_device final : phal::intel::Device {
  using Device::Device;
};

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_DEVICE_H_
