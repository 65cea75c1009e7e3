#include "sdk/plugin_testing/status_assertions.h"

#include <string>

#include "sdk/plugin_testing/fake_host.h"

namespace phal::plugin_testing {
namespace {

std::string Describe(phal_status_code_t code, std::string_view message) {
  return std::string(StatusCodeName(code)) + ": " + std::string(message);
}

// What IsOk and HasCode conclude from a status's code and message.
::testing::AssertionResult ExpectOk(phal_status_code_t actual,
                                    std::string_view message) {
  if (actual == PHAL_OK) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "expected success, got " << Describe(actual, message);
}

::testing::AssertionResult ExpectCode(
    phal_status_code_t actual, std::string_view message,
    phal_status_code_t code,
    std::initializer_list<std::string_view> message_parts) {
  if (actual == PHAL_OK) {
    return ::testing::AssertionFailure()
           << "expected " << StatusCodeName(code) << ", got success";
  }
  bool contains_every_part = true;
  for (std::string_view part : message_parts) {
    contains_every_part &= message.find(part) != std::string_view::npos;
  }
  if (actual == code && contains_every_part) {
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "expected " << StatusCodeName(code);
  const char* separator = " with a message containing \"";
  for (std::string_view part : message_parts) {
    if (part.empty()) continue;
    failure << separator << part << "\"";
    separator = " and \"";
  }
  return failure << ", got " << Describe(actual, message);
}

}  // namespace

::testing::AssertionResult IsOk(phal_status_t* raw) {
  StatusPtr status(raw);
  return ExpectOk(StatusCode(status.get()), StatusMessage(status.get()));
}

::testing::AssertionResult HasCode(phal_status_t* raw, phal_status_code_t code,
                                   std::string_view message_part) {
  StatusPtr status(raw);
  return ExpectCode(StatusCode(status.get()), StatusMessage(status.get()), code,
                    {message_part});
}

::testing::AssertionResult IsOk(const Status& status) {
  return ExpectOk(status.code(), status.message());
}

::testing::AssertionResult HasCode(
    const Status& status, phal_status_code_t code,
    std::initializer_list<std::string_view> message_parts) {
  return ExpectCode(status.code(), status.message(), code, message_parts);
}

}  // namespace phal::plugin_testing
