// End to end on the real cpu plugin (loaded from the build tree): programs
// compiled by the core, emitted by the plugin's LLVM kernels, executed
// through the C API and compared with the reference interpreter. Skipped
// when the cpu plugin is not part of the build.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/compiler_test_util.h"
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
    std::unique_ptr<HloModule> module = ParseVerified(text);
    StatusOr<Literal> expected = Evaluate(*module, arguments);
    ASSERT_TRUE(expected.ok());
    std::vector<Literal> leaves;
    FlattenLiteral(*expected, &leaves);
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

TEST_F(CpuPlugin, WhileLoopWithHostConditionMatchesReference) {
  ExpectCpuMatchesReference(R"(
HloModule loop
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(500)
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

}  // namespace
}  // namespace phal::testing
