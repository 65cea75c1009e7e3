#include "sdk/emitters/llvm/host_cpu_target.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include "sdk/emitters/llvm/machine_code.h"

namespace phal::llvm_emitter {
namespace {

void InitializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

// Sorted so the string, which keys caches, is the same on every run.
std::string HostFeatureString() {
  llvm::StringMap<bool> features;
  llvm::sys::getHostCPUFeatures(features);
  std::vector<std::string> entries;
  for (const auto& feature : features) {
    entries.push_back((feature.getValue() ? "+" : "-") +
                      feature.getKey().str());
  }
  std::sort(entries.begin(), entries.end());
  std::string joined;
  for (const std::string& entry : entries) {
    if (!joined.empty()) joined += ',';
    joined += entry;
  }
  return joined;
}

}  // namespace

StatusOr<std::unique_ptr<HostCpuTarget>> HostCpuTarget::Create(bool has_gemm) {
  InitializeNativeTargetOnce();
  const std::string triple = llvm::sys::getProcessTriple();
  std::string error;
  const llvm::Target* target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (target == nullptr) {
    return Unavailable("LLVM has no target for " + triple + ": " + error);
  }
  return std::unique_ptr<HostCpuTarget>(
      new HostCpuTarget(target, triple, llvm::sys::getHostCPUName().str(),
                        HostFeatureString(), has_gemm));
}

void HostCpuTarget::ConfigureModule(llvm::Module& module) const {
  module.setTargetTriple(triple_);
}

bool HostCpuTarget::HasGemm(phal_element_type_t type) const {
  return has_gemm_ &&
         (type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64);
}

StatusOr<std::string> HostCpuTarget::Compile(
    llvm::Module& module, unsigned optimization_level) const {
  // A TargetMachine is not safe to share between threads compiling at once,
  // so every compilation makes its own.
  std::unique_ptr<llvm::TargetMachine> machine(target_->createTargetMachine(
      triple_, cpu_name_, features_, llvm::TargetOptions(), llvm::Reloc::PIC_,
      llvm::CodeModel::Small, CodeGenLevel(optimization_level)));
  if (machine == nullptr) {
    return Internal("LLVM could not make a target machine for " + triple_);
  }
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.addFnAttr("target-cpu", cpu_name_);
    function.addFnAttr("target-features", features_);
  }
  return OptimizeAndEmit(*machine, module, optimization_level,
                         llvm::CGFT_ObjectFile);
}

}  // namespace phal::llvm_emitter
