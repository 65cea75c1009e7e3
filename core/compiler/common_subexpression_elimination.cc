#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// Computations that compute the same thing whatever their names: the same
// instructions in the same order, each with the same attributes, operands
// at the same positions and equivalent called computations. JAX writes one
// reducer region per reduce, so two reduces of the same kind call two
// computations that differ only in their names.
class ComputationEquivalence {
 public:
  // `computation` itself, or the first computation seen that is equivalent.
  HloComputation* Canonical(HloComputation* computation) {
    if (computation == nullptr) return nullptr;
    for (HloComputation* known : known_) {
      if (known == computation || Equivalent(*known, *computation)) {
        return known;
      }
    }
    known_.push_back(computation);
    return computation;
  }

  std::vector<HloComputation*> Canonical(
      const std::vector<HloComputation*>& computations) {
    std::vector<HloComputation*> canonical;
    for (HloComputation* computation : computations) {
      canonical.push_back(Canonical(computation));
    }
    return canonical;
  }

 private:
  bool Equivalent(const HloComputation& a, const HloComputation& b) {
    const std::vector<HloInstruction*>& first = a.instructions();
    const std::vector<HloInstruction*>& second = b.instructions();
    if (first.size() != second.size()) return false;
    std::unordered_map<const HloInstruction*, std::size_t> position_a,
        position_b;
    for (std::size_t i = 0; i < first.size(); ++i) {
      position_a[first[i]] = i;
      position_b[second[i]] = i;
    }
    auto position = [](const auto& positions, const HloInstruction* x) {
      auto found = positions.find(x);
      return found == positions.end() ? first_absent : found->second;
    };
    if (position(position_a, a.root_instruction()) !=
        position(position_b, b.root_instruction())) {
      return false;
    }
    for (std::size_t i = 0; i < first.size(); ++i) {
      const HloInstruction& x = *first[i];
      const HloInstruction& y = *second[i];
      if (x.operand_count() != y.operand_count()) return false;
      for (int64_t j = 0; j < x.operand_count(); ++j) {
        const std::size_t px = position(position_a, x.operand(j));
        if (px == first_absent || px != position(position_b, y.operand(j))) {
          return false;
        }
      }
      // Attributes, with called computations compared as their canonical
      // representatives.
      const std::vector<HloComputation*> called_x =
          Canonical(x.called_computations());
      const std::vector<HloComputation*> called_y =
          Canonical(y.called_computations());
      if (called_x != called_y) return false;
      if (!CloneInstruction(x, {}, called_x, "cse")
               ->Identical(*CloneInstruction(y, {}, called_y, "cse"))) {
        return false;
      }
    }
    return true;
  }

  static constexpr std::size_t first_absent = ~std::size_t{0};
  std::vector<HloComputation*> known_;
};

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
    ComputationEquivalence equivalence;
    auto merge = [&seen, &equivalence](
                     const HloInstruction& source,
                     const std::vector<HloInstruction*>& operands,
                     const std::vector<HloComputation*>& called,
                     RewriteContext& context) -> StatusOr<HloInstruction*> {
      if (source.opcode() == HloOpcode::kParameter) return nullptr;
      auto& candidates =
          seen[context.computation()][Key(source.opcode(), operands)];
      std::unique_ptr<HloInstruction> bare =
          CloneInstruction(source, {}, equivalence.Canonical(called), "cse");
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
