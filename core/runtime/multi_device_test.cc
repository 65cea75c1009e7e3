// Executables on several devices through the application API (ABI 1.7):
// a program for two processes compiled for a cpu device and a template
// device -- one group spanning two plugins -- runs as the reference's
// EvaluateSpmd says; device assignments that do not fit the program, and
// single-device calls on a multi-device executable, are refused by name.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/spmd_interpreter.h"
#include "core/testing/compiler_test_util.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

constexpr char kTwoProcesses[] = R"(
HloModule pair, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[3,2] parameter(0)
  e = f32[3,2] exponential(x)
  s = f32[3,2] all-reduce(e), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=add
  g = f32[6,2] all-gather(x), channel_id=2, replica_groups={{1,0}}, use_global_device_ids=true, dimensions={0}
  p = f32[3,2] collective-permute(s), channel_id=3, source_target_pairs={{0,1}}
  id = u32[] partition-id()
  t = f32[3,2] tanh(p)
  ROOT out = (f32[3,2], f32[6,2], f32[3,2], u32[]) tuple(s, g, t, id)
}
)";

class MultiDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_filter = "cpu,template";
    Result<Client> client = Client::Create(&options);
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    client_ = std::move(client.value());
    for (const Device& device : client_.Devices()) {
      size_t index = 0;
      ASSERT_EQ(phal_device_get_plugin_index(device.get(), &index), nullptr);
      const std::string plugin = client_.Plugins()[index].name;
      if (plugin == "cpu" && cpu_ == nullptr) cpu_ = device.get();
      if (plugin == "template" && template_ == nullptr) {
        template_ = device.get();
      }
    }
    ASSERT_NE(cpu_, nullptr);
    ASSERT_NE(template_, nullptr);
  }

  Buffer Upload(phal_device_t* device, const Literal& value) {
    Result<Buffer> buffer = Buffer::Allocate(
        Device(device), value.shape().element_type(), value.shape().dims());
    EXPECT_TRUE(buffer.ok()) << buffer.error().ToString();
    EXPECT_TRUE(buffer->CopyFromHost(value.data(), value.byte_size()).ok());
    return std::move(buffer.value());
  }

  Error CompileError(std::vector<phal_device_t*> devices,
                     const std::string& text) {
    phal_executable_t* executable = nullptr;
    Error error(phal_executable_compile_for_devices(
        devices.data(), devices.size(), text.data(), text.size(), nullptr,
        &executable));
    phal_executable_free(executable);
    return error;
  }

  Client client_;
  phal_device_t* cpu_ = nullptr;
  phal_device_t* template_ = nullptr;
};

TEST_F(MultiDeviceTest, AGroupSpanningTwoPluginsMatchesTheReference) {
  Result<Executable> executable = Executable::CompileForDevices(
      {Device(cpu_), Device(template_)}, kTwoProcesses);
  ASSERT_TRUE(executable.ok()) << executable.error().ToString();
  Result<size_t> devices = executable->DeviceCount();
  ASSERT_TRUE(devices.ok());
  EXPECT_EQ(*devices, 2u);
  phal_device_t* second = nullptr;
  ASSERT_EQ(phal_executable_get_device(executable->get(), 1, &second), nullptr);
  EXPECT_EQ(second, template_);

  std::vector<std::vector<Literal>> arguments;
  arguments.push_back({testing::TestData(PHAL_ELEMENT_TYPE_F32, {3, 2}, 1)});
  arguments.push_back({testing::TestData(PHAL_ELEMENT_TYPE_F32, {3, 2}, 2)});
  std::vector<std::vector<Buffer>> buffers(2);
  buffers[0].push_back(Upload(cpu_, arguments[0][0]));
  buffers[1].push_back(Upload(template_, arguments[1][0]));
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(buffers);
  ASSERT_TRUE(results.ok()) << results.error().ToString();

  std::unique_ptr<HloModule> module = testing::ParseVerified(kTwoProcesses);
  ASSERT_NE(module, nullptr);
  StatusOr<std::vector<Literal>> expected = EvaluateSpmd(*module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_EQ(results->size(), 2u);
  for (size_t d = 0; d < 2; ++d) {
    std::vector<Literal> leaves;
    testing::FlattenLiteral((*expected)[d], &leaves);
    ASSERT_EQ((*results)[d].size(), leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) {
      Literal actual(leaves[i].shape());
      ASSERT_TRUE(
          (*results)[d][i].CopyToHost(actual.data(), actual.byte_size()).ok());
      // Each plugin computes exp and tanh within a few ulp of the
      // reference.
      EXPECT_TRUE(testing::Matches(actual, leaves[i], 1e-5))
          << "device " << d << " result " << i;
    }
  }
}

TEST_F(MultiDeviceTest, AssignmentsThatDoNotFitTheProgramAreRefused) {
  Error error = CompileError({cpu_}, kTwoProcesses);
  EXPECT_EQ(error.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(error.message(),
              HasSubstr("1 replicas x 2 partitions = 2 devices, but "
                        "device_count is 1"));
  error = CompileError({cpu_, cpu_}, kTwoProcesses);
  EXPECT_EQ(error.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(error.message(), HasSubstr("devices[1] is devices[0] again"));
  error = CompileError({cpu_, nullptr}, kTwoProcesses);
  EXPECT_EQ(error.code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(error.message(), HasSubstr("devices[1]"));
  error = CompileError({}, kTwoProcesses);
  EXPECT_EQ(error.code(), PHAL_INVALID_ARGUMENT);
}

TEST_F(MultiDeviceTest, SingleDeviceCallsRefuseAMultiDeviceExecutable) {
  Result<Executable> executable = Executable::CompileForDevices(
      {Device(cpu_), Device(template_)}, kTwoProcesses);
  ASSERT_TRUE(executable.ok()) << executable.error().ToString();
  Buffer argument =
      Upload(cpu_, testing::TestData(PHAL_ELEMENT_TYPE_F32, {3, 2}));
  Result<std::vector<Buffer>> alone = executable->Execute({});
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.error().code(), PHAL_FAILED_PRECONDITION);
  EXPECT_THAT(alone.error().message(),
              HasSubstr("phal_executable_execute_on_devices"));
  // Arguments on the wrong device, and a wrong device count.
  std::vector<std::vector<Buffer>> swapped(2);
  swapped[0].push_back(std::move(argument));
  swapped[1].push_back(
      Upload(cpu_, testing::TestData(PHAL_ELEMENT_TYPE_F32, {3, 2})));
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(swapped);
  ASSERT_FALSE(results.ok());
  EXPECT_EQ(results.error().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(results.error().message(),
              HasSubstr("arguments[1][0] is on another device"));
  swapped.pop_back();
  results = executable->ExecuteOnDevices(swapped);
  ASSERT_FALSE(results.ok());
  EXPECT_THAT(results.error().message(),
              HasSubstr("runs on 2 devices, device_count is 1"));
}

TEST_F(MultiDeviceTest, AProgramForOneDeviceRunsThroughEitherCall) {
  const std::string text = testing::kDoublingModule;
  Result<Executable> executable =
      Executable::CompileForDevices({Device(template_)}, text);
  ASSERT_TRUE(executable.ok()) << executable.error().ToString();
  const Literal x = testing::TestData(PHAL_ELEMENT_TYPE_F32, {16});
  std::vector<std::vector<Buffer>> arguments(1);
  arguments[0].push_back(Upload(template_, x));
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(arguments);
  ASSERT_TRUE(results.ok()) << results.error().ToString();
  Literal y(x.shape());
  ASSERT_TRUE((*results)[0][0].CopyToHost(y.data(), y.byte_size()).ok());
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_EQ(y.GetAsDouble(i), 2 * x.GetAsDouble(i));
  }
  Result<std::vector<Buffer>> alone = executable->Execute(arguments[0]);
  EXPECT_TRUE(alone.ok()) << alone.error().ToString();
}

}  // namespace
}  // namespace phal
