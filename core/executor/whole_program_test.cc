// Whole programs (plugin.h, ABI 1.13) through the executor: parts offered
// to a plugin's program_compile in the format it reads, run as its kernel,
// declined parts run as the core's kernels, and the template plugin's
// whole-program path serialized and loaded back.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/compiler.h"
#include "core/executor/executor.h"
#include "core/executor/program_offer.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/evaluator_device.h"
#include "core/testing/source_files.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

constexpr uint32_t kHloText =
    PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_HLO_TEXT);
constexpr uint32_t kStableHlo =
    PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_STABLEHLO);

std::string Softmax() {
  return ReadTextFile(SourceFile("core/compiler/testdata/softmax.hlo"));
}

// `module` compiled with what the evaluator's program slots take, loaded
// on its device.
std::unique_ptr<LoadedProgram> CompileForPrograms(
    std::unique_ptr<HloModule> module, phal_program_format_t format,
    const std::string& source) {
  CompilerOptions options;
  const Status rules =
      SetOffloadRules(EvaluatorProgramPluginApi(), EvaluatorDevice(),
                      "evaluator", format, source, &options);
  EXPECT_TRUE(rules.ok()) << rules.ToString();
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(std::move(module), options);
  EXPECT_TRUE(program.ok()) << program.status().ToString();
  if (!program.ok()) return nullptr;
  StatusOr<std::unique_ptr<LoadedProgram>> loaded = LoadedProgram::Load(
      std::move(program).value(), EvaluatorProgramPluginApi(),
      EvaluatorDevice(), nullptr, /*runnable=*/true);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? std::move(loaded).value() : nullptr;
}

class WholeProgramTest : public ::testing::Test {
 protected:
  void TearDown() override { SetEvaluatorPrograms({}); }
};

TEST_F(WholeProgramTest, APluginReadingHloTextTakesTheWholeProgram) {
  EvaluatorPrograms programs;
  programs.formats = kHloText;
  SetEvaluatorPrograms(programs);
  const std::string text = Softmax();
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {4, 6})};
  const int64_t kernels_before = LiveEvaluatorKernels();
  std::unique_ptr<LoadedProgram> loaded = CompileForPrograms(
      ParseVerified(text), PHAL_PROGRAM_FORMAT_HLO_TEXT, text);
  ASSERT_NE(loaded, nullptr);
  const std::vector<EvaluatorPrograms::Offer> offers = EvaluatorProgramOffers();
  ASSERT_EQ(offers.size(), 1u);
  EXPECT_EQ(offers[0].name, "main.offload.0");
  EXPECT_EQ(offers[0].format, PHAL_PLUGIN_PROGRAM_HLO_TEXT);
  EXPECT_EQ(LiveEvaluatorKernels() - kernels_before, 1)
      << "the program's kernel only: kernels only the part runs are not "
         "emitted";
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, ReferenceLeaves(text, arguments), 0.0, text);
}

TEST_F(WholeProgramTest, DeclinedOpsRunAsKernelsBetweenTheParts) {
  EvaluatorPrograms programs;
  programs.formats = kHloText;
  programs.declined_opcodes = {"reduce"};
  SetEvaluatorPrograms(programs);
  const std::string text = Softmax();
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {4, 6})};
  std::unique_ptr<LoadedProgram> loaded = CompileForPrograms(
      ParseVerified(text), PHAL_PROGRAM_FORMAT_HLO_TEXT, text);
  ASSERT_NE(loaded, nullptr);
  EXPECT_GE(EvaluatorProgramOffers().size(), 2u)
      << "the two reduces split the softmax into parts";
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, ReferenceLeaves(text, arguments), 1e-6, text);
}

TEST_F(WholeProgramTest, APartThePluginDeclinesRunsAsKernels) {
  EvaluatorPrograms programs;
  programs.formats = kHloText;
  programs.decline_compile = true;
  SetEvaluatorPrograms(programs);
  const std::string text =
      ReadTextFile(SourceFile("core/compiler/testdata/mlp.hlo"));
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr);
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const HloInstruction* parameter :
       module->entry_computation()->parameter_instructions()) {
    arguments.push_back(TestData(parameter->shape().element_type(),
                                 parameter->shape().dims(), seed++));
  }
  std::unique_ptr<LoadedProgram> loaded =
      CompileForPrograms(std::move(module), PHAL_PROGRAM_FORMAT_HLO_TEXT, text);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(EvaluatorProgramOffers().size(), 1u);
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, ReferenceLeaves(text, arguments), 1e-5, text);
}

TEST_F(WholeProgramTest, APluginReadingStableHloGetsTheCallersText) {
  EvaluatorPrograms programs;
  programs.formats = kStableHlo;
  SetEvaluatorPrograms(programs);
  const std::string source = R"(
module @m {
  func.func public @main(%x: tensor<3x4xf32>, %w: tensor<4x2xf32>) -> tensor<3x2xf32> {
    %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
    %t = stablehlo.tanh %d : tensor<3x2xf32>
    return %t : tensor<3x2xf32>
  }
}
)";
  StatusOr<StableHloModule> parsed = ParseStableHlo(source, "m.mlir");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {3, 4}, 1),
      TestData(PHAL_ELEMENT_TYPE_F32, {4, 2}, 2)};
  StatusOr<Literal> expected = Evaluate(*parsed->module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::unique_ptr<LoadedProgram> loaded = CompileForPrograms(
      std::move(parsed->module), PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT, source);
  ASSERT_NE(loaded, nullptr);
  const std::vector<EvaluatorPrograms::Offer> offers = EvaluatorProgramOffers();
  ASSERT_EQ(offers.size(), 1u);
  EXPECT_EQ(offers[0].format, PHAL_PLUGIN_PROGRAM_STABLEHLO);
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ASSERT_EQ(actual->size(), 1u);
  EXPECT_TRUE(Matches((*actual)[0], *expected, 0.0));
}

// Runs `executable` on `arguments` through the C API; the result leaves.
std::vector<Literal> RunExecutable(phal_device_t* device,
                                   phal_executable_t* executable,
                                   const std::vector<Literal>& arguments,
                                   const std::vector<Shape>& results) {
  std::vector<phal_buffer_t*> inputs;
  for (const Literal& argument : arguments) {
    const phal_buffer_desc_t desc =
        BufferDesc(argument.element_type(), argument.shape().dims());
    phal_buffer_t* buffer = nullptr;
    EXPECT_EQ(phal_buffer_allocate(device, &desc, &buffer), nullptr);
    EXPECT_EQ(phal_buffer_copy_from_host(buffer, 0, argument.data(),
                                         argument.byte_size()),
              nullptr);
    inputs.push_back(buffer);
  }
  std::vector<phal_buffer_t*> outputs(results.size(), nullptr);
  phal_status_t* status = phal_executable_execute(
      executable, inputs.data(), inputs.size(), outputs.data(), outputs.size());
  EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
  phal_status_free(status);
  std::vector<Literal> values;
  for (std::size_t i = 0; i < outputs.size() && status == nullptr; ++i) {
    Literal& value = values.emplace_back(results[i]);
    EXPECT_EQ(phal_buffer_copy_to_host(outputs[i], 0, value.data(),
                                       value.byte_size()),
              nullptr);
  }
  for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
  for (phal_buffer_t* buffer : outputs) phal_buffer_free(buffer);
  return values;
}

// The template in its whole-program mode, through the C API: compiled,
// serialized, loaded back from the bytes and run, matching the reference.
TEST(TemplateWholeProgram, SerializedPartsLoadBackAndRun) {
  setenv("PHAL_TEMPLATE_MODE", "program", 1);
  PluginDevice plugin("template");
  if (plugin.device() == nullptr) GTEST_SKIP() << plugin.absence();
  const std::string text =
      ReadTextFile(SourceFile("core/compiler/testdata/mlp.hlo"));
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr);
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const HloInstruction* parameter :
       module->entry_computation()->parameter_instructions()) {
    arguments.push_back(TestData(parameter->shape().element_type(),
                                 parameter->shape().dims(), seed++));
  }
  std::vector<Shape> result_shapes;
  const Shape& root = module->entry_computation()->ResultShape();
  if (root.IsTuple()) {
    result_shapes = root.tuple_shapes();
  } else {
    result_shapes.push_back(root);
  }
  const std::vector<Literal> expected = ReferenceLeaves(text, arguments);
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  phal_executable_t* compiled = nullptr;
  phal_status_t* status = phal_executable_compile(
      plugin.device(), text.data(), text.size(), &options, &compiled);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  void* data = nullptr;
  size_t size = 0;
  status = phal_executable_serialize(compiled, &data, &size);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  const std::string bytes(static_cast<const char*>(data), size);
  phal_free(data);
  EXPECT_NE(bytes.find("PHTMPROG"), std::string::npos)
      << "the serialized executable holds the template's program";
  phal_executable_t* loaded = nullptr;
  status = phal_executable_deserialize(plugin.device(), bytes.data(),
                                       bytes.size(), &loaded);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  for (phal_executable_t* executable : {compiled, loaded}) {
    ExpectLeavesMatch(
        RunExecutable(plugin.device(), executable, arguments, result_shapes),
        expected, 1e-5, text);
  }
  phal_executable_free(compiled);
  phal_executable_free(loaded);
}

}  // namespace
}  // namespace phal::testing
