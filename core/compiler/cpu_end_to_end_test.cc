// End to end on the real cpu plugin (loaded from the build tree): programs
// compiled by the core, emitted by the plugin's LLVM kernels, executed
// through the C API and compared with the reference interpreter, and the
// JAX models of samples/models/jax compared with the outputs XLA computed.
// Skipped when the cpu plugin is not part of the build.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "core/io/npy.h"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

class CpuPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path =
        std::string(PHAL_TEST_BUILD_DIR) + "/share/polyhal/plugins.d";
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    options.plugin_filter = "cpu";
    phal_status_free(phal_client_create(&options, &client_));
    size_t count = 0;
    if (client_ != nullptr) {
      phal_status_free(phal_client_get_device_count(client_, &count));
    }
    if (count == 0) GTEST_SKIP() << "no cpu plugin device in this build";
    phal_status_free(phal_client_get_device(client_, 0, &device_));
  }
  void TearDown() override { phal_client_destroy(client_); }

  // Runs `text` on the cpu device and compares with the reference.
  void ExpectCpuMatchesReference(const std::string& text,
                                 const std::vector<Literal>& arguments,
                                 double tolerance) {
    std::unique_ptr<HloModule> module = ParseVerified(text);
    StatusOr<Literal> expected = Evaluate(*module, arguments);
    ASSERT_TRUE(expected.ok());
    std::vector<Literal> leaves;
    FlattenLiteral(*expected, &leaves);
    ExpectCpuComputes(text, arguments, leaves, tolerance);
  }

  // Runs `text` on the cpu device and compares its results with
  // `expected`, within `tolerance` relative to max(1, |expected|).
  void ExpectCpuComputes(const std::string& text,
                         const std::vector<Literal>& arguments,
                         const std::vector<Literal>& leaves, double tolerance) {
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        device_, text.data(), text.size(), nullptr, &executable);
    ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
    std::vector<phal_buffer_t*> inputs;
    for (const Literal& argument : arguments) {
      phal_buffer_desc_t desc{};
      desc.struct_size = sizeof(desc);
      desc.element_type = argument.element_type();
      desc.rank = static_cast<uint32_t>(argument.shape().rank());
      desc.dims = argument.shape().dims().data();
      phal_buffer_t* buffer = nullptr;
      ASSERT_EQ(phal_buffer_allocate(device_, &desc, &buffer), nullptr);
      ASSERT_EQ(phal_buffer_copy_from_host(buffer, 0, argument.data(),
                                           argument.byte_size()),
                nullptr);
      inputs.push_back(buffer);
    }
    size_t result_count = 0;
    phal_status_free(
        phal_executable_get_result_count(executable, &result_count));
    std::vector<phal_buffer_t*> outputs(result_count, nullptr);
    status = phal_executable_execute(executable, inputs.data(), inputs.size(),
                                     outputs.data(), outputs.size());
    ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
    ASSERT_EQ(leaves.size(), result_count);
    for (size_t i = 0; i < result_count; ++i) {
      Literal actual(leaves[i].shape());
      ASSERT_EQ(phal_buffer_copy_to_host(outputs[i], 0, actual.data(),
                                         actual.byte_size()),
                nullptr);
      EXPECT_TRUE(Matches(actual, leaves[i], tolerance)) << "result " << i;
      phal_buffer_free(outputs[i]);
    }
    for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
    phal_executable_free(executable);
  }

  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

TEST_F(CpuPlugin, DenseLayerWithSoftmaxMatchesReference) {
  ExpectCpuMatchesReference(R"(
HloModule mlp_softmax
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4,8] parameter(0)
  w = f32[8,6] parameter(1)
  b = f32[6] parameter(2)
  h = f32[4,6] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[4,6] broadcast(b), dimensions={1}
  z = f32[4,6] add(h, bb)
  ninf = f32[] constant(-inf)
  m = f32[4] reduce(z, ninf), dimensions={1}, to_apply=max_f32
  mb = f32[4,6] broadcast(m), dimensions={0}
  d = f32[4,6] subtract(z, mb)
  e = f32[4,6] exponential(d)
  zero = f32[] constant(0)
  s = f32[4] reduce(e, zero), dimensions={1}, to_apply=add_f32
  sb = f32[4,6] broadcast(s), dimensions={0}
  ROOT y = f32[4,6] divide(e, sb)
}
)",
                            {TestData(PHAL_ELEMENT_TYPE_F32, {4, 8}, 0),
                             TestData(PHAL_ELEMENT_TYPE_F32, {8, 6}, 1),
                             TestData(PHAL_ELEMENT_TYPE_F32, {6}, 2)},
                            1e-5);
}

TEST_F(CpuPlugin, WhileLoopOfThreeThousandIterationsMatchesReference) {
  ExpectCpuMatchesReference(R"(
HloModule loop
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3000)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4] get-tuple-element(p), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  h = f32[] constant(0.25)
  hb = f32[4] broadcast(h), dimensions={}
  w = f32[4] add(v, hb)
  ROOT t = (s32[], f32[4]) tuple(next, w)
}
ENTRY main {
  x = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  r = (s32[], f32[4]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(r), index=1
}
)",
                            {TestData(PHAL_ELEMENT_TYPE_F32, {4})}, 0.0);
}

TEST_F(CpuPlugin, EightThreadsExecuteOneExecutable) {
  const std::string text = R"(
HloModule affine
ENTRY main {
  x = f32[16,8] parameter(0)
  w = f32[8,4] parameter(1)
  d = f32[16,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT y = f32[16,4] tanh(d)
}
)";
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {16, 8}, 0),
      TestData(PHAL_ELEMENT_TYPE_F32, {8, 4}, 1)};
  std::unique_ptr<HloModule> module = ParseVerified(text);
  StatusOr<Literal> expected = Evaluate(*module, arguments);
  ASSERT_TRUE(expected.ok());
  phal_executable_t* executable = nullptr;
  phal_status_t* status = phal_executable_compile(
      device_, text.data(), text.size(), nullptr, &executable);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  std::vector<phal_buffer_t*> inputs;
  for (const Literal& argument : arguments) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    desc.element_type = argument.element_type();
    desc.rank = static_cast<uint32_t>(argument.shape().rank());
    desc.dims = argument.shape().dims().data();
    phal_buffer_t* buffer = nullptr;
    ASSERT_EQ(phal_buffer_allocate(device_, &desc, &buffer), nullptr);
    ASSERT_EQ(phal_buffer_copy_from_host(buffer, 0, argument.data(),
                                         argument.byte_size()),
              nullptr);
    inputs.push_back(buffer);
  }
  constexpr int kThreads = 8;
  constexpr int kRuns = 20;
  std::vector<int> correct(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns; ++run) {
        phal_buffer_t* output = nullptr;
        phal_status_t* failed = phal_executable_execute(
            executable, inputs.data(), inputs.size(), &output, 1);
        if (failed != nullptr) {
          phal_status_free(failed);
          continue;
        }
        Literal actual(expected->shape());
        phal_status_free(phal_buffer_copy_to_host(output, 0, actual.data(),
                                                  actual.byte_size()));
        phal_buffer_free(output);
        correct[t] += Matches(actual, *expected, 1e-6) ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(correct[t], kRuns) << "thread " << t << " got wrong results";
  }
  for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
  phal_executable_free(executable);
}

// Test data for each leaf of `shape`, depth-first; `seed` advances per leaf.
void AppendLeafData(const Shape& shape, int64_t* seed,
                    std::vector<Literal>* leaves) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      AppendLeafData(element, seed, leaves);
    }
    return;
  }
  leaves->push_back(TestData(shape.element_type(), shape.dims(), (*seed)++));
}

// The literal of `shape` whose leaves, depth-first, come from `leaves`.
Literal AssembleLeaves(const Shape& shape, const std::vector<Literal>& leaves,
                       std::size_t* next) {
  if (!shape.IsTuple()) return leaves[(*next)++];
  std::vector<Literal> elements;
  for (const Shape& element : shape.tuple_shapes()) {
    elements.push_back(AssembleLeaves(element, leaves, next));
  }
  return Literal::Tuple(std::move(elements));
}

class CpuHloModule : public CpuPlugin,
                     public ::testing::WithParamInterface<std::string> {};

// The HLO modules of the tree's tests (XLA's compiled dumps included,
// with their fusions, layouts and layout-changing bitcasts) agree with the
// reference on deterministic inputs.
TEST_P(CpuHloModule, MatchesReference) {
  const std::string path = std::string(PHAL_TEST_SOURCE_DIR) + "/" + GetParam();
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  std::unique_ptr<HloModule> module = ParseVerified(text.str());
  ASSERT_NE(module, nullptr) << path;
  std::vector<Literal> leaves;
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const HloInstruction* parameter :
       module->entry_computation()->parameter_instructions()) {
    const std::size_t first = leaves.size();
    AppendLeafData(parameter->shape(), &seed, &leaves);
    std::vector<Literal> own(
        leaves.begin() + static_cast<std::ptrdiff_t>(first), leaves.end());
    std::size_t next = 0;
    arguments.push_back(AssembleLeaves(parameter->shape(), own, &next));
  }
  StatusOr<Literal> expected = Evaluate(*module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::vector<Literal> expected_leaves;
  FlattenLiteral(*expected, &expected_leaves);
  ExpectCpuComputes(text.str(), leaves, expected_leaves, 1e-4);
}

INSTANTIATE_TEST_SUITE_P(
    TreeModules, CpuHloModule,
    ::testing::Values("core/compiler/testdata/conv.hlo",
                      "core/compiler/testdata/mlp.hlo",
                      "core/compiler/testdata/reduce_fused.hlo",
                      "core/compiler/testdata/softmax.hlo",
                      "core/compiler/testdata/while_loop.hlo",
                      "core/frontend/testdata/every_op.hlo",
                      "core/frontend/testdata/jax_cnn_grad.hlo",
                      "core/frontend/testdata/jax_cnn_grad_compiled.hlo",
                      "core/frontend/testdata/jax_control.hlo",
                      "core/frontend/testdata/jax_control_compiled.hlo",
                      "core/frontend/testdata/jax_conv.hlo",
                      "core/frontend/testdata/jax_conv_compiled.hlo",
                      "core/frontend/testdata/jax_misc.hlo",
                      "core/frontend/testdata/jax_misc_compiled.hlo",
                      "core/frontend/testdata/jax_mlp.hlo",
                      "core/frontend/testdata/jax_mlp_compiled.hlo",
                      "core/frontend/testdata/jax_rng.hlo",
                      "core/frontend/testdata/jax_rng_compiled.hlo",
                      "core/frontend/testdata/jax_transformer.hlo",
                      "core/frontend/testdata/jax_transformer_compiled.hlo"));

// Absolute plus relative tolerance per element type, as the reference's
// JAX model test allows XLA's fast transcendental approximations; 0 is
// exact.
double XlaTolerance(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F64:
      return 1e-12;
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_C64:
      return 2e-5;
    case PHAL_ELEMENT_TYPE_F16:
      return 1e-3;
    case PHAL_ELEMENT_TYPE_BF16:
      return 8e-3;
    default:
      return 0;
  }
}

class CpuJaxModel : public CpuPlugin,
                    public ::testing::WithParamInterface<std::string> {};

TEST_P(CpuJaxModel, MatchesXla) {
  const std::string base =
      std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/" + GetParam();
  std::ifstream file(base + ".hlo", std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  std::vector<Literal> arguments;
  for (int i = 0;; ++i) {
    const std::string path = base + ".input_" + std::to_string(i) + ".npy";
    if (!std::filesystem::exists(path)) break;
    StatusOr<Literal> input = ReadNpy(path);
    ASSERT_TRUE(input.ok()) << input.status().ToString();
    arguments.push_back(std::move(*input));
  }
  std::vector<Literal> outputs;
  double tolerance = 0;
  for (int i = 0;; ++i) {
    const std::string path = base + ".output_" + std::to_string(i) + ".npy";
    if (!std::filesystem::exists(path)) break;
    StatusOr<Literal> output = ReadNpy(path);
    ASSERT_TRUE(output.ok()) << output.status().ToString();
    tolerance = std::max(tolerance, XlaTolerance(output->element_type()));
    outputs.push_back(std::move(*output));
  }
  ExpectCpuComputes(text.str(), arguments, outputs, tolerance);
}

INSTANTIATE_TEST_SUITE_P(Models, CpuJaxModel,
                         ::testing::Values("mlp", "transformer_block",
                                           "convnet", "while_loop",
                                           "sort_gather", "integer_ops",
                                           "f64_ops", "mixed_precision"));

}  // namespace
}  // namespace phal::testing
