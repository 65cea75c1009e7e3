// Builds one HLO computation instruction by instruction, checking each with
// shape inference as it is added, so front ends and decompositions get a
// precise error at the op that is wrong instead of a verifier error later.
#ifndef POLYHAL_CORE_HLO_HLO_BUILDER_H_
#define POLYHAL_CORE_HLO_HLO_BUILDER_H_

#include <memory>
#include <string>
#include <vector>

#include "core/hlo/computation.h"
#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/hlo/process_groups.h"
#include "sdk/base/status.h"

namespace phal {

// `text` with every character HLO names do not allow (anything but
// letters, digits, '_', '.' and '-') replaced by '_'.
std::string HloNameFrom(std::string text);

class HloBuilder {
 public:
  explicit HloBuilder(std::string computation_name);

  // A new instruction named after its opcode, not yet added. `shape` is the
  // stated shape for ops whose inference reads it (convert, broadcast,
  // reshape, dot, ...); others may pass Shape().
  std::unique_ptr<HloInstruction> Create(
      HloOpcode opcode, Shape shape,
      const std::vector<HloInstruction*>& operands);
  // Infers the shape of `instruction`, stores it and adds the instruction.
  StatusOr<HloInstruction*> Add(std::unique_ptr<HloInstruction> instruction);

  // The next parameter, numbered in the order of calls and named after
  // `name` (an SSA name such as "arg0") when one is given.
  HloInstruction* AddParameter(const Shape& shape,
                               const std::string& name = "");

  StatusOr<HloInstruction*> Constant(Literal literal);
  // A scalar of `type` holding `value` (SetFromDouble's rounding).
  StatusOr<HloInstruction*> ScalarConstant(ElementType type, double value);
  // `value` broadcast to the dimensions and element type of `like`.
  StatusOr<HloInstruction*> FullLike(const HloInstruction* like, double value);
  StatusOr<HloInstruction*> Unary(HloOpcode opcode, HloInstruction* operand);
  StatusOr<HloInstruction*> Binary(HloOpcode opcode, HloInstruction* lhs,
                                   HloInstruction* rhs);
  StatusOr<HloInstruction*> Compare(
      ComparisonDirection direction, HloInstruction* lhs, HloInstruction* rhs,
      ComparisonType type = ComparisonType::kDefault);
  StatusOr<HloInstruction*> Select(HloInstruction* predicate,
                                   HloInstruction* on_true,
                                   HloInstruction* on_false);
  StatusOr<HloInstruction*> Convert(HloInstruction* operand, ElementType type);
  // The complex conjugate; a real operand is returned as itself.
  StatusOr<HloInstruction*> Conjugate(HloInstruction* operand);
  // Broadcast of `operand` to `dims`, operand dimension i going to result
  // dimension mapping[i].
  StatusOr<HloInstruction*> Broadcast(HloInstruction* operand,
                                      const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>& mapping);
  StatusOr<HloInstruction*> Reshape(HloInstruction* operand,
                                    const std::vector<int64_t>& dims);
  StatusOr<HloInstruction*> Iota(const Shape& shape, int64_t dimension);
  StatusOr<HloInstruction*> Slice(HloInstruction* operand,
                                  std::vector<int64_t> starts,
                                  std::vector<int64_t> limits);
  StatusOr<HloInstruction*> Slice(HloInstruction* operand,
                                  std::vector<int64_t> starts,
                                  std::vector<int64_t> limits,
                                  std::vector<int64_t> strides);
  StatusOr<HloInstruction*> Tuple(const std::vector<HloInstruction*>& elements);
  // The linear-algebra ops (linear_algebra_options.h).
  StatusOr<HloInstruction*> Cholesky(HloInstruction* a, bool lower);
  StatusOr<HloInstruction*> TriangularSolve(
      HloInstruction* a, HloInstruction* b,
      const LinearAlgebraOptions& options);
  StatusOr<HloInstruction*> GetTupleElement(HloInstruction* tuple,
                                            int64_t index);
  // The elements of a tuple-shaped value as get-tuple-elements; an array
  // value is returned as itself.
  StatusOr<std::vector<HloInstruction*>> Untuple(HloInstruction* value);

  // The grid the program runs on, which the shapes of collectives depend
  // on (1 x 1 unless set).
  void set_process_grid(ProcessGrid grid) { grid_ = grid; }

  // Sets the root and hands the computation over.
  std::unique_ptr<HloComputation> Build(HloInstruction* root);

 private:
  std::unique_ptr<HloComputation> computation_;
  int64_t next_id_ = 0;
  int64_t next_parameter_ = 0;
  ProcessGrid grid_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_HLO_BUILDER_H_
