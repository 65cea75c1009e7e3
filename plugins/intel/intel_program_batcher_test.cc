// Kernels built in batches (intel_program_batcher.h), through the plugin's
// function table as the core drives it: kernels emitted together each run
// as their own, identical kernels share a build, and a kernel that does not
// build fails alone, with the driver's build log, while the kernels of its
// batch run. Skipped where no OpenCL device exists.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::intel {
namespace {

using ::phal::plugin_testing::IsOk;
using ::phal::plugin_testing::ToBytes;
using ::phal::plugin_testing::UnaryLoopKernel;

constexpr int64_t kCount = 100;

class IntelProgramBatcher : public plugin_testing::PluginTest {
 protected:
  // out[i] = in[i] * factor over s32[kCount].
  phal_plugin_kernel_t* EmitScale(int32_t factor) {
    KirKernel kernel = UnaryLoopKernel(
        PHAL_ELEMENT_TYPE_S32, {kCount}, [&](KirBody& b, uint32_t x) {
          return b.Add(PHAL_KIR_OP_MULTIPLY, PHAL_ELEMENT_TYPE_S32,
                       {x, b.Constant(PHAL_ELEMENT_TYPE_S32,
                                      static_cast<uint32_t>(factor))});
        });
    phal_plugin_kernel_t* emitted = nullptr;
    EXPECT_TRUE(
        IsOk(api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted)));
    return emitted;
  }

  // Runs `kernel` and checks out[i] = i * factor.
  void ExpectScales(phal_plugin_kernel_t* kernel, int32_t factor) {
    std::vector<int32_t> input(kCount);
    for (int64_t i = 0; i < kCount; ++i) input[i] = static_cast<int32_t>(i);
    std::vector<std::vector<uint8_t>> contents = {
        ToBytes(input), ToBytes(std::vector<int32_t>(kCount, -1))};
    Run(kernel, contents);
    const std::vector<int32_t> output =
        plugin_testing::FromBytes<int32_t>(contents[1]);
    for (int64_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(output[i], input[i] * factor) << "factor " << factor;
    }
  }
};

TEST_F(IntelProgramBatcher, KernelsEmittedTogetherEachRunAsTheirOwn) {
  const int32_t factors[] = {2, 3, 5, 3};  // the second 3 is the same text
  std::vector<phal_plugin_kernel_t*> kernels;
  for (int32_t factor : factors) kernels.push_back(EmitScale(factor));
  // Launched in another order than emitted: the first launch builds all.
  for (size_t k = kernels.size(); k-- > 0;) {
    ExpectScales(kernels[k], factors[k]);
  }
  for (phal_plugin_kernel_t* kernel : kernels) api().kernel_destroy(kernel);
}

TEST_F(IntelProgramBatcher, AKernelDestroyedBeforeItsBatchBuiltIsLeftOut) {
  phal_plugin_kernel_t* dropped = EmitScale(7);
  phal_plugin_kernel_t* kept = EmitScale(11);
  api().kernel_destroy(dropped);
  ExpectScales(kept, 11);
  api().kernel_destroy(kept);
}

TEST_F(IntelProgramBatcher, AKernelThatDoesNotBuildFailsAloneWithTheBuildLog) {
  // A serialized kernel is its source: one whose source is broken
  // (same length, so the bytes stay well formed) reaches the batch beside a
  // sound kernel.
  phal_plugin_kernel_t* sound = EmitScale(13);
  void* data = nullptr;
  uint64_t size = 0;
  ASSERT_TRUE(IsOk(api().kernel_serialize(sound, &data, &size)));
  std::string bytes(static_cast<const char*>(data), size);
  plugin_testing::FakeHost().host_free(data);
  const std::string_view entry = "__kernel void";
  const size_t at = bytes.find(entry);
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, entry.size(), "__kernel voix");
  phal_plugin_kernel_t* broken = nullptr;
  phal_status_t* status =
      api().kernel_deserialize(device_, bytes.data(), bytes.size(), &broken);
  if (status == nullptr) {
    // Built at its first launch: the launch reports the build error.
    phal_plugin_stream_t* stream = CreateStream();
    ASSERT_NE(stream, nullptr);
    phal_plugin_buffer_t* buffers[] = {Allocate(kCount * 4),
                                       Allocate(kCount * 4)};
    status = api().stream_launch(stream, broken, buffers, 2);
    api().kernel_destroy(broken);
  }
  ASSERT_NE(status, nullptr) << "a kernel that does not build ran";
  // The driver's build log quotes the faulty line.
  EXPECT_TRUE(plugin_testing::HasCode(status, PHAL_INTERNAL, "voix"));
  ExpectScales(sound, 13);
  api().kernel_destroy(sound);
}

}  // namespace
}  // namespace phal::intel
