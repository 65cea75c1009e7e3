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

using plugin_testing::BM_Dot;
using plugin_testing::BM_ElementwiseChain;
using plugin_testing::BM_Memcpy;
using plugin_testing::BM_OpenBlasSgemm;
using plugin_testing::BM_RoundTrip;

plugin_testing::BenchmarkDevice* Arm() {
  static plugin_testing::BenchmarkDevice* device =
      new plugin_testing::BenchmarkDevice("PHAL_BENCHMARK_ARM_PLUGIN",
                                          PHAL_ARM_PLUGIN_PATH);
  return device;
}

BENCHMARK_CAPTURE(BM_Dot, arm, Arm)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Dot, cpu, plugin_testing::CpuPluginDevice)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK(BM_OpenBlasSgemm)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, arm, Arm)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, cpu, plugin_testing::CpuPluginDevice)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK(BM_Memcpy)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
BENCHMARK_CAPTURE(BM_RoundTrip, arm, Arm)->Arg(1 << 24)->UseRealTime();

}  // namespace
}  // namespace phal::arm

BENCHMARK_MAIN();
