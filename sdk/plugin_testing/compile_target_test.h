// A fixture for a plugin's ahead-of-time slots (plugin.h, ABI 1.4):
// compile-only devices opened by target name, and the kernels emitted or
// deserialized on them, all released after each test (kernels first). A
// plugin's test names its table once:
//
//   class AcmeTargets : public phal::plugin_testing::CompileTargetTest {
//    protected:
//     AcmeTargets() : CompileTargetTest(Api()) {}
//   };
#ifndef POLYHAL_SDK_PLUGIN_TESTING_COMPILE_TARGET_TEST_H_
#define POLYHAL_SDK_PLUGIN_TESTING_COMPILE_TARGET_TEST_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::plugin_testing {

class CompileTargetTest : public ::testing::Test {
 protected:
  // `api` outlives the fixture.
  explicit CompileTargetTest(const phal_plugin_api_t& api) : api_(api) {}

  void TearDown() override {
    for (phal_plugin_kernel_t* kernel : kernels_) api_.kernel_destroy(kernel);
    for (phal_plugin_device_t* device : devices_) api_.device_close(device);
  }

  // The compile-only device of `target` (NULL: the default), or NULL after
  // a failed expectation.
  phal_plugin_device_t* Open(const char* target) {
    phal_plugin_device_t* device = nullptr;
    EXPECT_TRUE(IsOk(api_.target_device_open(target, &device)))
        << "target " << (target != nullptr ? target : "NULL");
    if (device != nullptr) devices_.push_back(device);
    return device;
  }

  phal_device_properties_t Properties(phal_plugin_device_t* device) {
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    EXPECT_TRUE(IsOk(api_.device_get_properties(device, &properties)));
    return properties;
  }

  phal_plugin_kernel_t* EmitOn(phal_plugin_device_t* device,
                               const phal_kernel_desc_t& desc,
                               const phal_kernel_options_t* options = nullptr) {
    phal_plugin_kernel_t* kernel = nullptr;
    EXPECT_TRUE(IsOk(api_.kernel_emit(device, &desc, options, &kernel)))
        << desc.name;
    if (kernel != nullptr) kernels_.push_back(kernel);
    return kernel;
  }

  // The plugin's targets, as target_get_names lists them.
  std::vector<std::string> TargetNames() {
    const char* const* names = nullptr;
    size_t count = 0;
    EXPECT_TRUE(IsOk(api_.target_get_names(&names, &count)));
    return std::vector<std::string>(names, names + count);
  }

  // Expects the compile-only `device` to refuse buffers, streams and events
  // with FAILED_PRECONDITION saying what it cannot do, making none.
  void ExpectRefusesBuffersStreamsAndEvents(phal_plugin_device_t* device) {
    phal_plugin_buffer_t* buffer = nullptr;
    EXPECT_TRUE(HasCode(api_.buffer_allocate(device, 0, 1024, &buffer),
                        PHAL_FAILED_PRECONDITION, "allocate buffers"));
    EXPECT_EQ(buffer, nullptr);
    phal_plugin_stream_t* stream = nullptr;
    EXPECT_TRUE(HasCode(api_.stream_create(device, &stream),
                        PHAL_FAILED_PRECONDITION, "create streams"));
    EXPECT_EQ(stream, nullptr);
    phal_plugin_event_t* event = nullptr;
    EXPECT_TRUE(HasCode(api_.event_create(device, &event),
                        PHAL_FAILED_PRECONDITION, "create events"));
    EXPECT_EQ(event, nullptr);
  }

  // The status `bytes` deserialize with on `device` (NULL: OK).
  phal_status_t* Deserialize(phal_plugin_device_t* device,
                             const std::string& bytes) {
    phal_plugin_kernel_t* kernel = nullptr;
    phal_status_t* status =
        api_.kernel_deserialize(device, bytes.data(), bytes.size(), &kernel);
    if (kernel != nullptr) kernels_.push_back(kernel);
    return status;
  }

 private:
  const phal_plugin_api_t& api_;
  std::vector<phal_plugin_device_t*> devices_;
  std::vector<phal_plugin_kernel_t*> kernels_;
};

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_COMPILE_TARGET_TEST_H_
