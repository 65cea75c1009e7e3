// The intel plugin through the runtime API, on whatever OpenCL device the
// machine has (PoCL's CPU device in CI): enumeration and properties,
// buffers that are not host memory, streams and events, and graceful
// absence of the ICD loader. Skipped where no OpenCL device exists.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "polyhal/runtime.h"

namespace phal::intel {
namespace {

phal_client_t* CreateIntelClient() {
  const std::string path =
      std::string(PHAL_TEST_BUILD_DIR) + "/share/polyhal/plugins.d";
  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  options.plugin_path = path.c_str();
  options.plugin_filter = "intel";
  phal_client_t* client = nullptr;
  phal_status_free(phal_client_create(&options, &client));
  return client;
}

class IntelDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    client_ = CreateIntelClient();
    ASSERT_NE(client_, nullptr);
    size_t count = 0;
    phal_status_free(phal_client_get_device_count(client_, &count));
    if (count == 0) GTEST_SKIP() << "no OpenCL device on this machine";
    ASSERT_EQ(phal_client_get_device(client_, 0, &device_), nullptr);
  }
  void TearDown() override { phal_client_destroy(client_); }

  phal_buffer_t* Allocate(phal_element_type_t type, std::vector<int64_t> dims) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    desc.element_type = type;
    desc.rank = static_cast<uint32_t>(dims.size());
    desc.dims = dims.data();
    phal_buffer_t* buffer = nullptr;
    phal_status_t* status = phal_buffer_allocate(device_, &desc, &buffer);
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
    return buffer;
  }

  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

TEST_F(IntelDevice, DescribesItsDeviceWithVendorKernelsAndNoHostAddresses) {
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  ASSERT_EQ(phal_device_get_properties(device_, &properties), nullptr);
  EXPECT_GT(std::strlen(properties.name), 0u);
  EXPECT_GT(std::strlen(properties.vendor), 0u) << "the vendor is shown";
  EXPECT_GT(std::strlen(properties.driver_version), 0u);
  EXPECT_GT(properties.compute_units, 0u);
  EXPECT_GT(properties.memory_bytes, 0u);
  EXPECT_EQ(properties.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 0u)
      << "cl_mem buffers are never host addresses";
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
  const bool fp64 = std::strstr(properties.features, "cl_khr_fp64") != nullptr;
  EXPECT_EQ((properties.element_types &
             PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_F64)) != 0,
            fp64)
      << "f64 exactly where cl_khr_fp64 is";
  EXPECT_NE(
      properties.element_types & PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_F16),
      0u);
}

TEST_F(IntelDevice, CopiesRoundTripThroughDeviceBuffers) {
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f * i - 7;
  phal_buffer_t* a = Allocate(PHAL_ELEMENT_TYPE_F32, {1000});
  phal_buffer_t* b = Allocate(PHAL_ELEMENT_TYPE_F32, {1000});
  ASSERT_EQ(phal_buffer_copy_from_host(a, 0, values.data(), 4000), nullptr);
  ASSERT_EQ(phal_buffer_copy(a, 0, b, 0, 4000), nullptr);
  std::vector<float> back(1000, 0);
  ASSERT_EQ(phal_buffer_copy_to_host(b, 400, back.data(), 3600), nullptr);
  EXPECT_EQ(std::memcmp(back.data(), values.data() + 100, 3600), 0);
  phal_buffer_free(a);
  phal_buffer_free(b);
}

TEST_F(IntelDevice, EventsOrderWorkAcrossStreams) {
  std::vector<int32_t> values(4096);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(i);
  phal_buffer_t* a = Allocate(PHAL_ELEMENT_TYPE_S32, {4096});
  phal_buffer_t* b = Allocate(PHAL_ELEMENT_TYPE_S32, {4096});
  phal_stream_t* first = nullptr;
  phal_stream_t* second = nullptr;
  phal_event_t* written = nullptr;
  ASSERT_EQ(phal_stream_create(device_, &first), nullptr);
  ASSERT_EQ(phal_stream_create(device_, &second), nullptr);
  ASSERT_EQ(phal_event_create(device_, &written), nullptr);
  int done = 0;
  ASSERT_EQ(phal_event_query(written, &done), nullptr);
  EXPECT_EQ(done, 1) << "an event never recorded counts as fired";
  ASSERT_EQ(phal_stream_copy_from_host(first, values.data(), a, 0, 16384),
            nullptr);
  ASSERT_EQ(phal_stream_record_event(first, written), nullptr);
  ASSERT_EQ(phal_stream_wait_event(second, written), nullptr);
  ASSERT_EQ(phal_stream_copy_buffer(second, a, 0, b, 0, 16384), nullptr);
  std::vector<int32_t> back(4096, -1);
  ASSERT_EQ(phal_stream_copy_to_host(second, b, 0, back.data(), 16384),
            nullptr);
  ASSERT_EQ(phal_stream_synchronize(second), nullptr);
  ASSERT_EQ(phal_event_synchronize(written), nullptr);
  EXPECT_EQ(back, values);
  phal_event_free(written);
  phal_stream_destroy(first);
  phal_stream_destroy(second);
  phal_buffer_free(a);
  phal_buffer_free(b);
}

// Run in a child process of its own (the ICD loader is opened once per
// process): exits 0 when the plugin loaded with no device and said why.
void ExitWithAbsenceVerdict() {
  setenv("PHAL_INTEL_OPENCL_LIBRARY", "libOpenCL-absent.so.1", 1);
  phal_client_t* client = CreateIntelClient();
  size_t plugins = 0, devices = 0;
  phal_status_free(phal_client_get_plugin_count(client, &plugins));
  phal_status_free(phal_client_get_device_count(client, &devices));
  phal_plugin_info_t info{};
  for (size_t i = 0; i < plugins; ++i) {
    phal_plugin_info_t candidate{};
    candidate.struct_size = sizeof(candidate);
    phal_status_free(phal_client_get_plugin_info(client, i, &candidate));
    if (std::strcmp(candidate.name, "intel") == 0) info = candidate;
  }
  const bool says_why = info.reason != nullptr &&
                        std::strstr(info.reason, "libOpenCL-absent.so.1");
  std::fprintf(stderr, "plugins %zu devices %zu state %d reason: %s\n", plugins,
               devices, static_cast<int>(info.state),
               info.reason != nullptr ? info.reason : "(null)");
  std::exit(devices == 0 && info.state == PHAL_PLUGIN_STATE_LOADED && says_why
                ? 0
                : 1);
}

TEST(IntelPluginAbsence, WithoutTheIcdLoaderItLoadsWithNoDeviceAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithAbsenceVerdict(), ::testing::ExitedWithCode(0),
              "cannot be opened");
}

}  // namespace
}  // namespace phal::intel
