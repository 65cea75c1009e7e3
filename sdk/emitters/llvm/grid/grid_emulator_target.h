// The host CPU as an SPMD target (spmd_target.h): kernels in the GPU shape,
// compiled for the host and run by the grid emulator (grid_emulator.h).
// Indices, barriers, shared memory and shuffles are calls into the
// emulator's runtime (grid_runtime.h) where NVPTX has intrinsics; the rest
// of a kernel's IR is what a GPU target gets.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_TARGET_H_

#include <memory>
#include <string>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/grid/grid_emulator.h"
#include "sdk/emitters/llvm/host_cpu_target.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::llvm_emitter::grid {

// Immutable after Create: every method may run on many threads at once.
class GridEmulatorTarget final : public SpmdTarget {
 public:
  // An emulated device with `limits` (a warp of 32 lanes emulates NVIDIA,
  // 64 or 32 AMD). Fails with INVALID_ARGUMENT for a warp size that is not
  // 0 or a power of two up to 64, and UNAVAILABLE when LLVM has no backend
  // for the host.
  static StatusOr<std::unique_ptr<GridEmulatorTarget>> Create(
      const GridLimits& limits);

  void ConfigureModule(llvm::Module& module) const override;
  // Defines `void name(ptr args)`: the emulator passes the kernel's
  // pointers as an array, which the entry block loads.
  SpmdKernelFunction CreateKernel(llvm::Module& module, const std::string& name,
                                  unsigned pointer_count,
                                  llvm::IRBuilder<>& builder) const override;
  llvm::Value* ThreadIndex(llvm::IRBuilder<>& builder,
                           unsigned dimension) const override;
  llvm::Value* BlockIndex(llvm::IRBuilder<>& builder,
                          unsigned dimension) const override;
  llvm::Value* BlockSize(llvm::IRBuilder<>& builder,
                         unsigned dimension) const override;
  llvm::Value* GridSize(llvm::IRBuilder<>& builder,
                        unsigned dimension) const override;
  void Barrier(llvm::IRBuilder<>& builder) const override;
  llvm::Value* SharedMemory(llvm::IRBuilder<>& builder, llvm::Module& module,
                            uint64_t bytes) const override;
  unsigned WarpSize() const override { return limits_.warp_size; }
  llvm::Value* ShuffleDown(llvm::IRBuilder<>& builder, llvm::Value* value,
                           unsigned delta) const override;
  unsigned MaxBlockSize() const override { return limits_.max_block_size; }
  uint64_t MaxSharedBytes() const override { return limits_.max_shared_bytes; }

  // Verifies and optimises `module` (level 0-3) and compiles it into an
  // object for LoadGridKernel. With `check`, every access to memory that
  // is not provably to the thread's own stack goes through the emulator's
  // checks first (grid_instrumentation.h); such code must run with
  // GridOptions::check.
  StatusOr<std::string> Compile(llvm::Module& module,
                                unsigned optimization_level, bool check) const;

  const GridLimits& limits() const { return limits_; }

 private:
  GridEmulatorTarget(std::unique_ptr<HostCpuTarget> host, GridLimits limits,
                     std::string data_layout)
      : host_(std::move(host)),
        limits_(limits),
        data_layout_(std::move(data_layout)) {}

  std::unique_ptr<HostCpuTarget> host_;
  GridLimits limits_;
  std::string data_layout_;
};

}  // namespace phal::llvm_emitter::grid

#endif  // POLYHAL_SDK_EMITTERS_LLVM_GRID_GRID_EMULATOR_TARGET_H_
