// The compiler against the SDK's KIR interpreter: each kernel compiled to
// the ISA, run by the simulator on host-backed DRAM, and its outputs
// compared with the interpreter's (bit for bit where the semantics are
// exact, within the conformance suite's bounds where they are not).
#include "compiler/asic_compiler.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "isa/asic_assembler.h"
#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/kir/kernel.h"
#include "sdk/kir_interpreter/kir_interpreter.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "simulator/asic_simulator.h"

namespace phal::asic_ref {
namespace {

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;

// DRAM made of host vectors: device addresses are host addresses, and only
// bytes inside a registered buffer map.
class HostDram : public DramView {
 public:
  uint64_t Add(std::vector<uint8_t>& bytes) {
    ranges_.push_back(&bytes);
    return reinterpret_cast<uint64_t>(bytes.data());
  }
  uint8_t* Map(uint64_t address, uint64_t bytes) override {
    for (std::vector<uint8_t>* r : ranges_) {
      const auto base = reinterpret_cast<uint64_t>(r->data());
      if (address >= base && address + bytes <= base + r->size()) {
        return r->data() + (address - base);
      }
    }
    return nullptr;
  }

 private:
  std::vector<std::vector<uint8_t>*> ranges_;
};

struct Outcome {
  std::vector<std::vector<uint8_t>> device, reference;
  KernelCounters counters;
  Program program;
};

// Fills `bytes` of `type` with values from `rng`: floats in [-4, 4],
// integers in [-20, 20] (unsigned [0, 40]), pred 0 or 1.
void Fill(phal_element_type_t type, std::vector<uint8_t>& bytes,
          std::mt19937& rng) {
  const size_t size = ElementTypeByteSize(type);
  std::uniform_real_distribution<float> real(-4.0f, 4.0f);
  std::uniform_int_distribution<int> integer(-20, 20);
  for (size_t i = 0; i < bytes.size() / size; ++i) {
    uint8_t* e = bytes.data() + i * size;
    switch (type) {
      case PHAL_ELEMENT_TYPE_F32: {
        const float v = real(rng);
        std::memcpy(e, &v, 4);
        break;
      }
      case PHAL_ELEMENT_TYPE_BF16:
      case PHAL_ELEMENT_TYPE_F16: {
        const uint16_t v = type == PHAL_ELEMENT_TYPE_F16
                               ? FloatToHalf(real(rng))
                               : FloatToBFloat16(real(rng));
        std::memcpy(e, &v, 2);
        break;
      }
      case PHAL_ELEMENT_TYPE_PRED:
        *e = static_cast<uint8_t>(integer(rng) & 1);
        break;
      default: {
        int64_t v = integer(rng);
        if (IsUnsigned(type)) v += 20;
        std::memcpy(e, &v, size);
        break;
      }
    }
  }
}

Outcome RunBoth(const phal_kernel_desc_t& desc, const ArchConfig& config = {},
                uint32_t seed = 1,
                const std::vector<std::vector<uint8_t>>* inputs = nullptr) {
  Outcome out;
  auto program = CompileKernel(config, desc);
  EXPECT_TRUE(program.ok()) << program.status().message();
  if (!program.ok()) return out;
  out.program = *program;
  std::mt19937 rng(seed);
  std::vector<std::vector<uint8_t>> initial(desc.buffer_count);
  for (uint32_t b = 0; b < desc.buffer_count; ++b) {
    const phal_kir_buffer_t& buffer = desc.buffers[b];
    int64_t count = 1;
    for (uint32_t d = 0; d < buffer.rank; ++d) count *= buffer.dims[d];
    initial[b].resize(count * ElementTypeByteSize(buffer.element_type));
    if (inputs != nullptr && b < inputs->size() && !(*inputs)[b].empty()) {
      initial[b] = (*inputs)[b];
    } else {
      Fill(buffer.element_type, initial[b], rng);
    }
  }
  out.device = initial;
  out.reference = initial;
  HostDram dram;
  std::vector<uint64_t> addresses;
  for (auto& bytes : out.device) addresses.push_back(dram.Add(bytes));
  Simulator simulator(config);
  auto counters = simulator.Run(*program, dram, addresses);
  EXPECT_TRUE(counters.ok()) << counters.status().message();
  if (counters.ok()) out.counters = *counters;
  auto kernel = kir_interpreter::Kernel::Create(desc);
  EXPECT_TRUE(kernel.ok()) << kernel.status().message();
  std::vector<uint8_t*> pointers;
  for (auto& bytes : out.reference) pointers.push_back(bytes.data());
  const Status run = kernel->Run(pointers);
  EXPECT_TRUE(run.ok()) << run.message();
  return out;
}

float F32At(const std::vector<uint8_t>& bytes, size_t i) {
  float v;
  std::memcpy(&v, bytes.data() + 4 * i, 4);
  return v;
}

// Units in the last place between two f32 values (0 for equal NaNs).
int64_t UlpDistance(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<int64_t>::max();
  auto key = [](float f) {
    const int32_t bits = std::bit_cast<int32_t>(f);
    return bits < 0 ? int64_t{std::numeric_limits<int32_t>::min()} - bits
                    : int64_t{bits};
  };
  return std::llabs(key(a) - key(b));
}

TEST(AsicCompiler, AnElementwiseLoopOverSeveralTilesIsExact) {
  KirKernel loop("add_mul", PHAL_KERNEL_KIND_LOOP);
  loop.dims = {7, 333, 5};  // 11655 points: a full tile, a second, a tail
  const uint32_t x = loop.AddBuffer(kF32, loop.dims);
  const uint32_t y = loop.AddBuffer(kF32, loop.dims);
  loop.outputs = {loop.AddBuffer(kF32, loop.dims, PHAL_KIR_ACCESS_WRITE)};
  KirBody& b = loop.body;
  const uint32_t i = b.Index(0), j = b.Index(1), k = b.Index(2);
  const uint32_t a = b.Read(kF32, x, {i, j, k});
  const uint32_t c = b.Read(kF32, y, {i, j, k});
  b.AddResult(b.Add(PHAL_KIR_OP_MULTIPLY, kF32,
                    {b.Add(PHAL_KIR_OP_ADD, kF32, {a, c}), a}));
  const Outcome out = RunBoth(loop.Desc());
  EXPECT_EQ(out.device[2], out.reference[2]);
  EXPECT_GT(out.counters.dram_bytes_read, 0u);
}

TEST(AsicCompiler, BroadcastsTransposesAndIotaReadThroughGathers) {
  KirKernel loop("transpose_bias", PHAL_KERNEL_KIND_LOOP);
  loop.dims = {37, 29};
  const uint32_t x = loop.AddBuffer(kS32, {29, 37});
  const uint32_t bias = loop.AddBuffer(kS32, {29});
  loop.outputs = {loop.AddBuffer(kS32, loop.dims, PHAL_KIR_ACCESS_WRITE)};
  KirBody& b = loop.body;
  const uint32_t i = b.Index(0), j = b.Index(1);
  const uint32_t t = b.Read(kS32, x, {j, i});
  const uint32_t v = b.Read(kS32, bias, {j});
  const uint32_t iota = b.Add(PHAL_KIR_OP_CONVERT, kS32, {i});
  b.AddResult(b.Add(PHAL_KIR_OP_ADD, kS32,
                    {b.Add(PHAL_KIR_OP_SUBTRACT, kS32, {t, v}), iota}));
  const Outcome out = RunBoth(loop.Desc());
  EXPECT_EQ(out.device[2], out.reference[2]);
}

// The functions built from the SFU's primitives stay within the
// conformance suite's 4 ulp (f32) on a sweep that includes the edges.
TEST(AsicCompiler, DerivedFunctionsStayWithinFourUlp) {
  std::vector<float> values = {0.0f,
                               -0.0f,
                               1e-30f,
                               -1e-30f,
                               1e-45f,
                               1e-7f,
                               -1e-7f,
                               0.5f,
                               -0.5f,
                               0.54f,
                               0.56f,
                               1.0f,
                               -1.0f,
                               -0.999f,
                               3.0f,
                               -3.0f,
                               9.0f,
                               20.0f,
                               -20.0f,
                               88.0f,
                               89.0f,
                               -87.0f,
                               -104.0f,
                               -110.0f,
                               1e10f,
                               -1e10f,
                               3e38f,
                               -3e38f,
                               std::numeric_limits<float>::infinity(),
                               -std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN()};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f);
  for (int i = 0; i < 4000; ++i) {
    const float v = std::exp2(exponent(rng)) * (i % 2 ? 1.0f : -1.0f);
    values.push_back(v);
  }
  const phal_kir_op_t ops[] = {PHAL_KIR_OP_EXPM1,    PHAL_KIR_OP_LOG1P,
                               PHAL_KIR_OP_LOGISTIC, PHAL_KIR_OP_TANH,
                               PHAL_KIR_OP_TAN,      PHAL_KIR_OP_CBRT};
  for (phal_kir_op_t op : ops) {
    KirKernel loop("derived", PHAL_KERNEL_KIND_LOOP);
    loop.dims = {static_cast<int64_t>(values.size())};
    const uint32_t x = loop.AddBuffer(kF32, loop.dims);
    loop.outputs = {loop.AddBuffer(kF32, loop.dims, PHAL_KIR_ACCESS_WRITE)};
    loop.body.AddResult(loop.body.Add(
        op, kF32, {loop.body.Read(kF32, x, {loop.body.Index(0)})}));
    std::vector<std::vector<uint8_t>> inputs(1);
    inputs[0].resize(values.size() * 4);
    std::memcpy(inputs[0].data(), values.data(), inputs[0].size());
    const Outcome out = RunBoth(loop.Desc(), {}, 1, &inputs);
    int64_t worst = 0;
    float at = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      const int64_t d =
          UlpDistance(F32At(out.device[1], i), F32At(out.reference[1], i));
      if (d > worst) {
        worst = d;
        at = values[i];
      }
    }
    EXPECT_LE(worst, 4) << "op " << op << " at x = " << at;
    RecordProperty("worst_ulp_op_" + std::to_string(op), std::to_string(worst));
  }
}

TEST(AsicCompiler, ReductionsAlongEitherDimensionAndBoth) {
  const std::vector<std::vector<int64_t>> shapes = {
      {3, 10000}, {10000, 3}, {64, 100}};
  const std::vector<std::vector<int64_t>> reduced = {{1}, {0}, {0, 1}};
  for (size_t s = 0; s < shapes.size(); ++s) {
    KirKernel reduce("sum", PHAL_KERNEL_KIND_REDUCE);
    plugin_testing::BuildSum(reduce, kS32, shapes[s], reduced[s]);
    const Outcome out = RunBoth(reduce.Desc());
    EXPECT_EQ(out.device[1], out.reference[1]) << "shape " << s;
  }
  KirKernel reduce("sum_f32", PHAL_KERNEL_KIND_REDUCE);
  plugin_testing::BuildSum(reduce, kF32, {5, 20000}, {1});
  const Outcome out = RunBoth(reduce.Desc());
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_NEAR(F32At(out.device[1], i), F32At(out.reference[1], i), 2e-2);
  }
}

TEST(AsicCompiler, DotsOnTheMatrixUnitAndOnTheVectorUnit) {
  struct Case {
    phal_element_type_t type, accumulation;
    int64_t m, n, k, stride;
  };
  const Case cases[] = {{kF32, kF32, 70, 300, 300, 1},
                        {PHAL_ELEMENT_TYPE_BF16, kF32, 33, 40, 600, 1},
                        {kF32, kF32, 5, 7, 9, 3},
                        {PHAL_ELEMENT_TYPE_S8, kS32, 65, 66, 67, 1},
                        {kS32, kS32, 17, 19, 23, 1}};
  for (const Case& c : cases) {
    KirKernel dot("matmul", PHAL_KERNEL_KIND_DOT);
    plugin_testing::BuildMatmul(dot, c.type, c.accumulation, c.m, c.n, c.k,
                                c.stride);
    const Outcome out = RunBoth(dot.Desc());
    if (c.accumulation == kS32) {
      EXPECT_EQ(out.device[2], out.reference[2]) << c.m;
    } else {
      for (int64_t i = 0; i < c.m * c.n; ++i) {
        ASSERT_NEAR(F32At(out.device[2], i), F32At(out.reference[2], i),
                    1e-5 * 16 * c.k)
            << "element " << i << " of " << c.m << "x" << c.n;
      }
    }
    if (c.type != kS32) {
      EXPECT_GT(out.counters.macs, 0u) << c.m;
    }
  }
}

// The array is kept busy on a large dot: the DMA of the next tiles
// overlaps the product of these (the model's figure, not a timing).
TEST(AsicCompiler, ALargeDotKeepsTheMatrixUnitAboveSeventyPercent) {
  KirKernel dot("matmul_512", PHAL_KERNEL_KIND_DOT);
  plugin_testing::BuildMatmul(dot, PHAL_ELEMENT_TYPE_BF16, kF32, 512, 512, 512);
  const ArchConfig config;
  const Outcome out = RunBoth(dot.Desc(), config);
  EXPECT_GT(out.counters.MatrixUtilization(config), 0.7)
      << Disassemble(out.program);
}

TEST(AsicCompiler, AStableSortOfSeveralOperands) {
  KirKernel sort("sort", PHAL_KERNEL_KIND_SORT);
  sort.sort.is_stable = 1;
  plugin_testing::BuildSort(sort, {kS32, kF32}, {5, 37}, 1);
  const Outcome out = RunBoth(sort.Desc());
  EXPECT_EQ(out.device[2], out.reference[2]);
  EXPECT_EQ(out.device[3], out.reference[3]);
  KirKernel columns("sort_columns", PHAL_KERNEL_KIND_SORT);
  columns.sort.is_stable = 1;
  plugin_testing::BuildSort(columns, {kS32}, {40, 3, 2}, 0,
                            PHAL_KIR_COMPARE_GT);
  const Outcome second = RunBoth(columns.Desc());
  EXPECT_EQ(second.device[1], second.reference[1]);
}

TEST(AsicCompiler, TypesTheMachineLacksAreRefusedByName) {
  KirKernel loop("f64", PHAL_KERNEL_KIND_LOOP);
  loop.dims = {4};
  const uint32_t x = loop.AddBuffer(PHAL_ELEMENT_TYPE_F64, loop.dims);
  loop.outputs = {
      loop.AddBuffer(PHAL_ELEMENT_TYPE_F64, loop.dims, PHAL_KIR_ACCESS_WRITE)};
  loop.body.AddResult(
      loop.body.Read(PHAL_ELEMENT_TYPE_F64, x, {loop.body.Index(0)}));
  auto program = CompileKernel({}, loop.Desc());
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_NE(program.status().message().find("f64"), std::string::npos);
}

}  // namespace
}  // namespace phal::asic_ref
