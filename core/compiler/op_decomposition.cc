#include "core/compiler/decompositions.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

class OpDecomposition : public HloPass {
 public:
  const char* name() const override { return "decompose-ops"; }

  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    auto decompose = [](const HloInstruction& source,
                        const std::vector<HloInstruction*>& operands,
                        const std::vector<HloComputation*>& called,
                        RewriteContext& context) -> StatusOr<HloInstruction*> {
      switch (source.opcode()) {
        case HloOpcode::kTopK:
          return DecomposeTopK(source, operands, context);
        case HloOpcode::kBitcastConvert:
          return DecomposeBitcastConvert(source, operands, context);
        case HloOpcode::kSelectAndScatter:
          return DecomposeSelectAndScatter(source, operands, called, context);
        case HloOpcode::kScatter:
          return SplitVariadicScatter(source, operands, called, context);
        default:
          return nullptr;
      }
    };
    return RewriteModule(module, decompose);
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeOpDecompositionPass() {
  return std::make_unique<OpDecomposition>();
}

}  // namespace phal
