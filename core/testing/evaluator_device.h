// A plugin table for tests whose one device is host memory and whose
// kernels run on the SDK's KIR interpreter (sdk/kir_interpreter), which
// computes what the reference interpreter does. It lets the compiler's
// tests exercise the executor through the same plugin calls a real device
// receives, with the interpreter as the oracle of kernel semantics.
#ifndef POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_
#define POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "polyhal/plugin.h"

namespace phal::testing {

// The table (every slot the executor uses is filled) and its device.
const phal_plugin_api_t* EvaluatorPluginApi();
phal_plugin_device_t* EvaluatorDevice();
// The same device also taking whole programs (ABI 1.13): in HLO text or
// StableHLO, which the reference interpreter runs, as SetEvaluatorPrograms
// says. Its formats are none until that is called.
struct EvaluatorPrograms {
  // PHAL_PLUGIN_PROGRAM_FORMAT_BIT bits of HLO_TEXT and STABLEHLO.
  uint32_t formats = 0;
  // HLO opcodes program_accepts_op refuses.
  std::set<std::string> declined_opcodes;
  // Whether program_compile declines every part (PHAL_UNIMPLEMENTED).
  bool decline_compile = false;
  // What program_compile was offered, in order.
  struct Offer {
    std::string name;
    uint32_t format = 0;
  };
  std::vector<Offer> offered;
};
const phal_plugin_api_t* EvaluatorProgramPluginApi();
void SetEvaluatorPrograms(EvaluatorPrograms programs);
std::vector<EvaluatorPrograms::Offer> EvaluatorProgramOffers();
// Buffers and kernels currently alive on the device, to detect leaks.
int64_t LiveEvaluatorBuffers();
int64_t LiveEvaluatorKernels();
// Buffers allocated on the device so far.
int64_t EvaluatorAllocations();

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_
