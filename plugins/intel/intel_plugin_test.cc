// The intel plugin through its entry point and function table, as the
// core's loader drives it, on whatever OpenCL device the machine has
// (PoCL's CPU device in CI): properties, buffers that are not host memory,
// streams and events, and graceful absence of the ICD loader. The plugin is
// loaded here once for every test of phal_plugin_intel_tests; tests that
// need a device are skipped where there is none.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::intel {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const PluginEnvironment* const kIntelPlugin =
    AddPluginEnvironment(PHAL_INTEL_PLUGIN_PATH);

using IntelDevice = PluginTest;

// Buffers, copies, streams, events and kernels as every plugin keeps them.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(IntelDeviceContract);

TEST_F(IntelDevice, DescribesItsDeviceWithVendorKernelsAndNoHostAddresses) {
  EXPECT_GT(std::strlen(properties_.name), 0u);
  EXPECT_GT(std::strlen(properties_.vendor), 0u) << "the vendor is shown";
  EXPECT_GT(std::strlen(properties_.driver_version), 0u);
  EXPECT_GT(properties_.compute_units, 0u);
  EXPECT_GT(properties_.memory_bytes, 0u);
  EXPECT_EQ(properties_.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 0u)
      << "cl_mem buffers are never host addresses";
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
  const bool fp64 = std::strstr(properties_.features, "cl_khr_fp64") != nullptr;
  EXPECT_EQ((properties_.element_types &
             PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_F64)) != 0,
            fp64)
      << "f64 exactly where cl_khr_fp64 is";
  EXPECT_NE(
      properties_.element_types & PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_F16),
      0u);
}

// Run in a child process of its own (the ICD loader is opened once per
// process, at the first device_count): exits 0 when the plugin answered
// with no device and said why.
void ExitWithAbsenceVerdict() {
  setenv("PHAL_INTEL_OPENCL_LIBRARY", "libOpenCL-absent.so.1", 1);
  size_t devices = 1;
  const char* reason = nullptr;
  const bool counted =
      IsOk(kIntelPlugin->api().device_count(&devices, &reason));
  const bool says_why =
      reason != nullptr && std::strstr(reason, "libOpenCL-absent.so.1");
  std::fprintf(stderr, "devices %zu reason: %s\n", devices,
               reason != nullptr ? reason : "(null)");
  std::filesystem::remove_all(kIntelPlugin->cache_directory());
  std::exit(counted && devices == 0 && says_why ? 0 : 1);
}

TEST(IntelPluginAbsence, WithoutTheIcdLoaderItLoadsWithNoDeviceAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithAbsenceVerdict(), ::testing::ExitedWithCode(0),
              "cannot be opened");
}

}  // namespace
}  // namespace phal::intel
