// Kernel kinds through the plugin's ABI 1.1 slots: loops, reduces, dots and
// copies on odd, empty and thread-splitting shapes; serialization; the
// compile caches; concurrent launches.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "sdk/kir/kernel.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/disk_cache.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::cpu {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;
constexpr phal_element_type_t kF64 = PHAL_ELEMENT_TYPE_F64;

uint64_t F32Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

std::vector<float> Iota(size_t count, float scale, float offset) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    values[i] = std::fmod(static_cast<float>(i) * scale, 17.0f) + offset;
  }
  return values;
}

// out[i] = x[i] + `addend` over [count]: a kernel whose code depends on
// `addend`, so each test can make one no cache has seen.
KirKernel AddConstantKernel(int64_t count, float addend) {
  return UnaryLoopKernel(kF32, {count}, [&](KirBody& body, uint32_t x) {
    return body.Add(PHAL_KIR_OP_ADD, kF32,
                    {x, body.Constant(kF32, F32Bits(addend))});
  });
}

using CpuKernelTest = PluginTest;

TEST_F(CpuKernelTest, DeviceReportsTheKernelKindsItCompiles) {
  EXPECT_EQ(properties_.kernel_kinds,
            kAllKernelKinds | PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT) |
                PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LINALG));
}

TEST_F(CpuKernelTest, KindFromANewerAbiFailsWithUnimplemented) {
  KirKernel holder("test_kernel", PHAL_KERNEL_KIND_LOOP);
  phal_kir_copy_t copy{};
  phal_kernel_desc_t desc = holder.Desc();
  desc.kind = static_cast<phal_kernel_kind_t>(11);  // from a newer ABI
  desc.u.copy = &copy;
  phal_plugin_kernel_t* kernel = nullptr;
  EXPECT_TRUE(HasCode(api().kernel_emit(device_, &desc, nullptr, &kernel),
                      PHAL_UNIMPLEMENTED, "kernel kind 11 is not implemented"));
}

TEST_F(CpuKernelTest, UnsupportedOpFailsWithUnimplementedNamingOpAndType) {
  KirKernel kernel = UnaryLoopKernel(
      PHAL_ELEMENT_TYPE_C64, {4}, [](KirBody& body, uint32_t x) {
        return body.Add(PHAL_KIR_OP_REMAINDER, PHAL_ELEMENT_TYPE_C64, {x, x});
      });
  phal_plugin_kernel_t* emitted = nullptr;
  EXPECT_TRUE(
      HasCode(api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted),
              PHAL_UNIMPLEMENTED, "remainder on c64"));
}

TEST_F(CpuKernelTest, MalformedBodyFailsWithInvalidArgument) {
  KirKernel kernel = AddConstantKernel(4, 1.0f);
  kernel.body.AddResult(0);  // two results for one output
  phal_plugin_kernel_t* emitted = nullptr;
  EXPECT_TRUE(
      HasCode(api().kernel_emit(device_, &kernel.Desc(), nullptr, &emitted),
              PHAL_INVALID_ARGUMENT));
}

// out[i][j] = in[j][i] * 2 + bias[j] + i: transpose, broadcast and iota are
// index arithmetic. 37 x 129 crosses the vector width and the thread split.
TEST_F(CpuKernelTest, LoopComputesTransposeBroadcastAndIotaFromIndices) {
  constexpr int64_t kRows = 37, kColumns = 129;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = kernel.AddBuffer(kF32, {kColumns, kRows});
  const uint32_t bias = kernel.AddBuffer(kF32, {kColumns});
  const uint32_t out =
      kernel.AddBuffer(kF32, {kRows, kColumns}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {kRows, kColumns};
  kernel.outputs = {out};
  KirBody& b = kernel.body;
  const uint32_t i = b.Index(0), j = b.Index(1);
  const uint32_t transposed = b.Read(kF32, in, {j, i});
  const uint32_t doubled = b.Add(PHAL_KIR_OP_MULTIPLY, kF32,
                                 {transposed, b.Constant(kF32, F32Bits(2))});
  const uint32_t biased =
      b.Add(PHAL_KIR_OP_ADD, kF32, {doubled, b.Read(kF32, bias, {j})});
  const uint32_t iota = b.Add(PHAL_KIR_OP_CONVERT, kF32, {i});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kF32, {biased, iota}));

  const std::vector<float> input = Iota(kRows * kColumns, 0.37f, -3.0f);
  const std::vector<float> biases = Iota(kColumns, 1.25f, 0.5f);
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(biases),
      ToBytes(std::vector<float>(kRows * kColumns))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<float> result = FromBytes<float>(buffers[2]);
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t c = 0; c < kColumns; ++c) {
      const float expected =
          input[c * kRows + r] * 2 + biases[c] + static_cast<float>(r);
      ASSERT_EQ(result[r * kColumns + c], expected) << r << ", " << c;
    }
  }
}

// Comparisons and clamps of the innermost index against constants (a
// pad's bounds, a shifted read, a concatenation's pieces) cut the
// innermost loop into pieces of constant bounds: every direction, the
// constant on either side, cuts on the loop's bounds and beyond them.
TEST_F(CpuKernelTest, LoopCutAtTheInnermostIndexComparisonsMatches) {
  constexpr int64_t kRows = 3, kColumns = 40;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = kernel.AddBuffer(kS32, {kRows, kColumns});
  const uint32_t out =
      kernel.AddBuffer(kS32, {kRows, kColumns}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {kRows, kColumns};
  kernel.outputs = {out};
  KirBody& b = kernel.body;
  const uint32_t i = b.Index(0), j = b.Index(1);
  const auto compare = [&](phal_kir_comparison_direction_t direction,
                           uint32_t lhs, uint32_t rhs) {
    return b.Compare(direction, PHAL_KIR_COMPARISON_SIGNED, lhs, rhs);
  };
  const uint32_t shifted = b.SubtractIndex(j, b.Index64(7));
  const std::vector<uint32_t> predicates = {
      compare(PHAL_KIR_COMPARE_GE, b.SubtractIndex(j, b.Index64(5)),
              b.Index64(0)),
      compare(PHAL_KIR_COMPARE_LE, b.AddIndex(j, b.Index64(3)), b.Index64(20)),
      compare(PHAL_KIR_COMPARE_EQ, b.Index64(17), j),
      compare(PHAL_KIR_COMPARE_NE, b.SubtractIndex(j, b.Index64(1)),
              b.Index64(30)),
      compare(PHAL_KIR_COMPARE_GT, b.Index64(25), j),
      compare(PHAL_KIR_COMPARE_LT, j, b.Index64(0)),
      compare(PHAL_KIR_COMPARE_GE, b.AddIndex(j, b.Index64(100)),
              b.Index64(40)),
  };
  uint32_t bits = b.Index64(0);
  for (size_t k = 0; k < predicates.size(); ++k) {
    bits = b.AddIndex(bits, b.Select(predicates[k], b.Index64(int64_t{1} << k),
                                     b.Index64(0)));
  }
  const uint32_t clamped =
      b.ClampIndex(2, b.SubtractIndex(j, b.Index64(4)), 33);
  const uint32_t read =
      b.Select(compare(PHAL_KIR_COMPARE_GE, shifted, b.Index64(0)),
               b.Read(kS32, in, {i, b.ClampIndex(0, shifted, kColumns - 1)}),
               b.Constant(kS32, static_cast<uint32_t>(-1)));
  const uint32_t sum = b.AddIndex(bits, b.MultiplyIndex(clamped, 256));
  b.AddResult(b.Add(
      PHAL_KIR_OP_ADD, kS32,
      {b.Convert(sum, kS32),
       b.Add(PHAL_KIR_OP_MULTIPLY, kS32, {read, b.Constant(kS32, 65536)})}));
  std::vector<int32_t> input(kRows * kColumns);
  for (size_t k = 0; k < input.size(); ++k)
    input[k] = static_cast<int32_t>(k % 97);
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(std::vector<int32_t>(kRows * kColumns))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<int32_t> result = FromBytes<int32_t>(buffers[1]);
  for (int64_t r = 0; r < kRows; ++r) {
    for (int64_t c = 0; c < kColumns; ++c) {
      const bool holds[] = {c - 5 >= 0, c + 3 <= 20, 17 == c,      c - 1 != 30,
                            25 > c,     c < 0,       c + 100 >= 40};
      int64_t expected = 0;
      for (size_t k = 0; k < std::size(holds); ++k) {
        if (holds[k]) expected += int64_t{1} << k;
      }
      expected += std::clamp<int64_t>(c - 4, 2, 33) * 256;
      expected += (c >= 7 ? input[r * kColumns + c - 7] : -1) * int64_t{65536};
      ASSERT_EQ(result[r * kColumns + c], static_cast<int32_t>(expected))
          << r << ", " << c;
    }
  }
}

TEST_F(CpuKernelTest, LoopWritesSeveralOutputsOfDifferentTypes) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t x = kernel.AddBuffer(kS32, {3, 5});
  const uint32_t sum = kernel.AddBuffer(kS32, {3, 5}, PHAL_KIR_ACCESS_WRITE);
  const uint32_t positive =
      kernel.AddBuffer(PHAL_ELEMENT_TYPE_PRED, {3, 5}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {3, 5};
  kernel.outputs = {sum, positive};
  KirBody& b = kernel.body;
  const uint32_t value = b.Read(kS32, x, {b.Index(0), b.Index(1)});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kS32, {value, value}));
  b.AddResult(b.Compare(PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARISON_SIGNED, value,
                        b.Constant(kS32, 0)));
  std::vector<int32_t> input(15);
  for (int i = 0; i < 15; ++i) input[i] = i - 7;
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(std::vector<int32_t>(15)),
      std::vector<uint8_t>(15, 7)};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<int32_t> sums = FromBytes<int32_t>(buffers[1]);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(sums[i], 2 * input[i]);
    EXPECT_EQ(buffers[2][i], input[i] > 0 ? 1 : 0) << i;
  }
}

TEST_F(CpuKernelTest, LoopOverARankZeroSpaceRunsOnce) {
  KirKernel kernel = UnaryLoopKernel(kF32, {}, [](KirBody& body, uint32_t x) {
    return body.Add(PHAL_KIR_OP_NEGATE, kF32, {x});
  });
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(std::vector<float>{2.5f}), ToBytes(std::vector<float>{0})};
  Run(Emit(kernel.Desc()), buffers);
  EXPECT_EQ(FromBytes<float>(buffers[1])[0], -2.5f);
}

TEST_F(CpuKernelTest, LoopsWithAnEmptyDimensionRunAndWriteNothing) {
  for (std::vector<int64_t> dims :
       {std::vector<int64_t>{0, 5}, std::vector<int64_t>{5, 0}}) {
    KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
    const uint32_t out = kernel.AddBuffer(kF32, dims, PHAL_KIR_ACCESS_WRITE);
    kernel.dims = dims;
    kernel.outputs = {out};
    kernel.body.AddResult(kernel.body.Constant(kF32, F32Bits(1)));
    std::vector<std::vector<uint8_t>> buffers = {{}};
    Run(Emit(kernel.Desc()), buffers);
    EXPECT_TRUE(buffers[0].empty());
  }
}

// A reduce summing `dims` over `reduced` in s32, starting from 5.
class SumReduce {
 public:
  SumReduce(std::vector<int64_t> dims, std::vector<int64_t> reduced) {
    std::vector<int64_t> output_dims;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) {
        output_dims.push_back(dims[d]);
      }
    }
    input_ = kernel.AddBuffer(kS32, dims);
    const uint32_t out =
        kernel.AddBuffer(kS32, output_dims, PHAL_KIR_ACCESS_WRITE);
    kernel.dims = dims;
    kernel.reduced_dims = reduced;
    kernel.outputs = {out};
    kernel.init.AddResult(
        kernel.init.Constant(kS32, 5));  // not neutral: seen once
    std::vector<uint32_t> indices;
    for (size_t d = 0; d < dims.size(); ++d) {
      indices.push_back(kernel.body.Index(static_cast<int64_t>(d)));
    }
    kernel.body.AddResult(kernel.body.Read(kS32, input_, indices));
    KirBody& r = kernel.reducer;
    r.AddResult(r.Add(PHAL_KIR_OP_ADD, kS32,
                      {r.Parameter(kS32, 0), r.Parameter(kS32, 1)}));
    kernel.epilogue.AddResult(kernel.epilogue.Parameter(kS32, 0));
  }
  KirKernel kernel{"test_kernel", PHAL_KERNEL_KIND_REDUCE};

 private:
  uint32_t input_ = 0;
};

std::vector<int32_t> ReferenceSum(const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& reduced) {
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  std::vector<int64_t> kept_extent;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) {
      kept_extent.push_back(dims[d]);
    }
  }
  int64_t outputs = 1;
  for (int64_t d : kept_extent) outputs *= d;
  std::vector<int32_t> sums(static_cast<size_t>(outputs), 5);
  std::vector<int64_t> index(dims.size(), 0);
  for (int64_t linear = 0; linear < total; ++linear) {
    int64_t rest = linear;
    for (size_t d = dims.size(); d-- > 0;) {
      index[d] = rest % dims[d];
      rest /= dims[d];
    }
    int64_t out = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) {
        out = out * dims[d] + index[d];
      }
    }
    sums[static_cast<size_t>(out)] += static_cast<int32_t>(linear % 7);
  }
  return sums;
}

TEST_F(CpuKernelTest, ReduceSumsOverInnerOuterMiddleAndAllDimensions) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
      cases = {{{67, 300}, {1}},       {{300, 67}, {0}},
               {{9, 31, 13}, {1}},     {{9, 31, 13}, {0, 2}},
               {{4, 5, 6}, {0, 1, 2}}, {{700, 3}, {}},
               {{5, 0}, {1}},          {{0, 5}, {1}}};
  for (const auto& [dims, reduced] : cases) {
    SumReduce reduce(dims, reduced);
    int64_t total = 1;
    for (int64_t d : dims) total *= d;
    std::vector<int32_t> input(static_cast<size_t>(total));
    for (int64_t i = 0; i < total; ++i) input[i] = static_cast<int32_t>(i % 7);
    const std::vector<int32_t> expected = ReferenceSum(dims, reduced);
    std::vector<std::vector<uint8_t>> buffers = {
        ToBytes(input), ToBytes(std::vector<int32_t>(expected.size()))};
    Run(Emit(reduce.kernel.Desc()), buffers);
    EXPECT_EQ(FromBytes<int32_t>(buffers[1]), expected)
        << "dims " << dims.size() << " reduced " << reduced.size();
  }
}

// Variadic: (max, argmax) along rows, the epilogue also yielding the mean.
TEST_F(CpuKernelTest, VariadicReduceFindsMaximumAndItsIndexWithAnEpilogue) {
  constexpr int64_t kRows = 13, kColumns = 1001;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_REDUCE);
  const uint32_t x = kernel.AddBuffer(kF32, {kRows, kColumns});
  const uint32_t max_out =
      kernel.AddBuffer(kF32, {kRows}, PHAL_KIR_ACCESS_WRITE);
  const uint32_t arg_out =
      kernel.AddBuffer(kS32, {kRows}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {kRows, kColumns};
  kernel.reduced_dims = {1};
  kernel.accumulator_count = 2;
  kernel.outputs = {max_out, arg_out};
  kernel.init.AddResult(kernel.init.Constant(kF32, F32Bits(-INFINITY)));
  kernel.init.AddResult(kernel.init.Constant(kS32, 0));
  KirBody& v = kernel.body;
  v.AddResult(v.Read(kF32, x, {v.Index(0), v.Index(1)}));
  v.AddResult(v.Add(PHAL_KIR_OP_CONVERT, kS32, {v.Index(1)}));
  KirBody& r = kernel.reducer;
  const uint32_t best = r.Parameter(kF32, 0), best_index = r.Parameter(kS32, 1);
  const uint32_t value = r.Parameter(kF32, 2), index = r.Parameter(kS32, 3);
  const uint32_t greater =
      r.Compare(PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARISON_FLOAT, value, best);
  r.AddResult(r.Add(PHAL_KIR_OP_SELECT, kF32, {greater, value, best}));
  r.AddResult(r.Add(PHAL_KIR_OP_SELECT, kS32, {greater, index, best_index}));
  KirBody& e = kernel.epilogue;
  e.AddResult(e.Add(PHAL_KIR_OP_MULTIPLY, kF32,
                    {e.Parameter(kF32, 0), e.Constant(kF32, F32Bits(10))}));
  e.AddResult(e.Parameter(kS32, 1));

  std::vector<float> input(kRows * kColumns);
  for (int64_t i = 0; i < kRows * kColumns; ++i) {
    input[i] = static_cast<float>((i * 7919) % 1009);
  }
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(std::vector<float>(kRows)),
      ToBytes(std::vector<int32_t>(kRows))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<float> maxima = FromBytes<float>(buffers[1]);
  const std::vector<int32_t> indices = FromBytes<int32_t>(buffers[2]);
  for (int64_t row = 0; row < kRows; ++row) {
    const auto begin = input.begin() + row * kColumns;
    const auto largest = std::max_element(begin, begin + kColumns);
    EXPECT_EQ(maxima[row], *largest * 10) << row;
    EXPECT_EQ(indices[row], largest - begin) << row;
  }
}

// StableHLO maximum and minimum: NaN wins, -0 < +0.
float SpecMaximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float SpecMinimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// A plain maximum or minimum along a long contiguous row runs in lanes of
// partial results: rows of every length around the lane count, NaNs at the
// start, middle and end, rows of signed zeros only, an init value that is
// not the identity (5, which all but some rows exceed), and a reduction
// over the middle of three dimensions (not contiguous: index order).
TEST_F(CpuKernelTest, MaximumAndMinimumReductionsInLanesMatchIndexOrder) {
  for (const phal_kir_op_t op : {PHAL_KIR_OP_MAXIMUM, PHAL_KIR_OP_MINIMUM}) {
    for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
             {12, 31}, {12, 32}, {12, 33}, {12, 47}, {12, 1000}, {3, 40, 5}}) {
      const bool middle = dims.size() == 3;
      const int64_t rows = middle ? dims[0] * dims[2] : dims[0];
      const int64_t length = middle ? dims[1] : dims[1];
      KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_REDUCE);
      const uint32_t x = kernel.AddBuffer(kF32, dims);
      const uint32_t out =
          kernel.AddBuffer(kF32, {rows}, PHAL_KIR_ACCESS_WRITE);
      kernel.dims = dims;
      kernel.reduced_dims = {1};
      kernel.accumulator_count = 1;
      kernel.outputs = {out};
      kernel.init.AddResult(kernel.init.Constant(kF32, F32Bits(5.0f)));
      KirBody& v = kernel.body;
      std::vector<uint32_t> index;
      for (size_t d = 0; d < dims.size(); ++d) {
        index.push_back(v.Index(static_cast<int64_t>(d)));
      }
      v.AddResult(v.Read(kF32, x, index));
      KirBody& r = kernel.reducer;
      r.AddResult(
          r.Add(op, kF32, {r.Parameter(kF32, 0), r.Parameter(kF32, 1)}));
      KirBody& e = kernel.epilogue;
      e.AddResult(e.Parameter(kF32, 0));

      int64_t total = 1;
      for (int64_t d : dims) total *= d;
      std::vector<float> input(static_cast<size_t>(total));
      for (int64_t i = 0; i < total; ++i) {
        input[i] = static_cast<float>((i * 7919) % 1009) - 500.0f;
      }
      auto at = [&](int64_t row, int64_t j) -> float& {
        return middle ? input[((row / dims[2]) * dims[1] + j) * dims[2] +
                              row % dims[2]]
                      : input[row * length + j];
      };
      at(1, 0) = NAN;
      at(2, length / 2) = NAN;
      at(3, length - 1) = NAN;
      for (int64_t j = 0; j < length; ++j) at(4, j) = (j % 3) ? -0.0f : 0.0f;
      for (int64_t j = 0; j < length; ++j) at(5, j) = -0.0f;
      std::vector<std::vector<uint8_t>> buffers = {
          ToBytes(input), ToBytes(std::vector<float>(rows))};
      Run(Emit(kernel.Desc()), buffers);
      const std::vector<float> results = FromBytes<float>(buffers[1]);
      for (int64_t row = 0; row < rows; ++row) {
        float expected = 5.0f;
        for (int64_t j = 0; j < length; ++j) {
          expected = op == PHAL_KIR_OP_MAXIMUM
                         ? SpecMaximum(expected, at(row, j))
                         : SpecMinimum(expected, at(row, j));
        }
        EXPECT_EQ(F32Bits(results[row]), F32Bits(expected))
            << (op == PHAL_KIR_OP_MAXIMUM ? "maximum" : "minimum") << " row "
            << row << " of " << dims.size() << "-d length " << length << ": "
            << results[row] << " != " << expected;
      }
    }
  }
}

// The signed integer that orders f32 bits as the total order does.
int32_t TotalOrderKey(uint32_t bits) {
  return static_cast<int32_t>((bits & 0x80000000u) != 0 ? bits ^ 0x7FFFFFFFu
                                                        : bits);
}

// A select of the better of two values in the total order (top-k's block
// reducer) also runs in lanes: every way round of compare and select, rows
// with NaNs of both signs and several payloads, infinities and signed
// zeros, matching the reducer applied in index order bit for bit.
TEST_F(CpuKernelTest, TotalOrderSelectReductionsInLanesMatchIndexOrder) {
  struct Form {
    phal_kir_comparison_direction_t direction;
    bool swapped;  // select(compare(a, b), b, a)
  };
  const uint32_t specials[] = {
      0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7F800000u,
      0xFF800000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u};
  for (const Form form :
       {Form{PHAL_KIR_COMPARE_GT, false}, Form{PHAL_KIR_COMPARE_GE, false},
        Form{PHAL_KIR_COMPARE_LT, false}, Form{PHAL_KIR_COMPARE_GT, true}}) {
    for (const int64_t length : {31, 32, 33, 64, 1000}) {
      const int64_t rows = 14;
      KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_REDUCE);
      const uint32_t x = kernel.AddBuffer(kF32, {rows, length});
      const uint32_t out =
          kernel.AddBuffer(kF32, {rows}, PHAL_KIR_ACCESS_WRITE);
      kernel.dims = {rows, length};
      kernel.reduced_dims = {1};
      kernel.accumulator_count = 1;
      kernel.outputs = {out};
      kernel.init.AddResult(kernel.init.Constant(kF32, F32Bits(0.5f)));
      KirBody& v = kernel.body;
      v.AddResult(v.Read(kF32, x, {v.Index(0), v.Index(1)}));
      KirBody& r = kernel.reducer;
      const uint32_t a = r.Parameter(kF32, 0);
      const uint32_t b = r.Parameter(kF32, 1);
      const uint32_t better =
          r.Compare(form.direction, PHAL_KIR_COMPARISON_TOTALORDER, a, b);
      r.AddResult(form.swapped ? r.Select(better, b, a)
                               : r.Select(better, a, b));
      KirBody& e = kernel.epilogue;
      e.AddResult(e.Parameter(kF32, 0));

      std::vector<uint32_t> input(static_cast<size_t>(rows * length));
      for (size_t i = 0; i < input.size(); ++i) {
        input[i] = F32Bits(static_cast<float>((i * 7919) % 1009) - 500.0f);
      }
      // Row r >= 2 holds specials[r - 2] at a position that moves along.
      for (int64_t row = 2; row < rows - 2; ++row) {
        input[static_cast<size_t>(row * length + (row * 13) % length)] =
            specials[row - 2];
      }
      for (int64_t j = 0; j < length; ++j) {
        input[static_cast<size_t>((rows - 2) * length + j)] =
            j % 2 ? 0x80000000u : 0u;
        input[static_cast<size_t>((rows - 1) * length + j)] = specials[j % 10];
      }
      std::vector<std::vector<uint8_t>> buffers = {
          ToBytes(input), ToBytes(std::vector<float>(rows))};
      Run(Emit(kernel.Desc()), buffers);
      const std::vector<uint32_t> results = FromBytes<uint32_t>(buffers[1]);
      for (int64_t row = 0; row < rows; ++row) {
        uint32_t expected = F32Bits(0.5f);
        for (int64_t j = 0; j < length; ++j) {
          const uint32_t value = input[static_cast<size_t>(row * length + j)];
          const int32_t left = TotalOrderKey(expected);
          const int32_t right = TotalOrderKey(value);
          bool taken = false;
          switch (form.direction) {
            case PHAL_KIR_COMPARE_GT:
              taken = left > right;
              break;
            case PHAL_KIR_COMPARE_GE:
              taken = left >= right;
              break;
            default:
              taken = left < right;
              break;
          }
          if (form.swapped) taken = !taken;
          expected = taken ? expected : value;
        }
        EXPECT_EQ(results[row], expected)
            << "direction " << form.direction
            << (form.swapped ? " swapped" : "") << " row " << row << " length "
            << length;
      }
    }
  }
}

// C = relu(A B + bias[n]) with A [b, m, k] and B [b, k, n] as `lhs_strides`
// and `rhs_strides` lay them out.
struct DotCase {
  int64_t batch, m, n, k;
  bool lhs_transposed, rhs_transposed;
  int64_t lhs_column_stride;  // 1 for a dense layout; 2 defeats the GEMM
};

std::vector<float> ReferenceDot(const DotCase& c, const std::vector<float>& a,
                                const std::vector<float>& b, const int64_t* ls,
                                const int64_t* rs,
                                const std::vector<float>& bias) {
  std::vector<float> out(static_cast<size_t>(c.batch * c.m * c.n));
  for (int64_t batch = 0; batch < c.batch; ++batch) {
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          sum +=
              static_cast<double>(a[batch * ls[0] + i * ls[1] + kk * ls[2]]) *
              b[batch * rs[0] + kk * rs[1] + j * rs[2]];
        }
        out[(batch * c.m + i) * c.n + j] =
            std::max(0.0f, static_cast<float>(sum) + bias[j]);
      }
    }
  }
  return out;
}

class DotTest : public PluginTest {
 protected:
  // `zero_unit_strides`: the stride of an extent of 1 (A's rows when m is
  // 1, B's columns when n is 1) is 0, as the compiler writes it.
  void Check(const DotCase& c, bool zero_unit_strides = false) {
    KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_DOT);
    phal_kir_dot_t& dot = kernel.dot;
    dot.batch = c.batch;
    dot.m = c.m;
    dot.n = c.n;
    dot.k = c.k;
    dot.accumulation_type = kF32;
    const int64_t lhs_stride = c.lhs_column_stride;
    // Row-major [b, m, k] (or [b, k, m] when transposed), columns spaced by
    // lhs_stride.
    if (c.lhs_transposed) {
      dot.lhs_strides[1] = 1;
      dot.lhs_strides[2] = c.m;
    } else {
      dot.lhs_strides[1] = c.k * lhs_stride;
      dot.lhs_strides[2] = lhs_stride;
    }
    dot.lhs_strides[0] = c.m * c.k * lhs_stride;
    if (c.rhs_transposed) {
      dot.rhs_strides[1] = 1;
      dot.rhs_strides[2] = c.k;
    } else {
      dot.rhs_strides[1] = c.n;
      dot.rhs_strides[2] = 1;
    }
    dot.rhs_strides[0] = c.k * c.n;
    if (zero_unit_strides && c.m == 1) dot.lhs_strides[1] = 0;
    if (zero_unit_strides && c.n == 1) dot.rhs_strides[2] = 0;
    const int64_t lhs_size =
        std::max<int64_t>(1, c.batch * c.m * c.k * lhs_stride);
    const int64_t rhs_size = std::max<int64_t>(1, c.batch * c.k * c.n);
    dot.lhs = kernel.AddBuffer(kF32, {lhs_size});
    dot.rhs = kernel.AddBuffer(kF32, {rhs_size});
    const uint32_t bias = kernel.AddBuffer(kF32, {c.n});
    dot.output =
        kernel.AddBuffer(kF32, {c.batch, c.m, c.n}, PHAL_KIR_ACCESS_WRITE);
    KirBody& e = kernel.body;
    const uint32_t biased =
        e.Add(PHAL_KIR_OP_ADD, kF32,
              {e.Parameter(kF32, 0), e.Read(kF32, bias, {e.Index(2)})});
    e.AddResult(
        e.Add(PHAL_KIR_OP_MAXIMUM, kF32, {biased, e.Constant(kF32, 0)}));

    const std::vector<float> a = Iota(lhs_size, 0.731f, -8.0f);
    const std::vector<float> b = Iota(rhs_size, 1.377f, -8.5f);
    const std::vector<float> biases = Iota(c.n, 3.1f, -4.0f);
    const std::vector<float> expected =
        ReferenceDot(c, a, b, dot.lhs_strides, dot.rhs_strides, biases);
    std::vector<std::vector<uint8_t>> buffers = {
        ToBytes(a), ToBytes(b), ToBytes(biases),
        ToBytes(std::vector<float>(expected.size()))};
    Run(Emit(kernel.Desc()), buffers);
    const std::vector<float> result = FromBytes<float>(buffers[3]);
    ASSERT_EQ(result.size(), expected.size());
    // Sums of k products of magnitude <= 9 * 9, accumulated in f32.
    const float tolerance = 1e-6f * 81.0f * static_cast<float>(c.k) + 1e-6f;
    for (size_t i = 0; i < result.size(); ++i) {
      ASSERT_NEAR(result[i], expected[i], tolerance * 4)
          << "element " << i << " of " << c.batch << "x" << c.m << "x" << c.n
          << "x" << c.k;
    }
  }
};

TEST_F(DotTest, F32DotsThroughTheGemmMatchAReference) {
  Check({1, 1, 1, 1, false, false, 1});
  Check({2, 33, 17, 65, false, false, 1});
  Check({3, 7, 9, 5, true, false, 1});
  Check({1, 19, 23, 11, false, true, 1});
  Check({1, 200, 130, 150, true, true, 1});
}

// Each batch's sums are cut into blocks of rows, one GEMM per pool task;
// the last block is shorter than the others.
TEST_F(DotTest, F32DotsCutIntoRowBlocksMatchAReference) {
  Check({2, 300, 90, 120, false, false, 1});
  Check({1, 257, 64, 300, true, true, 1});
}

// A single row is cut into blocks of columns instead.
TEST_F(DotTest, F32VectorMatrixDotsCutIntoColumnBlocksMatchAReference) {
  Check({1, 1, 5000, 300, false, false, 1});
  Check({2, 1, 4097, 257, true, true, 1});
}

// Attention at decode time: one query row per head against a cache whose
// rows the compiler gives stride 0 (m = 1), and matrix-vector products
// (n = 1), in both layouts.
TEST_F(DotTest, DotsOfOneRowOrColumnWithZeroStridesMatchAReference) {
  Check({16, 1, 2048, 64, false, true, 1}, true);
  Check({3, 1, 300, 70, true, false, 1}, true);
  Check({2, 90, 1, 130, false, false, 1}, true);
  Check({2, 90, 1, 130, true, true, 1}, true);
  Check({1, 1, 1, 40, false, false, 1}, true);
}

TEST_F(DotTest, F32DotsWithStridesNoGemmTakesAreComputedInTheKernel) {
  Check({2, 13, 29, 31, false, false, 2});
}

TEST_F(DotTest, DotsWithAnEmptyExtentRun) {
  Check({1, 5, 6, 0, false, false, 1});
  Check({1, 0, 6, 3, false, false, 1});
  Check({0, 4, 6, 3, false, false, 1});
}

// The GEMMs flush denormal products to zero, as XLA:CPU does (an error of
// at most 2^-126 per product, inside a dot's absolute tolerance); the
// calling thread's float mode is left as it was, so an elementwise kernel
// run on it afterwards still keeps a denormal.
TEST_F(CpuKernelTest, GemmsFlushDenormalsAndElementwiseKernelsKeepThem) {
  constexpr int64_t kSide = 96;
  const float denormal = std::numeric_limits<float>::denorm_min() * 4096;
  KirKernel dot_kernel("test_kernel", PHAL_KERNEL_KIND_DOT);
  phal_kir_dot_t& dot = dot_kernel.dot;
  dot.batch = 1;
  dot.m = dot.n = dot.k = kSide;
  dot.accumulation_type = kF32;
  dot.lhs_strides[0] = dot.rhs_strides[0] = kSide * kSide;
  dot.lhs_strides[1] = dot.rhs_strides[1] = kSide;
  dot.lhs_strides[2] = dot.rhs_strides[2] = 1;
  dot.lhs = dot_kernel.AddBuffer(kF32, {kSide * kSide});
  dot.rhs = dot_kernel.AddBuffer(kF32, {kSide * kSide});
  dot.output =
      dot_kernel.AddBuffer(kF32, {1, kSide, kSide}, PHAL_KIR_ACCESS_WRITE);
  dot_kernel.body.AddResult(dot_kernel.body.Parameter(kF32, 0));
#if defined(__x86_64__)
  const unsigned mode_before = _mm_getcsr();
#endif
  std::vector<std::vector<uint8_t>> dot_buffers = {
      ToBytes(std::vector<float>(kSide * kSide, denormal)),
      ToBytes(std::vector<float>(kSide * kSide, 0.5f)),
      ToBytes(std::vector<float>(kSide * kSide, -1.0f))};
  Run(Emit(dot_kernel.Desc()), dot_buffers);
  for (float sum : FromBytes<float>(dot_buffers[2])) {
    ASSERT_NEAR(sum, denormal * 0.5f * kSide, 1e-37f);
  }
#if defined(__x86_64__)
  EXPECT_EQ(_mm_getcsr(), mode_before) << "the caller's MXCSR changed";
#endif

  KirKernel loop("test_kernel", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kF32, {kSide});
  const uint32_t out = loop.AddBuffer(kF32, {kSide}, PHAL_KIR_ACCESS_WRITE);
  loop.dims = {kSide};
  loop.outputs = {out};
  KirBody& b = loop.body;
  b.AddResult(
      b.Add(PHAL_KIR_OP_MULTIPLY, kF32,
            {b.Read(kF32, in, {b.Index(0)}), b.Constant(kF32, F32Bits(0.5f))}));
  std::vector<std::vector<uint8_t>> loop_buffers = {
      ToBytes(std::vector<float>(kSide, denormal)),
      ToBytes(std::vector<float>(kSide))};
  Run(Emit(loop.Desc()), loop_buffers);
  for (float half : FromBytes<float>(loop_buffers[1])) {
    ASSERT_EQ(half, denormal * 0.5f);
  }
}

TEST_F(CpuKernelTest, IntegerDotWithConvertedOperandsIsExact) {
  constexpr int64_t kM = 21, kN = 34, kK = 55;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(kernel, PHAL_ELEMENT_TYPE_S8, kS32, kM, kN, kK);
  std::vector<int8_t> a(kM * kK), b(kK * kN);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = static_cast<int8_t>(i * 37 - 100);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(i * 91 + 3);
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(a), ToBytes(b), ToBytes(std::vector<int32_t>(kM * kN))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<int32_t> result = FromBytes<int32_t>(buffers[2]);
  for (int64_t i = 0; i < kM; ++i) {
    for (int64_t j = 0; j < kN; ++j) {
      int32_t sum = 0;
      for (int64_t k = 0; k < kK; ++k) sum += a[i * kK + k] * b[k * kN + j];
      ASSERT_EQ(result[i * kN + j], sum) << i << ", " << j;
    }
  }
}

TEST_F(CpuKernelTest, CopyMovesEveryByteAcrossChunks) {
  constexpr int64_t kBytes = 3 * (int64_t{1} << 20) + 5;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_COPY);
  kernel.copy.source = kernel.AddBuffer(PHAL_ELEMENT_TYPE_U8, {kBytes});
  kernel.copy.destination =
      kernel.AddBuffer(PHAL_ELEMENT_TYPE_U8, {kBytes}, PHAL_KIR_ACCESS_WRITE);
  std::vector<uint8_t> source(kBytes);
  for (int64_t i = 0; i < kBytes; ++i)
    source[i] = static_cast<uint8_t>(i * 13 + 1);
  std::vector<std::vector<uint8_t>> buffers = {source,
                                               std::vector<uint8_t>(kBytes)};
  Run(Emit(kernel.Desc()), buffers);
  EXPECT_EQ(buffers[1], source);
}

// f32 keys in TOTALORDER (NaN last, -0 before +0) carrying s32 values,
// along the inner dimension of a [rows, columns] pair, in place.
TEST_F(CpuKernelTest, SortOrdersKeysAndCarriesValuesAlong) {
  constexpr int64_t kRows = 300, kColumns = 129;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SORT);
  const uint32_t keys =
      kernel.AddBuffer(kF32, {kRows, kColumns}, PHAL_KIR_ACCESS_READ_WRITE);
  const uint32_t values =
      kernel.AddBuffer(kS32, {kRows, kColumns}, PHAL_KIR_ACCESS_READ_WRITE);
  kernel.operands = {keys, values};
  kernel.outputs = {keys, values};
  kernel.sort.dimension = 1;
  kernel.sort.is_stable = 1;
  KirBody& c = kernel.reducer;
  const uint32_t left = c.Parameter(kF32, 0), right = c.Parameter(kF32, 1);
  c.Parameter(kS32, 2);
  c.Parameter(kS32, 3);
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_TOTALORDER,
                        left, right));
  std::vector<float> key_data(kRows * kColumns);
  std::vector<int32_t> value_data(kRows * kColumns);
  for (int64_t i = 0; i < kRows * kColumns; ++i) {
    key_data[i] = static_cast<float>((i * 7919) % 37) - 18.0f;
    value_data[i] = static_cast<int32_t>(i % kColumns);
  }
  key_data[5] = NAN;
  key_data[6] = -0.0f;
  key_data[7] = 0.0f;
  std::vector<std::vector<uint8_t>> buffers = {ToBytes(key_data),
                                               ToBytes(value_data)};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<float> sorted_keys = FromBytes<float>(buffers[0]);
  const std::vector<int32_t> sorted_values = FromBytes<int32_t>(buffers[1]);
  for (int64_t row = 0; row < kRows; ++row) {
    // The expected row: a stable sort of (key, original column) pairs.
    std::vector<std::pair<float, int32_t>> expected;
    for (int64_t column = 0; column < kColumns; ++column) {
      expected.push_back({key_data[row * kColumns + column],
                          value_data[row * kColumns + column]});
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) {
                       if (std::isnan(a.first)) return false;
                       if (std::isnan(b.first)) return true;
                       if (a.first == b.first) {
                         return std::signbit(a.first) && !std::signbit(b.first);
                       }
                       return a.first < b.first;
                     });
    for (int64_t column = 0; column < kColumns; ++column) {
      const float got = sorted_keys[row * kColumns + column];
      ASSERT_TRUE(std::memcmp(&got, &expected[column].first, 4) == 0 ||
                  (std::isnan(got) && std::isnan(expected[column].first)))
          << row << ", " << column;
      ASSERT_EQ(sorted_values[row * kColumns + column], expected[column].second)
          << row << ", " << column;
    }
  }
}

// Top-k's ranking: f32 values descending in TOTALORDER, equal ones by their
// s32 index ascending (a two-key sort, radix-sorted by 64-bit keys) over
// rows long and short, with NaNs of both signs, infinities, signed zeros,
// repeated values and repeated indices.
TEST_F(CpuKernelTest, SortByValueThenIndexRanksLikeTopK) {
  for (const int64_t columns : {7, 64, 1000}) {
    constexpr int64_t kRows = 6;
    KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SORT);
    const uint32_t keys =
        kernel.AddBuffer(kF32, {kRows, columns}, PHAL_KIR_ACCESS_READ_WRITE);
    const uint32_t indices =
        kernel.AddBuffer(kS32, {kRows, columns}, PHAL_KIR_ACCESS_READ_WRITE);
    kernel.operands = {keys, indices};
    kernel.outputs = {keys, indices};
    kernel.sort.dimension = 1;
    kernel.sort.is_stable = 0;
    KirBody& c = kernel.reducer;
    const uint32_t a = c.Parameter(kF32, 0), b = c.Parameter(kF32, 1);
    const uint32_t i = c.Parameter(kS32, 2), j = c.Parameter(kS32, 3);
    const uint32_t better =
        c.Compare(PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARISON_TOTALORDER, a, b);
    const uint32_t lower =
        c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED, i, j);
    const uint32_t equal =
        c.Compare(PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARISON_TOTALORDER, a, b);
    c.AddResult(c.Add(PHAL_KIR_OP_OR, PHAL_ELEMENT_TYPE_PRED,
                      {better, c.Add(PHAL_KIR_OP_AND, PHAL_ELEMENT_TYPE_PRED,
                                     {equal, lower})}));
    const uint32_t specials[] = {0x7FC00000u, 0xFFC00000u, 0x7F800000u,
                                 0xFF800000u, 0x00000000u, 0x80000000u};
    std::vector<uint32_t> key_data(static_cast<size_t>(kRows * columns));
    std::vector<int32_t> index_data(key_data.size());
    for (size_t e = 0; e < key_data.size(); ++e) {
      key_data[e] =
          e % 11 == 3 ? specials[e % 6]
                      : F32Bits(static_cast<float>(
                                    static_cast<int64_t>(e * 7919 % 23) - 11) *
                                0.37f);
      index_data[e] = static_cast<int32_t>((e * 31) % 17);
    }
    std::vector<std::vector<uint8_t>> buffers = {ToBytes(key_data),
                                                 ToBytes(index_data)};
    Run(Emit(kernel.Desc()), buffers);
    const std::vector<uint32_t> got_keys = FromBytes<uint32_t>(buffers[0]);
    const std::vector<int32_t> got_indices = FromBytes<int32_t>(buffers[1]);
    for (int64_t row = 0; row < kRows; ++row) {
      std::vector<std::pair<uint32_t, int32_t>> expected;
      for (int64_t column = 0; column < columns; ++column) {
        const auto e = static_cast<size_t>(row * columns + column);
        expected.push_back({key_data[e], index_data[e]});
      }
      // Entries equal in both keys are identical, so any sort gives the
      // same row.
      std::sort(expected.begin(), expected.end(),
                [](const auto& x, const auto& y) {
                  const int32_t kx = TotalOrderKey(x.first);
                  const int32_t ky = TotalOrderKey(y.first);
                  return kx != ky ? kx > ky : x.second < y.second;
                });
      for (int64_t column = 0; column < columns; ++column) {
        const auto e = static_cast<size_t>(row * columns + column);
        ASSERT_EQ(got_keys[e], expected[static_cast<size_t>(column)].first)
            << columns << " columns, row " << row << ", " << column;
        ASSERT_EQ(got_indices[e], expected[static_cast<size_t>(column)].second)
            << columns << " columns, row " << row << ", " << column;
      }
    }
  }
}

TEST_F(CpuKernelTest, SortAlongTheOuterDimensionIntoOtherBuffers) {
  constexpr int64_t kRows = 50, kColumns = 3;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SORT);
  const uint32_t in = kernel.AddBuffer(kS32, {kRows, kColumns});
  const uint32_t out =
      kernel.AddBuffer(kS32, {kRows, kColumns}, PHAL_KIR_ACCESS_WRITE);
  kernel.operands = {in};
  kernel.outputs = {out};
  kernel.sort.dimension = 0;
  KirBody& c = kernel.reducer;
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_GT, PHAL_KIR_COMPARISON_SIGNED,
                        c.Parameter(kS32, 0), c.Parameter(kS32, 1)));
  std::vector<int32_t> input(kRows * kColumns);
  for (int64_t i = 0; i < kRows * kColumns; ++i) {
    input[i] = static_cast<int32_t>((i * 31) % 101) - 50;
  }
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(std::vector<int32_t>(kRows * kColumns))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<int32_t> result = FromBytes<int32_t>(buffers[1]);
  for (int64_t column = 0; column < kColumns; ++column) {
    std::vector<int32_t> expected;
    for (int64_t row = 0; row < kRows; ++row) {
      expected.push_back(input[row * kColumns + column]);
    }
    std::sort(expected.begin(), expected.end(), std::greater<>());
    for (int64_t row = 0; row < kRows; ++row) {
      ASSERT_EQ(result[row * kColumns + column], expected[row])
          << row << ", " << column;
    }
  }
  EXPECT_EQ(FromBytes<int32_t>(buffers[0]), input) << "the operand changed";
}

TEST_F(CpuKernelTest, SortOfAnEmptyDimensionRuns) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SORT);
  const uint32_t in =
      kernel.AddBuffer(kF32, {4, 0}, PHAL_KIR_ACCESS_READ_WRITE);
  kernel.operands = {in};
  kernel.outputs = {in};
  kernel.sort.dimension = 1;
  KirBody& c = kernel.reducer;
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_FLOAT,
                        c.Parameter(kF32, 0), c.Parameter(kF32, 1)));
  std::vector<std::vector<uint8_t>> buffers = {{}};
  Run(Emit(kernel.Desc()), buffers);
  EXPECT_TRUE(buffers[0].empty());
}

// out[n][d] = table[ids[n]][d]: an embedding lookup, with ids out of range
// clamped into the table as StableHLO says.
TEST_F(CpuKernelTest, GatherLooksUpRowsAndClampsOutOfRangeStarts) {
  constexpr int64_t kVocabulary = 37, kWidth = 70, kLookups = 129;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_GATHER);
  kernel.gather.operand = kernel.AddBuffer(kF32, {kVocabulary, kWidth});
  kernel.gather.start_indices =
      kernel.AddBuffer(PHAL_ELEMENT_TYPE_S64, {kLookups});
  kernel.gather.output =
      kernel.AddBuffer(kF32, {kLookups, kWidth}, PHAL_KIR_ACCESS_WRITE);
  kernel.arrays[KirKernel::kGatherOffsetDims] = {1};
  kernel.arrays[KirKernel::kGatherCollapsedSliceDims] = {0};
  kernel.arrays[KirKernel::kGatherStartIndexMap] = {0};
  kernel.gather.index_vector_dim = 1;
  kernel.arrays[KirKernel::kGatherSliceSizes] = {1, kWidth};
  const std::vector<float> table = Iota(kVocabulary * kWidth, 0.77f, 0.0f);
  std::vector<int64_t> ids(kLookups);
  for (int64_t i = 0; i < kLookups; ++i) ids[i] = (i * 13) % 45 - 4;
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(table), ToBytes(ids),
      ToBytes(std::vector<float>(kLookups * kWidth))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<float> result = FromBytes<float>(buffers[2]);
  for (int64_t n = 0; n < kLookups; ++n) {
    const int64_t row = std::clamp<int64_t>(ids[n], 0, kVocabulary - 1);
    for (int64_t d = 0; d < kWidth; ++d) {
      ASSERT_EQ(result[n * kWidth + d], table[row * kWidth + d])
          << "lookup " << n << " of id " << ids[n];
    }
  }
}

// Windows of 2 x 3 at (row, column) starts from an s32 [4, 2] index array
// whose index vector is its last dimension; the window keeps both
// dimensions (nothing collapsed) and starts are clamped to fit it.
TEST_F(CpuKernelTest, GatherReadsClampedWindowsAtTwoDimensionalStarts) {
  constexpr int64_t kRows = 6, kColumns = 7;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_GATHER);
  kernel.gather.operand = kernel.AddBuffer(kS32, {kRows, kColumns});
  kernel.gather.start_indices = kernel.AddBuffer(kS32, {4, 2});
  kernel.gather.output =
      kernel.AddBuffer(kS32, {4, 2, 3}, PHAL_KIR_ACCESS_WRITE);
  kernel.arrays[KirKernel::kGatherOffsetDims] = {1, 2};
  kernel.arrays[KirKernel::kGatherStartIndexMap] = {0, 1};
  kernel.gather.index_vector_dim = 1;
  kernel.arrays[KirKernel::kGatherSliceSizes] = {2, 3};
  std::vector<int32_t> operand(kRows * kColumns);
  for (int32_t i = 0; i < kRows * kColumns; ++i) operand[i] = i * 10;
  const std::vector<int32_t> starts = {0, 0, 5, 1, -3, 6, 2, 100};
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(operand), ToBytes(starts), ToBytes(std::vector<int32_t>(24))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<int32_t> result = FromBytes<int32_t>(buffers[2]);
  for (int64_t b = 0; b < 4; ++b) {
    const int64_t row = std::clamp<int64_t>(starts[2 * b], 0, kRows - 2);
    const int64_t column =
        std::clamp<int64_t>(starts[2 * b + 1], 0, kColumns - 3);
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t j = 0; j < 3; ++j) {
        ASSERT_EQ(result[(b * 2 + i) * 3 + j],
                  operand[(row + i) * kColumns + column + j])
            << b << ", " << i << ", " << j;
      }
    }
  }
}

// out[b][n][d] = operand[b][ids[b][n]][d]: batching dimensions pair the
// operand's dimension 0 with the indices' dimension 0.
TEST_F(CpuKernelTest, GatherWithBatchingDimensionsReadsEachBatchsOwnRows) {
  constexpr int64_t kBatch = 3, kRows = 5, kWidth = 4, kLookups = 6;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_GATHER);
  kernel.gather.operand = kernel.AddBuffer(kF32, {kBatch, kRows, kWidth});
  kernel.gather.start_indices = kernel.AddBuffer(kS32, {kBatch, kLookups});
  kernel.gather.output =
      kernel.AddBuffer(kF32, {kBatch, kLookups, kWidth}, PHAL_KIR_ACCESS_WRITE);
  kernel.arrays[KirKernel::kGatherOffsetDims] = {2};
  kernel.arrays[KirKernel::kGatherCollapsedSliceDims] = {1};
  kernel.arrays[KirKernel::kGatherStartIndexMap] = {1};
  kernel.arrays[KirKernel::kGatherOperandBatchingDims] = {0};
  kernel.arrays[KirKernel::kGatherStartIndicesBatchingDims] = {0};
  kernel.gather.index_vector_dim = 2;
  kernel.arrays[KirKernel::kGatherSliceSizes] = {1, 1, kWidth};
  const std::vector<float> operand = Iota(kBatch * kRows * kWidth, 1.0f, 0.0f);
  std::vector<int32_t> ids(kBatch * kLookups);
  for (int64_t i = 0; i < kBatch * kLookups; ++i) {
    ids[i] = static_cast<int32_t>((i * 3) % kRows);
  }
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(operand), ToBytes(ids),
      ToBytes(std::vector<float>(kBatch * kLookups * kWidth))};
  Run(Emit(kernel.Desc()), buffers);
  const std::vector<float> result = FromBytes<float>(buffers[2]);
  for (int64_t b = 0; b < kBatch; ++b) {
    for (int64_t n = 0; n < kLookups; ++n) {
      for (int64_t d = 0; d < kWidth; ++d) {
        ASSERT_EQ(result[(b * kLookups + n) * kWidth + d],
                  operand[(b * kRows + ids[b * kLookups + n]) * kWidth + d])
            << b << ", " << n << ", " << d;
      }
    }
  }
}

// table[ids[n]][d] += grads[n][d] into a new buffer: repeated ids
// accumulate, an id outside the table is skipped.
TEST_F(CpuKernelTest, ScatterAddsRowsAccumulatingRepeatsAndSkippingOutOfRange) {
  constexpr int64_t kRows = 9, kWidth = 33, kUpdates = 40;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  kernel.scatter.operand = kernel.AddBuffer(kS32, {kRows, kWidth});
  kernel.scatter.scatter_indices = kernel.AddBuffer(kS32, {kUpdates, 1});
  kernel.scatter.updates = kernel.AddBuffer(kS32, {kUpdates, kWidth});
  kernel.scatter.output =
      kernel.AddBuffer(kS32, {kRows, kWidth}, PHAL_KIR_ACCESS_WRITE);
  kernel.arrays[KirKernel::kScatterUpdateWindowDims] = {1};
  kernel.arrays[KirKernel::kScatterInsertedWindowDims] = {0};
  kernel.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0};
  kernel.scatter.index_vector_dim = 1;
  KirBody& c = kernel.reducer;
  c.AddResult(c.Add(PHAL_KIR_OP_ADD, kS32,
                    {c.Parameter(kS32, 0), c.Parameter(kS32, 1)}));
  std::vector<int32_t> table(kRows * kWidth), grads(kUpdates * kWidth);
  for (int64_t i = 0; i < kRows * kWidth; ++i)
    table[i] = static_cast<int32_t>(i);
  for (int64_t i = 0; i < kUpdates * kWidth; ++i) {
    grads[i] = static_cast<int32_t>(i % 13) - 6;
  }
  std::vector<int32_t> ids(kUpdates);
  for (int64_t n = 0; n < kUpdates; ++n)
    ids[n] = static_cast<int32_t>(n % 11) - 1;
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(table), ToBytes(ids), ToBytes(grads),
      ToBytes(std::vector<int32_t>(kRows * kWidth))};
  Run(Emit(kernel.Desc()), buffers);
  std::vector<int32_t> expected = table;
  for (int64_t n = 0; n < kUpdates; ++n) {
    if (ids[n] < 0 || ids[n] >= kRows) continue;
    for (int64_t d = 0; d < kWidth; ++d) {
      expected[ids[n] * kWidth + d] += grads[n * kWidth + d];
    }
  }
  EXPECT_EQ(FromBytes<int32_t>(buffers[3]), expected);
  EXPECT_EQ(FromBytes<int32_t>(buffers[0]), table) << "the operand changed";
}

// In place (output and operand one buffer): 2 x 2 windows replace the
// operand at 2-D starts; a window reaching past the edge writes only its
// elements inside.
TEST_F(CpuKernelTest, ScatterInPlaceReplacesWindowsElementByElement) {
  constexpr int64_t kRows = 5, kColumns = 6;
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_SCATTER);
  const uint32_t operand =
      kernel.AddBuffer(kF32, {kRows, kColumns}, PHAL_KIR_ACCESS_READ_WRITE);
  kernel.scatter.operand = operand;
  kernel.scatter.output = operand;
  kernel.scatter.scatter_indices = kernel.AddBuffer(kS32, {3, 2});
  kernel.scatter.updates = kernel.AddBuffer(kF32, {3, 2, 2});
  kernel.arrays[KirKernel::kScatterUpdateWindowDims] = {1, 2};
  kernel.arrays[KirKernel::kScatterScatterDimsToOperandDims] = {0, 1};
  kernel.scatter.index_vector_dim = 1;
  kernel.reducer.AddResult(kernel.reducer.Parameter(kF32, 1));
  kernel.reducer.Parameter(kF32, 0);
  std::vector<float> field(kRows * kColumns, -1.0f);
  const std::vector<int32_t> starts = {0, 0, 2, 3, 4, 5};
  std::vector<float> updates(12);
  for (int i = 0; i < 12; ++i) updates[i] = static_cast<float>(i + 1);
  std::vector<std::vector<uint8_t>> buffers = {ToBytes(field), ToBytes(starts),
                                               ToBytes(updates)};
  Run(Emit(kernel.Desc()), buffers);
  std::vector<float> expected = field;
  for (int b = 0; b < 3; ++b) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        const int row = starts[2 * b] + i, column = starts[2 * b + 1] + j;
        if (row < kRows && column < kColumns) {
          expected[row * kColumns + column] = updates[(b * 2 + i) * 2 + j];
        }
      }
    }
  }
  EXPECT_EQ(FromBytes<float>(buffers[0]), expected);
}

// StableHLO convolution computed directly from its definition, in double.
std::vector<double> ReferenceConv(const KirKernel& k,
                                  const std::vector<double>& input,
                                  const std::vector<double>& weights) {
  const phal_kir_conv_t& c = k.conv;
  const phal_kir_buffer_t& in = k.built_desc().buffers[c.input];
  const phal_kir_buffer_t& ker = k.built_desc().buffers[c.kernel];
  const phal_kir_buffer_t& out = k.built_desc().buffers[c.output];
  const size_t rank = in.rank, spatial = rank - 2;
  auto linear = [](const phal_kir_buffer_t& buffer,
                   const std::vector<int64_t>& index) {
    int64_t l = 0;
    for (size_t d = 0; d < buffer.rank; ++d) l = l * buffer.dims[d] + index[d];
    return l;
  };
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d) count *= out.dims[d];
  const int64_t kernel_features = ker.dims[c.kernel_input_feature_dimension];
  const int64_t output_features = ker.dims[c.kernel_output_feature_dimension];
  std::vector<double> result(static_cast<size_t>(count));
  std::vector<int64_t> o(rank), i(rank), w(rank);
  for (int64_t l = 0; l < count; ++l) {
    int64_t rest = l;
    for (size_t d = rank; d-- > 0;) {
      o[d] = rest % out.dims[d];
      rest /= out.dims[d];
    }
    const int64_t feature = o[c.output_feature_dimension];
    const int64_t group = feature / (output_features / c.feature_group_count);
    const int64_t batch_group =
        feature / (output_features / c.batch_group_count);
    double sum = 0;
    int64_t window = 1;
    for (size_t s = 0; s < spatial; ++s)
      window *= ker.dims[k.arrays[KirKernel::kConvKernelSpatialDimensions][s]];
    for (int64_t f = 0; f < kernel_features; ++f) {
      for (int64_t tap = 0; tap < window; ++tap) {
        int64_t tap_rest = tap;
        bool valid = true;
        for (size_t s = spatial; s-- > 0;) {
          const int64_t size =
              ker.dims[k.arrays[KirKernel::kConvKernelSpatialDimensions][s]];
          const int64_t kk = tap_rest % size;
          tap_rest /= size;
          w[k.arrays[KirKernel::kConvKernelSpatialDimensions][s]] =
              k.window_reversal[s] ? size - 1 - kk : kk;
          const int64_t position =
              o[k.arrays[KirKernel::kConvOutputSpatialDimensions][s]] *
                  k.arrays[KirKernel::kConvWindowStrides][s] +
              kk * k.arrays[KirKernel::kConvRhsDilation][s] -
              k.arrays[KirKernel::kConvPadding][2 * s];
          if (position < 0 ||
              position % k.arrays[KirKernel::kConvLhsDilation][s] != 0 ||
              position / k.arrays[KirKernel::kConvLhsDilation][s] >=
                  in.dims[k.arrays[KirKernel::kConvInputSpatialDimensions]
                                  [s]]) {
            valid = false;
          }
          i[k.arrays[KirKernel::kConvInputSpatialDimensions][s]] =
              position / k.arrays[KirKernel::kConvLhsDilation][s];
        }
        if (!valid) continue;
        i[c.input_batch_dimension] =
            batch_group * out.dims[c.output_batch_dimension] +
            o[c.output_batch_dimension];
        i[c.input_feature_dimension] = group * kernel_features + f;
        w[c.kernel_input_feature_dimension] = f;
        w[c.kernel_output_feature_dimension] = feature;
        sum += input[linear(in, i)] * weights[linear(ker, w)];
      }
    }
    result[static_cast<size_t>(l)] = sum;
  }
  return result;
}

// Runs `kernel` (f32, f64 or s32 buffers of its accumulation type) on small
// integers, so every sum is exact, against ReferenceConv.
void CheckConv(PluginTest& test, KirKernel& kernel,
               void (PluginTest::*run)(phal_plugin_kernel_t*,
                                       std::vector<std::vector<uint8_t>>&),
               phal_plugin_kernel_t* emitted) {
  const phal_kir_conv_t& c = kernel.conv;
  auto count = [&](uint32_t buffer) {
    int64_t n = 1;
    for (uint32_t d = 0; d < kernel.built_desc().buffers[buffer].rank; ++d) {
      n *= kernel.built_desc().buffers[buffer].dims[d];
    }
    return n;
  };
  std::vector<double> input(static_cast<size_t>(count(c.input)));
  std::vector<double> weights(static_cast<size_t>(count(c.kernel)));
  for (size_t i = 0; i < input.size(); ++i) input[i] = double((i * 7) % 11) - 5;
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = double((i * 5) % 7) - 3;
  const std::vector<double> expected = ReferenceConv(kernel, input, weights);
  const phal_element_type_t type = c.accumulation_type;
  const bool is_float = type == kF32 || type == kF64;
  auto bytes = [&](const std::vector<double>& values) {
    std::vector<float> floats(values.begin(), values.end());
    std::vector<int32_t> ints(values.begin(), values.end());
    if (type == kF64) return ToBytes(values);
    return type == kF32 ? ToBytes(floats) : ToBytes(ints);
  };
  std::vector<std::vector<uint8_t>> buffers = {
      bytes(input), bytes(weights),
      bytes(std::vector<double>(static_cast<size_t>(count(c.output))))};
  (test.*run)(emitted, buffers);
  for (size_t i = 0; i < expected.size(); ++i) {
    const double got = type == kF64   ? FromBytes<double>(buffers[2])[i]
                       : type == kF32 ? FromBytes<float>(buffers[2])[i]
                                      : FromBytes<int32_t>(buffers[2])[i];
    ASSERT_EQ(got, expected[i] + (is_float ? 0.5 : 0.0)) << "output " << i;
  }
}

class ConvTest : public PluginTest {
 protected:
  void Check(KirKernel& kernel) {
    CheckConv(*this, kernel, &ConvTest::Run, Emit(kernel.Desc()));
  }
};

// NHWC input, HWIO kernel, strides, asymmetric padding, kernel dilation and
// an epilogue adding 0.5.
TEST_F(ConvTest, TwoDimensionalConvWithStridesPaddingAndDilationMatches) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_CONV);
  kernel.conv.input = kernel.AddBuffer(kF32, {2, 7, 8, 3});
  kernel.conv.kernel = kernel.AddBuffer(kF32, {3, 2, 3, 4});
  // Height: (7 + 2 - 3) / 2 + 1 = 4; width: (8 + 1 - 3) / 1 + 1 = 7.
  kernel.conv.output =
      kernel.AddBuffer(kF32, {2, 4, 7, 4}, PHAL_KIR_ACCESS_WRITE);
  kernel.conv.accumulation_type = kF32;
  kernel.conv.input_batch_dimension = 0;
  kernel.conv.input_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvInputSpatialDimensions] = {1, 2};
  kernel.conv.kernel_input_feature_dimension = 2;
  kernel.conv.kernel_output_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvKernelSpatialDimensions] = {0, 1};
  kernel.conv.output_batch_dimension = 0;
  kernel.conv.output_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvOutputSpatialDimensions] = {1, 2};
  kernel.arrays[KirKernel::kConvWindowStrides] = {2, 1};
  kernel.arrays[KirKernel::kConvPadding] = {1, 1, 0, 1};
  kernel.arrays[KirKernel::kConvLhsDilation] = {1, 1};
  kernel.arrays[KirKernel::kConvRhsDilation] = {1, 2};
  kernel.window_reversal = {0, 0};
  kernel.conv.feature_group_count = 1;
  kernel.conv.batch_group_count = 1;
  KirBody& e = kernel.body;
  uint32_t half_bits;
  const float half = 0.5f;
  std::memcpy(&half_bits, &half, 4);
  e.AddResult(e.Add(PHAL_KIR_OP_ADD, kF32,
                    {e.Parameter(kF32, 0), e.Constant(kF32, half_bits)}));
  Check(kernel);
}

// An NHWC convolution (f32 unless `type` says f64) with kernel [kh, kw, ci,
// co] and an epilogue adding 0.5.
KirKernel NhwcConv(std::vector<int64_t> input, std::vector<int64_t> weights,
                   std::vector<int64_t> output, std::vector<int64_t> padding,
                   phal_element_type_t type = kF32) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_CONV);
  kernel.conv.input = kernel.AddBuffer(type, input);
  kernel.conv.kernel = kernel.AddBuffer(type, weights);
  kernel.conv.output = kernel.AddBuffer(type, output, PHAL_KIR_ACCESS_WRITE);
  kernel.conv.accumulation_type = type;
  kernel.conv.input_batch_dimension = 0;
  kernel.conv.input_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvInputSpatialDimensions] = {1, 2};
  kernel.conv.kernel_input_feature_dimension = 2;
  kernel.conv.kernel_output_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvKernelSpatialDimensions] = {0, 1};
  kernel.conv.output_batch_dimension = 0;
  kernel.conv.output_feature_dimension = 3;
  kernel.arrays[KirKernel::kConvOutputSpatialDimensions] = {1, 2};
  kernel.arrays[KirKernel::kConvWindowStrides] = {1, 1};
  kernel.arrays[KirKernel::kConvPadding] = padding;
  kernel.arrays[KirKernel::kConvLhsDilation] = {1, 1};
  kernel.arrays[KirKernel::kConvRhsDilation] = {1, 1};
  kernel.window_reversal = {0, 0};
  kernel.conv.feature_group_count = 1;
  kernel.conv.batch_group_count = 1;
  KirBody& e = kernel.body;
  uint64_t half_bits = 0;
  if (type == kF64) {
    const double half = 0.5;
    std::memcpy(&half_bits, &half, sizeof half);
  } else {
    const float half = 0.5f;
    std::memcpy(&half_bits, &half, sizeof half);
  }
  e.AddResult(e.Add(PHAL_KIR_OP_ADD, type,
                    {e.Parameter(type, 0), e.Constant(type, half_bits)}));
  return kernel;
}

// 630 output positions of 144 taps by 32 features: several blocks, some
// spanning two images.
TEST_F(ConvTest, ConvGemmBlocksAcrossImagesMatch) {
  KirKernel kernel =
      NhwcConv({3, 14, 15, 16}, {3, 3, 16, 32}, {3, 14, 15, 32}, {1, 1, 1, 1});
  Check(kernel);
}

// 3x3 windows at stride 1 over 32 or more channels take Winograd's
// F(2x2, 3x3): odd output sizes (tiles cut at the edge), asymmetric and no
// padding, blocks of tiles spanning two images, and f64 with channels and
// features that leave a partial lane. The sums of small integers stay exact
// through the transforms' halves.
TEST_F(ConvTest, WinogradConvsMatch) {
  KirKernel padded =
      NhwcConv({2, 40, 37, 32}, {3, 3, 32, 40}, {2, 41, 37, 40}, {2, 1, 1, 1});
  Check(padded);
  KirKernel valid =
      NhwcConv({1, 9, 12, 48}, {3, 3, 48, 32}, {1, 7, 10, 32}, {0, 0, 0, 0});
  Check(valid);
  KirKernel f64 = NhwcConv({2, 7, 9, 36}, {3, 3, 36, 33}, {2, 7, 9, 33},
                           {1, 1, 1, 1}, kF64);
  Check(f64);
}

// Output rows of 256 or more positions over 32 or more channels sum one
// GEMM per kernel tap over the input itself: 1-D windows with dilation and
// causal padding, 2-D windows with padding on every side, a tap that reads
// only padding for every output, blocks cut inside a row, and f64.
TEST_F(ConvTest, TapGemmConvsMatch) {
  KirKernel causal =
      NhwcConv({2, 1, 600, 32}, {1, 2, 32, 24}, {2, 1, 599, 24}, {0, 0, 3, 0});
  causal.arrays[KirKernel::kConvRhsDilation] = {1, 4};
  Check(causal);
  KirKernel padded =
      NhwcConv({1, 4, 300, 40}, {2, 5, 40, 16}, {1, 4, 300, 16}, {1, 0, 2, 2});
  Check(padded);
  KirKernel far =
      NhwcConv({1, 1, 256, 32}, {1, 2, 32, 8}, {1, 1, 356, 8}, {0, 0, 0, 400});
  far.arrays[KirKernel::kConvRhsDilation] = {1, 300};
  Check(far);
  KirKernel blocks = NhwcConv({1, 1, 1300, 32}, {1, 3, 32, 64},
                              {1, 1, 1300, 64}, {0, 0, 1, 1}, kF64);
  Check(blocks);
}

// A 1x1 window at stride 1 without padding multiplies the input itself;
// with padding it gathers patches (zeros around the image).
TEST_F(ConvTest, PointwiseConvsMatch) {
  KirKernel direct =
      NhwcConv({2, 9, 31, 40}, {1, 1, 40, 48}, {2, 9, 31, 48}, {0, 0, 0, 0});
  Check(direct);
  KirKernel padded =
      NhwcConv({2, 9, 31, 40}, {1, 1, 40, 48}, {2, 10, 33, 48}, {1, 0, 1, 1});
  Check(padded);
}

// An s32 convolution over [N, C, W] with a [O, I, W] kernel, its one
// spatial dimension last everywhere, at stride 1 with no padding, dilation
// or reversal and one group of each kind; a test changes what it is about.
KirKernel NcwConvS32(std::vector<int64_t> input, std::vector<int64_t> window,
                     std::vector<int64_t> output) {
  KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_CONV);
  kernel.conv.input = kernel.AddBuffer(kS32, std::move(input));
  kernel.conv.kernel = kernel.AddBuffer(kS32, std::move(window));
  kernel.conv.output =
      kernel.AddBuffer(kS32, std::move(output), PHAL_KIR_ACCESS_WRITE);
  kernel.conv.accumulation_type = kS32;
  kernel.conv.input_batch_dimension = 0;
  kernel.conv.input_feature_dimension = 1;
  kernel.arrays[KirKernel::kConvInputSpatialDimensions] = {2};
  kernel.conv.kernel_output_feature_dimension = 0;
  kernel.conv.kernel_input_feature_dimension = 1;
  kernel.arrays[KirKernel::kConvKernelSpatialDimensions] = {2};
  kernel.conv.output_batch_dimension = 0;
  kernel.conv.output_feature_dimension = 1;
  kernel.arrays[KirKernel::kConvOutputSpatialDimensions] = {2};
  kernel.arrays[KirKernel::kConvWindowStrides] = {1};
  kernel.arrays[KirKernel::kConvPadding] = {0, 0};
  kernel.arrays[KirKernel::kConvLhsDilation] = {1};
  kernel.arrays[KirKernel::kConvRhsDilation] = {1};
  kernel.window_reversal = {0};
  kernel.conv.feature_group_count = 1;
  kernel.conv.batch_group_count = 1;
  return kernel;
}

// Depthwise (feature groups = channels) over [N, C, W] in s32, with input
// dilation, padding and a reversed window.
TEST_F(ConvTest, DepthwiseConvWithInputDilationAndReversalMatches) {
  // Dilated width 11, padded 14, window 3: 12 outputs.
  KirKernel kernel = NcwConvS32({1, 4, 6}, {4, 1, 3}, {1, 4, 12});
  kernel.arrays[KirKernel::kConvPadding] = {2, 1};
  kernel.arrays[KirKernel::kConvLhsDilation] = {2};
  kernel.window_reversal = {1};
  kernel.conv.feature_group_count = 4;
  Check(kernel);
}

// Batch groups: output feature f reads the input batches of group
// f / (features / groups), as a weight-gradient convolution does.
TEST_F(ConvTest, BatchGroupedConvMatches) {
  KirKernel kernel = NcwConvS32({4, 2, 5}, {2, 2, 2}, {2, 2, 4});
  kernel.conv.batch_group_count = 2;
  Check(kernel);
}

// ---- serialization ----------------------------------------------------------

std::string Serialize(phal_plugin_kernel_t* kernel) {
  void* data = nullptr;
  uint64_t size = 0;
  EXPECT_TRUE(
      IsOk(TestedPlugin().api().kernel_serialize(kernel, &data, &size)));
  std::string bytes(static_cast<const char*>(data), size);
  FakeHost().host_free(data);
  return bytes;
}

TEST_F(CpuKernelTest, SerializedKernelDeserializesAndComputesTheSame) {
  KirKernel source = AddConstantKernel(100, 0.25f);
  const std::string bytes = Serialize(Emit(source.Desc()));
  phal_plugin_kernel_t* restored = nullptr;
  ASSERT_TRUE(IsOk(api().kernel_deserialize(device_, bytes.data(), bytes.size(),
                                            &restored)));
  std::vector<float> input = Iota(100, 1.0f, 0.0f);
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(input), ToBytes(std::vector<float>(100))};
  Run(restored, buffers);
  const std::vector<float> result = FromBytes<float>(buffers[1]);
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(result[i], input[i] + 0.25f);
  EXPECT_EQ(Serialize(restored), bytes);
  api().kernel_destroy(restored);
}

TEST_F(CpuKernelTest, DeserializeRejectsOtherVersionsTargetsAndGarbage) {
  KirKernel source = AddConstantKernel(8, 0.5f);
  const std::string bytes = Serialize(Emit(source.Desc()));
  auto deserialize = [&](const std::string& data) {
    phal_plugin_kernel_t* kernel = nullptr;
    phal_status_t* status =
        api().kernel_deserialize(device_, data.data(), data.size(), &kernel);
    if (kernel != nullptr) api().kernel_destroy(kernel);
    return status;
  };
  const std::string version = api().version;
  std::string other_version = bytes;
  const size_t version_at = other_version.find(version);
  ASSERT_NE(version_at, std::string::npos);
  other_version[version_at + version.size() - 1] ^= 1;
  EXPECT_TRUE(HasCode(deserialize(other_version), PHAL_FAILED_PRECONDITION));

  std::string other_target = bytes;
  const size_t triple_at = other_target.find("-linux");
  ASSERT_NE(triple_at, std::string::npos);
  other_target[triple_at + 1] = 'X';
  EXPECT_TRUE(HasCode(deserialize(other_target), PHAL_FAILED_PRECONDITION));

  EXPECT_TRUE(HasCode(deserialize(bytes.substr(0, bytes.size() / 2)),
                      PHAL_INVALID_ARGUMENT));
  EXPECT_TRUE(HasCode(deserialize("not a kernel"), PHAL_INVALID_ARGUMENT));
}

// ---- caches -----------------------------------------------------------------

// The one kernel file under the cache directory, wherever the plugin files
// it; empty when there is none.
std::filesystem::path CacheFile() {
  std::error_code error;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           TestedPlugin().cache_directory(), error)) {
    if (entry.is_regular_file()) return entry.path();
  }
  return {};
}

std::string CacheFileContents() {
  const std::filesystem::path path = CacheFile();
  if (path.empty()) return "";
  std::ifstream file(path, std::ios::binary);
  std::ostringstream contents;
  contents << file.rdbuf();
  return contents.str();
}

class KernelCacheTest : public PluginTest {
 protected:
  void SetUp() override {
    std::filesystem::remove_all(TestedPlugin().cache_directory());
    PluginTest::SetUp();
    ClearRecordedLogLines();
  }
  void ReopenDevice() {
    api().device_close(device_);
    device_ = nullptr;
    ASSERT_TRUE(IsOk(api().device_open(0, &device_)));
    ClearRecordedLogLines();
  }
};

TEST_F(KernelCacheTest, SecondEmitOfTheSameKirHitsTheMemoryCache) {
  KirKernel kernel = AddConstantKernel(16, 101.0f);
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  EXPECT_TRUE(LogsContain("compiled"));
  ClearRecordedLogLines();
  kernel.set_name("same_code_other_name");
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  EXPECT_TRUE(LogsContain("found in the memory cache"));
  EXPECT_FALSE(LogsContain("compiled"));
}

TEST_F(KernelCacheTest, NewDeviceFindsTheKernelOnDisk) {
  KirKernel kernel = AddConstantKernel(16, 102.0f);
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  EXPECT_FALSE(CacheFileContents().empty());
  ReopenDevice();
  phal_plugin_kernel_t* again = Emit(kernel.Desc());
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(LogsContain("found in the disk cache"));
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(std::vector<float>(16, 1.0f)), ToBytes(std::vector<float>(16))};
  Run(again, buffers);
  EXPECT_EQ(FromBytes<float>(buffers[1]), std::vector<float>(16, 103.0f));
}

TEST_F(KernelCacheTest, StaleDiskEntryIsRecompiledAndReplaced) {
  KirKernel kernel = AddConstantKernel(16, 103.0f);
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  const std::string good = CacheFileContents();
  // A sound entry of another plugin build: stored through the cache, so
  // that only the plugin's own check can tell.
  const DiskCache disk({CacheFile().parent_path().string(), uint64_t{1} << 30});
  const uint64_t key = std::stoull(CacheFile().stem().string(), nullptr, 16);
  std::string stale = disk.Load(key).value_or("");
  const std::string version = api().version;
  ASSERT_NE(stale.find(version), std::string::npos);
  stale[stale.find(version) + version.size() - 1] ^= 1;
  disk.Store(key, stale);
  ReopenDevice();
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  EXPECT_TRUE(LogsContain("ignores the stale disk cache entry"));
  EXPECT_TRUE(LogsContain("compiled"));
  EXPECT_EQ(CacheFileContents(), good);
}

TEST_F(KernelCacheTest, TruncatedDiskEntryIsRecompiledAndReplaced) {
  KirKernel kernel = AddConstantKernel(16, 105.0f);
  ASSERT_NE(Emit(kernel.Desc()), nullptr);
  const std::string good = CacheFileContents();
  std::ofstream(CacheFile(), std::ios::binary | std::ios::trunc)
      << good.substr(0, good.size() / 2);
  ReopenDevice();
  phal_plugin_kernel_t* again = Emit(kernel.Desc());
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(LogsContain("damaged entry"));
  EXPECT_TRUE(LogsContain("compiled"));
  EXPECT_EQ(CacheFileContents(), good);
  std::vector<std::vector<uint8_t>> buffers = {
      ToBytes(std::vector<float>(16, 1.0f)), ToBytes(std::vector<float>(16))};
  Run(again, buffers);
  EXPECT_EQ(FromBytes<float>(buffers[1]), std::vector<float>(16, 106.0f));
}

TEST_F(KernelCacheTest, CacheDirOffKeepsKernelsOffTheDisk) {
  ASSERT_EQ(setenv("PHAL_CACHE_DIR", "off", 1), 0);
  ReopenDevice();
  KirKernel kernel = AddConstantKernel(16, 104.0f);
  EXPECT_NE(Emit(kernel.Desc()), nullptr);
  ASSERT_EQ(
      setenv("PHAL_CACHE_DIR", TestedPlugin().cache_directory().c_str(), 1), 0);
  EXPECT_FALSE(std::filesystem::exists(TestedPlugin().cache_directory()) &&
               !std::filesystem::is_empty(TestedPlugin().cache_directory()));
}

// ---- threads ----------------------------------------------------------------

TEST_F(CpuKernelTest, EightThreadsLaunchOneKernelAtOnce) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 20;
  constexpr int64_t kCount = 50000;
  KirKernel source = AddConstantKernel(kCount, 1.0f);
  phal_plugin_kernel_t* kernel = Emit(source.Desc());
  ASSERT_NE(kernel, nullptr);
  std::atomic<int> failures{0};
  auto worker = [&](int thread) {
    phal_plugin_stream_t* stream = nullptr;
    phal_plugin_buffer_t* buffers[2] = {nullptr, nullptr};
    if (!IsOk(api().stream_create(device_, &stream)) ||
        !IsOk(api().buffer_allocate(device_, 0, kCount * 4, &buffers[0])) ||
        !IsOk(api().buffer_allocate(device_, 0, kCount * 4, &buffers[1]))) {
      ++failures;
      return;
    }
    std::vector<float> values(kCount, static_cast<float>(thread));
    bool ok = IsOk(api().stream_copy_from_host(stream, values.data(),
                                               buffers[0], 0, kCount * 4));
    for (int round = 0; round < kRounds && ok; ++round) {
      // Ping-pong: each launch adds one, reading the other buffer.
      phal_plugin_buffer_t* order[2] = {buffers[round % 2],
                                        buffers[1 - round % 2]};
      ok = IsOk(api().stream_launch(stream, kernel, order, 2));
    }
    std::vector<float> result(kCount);
    ok = ok &&
         IsOk(api().stream_copy_to_host(stream, buffers[kRounds % 2], 0,
                                        result.data(), kCount * 4)) &&
         IsOk(api().stream_synchronize(stream));
    if (!ok || result != std::vector<float>(kCount, thread + kRounds)) {
      ++failures;
    }
    api().stream_destroy(stream);
    api().buffer_free(buffers[0]);
    api().buffer_free(buffers[1]);
  };
  std::vector<std::thread> threads;
  for (int thread = 0; thread < kThreads; ++thread) {
    threads.emplace_back(worker, thread);
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0) << "threads that failed or computed wrongly";
}

TEST_F(CpuKernelTest, LaunchWithTheWrongBufferCountIsRejected) {
  KirKernel source = AddConstantKernel(4, 1.0f);
  phal_plugin_kernel_t* kernel = Emit(source.Desc());
  phal_plugin_buffer_t* one = Allocate(16);
  EXPECT_TRUE(HasCode(api().stream_launch(CreateStream(), kernel, &one, 1),
                      PHAL_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace phal::cpu
