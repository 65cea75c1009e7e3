#include "sdk/plugin_testing/plugin_test.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::plugin_testing {

const phal_plugin_api_t& PluginTest::api() { return TestedPlugin().api(); }

void PluginTest::SetUp() {
  size_t count = 0;
  const char* reason = nullptr;
  ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
  if (count == 0) {
    GTEST_SKIP() << "plugin '" << api().name << "' has no device here: "
                 << (reason != nullptr ? reason : "no reason given");
  }
  ASSERT_TRUE(IsOk(api().device_open(0, &device_)));
  properties_.struct_size = sizeof(properties_);
  ASSERT_TRUE(IsOk(api().device_get_properties(device_, &properties_)));
}

void PluginTest::TearDown() {
  // Streams first: destroying one drains it, and nothing may be released
  // while queued work still uses it.
  for (phal_plugin_stream_t* stream : streams_) api().stream_destroy(stream);
  for (phal_plugin_kernel_t* kernel : kernels_) api().kernel_destroy(kernel);
  for (phal_plugin_event_t* event : events_) api().event_destroy(event);
  for (phal_plugin_buffer_t* buffer : buffers_) api().buffer_free(buffer);
  if (device_ != nullptr) api().device_close(device_);
}

phal_plugin_buffer_t* PluginTest::Allocate(uint64_t byte_size) {
  phal_plugin_buffer_t* buffer = nullptr;
  EXPECT_TRUE(IsOk(api().buffer_allocate(device_, 0, byte_size, &buffer)));
  if (buffer != nullptr) buffers_.push_back(buffer);
  return buffer;
}

phal_plugin_stream_t* PluginTest::CreateStream() {
  phal_plugin_stream_t* stream = nullptr;
  EXPECT_TRUE(IsOk(api().stream_create(device_, &stream)));
  if (stream != nullptr) streams_.push_back(stream);
  return stream;
}

phal_plugin_event_t* PluginTest::CreateEvent() {
  phal_plugin_event_t* event = nullptr;
  EXPECT_TRUE(IsOk(api().event_create(device_, &event)));
  if (event != nullptr) events_.push_back(event);
  return event;
}

phal_plugin_kernel_t* PluginTest::Emit(const phal_kernel_desc_t& desc) {
  phal_plugin_kernel_t* kernel = nullptr;
  EXPECT_TRUE(IsOk(api().kernel_emit(device_, &desc, nullptr, &kernel)));
  if (kernel != nullptr) kernels_.push_back(kernel);
  return kernel;
}

int PluginTest::Query(phal_plugin_event_t* event) {
  int done = -1;
  EXPECT_TRUE(IsOk(api().event_query(event, &done)));
  return done;
}

void PluginTest::Run(phal_plugin_kernel_t* kernel,
                     std::vector<std::vector<uint8_t>>& contents) {
  ASSERT_NE(kernel, nullptr);
  phal_plugin_stream_t* stream = CreateStream();
  ASSERT_NE(stream, nullptr);
  std::vector<phal_plugin_buffer_t*> buffers;
  for (std::vector<uint8_t>& bytes : contents) {
    phal_plugin_buffer_t* buffer = Allocate(bytes.size());
    ASSERT_NE(buffer, nullptr);
    ASSERT_TRUE(IsOk(api().stream_copy_from_host(stream, bytes.data(), buffer,
                                                 0, bytes.size())));
    buffers.push_back(buffer);
  }
  ASSERT_TRUE(IsOk(api().stream_launch(stream, kernel, buffers.data(),
                                       static_cast<uint32_t>(buffers.size()))));
  for (size_t i = 0; i < contents.size(); ++i) {
    ASSERT_TRUE(IsOk(api().stream_copy_to_host(
        stream, buffers[i], 0, contents[i].data(), contents[i].size())));
  }
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
}

}  // namespace phal::plugin_testing
