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

using plugin_testing::BM_Dot;
using plugin_testing::BM_ElementwiseChain;
using plugin_testing::BM_Memcpy;
using plugin_testing::BM_OpenBlasSgemm;
using plugin_testing::BM_RoundTrip;

plugin_testing::BenchmarkDevice* Intel() {
  static plugin_testing::BenchmarkDevice* device =
      new plugin_testing::BenchmarkDevice("PHAL_BENCHMARK_INTEL_PLUGIN",
                                          PHAL_INTEL_PLUGIN_PATH);
  return device;
}

BENCHMARK_CAPTURE(BM_Dot, intel, Intel)
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
BENCHMARK_CAPTURE(BM_ElementwiseChain, intel, Intel)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, cpu, plugin_testing::CpuPluginDevice)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK(BM_Memcpy)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
BENCHMARK_CAPTURE(BM_RoundTrip, intel, Intel)->Arg(1 << 24)->UseRealTime();

}  // namespace
}  // namespace phal::intel

BENCHMARK_MAIN();
