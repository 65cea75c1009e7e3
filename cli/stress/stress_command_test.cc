// `polyhal stress` as a user meets it: its JSON report and its answers to
// options it cannot honour.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/sanitizer_build.h"
#include "core/testing/command_output.h"
#include "core/testing/temp_dir.h"

namespace phal {
namespace {

using ::testing::HasSubstr;
using testing::RunCommand;

const std::string kPolyhal = std::string(PHAL_TEST_BUILD_DIR) + "/bin/polyhal";

TEST(PolyhalStress, ReportsItsFiguresAsJson) {
  testing::CommandOutput run = RunCommand(
      kPolyhal +
      " stress --plugin cpu --filter add.f32.odd.random --filter "
      "dot.f32.odd.random --threads 2 --duration 1 --warmup 0.5 --input-sets "
      "2 --json 2>/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.text;
  nlohmann::json report = nlohmann::json::parse(run.text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << run.text;
  EXPECT_EQ(report["passed"], true);
  EXPECT_EQ(report["modules"], 2);
  EXPECT_EQ(report["input_sets"], 2);
  ASSERT_EQ(report["devices"].size(), 1u);
  EXPECT_THAT(report["devices"][0]["device"].get<std::string>(),
              HasSubstr("cpu '"));
  EXPECT_GT(report["executions"].get<int64_t>(), 0);
  EXPECT_EQ(report["mismatches"], 0);
  EXPECT_EQ(report["errors"], 0);
  EXPECT_EQ(report["leak_reports"], 0);
  EXPECT_GE(report["rss_samples_mib"].size(), 1u);
  EXPECT_GT(report["rss_mib"]["end"].get<double>(), 0);
  // The allocator's figures beside every resident sample.
  const nlohmann::json& in_use = report["heap_in_use_samples_mib"];
  const nlohmann::json& held = report["heap_held_samples_mib"];
  ASSERT_EQ(in_use.size(), report["rss_samples_mib"].size());
  ASSERT_EQ(held.size(), in_use.size());
  // What the memory check judges: resident memory less the allocator's
  // free bytes.
  const nlohmann::json& judged = report["in_use_samples_mib"];
  ASSERT_EQ(judged.size(), in_use.size());
  for (size_t i = 0; i < judged.size(); ++i) {
    EXPECT_DOUBLE_EQ(judged[i].get<double>(),
                     report["rss_samples_mib"][i].get<double>() -
                         (held[i].get<double>() - in_use[i].get<double>()))
        << i;
  }
  // A quarter of the half second after the warm-up: one sample each end.
  EXPECT_EQ(report["memory_window_s"], 1.0);
  EXPECT_EQ(report["in_use_mib"]["end"], judged.back());
  EXPECT_EQ(report["in_use_mib"]["tolerance"],
            PHAL_SANITIZER_BUILD ? 1024.0 : 32.0);
#if defined(__GLIBC__) && !PHAL_SANITIZER_BUILD && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  // glibc's allocator answers: the run holds its modules' inputs and the
  // reference's results, and never holds less than it has in use.
  for (size_t i = 0; i < in_use.size(); ++i) {
    EXPECT_GT(in_use[i].get<double>(), 0) << i;
    EXPECT_GE(held[i].get<double>(), in_use[i].get<double>()) << i;
  }
#endif
}

TEST(PolyhalStress, ModuleFilesAreCheckedAgainstTheReference) {
  testing::TempDir dir;
  dir.Write("scale.hlo",
            "HloModule scale\n"
            "ENTRY main {\n"
            "  x = f32[33,17] parameter(0)\n"
            "  y = f32[33,17] parameter(1)\n"
            "  ROOT z = f32[33,17] multiply(x, y)\n"
            "}\n");
  testing::CommandOutput run =
      RunCommand(kPolyhal + " stress --plugin cpu --modules " + dir.path() +
                 " --threads 1 --duration 1 --warmup 0.5");
  EXPECT_EQ(run.exit_code, 0) << run.text;
  EXPECT_THAT(run.text, HasSubstr("modules     1, 4 input sets each"));
  EXPECT_THAT(run.text, HasSubstr("\nPASS\n"));
}

TEST(PolyhalStress, OptionsItCannotHonourAreUsageErrors) {
  testing::CommandOutput both = RunCommand(
      kPolyhal + " stress --filter add.* --modules samples/models/mlp.hlo");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.text, HasSubstr("cannot be combined with --modules"));

  testing::CommandOutput warmup =
      RunCommand(kPolyhal + " stress --duration 5 --warmup 5");
  EXPECT_EQ(warmup.exit_code, 2);
  EXPECT_THAT(warmup.text,
              HasSubstr("--warmup must be shorter than --duration"));

  testing::CommandOutput threads = RunCommand(kPolyhal + " stress --threads 0");
  EXPECT_EQ(threads.exit_code, 2);
  EXPECT_THAT(threads.text,
              HasSubstr("--threads takes a number of at least 1"));
}

TEST(PolyhalStress, NamesWhatItCannotRun) {
  testing::CommandOutput plugin =
      RunCommand(kPolyhal + " stress --plugin no_such_plugin --duration 1");
  EXPECT_EQ(plugin.exit_code, 1);
  EXPECT_THAT(plugin.text, HasSubstr("no plugin named 'no_such_plugin'"));

  testing::CommandOutput filter = RunCommand(
      kPolyhal + " stress --plugin cpu --filter no.such.case --duration 1");
  EXPECT_EQ(filter.exit_code, 1);
  EXPECT_THAT(filter.text,
              HasSubstr("--filter selects no numeric conformance case"));

  testing::TempDir dir;
  const std::string broken = dir.Write("broken.hlo", "HloModule broken\n");
  testing::CommandOutput module = RunCommand(
      kPolyhal + " stress --plugin cpu --modules " + broken + " --duration 1");
  EXPECT_EQ(module.exit_code, 1);
  EXPECT_THAT(module.text, HasSubstr(broken));
}

}  // namespace
}  // namespace phal
