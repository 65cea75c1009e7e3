#include "plugins/cpu/cpu_jit.h"

#include <memory>
#include <mutex>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include "sdk/emitters/llvm/host_cpu_target.h"
#include "sdk/emitters/llvm/host_jit.h"
#include "sdk/emitters/llvm/kernel_emitter.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace phal::cpu {
namespace {

// The host target, made once per process.
StatusOr<const llvm_emitter::HostCpuTarget*> GetHostTarget() {
  static std::once_flag once;
  static std::unique_ptr<llvm_emitter::HostCpuTarget> target;
  static Status failure;
  std::call_once(once, [] {
    StatusOr<std::unique_ptr<llvm_emitter::HostCpuTarget>> created =
        llvm_emitter::HostCpuTarget::Create(/*has_gemm=*/true);
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

StatusOr<JitTarget> HostJitTarget() {
  PHAL_ASSIGN_OR_RETURN(const llvm_emitter::HostCpuTarget* target,
                        GetHostTarget());
  return JitTarget{target->triple(), target->features()};
}

StatusOr<CompiledKernel> CompileKernel(const phal_kernel_desc_t& kernel,
                                       unsigned optimization_level,
                                       std::string* optimized_ir) {
  PHAL_ASSIGN_OR_RETURN(const llvm_emitter::HostCpuTarget* target,
                        GetHostTarget());
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(llvm_emitter::EmittedKernel emitted,
                        llvm_emitter::EmitKernel(kernel, *target, context));
  PHAL_ASSIGN_OR_RETURN(std::string object,
                        target->Compile(*emitted.module, optimization_level));
  if (optimized_ir != nullptr) {
    // Compile optimises the module in place on its way to the object file,
    // so what is printed is the IR the object was made from.
    optimized_ir->clear();
    llvm::raw_string_ostream out(*optimized_ir);
    emitted.module->print(out, nullptr);
    out.flush();
  }
  return CompiledKernel{std::move(object), emitted.plan};
}

StatusOr<std::shared_ptr<const LoadedKernel>> LoadKernel(
    std::string_view object) {
  StatusOr<llvm_emitter::HostJitCode> code = llvm_emitter::LoadHostObject(
      object, llvm_emitter::kKernelSymbol, llvm_emitter::RuntimeSymbols());
  if (!code.ok()) {
    return Status(code.status().code(),
                  "cpu plugin: " + code.status().message());
  }
  return std::shared_ptr<const LoadedKernel>(
      new LoadedKernel{
          reinterpret_cast<llvm_emitter::KernelFunction>(code->entry),
          code->library_id},
      [](const LoadedKernel* kernel) {
        llvm_emitter::UnloadHostObject(
            llvm_emitter::HostJitCode{nullptr, kernel->library_id});
        delete kernel;
      });
}

}  // namespace phal::cpu
