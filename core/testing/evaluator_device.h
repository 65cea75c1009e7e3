// A plugin table for tests whose one device is host memory and whose
// kernels run on the SDK's KIR interpreter (sdk/kir_interpreter), which
// computes what the reference interpreter does. It lets the compiler's
// tests exercise the executor through the same plugin calls a real device
// receives, with the interpreter as the oracle of kernel semantics.
#ifndef POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_
#define POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_

#include <cstdint>

#include "polyhal/plugin.h"

namespace phal::testing {

// The table (every slot the executor uses is filled) and its device.
const phal_plugin_api_t* EvaluatorPluginApi();
phal_plugin_device_t* EvaluatorDevice();
// Buffers and kernels currently alive on the device, to detect leaks.
int64_t LiveEvaluatorBuffers();
int64_t LiveEvaluatorKernels();
// Buffers allocated on the device so far.
int64_t EvaluatorAllocations();

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_EVALUATOR_DEVICE_H_
