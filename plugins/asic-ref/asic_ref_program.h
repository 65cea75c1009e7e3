// Whole programs (ABI 1.13): asic-ref's graph mode. With
// PHAL_ASIC_REF_MODE=graph (the default) the plugin reads the core's KIR
// graphs and compiles each part into one program
// (compiler/graph_compiler.h) that keeps intermediate values on chip and
// runs the part's kernels back to back in one launch; with
// PHAL_ASIC_REF_MODE=kernels it reads no program format and the core hands
// it kernels one at a time, as before ABI 1.13.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PROGRAM_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PROGRAM_H_

#include <cstdint>

#include "asic_ref_stream.h"
#include "compiler/graph_compiler.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Whether PHAL_ASIC_REF_MODE chooses graph mode (unset or "graph"); an
// unknown value is read as the default.
bool GraphMode();

// Runs a graph program on the stream's device: `buffers` are the part's
// parameters, then its results.
Status LaunchGraph(Stream& stream, const phal_plugin_kernel& kernel,
                   phal_plugin_buffer_t* const* buffers, uint32_t buffer_count);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_PROGRAM_H_
