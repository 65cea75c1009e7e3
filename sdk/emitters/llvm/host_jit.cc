#include "sdk/emitters/llvm/host_jit.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include "sdk/emitters/llvm/host_cpu_target.h"

namespace phal::llvm_emitter {
namespace {

std::string ErrorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

std::string LibraryName(uint64_t id) {
  return "phal_object_" + std::to_string(id);
}

// The undefined symbols of `object` that `symbols` lacks, as ", a, b": what
// ORC's own error ("failed to materialize symbols") leaves unsaid.
std::string UnlistedSymbols(std::string_view object,
                            std::span<const RuntimeSymbol> symbols) {
  auto file = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(
      llvm::StringRef(object.data(), object.size()), "object"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return "";
  }
  std::unordered_set<std::string_view> listed;
  for (const RuntimeSymbol& symbol : symbols) listed.insert(symbol.name);
  std::string unlisted;
  for (const llvm::object::SymbolRef& symbol : (*file)->symbols()) {
    llvm::Expected<uint32_t> flags = symbol.getFlags();
    llvm::Expected<llvm::StringRef> name = symbol.getName();
    if (!flags || !name) {
      llvm::consumeError(flags.takeError());
      llvm::consumeError(name.takeError());
      continue;
    }
    if ((*flags & llvm::object::SymbolRef::SF_Undefined) == 0 ||
        name->empty() || listed.count(std::string_view(*name)) != 0) {
      continue;
    }
    unlisted += ", " + name->str();
  }
  return unlisted;
}

struct HostJit {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::atomic<uint64_t> next_library_id{1};
};

#if defined(__aarch64__)
// On AArch64 objects are linked by JITLink, which places all sections of an
// object in one allocation. LLVM 16's LLJIT would link them with RuntimeDyld,
// whose section memory manager maps code and constants separately; an ADRP
// reaches only +-4 GiB, and RuntimeDyld truncates a farther distance without
// a word, so a kernel whose constants were mapped far from its code read a
// wrong address and crashed (docs/plugins/cpu.md, "AArch64"). The objects
// are PIC with the small code model, as JITLink needs.
llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> CreateObjectLayer(
    llvm::orc::ExecutionSession& session, const llvm::Triple&) {
  auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(session);
  layer->addPlugin(std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(
      session, std::make_unique<llvm::jitlink::InProcessEHFrameRegistrar>()));
  return layer;
}
#endif

StatusOr<std::unique_ptr<HostJit>> CreateHostJit() {
  // The host target makes LLVM's native target known, once per process,
  // which the JIT needs before it starts.
  PHAL_RETURN_IF_ERROR(HostCpuTarget::Create(/*has_gemm=*/false).status());
  llvm::orc::LLJITBuilder builder;
#if defined(__aarch64__)
  builder.setObjectLinkingLayerCreator(CreateObjectLayer);
#endif
  auto jit = builder.create();
  if (!jit) {
    return Unavailable("cannot start the LLVM JIT: " +
                       ErrorText(jit.takeError()));
  }
  auto state = std::make_unique<HostJit>();
  state->jit = std::move(*jit);
  return state;
}

StatusOr<HostJit*> GetHostJit() {
  static std::once_flag once;
  static std::unique_ptr<HostJit> jit;
  static Status failure;
  std::call_once(once, [] {
    StatusOr<std::unique_ptr<HostJit>> created = CreateHostJit();
    if (created.ok()) {
      jit = std::move(created).value();
    } else {
      failure = created.status();
    }
  });
  if (jit == nullptr) return failure;
  return jit.get();
}

}  // namespace

StatusOr<HostJitCode> LoadHostObject(std::string_view object,
                                     std::string_view entry_symbol,
                                     std::span<const RuntimeSymbol> symbols) {
  PHAL_ASSIGN_OR_RETURN(HostJit * state, GetHostJit());
  llvm::orc::LLJIT& jit = *state->jit;
  const uint64_t id = state->next_library_id.fetch_add(1);
  auto library = jit.createJITDylib(LibraryName(id));
  if (!library) return Internal(ErrorText(library.takeError()));
  auto fail = [&](llvm::Error error) -> Status {
    std::string text =
        "cannot load kernel code: " + ErrorText(std::move(error));
    llvm::consumeError(jit.getExecutionSession().removeJITDylib(*library));
    const std::string unlisted = UnlistedSymbols(object, symbols);
    if (!unlisted.empty()) {
      text += "; it calls functions nobody defines: " + unlisted.substr(2);
    }
    return Internal(text);
  };

  // The listed functions are defined as absolute symbols inside the
  // object's own library, so objects loaded with different lists (the
  // host's runtime functions, a GPU device library's host versions) never
  // see each other's.
  llvm::orc::SymbolMap definitions;
  llvm::orc::MangleAndInterner mangle(jit.getExecutionSession(),
                                      jit.getDataLayout());
  for (const RuntimeSymbol& symbol : symbols) {
    definitions[mangle(symbol.name)] = llvm::JITEvaluatedSymbol(
        llvm::pointerToJITTargetAddress(symbol.address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  }
  if (llvm::Error error =
          library->define(llvm::orc::absoluteSymbols(std::move(definitions)))) {
    return fail(std::move(error));
  }
  if (llvm::Error error = jit.addObjectFile(
          *library, llvm::MemoryBuffer::getMemBufferCopy(
                        llvm::StringRef(object.data(), object.size()),
                        LibraryName(id)))) {
    return fail(std::move(error));
  }
  auto address = jit.lookup(
      *library, llvm::StringRef(entry_symbol.data(), entry_symbol.size()));
  if (!address) return fail(address.takeError());
  return HostJitCode{address->toPtr<void*>(), id};
}

void UnloadHostObject(const HostJitCode& code) {
  StatusOr<HostJit*> state = GetHostJit();
  if (!state.ok()) return;
  llvm::orc::ExecutionSession& session = (*state)->jit->getExecutionSession();
  llvm::orc::JITDylib* library =
      session.getJITDylibByName(LibraryName(code.library_id));
  if (library != nullptr) llvm::consumeError(session.removeJITDylib(*library));
}

}  // namespace phal::llvm_emitter
