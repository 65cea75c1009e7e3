#include "cli/stress/log_watch.h"

#include <cstdio>
#include <string>

#include "cli/stress/tally.h"

namespace phal::cli::stress {

void LogWatch::Record(phal_log_level_t level, const char* message) {
  if (level > PHAL_LOG_LEVEL_WARNING) return;
  std::fprintf(stderr, "polyhal: %s: %s\n",
               level == PHAL_LOG_LEVEL_ERROR ? "error" : "warning", message);
  const std::string text = message;
  const bool leak =
      text.find("lifetime.leak") != std::string::npos ||
      text.find("not freed before phal_client_destroy") != std::string::npos;
  std::lock_guard lock(mutex_);
  if (leak) ++leaks_;
  if (level == PHAL_LOG_LEVEL_ERROR && !leak) ++errors_;
  if (leak || level == PHAL_LOG_LEVEL_ERROR) {
    if (messages_.size() < kReportedFailures) messages_.push_back(text);
  }
}

}  // namespace phal::cli::stress
