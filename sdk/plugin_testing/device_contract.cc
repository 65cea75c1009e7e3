#include "sdk/plugin_testing/device_contract.h"

#include <cstddef>
#include <cstring>
#include <string>

#include "sdk/kir_interpreter/kir_interpreter.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/status_assertions.h"
#include "sdk/plugin_testing/test_files.h"

namespace phal::plugin_testing {
namespace {

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;

}  // namespace

std::vector<float> Ramp(int64_t n, float scale, int modulus) {
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    values[static_cast<size_t>(i)] =
        scale * static_cast<float>(i % modulus) - 2.0f;
  }
  return values;
}

std::vector<std::vector<uint8_t>> MultiplyAddOneInputs(int64_t n) {
  return {ToBytes(Ramp(n, 0.5f, 11)), ToBytes(Ramp(n, 2.0f, 5)),
          std::vector<uint8_t>(static_cast<size_t>(n) * sizeof(float), 0)};
}

namespace {

// The codes plugin.h allows for bytes that are no kernel of the plugin's.
bool IsARefusalOfBytes(phal_status_t* status) {
  StatusPtr owned(status);
  const phal_status_code_t code = StatusCode(status);
  return code == PHAL_FAILED_PRECONDITION || code == PHAL_INVALID_ARGUMENT ||
         code == PHAL_DATA_LOSS;
}

}  // namespace

bool DeviceContractTest::Supports(
    phal_kernel_kind_t kind,
    std::initializer_list<phal_element_type_t> types) const {
  if ((properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind)) == 0) {
    return false;
  }
  for (phal_element_type_t type : types) {
    if ((properties_.element_types & PHAL_ELEMENT_TYPE_BIT(type)) == 0) {
      return false;
    }
  }
  return true;
}

void DeviceContractTest::ExpectSameAsInterpreter(
    const phal_kernel_desc_t& desc,
    const std::vector<std::vector<uint8_t>>& contents) {
  phal_plugin_kernel_t* kernel = Emit(desc);
  ASSERT_NE(kernel, nullptr);
  ExpectRunMatchesInterpreter(kernel, desc, contents);
}

void DeviceContractTest::ExpectRunMatchesInterpreter(
    phal_plugin_kernel_t* kernel, const phal_kernel_desc_t& desc,
    const std::vector<std::vector<uint8_t>>& contents) {
  std::vector<std::vector<uint8_t>> expected = contents;
  StatusOr<kir_interpreter::Kernel> reference =
      kir_interpreter::Kernel::Create(desc);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  std::vector<uint8_t*> pointers;
  for (std::vector<uint8_t>& bytes : expected) pointers.push_back(bytes.data());
  ASSERT_TRUE(reference->Run(pointers).ok());
  std::vector<std::vector<uint8_t>> actual = contents;
  Run(kernel, actual);
  for (size_t b = 0; b < expected.size(); ++b) {
    EXPECT_EQ(actual[b], expected[b]) << "buffer " << b << " of " << desc.name;
  }
}

void DeviceContractTest::ExpectCopiesRoundTrip() {
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = 0.5f * static_cast<float>(i) - 7;
  }
  phal_plugin_buffer_t* a = Allocate(4000);
  phal_plugin_buffer_t* b = Allocate(4000);
  phal_plugin_stream_t* stream = CreateStream();
  ASSERT_TRUE(a != nullptr && b != nullptr && stream != nullptr);
  std::vector<float> back(1000, 0);
  ASSERT_TRUE(
      IsOk(api().stream_copy_from_host(stream, values.data(), a, 0, 4000)));
  ASSERT_TRUE(IsOk(api().stream_copy_buffer(stream, a, 0, b, 0, 4000)));
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(stream, b, 400, back.data(), 3600)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
  EXPECT_EQ(std::memcmp(back.data(), values.data() + 100, 3600), 0);
}

void DeviceContractTest::ExpectEventsOrderWorkAcrossStreams() {
  std::vector<int32_t> values(4096);
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<int32_t>(i);
  }
  phal_plugin_buffer_t* a = Allocate(16384);
  phal_plugin_buffer_t* b = Allocate(16384);
  phal_plugin_stream_t* first = CreateStream();
  phal_plugin_stream_t* second = CreateStream();
  phal_plugin_event_t* written = CreateEvent();
  ASSERT_TRUE(a != nullptr && b != nullptr && first != nullptr &&
              second != nullptr && written != nullptr);
  EXPECT_EQ(Query(written), 1) << "an event never recorded counts as fired";
  ASSERT_TRUE(
      IsOk(api().stream_copy_from_host(first, values.data(), a, 0, 16384)));
  ASSERT_TRUE(IsOk(api().stream_record_event(first, written)));
  ASSERT_TRUE(IsOk(api().stream_wait_event(second, written)));
  ASSERT_TRUE(IsOk(api().stream_copy_buffer(second, a, 0, b, 0, 16384)));
  std::vector<int32_t> back(4096, -1);
  ASSERT_TRUE(
      IsOk(api().stream_copy_to_host(second, b, 0, back.data(), 16384)));
  ASSERT_TRUE(IsOk(api().stream_synchronize(second)));
  ASSERT_TRUE(IsOk(api().event_synchronize(written)));
  EXPECT_EQ(back, values);
}

void DeviceContractTest::ExpectZeroByteBuffersAreDistinct() {
  phal_plugin_buffer_t* a = Allocate(0);
  phal_plugin_buffer_t* b = Allocate(0);
  ASSERT_NE(a, nullptr);
  EXPECT_NE(a, b);
}

void DeviceContractTest::ExpectCopiesOutsideABufferAreRefused() {
  phal_plugin_stream_t* stream = CreateStream();
  phal_plugin_buffer_t* buffer = Allocate(64);
  ASSERT_TRUE(stream != nullptr && buffer != nullptr);
  std::vector<uint8_t> bytes(32, 7);
  EXPECT_TRUE(HasCode(api().stream_copy_from_host(stream, bytes.data(), buffer,
                                                  40, bytes.size()),
                      PHAL_OUT_OF_RANGE));
  EXPECT_TRUE(HasCode(
      api().stream_copy_to_host(stream, buffer, 48, bytes.data(), bytes.size()),
      PHAL_OUT_OF_RANGE));
  EXPECT_TRUE(IsOk(api().stream_synchronize(stream)))
      << "a refused copy is refused at once, not the stream's error";
}

void DeviceContractTest::ExpectAnEventNeverRecordedHasFired() {
  phal_plugin_event_t* event = CreateEvent();
  ASSERT_NE(event, nullptr);
  EXPECT_EQ(Query(event), 1);
  EXPECT_TRUE(IsOk(api().event_synchronize(event)));
}

void DeviceContractTest::ExpectPropertiesFitAnOlderCallersStruct() {
  constexpr size_t kOlderSize = offsetof(phal_device_properties_t, kind);
  struct {
    phal_device_properties_t properties;
    unsigned char guard[64];
  } old_caller;
  std::memset(&old_caller, 0xAB, sizeof(old_caller));
  old_caller.properties.struct_size = kOlderSize;
  old_caller.properties.next = nullptr;
  ASSERT_TRUE(
      IsOk(api().device_get_properties(device_, &old_caller.properties)));
  const auto* bytes = reinterpret_cast<const unsigned char*>(&old_caller);
  for (size_t i = kOlderSize; i < sizeof(old_caller); ++i) {
    ASSERT_EQ(bytes[i], 0xAB) << "byte " << i << " was written";
  }
}

void DeviceContractTest::ExpectElementwiseLoopMatchesTheInterpreter() {
  if (!Supports(PHAL_KERNEL_KIND_LOOP, {kF32})) {
    GTEST_SKIP() << "the device compiles no f32 loop";
  }
  constexpr int64_t n = 5000;
  ExpectSameAsInterpreter(MultiplyAddOne(n).Desc(), MultiplyAddOneInputs(n));
}

void DeviceContractTest::ExpectReductionsMatchTheInterpreter() {
  if (!Supports(PHAL_KERNEL_KIND_REDUCE, {kS32})) {
    GTEST_SKIP() << "the device compiles no s32 reduction";
  }
  // 3 rows of 1000 and 1000 columns of 3: a long and a short reduction.
  for (int64_t reduced : {int64_t{1}, int64_t{0}}) {
    KirKernel reduce("sum_" + std::to_string(reduced), PHAL_KERNEL_KIND_REDUCE);
    BuildSum(reduce, kS32, {3, 1000}, {reduced});
    std::vector<int32_t> input(3000);
    for (int i = 0; i < 3000; ++i) input[i] = i % 17 - 8 + i / 1000;
    const size_t outputs = reduced == 1 ? 3 : 1000;
    ExpectSameAsInterpreter(
        reduce.Desc(), {ToBytes(input), std::vector<uint8_t>(outputs * 4)});
  }
}

void DeviceContractTest::ExpectMatmulMatchesTheInterpreter() {
  if (!Supports(PHAL_KERNEL_KIND_DOT, {kF32})) {
    GTEST_SKIP() << "the device compiles no f32 dot";
  }
  // Edges that are no multiple of any tile; small integers, so every order
  // of summation gives the same f32.
  constexpr int64_t m = 37, n = 21, k = 45;
  KirKernel dot("matmul", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(dot, kF32, kF32, m, n, k);
  ExpectSameAsInterpreter(
      dot.Desc(), {ToBytes(Ramp(m * k, 1.0f, 5)), ToBytes(Ramp(k * n, 1.0f, 3)),
                   std::vector<uint8_t>(m * n * 4)});
}

void DeviceContractTest::ExpectStableSortMatchesTheInterpreter() {
  if (!Supports(PHAL_KERNEL_KIND_SORT, {kS32})) {
    GTEST_SKIP() << "the device compiles no s32 sort";
  }
  KirKernel sort("sort", PHAL_KERNEL_KIND_SORT);
  sort.sort.is_stable = 1;
  BuildSort(sort, {kS32, kS32}, {4, 50}, 1);
  std::vector<int32_t> keys(200), values(200);
  for (int i = 0; i < 200; ++i) {
    keys[i] = (i * 7919) % 13;
    values[i] = i;
  }
  ExpectSameAsInterpreter(
      sort.Desc(), {ToBytes(keys), ToBytes(values), std::vector<uint8_t>(800),
                    std::vector<uint8_t>(800)});
}

void DeviceContractTest::ExpectASerializedKernelRunsAfterDeserializing() {
  if (!Supports(PHAL_KERNEL_KIND_LOOP, {kF32})) {
    GTEST_SKIP() << "the device compiles no f32 loop";
  }
  constexpr int64_t n = 300;
  KirKernel loop = MultiplyAddOne(n);
  phal_plugin_kernel_t* kernel = Emit(loop.Desc());
  ASSERT_NE(kernel, nullptr);
  const std::string bytes = SerializeKernel(api(), kernel);
  ASSERT_FALSE(bytes.empty());
  phal_plugin_kernel_t* copy = nullptr;
  ASSERT_TRUE(IsOk(
      api().kernel_deserialize(device_, bytes.data(), bytes.size(), &copy)));
  ExpectRunMatchesInterpreter(copy, loop.Desc(), MultiplyAddOneInputs(n));
  api().kernel_destroy(copy);
}

void DeviceContractTest::ExpectBytesThatAreNotAKernelAreRefused() {
  const std::string garbage = "not a kernel of this plugin at all";
  phal_plugin_kernel_t* refused = nullptr;
  EXPECT_TRUE(IsARefusalOfBytes(api().kernel_deserialize(
      device_, garbage.data(), garbage.size(), &refused)));
  EXPECT_EQ(refused, nullptr);
}

void DeviceContractTest::ExpectEveryTruncationOfAKernelIsRefused() {
  if (!Supports(PHAL_KERNEL_KIND_LOOP, {kF32})) {
    GTEST_SKIP() << "the device compiles no f32 loop";
  }
  KirKernel loop = MultiplyAddOne(16);
  phal_plugin_kernel_t* kernel = Emit(loop.Desc());
  ASSERT_NE(kernel, nullptr);
  const std::string bytes = SerializeKernel(api(), kernel);
  ASSERT_FALSE(bytes.empty());
  // Every length up to 256, then every 97th: the header, then the rest.
  for (size_t length = 0; length < bytes.size();
       length += length < 256 ? 1 : 97) {
    phal_plugin_kernel_t* refused = nullptr;
    EXPECT_TRUE(IsARefusalOfBytes(
        api().kernel_deserialize(device_, bytes.data(), length, &refused)))
        << length << " of " << bytes.size() << " bytes";
    EXPECT_EQ(refused, nullptr);
  }
}

void DeviceContractTest::ExpectAKernelNamingAMissingBufferIsRefused() {
  if (!Supports(PHAL_KERNEL_KIND_LOOP, {kF32})) {
    GTEST_SKIP() << "the device compiles no f32 loop";
  }
  KirKernel kernel = MultiplyAddOne(2);
  kernel.outputs = {7};  // no such buffer
  phal_plugin_kernel_t* emitted = nullptr;
  phal_status_t* status =
      api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted);
  EXPECT_TRUE(HasCode(status, PHAL_INVALID_ARGUMENT));
  EXPECT_EQ(emitted, nullptr);
}

}  // namespace phal::plugin_testing
