// Lowers the instructions of one fusion group to KIR nodes: the value of an
// instruction at an index (one s64 node per dimension) becomes scalar ops
// over READs of the kernel's input buffers. Data movement (broadcast,
// reshape, transpose, slice, pad, reverse, concatenate, iota, dynamic-slice,
// dynamic-update-slice) is index arithmetic; every READ index is clamped or
// proven in bounds, since a plugin may evaluate both sides of a select.
#ifndef POLYHAL_CORE_COMPILER_FUSED_EMITTER_H_
#define POLYHAL_CORE_COMPILER_FUSED_EMITTER_H_

#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/hlo/computation.h"
#include "core/hlo/instruction.h"
#include "sdk/base/status.h"
#include "sdk/kir/kernel.h"

namespace phal {

// The buffer index through which a kernel reads the value of an
// instruction computed outside it.
using InputBufferFn = std::function<StatusOr<uint32_t>(const HloInstruction&)>;

class FusedEmitter {
 public:
  // Instructions in `members` are computed inline; every other one is read
  // from the buffer `input_buffer` names.
  FusedEmitter(KirBody* body, const std::set<const HloInstruction*>* members,
               InputBufferFn input_buffer);

  // Makes `instruction` evaluate to `node` wherever it is used (the reduced
  // or multiplied value an epilogue receives).
  void Bind(const HloInstruction* instruction, uint32_t node) {
    bound_[instruction] = node;
  }

  StatusOr<uint32_t> Emit(const HloInstruction& instruction,
                          const std::vector<uint32_t>& index);

  // INDEX nodes 0..rank-1.
  std::vector<uint32_t> IterationIndex(std::size_t rank);

 private:
  StatusOr<uint32_t> EmitInline(const HloInstruction& instruction,
                                const std::vector<uint32_t>& index);
  StatusOr<uint32_t> EmitElementwise(const HloInstruction& instruction,
                                     const std::vector<uint32_t>& index);
  StatusOr<uint32_t> EmitConcatenate(const HloInstruction& instruction,
                                     const std::vector<uint32_t>& index);
  StatusOr<uint32_t> EmitPad(const HloInstruction& instruction,
                             const std::vector<uint32_t>& index);
  StatusOr<uint32_t> EmitDynamicSlice(const HloInstruction& instruction,
                                      const std::vector<uint32_t>& index);
  StatusOr<uint32_t> EmitDynamicUpdateSlice(const HloInstruction& instruction,
                                            const std::vector<uint32_t>& index);
  // The s64 start index operand `operand` clamped to [0, limit].
  StatusOr<uint32_t> ClampedStart(const HloInstruction& operand, int64_t limit);

  KirBody* body_;
  const std::set<const HloInstruction*>* members_;
  InputBufferFn input_buffer_;
  std::map<const HloInstruction*, uint32_t> bound_;
  std::map<std::pair<const HloInstruction*, std::vector<uint32_t>>, uint32_t>
      emitted_;
};

// The node of scalar element `index` of `literal`.
uint32_t EmitLiteralElement(KirBody* body, const Literal& literal,
                            int64_t index);

// Emits a computation on scalars (a reducer, comparator, combiner or map
// function) with its parameters bound to `parameters`; returns the nodes of
// its results (the root tuple's elements, or the root).
StatusOr<std::vector<uint32_t>> EmitScalarComputation(
    KirBody* body, const HloComputation& computation,
    const std::vector<uint32_t>& parameters);

// Maps an index over `from` dims to the index of the element with the same
// row-major position in `to` dims (equal element counts).
std::vector<uint32_t> Reindex(KirBody* body, const std::vector<uint32_t>& index,
                              const std::vector<int64_t>& from,
                              const std::vector<int64_t>& to);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_FUSED_EMITTER_H_
