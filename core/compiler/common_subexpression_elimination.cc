#include <map>
#include <utility>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

class CommonSubexpressionElimination : public HloPass {
 public:
  const char* name() const override { return "cse"; }

  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    // Per computation: instructions already in the new module, keyed by
    // opcode and operands, with an operand-less copy holding attributes.
    using Key = std::pair<HloOpcode, std::vector<HloInstruction*>>;
    std::map<
        const HloComputation*,
        std::map<Key, std::vector<std::pair<HloInstruction*,
                                            std::unique_ptr<HloInstruction>>>>>
        seen;
    auto merge = [&seen](const HloInstruction& source,
                         const std::vector<HloInstruction*>& operands,
                         const std::vector<HloComputation*>& called,
                         RewriteContext& context) -> StatusOr<HloInstruction*> {
      if (source.opcode() == HloOpcode::kParameter) return nullptr;
      auto& candidates =
          seen[context.computation()][Key(source.opcode(), operands)];
      std::unique_ptr<HloInstruction> bare =
          CloneInstruction(source, {}, called, "cse");
      for (const auto& [existing, existing_bare] : candidates) {
        if (existing_bare->Identical(*bare)) return existing;
      }
      HloInstruction* added = context.computation()->AddInstruction(
          CloneInstruction(source, operands, called, source.name()));
      candidates.emplace_back(added, std::move(bare));
      return added;
    };
    return RewriteModule(module, merge);
  }
};

}  // namespace

std::unique_ptr<HloPass> MakeCommonSubexpressionEliminationPass() {
  return std::make_unique<CommonSubexpressionElimination>();
}

}  // namespace phal
