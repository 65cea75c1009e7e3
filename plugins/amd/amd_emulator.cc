#include "plugins/amd/amd_emulator.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "sdk/gpu_plugin/gpu_emulator.h"

namespace phal::amd {

// The runtime's opaque handle types, defined by the emulator: streams and
// events that hold nothing (work is done when queued), and modules of one
// kernel, which is also the module's one function.
struct ihipStream_t {};
struct ihipEvent_t {};
struct ihipModule_t {
  std::unique_ptr<llvm_emitter::grid::GridDeviceModule> module;
};

namespace {

using gpu_plugin::EmulatedCopy;
using gpu_plugin::EmulatedCreate;
using gpu_plugin::EmulatedDestroy;
using gpu_plugin::EmulatedMemory;
using gpu_plugin::EmulatedNothingToDo;
using llvm_emitter::grid::GridDeviceMemory;
using llvm_emitter::grid::GridDeviceModule;

// An Instinct MI210's figures (gfx90a, CDNA 2), so that what the plugin
// derives from them (block sizes, LDS) is what a real gfx90a would give.
constexpr char kName[] = "amd (emulated gfx90a)";
constexpr char kArchName[] = "gfx90a:sramecc+:xnack-";
constexpr int kVersion = 60032830;  // HIP 6.0.32830 (ROCm 6.0)
constexpr int kComputeUnits = 104;
constexpr gpu_plugin::EmulatedLaunchLimits kLaunchLimits{
    1024, {1024, 1024, 1024}, {2147483647, 65535, 65535}};
constexpr int kMaxThreadsPerBlock = kLaunchLimits.max_threads_per_block;
constexpr int kLdsBytesPerBlock = 64 * 1024;
constexpr int kWaveSize = 64;
constexpr int kClockKhz = 1700000;
constexpr int kL2Bytes = 8 * 1024 * 1024;

constexpr llvm_emitter::grid::GridLimits kLimits{kWaveSize, kMaxThreadsPerBlock,
                                                 kLdsBytesPerBlock};

hipError_t Fail(hipError_t result, std::string detail) {
  gpu_plugin::SetEmulatorErrorDetail(std::move(detail));
  return result;
}

hipError_t Succeed() {
  gpu_plugin::SetEmulatorErrorDetail("");
  return hipSuccess;
}

// `status` as a result: hipSuccess, or `failure` with its message.
hipError_t Answer(const Status& status, hipError_t failure) {
  return status.ok() ? Succeed() : Fail(failure, status.message());
}

hipError_t CheckDevice(int device) {
  return Answer(gpu_plugin::CheckEmulatedDevice(device), hipErrorInvalidDevice);
}

hipError_t Init(unsigned int flags) {
  if (flags != 0) return Fail(hipErrorInvalidValue, "hipInit flags");
  return Succeed();
}

hipError_t GetVersion(int* version) {
  *version = kVersion;
  return Succeed();
}

const char* GetErrorName(hipError_t error) {
  switch (error) {
#define PHAL_EMULATOR_ERROR_NAME(code) \
  case code:                           \
    return #code;
    PHAL_EMULATOR_ERROR_NAME(hipSuccess)
    PHAL_EMULATOR_ERROR_NAME(hipErrorInvalidValue)
    PHAL_EMULATOR_ERROR_NAME(hipErrorOutOfMemory)
    PHAL_EMULATOR_ERROR_NAME(hipErrorInvalidDevice)
    PHAL_EMULATOR_ERROR_NAME(hipErrorInvalidImage)
    PHAL_EMULATOR_ERROR_NAME(hipErrorNotFound)
    PHAL_EMULATOR_ERROR_NAME(hipErrorLaunchFailure)
#undef PHAL_EMULATOR_ERROR_NAME
    default:
      return "hipErrorUnknown";
  }
}

const char* GetErrorString(hipError_t error) {
  switch (error) {
    case hipSuccess:
      return "no error";
    case hipErrorInvalidValue:
      return "invalid argument";
    case hipErrorOutOfMemory:
      return "out of memory";
    case hipErrorInvalidImage:
      return "device kernel image is invalid";
    case hipErrorNotFound:
      return "named symbol not found";
    case hipErrorLaunchFailure:
      return "unspecified launch failure";
    default:
      return GetErrorName(error);
  }
}

hipError_t GetDeviceCount(int* count) {
  *count = gpu_plugin::EmulatedDeviceCount();
  return Succeed();
}

// The calling thread's current device, as hipSetDevice left it.
thread_local int current_device = 0;

hipError_t GetDevice(int* device) {
  *device = current_device;
  return Succeed();
}

hipError_t SetDevice(int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  current_device = device;
  return Succeed();
}

hipError_t DeviceGetName(char* name, int length, int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  return Answer(gpu_plugin::CopyEmulatedName(kName, name, length),
                hipErrorInvalidValue);
}

hipError_t DeviceGetAttribute(int* value, hipDeviceAttribute_t attribute,
                              int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  const std::pair<hipDeviceAttribute_t, int> attributes[] = {
      {hipDeviceAttributeClockRate, kClockKhz},
      {hipDeviceAttributeL2CacheSize, kL2Bytes},
      {hipDeviceAttributeMaxBlockDimX, kLaunchLimits.max_block[0]},
      {hipDeviceAttributeMaxBlockDimY, kLaunchLimits.max_block[1]},
      {hipDeviceAttributeMaxBlockDimZ, kLaunchLimits.max_block[2]},
      {hipDeviceAttributeMaxGridDimX, kLaunchLimits.max_grid[0]},
      {hipDeviceAttributeMaxGridDimY, kLaunchLimits.max_grid[1]},
      {hipDeviceAttributeMaxGridDimZ, kLaunchLimits.max_grid[2]},
      {hipDeviceAttributeMaxThreadsPerBlock, kMaxThreadsPerBlock},
      {hipDeviceAttributeMultiprocessorCount, kComputeUnits},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, kLdsBytesPerBlock},
      {hipDeviceAttributeWarpSize, kWaveSize},
  };
  for (const auto& [which, figure] : attributes) {
    if (which != attribute) continue;
    *value = figure;
    return Succeed();
  }
  *value = 0;
  return Fail(hipErrorInvalidValue,
              "attribute " + std::to_string(static_cast<int>(attribute)) +
                  " is not emulated");
}

hipError_t DeviceTotalMem(size_t* bytes, int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  *bytes = static_cast<size_t>(GridDeviceMemory::CapacityBytes());
  return Succeed();
}

// A runtime's hipDeviceProp_t holds the name first and gcnArchName further
// on; the plugin looks for the architecture by its form, not its offset.
hipError_t GetDeviceProperties(void* properties, int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  char* bytes = static_cast<char*>(properties);
  std::memset(bytes, 0, 1024);
  std::memcpy(bytes, kName, sizeof(kName));
  std::memcpy(bytes + 512, kArchName, sizeof(kArchName));
  return Succeed();
}

hipError_t Malloc(void** address, size_t bytes) {
  StatusOr<void*> memory = EmulatedMemory().Allocate(bytes);
  if (!memory.ok()) {
    return Fail(memory.status().code() == PHAL_RESOURCE_EXHAUSTED
                    ? hipErrorOutOfMemory
                    : hipErrorInvalidValue,
                "hipMalloc: " + memory.status().message());
  }
  *address = *memory;
  return Succeed();
}

hipError_t Free(void* address) {
  if (!EmulatedMemory().Free(address).ok()) {
    return Fail(hipErrorInvalidValue,
                "hipFree of an address hipMalloc did not return");
  }
  return Succeed();
}

hipError_t ModuleLoadData(hipModule_t* module, const void* image) {
  auto loaded = GridDeviceModule::Load(image, "AMDGPU code objects");
  if (!loaded.ok()) {
    return Fail(hipErrorInvalidImage, loaded.status().message());
  }
  *module = new ihipModule_t{std::move(*loaded)};
  return Succeed();
}

hipError_t ModuleGetFunction(hipFunction_t* function, hipModule_t module,
                             const char* name) {
  const Status found = module->module->FindFunction(name);
  if (!found.ok()) return Fail(hipErrorNotFound, found.message());
  *function = reinterpret_cast<hipFunction_t>(module);
  return Succeed();
}

hipError_t ModuleLaunchKernel(hipFunction_t function, unsigned int grid_x,
                              unsigned int grid_y, unsigned int grid_z,
                              unsigned int block_x, unsigned int block_y,
                              unsigned int block_z, unsigned int shared_bytes,
                              hipStream_t /*stream*/, void** parameters,
                              void** extra) {
  if (extra != nullptr) {
    return Fail(hipErrorInvalidValue, "hipModuleLaunchKernel's extra");
  }
  const unsigned int grid[3] = {grid_x, grid_y, grid_z};
  const unsigned int block[3] = {block_x, block_y, block_z};
  const Status checked =
      gpu_plugin::CheckEmulatedLaunch(kLaunchLimits, grid, block);
  if (!checked.ok()) return Answer(checked, hipErrorInvalidValue);
  return Answer(reinterpret_cast<hipModule_t>(function)->module->Run(
                    grid, block, shared_bytes, parameters, EmulatedMemory()),
                hipErrorLaunchFailure);
}

Hip MakeEmulatedHip() {
  return Hip{
      .implementation = "the grid emulator",
      .runtime_version = kVersion,
      .driver_version = kVersion,
      .hipInit = Init,
      .hipRuntimeGetVersion = GetVersion,
      .hipDriverGetVersion = GetVersion,
      .hipGetErrorName = GetErrorName,
      .hipGetErrorString = GetErrorString,
      .hipGetDeviceCount = GetDeviceCount,
      .hipGetDevice = GetDevice,
      .hipSetDevice = SetDevice,
      .hipDeviceGetName = DeviceGetName,
      .hipDeviceGetAttribute = DeviceGetAttribute,
      .hipDeviceTotalMem = DeviceTotalMem,
      .hipGetDeviceProperties = GetDeviceProperties,
      .hipMalloc = Malloc,
      .hipFree = Free,
      .hipMemcpyHtoDAsync = EmulatedCopy<hipSuccess>,
      .hipMemcpyDtoHAsync = EmulatedCopy<hipSuccess>,
      .hipMemcpyDtoDAsync = EmulatedCopy<hipSuccess>,
      .hipStreamCreateWithFlags = EmulatedCreate<hipSuccess>,
      .hipStreamDestroy = EmulatedDestroy<hipSuccess>,
      .hipStreamSynchronize = EmulatedNothingToDo<hipSuccess, hipStream_t>,
      .hipStreamWaitEvent = EmulatedNothingToDo<hipSuccess, hipStream_t,
                                                hipEvent_t, unsigned int>,
      .hipEventCreateWithFlags = EmulatedCreate<hipSuccess>,
      .hipEventDestroy = EmulatedDestroy<hipSuccess>,
      .hipEventRecord =
          EmulatedNothingToDo<hipSuccess, hipEvent_t, hipStream_t>,
      .hipEventSynchronize = EmulatedNothingToDo<hipSuccess, hipEvent_t>,
      .hipEventQuery = EmulatedNothingToDo<hipSuccess, hipEvent_t>,
      .hipModuleLoadData = ModuleLoadData,
      .hipModuleUnload = EmulatedDestroy<hipSuccess>,
      .hipModuleGetFunction = ModuleGetFunction,
      .hipModuleLaunchKernel = ModuleLaunchKernel,
      .last_error_detail = gpu_plugin::EmulatorErrorDetail,
  };
}

}  // namespace

const Hip& EmulatedHip() {
  static const Hip* hip = new Hip(MakeEmulatedHip());
  return *hip;
}

StatusOr<llvm_emitter::grid::GridDeviceImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel) {
  return llvm_emitter::grid::CompileGridDeviceImage(kernel, kLimits);
}

}  // namespace phal::amd
