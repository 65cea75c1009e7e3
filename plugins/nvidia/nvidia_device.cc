// Devices: every GPU the CUDA driver reports, then, with
// PHAL_GPU_EMULATION=1, "nvidia (emulated sm_90)" of the emulator's table
// (nvidia_emulator.h); the catalogue, the properties and the compile-only
// devices are the GPU plugin layer's (sdk/gpu_plugin/gpu_device.h). Here:
// what the driver says of a device, and its primary context.
#include <cstdlib>
#include <string>
#include <string_view>

#include "plugins/nvidia/nvidia_plugin.h"

namespace phal::nvidia {
namespace {

// The limits the properties' features list after the driver.
struct Limits {
  int compute_capability = 0;  // major * 10 + minor: 90 for sm_90
  int multiprocessors = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int shared_bytes_per_block = 0;
  int shared_bytes_per_block_optin = 0;
  int max_grid[3] = {};
  int clock_khz = 0;
  int l2_bytes = 0;
};

std::string Arch(int compute_capability) {
  return "sm_" + std::to_string(compute_capability);
}

std::string LimitsText(const Limits& limits) {
  return Arch(limits.compute_capability) +
         " multiprocessors=" + std::to_string(limits.multiprocessors) +
         " warp_size=" + std::to_string(limits.warp_size) +
         " max_threads_per_block=" +
         std::to_string(limits.max_threads_per_block) +
         " shared_memory_per_block=" +
         std::to_string(limits.shared_bytes_per_block) +
         " shared_memory_per_block_optin=" +
         std::to_string(limits.shared_bytes_per_block_optin) +
         " max_grid=" + std::to_string(limits.max_grid[0]) + "x" +
         std::to_string(limits.max_grid[1]) + "x" +
         std::to_string(limits.max_grid[2]) +
         " clock_khz=" + std::to_string(limits.clock_khz) +
         " l2_bytes=" + std::to_string(limits.l2_bytes);
}

}  // namespace

std::string CudaDriver::Description() const {
  return "the CUDA driver " + DriverVersionText(cuda_.driver_version);
}

std::string CudaDriver::PropertiesVersion() const {
  return (emulated_ ? "grid emulator, CUDA driver API " : "CUDA driver ") +
         DriverVersionText(cuda_.driver_version);
}

std::string CudaDriver::FeaturesVersion() const {
  return "cuda " + DriverVersionText(cuda_.driver_version);
}

Status CudaDriver::CountDevices(int* out_count) const {
  return Check(cuda_.cuDeviceGetCount(out_count), "cuDeviceGetCount");
}

// An attribute the driver cannot answer stays 0; only a missing compute
// capability refuses the device.
Status CudaDriver::ReadDevice(int ordinal, GpuDeviceInfo* out) const {
  CUdevice device = 0;
  PHAL_RETURN_IF_ERROR(
      Check(cuda_.cuDeviceGet(&device, ordinal), "cuDeviceGet"));
  char name[256] = {};
  PHAL_RETURN_IF_ERROR(Check(cuda_.cuDeviceGetName(name, sizeof(name), device),
                             "cuDeviceGetName"));
  out->name = name;
  const auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    if (cuda_.cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS) {
      value = 0;
    }
    return value;
  };
  const int major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  const int minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (major <= 0) {
    return FailedPrecondition(out->name + ": no compute capability reported");
  }
  Limits limits;
  limits.compute_capability = major * 10 + minor;
  limits.multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  limits.max_threads_per_block =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  limits.max_grid[0] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  limits.max_grid[1] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  limits.max_grid[2] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  limits.shared_bytes_per_block =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  limits.shared_bytes_per_block_optin =
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  limits.warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  limits.clock_khz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  limits.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  out->arch = Arch(limits.compute_capability);
  out->compute_units = limits.multiprocessors;
  out->limits = LimitsText(limits);
  size_t bytes = 0;
  PHAL_RETURN_IF_ERROR(
      Check(cuda_.cuDeviceTotalMem(&bytes, device), "cuDeviceTotalMem"));
  out->memory_bytes = bytes;
  return OkStatus();
}

Status CudaDriver::OpenDevice(int ordinal, void** out_context) const {
  CUdevice device = 0;
  PHAL_RETURN_IF_ERROR(
      Check(cuda_.cuDeviceGet(&device, ordinal), "cuDeviceGet"));
  CUcontext context = nullptr;
  PHAL_RETURN_IF_ERROR(Check(cuda_.cuDevicePrimaryCtxRetain(&context, device),
                             "cuDevicePrimaryCtxRetain"));
  *out_context = context;
  return OkStatus();
}

void CudaDriver::CloseDevice(int ordinal) const {
  CUdevice device = 0;
  if (cuda_.cuDeviceGet(&device, ordinal) == CUDA_SUCCESS) {
    cuda_.cuDevicePrimaryCtxRelease(device);
  }
}

Status CudaDriver::Enter(const GpuPlace& place, intptr_t* out_saved) const {
  *out_saved = 0;
  return Check(cuda_.cuCtxPushCurrent(static_cast<CUcontext>(place.context)),
               "cuCtxPushCurrent");
}

void CudaDriver::Leave(const GpuPlace& /*place*/, intptr_t /*saved*/) const {
  CUcontext popped = nullptr;
  cuda_.cuCtxPopCurrent(&popped);
}

// The limits every GPU from sm_75 on has and the NVPTX target compiles for
// (nvptx_target.h), and no memory.
GpuDeviceInfo CompileOnlyInfo(std::string_view target) {
  GpuDeviceInfo info;
  info.emulated = target.starts_with("emulated-");
  info.name = "nvidia target " + std::string(target) + " (compile only)";
  Limits limits;
  limits.compute_capability =
      std::atoi(std::string(target.substr(target.rfind('_') + 1)).c_str());
  limits.max_threads_per_block = 1024;
  limits.max_grid[0] = 2147483647;
  limits.max_grid[1] = 65535;
  limits.max_grid[2] = 65535;
  limits.shared_bytes_per_block = 48 * 1024;
  limits.warp_size = 32;
  info.arch = Arch(limits.compute_capability);
  info.limits = LimitsText(limits);
  return info;
}

}  // namespace phal::nvidia
