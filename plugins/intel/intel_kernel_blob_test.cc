// kernel_serialize and kernel_deserialize of the intel plugin, driven
// through its function table as the core drives it: a serialized kernel is
// its OpenCL C and launch shape, rebuilt on deserialize and run again; bytes
// that are not one are refused. Skipped where no OpenCL device exists.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::intel {
namespace {

using ::phal::plugin_testing::IsOk;
using ::phal::plugin_testing::ToBytes;

class IntelKernelBlob : public plugin_testing::PluginTest {
 protected:
  // out[i] = in[i] * 3 + i over s32[n].
  static void TripleAndAddIndex(KirKernel* kernel, int64_t n) {
    const uint32_t in = kernel->AddBuffer(PHAL_ELEMENT_TYPE_S32, {n});
    const uint32_t out =
        kernel->AddBuffer(PHAL_ELEMENT_TYPE_S32, {n}, PHAL_KIR_ACCESS_WRITE);
    kernel->dims = {n};
    kernel->outputs = {out};
    KirBody& b = kernel->body;
    const uint32_t i = b.Index(0);
    const uint32_t x = b.Read(PHAL_ELEMENT_TYPE_S32, in, {i});
    const uint32_t tripled = b.Add(PHAL_KIR_OP_MULTIPLY, PHAL_ELEMENT_TYPE_S32,
                                   {x, b.Constant(PHAL_ELEMENT_TYPE_S32, 3)});
    const uint32_t index =
        b.Add(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_S32, {i});
    b.AddResult(
        b.Add(PHAL_KIR_OP_ADD, PHAL_ELEMENT_TYPE_S32, {tripled, index}));
  }
};

TEST_F(IntelKernelBlob, ADeserializedKernelRunsLikeTheOriginal) {
  constexpr int64_t kCount = 300;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  TripleAndAddIndex(&kernel, kCount);
  phal_plugin_kernel_t* emitted = nullptr;
  ASSERT_TRUE(
      IsOk(api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted)));
  void* bytes = nullptr;
  uint64_t size = 0;
  ASSERT_TRUE(IsOk(api().kernel_serialize(emitted, &bytes, &size)));
  api().kernel_destroy(emitted);
  phal_plugin_kernel_t* rebuilt = nullptr;
  ASSERT_TRUE(IsOk(api().kernel_deserialize(device_, bytes, size, &rebuilt)));
  plugin_testing::FakeHost().host_free(bytes);

  std::vector<int32_t> input(kCount);
  for (int64_t i = 0; i < kCount; ++i) input[i] = static_cast<int32_t>(i - 50);
  std::vector<std::vector<uint8_t>> contents = {
      ToBytes(input), ToBytes(std::vector<int32_t>(kCount, -1))};
  Run(rebuilt, contents);
  api().kernel_destroy(rebuilt);
  const std::vector<int32_t> output =
      plugin_testing::FromBytes<int32_t>(contents[1]);
  for (int64_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(output[i], input[i] * 3 + i) << "element " << i;
  }
}

TEST_F(IntelKernelBlob, BytesThatAreNoIntelKernelAreRefused) {
  const char garbage[] = "not a kernel at all";
  phal_plugin_kernel_t* kernel = nullptr;
  EXPECT_TRUE(plugin_testing::HasCode(
      api().kernel_deserialize(device_, garbage, sizeof(garbage), &kernel),
      PHAL_FAILED_PRECONDITION));
  EXPECT_EQ(kernel, nullptr);
}

}  // namespace
}  // namespace phal::intel
