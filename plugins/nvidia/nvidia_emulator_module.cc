#include "plugins/nvidia/nvidia_emulator_module.h"

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "plugins/nvidia/nvidia_emulator.h"
#include "sdk/emitters/llvm/device/device_library.h"
#include "sdk/emitters/llvm/grid/grid_emulator.h"
#include "sdk/emitters/llvm/grid/grid_emulator_target.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/emitters/llvm/spmd_kernel_emitter.h"

namespace phal::nvidia {

// A loaded module: the kernel's code in the host JIT, and what its launch
// needs that a GPU module would hold itself (shared memory, scratch, the
// number of pointer arguments). Its one function is the module itself.
struct CUmod_st {
  llvm_emitter::grid::GridKernel kernel;
  llvm_emitter::SpmdLaunch launch;
  uint64_t buffer_count = 0;
};

namespace {

// "PHALGRD1" | u64 object bytes | u64 buffer count | grid[3] | block[3] |
// shared bytes | scratch bytes (u64 each) | object.
constexpr std::string_view kMagic = "PHALGRD1";
constexpr size_t kHeaderWords = 10;
constexpr size_t kHeaderBytes = kMagic.size() + kHeaderWords * 8;
constexpr unsigned kOptimizationLevel = 3;

llvm_emitter::grid::GridLimits EmulatedLimits() {
  return llvm_emitter::grid::GridLimits{};
}

CUmodule ModuleOf(CUfunction function) {
  return reinterpret_cast<CUmodule>(function);
}

}  // namespace

StatusOr<EmulatedKernelImage> CompileForEmulator(
    const phal_kernel_desc_t& kernel) {
  // One target for the process: it is immutable, and creating one sets up
  // LLVM's host backend.
  static const StatusOr<std::unique_ptr<llvm_emitter::grid::GridEmulatorTarget>>
      target = llvm_emitter::grid::GridEmulatorTarget::Create(EmulatedLimits());
  if (!target.ok()) return target.status();
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(
      llvm_emitter::SpmdKernel emitted,
      llvm_emitter::EmitSpmdKernel(kernel, **target, context));
  PHAL_ASSIGN_OR_RETURN(
      std::string object,
      (*target)->Compile(*emitted.module, kOptimizationLevel, false));
  const llvm_emitter::SpmdLaunch& launch = emitted.launch;
  const uint64_t header[kHeaderWords] = {
      object.size(),       kernel.buffer_count, launch.grid[0],
      launch.grid[1],      launch.grid[2],      launch.block[0],
      launch.block[1],     launch.block[2],     launch.shared_bytes,
      launch.scratch_bytes};
  EmulatedKernelImage image;
  image.launch = launch;
  image.image.append(kMagic);
  image.image.append(reinterpret_cast<const char*>(header), sizeof(header));
  image.image.append(object);
  return image;
}

StatusOr<CUmodule> LoadEmulatedModule(const void* image) {
  const char* bytes = static_cast<const char*>(image);
  if (bytes == nullptr || std::memcmp(bytes, kMagic.data(), kMagic.size())) {
    return InvalidArgument(
        "the image is not a kernel compiled for the grid emulator (PTX and "
        "cubins run on GPUs only)");
  }
  uint64_t header[kHeaderWords];
  std::memcpy(header, bytes + kMagic.size(), sizeof(header));
  auto module = std::make_unique<CUmod_st>();
  module->buffer_count = header[1];
  for (int d = 0; d < 3; ++d) {
    module->launch.grid[d] = static_cast<uint32_t>(header[2 + d]);
    module->launch.block[d] = static_cast<uint32_t>(header[5 + d]);
  }
  module->launch.shared_bytes = static_cast<uint32_t>(header[8]);
  module->launch.scratch_bytes = header[9];
  const std::string_view object(bytes + kHeaderBytes, header[0]);
  PHAL_ASSIGN_OR_RETURN(module->kernel,
                        llvm_emitter::grid::LoadGridKernel(
                            object, llvm_emitter::kKernelSymbol,
                            llvm_emitter::DeviceLibraryHostSymbols()));
  return module.release();
}

void UnloadEmulatedModule(CUmodule module) {
  if (module == nullptr) return;
  llvm_emitter::grid::UnloadGridKernel(module->kernel);
  delete module;
}

StatusOr<CUfunction> EmulatedModuleFunction(CUmodule module, const char* name) {
  if (name == nullptr ||
      std::string_view(name) != llvm_emitter::kKernelSymbol) {
    return NotFound(std::string("the module defines ") +
                    llvm_emitter::kKernelSymbol + ", not " +
                    (name != nullptr ? name : "(null)"));
  }
  return reinterpret_cast<CUfunction>(module);
}

Status RunEmulatedKernel(CUfunction function, const unsigned int grid[3],
                         const unsigned int block[3],
                         unsigned int dynamic_shared_bytes, void** parameters) {
  const CUmod_st& module = *ModuleOf(function);
  if (dynamic_shared_bytes != 0) {
    return InvalidArgument(
        "the emulated kernels use static shared memory only");
  }
  llvm_emitter::SpmdLaunch launch = module.launch;
  for (int d = 0; d < 3; ++d) {
    launch.grid[d] = grid[d];
    launch.block[d] = block[d];
  }
  // The plugin passes the scratch buffer after the buffers, as a GPU needs;
  // the emulator allocates its own per launch, so only the buffers go.
  std::vector<llvm_emitter::grid::GridBuffer> buffers(module.buffer_count);
  for (uint64_t i = 0; i < module.buffer_count; ++i) {
    const CUdeviceptr address = *static_cast<CUdeviceptr*>(parameters[i]);
    buffers[i].data = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
    buffers[i].bytes = EmulatedBytesFrom(address);
  }
  llvm_emitter::grid::GridOptions options;
  options.limits = EmulatedLimits();
  return llvm_emitter::grid::RunGrid(module.kernel.entry, launch, buffers,
                                     options);
}

}  // namespace phal::nvidia
