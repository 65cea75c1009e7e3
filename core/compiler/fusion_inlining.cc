#include <map>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

class FusionInlining : public HloPass {
 public:
  const char* name() const override { return "inline-fusions"; }
  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    auto inline_fusion =
        [](const HloInstruction& source,
           const std::vector<HloInstruction*>& operands,
           const std::vector<HloComputation*>& called,
           RewriteContext& context) -> StatusOr<HloInstruction*> {
      if (source.opcode() != HloOpcode::kFusion) return nullptr;
      const HloComputation& fused = *called[0];
      std::map<const HloInstruction*, HloInstruction*> mapped;
      for (const HloInstruction* instruction : fused.instructions()) {
        if (instruction->opcode() == HloOpcode::kParameter) {
          mapped[instruction] = operands[static_cast<std::size_t>(
              instruction->parameter_number())];
          continue;
        }
        std::vector<HloInstruction*> inner;
        for (const HloInstruction* operand : instruction->operands()) {
          inner.push_back(mapped.at(operand));
        }
        mapped[instruction] = context.Add(*instruction, inner);
      }
      return mapped.at(fused.root_instruction());
    };
    return RewriteModule(module, inline_fusion);
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeFusionInliningPass() {
  return std::make_unique<FusionInlining>();
}

}  // namespace phal
