// What the core hands a plugin's program_compile (plugin.h, ABI 1.13) for
// one offloaded part of a program: the part in a format the plugin reads,
// with the storage its phal_program_desc_t points into.
#ifndef POLYHAL_CORE_EXECUTOR_PROGRAM_OFFER_H_
#define POLYHAL_CORE_EXECUTOR_PROGRAM_OFFER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiler/compiler.h"
#include "core/compiler/program.h"
#include "polyhal/plugin.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal {

struct ProgramOffer {
  // Points into the members below; valid while the offer lives and is not
  // moved.
  phal_program_desc_t desc{};
  phal_kir_graph_t graph{};
  std::vector<phal_kir_buffer_t> buffers;
  std::vector<std::vector<int64_t>> dims;
  std::vector<phal_program_value_t> values;
  std::vector<phal_program_step_t> steps;
  std::vector<std::vector<uint32_t>> step_values;
  std::vector<uint32_t> results;
  // Per parameter: whether the part writes it, so the executor passes a
  // buffer of its own.
  std::vector<bool> writes_parameter;
};

// Sets options->offload to what `device` of the plugin `api` takes whole:
// nothing when it reads no program format (or its ABI predates 1.13). A
// plugin reading a text format may take host control flow too; one reading
// STABLEHLO gets the caller's `text` for a whole program compiled from
// StableHLO (`format`). `device_identity` names the device for the program
// cache's key (with the plugin's release and formats).
Status SetOffloadRules(const phal_plugin_api_t* api,
                       phal_plugin_device_t* device,
                       const std::string& device_identity,
                       phal_program_format_t format, std::string_view text,
                       CompilerOptions* options);

// The offer of `program`'s part `part` to a plugin that reads `formats`
// (PHAL_PLUGIN_PROGRAM_FORMAT_BIT bits), in the first format of STABLEHLO
// (the whole program, where the caller gave StableHLO), HLO_TEXT and
// KIR_GRAPH (a part whose plan is kernels only) that both sides have;
// false when there is none. The program must outlive the offer.
bool MakeProgramOffer(const Program& program, const OffloadedPart& part,
                      uint32_t formats, ProgramOffer* offer);

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_PROGRAM_OFFER_H_
