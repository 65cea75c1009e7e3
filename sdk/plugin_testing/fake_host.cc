#include "sdk/plugin_testing/fake_host.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#include "sdk/base/log.h"

// The core defines the status object in libpolyhal; a plugin only holds
// pointers to it, so the tests, which link no core, define their own.
struct phal_status {
  phal_status_code_t code;
  std::string message;
};

namespace phal::plugin_testing {
namespace {

std::mutex g_log_mutex;
std::vector<std::string> g_log_lines;

phal_status_t* CreateStatus(phal_status_code_t code, const char* message) {
  return new phal_status{code, message != nullptr ? message : ""};
}

void Log(phal_log_level_t level, const char* message) {
  static const Logger logger;
  const std::string text = message != nullptr ? message : "";
  logger.Log(level, text);
  std::lock_guard lock(g_log_mutex);
  g_log_lines.push_back(text);
}

void* Allocate(size_t byte_size, size_t alignment) {
  void* pointer = nullptr;
  return posix_memalign(&pointer, std::max(alignment, sizeof(void*)),
                        byte_size) == 0
             ? pointer
             : nullptr;
}

void Free(void* pointer) { std::free(pointer); }

const phal_host_services_t kFakeHost = {
    .struct_size = sizeof(phal_host_services_t),
    .next = nullptr,
    .status_create = CreateStatus,
    .log = Log,
    .host_allocate = Allocate,
    .host_free = Free,
    .status_free = FreeStatus,
};

}  // namespace

const phal_host_services_t& FakeHost() { return kFakeHost; }

phal_status_code_t StatusCode(const phal_status_t* status) {
  return status != nullptr ? status->code : PHAL_OK;
}

const char* StatusMessage(const phal_status_t* status) {
  return status != nullptr ? status->message.c_str() : "";
}

void FreeStatus(phal_status_t* status) { delete status; }

std::vector<std::string> RecordedLogLines() {
  std::lock_guard lock(g_log_mutex);
  return g_log_lines;
}

void ClearRecordedLogLines() {
  std::lock_guard lock(g_log_mutex);
  g_log_lines.clear();
}

bool LogsContain(std::string_view text) {
  std::lock_guard lock(g_log_mutex);
  return std::any_of(g_log_lines.begin(), g_log_lines.end(),
                     [&](const std::string& line) {
                       return line.find(text) != std::string::npos;
                     });
}

}  // namespace phal::plugin_testing
