// Fusion planning: decides which HLO instructions of a computation become
// one kernel. docs/compiler.md ("Fusion rules") states the rules:
//   - loop fusion: elementwise and data-movement ops are fused into their
//     consumers when every user of the producer is in the same kernel;
//     iota and broadcasts of scalar constants are recomputed wherever used;
//     a producer with the root's dimensions and users elsewhere becomes an
//     extra output (multi-output fusion) unless that would make a cycle;
//   - a reduce, reduce-window, dot or convolution ("hero") takes its
//     producers as prologue (reduce and reduce-window inputs; converts of
//     dot and convolution operands, which other kernels then compute again
//     where they read them too) and a chain of elementwise consumers of its
//     own dimensions as epilogue;
//   - gather, scatter, sort and fft (left whole for a device that runs FFT
//     kernels) are kernels of their own;
//   - reshape and bitcast of a value that stays in memory are free: they
//     name the same bytes.
#ifndef POLYHAL_CORE_COMPILER_FUSION_PLANNER_H_
#define POLYHAL_CORE_COMPILER_FUSION_PLANNER_H_

#include <set>
#include <unordered_map>
#include <vector>

#include "core/hlo/computation.h"
#include "sdk/base/status.h"

namespace phal {

// The type a dot or convolution with results of `result_type` sums its
// products in: half-precision products are summed in f32, as every backend
// does; other types accumulate in their own type.
ElementType ProductAccumulationType(ElementType result_type);

struct FusionGroup {
  HloInstruction* root = nullptr;
  // The reduce, reduce-window, dot, convolution, gather, scatter, sort or
  // fft the kernel is built around; null for a loop kernel.
  HloInstruction* hero = nullptr;
  // Instructions computed inside the kernel, root and hero included.
  std::set<const HloInstruction*> members;
  // Members whose values the kernel writes: the root, then extra outputs.
  std::vector<HloInstruction*> outputs;
  // Members the kernel computes for its own hero only, which users in other
  // kernels get elsewhere: converts a dot or convolution folds into its
  // products while other kernels also read them.
  std::set<const HloInstruction*> recomputed;
};

// One unit of execution, in the order they run: a kernel, or a step the
// host runs: a while, conditional or call, or a process op (a collective,
// replica-id, partition-id; process_ops.h).
struct ScheduledUnit {
  int group = -1;                     // index into FusionPlan::groups
  HloInstruction* control = nullptr;  // the host step
};

struct FusionPlan {
  std::vector<FusionGroup> groups;
  std::vector<ScheduledUnit> schedule;
  // reshape and bitcast instructions that share their operand's memory.
  std::set<const HloInstruction*> aliases;
};

// True for ops a loop kernel computes as index arithmetic and scalar math.
bool IsLoopFusible(const HloInstruction& instruction);
// True for reduce, reduce-window, dot, convolution, gather, scatter, sort,
// fft.
bool IsHero(const HloInstruction& instruction);

// Plans `computation`. Fails with UNIMPLEMENTED for an op no kernel kind
// computes (after decomposition), naming it.
StatusOr<FusionPlan> PlanFusion(const HloComputation& computation);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_FUSION_PLANNER_H_
