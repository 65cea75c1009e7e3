#include <map>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// Inlines `fusion` and `call` instructions, as XLA's CallInliner does for
// calls. Kernel bodies (reducers, mapped functions, comparators, scatter
// combiners) are emitted from scalar computations that must be flat, and a
// call at the host level would cut a fusible chain into two kernels.
// Computations are rewritten callees first, so the callee inlined here
// holds no call or fusion any more.
StatusOr<HloInstruction*> InlineCallee(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context) {
  if (source.opcode() != HloOpcode::kFusion &&
      source.opcode() != HloOpcode::kCall) {
    return nullptr;
  }
  const HloComputation& callee = *called[0];
  std::map<const HloInstruction*, HloInstruction*> mapped;
  for (const HloInstruction* instruction : callee.instructions()) {
    if (instruction->opcode() == HloOpcode::kParameter) {
      mapped[instruction] =
          operands[static_cast<std::size_t>(instruction->parameter_number())];
      continue;
    }
    std::vector<HloInstruction*> inner;
    for (const HloInstruction* operand : instruction->operands()) {
      inner.push_back(mapped.at(operand));
    }
    mapped[instruction] = context.Add(*instruction, inner);
  }
  return mapped.at(callee.root_instruction());
}

}  // namespace

std::unique_ptr<HloPass> MakeCallInliningPass() {
  return MakeRewritePass("inline-calls", InlineCallee);
}

}  // namespace phal
