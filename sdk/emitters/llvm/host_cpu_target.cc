#include "sdk/emitters/llvm/host_cpu_target.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
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
std::string FeatureString(const llvm::StringMap<bool>& features) {
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

// The features of processor `cpu` (an LLVM CPU name), over the names the
// host reports: on where `cpu` has them. INVALID_ARGUMENT when LLVM knows
// no such processor, or `cpu` has a feature the host lacks (its code would
// stop on an illegal instruction).
StatusOr<llvm::StringMap<bool>> FeaturesOf(const llvm::Target& target,
                                           const std::string& triple,
                                           const std::string& cpu,
                                           const llvm::StringMap<bool>& host) {
  const std::unique_ptr<llvm::MCSubtargetInfo> info(
      target.createMCSubtargetInfo(triple, cpu, ""));
  if (info == nullptr || !info->isCPUStringValid(cpu)) {
    return InvalidArgument(std::string(kCpuTargetVariable) + "=" + cpu +
                           ": LLVM knows no such " + triple +
                           " processor (see `llc -mcpu=help`)");
  }
  llvm::StringMap<bool> features;
  std::string lacking;
  for (const auto& feature : host) {
    const bool on = info->checkFeatures("+" + feature.getKey().str());
    if (on && !feature.getValue()) lacking += " " + feature.getKey().str();
    features[feature.getKey()] = on;
  }
  if (!lacking.empty()) {
    return InvalidArgument(std::string(kCpuTargetVariable) + "=" + cpu +
                           " needs features this processor lacks:" + lacking);
  }
  return features;
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
  llvm::StringMap<bool> host;
  llvm::sys::getHostCPUFeatures(host);
  const char* forced = std::getenv(kCpuTargetVariable);
  if (forced == nullptr || *forced == '\0') {
    return std::unique_ptr<HostCpuTarget>(
        new HostCpuTarget(target, triple, llvm::sys::getHostCPUName().str(),
                          FeatureString(host), has_gemm));
  }
  PHAL_ASSIGN_OR_RETURN(llvm::StringMap<bool> features,
                        FeaturesOf(*target, triple, forced, host));
  return std::unique_ptr<HostCpuTarget>(new HostCpuTarget(
      target, triple, forced, FeatureString(features), has_gemm));
}

void HostCpuTarget::ConfigureModule(llvm::Module& module) const {
  module.setTargetTriple(triple_);
}

bool HostCpuTarget::HasGemm(phal_element_type_t type) const {
  return has_gemm_ &&
         (type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_F64 ||
          type == PHAL_ELEMENT_TYPE_S32);
}

bool HostCpuTarget::HasHalfConversions() const {
  if (triple_.rfind("aarch64", 0) == 0) return true;
  return ("," + features_ + ",").find(",+f16c,") != std::string::npos;
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
