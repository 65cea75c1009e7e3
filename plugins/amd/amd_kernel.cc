// Kernels: the SPMD emitter's modules compiled by the AMDGPU target into a
// code object (HSACO) for the device's gfx architecture and loaded with
// hipModuleLoadData, or, on the emulated device, compiled for the grid
// emulator with wavefronts of 64 and loaded by the emulator's table.
// Serialization, the caches and launches are the GPU plugin layer's
// (sdk/gpu_plugin/gpu_kernel.h).
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "plugins/amd/amd_emulator.h"
#include "plugins/amd/amd_plugin.h"
#include "sdk/emitters/llvm/amdgpu_target.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"
#include "sdk/plugin_support/compile_targets.h"

namespace phal::amd {
namespace {

using llvm_emitter::AmdgpuTarget;

// One AMDGPU target per architecture for the process: targets are
// immutable, and creating one sets up LLVM's AMDGPU backend.
StatusOr<const AmdgpuTarget*> TargetFor(const std::string& arch) {
  static std::mutex mutex;
  static auto* targets =
      new std::map<std::string, std::unique_ptr<AmdgpuTarget>>();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = targets->find(arch); found != targets->end()) {
    return found->second.get();
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<AmdgpuTarget> target,
                        AmdgpuTarget::Create(arch));
  return targets->emplace(arch, std::move(target)).first->second.get();
}

// `kernel` emitted for `arch`: the module both the code object and the
// assembly are compiled from, and the launch.
struct EmittedModule {
  const AmdgpuTarget* target = nullptr;
  std::unique_ptr<llvm::LLVMContext> context;
  llvm_emitter::SpmdKernel emitted;
};

StatusOr<EmittedModule> EmitForGpu(const phal_kernel_desc_t& kernel,
                                   const std::string& arch) {
  EmittedModule gpu;
  PHAL_ASSIGN_OR_RETURN(gpu.target, TargetFor(arch));
  gpu.context = std::make_unique<llvm::LLVMContext>();
  PHAL_ASSIGN_OR_RETURN(gpu.emitted, llvm_emitter::EmitSpmdKernel(
                                         kernel, *gpu.target, *gpu.context));
  return gpu;
}

}  // namespace

std::string KernelTarget(const GpuDeviceInfo& device) {
  if (device.emulated) return "grid emulator " + device.arch;
  return "hsaco " + device.arch;
}

StatusOr<gpu_plugin::GpuImage> CompileKernel(const phal_kernel_desc_t& kernel,
                                             const GpuDeviceInfo& device) {
  if (device.emulated) {
    PHAL_ASSIGN_OR_RETURN(llvm_emitter::grid::GridDeviceImage compiled,
                          CompileForEmulator(kernel));
    return gpu_plugin::GpuImage{std::move(compiled.image), compiled.launch};
  }
  PHAL_ASSIGN_OR_RETURN(EmittedModule gpu, EmitForGpu(kernel, device.arch));
  PHAL_ASSIGN_OR_RETURN(std::string code_object,
                        gpu.target->CompileToCodeObject(*gpu.emitted.module));
  return gpu_plugin::GpuImage{std::move(code_object), gpu.emitted.launch};
}

// For the emulated device, whose image is a host object, the code object
// and assembly a gfx90a would run, compiled for the dump only.
Status DumpKernel(const phal_kernel_desc_t& kernel, const GpuDeviceInfo& device,
                  const std::string& image, std::string_view directory,
                  const std::string& name) {
  PHAL_ASSIGN_OR_RETURN(
      EmittedModule gpu,
      EmitForGpu(kernel, device.emulated ? kEmulatedArch : device.arch));
  std::string code_object = image;
  if (device.emulated) {
    PHAL_ASSIGN_OR_RETURN(code_object,
                          gpu.target->CompileToCodeObject(*gpu.emitted.module));
  }
  PHAL_ASSIGN_OR_RETURN(std::string assembly,
                        gpu.target->CompileToAssembly(*gpu.emitted.module));
  PHAL_RETURN_IF_ERROR(WriteKernelDump(directory, name, "hsaco", code_object));
  return WriteKernelDump(directory, name, "s", assembly);
}

Status HipDriver::LoadModule(const std::string& image,
                             const std::string& kernel, GpuModule* out) const {
  hipModule_t module = nullptr;
  PHAL_RETURN_IF_ERROR(Check(hip_.hipModuleLoadData(&module, image.data()),
                             "hipModuleLoadData of kernel " + kernel));
  *out = module;
  return OkStatus();
}

void HipDriver::UnloadModule(GpuModule module) const {
  hip_.hipModuleUnload(static_cast<hipModule_t>(module));
}

Status HipDriver::GetFunction(GpuModule module, const char* symbol,
                              const std::string& kernel,
                              GpuFunction* out) const {
  hipFunction_t function = nullptr;
  PHAL_RETURN_IF_ERROR(
      Check(hip_.hipModuleGetFunction(&function,
                                      static_cast<hipModule_t>(module), symbol),
            "hipModuleGetFunction of kernel " + kernel));
  *out = function;
  return OkStatus();
}

Status HipDriver::Launch(GpuFunction function, const uint32_t grid[3],
                         const uint32_t block[3], uint32_t shared_bytes,
                         GpuStream stream, void** parameters) const {
  return Check(hip_.hipModuleLaunchKernel(
                   static_cast<hipFunction_t>(function), grid[0], grid[1],
                   grid[2], block[0], block[1], block[2], shared_bytes,
                   static_cast<hipStream_t>(stream), parameters, nullptr),
               "hipModuleLaunchKernel");
}

}  // namespace phal::amd
