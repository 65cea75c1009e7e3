// An environment variable set for a test's lifetime, restored (or unset)
// when the object goes away.
#ifndef POLYHAL_CORE_TESTING_SCOPED_ENV_H_
#define POLYHAL_CORE_TESTING_SCOPED_ENV_H_

#include <cstdlib>
#include <string>

namespace phal::testing {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_SCOPED_ENV_H_
