// PHAL_EXECUTE_TIMEOUT: an execution whose device work never finishes
// fails with DEADLINE_EXCEEDED naming the cause, and the process goes on
// (the executable frees, the client closes, later work runs).
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/loader/testing/manifests.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class ExecuteTimeoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("PHAL_EXECUTE_TIMEOUT", "0.5", 1);
    std::string manifest =
        dir_.Write("rule-breaking.json", testing::RuleBreakingManifest());
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = manifest.c_str();
    ASSERT_EQ(phal_client_create(&options, &client_), nullptr);
    ASSERT_EQ(phal_client_get_device(client_, 0, &device_), nullptr);
  }

  void TearDown() override {
    unsetenv("PHAL_TEST_BROKEN_RULE");
    unsetenv("PHAL_EXECUTE_TIMEOUT");
    unsetenv("PHAL_VALIDATION");
    phal_client_destroy(client_);
  }

  // Compiles and runs the doubling of 16 ones; the status of the run.
  phal_status_t* RunDoubling() {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
    phal_executable_t* executable = nullptr;
    EXPECT_EQ(phal_executable_compile(device_, testing::kDoublingModule,
                                      sizeof(testing::kDoublingModule) - 1,
                                      &options, &executable),
              nullptr);
    const std::vector<int64_t> dims = {16};
    const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
    phal_buffer_t* x = nullptr;
    EXPECT_EQ(phal_buffer_allocate(device_, &desc, &x), nullptr);
    std::vector<float> ones(16, 1.0f);
    EXPECT_EQ(phal_buffer_copy_from_host(x, 0, ones.data(), 64), nullptr);
    phal_buffer_t* y = nullptr;
    phal_status_t* status = phal_executable_execute(executable, &x, 1, &y, 1);
    phal_buffer_free(y);
    phal_buffer_free(x);
    phal_executable_free(executable);
    return status;
  }

  // Runs the doubling on a launch that never finishes: the run fails with
  // the deadline, in a bounded wait.
  void ExpectHungRunHitsTheDeadline() {
    setenv("PHAL_TEST_BROKEN_RULE", "hung-launch", 1);
    const auto start = std::chrono::steady_clock::now();
    phal_status_t* status = RunDoubling();
    const std::chrono::duration<double> waited =
        std::chrono::steady_clock::now() - start;
    EXPECT_EQ(phal_status_get_code(status), PHAL_DEADLINE_EXCEEDED);
    EXPECT_THAT(phal_status_get_message(status),
                AllOf(HasSubstr("has not finished the work of this execution "
                                "after 0.5 s (PHAL_EXECUTE_TIMEOUT)"),
                      HasSubstr("the last kernel launched was '")));
    phal_status_free(status);
    EXPECT_LT(waited.count(), 30.0) << "the wait is bounded by the timeout";
  }

  testing::TempDir dir_;
  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

// The same client with the validation layer on, whose guard-band read after
// each launch waits for the launch too.
class ValidatedExecuteTimeoutTest : public ExecuteTimeoutTest {
 protected:
  ValidatedExecuteTimeoutTest() { setenv("PHAL_VALIDATION", "1", 1); }
};

TEST_F(ValidatedExecuteTimeoutTest, TheDeadlineHoldsWithTheLayerOn) {
  ExpectHungRunHitsTheDeadline();
}

TEST_F(ExecuteTimeoutTest, WorkThatNeverFinishesFailsWithTheDeadline) {
  ExpectHungRunHitsTheDeadline();

  unsetenv("PHAL_TEST_BROKEN_RULE");
  phal_status_t* status = RunDoubling();
  EXPECT_EQ(status, nullptr)
      << phal_status_get_message(status) << ": the device runs later work";
  phal_status_free(status);
}

TEST_F(ExecuteTimeoutTest, WorkThatFinishesInTimeIsNotCutShort) {
  for (int i = 0; i < 3; ++i) {
    phal_status_t* status = RunDoubling();
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
    phal_status_free(status);
  }
}

}  // namespace
}  // namespace phal
