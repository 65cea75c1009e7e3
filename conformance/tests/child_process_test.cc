#include "conformance/runner/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <map>

namespace phal::conformance {
namespace {

std::map<std::size_t, ChildOutcome> RunAll(
    std::size_t count, int jobs, double timeout,
    const std::function<std::string(std::size_t)>& task) {
  std::map<std::size_t, ChildOutcome> outcomes;
  RunInChildren(
      count, jobs, timeout, task,
      [&](std::size_t i, ChildOutcome outcome) { outcomes[i] = outcome; });
  return outcomes;
}

TEST(ChildProcess, ATaskThatReturnsIsCompletedWithItsOutput) {
  auto outcomes = RunAll(
      5, 2, 10, [](std::size_t i) { return "task " + std::to_string(i); });
  ASSERT_EQ(outcomes.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(outcomes[i].kind, ChildOutcome::Kind::kCompleted);
    EXPECT_EQ(outcomes[i].output, "task " + std::to_string(i));
  }
}

TEST(ChildProcess, ASegfaultCostsOneTaskAndIsNamed) {
  auto outcomes = RunAll(3, 3, 10, [](std::size_t i) -> std::string {
    if (i == 1) raise(SIGSEGV);
    return "ok";
  });
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kCompleted);
  EXPECT_EQ(outcomes[1].kind, ChildOutcome::Kind::kCrashed);
  EXPECT_NE(outcomes[1].detail.find("signal 11"), std::string::npos)
      << outcomes[1].detail;
  EXPECT_EQ(outcomes[2].kind, ChildOutcome::Kind::kCompleted);
}

TEST(ChildProcess, AHangIsKilledAtTheTimeout) {
  auto outcomes = RunAll(2, 2, 1, [](std::size_t i) -> std::string {
    while (i == 0) pause();
    return "ok";
  });
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_GE(outcomes[0].seconds, 1.0);
  EXPECT_EQ(outcomes[1].kind, ChildOutcome::Kind::kCompleted);
}

TEST(ChildProcess, ExitingWithoutAResultIsACrash) {
  auto outcomes =
      RunAll(1, 1, 10, [](std::size_t) -> std::string { std::_Exit(3); });
  EXPECT_EQ(outcomes[0].kind, ChildOutcome::Kind::kCrashed);
  EXPECT_EQ(outcomes[0].detail,
            "exited with status 3 before reporting a result");
}

}  // namespace
}  // namespace phal::conformance
