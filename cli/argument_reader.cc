#include <cstdio>

#include "cli/command.h"

namespace phal::cli {

bool ArgumentReader::Flag(const std::string& name) {
  bool found = false;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (!used_[i] && arguments_[i] == name) {
      used_[i] = true;
      found = true;
    }
  }
  return found;
}

std::vector<std::string> ArgumentReader::Values(const std::string& name) {
  std::vector<std::string> values;
  std::string prefix = name + "=";
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (used_[i]) continue;
    if (arguments_[i].rfind(prefix, 0) == 0) {
      used_[i] = true;
      values.push_back(arguments_[i].substr(prefix.size()));
    } else if (arguments_[i] == name && i + 1 < arguments_.size()) {
      used_[i] = used_[i + 1] = true;
      values.push_back(arguments_[i + 1]);
      ++i;
    }
  }
  return values;
}

std::string ArgumentReader::Value(const std::string& name) {
  std::vector<std::string> values = Values(name);
  return values.empty() ? std::string() : values.back();
}

std::vector<std::string> ArgumentReader::Positionals() {
  std::vector<std::string> positionals;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (used_[i] || arguments_[i].rfind("--", 0) == 0) continue;
    used_[i] = true;
    positionals.push_back(arguments_[i]);
  }
  return positionals;
}

bool ArgumentReader::Done() {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (used_[i]) continue;
    const std::string& argument = arguments_[i];
    bool is_option = argument.rfind("-", 0) == 0;
    UsageError(is_option ? "unknown option '" + argument + "'"
                         : "unexpected argument '" + argument + "'");
    return false;
  }
  return true;
}

int ArgumentReader::ModuleFile(std::string* path) {
  std::vector<std::string> positionals = Positionals();
  if (!Done()) return kExitUsage;
  if (positionals.size() != 1) {
    return UsageError(positionals.empty()
                          ? "missing the module file"
                          : "expected one module file, got " +
                                std::to_string(positionals.size()));
  }
  *path = positionals[0];
  return kExitSuccess;
}

int ArgumentReader::UsageError(const std::string& message) const {
  std::fprintf(stderr, "polyhal %s: %s\nRun 'polyhal help %s' for its usage.\n",
               command_.c_str(), message.c_str(), command_.c_str());
  return kExitUsage;
}

}  // namespace phal::cli
