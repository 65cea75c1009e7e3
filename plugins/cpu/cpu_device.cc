#include "plugins/cpu/cpu_device.h"
#include "plugins/cpu/cpu_plugin.h"
#include "plugins/cpu/cpu_vector_clones.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <utility>

#include "plugins/cpu/cpu_kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/plugin_support/compile_targets.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::cpu {
namespace {

// PHAL_CPU_THREADS when it holds a positive number, else the core count.
unsigned KernelThreadCount(unsigned online_cores) {
  const char* configured = std::getenv("PHAL_CPU_THREADS");
  if (configured != nullptr) {
    const long count = std::strtol(configured, nullptr, 10);
    if (count > 0 && count <= 1024) return static_cast<unsigned>(count);
  }
  return std::max(1u, online_cores);
}

// The pool of the devices open now, or a new one of `thread_count` threads
// when none is: every device of the plugin shares one.
std::shared_ptr<ThreadPool> SharedThreadPool(unsigned thread_count) {
  static std::mutex mutex;
  static auto* shared = new std::weak_ptr<ThreadPool>();
  std::lock_guard<std::mutex> lock(mutex);
  std::shared_ptr<ThreadPool> pool = shared->lock();
  if (pool == nullptr) {
    pool = std::make_shared<ThreadPool>(thread_count);
    *shared = pool;
  }
  return pool;
}

std::string DriverVersion(const CpuInfo& info) {
  return std::string(PHAL_PLUGIN_VERSION) + " (Linux " + info.kernel_release +
         ")";
}

}  // namespace

Device::Device(CpuInfo info, size_t ordinal, size_t count)
    : info_(std::move(info)),
      driver_version_(DriverVersion(info_)),
      ordinal_(static_cast<uint32_t>(ordinal)),
      name_(VirtualDeviceName(info_.model_name, ordinal, count)),
      uuid_(VirtualDeviceUuid(info_.uuid, ordinal)) {}

Device::Device(CpuInfo info, const char* target)
    : info_(std::move(info)),
      driver_version_(DriverVersion(info_)),
      target_(target),
      name_("cpu target " + std::string(target) + " (compile only, " +
            info_.model_name + ")"),
      uuid_(info_.uuid) {}

Status Device::CheckRunnable(const char* what) const {
  if (target_ == nullptr) return OkStatus();
  return CompileOnlyDeviceError("cpu plugin", target_, what);
}

ThreadPool& Device::thread_pool() const {
  std::call_once(thread_pool_started_, [&] {
    SetTargetVectorIsa(VectorIsaOfFeatures(info_.features));
    thread_pool_ = SharedThreadPool(KernelThreadCount(info_.online_cores));
  });
  return *thread_pool_;
}

uint64_t Device::max_allocation_bytes() const {
  return std::min<uint64_t>(info_.physical_memory_bytes, PTRDIFF_MAX);
}

Status Device::GetProperties(phal_device_properties_t* out) const {
  phal_device_properties_t full{};
  full.name = name_.c_str();
  full.vendor = info_.vendor.c_str();
  full.driver_version = driver_version_.c_str();
  full.features = info_.features.c_str();
  full.kind = PHAL_DEVICE_KIND_CPU;
  full.ordinal = ordinal_;
  full.compute_units = info_.online_cores;
  full.memory_space_count = kMemorySpaceCount;
  full.memory_bytes = info_.physical_memory_bytes;
  full.max_allocation_bytes = max_allocation_bytes();
  full.min_alignment = min_alignment();
  full.element_types = kAllElementTypesMask;
  full.flags = target_ == nullptr ? PHAL_DEVICE_FLAG_ASYNC_STREAMS |
                                        PHAL_DEVICE_FLAG_HOST_ADDRESSABLE
                                  : PHAL_DEVICE_FLAG_COMPILE_ONLY;
  std::copy(uuid_.begin(), uuid_.end(), full.uuid);
  full.kernel_kinds = CompiledKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace("cpu plugin", index, kHostMemorySpace, "host",
                           PHAL_MEMORY_KIND_UNIFIED,
                           info_.physical_memory_bytes, out);
}

namespace {

// A compile-only device of kTargets[index].
StatusOr<std::unique_ptr<phal_plugin_device>> OpenTargetDevice(size_t index) {
  return std::make_unique<phal_plugin_device>(ProbeCpuInfo(), kTargets[index]);
}

// Device `ordinal` of the `count` the plugin has now.
StatusOr<std::unique_ptr<phal_plugin_device>> OpenDevice(size_t ordinal,
                                                         size_t count) {
  return std::make_unique<phal_plugin_device>(ProbeCpuInfo(), ordinal, count);
}

}  // namespace

// One device, the host CPU, or PHAL_VIRTUAL_DEVICES of them sharing it.
PHAL_DEFINE_VIRTUAL_DEVICE_SLOTS("cpu plugin")

PHAL_DEFINE_TARGET_SLOTS(kTargets, "cpu plugin")

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::cpu
