// Throughput of the reference interpreter next to plain C++ doing the same
// work, measured in the same run: an elementwise chain (add, multiply, tanh
// over 1M f32 elements) and a 256x256x256 f32 dot.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "core/frontend/hlo_parser.h"
#include "core/reference/interpreter.h"

namespace phal {
namespace {

constexpr int64_t kChainElements = 1 << 20;
constexpr int64_t kDotSize = 256;

std::unique_ptr<HloModule> ParseOrExit(std::string_view text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "bench.hlo");
  if (!module.ok()) {
    std::cerr << module.status().ToString() << "\n";
    std::exit(1);
  }
  return std::move(module).value();
}

Literal Ramp(std::vector<int64_t> dims) {
  Literal literal(Shape(PHAL_ELEMENT_TYPE_F32, std::move(dims)));
  float* data = literal.data_as<float>();
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    data[i] = static_cast<float>(i % 97) * 0.01f - 0.5f;
  }
  return literal;
}

void BM_InterpreterElementwiseChain(benchmark::State& state) {
  const std::unique_ptr<HloModule> module = ParseOrExit(
      "HloModule chain\nENTRY e {\n p = f32[1048576] parameter(0)\n"
      " a = f32[1048576] add(p, p)\n m = f32[1048576] multiply(a, p)\n"
      " ROOT t = f32[1048576] tanh(m)\n}\n");
  const std::vector<Literal> arguments = {Ramp({kChainElements})};
  for (auto _ : state) {
    StatusOr<Literal> result = Evaluate(*module, arguments);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * kChainElements);
}
BENCHMARK(BM_InterpreterElementwiseChain)->Unit(benchmark::kMillisecond);

void BM_BaselineElementwiseChain(benchmark::State& state) {
  const Literal input = Ramp({kChainElements});
  const float* p = input.data_as<float>();
  std::vector<float> out(kChainElements);
  for (auto _ : state) {
    for (int64_t i = 0; i < kChainElements; ++i) {
      const float a = p[i] + p[i];
      out[static_cast<std::size_t>(i)] = std::tanh(a * p[i]);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kChainElements);
}
BENCHMARK(BM_BaselineElementwiseChain)->Unit(benchmark::kMillisecond);

void BM_InterpreterDot256(benchmark::State& state) {
  const std::unique_ptr<HloModule> module = ParseOrExit(
      "HloModule matmul\nENTRY e {\n a = f32[256,256] parameter(0)\n"
      " b = f32[256,256] parameter(1)\n ROOT d = f32[256,256] dot(a, b), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  const std::vector<Literal> arguments = {Ramp({kDotSize, kDotSize}),
                                          Ramp({kDotSize, kDotSize})};
  for (auto _ : state) {
    StatusOr<Literal> result = Evaluate(*module, arguments);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * kDotSize * kDotSize * kDotSize);
}
BENCHMARK(BM_InterpreterDot256)->Unit(benchmark::kMillisecond);

// The textbook i-j-k triple loop accumulating in float.
void BM_BaselineNaiveDot256(benchmark::State& state) {
  const Literal a_literal = Ramp({kDotSize, kDotSize});
  const Literal b_literal = Ramp({kDotSize, kDotSize});
  const float* a = a_literal.data_as<float>();
  const float* b = b_literal.data_as<float>();
  std::vector<float> c(kDotSize * kDotSize);
  for (auto _ : state) {
    for (int64_t i = 0; i < kDotSize; ++i) {
      for (int64_t j = 0; j < kDotSize; ++j) {
        float sum = 0;
        for (int64_t k = 0; k < kDotSize; ++k) {
          sum += a[i * kDotSize + k] * b[k * kDotSize + j];
        }
        c[static_cast<std::size_t>(i * kDotSize + j)] = sum;
      }
    }
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kDotSize * kDotSize * kDotSize);
}
BENCHMARK(BM_BaselineNaiveDot256)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace phal

BENCHMARK_MAIN();
