// NVIDIA GPUs as an SPMD target (spmd_target.h): LLVM's NVPTX backend, PTX
// text for one compute capability, the device library linked in.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_NVPTX_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_NVPTX_TARGET_H_

#include <memory>
#include <string>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::llvm_emitter {

// Immutable after Create: every method may run on many threads at once.
class NvptxTarget final : public SpmdTarget {
 public:
  // `compute_capability` as major * 10 + minor (75 for sm_75, 90 for sm_90).
  // Fails with UNIMPLEMENTED outside sm_60..sm_90 or when LLVM was built
  // without the NVPTX backend.
  static StatusOr<std::unique_ptr<NvptxTarget>> Create(
      unsigned compute_capability);

  void ConfigureModule(llvm::Module& module) const override;
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
  unsigned WarpSize() const override { return 32; }
  llvm::Value* ShuffleDown(llvm::IRBuilder<>& builder, llvm::Value* value,
                           unsigned delta) const override;
  unsigned MaxBlockSize() const override { return 1024; }
  uint64_t MaxSharedBytes() const override { return 48 * 1024; }

  // Links the device library into `module`, optimises it and prints PTX
  // for this compute capability.
  StatusOr<std::string> CompileToPtx(llvm::Module& module) const;

  // "sm_80".
  const std::string& arch() const { return arch_; }
  // The PTX ISA version the emitted text declares (".version").
  const std::string& ptx_version() const { return ptx_version_; }

 private:
  NvptxTarget(std::string arch, std::string ptx_version)
      : arch_(std::move(arch)), ptx_version_(std::move(ptx_version)) {}

  std::string arch_;
  std::string ptx_version_;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_NVPTX_TARGET_H_
