#include "sdk/base/log.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace phal {
namespace {

const char* LevelName(phal_log_level_t level) {
  switch (level) {
    case PHAL_LOG_LEVEL_ERROR:
      return "error";
    case PHAL_LOG_LEVEL_WARNING:
      return "warning";
    case PHAL_LOG_LEVEL_INFO:
      return "info";
    case PHAL_LOG_LEVEL_DEBUG:
      return "debug";
  }
  return "log";
}

phal_log_level_t LevelFromEnvironment() {
  phal_log_level_t level = PHAL_LOG_LEVEL_WARNING;
  std::string text = GetEnv("PHAL_LOG");
  if (!text.empty() && !ParseLogLevel(text, &level)) {
    std::fprintf(stderr,
                 "polyhal: warning: PHAL_LOG='%s' is not one of error, "
                 "warning, info, debug; using warning\n",
                 text.c_str());
  }
  return level;
}

}  // namespace

std::string GetEnv(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

bool ParseLogLevel(const std::string& text, phal_log_level_t* out) {
  std::string lower = text;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  static constexpr struct {
    const char* name;
    phal_log_level_t level;
  } kLevels[] = {{"error", PHAL_LOG_LEVEL_ERROR},
                 {"warning", PHAL_LOG_LEVEL_WARNING},
                 {"warn", PHAL_LOG_LEVEL_WARNING},
                 {"info", PHAL_LOG_LEVEL_INFO},
                 {"debug", PHAL_LOG_LEVEL_DEBUG}};
  for (const auto& entry : kLevels) {
    if (lower == entry.name) {
      *out = entry.level;
      return true;
    }
  }
  return false;
}

Logger::Logger(phal_log_callback_fn callback, void* user_data)
    : level_(LevelFromEnvironment()),
      callback_(callback),
      user_data_(user_data) {}

void Logger::Log(phal_log_level_t level, const std::string& message) const {
  if (!Enabled(level)) return;
  if (callback_ != nullptr) {
    callback_(user_data_, level, message.c_str());
    return;
  }
  std::fprintf(stderr, "polyhal: %s: %s\n", LevelName(level), message.c_str());
}

}  // namespace phal
