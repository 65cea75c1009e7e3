// A conformance case: one program (or one API behaviour) the suite runs on
// every device of the plugin under test. Numeric cases carry HLO text and
// how to make their inputs; the expected values come from the reference
// interpreter when the case runs.
#ifndef POLYHAL_CONFORMANCE_CASES_CASE_H_
#define POLYHAL_CONFORMANCE_CASES_CASE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/cases/input_spec.h"
#include "conformance/runner/tolerance.h"
#include "polyhal/runtime.h"

namespace phal::conformance {

enum class CaseKind {
  kNumeric,  // an HLO module compared with the reference interpreter
  kApi,      // a behaviour of the C API
  kCorpus,   // a StableHLO file whose checks hold the expected values
};

// What an API case sees: the client, the device under test and every other
// device of the same plugin.
struct ApiContext {
  phal_client_t* client = nullptr;
  // How the client was created, for cases that create clients of their own.
  phal_client_options_t client_options{};
  phal_device_t* device = nullptr;
  std::vector<phal_device_t*> plugin_devices;
  // A check that cannot run here for want of devices (the other plugin of
  // a group spanning two is absent) says why here and returns "": the case
  // is NotSupported, certifiably, as for too few devices.
  std::string* devices_unsupported = nullptr;
};

// The verdict of an API case: empty on success, else what went wrong.
using ApiCheck = std::function<std::string(const ApiContext&)>;

struct Case {
  std::string id;           // unique, e.g. "exponential.f32.odd.random"
  std::string op;           // the row of the report's matrix
  std::string dtype;        // the column: an element type name, or "-"
  int tier = 1;             // 1, 2 or 3
  std::string shape_class;  // "scalar", "odd", ... ("" for API cases)
  std::string value_class;  // "random", "edge", ...
  CaseKind kind = CaseKind::kNumeric;
  // Runs alone in its process: it measures the process (resident memory),
  // so no other case may run beside it.
  bool exclusive = false;
  // A case of several devices: how many of the plugin's devices it runs on
  // at once (the first ones). It runs once, not once per device, and is
  // NotSupported (certifiable) where the plugin offers fewer. 0: a case of
  // one device.
  int devices = 0;

  // kNumeric: the module, one input spec per parameter and the bound each
  // output is compared within.
  std::string module_text;
  std::vector<InputSpec> inputs;
  uint64_t seed = 0;
  ToleranceSpec tolerance;

  // kApi.
  ApiCheck api_check;

  // kCorpus: the StableHLO file.
  std::string corpus_path;
};

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_CASE_H_
