// gtest assertions on statuses: those a plugin returns to the fake host
// (fake_host.h), each taken over and freed, and sdk/base's Status values:
//   EXPECT_TRUE(IsOk(api.stream_synchronize(stream)));
//   EXPECT_TRUE(HasCode(api.device_open(9, &device), PHAL_INVALID_ARGUMENT));
//   EXPECT_TRUE(HasCode(kernel.status(), PHAL_INVALID_ARGUMENT,
//                       {"kernel broken", "node %3"}));
#ifndef POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_
#define POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_

#include <initializer_list>
#include <string_view>

#include <gtest/gtest.h>

#include "polyhal/types.h"
#include "sdk/base/status.h"

namespace phal::plugin_testing {

// Succeeds when `status` is NULL; otherwise names its code and message.
::testing::AssertionResult IsOk(phal_status_t* status);
// Succeeds when `status` carries `code` and, when `message_part` is not
// empty, a message containing it.
::testing::AssertionResult HasCode(phal_status_t* status,
                                   phal_status_code_t code,
                                   std::string_view message_part = {});

// Succeeds when `status` is OK; otherwise names its code and message.
::testing::AssertionResult IsOk(const Status& status);
// Succeeds when `status` carries `code` and a message containing every one
// of `message_parts`.
::testing::AssertionResult HasCode(
    const Status& status, phal_status_code_t code,
    std::initializer_list<std::string_view> message_parts = {});

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_
