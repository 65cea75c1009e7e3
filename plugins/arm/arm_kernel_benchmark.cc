// Throughput of the arm plugin's kernels (Vulkan; lavapipe in CI) beside the
// cpu plugin's, both driven through the plugin ABI as the core drives them,
// with the baselines measured in the same run: OpenBLAS sgemm for dots, memcpy
// for an elementwise chain (sdk/plugin_testing/kernel_benchmarks.h). Figures:
// docs/performance.md. Not run by CTest.
//
// The plugins are the libraries named by PHAL_BENCHMARK_ARM_PLUGIN and
// PHAL_BENCHMARK_CPU_PLUGIN, else the build's; a plugin that does not load
// has its benchmarks skipped with the reason.
#include <benchmark/benchmark.h>

#include "sdk/plugin_testing/kernel_benchmarks.h"

namespace phal::arm {
namespace {

plugin_testing::BenchmarkDevice* Arm() {
  static plugin_testing::BenchmarkDevice* device =
      new plugin_testing::BenchmarkDevice("PHAL_BENCHMARK_ARM_PLUGIN",
                                          PHAL_ARM_PLUGIN_PATH);
  return device;
}

PHAL_PLUGIN_KERNEL_BENCHMARKS(arm, Arm);

}  // namespace
}  // namespace phal::arm

BENCHMARK_MAIN();
