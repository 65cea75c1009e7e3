// An HLO-to-HLO pass of the compiler pipeline, and the pipeline runner.
#ifndef POLYHAL_CORE_COMPILER_HLO_PASS_H_
#define POLYHAL_CORE_COMPILER_HLO_PASS_H_

#include <memory>
#include <string>
#include <vector>

#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

class HloPass {
 public:
  virtual ~HloPass() = default;
  // Short name used in dumps ("NN-<name>.hlo") and errors.
  virtual const char* name() const = 0;
  // The rewritten module; `module` itself is left alone.
  virtual StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) = 0;
};

// The passes core/compiler runs, in order (docs/compiler.md explains each).
// Constant folding evaluates results of at most `max_folded_elements`
// elements (0 folds nothing); `fft_kernels` leaves fft whole for a device
// that runs FFT kernels instead of decomposing it, `linalg_kernels` the
// linear-algebra ops for one that runs LINALG kernels instead of expanding
// them.
inline constexpr int64_t kDefaultMaxFoldedElements = int64_t{1} << 16;
std::vector<std::unique_ptr<HloPass>> DefaultPipeline(
    int64_t max_folded_elements = kDefaultMaxFoldedElements,
    bool fft_kernels = false, bool linalg_kernels = false);

// Runs `passes` in order on `module`, verifying the module after each one
// (a failure names the pass). When `dump_directory` is not empty, writes
// the module after pass N to "<dump_directory>/NN-<name>.hlo".
StatusOr<std::unique_ptr<HloModule>> RunPasses(
    std::unique_ptr<HloModule> module,
    const std::vector<std::unique_ptr<HloPass>>& passes,
    const std::string& dump_directory);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_HLO_PASS_H_
