// kernel_serialize and kernel_deserialize of the intel plugin, driven
// through its function table as the core drives it: a serialized kernel is
// its OpenCL C and launch shape, rebuilt on deserialize and run again; bytes
// that are not one are refused. Skipped where no OpenCL device exists.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "core/loader/c_status.h"
#include "sdk/plugin_testing/kir_builder.h"
#include "polyhal/plugin.h"

namespace phal::intel {
namespace {

using plugin_testing::KirBody;
using plugin_testing::LoopKernel;

void* HostAllocate(size_t size, size_t alignment) {
  void* pointer = nullptr;
  return posix_memalign(&pointer,
                        alignment < sizeof(void*) ? sizeof(void*) : alignment,
                        size) == 0
             ? pointer
             : nullptr;
}

const phal_host_services_t kHost = {
    .struct_size = sizeof(phal_host_services_t),
    .next = nullptr,
    .status_create = HostStatusCreate,
    .log = nullptr,
    .host_allocate = HostAllocate,
    .host_free = std::free,
    .status_free = nullptr,
};

// The plugin's table at ABI 1.2, its first device and a stream.
class IntelKernelBlob : public ::testing::Test {
 protected:
  void SetUp() override {
    library_ = dlopen(PHAL_INTEL_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library_, nullptr) << dlerror();
    auto entry = reinterpret_cast<phal_plugin_entry_fn>(
        dlsym(library_, PHAL_PLUGIN_ENTRY_SYMBOL));
    ASSERT_NE(entry, nullptr);
    phal_plugin_negotiation_t negotiation{};
    negotiation.struct_size = sizeof(negotiation);
    negotiation.core_min_version = PHAL_MAKE_VERSION(1, 0);
    negotiation.core_max_version = PHAL_MAKE_VERSION(1, 2);
    negotiation.host = &kHost;
    api_ = entry(&negotiation);
    ASSERT_NE(api_, nullptr);
    size_t count = 0;
    const char* reason = nullptr;
    ASSERT_EQ(api_->device_count(&count, &reason), nullptr);
    if (count == 0) GTEST_SKIP() << "no OpenCL device: " << reason;
    ASSERT_EQ(api_->device_open(0, &device_), nullptr);
    ASSERT_EQ(api_->stream_create(device_, &stream_), nullptr);
  }

  void TearDown() override {
    if (stream_ != nullptr) api_->stream_destroy(stream_);
    if (device_ != nullptr) api_->device_close(device_);
    if (api_ != nullptr && api_->shutdown != nullptr) api_->shutdown();
    if (library_ != nullptr) dlclose(library_);
  }

  // out[i] = in[i] * 3 + i over s32[n].
  static void TripleAndAddIndex(LoopKernel* kernel, int64_t n) {
    const uint32_t in = kernel->AddBuffer(PHAL_ELEMENT_TYPE_S32, {n});
    const uint32_t out =
        kernel->AddBuffer(PHAL_ELEMENT_TYPE_S32, {n}, PHAL_KIR_ACCESS_WRITE);
    kernel->dims = {n};
    kernel->outputs = {out};
    KirBody& b = kernel->body;
    const uint32_t i = b.Index(0);
    const uint32_t x = b.Read(in, PHAL_ELEMENT_TYPE_S32, {i});
    const uint32_t tripled = b.Node(PHAL_KIR_OP_MULTIPLY, PHAL_ELEMENT_TYPE_S32,
                                    {x, b.Constant(PHAL_ELEMENT_TYPE_S32, 3)});
    const uint32_t index =
        b.Node(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_S32, {i});
    b.Result(b.Node(PHAL_KIR_OP_ADD, PHAL_ELEMENT_TYPE_S32, {tripled, index}));
  }

  void* library_ = nullptr;
  const phal_plugin_api_t* api_ = nullptr;
  phal_plugin_device_t* device_ = nullptr;
  phal_plugin_stream_t* stream_ = nullptr;
};

TEST_F(IntelKernelBlob, ADeserializedKernelRunsLikeTheOriginal) {
  constexpr int64_t kCount = 300;
  LoopKernel kernel;
  TripleAndAddIndex(&kernel, kCount);
  phal_plugin_kernel_t* emitted = nullptr;
  ASSERT_EQ(api_->kernel_emit(device_, &kernel.Desc(), nullptr, &emitted),
            nullptr);
  void* bytes = nullptr;
  uint64_t size = 0;
  ASSERT_EQ(api_->kernel_serialize(emitted, &bytes, &size), nullptr);
  api_->kernel_destroy(emitted);
  phal_plugin_kernel_t* rebuilt = nullptr;
  ASSERT_EQ(api_->kernel_deserialize(device_, bytes, size, &rebuilt), nullptr);
  std::free(bytes);

  std::vector<int32_t> input(kCount), output(kCount, -1);
  for (int64_t i = 0; i < kCount; ++i) input[i] = static_cast<int32_t>(i - 50);
  phal_plugin_buffer_t* buffers[2] = {};
  for (phal_plugin_buffer_t*& buffer : buffers) {
    ASSERT_EQ(api_->buffer_allocate(device_, 0, kCount * 4, &buffer), nullptr);
  }
  ASSERT_EQ(api_->stream_copy_from_host(stream_, input.data(), buffers[0], 0,
                                        kCount * 4),
            nullptr);
  ASSERT_EQ(api_->stream_launch(stream_, rebuilt, buffers, 2), nullptr);
  ASSERT_EQ(api_->stream_copy_to_host(stream_, buffers[1], 0, output.data(),
                                      kCount * 4),
            nullptr);
  ASSERT_EQ(api_->stream_synchronize(stream_), nullptr);
  for (int64_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(output[i], input[i] * 3 + i) << "element " << i;
  }
  for (phal_plugin_buffer_t* buffer : buffers) api_->buffer_free(buffer);
  api_->kernel_destroy(rebuilt);
}

TEST_F(IntelKernelBlob, BytesThatAreNoIntelKernelAreRefused) {
  const char garbage[] = "not a kernel at all";
  phal_plugin_kernel_t* kernel = nullptr;
  Status status = TakeCStatus(
      api_->kernel_deserialize(device_, garbage, sizeof(garbage), &kernel));
  EXPECT_EQ(status.code(), PHAL_FAILED_PRECONDITION) << status.ToString();
  EXPECT_EQ(kernel, nullptr);
}

}  // namespace
}  // namespace phal::intel
