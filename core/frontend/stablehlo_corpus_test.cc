// Runs the StableHLO interpreter's test corpus (/work/shared/corpus/
// stablehlo-interpret, PHAL_TEST_CORPUS_DIR) and the JAX-generated test
// data (stablehlo-testdata) through the StableHLO front end and the
// reference interpreter: every function of every file, checks evaluated.
// docs/stablehlo.md lists what does not pass and why.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/check_evaluator.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/reference/interpreter.h"
#include "core/testing/source_files.h"
#include "core/testing/stablehlo_corpus.h"

namespace phal {
namespace {

struct FunctionOutcome {
  std::string file;
  std::string function;
  bool passed = false;
  std::string reason;
};

// Runs a function without parameters and evaluates its checks; empty when
// every check passed.
std::string RunTestFunction(StableHloModule& program,
                            const StableHloFunction& function) {
  program.module->set_entry_computation(function.computation);
  StatusOr<Literal> result = Evaluate(*program.module, {});
  if (!result.ok())
    return "evaluation failed: " +
           testing::FirstLine(result.status().message());
  const std::vector<Literal> outputs =
      SplitFunctionOutputs(function, std::move(result).value());
  for (const CheckResult& check : EvaluateChecks(function, outputs)) {
    // A check that could not run leaves the function unverified.
    if (check.skipped) return "check skipped: " + DescribeCheckResult(check);
    if (!check.passed) return "check failed: " + DescribeCheckResult(check);
  }
  return "";
}

void RunPart(const std::string& file, const SourceText& source,
             const StableHloPart& part,
             std::vector<FunctionOutcome>* outcomes) {
  StatusOr<StableHloModule> program = ParseStableHloPart(source, part);
  if (!program.ok()) {
    const std::string message = program.status().message();
    const std::size_t error = message.find("error: ");
    const std::string reason = testing::FirstLine(
        error == std::string::npos ? message : message.substr(error + 7));
    for (const std::string& name : testing::DeclaredFunctions(
             source.text().substr(part.begin, part.end - part.begin))) {
      outcomes->push_back({file, name, false, reason});
    }
    return;
  }
  for (auto& [name, reason] : testing::FunctionOutcomes(
           *program,
           [&](const StableHloFunction& function) {
             return RunTestFunction(*program, function);
           },
           std::string(
               "takes arguments that the test file supplies only on its RUN "
               "line"))) {
    outcomes->push_back({file, name, reason.empty(), reason});
  }
}

// Each file is one JAX function lowered with its inputs and expected
// outputs as constants: it passes when its main function's checks all do.
TEST(StableHloCorpusTest, RunsEveryFileOfTheJaxTestData) {
  const std::vector<std::filesystem::path> files =
      testing::CorpusFiles("stablehlo-testdata");
  if (files.empty())
    GTEST_SKIP() << testing::CorpusAbsence("stablehlo-testdata");
  std::size_t passed = 0;
  for (const std::filesystem::path& path : files) {
    const std::string text = testing::ReadTextFile(path);
    const SourceText source(text, path.filename().string());
    std::vector<FunctionOutcome> outcomes;
    for (const StableHloPart& part : SplitStableHloParts(text)) {
      RunPart(path.filename().string(), source, part, &outcomes);
    }
    const auto failed =
        std::find_if(outcomes.begin(), outcomes.end(),
                     [](const FunctionOutcome& o) { return !o.passed; });
    if (!outcomes.empty() && failed == outcomes.end()) {
      ++passed;
      continue;
    }
    std::cout << "  FAIL " << path.filename().string() << ": "
              << (failed == outcomes.end() ? "no function" : failed->reason)
              << "\n";
  }
  std::cout << "StableHLO test data: " << files.size() << " files, " << passed
            << " passed, " << files.size() - passed << " failed\n";
  // docs/stablehlo.md gives the count and the reasons of the failures.
  EXPECT_GE(static_cast<double>(passed),
            0.99 * static_cast<double>(files.size()))
      << "fewer than 99% of the test data files pass";
}

TEST(StableHloCorpusTest, RunsEveryFunctionOfTheInterpreterCorpus) {
  const std::vector<std::filesystem::path> files =
      testing::CorpusFiles("stablehlo-interpret");
  if (files.empty())
    GTEST_SKIP() << testing::CorpusAbsence("stablehlo-interpret");
  std::vector<FunctionOutcome> outcomes;
  testing::ForEachPart(files,
                       [&](const std::string& file, const SourceText& source,
                           const StableHloPart& part) {
                         RunPart(file, source, part, &outcomes);
                       });
  const auto passed =
      std::count_if(outcomes.begin(), outcomes.end(),
                    [](const FunctionOutcome& o) { return o.passed; });
  std::cout << "StableHLO corpus: " << files.size() << " files, "
            << outcomes.size() << " functions, " << passed << " passed, "
            << outcomes.size() - passed << " failed\n";
  for (const FunctionOutcome& outcome : outcomes) {
    if (!outcome.passed) {
      std::cout << "  FAIL " << outcome.file << " @" << outcome.function << ": "
                << outcome.reason << "\n";
    }
  }
  ASSERT_GT(outcomes.size(), 0u);
  // docs/stablehlo.md lists every function that does not pass and why.
  EXPECT_GE(static_cast<double>(passed),
            0.95 * static_cast<double>(outcomes.size()))
      << "fewer than 95% of the corpus functions pass";
}

}  // namespace
}  // namespace phal
