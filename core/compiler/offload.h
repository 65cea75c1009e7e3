// Offloading: the parts of a program a plugin with a compiler of its own
// takes whole (plugin.h, ABI 1.13 whole programs). In every computation the
// host runs (the entry, and the bodies of while, conditional and call
// outside any part), the instructions the plugin accepts are gathered into
// parts, each part's instructions move into a computation of their own, and
// a call of it takes their place. A part is convex (no path leaves it and
// comes back), so the call can stand where they stood; the partitioner
// makes each call a kCall step, the part's computation is planned as
// kernels as usual (what runs where the plugin declines the part), and
// Program::offloads records the parts by name. Constants, and accepted
// constant expressions (an iota, broadcasts, reshapes and elementwise
// operations of constants), join no part: each part that reads one gets a
// copy, so no part passes them to another through memory.
#ifndef POLYHAL_CORE_COMPILER_OFFLOAD_H_
#define POLYHAL_CORE_COMPILER_OFFLOAD_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/compiler/program.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// How the offload pass asks what the plugin takes.
struct OffloadRules {
  // Whether the plugin takes `instruction`; asked once per instruction,
  // never about parameters, constants, tuples and get-tuple-element, nor
  // about collectives and operations that depend on the process.
  std::function<StatusOr<bool>(const HloInstruction&)> accepts;
  // Whether while, conditional and call may join a part (else they are
  // never asked about and their bodies get parts of their own).
  bool control_flow = false;
  // The caller's StableHLO bytes, kept for a part that is the whole entry
  // computation; may be empty.
  std::string stablehlo_source;
};

struct OffloadedModule {
  std::unique_ptr<HloModule> module;
  // The trip count of every counted while loop (counted_loop.h) of the
  // computations the host runs, found before the parts hid their counters,
  // by "<computation>/<while instruction>".
  std::map<std::string, int64_t> trip_counts;
  // One per part, in the order made; `computation` is still -1 (the
  // partitioner's index, set by AttachOffloads).
  std::vector<OffloadedPart> parts;
};

// Gathers the accepted instructions of `module` (verified) into calls of
// parts. A module with no accepted instruction comes back unchanged.
StatusOr<OffloadedModule> OffloadAcceptedParts(
    std::unique_ptr<HloModule> module, const OffloadRules& rules);

// Moves `parts` into program->offloads and marks the kCall step of each
// (found by its callee's name) with its index.
Status AttachOffloads(std::vector<OffloadedPart> parts, Program* program);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_OFFLOAD_H_
