#include "plugins/nvidia/nvidia_emulator.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sdk/emitters/llvm/grid/grid_device.h"
#include "sdk/gpu_plugin/gpu_emulator.h"
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::nvidia {

// The driver's opaque handle types, defined by the emulator: a primary
// context per device, streams and events that hold nothing (work is done
// when queued), and
// modules of one kernel, which is also the module's one function.
struct CUctx_st {};
struct CUstream_st {};
struct CUevent_st {};
struct CUmod_st {
  std::unique_ptr<llvm_emitter::grid::GridDeviceModule> module;
};

namespace {

// An H100 SXM's figures, so that what the plugin derives from them (block
// sizes, shared memory) is what a real sm_90 device would see.
constexpr char kName[] = "nvidia (emulated sm_90)";
constexpr int kDriverVersion = 12000;
constexpr int kMultiprocessors = 132;
constexpr gpu_plugin::EmulatedLaunchLimits kLaunchLimits{
    1024, {1024, 1024, 64}, {2147483647, 65535, 65535}};
constexpr int kSharedBytesPerBlock = 48 * 1024;
constexpr int kSharedBytesPerBlockOptin = 227 * 1024;
constexpr int kWarpSize = 32;
constexpr int kClockKhz = 1980000;
constexpr int kL2Bytes = 50 * 1024 * 1024;

thread_local std::vector<CUcontext> current_contexts;

// The primary context of each device the emulator may have
// (PHAL_VIRTUAL_DEVICES); all of them share the emulated memory.
CUctx_st the_contexts[kMaxVirtualDevices];

using gpu_plugin::EmulatedCopy;
using gpu_plugin::EmulatedDestroy;
using gpu_plugin::EmulatedMemory;
using gpu_plugin::EmulatedNothingToDo;

CUresult Fail(CUresult result, std::string detail) {
  gpu_plugin::SetEmulatorErrorDetail(std::move(detail));
  return result;
}

CUresult Succeed() {
  gpu_plugin::SetEmulatorErrorDetail("");
  return CUDA_SUCCESS;
}

// `status` as a result: CUDA_SUCCESS, or `failure` with its message.
CUresult Answer(const Status& status, CUresult failure) {
  return status.ok() ? Succeed() : Fail(failure, status.message());
}

CUresult CheckDevice(CUdevice device) {
  return Answer(gpu_plugin::CheckEmulatedDevice(device),
                CUDA_ERROR_INVALID_DEVICE);
}

void* Address(CUdeviceptr address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

CUresult Init(unsigned int flags) {
  if (flags != 0) return Fail(CUDA_ERROR_INVALID_VALUE, "cuInit flags");
  return Succeed();
}

CUresult DriverGetVersion(int* version) {
  *version = kDriverVersion;
  return Succeed();
}

CUresult GetErrorName(CUresult error, const char** name) {
  switch (error) {
#define PHAL_EMULATOR_ERROR_NAME(code) \
  case code:                           \
    *name = #code;                     \
    return CUDA_SUCCESS;
    PHAL_EMULATOR_ERROR_NAME(CUDA_SUCCESS)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_INVALID_VALUE)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_OUT_OF_MEMORY)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_NOT_INITIALIZED)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_NO_DEVICE)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_INVALID_DEVICE)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_INVALID_IMAGE)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_INVALID_CONTEXT)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_INVALID_HANDLE)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_NOT_FOUND)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_NOT_READY)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_LAUNCH_FAILED)
    PHAL_EMULATOR_ERROR_NAME(CUDA_ERROR_UNKNOWN)
#undef PHAL_EMULATOR_ERROR_NAME
    default:
      *name = nullptr;
      return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult GetErrorString(CUresult error, const char** text) {
  switch (error) {
    case CUDA_SUCCESS:
      *text = "no error";
      return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE:
      *text = "invalid argument";
      return CUDA_SUCCESS;
    case CUDA_ERROR_OUT_OF_MEMORY:
      *text = "out of memory";
      return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_IMAGE:
      *text = "device kernel image is invalid";
      return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND:
      *text = "named symbol not found";
      return CUDA_SUCCESS;
    case CUDA_ERROR_LAUNCH_FAILED:
      *text = "unspecified launch failure";
      return CUDA_SUCCESS;
    default:
      return GetErrorName(error, text);
  }
}

CUresult DeviceGetCount(int* count) {
  *count = gpu_plugin::EmulatedDeviceCount();
  return Succeed();
}

CUresult DeviceGet(CUdevice* device, int ordinal) {
  if (CUresult result = CheckDevice(ordinal); result != CUDA_SUCCESS) {
    return result;
  }
  *device = ordinal;
  return Succeed();
}

CUresult DeviceGetName(char* name, int length, CUdevice device) {
  if (CUresult result = CheckDevice(device); result != CUDA_SUCCESS) {
    return result;
  }
  return Answer(gpu_plugin::CopyEmulatedName(kName, name, length),
                CUDA_ERROR_INVALID_VALUE);
}

CUresult DeviceGetAttribute(int* value, CUdevice_attribute attribute,
                            CUdevice device) {
  if (CUresult result = CheckDevice(device); result != CUDA_SUCCESS) {
    return result;
  }
  const std::pair<CUdevice_attribute, int> attributes[] = {
      {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
       kLaunchLimits.max_threads_per_block},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, kLaunchLimits.max_block[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, kLaunchLimits.max_block[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, kLaunchLimits.max_block[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, kLaunchLimits.max_grid[0]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, kLaunchLimits.max_grid[1]},
      {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, kLaunchLimits.max_grid[2]},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, kSharedBytesPerBlock},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
       kSharedBytesPerBlockOptin},
      {CU_DEVICE_ATTRIBUTE_WARP_SIZE, kWarpSize},
      {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, kClockKhz},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, kMultiprocessors},
      {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, kL2Bytes},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
       kEmulatedComputeCapability / 10},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
       kEmulatedComputeCapability % 10},
  };
  for (const auto& [which, figure] : attributes) {
    if (which != attribute) continue;
    *value = figure;
    return Succeed();
  }
  *value = 0;
  return Fail(CUDA_ERROR_INVALID_VALUE,
              "attribute " + std::to_string(static_cast<int>(attribute)) +
                  " is not emulated");
}

CUresult DeviceTotalMem(size_t* bytes, CUdevice device) {
  if (CUresult result = CheckDevice(device); result != CUDA_SUCCESS) {
    return result;
  }
  *bytes = static_cast<size_t>(
      llvm_emitter::grid::GridDeviceMemory::CapacityBytes());
  return Succeed();
}

CUresult DeviceGetUuid(CUuuid* uuid, CUdevice device) {
  if (CUresult result = CheckDevice(device); result != CUDA_SUCCESS) {
    return result;
  }
  std::memset(uuid->bytes, 0, sizeof(uuid->bytes));
  std::memcpy(uuid->bytes, "phal-emulated90", 15);
  uuid->bytes[15] = static_cast<char>(device);
  return Succeed();
}

CUresult PrimaryCtxRetain(CUcontext* context, CUdevice device) {
  if (CUresult result = CheckDevice(device); result != CUDA_SUCCESS) {
    return result;
  }
  *context = &the_contexts[device];
  return Succeed();
}

CUresult PrimaryCtxRelease(CUdevice device) { return CheckDevice(device); }

CUresult CtxPushCurrent(CUcontext context) {
  if (std::find_if(std::begin(the_contexts), std::end(the_contexts),
                   [&](const CUctx_st& known) { return &known == context; }) ==
      std::end(the_contexts)) {
    return Fail(CUDA_ERROR_INVALID_CONTEXT,
                "not one of the emulator's contexts");
  }
  current_contexts.push_back(context);
  return Succeed();
}

CUresult CtxPopCurrent(CUcontext* context) {
  if (current_contexts.empty()) {
    return Fail(CUDA_ERROR_INVALID_CONTEXT, "no context is current");
  }
  if (context != nullptr) *context = current_contexts.back();
  current_contexts.pop_back();
  return Succeed();
}

// Every call that acts on "the current context" checks there is one, as
// the driver does, so the plugin's context handling is tested here too.
CUresult CheckCurrent(const char* call) {
  if (current_contexts.empty()) {
    return Fail(CUDA_ERROR_INVALID_CONTEXT,
                std::string(call) + " with no current context");
  }
  return Succeed();
}

CUresult MemAlloc(CUdeviceptr* address, size_t bytes) {
  if (CUresult result = CheckCurrent("cuMemAlloc"); result != CUDA_SUCCESS) {
    return result;
  }
  StatusOr<void*> memory = EmulatedMemory().Allocate(bytes);
  if (!memory.ok()) {
    return Fail(memory.status().code() == PHAL_RESOURCE_EXHAUSTED
                    ? CUDA_ERROR_OUT_OF_MEMORY
                    : CUDA_ERROR_INVALID_VALUE,
                "cuMemAlloc: " + memory.status().message());
  }
  *address = reinterpret_cast<uintptr_t>(*memory);
  return Succeed();
}

CUresult MemFree(CUdeviceptr address) {
  if (!EmulatedMemory().Free(Address(address)).ok()) {
    return Fail(CUDA_ERROR_INVALID_VALUE,
                "cuMemFree of an address cuMemAlloc did not return");
  }
  return Succeed();
}

CUresult StreamCreate(CUstream* stream, unsigned int /*flags*/) {
  if (CUresult result = CheckCurrent("cuStreamCreate");
      result != CUDA_SUCCESS) {
    return result;
  }
  *stream = new CUstream_st();
  return Succeed();
}

CUresult EventCreate(CUevent* event, unsigned int /*flags*/) {
  if (CUresult result = CheckCurrent("cuEventCreate"); result != CUDA_SUCCESS) {
    return result;
  }
  *event = new CUevent_st();
  return Succeed();
}

CUresult ModuleLoadDataEx(CUmodule* module, const void* image,
                          unsigned int /*option_count*/,
                          CUjit_option* /*options*/, void** /*option_values*/) {
  auto loaded =
      llvm_emitter::grid::GridDeviceModule::Load(image, "PTX and cubins");
  if (!loaded.ok()) {
    return Fail(CUDA_ERROR_INVALID_IMAGE, loaded.status().message());
  }
  *module = new CUmod_st{std::move(*loaded)};
  return Succeed();
}

CUresult ModuleGetFunction(CUfunction* function, CUmodule module,
                           const char* name) {
  const Status found = module->module->FindFunction(name);
  if (!found.ok()) return Fail(CUDA_ERROR_NOT_FOUND, found.message());
  *function = reinterpret_cast<CUfunction>(module);
  return Succeed();
}

CUresult LaunchKernel(CUfunction function, unsigned int grid_x,
                      unsigned int grid_y, unsigned int grid_z,
                      unsigned int block_x, unsigned int block_y,
                      unsigned int block_z, unsigned int shared_bytes,
                      CUstream /*stream*/, void** parameters, void** extra) {
  if (extra != nullptr) {
    return Fail(CUDA_ERROR_INVALID_VALUE, "cuLaunchKernel's extra");
  }
  const unsigned int grid[3] = {grid_x, grid_y, grid_z};
  const unsigned int block[3] = {block_x, block_y, block_z};
  const Status checked =
      gpu_plugin::CheckEmulatedLaunch(kLaunchLimits, grid, block);
  if (!checked.ok()) return Answer(checked, CUDA_ERROR_INVALID_VALUE);
  return Answer(reinterpret_cast<CUmodule>(function)->module->Run(
                    grid, block, shared_bytes, parameters, EmulatedMemory()),
                CUDA_ERROR_LAUNCH_FAILED);
}

Cuda MakeEmulatedCuda() {
  return Cuda{
      .implementation = "the grid emulator",
      .driver_version = kDriverVersion,
      .cuInit = Init,
      .cuDriverGetVersion = DriverGetVersion,
      .cuGetErrorName = GetErrorName,
      .cuGetErrorString = GetErrorString,
      .cuDeviceGetCount = DeviceGetCount,
      .cuDeviceGet = DeviceGet,
      .cuDeviceGetName = DeviceGetName,
      .cuDeviceGetAttribute = DeviceGetAttribute,
      .cuDeviceTotalMem = DeviceTotalMem,
      .cuDeviceGetUuid = DeviceGetUuid,
      .cuDevicePrimaryCtxRetain = PrimaryCtxRetain,
      .cuDevicePrimaryCtxRelease = PrimaryCtxRelease,
      .cuCtxPushCurrent = CtxPushCurrent,
      .cuCtxPopCurrent = CtxPopCurrent,
      .cuMemAlloc = MemAlloc,
      .cuMemFree = MemFree,
      .cuMemcpyHtoDAsync = EmulatedCopy<CUDA_SUCCESS>,
      .cuMemcpyDtoHAsync = EmulatedCopy<CUDA_SUCCESS>,
      .cuMemcpyDtoDAsync = EmulatedCopy<CUDA_SUCCESS>,
      .cuStreamCreate = StreamCreate,
      .cuStreamDestroy = EmulatedDestroy<CUDA_SUCCESS>,
      .cuStreamSynchronize = EmulatedNothingToDo<CUDA_SUCCESS, CUstream>,
      .cuStreamWaitEvent =
          EmulatedNothingToDo<CUDA_SUCCESS, CUstream, CUevent, unsigned int>,
      .cuEventCreate = EventCreate,
      .cuEventDestroy = EmulatedDestroy<CUDA_SUCCESS>,
      .cuEventRecord = EmulatedNothingToDo<CUDA_SUCCESS, CUevent, CUstream>,
      .cuEventSynchronize = EmulatedNothingToDo<CUDA_SUCCESS, CUevent>,
      .cuEventQuery = EmulatedNothingToDo<CUDA_SUCCESS, CUevent>,
      .cuModuleLoadDataEx = ModuleLoadDataEx,
      .cuModuleUnload = EmulatedDestroy<CUDA_SUCCESS>,
      .cuModuleGetFunction = ModuleGetFunction,
      .cuLaunchKernel = LaunchKernel,
      .last_error_detail = gpu_plugin::EmulatorErrorDetail,
  };
}

}  // namespace

uint64_t EmulatedBytesFrom(CUdeviceptr address) {
  return EmulatedMemory().BytesFrom(Address(address));
}

const Cuda& EmulatedCuda() {
  static const Cuda* cuda = new Cuda(MakeEmulatedCuda());
  return *cuda;
}

}  // namespace phal::nvidia
