#include "plugins/intel/intel_device.h"
#include "plugins/intel/intel_plugin.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/base/extensible_struct.h"
#include "sdk/emitters/source/source_emitter.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::intel {
namespace {

// CL_DEVICE_UUID_KHR of cl_khr_device_uuid (OpenCL 3.0 headers name it).
constexpr cl_device_info kDeviceUuid = 0x106A;

struct Entry {
  cl_platform_id platform;
  cl_device_id device;
};

// The devices of this machine, found once per process.
struct Enumeration {
  std::vector<Entry> devices;
  std::string reason;  // why there are none
};

// PoCL keeps a kernel cache of its own unless POCL_KERNEL_CACHE=0
// (intel_program_cache.h).
bool DriverCachesPrograms(const std::string& platform_name) {
  if (platform_name != "Portable Computing Language") return false;
  const char* cache = std::getenv("POCL_KERNEL_CACHE");
  return cache == nullptr || std::string(cache) != "0";
}

std::string PlatformString(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  if (Cl().GetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS) {
    return "";
  }
  std::string value(size, '\0');
  Cl().GetPlatformInfo(platform, what, size, value.data(), nullptr);
  value.resize(std::strlen(value.c_str()));
  return value;
}

std::string DeviceString(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  if (Cl().GetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS) {
    return "";
  }
  std::string value(size, '\0');
  Cl().GetDeviceInfo(device, what, size, value.data(), nullptr);
  value.resize(std::strlen(value.c_str()));
  return value;
}

template <typename T>
T DeviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  if (Cl().GetDeviceInfo(device, what, sizeof(value), &value, nullptr) !=
      CL_SUCCESS) {
    return T{};
  }
  return value;
}

// "OpenCL 1.2 pocl ..." -> true when at least 1.2.
bool SpeaksOpenCl12(cl_device_id device) {
  const std::string version = DeviceString(device, CL_DEVICE_VERSION);
  int major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2) {
    return false;
  }
  return major > 1 || (major == 1 && minor >= 2);
}

bool HasExtension(const std::string& extensions, const std::string& name) {
  const std::string padded = " " + extensions + " ";
  return padded.find(" " + name + " ") != std::string::npos;
}

// GPUs before other devices, Intel's before other vendors'.
int Rank(cl_device_id device) {
  const auto type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE);
  std::string vendor = DeviceString(device, CL_DEVICE_VENDOR);
  std::transform(vendor.begin(), vendor.end(), vendor.begin(), ::tolower);
  const bool gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  const bool intel = vendor.find("intel") != std::string::npos;
  return (gpu ? 0 : 2) + (intel ? 0 : 1);
}

Enumeration Enumerate() {
  Enumeration result;
  if (LoadOpenCl(&result.reason) == nullptr) return result;
  cl_uint platform_count = 0;
  cl_int error = Cl().GetPlatformIDs(0, nullptr, &platform_count);
  if (error != CL_SUCCESS || platform_count == 0) {
    result.reason = "no OpenCL platform is installed (clGetPlatformIDs: " +
                    ErrorName(error) +
                    "); install a driver such as "
                    "intel-opencl-icd or pocl-opencl-icd";
    return result;
  }
  std::vector<cl_platform_id> platforms(platform_count);
  Cl().GetPlatformIDs(platform_count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    cl_uint count = 0;
    if (Cl().GetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) !=
            CL_SUCCESS ||
        count == 0) {
      continue;
    }
    std::vector<cl_device_id> devices(count);
    Cl().GetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(),
                      nullptr);
    for (cl_device_id device : devices) {
      if (SpeaksOpenCl12(device)) result.devices.push_back({platform, device});
    }
  }
  std::stable_sort(result.devices.begin(), result.devices.end(),
                   [](const Entry& a, const Entry& b) {
                     return Rank(a.device) < Rank(b.device);
                   });
  if (result.devices.empty()) {
    result.reason =
        "the OpenCL platforms have no device of OpenCL 1.2 or later";
  }
  return result;
}

const Enumeration& Devices() {
  static const Enumeration enumeration = Enumerate();
  return enumeration;
}

// One OpenCL context per device for the whole process, made at the first
// open and released at shutdown: a context is heavyweight, and drivers
// (PoCL among them) keep the memory of a released context's buffers, so a
// context per open grows the process with every client.
struct Contexts {
  std::mutex mutex;
  std::vector<std::pair<cl_device_id, cl_context>> made;
};

Contexts& TheContexts() {
  static Contexts* contexts = new Contexts;
  return *contexts;
}

StatusOr<cl_context> SharedContext(const Entry& entry) {
  Contexts& contexts = TheContexts();
  std::lock_guard lock(contexts.mutex);
  for (const auto& [device, context] : contexts.made) {
    if (device == entry.device) return context;
  }
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(entry.platform), 0};
  cl_int error = CL_SUCCESS;
  cl_context context = Cl().CreateContext(properties, 1, &entry.device, nullptr,
                                          nullptr, &error);
  if (context == nullptr) return ClError("clCreateContext", error);
  contexts.made.emplace_back(entry.device, context);
  return context;
}

}  // namespace

void ReleaseContexts() {
  Contexts& contexts = TheContexts();
  std::lock_guard lock(contexts.mutex);
  for (const auto& [device, context] : contexts.made) {
    Cl().ReleaseContext(context);
  }
  contexts.made.clear();
}

Device::Device(uint32_t ordinal, cl_platform_id platform, cl_device_id device,
               cl_context context)
    : ordinal_(ordinal), device_(device), context_(context) {
  name_ = DeviceString(device, CL_DEVICE_NAME);
  vendor_ = DeviceString(device, CL_DEVICE_VENDOR);
  extensions_ = DeviceString(device, CL_DEVICE_EXTENSIONS);
  const std::string platform_name = PlatformString(platform, CL_PLATFORM_NAME);
  const std::string device_version = DeviceString(device, CL_DEVICE_VERSION);
  driver_version_ = DeviceString(device, CL_DRIVER_VERSION) + " (" +
                    platform_name + ", " + device_version + ")";
  const auto type = DeviceValue<cl_device_type>(device, CL_DEVICE_TYPE);
  kind_ = (type & CL_DEVICE_TYPE_GPU) != 0   ? PHAL_DEVICE_KIND_GPU
          : (type & CL_DEVICE_TYPE_CPU) != 0 ? PHAL_DEVICE_KIND_CPU
          : (type & CL_DEVICE_TYPE_ACCELERATOR) != 0
              ? PHAL_DEVICE_KIND_ACCELERATOR
              : PHAL_DEVICE_KIND_UNKNOWN;
  compute_units_ = DeviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  memory_bytes_ = DeviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  max_allocation_bytes_ =
      DeviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  min_alignment_ = std::max<uint64_t>(
      16, DeviceValue<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  unified_memory_ =
      DeviceValue<cl_bool>(device, CL_DEVICE_HOST_UNIFIED_MEMORY) != 0;
  if (HasExtension(extensions_, "cl_khr_device_uuid")) {
    Cl().GetDeviceInfo(device, kDeviceUuid, sizeof(uuid_), uuid_, nullptr);
  }
  features_.fp64 = HasExtension(extensions_, "cl_khr_fp64");
  features_.fp16 = HasExtension(extensions_, "cl_khr_fp16");
  const auto single =
      DeviceValue<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG);
  features_.correctly_rounded_divide_sqrt =
      (single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  features_.max_work_group_size = std::max<uint64_t>(
      1, DeviceValue<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  build_options_ = "-cl-std=CL1.2";
  if (features_.correctly_rounded_divide_sqrt) {
    build_options_ += " -cl-fp32-correctly-rounded-divide-sqrt";
  }
  if (const char* extra = std::getenv("PHAL_INTEL_BUILD_OPTIONS")) {
    build_options_ += std::string(" ") + extra;
  }
  compiler_identity_ = name_ + "|" + driver_version_ + "|" +
                       PlatformString(platform, CL_PLATFORM_VERSION) + "|" +
                       PHAL_PLUGIN_VERSION;
  if (DriverCachesPrograms(platform_name)) {
    program_batcher_ =
        std::make_unique<ProgramBatcher>(context_, device_, build_options_);
  }
}

Device::~Device() = default;

Status Device::GetProperties(phal_device_properties_t* out) const {
  uint64_t element_types = 0;
  for (uint32_t type = PHAL_ELEMENT_TYPE_PRED; type <= PHAL_ELEMENT_TYPE_C128;
       ++type) {
    const bool wide =
        type == PHAL_ELEMENT_TYPE_F64 || type == PHAL_ELEMENT_TYPE_C128;
    if (!wide || features_.fp64) element_types |= uint64_t{1} << type;
  }
  phal_device_properties_t full{};
  full.name = name_.c_str();
  full.vendor = vendor_.c_str();
  full.driver_version = driver_version_.c_str();
  full.features = extensions_.c_str();
  full.kind = kind_;
  full.ordinal = ordinal_;
  full.compute_units = compute_units_;
  full.memory_space_count = 1;
  full.memory_bytes = memory_bytes_;
  full.max_allocation_bytes = max_allocation_bytes_;
  full.min_alignment = min_alignment_;
  full.element_types = element_types;
  // Buffers are cl_mem objects: never host addresses, even on a CPU device.
  full.flags = PHAL_DEVICE_FLAG_ASYNC_STREAMS;
  std::memcpy(full.uuid, uuid_, sizeof(uuid_));
  full.kernel_kinds = source_emitter::SupportedKernelKinds();
  return CopyFittingMembers(full, out);
}

Status Device::GetMemorySpace(uint32_t index,
                              phal_memory_space_info_t* out) const {
  return AnswerMemorySpace(
      "intel plugin", index, kDeviceMemorySpace, "global",
      unified_memory_ ? PHAL_MEMORY_KIND_UNIFIED : PHAL_MEMORY_KIND_DEVICE,
      memory_bytes_, out);
}

phal_status_t* DeviceCount(size_t* out_count,
                           const char** out_reason) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const Enumeration& devices = Devices();
    *out_count = devices.devices.size();
    if (out_reason != nullptr) {
      *out_reason = devices.devices.empty() ? devices.reason.c_str() : nullptr;
    }
    return OkStatus();
  });
}

phal_status_t* DeviceOpen(size_t ordinal,
                          phal_plugin_device_t** out_device) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const Enumeration& devices = Devices();
    PHAL_RETURN_IF_ERROR(
        CheckDeviceOrdinal("intel plugin", ordinal, devices.devices.size()));
    const Entry& entry = devices.devices[ordinal];
    PHAL_ASSIGN_OR_RETURN(cl_context context, SharedContext(entry));
    *out_device = std::make_unique<phal_plugin_device>(
                      static_cast<uint32_t>(ordinal), entry.platform,
                      entry.device, context)
                      .release();
    return OkStatus();
  });
}

PHAL_DEFINE_DEVICE_QUERY_SLOTS()

}  // namespace phal::intel
