// The client log of `polyhal stress`: the errors and leak reports it
// counts against the run.
#ifndef POLYHAL_CLI_STRESS_LOG_WATCH_H_
#define POLYHAL_CLI_STRESS_LOG_WATCH_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "polyhal/polyhal.hpp"

namespace phal::cli::stress {

// Error and leak messages the client logs; every message at warning level
// or above is also printed to stderr.
class LogWatch {
 public:
  static void Callback(void* user_data, phal_log_level_t level,
                       const char* message) {
    static_cast<LogWatch*>(user_data)->Record(level, message);
  }

  void Record(phal_log_level_t level, const char* message);

  int64_t leaks() const {
    std::lock_guard lock(mutex_);
    return leaks_;
  }
  int64_t errors() const {
    std::lock_guard lock(mutex_);
    return errors_;
  }
  std::vector<std::string> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }

 private:
  mutable std::mutex mutex_;
  int64_t leaks_ = 0;
  int64_t errors_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_LOG_WATCH_H_
