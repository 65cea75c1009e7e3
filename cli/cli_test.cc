// The polyhal tool as a user meets it: the built binary, run through a
// shell, on the sample models and on bad input.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/io/npy.h"
#include "core/testing/command_output.h"
#include "core/testing/temp_dir.h"

namespace phal {
namespace {

using ::testing::HasSubstr;
using testing::RunCommand;

const std::string kPolyhal = std::string(PHAL_TEST_BUILD_DIR) + "/bin/polyhal";
const std::string kModels =
    std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/";

std::string MlpInputs() {
  std::string flags;
  for (int i = 0; i < 5; ++i) {
    flags += " --input " + kModels + "mlp.input_" + std::to_string(i) + ".npy";
  }
  return flags;
}

// The largest |a - b| over two f32 arrays of the same shape.
double MaxAbsoluteDifference(const Literal& a, const Literal& b) {
  double worst = 0;
  for (int64_t i = 0; i < a.ElementCount(); ++i) {
    worst = std::max(worst, std::abs(a.GetAsDouble(i) - b.GetAsDouble(i)));
  }
  return worst;
}

TEST(PolyhalRun, RunsOnTheCpuPluginWhenNoPluginIsNamed) {
  testing::TempDir out;
  testing::CommandOutput run =
      RunCommand(kPolyhal + " run " + kModels + "mlp.hlo" + MlpInputs() +
                 " --output-dir " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.text;
  StatusOr<Literal> actual = ReadNpy(out.path() + "/output_0.npy");
  StatusOr<Literal> expected = ReadNpy(kModels + "mlp.output_0.npy");
  ASSERT_TRUE(actual.ok()) << actual.status().message();
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_EQ(actual->shape().ToString(), expected->shape().ToString());
  EXPECT_LT(MaxAbsoluteDifference(*actual, *expected), 1e-5);

  // With the cpu plugin filtered out, the default has nowhere to run.
  testing::CommandOutput filtered =
      RunCommand("PHAL_PLUGINS=none " + kPolyhal + " run " + kModels +
                 "mlp.hlo --random-inputs 1");
  EXPECT_EQ(filtered.exit_code, 1);
  EXPECT_THAT(
      filtered.text,
      HasSubstr("plugin 'cpu' has no device: not selected by PHAL_PLUGINS"));
}

TEST(PolyhalRun, NamesAMissingPluginAndFails) {
  testing::CommandOutput run = RunCommand(kPolyhal + " run " + kModels +
                                          "mlp.hlo --random-inputs 1 "
                                          "--plugin no_such_plugin");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.text, HasSubstr("no plugin named 'no_such_plugin'"));
}

TEST(PolyhalBench, ReportsCompileAndRunTimesAsJson) {
  testing::CommandOutput bench =
      RunCommand(kPolyhal + " bench " + kModels + "mlp.hlo --repeat 3 --json");
  ASSERT_EQ(bench.exit_code, 0) << bench.text;
  nlohmann::json report = nlohmann::json::parse(bench.text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << bench.text;
  EXPECT_EQ(report["plugin"], "cpu");
  EXPECT_EQ(report["repeat"], 3);
  EXPECT_EQ(report["runs_ms"].size(), 3u);
  EXPECT_GT(report["compile_ms"].get<double>(), 0.0);
  EXPECT_GT(report["first_run_ms"].get<double>(), 0.0);
  double minimum = report["min_ms"].get<double>();
  EXPECT_GT(minimum, 0.0);
  EXPECT_LE(minimum, report["median_ms"].get<double>());
  EXPECT_LE(report["median_ms"].get<double>(), report["max_ms"].get<double>());
  EXPECT_FALSE(report.contains("device_counters"))
      << "the cpu plugin keeps no counters";
}

TEST(PolyhalBench, ReportsTheSimulatedDevicesCountersPerRun) {
  testing::CommandOutput bench =
      RunCommand(kPolyhal + " bench " + kModels +
                 "mlp.hlo --plugin asic-ref --repeat 2 --json");
  ASSERT_EQ(bench.exit_code, 0) << bench.text;
  nlohmann::json report = nlohmann::json::parse(bench.text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << bench.text;
  const nlohmann::json& totals = report["device_counters"];
  ASSERT_TRUE(totals.is_object()) << bench.text;
  EXPECT_GT(totals["cycles"].get<double>(), 0.0);
  EXPECT_GT(totals["launches"].get<double>(), 0.0);
  const double matrix = totals["utilization.matrix"].get<double>();
  EXPECT_GT(matrix, 0.0) << "the MLP's dots run on the matrix unit";
  EXPECT_LE(matrix, 1.0);
  EXPECT_EQ(report["counter_units"]["cycles"], "cycles");
  EXPECT_EQ(report["counter_units"]["utilization.matrix"], "ratio");
  const nlohmann::json& kernels = report["kernel_counters"];
  ASSERT_FALSE(kernels.empty()) << bench.text;
  double kernel_cycles = 0;
  for (const auto& [name, counters] : kernels.items()) {
    kernel_cycles += counters["cycles"].get<double>();
  }
  EXPECT_DOUBLE_EQ(kernel_cycles, totals["cycles"].get<double>())
      << "every cycle belongs to a kernel";

  testing::CommandOutput text = RunCommand(
      kPolyhal + " bench " + kModels + "mlp.hlo --plugin asic-ref --repeat 1");
  ASSERT_EQ(text.exit_code, 0) << text.text;
  EXPECT_THAT(text.text, HasSubstr("device counters, per run:"));
  EXPECT_THAT(text.text, HasSubstr("utilization.matrix"));
}

TEST(PolyhalBench, TimesTheReferenceWithoutACompileStep) {
  testing::CommandOutput bench =
      RunCommand(kPolyhal + " bench " + kModels +
                 "mlp.mlir --plugin reference --repeat 2 --json" + MlpInputs());
  ASSERT_EQ(bench.exit_code, 0) << bench.text;
  nlohmann::json report = nlohmann::json::parse(bench.text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << bench.text;
  EXPECT_TRUE(report["compile_ms"].is_null());
  EXPECT_EQ(report["device"], "reference interpreter");
}

TEST(PolyhalBench, RejectsANonPositiveRepeatAsAUsageError) {
  testing::CommandOutput bench =
      RunCommand(kPolyhal + " bench " + kModels + "mlp.hlo --repeat 0");
  EXPECT_EQ(bench.exit_code, 2);
  EXPECT_THAT(bench.text, HasSubstr("--repeat takes a positive integer"));
}

TEST(PolyhalBench, NamesTheFileAndPositionOfAParseError) {
  testing::TempDir dir;
  std::string path =
      dir.Write("broken.hlo", "HloModule m\n\nENTRY e {\n  x = ");
  testing::CommandOutput bench = RunCommand(kPolyhal + " bench " + path);
  EXPECT_EQ(bench.exit_code, 1);
  EXPECT_THAT(bench.text, HasSubstr("broken.hlo:4:"));
}

TEST(PolyhalBench, RefusesAFileOfSeveralStableHloModules) {
  testing::TempDir dir;
  std::string module =
      "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
      "  func.return %a : tensor<f32>\n}\n";
  std::string path = dir.Write("two.mlir", module + "// -----\n" + module);
  testing::CommandOutput bench = RunCommand(kPolyhal + " bench " + path);
  EXPECT_EQ(bench.exit_code, 1);
  EXPECT_THAT(bench.text, HasSubstr("bench takes one"));
}

TEST(PolyhalCompile, CompiledExecutableRunsLikeTheModuleItself) {
  testing::TempDir dir;
  const std::string executable = dir.path() + "/mlp.phx";
  const std::string dump = dir.path() + "/dump";
  testing::CommandOutput compile =
      RunCommand(kPolyhal + " compile " + kModels + "mlp.hlo --plugin cpu" +
                 " --output " + executable + " --dump-dir " + dump);
  ASSERT_EQ(compile.exit_code, 0) << compile.text;
  EXPECT_THAT(compile.text, HasSubstr("compile only"));
  size_t dumped = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dump)) {
    EXPECT_EQ(entry.path().extension(), ".ll") << entry.path();
    ++dumped;
  }
  EXPECT_GT(dumped, 0u) << "one LLVM IR file per kernel";

  testing::CommandOutput run =
      RunCommand(kPolyhal + " run " + executable + MlpInputs() +
                 " --output-dir " + dir.path() + "/out");
  ASSERT_EQ(run.exit_code, 0) << run.text;
  StatusOr<Literal> actual = ReadNpy(dir.path() + "/out/output_0.npy");
  StatusOr<Literal> expected = ReadNpy(kModels + "mlp.output_0.npy");
  ASSERT_TRUE(actual.ok()) << actual.status().message();
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_EQ(actual->shape().ToString(), expected->shape().ToString());
  EXPECT_LT(MaxAbsoluteDifference(*actual, *expected), 1e-5);
}

TEST(PolyhalCompile, TemplateExecutableRunsOnTheTemplatePlugin) {
  testing::TempDir dir;
  const std::string executable = dir.path() + "/loop.phx";
  ASSERT_EQ(RunCommand(kPolyhal + " compile " + kModels +
                       "while_loop.hlo --plugin template --target host "
                       "--output " +
                       executable)
                .exit_code,
            0);
  testing::CommandOutput run =
      RunCommand(kPolyhal + " run " + executable + " --random-inputs 3");
  EXPECT_EQ(run.exit_code, 0) << run.text;
  testing::CommandOutput wrong = RunCommand(kPolyhal + " run " + executable +
                                            " --plugin cpu --random-inputs 3");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.text, HasSubstr("compiled by plugin 'template'"));
}

TEST(PolyhalCompile, UnknownTargetFailsListingTheTargets) {
  testing::TempDir dir;
  testing::CommandOutput compile = RunCommand(
      kPolyhal + " compile " + kModels +
      "mlp.hlo --plugin cpu --target sm_90 --output " + dir.path() + "/x.phx");
  EXPECT_EQ(compile.exit_code, 1);
  EXPECT_THAT(compile.text, HasSubstr("its targets: host"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/x.phx"));
}

TEST(PolyhalCompile, MissingOutputOrPluginIsAUsageError) {
  testing::CommandOutput compile =
      RunCommand(kPolyhal + " compile " + kModels + "mlp.hlo --plugin cpu");
  EXPECT_EQ(compile.exit_code, 2);
  EXPECT_THAT(compile.text, HasSubstr("missing --output FILE"));
  compile = RunCommand(kPolyhal + " compile " + kModels + "mlp.hlo --output x");
  EXPECT_EQ(compile.exit_code, 2);
  EXPECT_THAT(compile.text, HasSubstr("missing --plugin NAME"));
}

TEST(PolyhalRun, CorruptOrMissingExecutableFails) {
  testing::TempDir dir;
  const std::string executable = dir.path() + "/mlp.phx";
  ASSERT_EQ(RunCommand(kPolyhal + " compile " + kModels +
                       "mlp.hlo --plugin cpu --output " + executable)
                .exit_code,
            0);
  std::string bytes;
  {
    std::ifstream in(executable, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x10);
  const std::string corrupt = dir.Write("corrupt.phx", bytes);
  testing::CommandOutput run =
      RunCommand(kPolyhal + " run " + corrupt + " --random-inputs 1");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.text, HasSubstr("checksum"));
  const std::string truncated =
      dir.Write("truncated.phx", bytes.substr(0, bytes.size() / 3));
  run = RunCommand(kPolyhal + " run " + truncated + " --random-inputs 1");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.text, HasSubstr("truncated"));
  run = RunCommand(kPolyhal + " run " + dir.path() +
                   "/absent.phx --random-inputs 1");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.text, HasSubstr("cannot open the file"));
}

TEST(PolyhalDevices, ListsTheVirtualDevicesTheKnobAsksFor) {
  const std::string cpu_only = "PHAL_PLUGINS=cpu PHAL_VIRTUAL_DEVICES=3 ";
  testing::CommandOutput text = RunCommand(cpu_only + kPolyhal + " devices");
  ASSERT_EQ(text.exit_code, 0) << text.text;
  for (const char* device : {"[0] cpu:0 ", "[1] cpu:1 ", "[2] cpu:2 "}) {
    EXPECT_THAT(text.text, HasSubstr(device));
  }
  EXPECT_THAT(text.text, ::testing::Not(HasSubstr("cpu:3")));

  // The JSON alone on stdout: logs to stderr are left out.
  testing::CommandOutput json =
      RunCommand("{ " + cpu_only + kPolyhal + " devices --json 2>/dev/null; }");
  ASSERT_EQ(json.exit_code, 0) << json.text;
  const nlohmann::json listed = nlohmann::json::parse(json.text);
  ASSERT_EQ(listed["devices"].size(), 3u) << json.text;
  std::set<std::string> names;
  std::set<std::string> uuids;
  for (size_t i = 0; i < 3; ++i) {
    const nlohmann::json& device = listed["devices"][i];
    EXPECT_EQ(device["plugin"], "cpu");
    EXPECT_EQ(device["ordinal"], i);
    names.insert(device["name"].get<std::string>());
    uuids.insert(device["uuid"].get<std::string>());
  }
  EXPECT_EQ(names.size(), 3u) << "each device has its own name";
  EXPECT_EQ(uuids.size(), 3u) << "each device has its own UUID";
}

TEST(PolyhalDevices, ABadKnobLeavesThePluginWithoutDevicesAndSaysWhy) {
  const std::string bad = "PHAL_PLUGINS=cpu PHAL_VIRTUAL_DEVICES=0 ";
  testing::CommandOutput devices = RunCommand(bad + kPolyhal + " devices");
  EXPECT_EQ(devices.exit_code, 0) << devices.text;
  EXPECT_THAT(devices.text, HasSubstr("no devices"));
  testing::CommandOutput plugins = RunCommand(bad + kPolyhal + " plugins");
  EXPECT_EQ(plugins.exit_code, 0) << plugins.text;
  EXPECT_THAT(plugins.text, HasSubstr("PHAL_VIRTUAL_DEVICES=\"0\" is not a "
                                      "device count"));
}

// A program for two partitions (cli/testdata/two_partitions.hlo) with a
// global f32[4,3] input 0..11 split by rows: the summed squares, the
// gathered input and the squares assembled by rows.
void ExpectTwoPartitionOutputs(const std::string& dir) {
  StatusOr<Literal> sum = ReadNpy(dir + "/output_0.npy");
  StatusOr<Literal> gathered = ReadNpy(dir + "/output_1.npy");
  StatusOr<Literal> squares = ReadNpy(dir + "/output_2.npy");
  ASSERT_TRUE(sum.ok() && gathered.ok() && squares.ok()) << dir;
  ASSERT_EQ(sum->shape().ToString(), "f32[2,3]");
  ASSERT_EQ(gathered->shape().ToString(), "f32[4,3]");
  ASSERT_EQ(squares->shape().ToString(), "f32[4,3]");
  for (int64_t i = 0; i < 12; ++i) {
    EXPECT_EQ(gathered->GetAsDouble(i), static_cast<double>(i));
    EXPECT_EQ(squares->GetAsDouble(i), static_cast<double>(i * i));
  }
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(sum->GetAsDouble(i),
              static_cast<double>(i * i + (i + 6) * (i + 6)));
  }
}

TEST(PolyhalRun, RunsAProgramForTwoDevicesOnGlobalArrays) {
  testing::TempDir dir;
  Literal input(Shape(PHAL_ELEMENT_TYPE_F32, {4, 3}));
  for (int64_t i = 0; i < 12; ++i) input.SetFromDouble(i, i);
  ASSERT_TRUE(WriteNpy(dir.path() + "/x.npy", input).ok());
  const std::string module =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/two_partitions.hlo";
  const std::string run = kPolyhal + " run " + module + " --input " +
                          dir.path() + "/x.npy --devices 2 ";
  testing::CommandOutput reference =
      RunCommand(run + "--plugin reference --output-dir " + dir.path() + "/r");
  ASSERT_EQ(reference.exit_code, 0) << reference.text;
  ExpectTwoPartitionOutputs(dir.path() + "/r");
  for (const char* plugin : {"cpu", "template"}) {
    const std::string out = dir.path() + "/" + plugin;
    testing::CommandOutput device =
        RunCommand("PHAL_VIRTUAL_DEVICES=2 " + run + "--plugin " + plugin +
                   " --per-device --output-dir " + out);
    ASSERT_EQ(device.exit_code, 0) << plugin << ": " << device.text;
    ExpectTwoPartitionOutputs(out);
    // Each device's own values: its rows' squares.
    StatusOr<Literal> second = ReadNpy(out + "/output_2.device_1.npy");
    ASSERT_TRUE(second.ok()) << second.status().message();
    EXPECT_EQ(second->GetAsDouble(0), 36.0);
  }
}

TEST(PolyhalRun, ADeviceCountThatDoesNotFitIsRefusedByName) {
  const std::string module =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/two_partitions.hlo";
  testing::CommandOutput wrong = RunCommand(kPolyhal + " run " + module +
                                            " --random-inputs 1 --devices 3");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_THAT(wrong.text, HasSubstr("the program runs on 1 replicas x 2 "
                                    "partitions = 2 devices, not --devices 3"));
  testing::CommandOutput few =
      RunCommand("PHAL_VIRTUAL_DEVICES=1 " + kPolyhal + " run " + module +
                 " --random-inputs 1 --devices 2");
  EXPECT_EQ(few.exit_code, 1);
  EXPECT_THAT(few.text, HasSubstr("plugin 'cpu' has 1 device, --devices asks "
                                  "for 2"));
  EXPECT_THAT(few.text, HasSubstr("PHAL_VIRTUAL_DEVICES=2"));
  testing::CommandOutput zero = RunCommand(kPolyhal + " run " + module +
                                           " --random-inputs 1 --devices 0");
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_THAT(zero.text, HasSubstr("--devices takes a positive number"));
}

TEST(PolyhalBench, TimesAProgramForTwoDevicesAllAtOnce) {
  const std::string module =
      std::string(PHAL_TEST_SOURCE_DIR) + "/cli/testdata/two_partitions.hlo";
  testing::CommandOutput bench =
      RunCommand("PHAL_VIRTUAL_DEVICES=2 " + kPolyhal + " bench " + module +
                 " --devices 2 --repeat 3 --json 2>&1");
  ASSERT_EQ(bench.exit_code, 0) << bench.text;
  nlohmann::json report = nlohmann::json::parse(bench.text, nullptr, false);
  ASSERT_FALSE(report.is_discarded()) << bench.text;
  EXPECT_EQ(report["devices"], 2);
  EXPECT_EQ(report["runs_ms"].size(), 3u);
  EXPECT_THAT(report["device"].get<std::string>(), HasSubstr("2 devices"));
  testing::CommandOutput reference = RunCommand(
      kPolyhal + " bench " + module + " --devices 2 --plugin reference");
  EXPECT_EQ(reference.exit_code, 1);
  EXPECT_THAT(reference.text, HasSubstr("run --devices N --plugin reference"));
}

}  // namespace
}  // namespace phal
