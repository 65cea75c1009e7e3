#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {

// Copies every instruction the root depends on, and nothing else.
std::unique_ptr<HloPass> MakeDeadCodeEliminationPass() {
  return MakeRewritePass(
      "dce",
      [](const HloInstruction&, const std::vector<HloInstruction*>&,
         const std::vector<HloComputation*>&,
         RewriteContext&) -> StatusOr<HloInstruction*> { return nullptr; },
      /*drop_dead=*/true);
}

}  // namespace phal
