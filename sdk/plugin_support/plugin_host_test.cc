// The fence RunAtAbiBoundary keeps: statuses and exceptions reach the core
// as statuses made by the host, named after the plugin.
#include "sdk/plugin_support/plugin_host.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal {
namespace {

using plugin_testing::FakeHost;
using plugin_testing::HasCode;

class PluginHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(InstallHostServices(&FakeHost(), "fenced"));
  }
  void TearDown() override { UninstallHostServices(); }
};

TEST_F(PluginHostTest, OkBecomesNull) {
  EXPECT_EQ(RunAtAbiBoundary([] { return OkStatus(); }), nullptr);
}

TEST_F(PluginHostTest, StatusKeepsCodeAndMessage) {
  EXPECT_TRUE(HasCode(RunAtAbiBoundary([] { return NotFound("no kernel"); }),
                      PHAL_NOT_FOUND, "no kernel"));
}

TEST_F(PluginHostTest, BadAllocBecomesResourceExhaustedNamingThePlugin) {
  EXPECT_TRUE(
      HasCode(RunAtAbiBoundary([]() -> Status { throw std::bad_alloc(); }),
              PHAL_RESOURCE_EXHAUSTED, "fenced plugin: out of host memory"));
}

TEST_F(PluginHostTest, OtherExceptionsBecomeInternalWithTheirText) {
  EXPECT_TRUE(HasCode(RunAtAbiBoundary([]() -> Status {
                        throw std::runtime_error("driver lost");
                      }),
                      PHAL_INTERNAL, "driver lost"));
  EXPECT_TRUE(HasCode(RunAtAbiBoundary([]() -> Status { throw 7; }),
                      PHAL_INTERNAL, "fenced plugin: unknown exception"));
}

TEST(PluginHostWithoutHostTest, RefusesAHostThatCannotCreateStatuses) {
  phal_host_services_t host = FakeHost();
  host.status_create = nullptr;
  EXPECT_FALSE(InstallHostServices(&host, "fenced"));
  EXPECT_FALSE(InstallHostServices(nullptr, "fenced"));
}

}  // namespace
}  // namespace phal
