// Throughput of the intel plugin's kernels beside the cpu plugin's, both
// driven through the plugin ABI as the core drives them, with the
// baselines measured in the same run: OpenBLAS sgemm for dots, memcpy for
// an elementwise chain (sdk/plugin_testing/kernel_benchmarks.h). Figures:
// docs/performance.md. Not run by CTest.
//
// The plugins are the libraries named by PHAL_BENCHMARK_INTEL_PLUGIN and
// PHAL_BENCHMARK_CPU_PLUGIN, else the build's; a plugin that does not load
// has its benchmarks skipped with the reason.
#include <benchmark/benchmark.h>

#include "sdk/plugin_testing/kernel_benchmarks.h"

namespace phal::intel {
namespace {

plugin_testing::BenchmarkDevice* Intel() {
  static plugin_testing::BenchmarkDevice* device =
      new plugin_testing::BenchmarkDevice("PHAL_BENCHMARK_INTEL_PLUGIN",
                                          PHAL_INTEL_PLUGIN_PATH);
  return device;
}

PHAL_PLUGIN_KERNEL_BENCHMARKS(intel, Intel);

}  // namespace
}  // namespace phal::intel

BENCHMARK_MAIN();
