// Kernels: the SPMD emitter's modules compiled to PTX for the device's
// compute capability by the NVPTX target and loaded with
// cuModuleLoadDataEx, or, on the emulated device, compiled for the grid
// emulator with warps of 32 and loaded by the emulator's table.
// Serialization, the caches and launches are the GPU plugin layer's
// (sdk/gpu_plugin/gpu_kernel.h).
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "plugins/nvidia/nvidia_emulator.h"
#include "plugins/nvidia/nvidia_plugin.h"
#include "sdk/emitters/llvm/grid/grid_device.h"
#include "sdk/emitters/llvm/nvptx_target.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/plugin_support/compile_targets.h"

namespace phal::nvidia {
namespace {

// The newest compute capability the NVPTX target emits for; a newer GPU
// runs PTX for it, which its driver compiles forward.
constexpr int kNewestTargetCapability = 90;

int Capability(const GpuDeviceInfo& device) {
  return std::atoi(device.arch.substr(device.arch.rfind('_') + 1).c_str());
}

// `kernel` as PTX for compute capability `capability`.
StatusOr<gpu_plugin::GpuImage> CompileToPtx(const phal_kernel_desc_t& kernel,
                                            int capability) {
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<llvm_emitter::NvptxTarget> target,
                        llvm_emitter::NvptxTarget::Create(static_cast<unsigned>(
                            std::min(capability, kNewestTargetCapability))));
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(llvm_emitter::SpmdKernel emitted,
                        llvm_emitter::EmitSpmdKernel(kernel, *target, context));
  PHAL_ASSIGN_OR_RETURN(std::string ptx, target->CompileToPtx(*emitted.module));
  return gpu_plugin::GpuImage{std::move(ptx), emitted.launch};
}

}  // namespace

std::string KernelTarget(const GpuDeviceInfo& device) {
  if (device.emulated) return "grid emulator " + device.arch;
  return "ptx sm_" +
         std::to_string(std::min(Capability(device), kNewestTargetCapability));
}

StatusOr<gpu_plugin::GpuImage> CompileKernel(const phal_kernel_desc_t& kernel,
                                             const GpuDeviceInfo& device) {
  if (!device.emulated) return CompileToPtx(kernel, Capability(device));
  // The grid emulator's defaults are an NVIDIA GPU's: warps of 32 lanes,
  // 1024 threads and 48 KiB of shared memory per block.
  PHAL_ASSIGN_OR_RETURN(llvm_emitter::grid::GridDeviceImage compiled,
                        llvm_emitter::grid::CompileGridDeviceImage(
                            kernel, llvm_emitter::grid::GridLimits{}));
  return gpu_plugin::GpuImage{std::move(compiled.image), compiled.launch};
}

// For the emulated device, whose image is a host object, the PTX an sm_90
// GPU would run, compiled for the dump only.
Status DumpKernel(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
                  const std::string& image, std::string_view directory,
                  const std::string& name) {
  if (!device.emulated) return WriteKernelDump(directory, name, "ptx", image);
  PHAL_ASSIGN_OR_RETURN(gpu_plugin::GpuImage compiled,
                        CompileToPtx(kernel, kEmulatedComputeCapability));
  return WriteKernelDump(directory, name, "ptx", compiled.image);
}

Status CudaDriver::LoadModule(const std::string& image,
                              const std::string& kernel, GpuModule* out) const {
  // The driver's PTX compiler explains a refusal in its error log.
  char error_log[4096] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log, reinterpret_cast<void*>(sizeof(error_log))};
  CUmodule module = nullptr;
  const Status loaded = Check(
      cuda_.cuModuleLoadDataEx(&module, image.c_str(), 2, options, values),
      "cuModuleLoadDataEx of kernel " + kernel);
  if (!loaded.ok()) {
    if (error_log[0] == '\0') return loaded;
    return Status(loaded.code(), loaded.message() + ": " + error_log);
  }
  *out = module;
  return OkStatus();
}

void CudaDriver::UnloadModule(GpuModule module) const {
  cuda_.cuModuleUnload(static_cast<CUmodule>(module));
}

Status CudaDriver::GetFunction(GpuModule module, const char* symbol,
                               const std::string& kernel,
                               GpuFunction* out) const {
  CUfunction function = nullptr;
  PHAL_RETURN_IF_ERROR(
      Check(cuda_.cuModuleGetFunction(&function, static_cast<CUmodule>(module),
                                      symbol),
            "cuModuleGetFunction of kernel " + kernel));
  *out = function;
  return OkStatus();
}

Status CudaDriver::Launch(GpuFunction function, const uint32_t grid[3],
                          const uint32_t block[3], uint32_t shared_bytes,
                          GpuStream stream, void** parameters) const {
  return Check(
      cuda_.cuLaunchKernel(static_cast<CUfunction>(function), grid[0], grid[1],
                           grid[2], block[0], block[1], block[2], shared_bytes,
                           static_cast<CUstream>(stream), parameters, nullptr),
      "cuLaunchKernel");
}

}  // namespace phal::nvidia
