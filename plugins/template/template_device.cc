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
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::template_plugin {
namespace {

constexpr const char* kDeviceName =
    "Polyhal template device (host memory, KIR interpreter)";

uint32_t OnlineCores() {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<uint32_t>(cores) : 1;
}

}  // namespace

// TODO(vendor): read the name and UUID of device `ordinal` from your driver.
Device::Device(size_t ordinal, size_t count)
    : memory_bytes_(HostPhysicalMemoryBytes()),
      compute_units_(OnlineCores()),
      ordinal_(static_cast<uint32_t>(ordinal)),
      name_(VirtualDeviceName(kDeviceName, ordinal, count)),
      uuid_(VirtualDeviceUuid(NameBasedUuid(kDeviceName), ordinal)) {}

Device::Device(const char* target)
    : memory_bytes_(HostPhysicalMemoryBytes()),
      compute_units_(OnlineCores()),
      target_(target),
      name_("Polyhal template target host (compile only)") {}

Status Device::CheckRunnable(const char* what) const {
  if (target_ == nullptr) return OkStatus();
  return CompileOnlyDeviceError("template plugin", target_, what);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = name_.c_str();
  full.vendor = "Polyhal";
  full.driver_version = PHAL_PLUGIN_VERSION;
  full.features = "";
  // TODO(vendor): PHAL_DEVICE_KIND_GPU or _ACCELERATOR for your device.
  full.kind = PHAL_DEVICE_KIND_CPU;
  full.ordinal = ordinal_;
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
  std::copy(uuid_.begin(), uuid_.end(), full.uuid);
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

// Device `ordinal` of the `count` the plugin has now.
StatusOr<std::unique_ptr<phal_plugin_device>> OpenDevice(size_t ordinal,
                                                         size_t count) {
  return std::make_unique<phal_plugin_device>(ordinal, count);
}

}  // namespace

// device_count and device_open: one device, or PHAL_VIRTUAL_DEVICES of
// them. TODO(vendor): count the devices your driver finds and open them
// (CheckDeviceOrdinal checks the ordinal). With no driver or no device,
// report 0 and say why in *out_reason: that is not an error. Keep
// PHAL_DEFINE_VIRTUAL_DEVICE_SLOTS only if your device can be shared by
// several virtual devices, as host memory can.
PHAL_DEFINE_VIRTUAL_DEVICE_SLOTS("template plugin")

// target_get_names and target_device_open, over kTargets and
// OpenTargetDevice.
PHAL_DEFINE_TARGET_SLOTS(kTargets, "template plugin")

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::template_plugin
