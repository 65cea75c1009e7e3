#include "sdk/plugin_testing/status_assertions.h"

#include <string>

#include "sdk/base/status.h"
#include "sdk/plugin_testing/fake_host.h"

namespace phal::plugin_testing {
namespace {

std::string Describe(const phal_status_t* status) {
  return std::string(StatusCodeName(StatusCode(status))) + ": " +
         StatusMessage(status);
}

}  // namespace

::testing::AssertionResult IsOk(phal_status_t* raw) {
  StatusPtr status(raw);
  if (status == nullptr) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected success, got " << Describe(status.get());
}

::testing::AssertionResult HasCode(phal_status_t* raw, phal_status_code_t code,
                                   std::string_view message_part) {
  StatusPtr status(raw);
  if (status == nullptr) {
    return ::testing::AssertionFailure()
           << "expected " << StatusCodeName(code) << ", got success";
  }
  const std::string_view message = StatusMessage(status.get());
  if (StatusCode(status.get()) != code ||
      message.find(message_part) == std::string_view::npos) {
    return ::testing::AssertionFailure()
           << "expected " << StatusCodeName(code)
           << (message_part.empty() ? "" : " with a message containing \"")
           << message_part << (message_part.empty() ? "" : "\"") << ", got "
           << Describe(status.get());
  }
  return ::testing::AssertionSuccess();
}

}  // namespace phal::plugin_testing
