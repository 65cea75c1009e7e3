// The StableHLO interpreter's corpus (PHAL_TEST_CORPUS_DIR/
// stablehlo-interpret) compiled by the core without constant folding and
// run on the real cpu plugin:
// every test function that passes its checks on the reference interpreter
// must pass them on cpu too. Skipped when the corpus or the cpu plugin is
// absent. The functions the reference itself fails are in docs/stablehlo.md.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/compiler.h"
#include "core/executor/executor.h"
#include "core/frontend/check_evaluator.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/runtime/device.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/source_files.h"
#include "core/testing/stablehlo_corpus.h"
#include "polyhal/runtime.h"

namespace phal {
namespace {

// A literal of `shape` whose leaves, depth-first, are taken from `leaves`.
Literal Assemble(const Shape& shape, std::vector<Literal>& leaves,
                 std::size_t* next) {
  if (!shape.IsTuple()) return std::move(leaves[(*next)++]);
  std::vector<Literal> elements;
  for (const Shape& element : shape.tuple_shapes()) {
    elements.push_back(Assemble(element, leaves, next));
  }
  return Literal::Tuple(std::move(elements));
}

// Empty when every check of `function` passed on `outputs`.
std::string CheckOutputs(const StableHloFunction& function, Literal result) {
  const std::vector<Literal> outputs =
      SplitFunctionOutputs(function, std::move(result));
  for (const CheckResult& check : EvaluateChecks(function, outputs)) {
    if (check.skipped) return "check skipped: " + DescribeCheckResult(check);
    if (!check.passed) return "check failed: " + DescribeCheckResult(check);
  }
  return "";
}

class CpuDevice {
 public:
  CpuDevice() : plugin_("cpu"), device_(plugin_.device()) {}

  bool present() const { return device_ != nullptr; }
  const std::string& absence() const { return plugin_.absence(); }

  // Compiles `module`, whose entry computation is `entry`, runs it on the
  // cpu device and returns the entry's result.
  StatusOr<Literal> Run(std::unique_ptr<HloModule> module,
                        const HloComputation& entry) {
    const Shape result_shape = entry.ResultShape();
    // Corpus inputs are constants: constant folding would compute the
    // programs with the reference interpreter at compile time, and the
    // plugin's kernels would never run.
    CompilerOptions compiler_options;
    compiler_options.max_folded_elements = 0;
    // As phal_executable_compile does: the cpu device runs FFT and LINALG
    // kernels.
    compiler_options.fft_kernels =
        RunsFftKernels(device_->properties, device_->api->abi_version);
    compiler_options.linalg_kernels =
        RunsLinalgKernels(device_->properties, device_->api->abi_version);
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<Program> program,
                          CompileModule(std::move(module), compiler_options));
    PHAL_RETURN_IF_ERROR(CheckDeviceCapabilities(*program, device_->properties,
                                                 device_->api->abi_version,
                                                 device_->properties.name));
    phal_kernel_options_t options{};
    options.struct_size = sizeof(options);
    options.optimization_level = 3;
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<LoadedProgram> loaded,
                          LoadedProgram::Load(std::move(program), device_->api,
                                              device_->handle, &options,
                                              /*runnable=*/true));
    PHAL_ASSIGN_OR_RETURN(std::vector<phal_plugin_buffer_t*> buffers,
                          loaded->Execute({}));
    std::vector<Literal> leaves;
    Status copied = Download(loaded->program().result_shapes, buffers, &leaves);
    for (phal_plugin_buffer_t* buffer : buffers)
      device_->api->buffer_free(buffer);
    PHAL_RETURN_IF_ERROR(copied);
    std::size_t next = 0;
    return Assemble(result_shape, leaves, &next);
  }

 private:
  Status Download(const std::vector<Shape>& shapes,
                  const std::vector<phal_plugin_buffer_t*>& buffers,
                  std::vector<Literal>* leaves) {
    phal_plugin_stream_t* stream = nullptr;
    PHAL_RETURN_IF_ERROR(device_->AcquireSyncStream(&stream));
    Status status = OkStatus();
    for (std::size_t i = 0; i < buffers.size() && status.ok(); ++i) {
      leaves->emplace_back(shapes[i]);
      Literal& leaf = leaves->back();
      if (leaf.byte_size() == 0) continue;
      status = device_->Check(device_->api->stream_copy_to_host(
          stream, buffers[i], 0, leaf.data(), leaf.byte_size()));
    }
    if (status.ok()) {
      status = device_->Check(device_->api->stream_synchronize(stream));
    }
    device_->ReleaseSyncStream(stream);
    return status;
  }

  testing::PluginDevice plugin_;
  phal_device_t* device_;
};

struct Outcome {
  std::string function;
  std::string reference_failure;  // empty: passed
  std::string cpu_failure;
};

// Runs a test function on the reference and on cpu.
Outcome RunTest(const std::string& file, const SourceText& source,
                const StableHloPart& part, StableHloModule& listing,
                const StableHloFunction& function, CpuDevice& cpu) {
  Outcome outcome{file + " @" + function.name, "", ""};
  listing.module->set_entry_computation(function.computation);
  StatusOr<Literal> expected = Evaluate(*listing.module, {});
  outcome.reference_failure =
      expected.ok() ? CheckOutputs(function, std::move(expected).value())
                    : testing::FirstLine(expected.status().message());
  StatusOr<StableHloModule> program = ParseStableHloPart(source, part);
  const StableHloFunction* copy = program->FindFunction(function.name);
  program->module->set_entry_computation(copy->computation);
  Status verified = VerifyModule(*program->module);
  StatusOr<Literal> actual =
      verified.ok() ? cpu.Run(std::move(program->module), *copy->computation)
                    : StatusOr<Literal>(verified);
  outcome.cpu_failure = actual.ok()
                            ? CheckOutputs(*copy, std::move(actual).value())
                            : testing::FirstLine(actual.status().message());
  return outcome;
}

// Every function of one part, counted as the reference's corpus test
// counts them: a test runs; a function a test calls shares its outcome; a
// part that does not parse, and a function with parameters that no test
// calls, fail on both.
void RunPart(const std::string& file, const SourceText& source,
             const StableHloPart& part, CpuDevice& cpu,
             std::vector<Outcome>* outcomes) {
  StatusOr<StableHloModule> listing = ParseStableHloPart(source, part);
  if (!listing.ok()) {
    const std::string reason = testing::FirstLine(listing.status().message());
    for (const std::string& name : testing::DeclaredFunctions(
             source.text().substr(part.begin, part.end - part.begin))) {
      outcomes->push_back({file + " @" + name, reason, reason});
    }
    return;
  }
  const std::string uncalled =
      "takes arguments that the file supplies only on its RUN line";
  for (auto& [name, outcome] : testing::FunctionOutcomes(
           *listing,
           [&](const StableHloFunction& function) {
             return RunTest(file, source, part, *listing, function, cpu);
           },
           Outcome{"", uncalled, uncalled})) {
    outcome.function = file + " @" + name;
    outcomes->push_back(std::move(outcome));
  }
}

TEST(CpuCorpusTest, CpuPassesEveryCorpusFunctionTheReferencePasses) {
  const std::vector<std::filesystem::path> files =
      testing::CorpusFiles("stablehlo-interpret");
  if (files.empty())
    GTEST_SKIP() << testing::CorpusAbsence("stablehlo-interpret");
  CpuDevice cpu;
  if (!cpu.present()) GTEST_SKIP() << cpu.absence();
  const auto start = std::chrono::steady_clock::now();
  std::vector<Outcome> outcomes;
  testing::ForEachPart(files,
                       [&](const std::string& file, const SourceText& source,
                           const StableHloPart& part) {
                         RunPart(file, source, part, cpu, &outcomes);
                       });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  int64_t reference_passed = 0;
  int64_t cpu_passed = 0;
  std::vector<const Outcome*> regressions;
  for (const Outcome& outcome : outcomes) {
    const bool reference_ok = outcome.reference_failure.empty();
    const bool cpu_ok = outcome.cpu_failure.empty();
    reference_passed += reference_ok ? 1 : 0;
    cpu_passed += cpu_ok ? 1 : 0;
    if (reference_ok && !cpu_ok) regressions.push_back(&outcome);
  }
  std::cout << "StableHLO corpus on cpu: " << outcomes.size()
            << " functions, reference passes " << reference_passed
            << ", cpu passes " << cpu_passed << " (" << seconds << " s)\n";
  ASSERT_GT(outcomes.size(), 0u);
  for (const Outcome* outcome : regressions) {
    ADD_FAILURE() << outcome->function
                  << " passes on the reference but not on cpu: "
                  << outcome->cpu_failure;
  }
}

}  // namespace
}  // namespace phal
