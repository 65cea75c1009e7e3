// Throughput of the cpu plugin's kernels, driven through its ABI as the
// core drives it, with baselines measured in the same run: OpenBLAS sgemm
// for dots, memcpy for an elementwise chain (sdk/plugin_testing/
// kernel_benchmarks.h). Figures: docs/performance.md. Not run by CTest.
//
// The plugin is the library named by PHAL_BENCHMARK_CPU_PLUGIN, else the
// build's.
#include <benchmark/benchmark.h>

#include "sdk/plugin_testing/kernel_benchmarks.h"

namespace phal::cpu {
namespace {

using plugin_testing::BM_Dot;
using plugin_testing::BM_ElementwiseChain;
using plugin_testing::BM_Memcpy;
using plugin_testing::BM_OpenBlasSgemm;

// Dots whose operands a GEMM can read run on OpenBLAS's sums; the emitted
// loops are the plugin's own, for every other dot.
BENCHMARK_CAPTURE(BM_Dot, cpu, plugin_testing::CpuPluginDevice)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->UseRealTime();
BENCHMARK(BM_OpenBlasSgemm)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Dot, cpu_emitted_loops, plugin_testing::CpuPluginDevice, 2)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, cpu, plugin_testing::CpuPluginDevice)
    ->RangeMultiplier(1 << 8)
    ->Range(1 << 16, 1 << 24)
    ->UseRealTime();
BENCHMARK(BM_Memcpy)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();

}  // namespace
}  // namespace phal::cpu

BENCHMARK_MAIN();
