// AMD GPUs as an SPMD target (spmd_target.h): LLVM's AMDGPU backend for one
// gfx architecture, the device library linked in, the ELF object linked by
// ld.lld into a code object (HSACO) that hipModuleLoadData loads.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_AMDGPU_TARGET_H_
#define POLYHAL_SDK_EMITTERS_LLVM_AMDGPU_TARGET_H_

#include <memory>
#include <string>

#include <llvm/Support/CodeGen.h>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/spmd_target.h"

namespace phal::llvm_emitter {

// Immutable after Create: every method may run on many threads at once
// (each on its own module and LLVMContext).
class AmdgpuTarget final : public SpmdTarget {
 public:
  // The code-object version every code object declares. Version 4: the
  // newest that both LLVM 16 emits and ROCm 5 (Debian's libamdhip64-5)
  // loads without reservation; version 5 changes the implicit kernel
  // arguments and needs a newer runtime.
  static constexpr unsigned kCodeObjectVersion = 4;

  // `gfx_arch` as LLVM names the processor: gfx908, gfx90a, gfx940 (CDNA,
  // wave64), gfx1030, gfx1100 (RDNA, wave32). Fails with UNIMPLEMENTED for
  // another name, UNAVAILABLE when LLVM was built without the AMDGPU
  // backend.
  static StatusOr<std::unique_ptr<AmdgpuTarget>> Create(
      const std::string& gfx_arch);

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
  unsigned WarpSize() const override { return wave_size_; }
  llvm::Value* ShuffleDown(llvm::IRBuilder<>& builder, llvm::Value* value,
                           unsigned delta) const override;
  unsigned MaxBlockSize() const override { return 1024; }
  // The LDS a workgroup may allocate on every supported architecture.
  uint64_t MaxSharedBytes() const override { return 64 * 1024; }

  // Both compile a copy of `module` (a module of this target, as
  // EmitSpmdKernel makes it), so one module gives both the code object and
  // its assembly: the device library linked in, optimised, code generated
  // for this architecture.
  //
  // The code object (an ELF shared object, HSACO) whose metadata notes
  // name each kernel, its arguments and its LDS size. UNAVAILABLE when
  // ld.lld was not found when the SDK was configured, INTERNAL when it
  // fails (with its messages).
  StatusOr<std::string> CompileToCodeObject(const llvm::Module& module) const;
  // The assembly text (.s) of the same code.
  StatusOr<std::string> CompileToAssembly(const llvm::Module& module) const;

  // "gfx90a".
  const std::string& arch() const { return arch_; }
  // The ld.lld the SDK was configured with; empty when none was found.
  static const char* LinkerPath();

 private:
  AmdgpuTarget(std::string arch, unsigned wave_size, std::string emitter_layout,
               std::string machine_layout)
      : arch_(std::move(arch)),
        wave_size_(wave_size),
        emitter_layout_(std::move(emitter_layout)),
        machine_layout_(std::move(machine_layout)) {}

  // Links the device library into a copy of `module`, optimises it and
  // emits it as `file_type`.
  StatusOr<std::string> Emit(const llvm::Module& module,
                             llvm::CodeGenFileType file_type) const;

  std::string arch_;
  unsigned wave_size_;
  // The machine's data layout, and the one modules are emitted with: the
  // same but for allocas in the generic address space (ConfigureModule).
  std::string emitter_layout_;
  std::string machine_layout_;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_AMDGPU_TARGET_H_
