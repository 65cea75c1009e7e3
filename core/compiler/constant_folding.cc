#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"
#include "core/compiler/process_ops.h"
#include "core/reference/interpreter.h"

namespace phal {
namespace {

bool Foldable(const HloInstruction& source,
              const std::vector<HloInstruction*>& operands,
              int64_t max_elements) {
  switch (source.opcode()) {
    case HloOpcode::kParameter:
    case HloOpcode::kConstant:
    case HloOpcode::kBroadcast:  // folding only grows the program
    case HloOpcode::kIota:
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
      return false;
    default:
      break;
  }
  // Their values depend on the process that runs them.
  if (IsProcessOp(source.opcode())) return false;
  if (operands.empty() || !source.called_computations().empty() ||
      !source.shape().IsArray() ||
      source.shape().ElementCount() > max_elements) {
    return false;
  }
  for (const HloInstruction* operand : operands) {
    if (operand->opcode() != HloOpcode::kConstant) return false;
  }
  return true;
}

// Evaluates `source` on its constant operands with the reference
// interpreter, in a module of its own.
StatusOr<Literal> Fold(const HloInstruction& source,
                       const std::vector<HloInstruction*>& operands) {
  HloModule module("fold");
  auto computation = std::make_unique<HloComputation>("fold");
  std::vector<HloInstruction*> constants;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    constants.push_back(computation->AddInstruction(
        CloneInstruction(*operands[i], {}, {}, "operand" + std::to_string(i))));
  }
  HloInstruction* root = computation->AddInstruction(
      CloneInstruction(source, constants, {}, "folded"));
  computation->set_root_instruction(root);
  module.set_entry_computation(module.AddComputation(std::move(computation)));
  return Evaluate(module, {});
}

class ConstantFolding : public HloPass {
 public:
  explicit ConstantFolding(int64_t max_elements)
      : max_elements_(max_elements) {}
  const char* name() const override { return "fold-constants"; }

  StatusOr<std::unique_ptr<HloModule>> Run(const HloModule& module) override {
    const int64_t max_elements = max_elements_;
    auto fold = [max_elements](
                    const HloInstruction& source,
                    const std::vector<HloInstruction*>& operands,
                    const std::vector<HloComputation*>&,
                    RewriteContext& context) -> StatusOr<HloInstruction*> {
      if (!Foldable(source, operands, max_elements)) return nullptr;
      StatusOr<Literal> value = Fold(source, operands);
      // An op the interpreter rejects stays for the device to report.
      if (!value.ok()) return nullptr;
      Literal literal = std::move(value).value();
      return context.AddNew(HloOpcode::kConstant, source.shape(), {},
                            [&](HloInstruction& constant) {
                              constant.set_literal(std::move(literal));
                            });
    };
    return RewriteModule(module, fold);
  }

 private:
  int64_t max_elements_;
};

}  // namespace

std::unique_ptr<HloPass> MakeConstantFoldingPass(int64_t max_elements) {
  return std::make_unique<ConstantFolding>(max_elements);
}

}  // namespace phal
