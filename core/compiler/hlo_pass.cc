#include "core/compiler/hlo_pass.h"

#include <cstdio>
#include <fstream>

#include "core/compiler/passes.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"

namespace phal {

std::vector<std::unique_ptr<HloPass>> DefaultPipeline(
    int64_t max_folded_elements, bool fft_kernels, bool linalg_kernels) {
  std::vector<std::unique_ptr<HloPass>> passes;
  passes.push_back(MakeLinearAlgebraExpansionPass(linalg_kernels));
  passes.push_back(MakeCallInliningPass());
  passes.push_back(MakeLayoutNormalizationPass());
  passes.push_back(MakeBatchNormDecompositionPass());
  passes.push_back(MakeOpDecompositionPass(fft_kernels));
  passes.push_back(MakeConvolutionCanonicalizationPass());
  passes.push_back(MakeAlgebraicSimplificationPass());
  passes.push_back(MakeConstantFoldingPass(max_folded_elements));
  passes.push_back(MakeAlgebraicSimplificationPass());
  passes.push_back(MakeCommonSubexpressionEliminationPass());
  passes.push_back(MakeScanInputHoistingPass());
  passes.push_back(MakeLoopUpdateScatterPass());
  passes.push_back(MakeDeadCodeEliminationPass());
  return passes;
}

StatusOr<std::unique_ptr<HloModule>> RunPasses(
    std::unique_ptr<HloModule> module,
    const std::vector<std::unique_ptr<HloPass>>& passes,
    const std::string& dump_directory) {
  int number = 0;
  for (const std::unique_ptr<HloPass>& pass : passes) {
    ++number;
    PHAL_ASSIGN_OR_RETURN(module, pass->Run(*module));
    Status verified = VerifyModule(*module);
    if (!verified.ok()) {
      return Internal(std::string("pass ") + pass->name() +
                      " produced an invalid module: " + verified.message());
    }
    if (dump_directory.empty()) continue;
    char prefix[32];
    std::snprintf(prefix, sizeof(prefix), "%02d-", number);
    const std::string path =
        dump_directory + "/" + prefix + pass->name() + ".hlo";
    std::ofstream file(path);
    file << HloModuleToText(*module);
    if (!file) return Unavailable("cannot write " + path);
  }
  return module;
}

}  // namespace phal
