#include "sdk/emitters/llvm/machine_code.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace phal::llvm_emitter {
namespace {

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

}  // namespace

llvm::CodeGenOpt::Level CodeGenLevel(unsigned optimization_level) {
  return optimization_level == 0 ? llvm::CodeGenOpt::None
                                 : llvm::CodeGenOpt::Aggressive;
}

StatusOr<std::string> OptimizeAndEmit(llvm::TargetMachine& machine,
                                      llvm::Module& module,
                                      unsigned optimization_level,
                                      llvm::CodeGenFileType file_type) {
  module.setDataLayout(machine.createDataLayout());
  llvm::LoopAnalysisManager loop_analyses;
  llvm::FunctionAnalysisManager function_analyses;
  llvm::CGSCCAnalysisManager cgscc_analyses;
  llvm::ModuleAnalysisManager module_analyses;
  // As clang at -O2 and above: the SLP vectoriser on (LLVM's default
  // tuning leaves it off), which turns the lanes of a maximum or minimum
  // reduction into vector operations.
  llvm::PipelineTuningOptions tuning;
  tuning.SLPVectorization = optimization_level >= 2;
  llvm::PassBuilder pass_builder(&machine, tuning);
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

  llvm::SmallVector<char, 0> code;
  llvm::raw_svector_ostream stream(code);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, stream, nullptr, file_type)) {
    return Internal("LLVM cannot emit this file type for " +
                    machine.getTargetTriple().str());
  }
  codegen.run(module);
  return std::string(code.begin(), code.end());
}

}  // namespace phal::llvm_emitter
