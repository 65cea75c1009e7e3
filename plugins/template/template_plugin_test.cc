// Drives the built template plugin through its exported entry point and
// function table, as the core's loader does. These are the plugin's own
// unit tests; its certification against the reference interpreter is the
// conformance run CMakeLists.txt registers. Keep them passing as each part
// is replaced by the hardware's.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/collective_contract.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"
#include "sdk/plugin_testing/virtual_device_contract.h"

namespace phal::template_plugin {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const auto* const kTemplatePlugin =
    AddPluginEnvironment(PHAL_TEMPLATE_PLUGIN_PATH);

using TemplatePluginTest = PluginTest;

// Buffers, copies, streams, events and kernels as every plugin keeps them.
// Keep these passing as each part is replaced by the hardware's.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(TemplateDeviceContract);

// PHAL_VIRTUAL_DEVICES=4 gives four distinct devices sharing host memory.
// Keep these only while your device can be shared that way.
PHAL_PLUGIN_VIRTUAL_DEVICE_TESTS(TemplateVirtualDevices);
PHAL_PLUGIN_COLLECTIVE_TESTS(TemplateCollectives);

// "acme" for libphal_plugin_acme.so: phal_add_plugin names the library
// after the plugin.
std::string PluginNameOfLibrary() {
  std::string name = TestedPlugin().library_path();
  name = name.substr(name.find_last_of('/') + 1);
  const std::string prefix = "libphal_plugin_";
  name = name.substr(prefix.size());
  return name.substr(0, name.find('.'));
}

TEST(TemplatePluginEntry, NegotiatesTheNewestVersionBothSidesSpeak) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 1), &FakeHost());
  const phal_plugin_api_t* api = TestedPlugin().entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_EQ(api->abi_version, PHAL_MAKE_VERSION(1, 1));
  EXPECT_EQ(std::string(api->name), PluginNameOfLibrary());
  EXPECT_EQ(negotiation.plugin_min_version, PHAL_MAKE_VERSION(1, 0));
  EXPECT_EQ(negotiation.plugin_max_version, PHAL_ABI_VERSION);
}

TEST(TemplatePluginEntry, AnAbi10CoreSeesNoKernelSlots) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(1, 0), PHAL_MAKE_VERSION(1, 0), &FakeHost());
  const phal_plugin_api_t* api = TestedPlugin().entry()(&negotiation);
  ASSERT_NE(api, nullptr);
  EXPECT_LE(api->struct_size, offsetof(phal_plugin_api_t, kernel_emit));
}

TEST(TemplatePluginEntry, RefusesACoreOfAnotherMajorVersion) {
  phal_plugin_negotiation_t negotiation = Negotiation(
      PHAL_MAKE_VERSION(2, 0), PHAL_MAKE_VERSION(2, 3), &FakeHost());
  EXPECT_EQ(TestedPlugin().entry()(&negotiation), nullptr);
  EXPECT_EQ(negotiation.plugin_max_version, PHAL_ABI_VERSION);
}

TEST_F(TemplatePluginTest, HasOneHostMemoryDeviceThatComputesOnEveryType) {
  size_t count = 0;
  const char* reason = "unset";
  ASSERT_TRUE(IsOk(api().device_count(&count, &reason)));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(reason, nullptr);
  EXPECT_NE(properties_.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 0u);
  EXPECT_EQ(properties_.memory_space_count, 1u);
  EXPECT_GT(properties_.memory_bytes, 0u);
  for (uint32_t type = 1; type < PHAL_ELEMENT_TYPE_COUNT; ++type) {
    EXPECT_NE(properties_.element_types & (uint64_t{1} << type), 0u)
        << "element type " << type;
  }
  phal_plugin_device_t* other = nullptr;
  EXPECT_TRUE(HasCode(api().device_open(1, &other), PHAL_INVALID_ARGUMENT));
}

TEST_F(TemplatePluginTest, EventsFireAndCarryTheErrorOfTheWorkBeforeThem) {
  phal_plugin_event_t* event = CreateEvent();
  EXPECT_EQ(Query(event), 1) << "a new event has fired";
  phal_plugin_stream_t* first = CreateStream();
  phal_plugin_stream_t* second = CreateStream();
  KirKernel kernel = MultiplyAddOne(4);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  phal_plugin_buffer_t* small = Allocate(4);
  phal_plugin_buffer_t* const too_small[] = {small, small, small};
  // The launch's buffers are smaller than the kernel's: the stream's error.
  EXPECT_FALSE(IsOk(api().stream_launch(first, emitted, too_small, 3)));
  ASSERT_TRUE(IsOk(api().stream_record_event(first, event)));
  EXPECT_EQ(Query(event), 1);
  ASSERT_TRUE(IsOk(api().stream_wait_event(second, event)));
  EXPECT_TRUE(IsOk(api().stream_synchronize(second)));
}

TEST_F(TemplatePluginTest, MalformedKernelsAreRefusedWithAMessage) {
  KirKernel kernel = MultiplyAddOne(2);
  kernel.outputs = {7};  // no such buffer
  phal_plugin_kernel_t* emitted = nullptr;
  phal_status_t* status =
      api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted);
  EXPECT_NE(status, nullptr);
  EXPECT_NE(std::string(::phal::plugin_testing::StatusMessage(status)), "");
  ::phal::plugin_testing::FreeStatus(status);
}

}  // namespace
}  // namespace phal::template_plugin
