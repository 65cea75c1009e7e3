// Rebuilding HLO modules. The HLO IR keeps instructions in append-only
// post order, so a pass produces a new module: every computation is copied
// instruction by instruction, and a pass-specific callback may replace an
// instruction by other instructions it adds to the new computation.
#ifndef POLYHAL_CORE_COMPILER_HLO_REWRITER_H_
#define POLYHAL_CORE_COMPILER_HLO_REWRITER_H_

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/compiler/hlo_pass.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// A copy of `source` with new operands and called computations; every
// attribute is copied.
std::unique_ptr<HloInstruction> CloneInstruction(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, std::string name);

// Copies `source` into `module` after the computations it calls, each
// copied once: `copies` maps the computations copied so far to their
// copies (a callee already there is not copied again) and receives the
// new ones. Returns the copy of `source`.
HloComputation* CopyComputation(
    const HloComputation& source, HloModule* module,
    std::unordered_map<const HloComputation*, HloComputation*>* copies);

// Adds instructions to the computation being rebuilt, with fresh names.
class RewriteContext {
 public:
  RewriteContext(HloModule* module, HloComputation* computation,
                 int64_t* next_id)
      : module_(module), computation_(computation), next_id_(next_id) {}
  // The module being built; a rewrite may add computations it calls.
  HloModule* module() { return module_; }
  HloComputation* computation() { return computation_; }
  // Adds a copy of `prototype` (an instruction without operands, whose
  // attributes and called computations are taken) on `operands`, named
  // "<opcode>.rw<N>" to stay unique.
  HloInstruction* Add(const HloInstruction& prototype,
                      const std::vector<HloInstruction*>& operands);
  // Adds a new instruction; `configure` sets its attributes.
  HloInstruction* AddNew(
      HloOpcode opcode, Shape shape,
      const std::vector<HloInstruction*>& operands,
      const std::function<void(HloInstruction&)>& configure = nullptr);
  // Adds to the module a computation (a, b) -> opcode(a, b) on scalars of
  // `type`, named "<prefix>.<N>" to stay unique: a reducer.
  HloComputation* AddBinaryComputation(HloOpcode opcode, ElementType type,
                                       const std::string& prefix);

 private:
  HloModule* module_;
  HloComputation* computation_;
  int64_t* next_id_;
};

// Adds parameter `number` of `shape`, named "p<number>", to `computation`.
HloInstruction* AddParameter(HloComputation& computation, int64_t number,
                             const Shape& shape);

// The permutation of `rank` dimensions (2 or more) that swaps the last two
// and keeps the others: a batch of matrices transposed.
std::vector<int64_t> SwapMinor(int64_t rank);

// `value` transposed by `permutation` (result dimension i is operand
// dimension permutation[i]); `value` itself for the identity.
HloInstruction* AddTranspose(RewriteContext& context, HloInstruction* value,
                             const std::vector<int64_t>& permutation);

// Returns the instruction standing for `source` in the new computation
// (given `operands`, already rewritten, and `called`, the new called
// computations), or null to copy `source` unchanged.
using RewriteFn = std::function<StatusOr<HloInstruction*>(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context)>;

// Rebuilds `module` through `rewrite`. When `drop_dead` is set, only
// instructions the root depends on (and parameters) are kept, and only
// computations still called survive.
StatusOr<std::unique_ptr<HloModule>> RewriteModule(const HloModule& module,
                                                   const RewriteFn& rewrite,
                                                   bool drop_dead = false);

// A pass that rebuilds the module through `rewrite`, which keeps no state
// between instructions (RewriteModule with `drop_dead`); `name` is a static
// string.
std::unique_ptr<HloPass> MakeRewritePass(const char* name, RewriteFn rewrite,
                                         bool drop_dead = false);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_HLO_REWRITER_H_
