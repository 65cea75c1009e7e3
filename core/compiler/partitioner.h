// Partitioning: turns an optimised HLO module into a Program (program.h):
// KIR kernels built from the fusion plan of every computation the host runs,
// and the steps that launch them, with while, conditional and call kept as
// host steps. Buffer assignment (buffer_assignment.h) runs afterwards.
#ifndef POLYHAL_CORE_COMPILER_PARTITIONER_H_
#define POLYHAL_CORE_COMPILER_PARTITIONER_H_

#include <cstdint>
#include <map>
#include <string>

#include "core/compiler/program.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// `module` must be verified, row-major and decomposed (compiler.h runs the
// passes that make it so). Fails with UNIMPLEMENTED naming the first
// instruction no kernel kind can compute.
// `trip_counts` names, by "<computation>/<while instruction>", counted
// loops whose counters an earlier pass moved out of sight (offload.h).
StatusOr<Program> Partition(
    const HloModule& module,
    const std::map<std::string, int64_t>& trip_counts = {});

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_PARTITIONER_H_
