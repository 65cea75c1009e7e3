#include "plugins/amd/amd_emulator.h"

#include <cstring>
#include <memory>
#include <string>

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

using llvm_emitter::grid::GridDeviceMemory;
using llvm_emitter::grid::GridDeviceModule;

// An Instinct MI210's figures (gfx90a, CDNA 2), so that what the plugin
// derives from them (block sizes, LDS) is what a real gfx90a would give.
constexpr char kName[] = "amd (emulated gfx90a)";
constexpr char kArchName[] = "gfx90a:sramecc+:xnack-";
constexpr int kVersion = 60032830;  // HIP 6.0.32830 (ROCm 6.0)
constexpr int kComputeUnits = 104;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr int kMaxBlock[3] = {1024, 1024, 1024};
constexpr int kMaxGrid[3] = {2147483647, 65535, 65535};
constexpr int kLdsBytesPerBlock = 64 * 1024;
constexpr int kWaveSize = 64;
constexpr int kClockKhz = 1700000;
constexpr int kL2Bytes = 8 * 1024 * 1024;

constexpr llvm_emitter::grid::GridLimits kLimits{kWaveSize, kMaxThreadsPerBlock,
                                                 kLdsBytesPerBlock};

thread_local std::string last_error_detail;

GridDeviceMemory& Memory() {
  static auto* memory = new GridDeviceMemory();
  return *memory;
}

hipError_t Fail(hipError_t result, std::string detail) {
  last_error_detail = std::move(detail);
  return result;
}

hipError_t Succeed() {
  last_error_detail.clear();
  return hipSuccess;
}

hipError_t CheckDevice(int device) {
  if (device != 0) {
    return Fail(hipErrorInvalidDevice, "the emulator has one device, 0, not " +
                                           std::to_string(device));
  }
  return Succeed();
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
  *count = 1;
  return Succeed();
}

hipError_t GetDevice(int* device) {
  *device = 0;
  return Succeed();
}

hipError_t DeviceGetName(char* name, int length, int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  if (length <= 0) return Fail(hipErrorInvalidValue, "name length");
  std::strncpy(name, kName, static_cast<size_t>(length) - 1);
  name[length - 1] = '\0';
  return Succeed();
}

hipError_t DeviceGetAttribute(int* value, hipDeviceAttribute_t attribute,
                              int device) {
  if (hipError_t result = CheckDevice(device); result != hipSuccess) {
    return result;
  }
  switch (attribute) {
    case hipDeviceAttributeClockRate:
      *value = kClockKhz;
      return Succeed();
    case hipDeviceAttributeL2CacheSize:
      *value = kL2Bytes;
      return Succeed();
    case hipDeviceAttributeMaxBlockDimX:
    case hipDeviceAttributeMaxBlockDimY:
    case hipDeviceAttributeMaxBlockDimZ:
      *value = kMaxBlock[attribute - hipDeviceAttributeMaxBlockDimX];
      return Succeed();
    case hipDeviceAttributeMaxGridDimX:
    case hipDeviceAttributeMaxGridDimY:
    case hipDeviceAttributeMaxGridDimZ:
      *value = kMaxGrid[attribute - hipDeviceAttributeMaxGridDimX];
      return Succeed();
    case hipDeviceAttributeMaxThreadsPerBlock:
      *value = kMaxThreadsPerBlock;
      return Succeed();
    case hipDeviceAttributeMultiprocessorCount:
      *value = kComputeUnits;
      return Succeed();
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = kLdsBytesPerBlock;
      return Succeed();
    case hipDeviceAttributeWarpSize:
      *value = kWaveSize;
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
  StatusOr<void*> memory = Memory().Allocate(bytes);
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
  if (!Memory().Free(address).ok()) {
    return Fail(hipErrorInvalidValue,
                "hipFree of an address hipMalloc did not return");
  }
  return Succeed();
}

hipError_t MemcpyHtoD(hipDeviceptr_t destination, void* source, size_t bytes,
                      hipStream_t /*stream*/) {
  std::memcpy(destination, source, bytes);
  return Succeed();
}

hipError_t MemcpyDtoH(void* destination, hipDeviceptr_t source, size_t bytes,
                      hipStream_t /*stream*/) {
  std::memcpy(destination, source, bytes);
  return Succeed();
}

hipError_t MemcpyDtoD(hipDeviceptr_t destination, hipDeviceptr_t source,
                      size_t bytes, hipStream_t /*stream*/) {
  std::memmove(destination, source, bytes);
  return Succeed();
}

hipError_t StreamCreate(hipStream_t* stream, unsigned int /*flags*/) {
  *stream = new ihipStream_t();
  return Succeed();
}

hipError_t StreamDestroy(hipStream_t stream) {
  delete stream;
  return Succeed();
}

hipError_t StreamSynchronize(hipStream_t /*stream*/) { return Succeed(); }

hipError_t StreamWaitEvent(hipStream_t /*stream*/, hipEvent_t /*event*/,
                           unsigned int /*flags*/) {
  return Succeed();
}

hipError_t EventCreate(hipEvent_t* event, unsigned int /*flags*/) {
  *event = new ihipEvent_t();
  return Succeed();
}

hipError_t EventDestroy(hipEvent_t event) {
  delete event;
  return Succeed();
}

hipError_t EventRecord(hipEvent_t /*event*/, hipStream_t /*stream*/) {
  return Succeed();
}

hipError_t EventDone(hipEvent_t /*event*/) { return Succeed(); }

hipError_t ModuleLoadData(hipModule_t* module, const void* image) {
  auto loaded = GridDeviceModule::Load(image, "AMDGPU code objects");
  if (!loaded.ok()) {
    return Fail(hipErrorInvalidImage, loaded.status().message());
  }
  *module = new ihipModule_t{std::move(*loaded)};
  return Succeed();
}

hipError_t ModuleUnload(hipModule_t module) {
  delete module;
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
  for (int d = 0; d < 3; ++d) {
    if (grid[d] == 0 || grid[d] > static_cast<unsigned>(kMaxGrid[d]) ||
        block[d] == 0 || block[d] > static_cast<unsigned>(kMaxBlock[d])) {
      return Fail(hipErrorInvalidValue, "grid or block dimension " +
                                            std::to_string(d) +
                                            " out of the device's range");
    }
  }
  if (uint64_t{block_x} * block_y * block_z > kMaxThreadsPerBlock) {
    return Fail(hipErrorInvalidValue, "more than 1024 threads per block");
  }
  const Status run = reinterpret_cast<hipModule_t>(function)->module->Run(
      grid, block, shared_bytes, parameters, Memory());
  if (!run.ok()) return Fail(hipErrorLaunchFailure, run.message());
  return Succeed();
}

std::string LastErrorDetail() { return last_error_detail; }

Hip MakeEmulatedHip() {
  Hip hip;
  hip.implementation = "the grid emulator";
  hip.runtime_version = kVersion;
  hip.driver_version = kVersion;
  hip.hipInit = Init;
  hip.hipRuntimeGetVersion = GetVersion;
  hip.hipDriverGetVersion = GetVersion;
  hip.hipGetErrorName = GetErrorName;
  hip.hipGetErrorString = GetErrorString;
  hip.hipGetDeviceCount = GetDeviceCount;
  hip.hipGetDevice = GetDevice;
  hip.hipSetDevice = CheckDevice;
  hip.hipDeviceGetName = DeviceGetName;
  hip.hipDeviceGetAttribute = DeviceGetAttribute;
  hip.hipDeviceTotalMem = DeviceTotalMem;
  hip.hipGetDeviceProperties = GetDeviceProperties;
  hip.hipMalloc = Malloc;
  hip.hipFree = Free;
  hip.hipMemcpyHtoDAsync = MemcpyHtoD;
  hip.hipMemcpyDtoHAsync = MemcpyDtoH;
  hip.hipMemcpyDtoDAsync = MemcpyDtoD;
  hip.hipStreamCreateWithFlags = StreamCreate;
  hip.hipStreamDestroy = StreamDestroy;
  hip.hipStreamSynchronize = StreamSynchronize;
  hip.hipStreamWaitEvent = StreamWaitEvent;
  hip.hipEventCreateWithFlags = EventCreate;
  hip.hipEventDestroy = EventDestroy;
  hip.hipEventRecord = EventRecord;
  hip.hipEventSynchronize = EventDone;
  hip.hipEventQuery = EventDone;
  hip.hipModuleLoadData = ModuleLoadData;
  hip.hipModuleUnload = ModuleUnload;
  hip.hipModuleGetFunction = ModuleGetFunction;
  hip.hipModuleLaunchKernel = ModuleLaunchKernel;
  hip.last_error_detail = LastErrorDetail;
  return hip;
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
