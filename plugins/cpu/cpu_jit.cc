#include "plugins/cpu/cpu_jit.h"

#include <atomic>
#include <memory>
#include <mutex>

#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include "sdk/emitters/llvm/host_cpu_target.h"
#include "sdk/emitters/llvm/kernel_emitter.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace phal::cpu {
namespace {

std::string ErrorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

// Everything built once per process: the target, the JIT, and the library
// of runtime functions every kernel library links against.
struct JitState {
  std::unique_ptr<llvm_emitter::HostCpuTarget> target;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::JITDylib* runtime = nullptr;
  std::atomic<uint64_t> next_library_id{1};
};

#if defined(__aarch64__)
// On AArch64 objects are linked by JITLink, which places all sections of an
// object in one allocation. LLVM 16's LLJIT would link them with RuntimeDyld,
// whose section memory manager maps code and constants separately; an ADRP
// reaches only +-4 GiB, and RuntimeDyld truncates a farther distance without
// a word, so a kernel whose constants were mapped far from its code read a
// wrong address and crashed (docs/plugins/cpu.md, "AArch64"). The kernels
// are PIC with the small code model, as JITLink needs.
llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> CreateObjectLayer(
    llvm::orc::ExecutionSession& session, const llvm::Triple&) {
  auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(session);
  layer->addPlugin(std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(
      session, std::make_unique<llvm::jitlink::InProcessEHFrameRegistrar>()));
  return layer;
}
#endif

StatusOr<std::unique_ptr<JitState>> CreateJitState() {
  auto state = std::make_unique<JitState>();
  PHAL_ASSIGN_OR_RETURN(state->target,
                        llvm_emitter::HostCpuTarget::Create(/*has_gemm=*/true));
  llvm::orc::LLJITBuilder builder;
#if defined(__aarch64__)
  builder.setObjectLinkingLayerCreator(CreateObjectLayer);
#endif
  auto jit = builder.create();
  if (!jit) {
    return Unavailable("cpu plugin: cannot start the LLVM JIT: " +
                       ErrorText(jit.takeError()));
  }
  state->jit = std::move(*jit);
  auto runtime = state->jit->createJITDylib("phal_runtime");
  if (!runtime) {
    return Internal("cpu plugin: " + ErrorText(runtime.takeError()));
  }
  state->runtime = &*runtime;
  llvm::orc::SymbolMap symbols;
  llvm::orc::MangleAndInterner mangle(state->jit->getExecutionSession(),
                                      state->jit->getDataLayout());
  for (const llvm_emitter::RuntimeSymbol& symbol :
       llvm_emitter::RuntimeSymbols()) {
    symbols[mangle(symbol.name)] = llvm::JITEvaluatedSymbol(
        llvm::pointerToJITTargetAddress(symbol.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  }
  if (llvm::Error error = state->runtime->define(
          llvm::orc::absoluteSymbols(std::move(symbols)))) {
    return Internal("cpu plugin: " + ErrorText(std::move(error)));
  }
  return state;
}

StatusOr<JitState*> GetJitState() {
  static std::once_flag once;
  static std::unique_ptr<JitState> state;
  static Status failure;
  std::call_once(once, [] {
    StatusOr<std::unique_ptr<JitState>> created = CreateJitState();
    if (created.ok()) {
      state = std::move(created).value();
    } else {
      failure = created.status();
    }
  });
  if (state == nullptr) return failure;
  return state.get();
}

}  // namespace

StatusOr<JitTarget> HostJitTarget() {
  PHAL_ASSIGN_OR_RETURN(JitState * state, GetJitState());
  return JitTarget{state->target->triple(), state->target->features()};
}

StatusOr<CompiledKernel> CompileKernel(const phal_kernel_desc_t& kernel,
                                       unsigned optimization_level) {
  PHAL_ASSIGN_OR_RETURN(JitState * state, GetJitState());
  llvm::LLVMContext context;
  PHAL_ASSIGN_OR_RETURN(
      llvm_emitter::EmittedKernel emitted,
      llvm_emitter::EmitKernel(kernel, *state->target, context));
  PHAL_ASSIGN_OR_RETURN(
      std::string object,
      state->target->Compile(*emitted.module, optimization_level));
  return CompiledKernel{std::move(object), emitted.plan};
}

StatusOr<LoadedKernel> LoadKernel(std::string_view object) {
  PHAL_ASSIGN_OR_RETURN(JitState * state, GetJitState());
  const uint64_t id = state->next_library_id.fetch_add(1);
  auto library =
      state->jit->createJITDylib("phal_kernel_" + std::to_string(id));
  if (!library) {
    return Internal("cpu plugin: " + ErrorText(library.takeError()));
  }
  library->addToLinkOrder(*state->runtime);
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(object.data(), object.size()), "kernel");
  auto fail = [&](llvm::Error error) -> Status {
    const std::string text = ErrorText(std::move(error));
    llvm::consumeError(
        state->jit->getExecutionSession().removeJITDylib(*library));
    return Internal("cpu plugin: cannot load kernel code: " + text);
  };
  if (llvm::Error error =
          state->jit->addObjectFile(*library, std::move(buffer))) {
    return fail(std::move(error));
  }
  auto address = state->jit->lookup(*library, llvm_emitter::kKernelSymbol);
  if (!address) return fail(address.takeError());
  return LoadedKernel{address->toPtr<llvm_emitter::KernelFunction>(), id};
}

void UnloadKernel(const LoadedKernel& kernel) {
  StatusOr<JitState*> state = GetJitState();
  if (!state.ok()) return;
  llvm::orc::ExecutionSession& session = (*state)->jit->getExecutionSession();
  llvm::orc::JITDylib* library = session.getJITDylibByName(
      "phal_kernel_" + std::to_string(kernel.library_id));
  if (library != nullptr) llvm::consumeError(session.removeJITDylib(*library));
}

}  // namespace phal::cpu
