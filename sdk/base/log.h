// The core's log: messages with a level, sent to a sink (stderr or an
// application callback) when the level is enabled. PHAL_LOG=error|warning|
// info|debug sets the level; the default is warning.
#ifndef POLYHAL_SDK_BASE_LOG_H_
#define POLYHAL_SDK_BASE_LOG_H_

#include <string>

#include "polyhal/runtime.h"

namespace phal {

class Logger {
 public:
  // Level from PHAL_LOG; sink `callback` (stderr when NULL).
  Logger(phal_log_callback_fn callback, void* user_data);
  Logger() : Logger(nullptr, nullptr) {}

  bool Enabled(phal_log_level_t level) const { return level <= level_; }
  void Log(phal_log_level_t level, const std::string& message) const;
  void Debug(const std::string& message) const {
    Log(PHAL_LOG_LEVEL_DEBUG, message);
  }
  void Warning(const std::string& message) const {
    Log(PHAL_LOG_LEVEL_WARNING, message);
  }

 private:
  phal_log_level_t level_;
  phal_log_callback_fn callback_;
  void* user_data_;
};

// Parses "error", "warning", "info", "debug" (case-insensitive); returns
// false for anything else.
bool ParseLogLevel(const std::string& text, phal_log_level_t* out);

// Reads an environment variable; "" when unset.
std::string GetEnv(const char* name);

}  // namespace phal

#endif  // POLYHAL_SDK_BASE_LOG_H_
