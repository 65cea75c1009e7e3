// Kernel throughput of any plugin, driven through its ABI as the core drives
// it (kernel_emit once, one warm-up launch for a driver's code generation,
// then stream_launch + stream_synchronize per iteration), beside baselines
// measured in the same run: OpenBLAS sgemm for dots, memcpy for an
// elementwise chain. A plugin's *_kernel_benchmark.cc registers the ones
// it wants (figures: docs/performance.md).
//
// Header-only, for benchmark binaries, which link Google Benchmark,
// OpenBLAS (cblas.h) and polyhal_plugin_testing; never run by CTest.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_KERNEL_BENCHMARKS_H_
#define POLYHAL_SDK_PLUGIN_TESTING_KERNEL_BENCHMARKS_H_

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "polyhal/plugin.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_library.h"

namespace phal::plugin_testing {

// Aborts the run with the plugin's message: a benchmark of a failing
// kernel measures nothing.
inline void CheckOrExit(phal_status_t* status, const char* what) {
  if (status == nullptr) return;
  std::fprintf(stderr, "%s failed: %s\n", what, StatusMessage(status));
  std::exit(1);
}

// A plugin's first device and one stream, for a whole run. The plugin is
// the library named by the environment variable `variable`, else
// `built_path`; one that does not load or has no device is not usable, and
// its benchmarks are skipped with error() as the reason.
class BenchmarkDevice {
 public:
  BenchmarkDevice(const char* variable, const char* built_path)
      : library_(LibraryPath(variable, built_path), PHAL_MAKE_VERSION(1, 1),
                 PHAL_MAKE_VERSION(1, 1)) {
    if (library_.api() == nullptr) {
      error_ = library_.error();
      return;
    }
    size_t count = 0;
    const char* reason = nullptr;
    CheckOrExit(api().device_count(&count, &reason), "device_count");
    if (count == 0) {
      error_ =
          "no device" + (reason != nullptr ? std::string(" (") + reason + ")"
                                           : std::string());
      return;
    }
    CheckOrExit(api().device_open(0, &device_), "device_open");
    CheckOrExit(api().stream_create(device_, &stream_), "stream_create");
  }
  BenchmarkDevice(const BenchmarkDevice&) = delete;
  BenchmarkDevice& operator=(const BenchmarkDevice&) = delete;

  // Whether the benchmark may run; otherwise tells `state` to skip it.
  bool Usable(benchmark::State& state) const {
    if (error_.empty()) return true;
    state.SkipWithError(error_.c_str());
    return false;
  }

  const phal_plugin_api_t& api() const { return *library_.api(); }
  phal_plugin_stream_t* stream() const { return stream_; }

  // A buffer holding `values`, which the caller frees.
  phal_plugin_buffer_t* Upload(const std::vector<float>& values) {
    phal_plugin_buffer_t* buffer = nullptr;
    const uint64_t bytes = values.size() * sizeof(float);
    CheckOrExit(api().buffer_allocate(device_, 0, bytes, &buffer),
                "buffer_allocate");
    CheckOrExit(
        api().stream_copy_from_host(stream_, values.data(), buffer, 0, bytes),
        "copy");
    CheckOrExit(api().stream_synchronize(stream_), "synchronize");
    return buffer;
  }

  // The kernel emitted for `desc`, which the caller destroys.
  phal_plugin_kernel_t* Emit(const phal_kernel_desc_t& desc) {
    phal_plugin_kernel_t* kernel = nullptr;
    CheckOrExit(api().kernel_emit(device_, &desc, nullptr, &kernel),
                "kernel_emit");
    return kernel;
  }

  void Launch(phal_plugin_kernel_t* kernel,
              std::vector<phal_plugin_buffer_t*>& buffers) {
    CheckOrExit(api().stream_launch(stream_, kernel, buffers.data(),
                                    static_cast<uint32_t>(buffers.size())),
                "stream_launch");
    CheckOrExit(api().stream_synchronize(stream_), "synchronize");
  }

  // Launches `kernel` once, then once per iteration of `state`; frees the
  // kernel and the buffers after.
  void Measure(benchmark::State& state, phal_plugin_kernel_t* kernel,
               std::vector<phal_plugin_buffer_t*> buffers) {
    Launch(kernel, buffers);
    for (auto _ : state) Launch(kernel, buffers);
    for (phal_plugin_buffer_t* buffer : buffers) api().buffer_free(buffer);
    api().kernel_destroy(kernel);
  }

 private:
  static std::string LibraryPath(const char* variable, const char* built_path) {
    const char* configured = std::getenv(variable);
    return configured != nullptr && *configured != '\0' ? configured
                                                        : built_path;
  }

  PluginLibrary library_;
  std::string error_;
  phal_plugin_device_t* device_ = nullptr;
  phal_plugin_stream_t* stream_ = nullptr;
};

// The device a benchmark runs on, made on first use and kept for the run.
using BenchmarkDeviceFn = BenchmarkDevice* (*)();

#ifdef PHAL_CPU_PLUGIN_PATH
// The cpu plugin's device, the baseline every plugin's kernels are measured
// beside: the library built with the tree (PHAL_CPU_PLUGIN_PATH), or the
// one $PHAL_BENCHMARK_CPU_PLUGIN names.
inline BenchmarkDevice* CpuPluginDevice() {
  static BenchmarkDevice* device =
      new BenchmarkDevice("PHAL_BENCHMARK_CPU_PLUGIN", PHAL_CPU_PLUGIN_PATH);
  return device;
}
#endif

// `count` floats in [0, 1).
inline std::vector<float> BenchmarkValues(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = static_cast<float>(i % 97) / 97;
  }
  return values;
}

inline void CountMatmulFlops(benchmark::State& state, int64_t n) {
  state.counters["GFLOPS"] =
      benchmark::Counter(2.0 * static_cast<double>(n * n * n),
                         benchmark::Counter::kIsIterationInvariantRate,
                         benchmark::Counter::kIs1000);
}

// C = A B for n x n f32 matrices (n = the argument), row-major; a
// `lhs_column_stride` of 2 spreads A's columns so that no GEMM library can
// read it, and the plugin's own loops compute it.
inline void BM_Dot(benchmark::State& state, BenchmarkDeviceFn which,
                   int64_t lhs_column_stride = 1) {
  BenchmarkDevice* device = which();
  if (!device->Usable(state)) return;
  const int64_t n = state.range(0);
  const size_t elements = static_cast<size_t>(n * n);
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(kernel, PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F32, n, n, n,
              lhs_column_stride);
  device->Measure(state, device->Emit(kernel.Desc()),
                  {device->Upload(BenchmarkValues(
                       elements * static_cast<size_t>(lhs_column_stride))),
                   device->Upload(BenchmarkValues(elements)),
                   device->Upload(std::vector<float>(elements))});
  CountMatmulFlops(state, n);
}

inline void BM_OpenBlasSgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const size_t elements = static_cast<size_t>(n) * static_cast<size_t>(n);
  const std::vector<float> a = BenchmarkValues(elements);
  const std::vector<float> b = BenchmarkValues(elements);
  std::vector<float> c(elements);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  CountMatmulFlops(state, n);
}

// out = max(x * 1.5 + 0.25, 0) * x - 2 over f32[count]: a fused
// elementwise chain that reads x once and writes out once, the bytes a
// memcpy of x moves.
inline void BuildElementwiseChain(KirKernel& kernel, int64_t count) {
  constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
  const uint32_t x = kernel.AddBuffer(kF32, {count});
  kernel.outputs = {kernel.AddBuffer(kF32, {count}, PHAL_KIR_ACCESS_WRITE)};
  kernel.dims = {count};
  KirBody& b = kernel.body;
  auto constant = [&](float value) {
    return b.Constant(kF32, std::bit_cast<uint32_t>(value));
  };
  const uint32_t value = b.Read(kF32, x, {b.Index(0)});
  const uint32_t scaled =
      b.Add(PHAL_KIR_OP_MULTIPLY, kF32, {value, constant(1.5f)});
  const uint32_t shifted =
      b.Add(PHAL_KIR_OP_ADD, kF32, {scaled, constant(0.25f)});
  const uint32_t relu =
      b.Add(PHAL_KIR_OP_MAXIMUM, kF32, {shifted, constant(0.0f)});
  const uint32_t product = b.Add(PHAL_KIR_OP_MULTIPLY, kF32, {relu, value});
  b.AddResult(b.Add(PHAL_KIR_OP_SUBTRACT, kF32, {product, constant(2.0f)}));
}

// BuildElementwiseChain over `count` elements (the argument); bytes are
// read + written.
inline void BM_ElementwiseChain(benchmark::State& state,
                                BenchmarkDeviceFn which) {
  BenchmarkDevice* device = which();
  if (!device->Usable(state)) return;
  const int64_t count = state.range(0);
  const size_t elements = static_cast<size_t>(count);
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  BuildElementwiseChain(kernel, count);
  device->Measure(state, device->Emit(kernel.Desc()),
                  {device->Upload(BenchmarkValues(elements)),
                   device->Upload(std::vector<float>(elements))});
  state.SetBytesProcessed(state.iterations() * count * 2 * 4);
}

inline void BM_Memcpy(benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<float> source = BenchmarkValues(count);
  std::vector<float> destination(count);
  for (auto _ : state) {
    std::memcpy(destination.data(), source.data(), count * sizeof(float));
    benchmark::DoNotOptimize(destination.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(count) * 2 * 4);
}

// Host -> device -> host of `count` floats (the argument) through the
// stream's copies.
inline void BM_RoundTrip(benchmark::State& state, BenchmarkDeviceFn which) {
  BenchmarkDevice* device = which();
  if (!device->Usable(state)) return;
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<float> source = BenchmarkValues(count);
  std::vector<float> back(count);
  phal_plugin_buffer_t* buffer = device->Upload(source);
  const uint64_t bytes = count * sizeof(float);
  const phal_plugin_api_t& api = device->api();
  for (auto _ : state) {
    CheckOrExit(api.stream_copy_from_host(device->stream(), source.data(),
                                          buffer, 0, bytes),
                "copy");
    CheckOrExit(api.stream_copy_to_host(device->stream(), buffer, 0,
                                        back.data(), bytes),
                "copy");
    CheckOrExit(api.stream_synchronize(device->stream()), "synchronize");
  }
  state.SetBytesProcessed(state.iterations() * int64_t(bytes) * 2);
  api.buffer_free(buffer);
}

}  // namespace phal::plugin_testing

// Registers the kernel benchmarks of a plugin that is not the cpu plugin,
// beside the cpu plugin's and the baselines, all in one run: dots of 256,
// 512 and 1024 beside cblas_sgemm, the elementwise chain on 2^16 and 2^24
// elements beside memcpy, and the host round trip. `label` names the
// plugin in the output; `device` is a BenchmarkDeviceFn for it. Needs
// PHAL_CPU_PLUGIN_PATH.
#define PHAL_PLUGIN_KERNEL_BENCHMARKS(label, device)                         \
  using ::phal::plugin_testing::BM_Dot;                                      \
  using ::phal::plugin_testing::BM_ElementwiseChain;                         \
  using ::phal::plugin_testing::BM_Memcpy;                                   \
  using ::phal::plugin_testing::BM_OpenBlasSgemm;                            \
  using ::phal::plugin_testing::BM_RoundTrip;                                \
  BENCHMARK_CAPTURE(BM_Dot, label, device)                                   \
      ->Arg(256)                                                             \
      ->Arg(512)                                                             \
      ->Arg(1024)                                                            \
      ->UseRealTime();                                                       \
  BENCHMARK_CAPTURE(BM_Dot, cpu, ::phal::plugin_testing::CpuPluginDevice)    \
      ->Arg(256)                                                             \
      ->Arg(512)                                                             \
      ->Arg(1024)                                                            \
      ->UseRealTime();                                                       \
  BENCHMARK(BM_OpenBlasSgemm)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime(); \
  BENCHMARK_CAPTURE(BM_ElementwiseChain, label, device)                      \
      ->Arg(1 << 16)                                                         \
      ->Arg(1 << 24)                                                         \
      ->UseRealTime();                                                       \
  BENCHMARK_CAPTURE(BM_ElementwiseChain, cpu,                                \
                    ::phal::plugin_testing::CpuPluginDevice)                 \
      ->Arg(1 << 16)                                                         \
      ->Arg(1 << 24)                                                         \
      ->UseRealTime();                                                       \
  BENCHMARK(BM_Memcpy)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();           \
  BENCHMARK_CAPTURE(BM_RoundTrip, label, device)->Arg(1 << 24)->UseRealTime()

#endif  // POLYHAL_SDK_PLUGIN_TESTING_KERNEL_BENCHMARKS_H_
