// gtest assertions on the statuses a plugin returns to the fake host
// (fake_host.h). Each takes ownership of the status and frees it:
//   EXPECT_TRUE(IsOk(api.stream_synchronize(stream)));
//   EXPECT_TRUE(HasCode(api.device_open(9, &device), PHAL_INVALID_ARGUMENT));
#ifndef POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_
#define POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_

#include <string_view>

#include <gtest/gtest.h>

#include "polyhal/types.h"

namespace phal::plugin_testing {

// Succeeds when `status` is NULL; otherwise names its code and message.
::testing::AssertionResult IsOk(phal_status_t* status);
// Succeeds when `status` carries `code` and, when `message_part` is not
// empty, a message containing it.
::testing::AssertionResult HasCode(phal_status_t* status,
                                   phal_status_code_t code,
                                   std::string_view message_part = {});

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_STATUS_ASSERTIONS_H_
