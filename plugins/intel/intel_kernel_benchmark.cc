// Throughput of the intel plugin's kernels beside the cpu plugin's, both
// driven through the plugin ABI as the core drives them, with the baselines
// of the cpu benchmark measured in the same run: OpenBLAS sgemm for dots,
// memcpy for an elementwise chain. Figures: docs/performance.md. Not run
// by CTest.
//
// The plugins are the libraries named by PHAL_BENCHMARK_INTEL_PLUGIN and
// PHAL_BENCHMARK_CPU_PLUGIN, else the build's; a plugin that does not load
// has its benchmarks skipped with the reason.
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sdk/plugin_testing/kir_builder.h"
#include "polyhal/plugin.h"

struct phal_status {
  phal_status_code_t code;
  std::string message;
};

namespace phal::intel {
namespace {

using plugin_testing::DotKernel;
using plugin_testing::KirBody;
using plugin_testing::LoopKernel;

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

phal_status_t* CreateStatus(phal_status_code_t code, const char* message) {
  return new phal_status{code, message != nullptr ? message : ""};
}

void* Allocate(size_t size, size_t alignment) {
  void* pointer = nullptr;
  return posix_memalign(&pointer,
                        alignment < sizeof(void*) ? sizeof(void*) : alignment,
                        size) == 0
             ? pointer
             : nullptr;
}

const phal_host_services_t kHost = {
    .struct_size = sizeof(phal_host_services_t),
    .next = nullptr,
    .status_create = CreateStatus,
    .log = nullptr,
    .host_allocate = Allocate,
    .host_free = std::free,
    .status_free = nullptr,
};

// Aborts the run with the plugin's message: a benchmark of a failing
// kernel measures nothing.
void Check(phal_status_t* status, const char* what) {
  if (status == nullptr) return;
  std::fprintf(stderr, "%s failed: %s\n", what, status->message.c_str());
  std::exit(1);
}

// A plugin, its first device and one stream, for the whole run.
struct Plugin {
  explicit Plugin(const char* variable, const char* built) {
    const char* configured = std::getenv(variable);
    const std::string path =
        configured != nullptr && *configured != '\0' ? configured : built;
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      error = dlerror();
      return;
    }
    auto entry = reinterpret_cast<phal_plugin_entry_fn>(
        dlsym(library, PHAL_PLUGIN_ENTRY_SYMBOL));
    phal_plugin_negotiation_t negotiation{};
    negotiation.struct_size = sizeof(negotiation);
    negotiation.core_min_version = PHAL_MAKE_VERSION(1, 1);
    negotiation.core_max_version = PHAL_MAKE_VERSION(1, 1);
    negotiation.host = &kHost;
    api = entry != nullptr ? entry(&negotiation) : nullptr;
    size_t count = 0;
    const char* reason = nullptr;
    if (api == nullptr || (api->device_count(&count, &reason), count == 0)) {
      error = path + ": no device" +
              (reason ? std::string(" (") + reason + ")" : "");
      api = nullptr;
      return;
    }
    Check(api->device_open(0, &device), "device_open");
    Check(api->stream_create(device, &stream), "stream_create");
  }

  phal_plugin_buffer_t* Upload(const std::vector<float>& values) {
    phal_plugin_buffer_t* buffer = nullptr;
    const uint64_t bytes = values.size() * sizeof(float);
    Check(api->buffer_allocate(device, 0, bytes, &buffer), "buffer_allocate");
    Check(api->stream_copy_from_host(stream, values.data(), buffer, 0, bytes),
          "copy");
    Check(api->stream_synchronize(stream), "synchronize");
    return buffer;
  }

  void Launch(phal_plugin_kernel_t* kernel,
              std::vector<phal_plugin_buffer_t*>& buffers) {
    Check(api->stream_launch(stream, kernel, buffers.data(),
                             static_cast<uint32_t>(buffers.size())),
          "stream_launch");
    Check(api->stream_synchronize(stream), "synchronize");
  }

  std::string error;
  const phal_plugin_api_t* api = nullptr;
  phal_plugin_device_t* device = nullptr;
  phal_plugin_stream_t* stream = nullptr;
};

Plugin* Intel() {
  static Plugin* plugin =
      new Plugin("PHAL_BENCHMARK_INTEL_PLUGIN", PHAL_INTEL_PLUGIN_PATH);
  return plugin;
}

Plugin* Cpu() {
  static Plugin* plugin =
      new Plugin("PHAL_BENCHMARK_CPU_PLUGIN", PHAL_CPU_PLUGIN_PATH);
  return plugin;
}

// The plugin, or NULL after telling `state` to skip.
Plugin* Usable(Plugin* plugin, benchmark::State& state) {
  if (plugin->api != nullptr) return plugin;
  state.SkipWithError(plugin->error.c_str());
  return nullptr;
}

std::vector<float> Values(size_t count) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i)
    values[i] = static_cast<float>(i % 97) / 97;
  return values;
}

// C = A B for n x n f32 matrices, row-major.
void BM_Dot(benchmark::State& state, Plugin* (*which)()) {
  Plugin* plugin = Usable(which(), state);
  if (plugin == nullptr) return;
  const int64_t n = state.range(0);
  DotKernel kernel;
  phal_kir_dot_t& dot = kernel.dot;
  dot.batch = 1;
  dot.m = dot.n = dot.k = n;
  dot.accumulation_type = kF32;
  dot.lhs_strides[0] = dot.rhs_strides[0] = n * n;
  dot.lhs_strides[1] = dot.rhs_strides[1] = n;
  dot.lhs_strides[2] = dot.rhs_strides[2] = 1;
  dot.lhs = kernel.AddBuffer(kF32, {n * n});
  dot.rhs = kernel.AddBuffer(kF32, {n * n});
  dot.output = kernel.AddBuffer(kF32, {1, n, n}, PHAL_KIR_ACCESS_WRITE);
  kernel.epilogue.Result(kernel.epilogue.Parameter(kF32, 0));
  phal_plugin_kernel_t* emitted = nullptr;
  Check(plugin->api->kernel_emit(plugin->device, &kernel.Desc(), nullptr,
                                 &emitted),
        "kernel_emit");
  std::vector<phal_plugin_buffer_t*> buffers = {
      plugin->Upload(Values(n * n)), plugin->Upload(Values(n * n)),
      plugin->Upload(std::vector<float>(n * n))};
  plugin->Launch(emitted, buffers);  // first launch: driver code generation
  for (auto _ : state) plugin->Launch(emitted, buffers);
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
  for (phal_plugin_buffer_t* buffer : buffers) plugin->api->buffer_free(buffer);
  plugin->api->kernel_destroy(emitted);
}

void BM_OpenBlasSgemm(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::vector<float> a = Values(size_t(n) * n), b = Values(size_t(n) * n);
  std::vector<float> c(size_t(n) * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
}

// out = max(x * 1.5 + 0.25, 0) * x - 2: a fused elementwise chain reading
// one f32 and writing one, so it moves the bytes a memcpy of x moves.
void BM_ElementwiseChain(benchmark::State& state, Plugin* (*which)()) {
  Plugin* plugin = Usable(which(), state);
  if (plugin == nullptr) return;
  const int64_t count = state.range(0);
  LoopKernel kernel;
  const uint32_t x = kernel.AddBuffer(kF32, {count});
  const uint32_t out = kernel.AddBuffer(kF32, {count}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {count};
  kernel.outputs = {out};
  KirBody& b = kernel.body;
  auto constant = [&](float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return b.Constant(kF32, bits);
  };
  const uint32_t value = b.Read(x, kF32, {b.Index(0)});
  const uint32_t scaled =
      b.Node(PHAL_KIR_OP_MULTIPLY, kF32, {value, constant(1.5f)});
  const uint32_t shifted =
      b.Node(PHAL_KIR_OP_ADD, kF32, {scaled, constant(0.25f)});
  const uint32_t relu =
      b.Node(PHAL_KIR_OP_MAXIMUM, kF32, {shifted, constant(0.0f)});
  const uint32_t product = b.Node(PHAL_KIR_OP_MULTIPLY, kF32, {relu, value});
  b.Result(b.Node(PHAL_KIR_OP_SUBTRACT, kF32, {product, constant(2.0f)}));
  phal_plugin_kernel_t* emitted = nullptr;
  Check(plugin->api->kernel_emit(plugin->device, &kernel.Desc(), nullptr,
                                 &emitted),
        "kernel_emit");
  std::vector<phal_plugin_buffer_t*> buffers = {
      plugin->Upload(Values(count)), plugin->Upload(std::vector<float>(count))};
  plugin->Launch(emitted, buffers);
  for (auto _ : state) plugin->Launch(emitted, buffers);
  state.SetBytesProcessed(state.iterations() * count * 2 * 4);
  for (phal_plugin_buffer_t* buffer : buffers) plugin->api->buffer_free(buffer);
  plugin->api->kernel_destroy(emitted);
}

void BM_Memcpy(benchmark::State& state) {
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<float> source = Values(count);
  std::vector<float> destination(count);
  for (auto _ : state) {
    std::memcpy(destination.data(), source.data(), count * sizeof(float));
    benchmark::DoNotOptimize(destination.data());
  }
  state.SetBytesProcessed(state.iterations() * int64_t(count) * 2 * 4);
}

// Host -> device -> host of `count` floats through the stream copies.
void BM_RoundTrip(benchmark::State& state, Plugin* (*which)()) {
  Plugin* plugin = Usable(which(), state);
  if (plugin == nullptr) return;
  const size_t count = static_cast<size_t>(state.range(0));
  const std::vector<float> source = Values(count);
  std::vector<float> back(count);
  phal_plugin_buffer_t* buffer = plugin->Upload(source);
  const uint64_t bytes = count * sizeof(float);
  for (auto _ : state) {
    Check(plugin->api->stream_copy_from_host(plugin->stream, source.data(),
                                             buffer, 0, bytes),
          "copy");
    Check(plugin->api->stream_copy_to_host(plugin->stream, buffer, 0,
                                           back.data(), bytes),
          "copy");
    Check(plugin->api->stream_synchronize(plugin->stream), "synchronize");
  }
  state.SetBytesProcessed(state.iterations() * int64_t(bytes) * 2);
  plugin->api->buffer_free(buffer);
}

BENCHMARK_CAPTURE(BM_Dot, intel, Intel)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Dot, cpu, Cpu)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->UseRealTime();
BENCHMARK(BM_OpenBlasSgemm)->Arg(256)->Arg(512)->Arg(1024)->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, intel, Intel)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_ElementwiseChain, cpu, Cpu)
    ->Arg(1 << 16)
    ->Arg(1 << 24)
    ->UseRealTime();
BENCHMARK(BM_Memcpy)->Arg(1 << 16)->Arg(1 << 24)->UseRealTime();
BENCHMARK_CAPTURE(BM_RoundTrip, intel, Intel)->Arg(1 << 24)->UseRealTime();

}  // namespace
}  // namespace phal::intel

BENCHMARK_MAIN();
