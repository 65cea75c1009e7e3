// The fixture of a plugin's device-level tests: device 0 of the plugin
// under test (plugin_environment.h) opened for each test and closed after
// it, every buffer, stream, event and kernel the test made released, and
// the plumbing of a kernel run kept out of the tests. A plugin with no
// device on this machine skips the tests, naming its reason.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_TEST_H_
#define POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_TEST_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"

namespace phal::plugin_testing {

class PluginTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  static const phal_plugin_api_t& api();

  // Each fails the test (returning NULL) when the plugin refuses, and is
  // released in TearDown.
  phal_plugin_buffer_t* Allocate(uint64_t byte_size);
  phal_plugin_stream_t* CreateStream();
  phal_plugin_event_t* CreateEvent();
  phal_plugin_kernel_t* Emit(const phal_kernel_desc_t& desc);

  // 1 if `event` has fired, 0 if not, -1 after a failed query.
  int Query(phal_plugin_event_t* event);

  // Copies contents[i] into a fresh buffer i, launches `kernel` on one
  // stream, and copies every buffer back into contents[i].
  void Run(phal_plugin_kernel_t* kernel,
           std::vector<std::vector<uint8_t>>& contents);

  phal_plugin_device_t* device_ = nullptr;
  phal_device_properties_t properties_{};

 private:
  std::vector<phal_plugin_buffer_t*> buffers_;
  std::vector<phal_plugin_stream_t*> streams_;
  std::vector<phal_plugin_event_t*> events_;
  std::vector<phal_plugin_kernel_t*> kernels_;
};

// The raw bytes of a vector of plain values, and back.
template <typename T>
std::vector<uint8_t> ToBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> FromBytes(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_PLUGIN_TEST_H_
