#include "template_device.h"
#include "template_plugin.h"

#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>

#include "sdk/base/element_types.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::template_plugin {
namespace {

uint32_t OnlineCores() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<uint32_t>(cores) : 1;
}

}  // namespace

Device::Device()
    : memory_bytes_(HostPhysicalMemoryBytes()), compute_units_(OnlineCores()) {}

Device::Device(const char* target) : Device() { target_ = target; }

Status Device::CheckRunnable(const char* what) const {
  if (target_ == nullptr) return OkStatus();
  return CompileOnlyDeviceError("template plugin", target_, what);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = target_ == nullptr
                  ? "Polyhal template device (host memory, KIR interpreter)"
                  : "Polyhal template target host (compile only)";
  full.vendor = "Polyhal";
  full.driver_version = PHAL_PLUGIN_VERSION;
  full.features = "";
  // TODO(vendor): PHAL_DEVICE_KIND_GPU or _ACCELERATOR for your device.
  full.kind = PHAL_DEVICE_KIND_CPU;
  full.ordinal = 0;
  full.compute_units = compute_units_;
  full.memory_space_count = kMemorySpaceCount;
  full.memory_bytes = memory_bytes_;
  full.max_allocation_bytes = std::min<uint64_t>(memory_bytes_, PTRDIFF_MAX);
  full.min_alignment = kMinAlignment;
  full.element_types = kAllElementTypesMask;
  // Streams run their work before their calls return (template_stream.h),
  // so the device does not claim PHAL_DEVICE_FLAG_ASYNC_STREAMS.
  full.flags = target_ == nullptr ? PHAL_DEVICE_FLAG_HOST_ADDRESSABLE
                                  : PHAL_DEVICE_FLAG_COMPILE_ONLY;
  full.kernel_kinds = kAllKernelKinds;
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace("template plugin", index, kHostMemorySpace, "host",
                           PHAL_MEMORY_KIND_UNIFIED, memory_bytes_, out);
}

namespace {

// A compile-only device of kTargets[index]. TODO(vendor): open what your
// compiler needs for the target (no driver, no device: ahead-of-time builds
// run where the hardware is absent).
StatusOr<std::unique_ptr<phal_plugin_device>> OpenTargetDevice(size_t index) {
  return std::make_unique<phal_plugin_device>(kTargets[index]);
}

}  // namespace

// TODO(vendor): count the devices your driver finds. With no driver or no
// device, report 0 and say why in *out_reason: that is not an error.
phal_status_t* DeviceCount(size_t* out_count,
                           const char** out_reason) noexcept {
  *out_count = 1;
  if (out_reason != nullptr) *out_reason = nullptr;
  return nullptr;
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    PHAL_RETURN_IF_ERROR(CheckDeviceOrdinal("template plugin", ordinal, 1));
    *out_device = std::make_unique<phal_plugin_device>().release();
    return OkStatus();
  });
}

// target_get_names and target_device_open, over kTargets and
// OpenTargetDevice.
PHAL_DEFINE_TARGET_SLOTS(kTargets, "template plugin")

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::template_plugin
