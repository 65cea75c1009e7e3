// Counted while loops: a loop state element that starts at a constant,
// grows by one per step and is compared below a constant. The passes that
// rewrite scans (hoist-scan-inputs, scatter-loop-updates) use its bounds.
#ifndef POLYHAL_CORE_COMPILER_COUNTED_LOOP_H_
#define POLYHAL_CORE_COMPILER_COUNTED_LOOP_H_

#include <cstdint>
#include <optional>

#include "core/hlo/instruction.h"

namespace phal {

struct CountedLoop {
  int64_t counter = -1;  // the loop state element
  int64_t start = 0;     // its initial value
  int64_t limit = 0;     // the body runs while counter < limit
  // Steps the loop runs (0 when start >= limit).
  int64_t trips() const { return limit > start ? limit - start : 0; }
};

// True when `value` is get-tuple-element `*index` of a parameter.
bool IsParameterElement(const HloInstruction& value, int64_t* index);

// The counter of `loop` (a while whose initial state is a tuple
// instruction): the condition's root is counter < constant (or
// constant > counter), the body's root tuple passes counter + 1 (the
// constant 1 either side), and the initial value is an integer constant.
// Nothing for any other loop.
std::optional<CountedLoop> FindCountedLoop(const HloInstruction& loop);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_COUNTED_LOOP_H_
