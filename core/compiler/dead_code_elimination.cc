#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

class DeadCodeElimination : public HloPass {
 public:
  const char* name() const override { return "dce"; }
  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    auto keep = [](const HloInstruction&, const std::vector<HloInstruction*>&,
                   const std::vector<HloComputation*>&,
                   RewriteContext&) -> StatusOr<HloInstruction*> {
      return nullptr;
    };
    return RewriteModule(module, keep, /*drop_dead=*/true);
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeDeadCodeEliminationPass() {
  return std::make_unique<DeadCodeElimination>();
}

}  // namespace phal
