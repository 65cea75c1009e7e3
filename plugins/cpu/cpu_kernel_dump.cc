#include "plugins/cpu/cpu_kernel_dump.h"

#include <memory>
#include <mutex>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "sdk/emitters/llvm/host_cpu_target.h"
#include "sdk/emitters/llvm/kernel_emitter.h"

namespace phal::cpu {
namespace {

// The host target, made once: the same target CompileKernel compiles for.
StatusOr<const llvm_emitter::HostCpuTarget*> DumpTarget() {
  static std::once_flag once;
  static std::unique_ptr<llvm_emitter::HostCpuTarget> target;
  static Status failure;
  std::call_once(once, [] {
    auto created = llvm_emitter::HostCpuTarget::Create(/*has_gemm=*/true);
    if (created.ok()) {
      target = std::move(created).value();
    } else {
      failure = created.status();
    }
  });
  if (target == nullptr) return failure;
  return target.get();
}

}  // namespace

StatusOr<std::string> OptimizedKernelIr(const phal_kernel_desc_t& kernel,
                                        unsigned optimization_level) {
  PHAL_ASSIGN_OR_RETURN(const llvm_emitter::HostCpuTarget* target,
                        DumpTarget());
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(llvm_emitter::EmittedKernel emitted,
                        llvm_emitter::EmitKernel(kernel, *target, context));
  // Compile optimises the module in place on its way to the object file,
  // so what is printed next is the IR the object was made from.
  PHAL_RETURN_IF_ERROR(
      target->Compile(*emitted.module, optimization_level).status());
  std::string text;
  llvm::raw_string_ostream out(text);
  emitted.module->print(out, nullptr);
  out.flush();
  return text;
}

}  // namespace phal::cpu
