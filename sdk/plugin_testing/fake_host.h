// The host services a plugin's unit tests hand it in place of the core's:
// status objects the tests can read and free, a log that records every
// line, and aligned host memory. Thread-safe, like the core's.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_FAKE_HOST_H_
#define POLYHAL_SDK_PLUGIN_TESTING_FAKE_HOST_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "polyhal/plugin.h"

namespace phal::plugin_testing {

// The table, with every slot filled; static storage.
const phal_host_services_t& FakeHost();

// The code and message of a status made by FakeHost().status_create;
// PHAL_OK and "" for NULL. The message lives as long as the status.
phal_status_code_t StatusCode(const phal_status_t* status);
const char* StatusMessage(const phal_status_t* status);
// Frees a status made by FakeHost().status_create; NULL is accepted.
void FreeStatus(phal_status_t* status);

struct StatusDeleter {
  void operator()(phal_status_t* status) const { FreeStatus(status); }
};
using StatusPtr = std::unique_ptr<phal_status_t, StatusDeleter>;

// Every line logged through FakeHost().log since the last clear, oldest
// first, whatever its level. Lines are also printed as the core prints
// them, at the level PHAL_LOG sets (warning by default).
std::vector<std::string> RecordedLogLines();
void ClearRecordedLogLines();
// Whether a recorded line contains `text`.
bool LogsContain(std::string_view text);

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_FAKE_HOST_H_
