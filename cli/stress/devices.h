// The devices `polyhal stress` runs on.
#ifndef POLYHAL_CLI_STRESS_DEVICES_H_
#define POLYHAL_CLI_STRESS_DEVICES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/stress/options.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/status.h"

namespace phal::cli::stress {

// A device of the run and how the report names it.
struct StressDevice {
  Device device;
  std::string label;  // "cpu 'Host CPU'"
  uint64_t element_types = 0;
};

// The devices of the plugins `--plugin` names, or of every plugin; an
// error says why a named plugin has none.
StatusOr<std::vector<StressDevice>> ChooseDevices(const Client& client,
                                                  const StressOptions& options);

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_DEVICES_H_
