// The validation layer (PHAL_VALIDATION=1): each rule of the ABI contract,
// broken once, is reported as a status naming the rule, the call and the
// object, and nothing crashes. Rules the plugin must keep are broken by
// testing/rule_breaking_plugin.cc and seen through the C API; rules the core
// must keep are broken by calling a layer's table directly, as a core with
// a bug would.
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/abi/c_status.h"
#include "core/loader/plugin_library.h"
#include "core/loader/testing/manifests.h"
#include "core/loader/validation_layer.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/scoped_env.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"

namespace phal {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::ScopedEnv;

// The code and message of `status`, which is freed.
struct Outcome {
  phal_status_code_t code = PHAL_OK;
  std::string message;
};
Outcome Take(phal_status_t* status) {
  Outcome outcome{phal_status_get_code(status),
                  phal_status_get_message(status)};
  phal_status_free(status);
  return outcome;
}

void CollectLog(void* user_data, phal_log_level_t, const char* message) {
  static_cast<std::vector<std::string>*>(user_data)->push_back(message);
}

std::string Joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// ---- rules the plugin keeps: the rule-breaking plugin, through the C API --

class RuleBreakingPluginTest : public ::testing::Test {
 protected:
  // A validating client of the rule-breaking plugin breaking `rule`.
  void Open(const char* rule) {
    rule_ = std::make_unique<ScopedEnv>("PHAL_TEST_BROKEN_RULE", rule);
    std::string manifest =
        dir_.Write("rule-breaking.json", testing::RuleBreakingManifest());
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = manifest.c_str();
    options.log_callback = CollectLog;
    options.log_user_data = &log_;
    ASSERT_EQ(phal_client_create(&options, &client_), nullptr);
    size_t count = 0;
    ASSERT_EQ(phal_client_get_device_count(client_, &count), nullptr);
    if (count > 0) {
      ASSERT_EQ(phal_client_get_device(client_, 0, &device_), nullptr);
    }
  }

  void TearDown() override { phal_client_destroy(client_); }

  std::string DeviceReason() {
    phal_plugin_info_t info{};
    info.struct_size = sizeof(info);
    EXPECT_EQ(phal_client_get_plugin_info(client_, 0, &info), nullptr);
    return info.reason;
  }

  phal_buffer_t* Vector() {
    const std::vector<int64_t> dims = {16};
    const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
    phal_buffer_t* buffer = nullptr;
    Outcome allocated = Take(phal_buffer_allocate(device_, &desc, &buffer));
    EXPECT_EQ(allocated.code, PHAL_OK) << allocated.message;
    return buffer;
  }

  phal_executable_t* Doubling() {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
    phal_executable_t* executable = nullptr;
    Outcome compiled = Take(phal_executable_compile(
        device_, testing::kDoublingModule, sizeof(testing::kDoublingModule) - 1,
        &options, &executable));
    EXPECT_EQ(compiled.code, PHAL_OK) << compiled.message;
    return executable;
  }

  // Runs the doubling of 0..15 and checks the result when it succeeds.
  Outcome RunDoubling() {
    phal_executable_t* executable = Doubling();
    if (executable == nullptr) return {PHAL_UNKNOWN, "no executable"};
    phal_buffer_t* x = Vector();
    std::vector<float> values(16);
    for (int i = 0; i < 16; ++i) values[i] = static_cast<float>(i);
    EXPECT_EQ(phal_buffer_copy_from_host(x, 0, values.data(), 64), nullptr);
    phal_buffer_t* y = nullptr;
    Outcome run = Take(phal_executable_execute(executable, &x, 1, &y, 1));
    if (run.code == PHAL_OK) {
      std::vector<float> doubled(16);
      EXPECT_EQ(phal_buffer_copy_to_host(y, 0, doubled.data(), 64), nullptr);
      for (int i = 0; i < 16; ++i) EXPECT_EQ(doubled[i], 2.0f * i);
    }
    phal_buffer_free(y);
    phal_buffer_free(x);
    phal_executable_free(executable);
    return run;
  }

  ScopedEnv validation_{"PHAL_VALIDATION", "1"};
  std::unique_ptr<ScopedEnv> rule_;
  testing::TempDir dir_;
  std::vector<std::string> log_;
  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

TEST_F(RuleBreakingPluginTest, APluginKeepingEveryRuleRunsWithoutAReport) {
  Open("");
  ASSERT_NE(device_, nullptr) << DeviceReason();
  Outcome run = RunDoubling();
  EXPECT_EQ(run.code, PHAL_OK) << run.message;
  phal_client_destroy(client_);
  client_ = nullptr;
  EXPECT_THAT(Joined(log_), ::testing::Not(HasSubstr("validation layer")));
}

TEST_F(RuleBreakingPluginTest, ASuccessWithoutABufferIsReported) {
  Open("null-buffer");
  ASSERT_NE(device_, nullptr);
  const int64_t dims[] = {16};
  phal_buffer_desc_t desc{sizeof(desc), nullptr, PHAL_ELEMENT_TYPE_F32, 1,
                          dims,         0};
  phal_buffer_t* buffer = nullptr;
  Outcome allocated = Take(phal_buffer_allocate(device_, &desc, &buffer));
  EXPECT_EQ(allocated.code, PHAL_INTERNAL);
  EXPECT_THAT(allocated.message,
              AllOf(HasSubstr("rule handle.null_result"),
                    HasSubstr("buffer_allocate"), HasSubstr("NULL buffer")));
  EXPECT_THAT(Joined(log_), HasSubstr("rule handle.null_result"));
}

TEST_F(RuleBreakingPluginTest, AStreamReturnedTwiceIsReported) {
  Open("reused-stream");
  ASSERT_NE(device_, nullptr);
  phal_stream_t* first = nullptr;
  phal_stream_t* second = nullptr;
  ASSERT_EQ(phal_stream_create(device_, &first), nullptr);
  Outcome again = Take(phal_stream_create(device_, &second));
  EXPECT_EQ(again.code, PHAL_INTERNAL);
  EXPECT_THAT(again.message,
              AllOf(HasSubstr("rule handle.duplicate"),
                    HasSubstr("stream_create"), HasSubstr("stream #"),
                    HasSubstr("created by stream_create(device 0")));
  phal_stream_destroy(first);
}

TEST_F(RuleBreakingPluginTest, ABufferReturnedAsAnEventIsReported) {
  Open("event-is-buffer");
  ASSERT_NE(device_, nullptr);
  phal_buffer_t* buffer = Vector();
  phal_event_t* event = nullptr;
  Outcome created = Take(phal_event_create(device_, &event));
  EXPECT_EQ(created.code, PHAL_INTERNAL);
  EXPECT_THAT(created.message,
              AllOf(HasSubstr("rule handle.duplicate"),
                    HasSubstr("returned as a new event the live handle of "
                              "buffer #"),
                    HasSubstr("buffer_allocate(")));
  phal_buffer_free(buffer);
}

struct StatusRule {
  const char* broken;
  const char* reported;
};

class MalformedStatusTest : public RuleBreakingPluginTest,
                            public ::testing::WithParamInterface<StatusRule> {};

TEST_P(MalformedStatusTest, IsReportedInsteadOfPassedOn) {
  Open(GetParam().broken);
  ASSERT_NE(device_, nullptr);
  phal_stream_t* stream = nullptr;
  ASSERT_EQ(phal_stream_create(device_, &stream), nullptr);
  Outcome synced = Take(phal_stream_synchronize(stream));
  EXPECT_EQ(synced.code, PHAL_INTERNAL);
  EXPECT_THAT(synced.message,
              AllOf(HasSubstr(std::string("rule ") + GetParam().reported),
                    HasSubstr("stream_synchronize")));
  phal_stream_destroy(stream);
}

INSTANTIATE_TEST_SUITE_P(
    Validation, MalformedStatusTest,
    ::testing::Values(StatusRule{"bad-status-code", "status.code"},
                      StatusRule{"ok-status", "status.ok_is_null"},
                      StatusRule{"empty-message", "status.message"}),
    [](const ::testing::TestParamInfo<StatusRule>& info) {
      std::string name = info.param.broken;
      std::erase(name, '-');
      return name;
    });

TEST_F(RuleBreakingPluginTest, ADeviceWithoutAVendorStringIsNotOpened) {
  Open("null-vendor");
  EXPECT_EQ(device_, nullptr);
  EXPECT_THAT(DeviceReason(), AllOf(HasSubstr("rule properties.strings"),
                                    HasSubstr("device_get_properties")));
}

TEST_F(RuleBreakingPluginTest, AReasonForNoDeviceBesideDevicesIsReported) {
  Open("count-reason");
  EXPECT_EQ(device_, nullptr);
  EXPECT_THAT(DeviceReason(), HasSubstr("rule device_count.reason"));
}

TEST_F(RuleBreakingPluginTest, AnEventStateOtherThanZeroOrOneIsReported) {
  Open("event-done");
  ASSERT_NE(device_, nullptr);
  phal_event_t* event = nullptr;
  ASSERT_EQ(phal_event_create(device_, &event), nullptr);
  int done = 0;
  Outcome queried = Take(phal_event_query(event, &done));
  EXPECT_EQ(queried.code, PHAL_INTERNAL);
  EXPECT_THAT(queried.message, AllOf(HasSubstr("rule event_query.done"),
                                     HasSubstr("*out_done is 7")));
  phal_event_destroy(event);
}

TEST_F(RuleBreakingPluginTest, ASerializationWithoutBytesIsReported) {
  Open("empty-serialize");
  ASSERT_NE(device_, nullptr);
  phal_executable_t* executable = Doubling();
  ASSERT_NE(executable, nullptr);
  void* data = nullptr;
  size_t size = 0;
  Outcome serialized =
      Take(phal_executable_serialize(executable, &data, &size));
  EXPECT_NE(serialized.code, PHAL_OK);
  EXPECT_THAT(serialized.message,
              AllOf(HasSubstr("rule kernel_serialize.output"),
                    HasSubstr("kernel_emit(")));
  phal_free(data);
  phal_executable_free(executable);
}

TEST_F(RuleBreakingPluginTest, ATargetNameWithACommaIsReported) {
  Open("bad-target-name");
  EXPECT_THAT(Joined(log_),
              AllOf(HasSubstr("rule targets.names"), HasSubstr("'host,gpu'")));
}

TEST_F(RuleBreakingPluginTest, CountersWithoutAnArrayAreReported) {
  Open("bad-counters");
  ASSERT_NE(device_, nullptr);
  phal_device_counter_t* counters = nullptr;
  size_t count = 0;
  Outcome read = Take(phal_device_get_counters(device_, &counters, &count));
  EXPECT_EQ(read.code, PHAL_INTERNAL);
  EXPECT_THAT(read.message, HasSubstr("rule counters.block"));
  EXPECT_EQ(counters, nullptr);
}

TEST_F(RuleBreakingPluginTest, AKernelWritingPastItsBufferIsCaughtByTheGuard) {
  Open("write-past-end");
  ASSERT_NE(device_, nullptr);
  Outcome run = RunDoubling();
  EXPECT_EQ(run.code, PHAL_INTERNAL);
  EXPECT_THAT(run.message,
              AllOf(HasSubstr("rule memory.guard_band"),
                    HasSubstr("wrote past the end of a buffer"),
                    HasSubstr("kernel_emit("),
                    HasSubstr("the guard band after its 64 bytes was written, "
                              "4 of its 256 bytes changed, the first at "
                              "end+0")));
}

// ---- rules the core keeps: a layer's table called as a buggy core would ---

class CoreSideRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PluginManifest manifest;
    manifest.name = "cpu";
    manifest.library_path = PHAL_CPU_PLUGIN_PATH;
    manifest.manifest_path = "cpu.json";
    StatusOr<std::shared_ptr<PluginLibrary>> library =
        PluginLibrary::Open(manifest, logger_);
    ASSERT_TRUE(library.ok()) << library.status().ToString();
    library_ = *library;
    StatusOr<std::unique_ptr<ValidationLayer>> layer =
        ValidationLayer::Create(library_->api(), "cpu", logger_);
    ASSERT_TRUE(layer.ok()) << layer.status().ToString();
    layer_ = std::move(*layer);
    api_ = &layer_->table();
    size_t count = 0;
    const char* reason = nullptr;
    ASSERT_EQ(api_->device_count(&count, &reason), nullptr);
    ASSERT_GT(count, 0u);
    ASSERT_EQ(api_->device_open(0, &device_), nullptr);
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    ASSERT_EQ(api_->device_get_properties(device_, &properties), nullptr);
    ASSERT_EQ(api_->stream_create(device_, &stream_), nullptr);
  }

  void TearDown() override {
    if (stream_ != nullptr) api_->stream_destroy(stream_);
    if (device_ != nullptr) api_->device_close(device_);
    EXPECT_TRUE(layer_->checks().LiveObjects().empty());
  }

  phal_plugin_buffer_t* Buffer(uint64_t bytes) {
    phal_plugin_buffer_t* buffer = nullptr;
    EXPECT_EQ(api_->buffer_allocate(device_, 0, bytes, &buffer), nullptr);
    return buffer;
  }

  std::vector<std::string> log_lines_;
  Logger logger_{CollectLog, &log_lines_};
  std::shared_ptr<PluginLibrary> library_;
  std::unique_ptr<ValidationLayer> layer_;
  const phal_plugin_api_t* api_ = nullptr;
  phal_plugin_device_t* device_ = nullptr;
  phal_plugin_stream_t* stream_ = nullptr;
};

TEST_F(CoreSideRulesTest,
       HandlesNullReleasedOrOfAnotherKindNeverReachThePlugin) {
  phal_plugin_buffer_t* buffer = Buffer(64);
  EXPECT_THAT(Take(api_->stream_synchronize(nullptr)).message,
              HasSubstr("rule handle.null"));
  Outcome wrong_kind = Take(api_->stream_synchronize(
      reinterpret_cast<phal_plugin_stream_t*>(buffer)));
  EXPECT_EQ(wrong_kind.code, PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(wrong_kind.message,
              AllOf(HasSubstr("rule handle.kind"),
                    HasSubstr("stream (a stream) is buffer #"),
                    HasSubstr("buffer_allocate(device 0")));
  api_->buffer_free(reinterpret_cast<phal_plugin_buffer_t*>(stream_));
  EXPECT_THAT(Joined(log_lines_),
              HasSubstr("buffer_free: buffer (a buffer) is stream #"));
  api_->buffer_free(buffer);
  float value = 0;
  Outcome released =
      Take(api_->stream_copy_to_host(stream_, buffer, 0, &value, 4));
  EXPECT_THAT(released.message, AllOf(HasSubstr("rule handle.unknown"),
                                      HasSubstr("stream_copy_to_host"),
                                      HasSubstr("already released")));
  EXPECT_EQ(layer_->checks().violation_count(), 4u);
}

TEST_F(CoreSideRulesTest, CopiesStayInsideTheSizeTheCoreAskedFor) {
  phal_plugin_buffer_t* buffer = Buffer(64);
  std::vector<uint8_t> host(64, 7);
  Outcome beyond =
      Take(api_->stream_copy_from_host(stream_, host.data(), buffer, 60, 8));
  EXPECT_EQ(beyond.code, PHAL_OUT_OF_RANGE);
  EXPECT_THAT(beyond.message,
              AllOf(HasSubstr("rule range.bounds"),
                    HasSubstr("copy range [60, 60+8) exceeds the 64 bytes")));
  EXPECT_THAT(
      Take(api_->stream_copy_buffer(stream_, buffer, 0, buffer, 8, 16)).message,
      HasSubstr("rule range.overlap"));
  EXPECT_THAT(
      Take(api_->stream_copy_from_host(stream_, nullptr, buffer, 0, 8)).message,
      HasSubstr("rule argument.null"));
  // A copy of the whole buffer is fine: the guard band is out of sight.
  ASSERT_EQ(api_->stream_copy_from_host(stream_, host.data(), buffer, 0, 64),
            nullptr);
  std::vector<uint8_t> back(64, 0);
  ASSERT_EQ(api_->stream_copy_to_host(stream_, buffer, 0, back.data(), 64),
            nullptr);
  ASSERT_EQ(api_->stream_synchronize(stream_), nullptr);
  EXPECT_EQ(back, host);
  api_->buffer_free(buffer);
}

TEST_F(CoreSideRulesTest, CollectivesNameTheirDescriptionRangesAndDevices) {
  phal_plugin_communicator_t* rank = nullptr;
  phal_plugin_device_t* twice[] = {device_, device_};
  phal_plugin_communicator_t* ranks[2] = {};
  EXPECT_THAT(Take(api_->communicator_create(twice, 2, ranks)).message,
              HasSubstr("rule collective.distinct_devices"));
  ASSERT_EQ(api_->communicator_create(&device_, 1, &rank), nullptr);
  phal_plugin_buffer_t* send = Buffer(64);
  phal_plugin_buffer_t* recv = Buffer(32);
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.kind = PHAL_COLLECTIVE_ALL_REDUCE;
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  desc.reduction = PHAL_REDUCTION_AND;
  desc.outer_count = 1;
  desc.block_count = 16;
  Outcome and_of_floats =
      Take(api_->stream_collective(stream_, rank, &desc, send, 0, recv, 0));
  EXPECT_EQ(and_of_floats.code, PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(and_of_floats.message,
              AllOf(HasSubstr("rule collective.desc"),
                    HasSubstr("and needs integers or pred")));
  desc.reduction = PHAL_REDUCTION_SUM;
  Outcome beyond =
      Take(api_->stream_collective(stream_, rank, &desc, send, 0, recv, 0));
  EXPECT_EQ(beyond.code, PHAL_OUT_OF_RANGE);
  EXPECT_THAT(beyond.message,
              HasSubstr("recv range [0, 0+64) exceeds the 32 bytes"));
  EXPECT_THAT(
      Take(api_->stream_collective(stream_, rank, &desc, send, 2, recv, 0))
          .message,
      HasSubstr("rule collective.alignment"));
  // A communicator of one rank reduces its own values.
  desc.block_count = 8;
  std::vector<float> values(16, 1.5f);
  ASSERT_EQ(api_->stream_copy_from_host(stream_, values.data(), send, 0, 64),
            nullptr);
  ASSERT_EQ(api_->stream_collective(stream_, rank, &desc, send, 0, recv, 0),
            nullptr);
  std::vector<float> back(8, 0.0f);
  ASSERT_EQ(api_->stream_copy_to_host(stream_, recv, 0, back.data(), 32),
            nullptr);
  ASSERT_EQ(api_->stream_synchronize(stream_), nullptr);
  EXPECT_EQ(back, std::vector<float>(8, 1.5f));
  api_->communicator_destroy(rank);
  api_->buffer_free(send);
  api_->buffer_free(recv);
  EXPECT_EQ(layer_->checks().violation_count(), 4u);
}

// ABI 1.12: a join's devices and ranks are checked before the plugin sees
// them; the cpu plugin joins no communicator over processes, so the core's
// stubs answer (no handle, no support).
TEST_F(CoreSideRulesTest, JoinsNameRepeatedDevicesAndRanksBeforeThePlugin) {
  phal_communicator_id_t id{};
  phal_plugin_device_t* twice[] = {device_, device_};
  const uint32_t ranks[] = {0, 1};
  phal_plugin_communicator_t* out[2] = {};
  EXPECT_THAT(
      Take(api_->communicator_join(&id, 2, twice, ranks, 2, 0, out)).message,
      HasSubstr("rule collective.distinct_devices"));
  const uint32_t beyond[] = {2};
  EXPECT_THAT(
      Take(api_->communicator_join(&id, 2, &device_, beyond, 1, 0, out))
          .message,
      AllOf(HasSubstr("rule collective.rank"),
            HasSubstr("ranks[0] = 2 is repeated or not below rank_count 2")));
  Outcome stub =
      Take(api_->communicator_join(&id, 2, &device_, ranks, 1, 0, out));
  EXPECT_EQ(stub.code, PHAL_UNIMPLEMENTED) << stub.message;
  EXPECT_EQ(out[0], nullptr);
  phal_collective_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.kind = PHAL_COLLECTIVE_ALL_REDUCE;
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  desc.reduction = PHAL_REDUCTION_SUM;
  desc.outer_count = 1;
  desc.block_count = 4;
  int supported = -1;
  ASSERT_EQ(
      api_->device_supports_joined_collective(device_, &desc, 2, &supported),
      nullptr);
  EXPECT_EQ(supported, 0);
  EXPECT_EQ(layer_->checks().violation_count(), 2u);
}

TEST_F(CoreSideRulesTest, KernelsOfAKindNewerThanThePluginsAbiNeverReachIt) {
  KirKernel fft("fft", PHAL_KERNEL_KIND_FFT);
  fft.fft.input = fft.AddBuffer(PHAL_ELEMENT_TYPE_C64, {4, 8});
  fft.fft.output =
      fft.AddBuffer(PHAL_ELEMENT_TYPE_C64, {4, 8}, PHAL_KIR_ACCESS_WRITE);
  fft.arrays[KirKernel::kFftLength] = {8};
  phal_plugin_kernel_t* kernel = nullptr;
  ASSERT_EQ(api_->kernel_emit(device_, &fft.Desc(), nullptr, &kernel), nullptr)
      << "the cpu plugin speaks ABI 1.6 and its device reports FFT";
  api_->kernel_destroy(kernel);

  // The same plugin as if it had negotiated ABI 1.5.
  phal_plugin_api_t older = library_->api();
  older.abi_version = PHAL_MAKE_VERSION(1, 5);
  StatusOr<std::unique_ptr<ValidationLayer>> layer =
      ValidationLayer::Create(older, "cpu", logger_);
  ASSERT_TRUE(layer.ok()) << layer.status().ToString();
  const phal_plugin_api_t& table = (*layer)->table();
  phal_plugin_device_t* target = nullptr;
  ASSERT_EQ(table.target_device_open("host", &target), nullptr);
  kernel = nullptr;
  Outcome refused =
      Take(table.kernel_emit(target, &fft.Desc(), nullptr, &kernel));
  EXPECT_EQ(refused.code, PHAL_INVALID_ARGUMENT);
  EXPECT_THAT(refused.message,
              AllOf(HasSubstr("rule kernel.kind"),
                    HasSubstr("kernel 'fft' is of kind 9 (fft), which ABI 1.6 "
                              "added; the plugin negotiated ABI 1.5")));
  EXPECT_EQ(kernel, nullptr);

  phal_kernel_desc_t unknown = fft.Desc();
  unknown.kind = static_cast<phal_kernel_kind_t>(42);
  EXPECT_THAT(
      Take(table.kernel_emit(target, &unknown, nullptr, &kernel)).message,
      HasSubstr("is of kind 42 (invalid), which no ABI version "
                "defines"));
  EXPECT_EQ(kernel, nullptr);
  table.device_close(target);
}

TEST_F(CoreSideRulesTest, LaunchesBindWhatTheKernelDeclaresOnItsDevice) {
  KirKernel matmul("test_kernel", PHAL_KERNEL_KIND_DOT);
  plugin_testing::BuildMatmul(matmul, PHAL_ELEMENT_TYPE_F32,
                              PHAL_ELEMENT_TYPE_F32, 4, 4, 4);
  matmul.set_name("matmul");
  phal_plugin_kernel_t* kernel = nullptr;
  ASSERT_EQ(api_->kernel_emit(device_, &matmul.Desc(), nullptr, &kernel),
            nullptr);
  phal_plugin_buffer_t* a = Buffer(64);
  phal_plugin_buffer_t* small = Buffer(32);
  phal_plugin_buffer_t* c = Buffer(64);

  phal_plugin_buffer_t* two[] = {a, a};
  EXPECT_THAT(Take(api_->stream_launch(stream_, kernel, two, 2)).message,
              AllOf(HasSubstr("rule launch.binding"),
                    HasSubstr("2 buffers bound to kernel #")));
  phal_plugin_buffer_t* short_output[] = {a, a, small};
  Outcome too_small =
      Take(api_->stream_launch(stream_, kernel, short_output, 3));
  EXPECT_EQ(too_small.code, PHAL_OUT_OF_RANGE);
  EXPECT_THAT(too_small.message,
              AllOf(HasSubstr("buffers[2] buffer #"), HasSubstr("holds 32"),
                    HasSubstr("reads or writes 64 bytes there")));

  phal_plugin_device_t* host_target = nullptr;
  ASSERT_EQ(api_->target_device_open("host", &host_target), nullptr);
  phal_plugin_kernel_t* foreign = nullptr;
  ASSERT_EQ(api_->kernel_emit(host_target, &matmul.Desc(), nullptr, &foreign),
            nullptr);
  phal_plugin_buffer_t* three[] = {a, a, c};
  EXPECT_THAT(
      Take(api_->stream_launch(stream_, foreign, three, 3)).message,
      AllOf(HasSubstr("rule device.owner"),
            HasSubstr("lives on compile-only device of target 'host'")));
  EXPECT_EQ(api_->stream_launch(stream_, kernel, three, 3), nullptr);
  EXPECT_EQ(api_->stream_synchronize(stream_), nullptr);

  api_->kernel_destroy(foreign);
  api_->device_close(host_target);
  api_->kernel_destroy(kernel);
  for (phal_plugin_buffer_t* buffer : {a, small, c}) api_->buffer_free(buffer);
}

TEST_F(CoreSideRulesTest, DevicesOpenOnceAndBelowTheCount) {
  phal_plugin_device_t* again = nullptr;
  EXPECT_THAT(Take(api_->device_open(0, &again)).message,
              HasSubstr("rule device.reopen"));
  EXPECT_THAT(Take(api_->device_open(1000, &again)).message,
              HasSubstr("rule device.ordinal"));
  EXPECT_EQ(again, nullptr);
}

TEST_F(CoreSideRulesTest, ObjectsNotReleasedAreListedWithWhereTheyCameFrom) {
  phal_plugin_buffer_t* buffer = Buffer(4096);
  phal_plugin_event_t* event = nullptr;
  ASSERT_EQ(api_->event_create(device_, &event), nullptr);
  EXPECT_EQ(layer_->checks().ReportLeaks("phal_client_destroy"), 4u);
  EXPECT_THAT(Joined(log_lines_),
              AllOf(HasSubstr("rule lifetime.leak broken in "
                              "phal_client_destroy: 4 objects"),
                    HasSubstr("stream #2 created by stream_create(device 0"),
                    HasSubstr("buffer #3 created by buffer_allocate(device 0 "),
                    HasSubstr("memory space 0, 4096 bytes)"),
                    HasSubstr("event #4 created by event_create(")));
  api_->event_destroy(event);
  api_->buffer_free(buffer);
}

TEST_F(CoreSideRulesTest, ADeviceClosedUnderLiveObjectsListsThem) {
  api_->stream_destroy(stream_);
  stream_ = nullptr;
  phal_plugin_event_t* event = nullptr;
  ASSERT_EQ(api_->event_create(device_, &event), nullptr);
  api_->device_close(device_);
  device_ = nullptr;
  EXPECT_THAT(Joined(log_lines_),
              AllOf(HasSubstr("rule lifetime.device_close broken in "
                              "device_close: device 0 '"),
                    HasSubstr("closed with 1 of its objects never released"),
                    HasSubstr("event #3 created by event_create(device 0")));
  // The event went with its device as far as the layer knows; the plugin
  // itself still holds it.
  api_->event_destroy(event);
  EXPECT_THAT(Joined(log_lines_), HasSubstr("rule handle.unknown broken in "
                                            "event_destroy"));
  library_->api().event_destroy(event);
}

}  // namespace
}  // namespace phal
