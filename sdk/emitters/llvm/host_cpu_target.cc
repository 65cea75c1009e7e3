#include "sdk/emitters/llvm/host_cpu_target.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

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

llvm::OptimizationLevel PipelineLevel(unsigned level) {
  switch (level) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 2:
      return llvm::OptimizationLevel::O2;
    default:
      return llvm::OptimizationLevel::O3;
  }
}

llvm::CodeGenOpt::Level CodeGenLevel(unsigned level) {
  return level == 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Aggressive;
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
  module.setDataLayout(machine->createDataLayout());
  for (llvm::Function& function : module) {
    if (function.isDeclaration()) continue;
    function.addFnAttr("target-cpu", cpu_name_);
    function.addFnAttr("target-features", features_);
  }

  llvm::LoopAnalysisManager loop_analyses;
  llvm::FunctionAnalysisManager function_analyses;
  llvm::CGSCCAnalysisManager cgscc_analyses;
  llvm::ModuleAnalysisManager module_analyses;
  llvm::PassBuilder pass_builder(machine.get());
  pass_builder.registerModuleAnalyses(module_analyses);
  pass_builder.registerCGSCCAnalyses(cgscc_analyses);
  pass_builder.registerFunctionAnalyses(function_analyses);
  pass_builder.registerLoopAnalyses(loop_analyses);
  pass_builder.crossRegisterProxies(loop_analyses, function_analyses,
                                    cgscc_analyses, module_analyses);
  if (optimization_level > 0) {
    llvm::ModulePassManager passes = pass_builder.buildPerModuleDefaultPipeline(
        PipelineLevel(optimization_level));
    passes.run(module, module_analyses);
  }

  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if (machine->addPassesToEmitFile(codegen, stream, nullptr,
                                   llvm::CGFT_ObjectFile)) {
    return Internal("LLVM cannot emit object files for " + triple_);
  }
  codegen.run(module);
  return std::string(object.begin(), object.end());
}

}  // namespace phal::llvm_emitter
