#include "sdk/emitters/llvm/device/device_library.h"

#include <memory>
#include <string>

#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include "sdk/emitters/llvm/device/device_functions.h"

namespace phal::llvm_emitter {
namespace {

#if PHAL_DEVICE_HAS_BITCODE
// The bitcode reader reads 32-bit words.
alignas(16) constexpr unsigned char kNvptx64Bitcode[] = {
#include "device_bitcode_nvptx64.inc"
};
alignas(16) constexpr unsigned char kAmdgcnBitcode[] = {
#include "device_bitcode_amdgcn.inc"
};
#endif

#define PHAL_DEVICE_HOST_SYMBOL(name) \
  RuntimeSymbol{#name, reinterpret_cast<void*>(&PHAL_DEVICE(name))},
const RuntimeSymbol kHostSymbols[] = {
    PHAL_DEVICE_FUNCTION_NAMES(PHAL_DEVICE_HOST_SYMBOL)};
#undef PHAL_DEVICE_HOST_SYMBOL

const char* TargetName(DeviceTarget target) {
  return target == DeviceTarget::kNvptx64 ? "nvptx64" : "amdgcn";
}

llvm::Triple::ArchType TargetArch(DeviceTarget target) {
  return target == DeviceTarget::kNvptx64 ? llvm::Triple::nvptx64
                                          : llvm::Triple::amdgcn;
}

std::string TypeText(const llvm::Type* type) {
  std::string text;
  llvm::raw_string_ostream stream(text);
  type->print(stream);
  return text;
}

// Every phal_ function `module` declares must be one the library defines,
// with the same type: a call through another type would be undefined.
Status CheckDeclarations(const llvm::Module& module,
                         const llvm::Module& library) {
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || !function.getName().startswith("phal_")) {
      continue;
    }
    const std::string name = function.getName().str();
    const llvm::Function* definition = library.getFunction(name);
    if (definition == nullptr || definition->isDeclaration()) {
      return NotFound("the module calls " + name +
                      ", which the GPU device library does not define");
    }
    if (definition->getFunctionType() != function.getFunctionType()) {
      return InvalidArgument("the module declares " + name + " as " +
                             TypeText(function.getFunctionType()) +
                             "; the GPU device library defines it as " +
                             TypeText(definition->getFunctionType()));
    }
  }
  return OkStatus();
}

}  // namespace

std::string_view DeviceLibraryBitcode(DeviceTarget target) {
#if PHAL_DEVICE_HAS_BITCODE
  const auto bytes = [](const auto& array) {
    return std::string_view(reinterpret_cast<const char*>(array),
                            sizeof(array));
  };
  return target == DeviceTarget::kNvptx64 ? bytes(kNvptx64Bitcode)
                                          : bytes(kAmdgcnBitcode);
#else
  static_cast<void>(target);
  return {};
#endif
}

Status LinkDeviceLibrary(llvm::Module& module, DeviceTarget target) {
  const std::string_view bitcode = DeviceLibraryBitcode(target);
  if (bitcode.empty()) {
    return FailedPrecondition(
        "the GPU device library has no bitcode: the SDK was built without "
        "clang++-16");
  }
  if (llvm::Triple(module.getTargetTriple()).getArch() != TargetArch(target)) {
    return InvalidArgument("module " + module.getName().str() + " targets '" +
                           module.getTargetTriple() + "', not " +
                           TargetName(target));
  }
  llvm::Expected<std::unique_ptr<llvm::Module>> parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(
          llvm::StringRef(bitcode.data(), bitcode.size()),
          std::string("phal_device_library_") + TargetName(target)),
      module.getContext());
  if (!parsed) {
    return Internal("the GPU device library's bitcode does not parse: " +
                    llvm::toString(parsed.takeError()));
  }
  std::unique_ptr<llvm::Module> library = std::move(*parsed);
  PHAL_RETURN_IF_ERROR(CheckDeclarations(module, *library));
  // The library is the same for every triple and data layout of its
  // architecture; taking the module's keeps the linker from warning.
  library->setTargetTriple(module.getTargetTriple());
  if (!module.getDataLayoutStr().empty()) {
    library->setDataLayout(module.getDataLayout());
  }
  // Only what the module calls is linked, and it becomes internal, so the
  // code generator may inline or drop it and nothing is left to resolve.
  const bool failed = llvm::Linker::linkModules(
      module, std::move(library), llvm::Linker::LinkOnlyNeeded,
      [](llvm::Module& linked, const llvm::StringSet<>& names) {
        llvm::internalizeModule(linked, [&names](const llvm::GlobalValue& v) {
          return !v.hasName() || !names.contains(v.getName());
        });
      });
  if (failed) {
    return Internal("linking the GPU device library into module " +
                    module.getName().str() + " failed");
  }
  return OkStatus();
}

std::span<const RuntimeSymbol> DeviceLibraryHostSymbols() {
  return kHostSymbols;
}

}  // namespace phal::llvm_emitter
