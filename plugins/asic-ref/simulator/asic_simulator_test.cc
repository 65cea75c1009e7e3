// The asic-ref simulator: programs written in assembly, their results
// against KIR's element semantics and naive loops, the timing model's
// cycle counts, and a status (never a crash) for every fault.
#include "simulator/asic_simulator.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "isa/asic_assembler.h"
#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/kir_interpreter/scalar_ops.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::asic_ref {
namespace {

using ::phal::plugin_testing::HasCode;
using ::phal::plugin_testing::IsOk;

// Device DRAM as separate allocations at distinct device addresses.
class TestDram : public DramView {
 public:
  uint64_t Allocate(uint64_t bytes) {
    const uint64_t address = 0x10000000ull + blocks_.size() * 0x10000000ull;
    blocks_.push_back({address, std::vector<uint8_t>(bytes)});
    return address;
  }
  template <typename T>
  uint64_t AllocateWith(const std::vector<T>& values) {
    const uint64_t address = Allocate(values.size() * sizeof(T));
    std::memcpy(Map(address, values.size() * sizeof(T)), values.data(),
                values.size() * sizeof(T));
    return address;
  }
  template <typename T>
  std::vector<T> Read(uint64_t address, size_t count) {
    std::vector<T> values(count);
    std::memcpy(values.data(), Map(address, count * sizeof(T)),
                count * sizeof(T));
    return values;
  }
  uint8_t* Map(uint64_t address, uint64_t bytes) override {
    for (Block& b : blocks_) {
      if (address >= b.address && address - b.address <= b.bytes.size() &&
          bytes <= b.bytes.size() - (address - b.address)) {
        return b.bytes.data() + (address - b.address);
      }
    }
    return nullptr;
  }

 private:
  struct Block {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Block> blocks_;
};

StatusOr<KernelCounters> RunText(Simulator& simulator, TestDram& dram,
                                 const std::string& text,
                                 std::vector<uint64_t> buffers,
                                 uint64_t max_instructions = 1ull << 40) {
  StatusOr<Program> program = Assemble(text, "test.s");
  if (!program.ok()) return program.status();
  return simulator.Run(*program, dram, buffers, max_instructions);
}

// -- The scalar core

TEST(AsicSimulatorTest, ScalarLoopSumsAndStoresThroughDma) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t out = dram.Allocate(9 * 8);
  const std::string text = R"(.kernel scalar_loop
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  li x2, 0
  li x3, 100
  li x4, 0
loop:
  add x4, x4, x2
  addi x2, x2, 1
  blt x2, x3, loop
  st x4, [x0+0x100]
  li x5, -7
  li x6, 2
  div x7, x5, x6
  st x7, [x0+0x108]
  rem x7, x5, x6
  st x7, [x0+0x110]
  shri x7, x5, 60
  st x7, [x0+0x118]
  slt x7, x5, x6
  min x8, x5, x6
  add x7, x7, x8
  st x7, [x0+0x120]
  li x0, 99
  st x0, [x0+0x128]
  ste.s8 x5, [x0+0x130]
  lde.s8 x9, [x0+0x130]
  lde.u8 x10, [x0+0x130]
  st x9, [x0+0x138]
  st x10, [x0+0x140]
  li x11, 9
  dma.st.s64 dram[x1], [x0+0x100], box=(x11, x0, x0), d0
  halt
)";
  StatusOr<KernelCounters> counters = RunText(simulator, dram, text, {out});
  ASSERT_TRUE(IsOk(counters.status()));
  const std::vector<int64_t> values = dram.Read<int64_t>(out, 9);
  EXPECT_EQ(values[0], 4950);
  EXPECT_EQ(values[1], -3);     // toward zero
  EXPECT_EQ(values[2], -1);     // sign of the dividend
  EXPECT_EQ(values[3], 15);     // logical shift
  EXPECT_EQ(values[4], 1 - 7);  // slt + min
  EXPECT_EQ(values[5], 0);      // x0 reads 0
  EXPECT_EQ(values[6], 0xf9);   // ste wrote one byte
  EXPECT_EQ(values[7], -7);     // lde.s8 sign-extends
  EXPECT_EQ(values[8], 0xf9);   // lde.u8 zero-extends
  // 4 before the loop, 100 iterations of 3, 22 after it.
  EXPECT_EQ(counters->instructions[static_cast<int>(Unit::kScalar)],
            4u + 300u + 22u);
  EXPECT_EQ(counters->instructions[static_cast<int>(Unit::kDmaOut)], 1u);
  EXPECT_EQ(counters->dram_bytes_written, 72u);
}

// -- Vector operations against KIR's scalar semantics

// Runs `op_line` (operands [x0+0x4000] = f([x0+0x1000], [x0+0x2000],
// [x0+0x3000]), n=x5) on `n` elements loaded from `inputs` and returns the
// `result_size`-byte elements at 0x4000.
StatusOr<std::vector<uint8_t>> RunVector(
    const std::string& op_line, const std::vector<std::vector<uint8_t>>& inputs,
    uint64_t n, uint64_t result_size) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  std::vector<uint64_t> buffers;
  std::string loads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    buffers.push_back(dram.AllocateWith(inputs[i]));
    loads += "  ld x1, [x0+" + std::to_string(8 * i) + "]\n";
    loads += "  li x6, " + std::to_string(inputs[i].size()) + "\n";
    loads += "  dma.ld.u8 [x0+0x" + std::to_string(i + 1) +
             "000], dram[x1], box=(x6, x0, x0), d0\n";
  }
  const uint64_t out = dram.Allocate(n * result_size);
  buffers.push_back(out);
  const std::string text =
      ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
      "  li x5, " +
      std::to_string(n) + "\n" + loads + "  " + op_line + "\n  ld x1, [x0+" +
      std::to_string(8 * inputs.size()) + "]\n  li x6, " +
      std::to_string(n * result_size) +
      "\n  dma.st.u8 dram[x1], [x0+0x4000], box=(x6, x0, x0), d0\n  halt\n";
  StatusOr<KernelCounters> counters = RunText(simulator, dram, text, buffers);
  if (!counters.ok()) return counters.status();
  return dram.Read<uint8_t>(out, n * result_size);
}

// Values that exercise the corners of each type: zeros, extremes, NaN,
// infinities, subnormals, and random bits.
std::vector<uint8_t> Corners(phal_element_type_t type, size_t n,
                             uint32_t seed) {
  const size_t size = ElementTypeByteSize(type);
  std::vector<uint8_t> bytes(n * size);
  std::mt19937_64 random(seed);
  for (auto& b : bytes) b = static_cast<uint8_t>(random());
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    for (auto& b : bytes) b &= 1;
    return bytes;
  }
  std::vector<uint64_t> specials = {0, 1, ~0ull, 2, 3, 7};
  if (type == PHAL_ELEMENT_TYPE_F32) {
    specials = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                0x3f800000, 0xbf800000, 0x00000001, 0x40490fdb, 0x4f000000};
  } else if (type == PHAL_ELEMENT_TYPE_F16) {
    specials = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00,
                0x3c00, 0xbc00, 0x0001, 0x4248, 0x7bff};
  } else if (type == PHAL_ELEMENT_TYPE_BF16) {
    specials = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0,
                0x3f80, 0xbf80, 0x0001, 0x4049, 0x7f7f};
  } else {
    const uint64_t sign = 1ull << (8 * size - 1);
    specials.push_back(sign);
    specials.push_back(sign - 1);
  }
  for (size_t i = 0; i < specials.size() && i < n; ++i) {
    std::memcpy(bytes.data() + ((i * 7) % n) * size, &specials[i], size);
  }
  return bytes;
}

struct KirCase {
  const char* mnemonic;
  phal_kir_op_t op;
  int sources;
};

// The specification of the mapping: each vector opcode computes the KIR op
// of the same name.
constexpr KirCase kKirCases[] = {
    {"vadd", PHAL_KIR_OP_ADD, 2},
    {"vsub", PHAL_KIR_OP_SUBTRACT, 2},
    {"vmul", PHAL_KIR_OP_MULTIPLY, 2},
    {"vdiv", PHAL_KIR_OP_DIVIDE, 2},
    {"vrem", PHAL_KIR_OP_REMAINDER, 2},
    {"vmax", PHAL_KIR_OP_MAXIMUM, 2},
    {"vmin", PHAL_KIR_OP_MINIMUM, 2},
    {"vand", PHAL_KIR_OP_AND, 2},
    {"vor", PHAL_KIR_OP_OR, 2},
    {"vxor", PHAL_KIR_OP_XOR, 2},
    {"vshl", PHAL_KIR_OP_SHIFT_LEFT, 2},
    {"vshra", PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, 2},
    {"vshrl", PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL, 2},
    {"vneg", PHAL_KIR_OP_NEGATE, 1},
    {"vabs", PHAL_KIR_OP_ABS, 1},
    {"vsign", PHAL_KIR_OP_SIGN, 1},
    {"vfloor", PHAL_KIR_OP_FLOOR, 1},
    {"vceil", PHAL_KIR_OP_CEIL, 1},
    {"vround.afz", PHAL_KIR_OP_ROUND_NEAREST_AFZ, 1},
    {"vround.even", PHAL_KIR_OP_ROUND_NEAREST_EVEN, 1},
    {"vnot", PHAL_KIR_OP_NOT, 1},
    {"vpopcnt", PHAL_KIR_OP_POPCNT, 1},
    {"vclz", PHAL_KIR_OP_CLZ, 1},
    {"vclamp", PHAL_KIR_OP_CLAMP, 3},
    {"vexp", PHAL_KIR_OP_EXP, 1},
    {"vlog", PHAL_KIR_OP_LOG, 1},
    {"vsin", PHAL_KIR_OP_SIN, 1},
    {"vcos", PHAL_KIR_OP_COS, 1},
    {"verf", PHAL_KIR_OP_ERF, 1},
    {"vsqrt", PHAL_KIR_OP_SQRT, 1},
    {"vrsqrt", PHAL_KIR_OP_RSQRT, 1},
    {"vpow", PHAL_KIR_OP_POWER, 2},
    {"vatan2", PHAL_KIR_OP_ATAN2, 2},
};

constexpr phal_element_type_t kMachineTypes[] = {
    PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_S8,   PHAL_ELEMENT_TYPE_S16,
    PHAL_ELEMENT_TYPE_S32,  PHAL_ELEMENT_TYPE_S64,  PHAL_ELEMENT_TYPE_U8,
    PHAL_ELEMENT_TYPE_U16,  PHAL_ELEMENT_TYPE_U32,  PHAL_ELEMENT_TYPE_U64,
    PHAL_ELEMENT_TYPE_F16,  PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F32};

std::string Sources(int count) {
  std::string text = "[x0+0x4000]";
  for (int i = 1; i <= count; ++i) {
    text += ", [x0+0x" + std::to_string(i) + "000]";
  }
  return text + ", n=x5";
}

// What KIR computes for `node` over `inputs`, or its error.
StatusOr<std::vector<uint8_t>> KirResult(
    const phal_kir_node_t& node, const std::vector<ElementType>& types,
    const std::vector<std::vector<uint8_t>>& inputs, size_t n) {
  PHAL_ASSIGN_OR_RETURN(kir_interpreter::ScalarOp op,
                        kir_interpreter::SelectScalarOp(node, types));
  std::vector<uint8_t> out(n * ElementTypeByteSize(node.type));
  kir_interpreter::ScalarOpArgs args;
  for (size_t i = 0; i < inputs.size(); ++i)
    args.operands[i] = inputs[i].data();
  args.result = out.data();
  args.count = static_cast<int64_t>(n);
  args.node = &node;
  op(args);
  return out;
}

TEST(AsicSimulatorTest, ElementwiseOpsComputeKirSemanticsOnEveryType) {
  constexpr size_t kN = 100;
  int compared = 0;
  for (const KirCase& c : kKirCases) {
    for (phal_element_type_t type : kMachineTypes) {
      const std::string name = c.mnemonic;
      // The SFU's primitives take floats only; vpow also takes integers.
      const bool floats_only = name == "vexp" || name == "vlog" ||
                               name == "vsin" || name == "vcos" ||
                               name == "verf" || name == "vsqrt" ||
                               name == "vrsqrt" || name == "vatan2";
      std::vector<std::vector<uint8_t>> inputs;
      for (int i = 0; i < c.sources; ++i) {
        inputs.push_back(Corners(type, kN, 17 * i + type));
      }
      phal_kir_node_t node{};
      node.op = c.op;
      node.type = type;
      const std::vector<ElementType> types(c.sources, type);
      StatusOr<std::vector<uint8_t>> expected =
          KirResult(node, types, inputs, kN);
      const std::string line = std::string(c.mnemonic) + "." +
                               ElementTypeName(type) + " " + Sources(c.sources);
      StatusOr<std::vector<uint8_t>> actual =
          RunVector(line, inputs, kN, ElementTypeByteSize(type));
      if (!expected.ok() || (floats_only && !IsFloat(type))) {
        EXPECT_FALSE(actual.ok()) << line;
        continue;
      }
      ASSERT_TRUE(IsOk(actual.status())) << line;
      EXPECT_EQ(*actual, *expected) << line;
      ++compared;
    }
  }
  EXPECT_GT(compared, 200);
}

TEST(AsicSimulatorTest, CompareConvertSelectAndFriendsComputeKirSemantics) {
  constexpr size_t kN = 64;
  // Compares in every direction and ordering.
  const char* directions[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  const char* orders[] = {"float", "totalorder", "signed", "unsigned"};
  for (phal_element_type_t type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_S16,
        PHAL_ELEMENT_TYPE_U32}) {
    const std::vector<std::vector<uint8_t>> inputs = {Corners(type, kN, 1),
                                                      Corners(type, kN, 2)};
    for (int d = 0; d < 6; ++d) {
      for (int o = 0; o < 4; ++o) {
        phal_kir_node_t node{};
        node.op = PHAL_KIR_OP_COMPARE;
        node.type = PHAL_ELEMENT_TYPE_PRED;
        node.attributes[0] = d;
        node.attributes[1] = o;
        StatusOr<std::vector<uint8_t>> expected =
            KirResult(node, {type, type}, inputs, kN);
        ASSERT_TRUE(IsOk(expected.status()));
        const std::string line = std::string("vcmp.") + ElementTypeName(type) +
                                 "." + directions[d] + "." + orders[o] + " " +
                                 Sources(2);
        StatusOr<std::vector<uint8_t>> actual = RunVector(line, inputs, kN, 1);
        ASSERT_TRUE(IsOk(actual.status())) << line;
        EXPECT_EQ(*actual, *expected) << line;
      }
    }
  }
  // Converts between every pair, bitcasts, is_finite, select,
  // reduce_precision.
  for (phal_element_type_t from : kMachineTypes) {
    const std::vector<std::vector<uint8_t>> inputs = {Corners(from, kN, 3)};
    for (phal_element_type_t to : kMachineTypes) {
      phal_kir_node_t node{};
      node.op = PHAL_KIR_OP_CONVERT;
      node.type = to;
      StatusOr<std::vector<uint8_t>> expected =
          KirResult(node, {from}, inputs, kN);
      ASSERT_TRUE(IsOk(expected.status()));
      const std::string line = std::string("vcvt.") + ElementTypeName(to) +
                               "." + ElementTypeName(from) + " " + Sources(1);
      StatusOr<std::vector<uint8_t>> actual =
          RunVector(line, inputs, kN, ElementTypeByteSize(to));
      ASSERT_TRUE(IsOk(actual.status())) << line;
      EXPECT_EQ(*actual, *expected) << line;
    }
  }
  const std::vector<std::vector<uint8_t>> f32 = {
      Corners(PHAL_ELEMENT_TYPE_F32, kN, 4)};
  StatusOr<std::vector<uint8_t>> bitcast =
      RunVector("vbitcast.s32.f32 " + Sources(1), f32, kN, 4);
  ASSERT_TRUE(IsOk(bitcast.status()));
  EXPECT_EQ(*bitcast, f32[0]);
  EXPECT_FALSE(RunVector("vbitcast.s16.f32 " + Sources(1), f32, kN, 2).ok());

  phal_kir_node_t finite{};
  finite.op = PHAL_KIR_OP_IS_FINITE;
  finite.type = PHAL_ELEMENT_TYPE_PRED;
  StatusOr<std::vector<uint8_t>> finite_expected =
      KirResult(finite, {PHAL_ELEMENT_TYPE_F32}, f32, kN);
  ASSERT_TRUE(IsOk(finite_expected.status()));
  StatusOr<std::vector<uint8_t>> finite_actual =
      RunVector("visfinite.f32 " + Sources(1), f32, kN, 1);
  ASSERT_TRUE(IsOk(finite_actual.status()));
  EXPECT_EQ(*finite_actual, *finite_expected);

  const std::vector<std::vector<uint8_t>> select = {
      Corners(PHAL_ELEMENT_TYPE_PRED, kN, 5),
      Corners(PHAL_ELEMENT_TYPE_F16, kN, 6),
      Corners(PHAL_ELEMENT_TYPE_F16, kN, 7)};
  phal_kir_node_t sel{};
  sel.op = PHAL_KIR_OP_SELECT;
  sel.type = PHAL_ELEMENT_TYPE_F16;
  StatusOr<std::vector<uint8_t>> sel_expected = KirResult(
      sel,
      {PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_F16},
      select, kN);
  ASSERT_TRUE(IsOk(sel_expected.status()));
  StatusOr<std::vector<uint8_t>> sel_actual =
      RunVector("vsel.f16 " + Sources(3), select, kN, 2);
  ASSERT_TRUE(IsOk(sel_actual.status()));
  EXPECT_EQ(*sel_actual, *sel_expected);

  phal_kir_node_t reduce{};
  reduce.op = PHAL_KIR_OP_REDUCE_PRECISION;
  reduce.type = PHAL_ELEMENT_TYPE_F32;
  reduce.attributes[0] = 5;
  reduce.attributes[1] = 10;
  StatusOr<std::vector<uint8_t>> reduce_expected =
      KirResult(reduce, {PHAL_ELEMENT_TYPE_F32}, f32, kN);
  ASSERT_TRUE(IsOk(reduce_expected.status()));
  StatusOr<std::vector<uint8_t>> reduce_actual = RunVector(
      "vreduceprec.f32 [x0+0x4000], [x0+0x1000], e=5, m=10, n=x5", f32, kN, 4);
  ASSERT_TRUE(IsOk(reduce_actual.status()));
  EXPECT_EQ(*reduce_actual, *reduce_expected);
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> Values(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TEST(AsicSimulatorTest, IntegerDivisionByZeroAndOverflowFollowKir) {
  const int32_t kMin = std::numeric_limits<int32_t>::min();
  const std::vector<std::vector<uint8_t>> inputs = {
      Bytes<int32_t>({7, -7, kMin, 5}), Bytes<int32_t>({0, 0, -1, 32})};
  StatusOr<std::vector<uint8_t>> div =
      RunVector("vdiv.s32 " + Sources(2), inputs, 4, 4);
  ASSERT_TRUE(IsOk(div.status()));
  EXPECT_EQ(Values<int32_t>(*div), (std::vector<int32_t>{-1, -1, kMin, 0}));
  StatusOr<std::vector<uint8_t>> rem =
      RunVector("vrem.s32 " + Sources(2), inputs, 4, 4);
  ASSERT_TRUE(IsOk(rem.status()));
  EXPECT_EQ(Values<int32_t>(*rem), (std::vector<int32_t>{7, -7, 0, 5}));
  StatusOr<std::vector<uint8_t>> shl =
      RunVector("vshl.s32 " + Sources(2), inputs, 4, 4);
  ASSERT_TRUE(IsOk(shl.status()));
  EXPECT_EQ(Values<int32_t>(*shl)[3], 0);  // shifted out entirely
}

TEST(AsicSimulatorTest, FloatComparesUseTheOrderingTheFlagsName) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<std::vector<uint8_t>> inputs = {
      Bytes<float>({-nan, -0.0f, nan, 1.0f}),
      Bytes<float>({-inf, 0.0f, nan, 1.0f})};
  StatusOr<std::vector<uint8_t>> total =
      RunVector("vcmp.f32.lt.totalorder " + Sources(2), inputs, 4, 1);
  ASSERT_TRUE(IsOk(total.status()));
  EXPECT_EQ(*total, (std::vector<uint8_t>{1, 1, 0, 0}));
  StatusOr<std::vector<uint8_t>> ieee =
      RunVector("vcmp.f32.eq.float " + Sources(2), inputs, 4, 1);
  ASSERT_TRUE(IsOk(ieee.status()));
  EXPECT_EQ(*ieee, (std::vector<uint8_t>{0, 1, 0, 1}));
}

TEST(AsicSimulatorTest, SixteenBitFloatsRoundOnceToTheirType) {
  // bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7; it rounds to even (1).
  const std::vector<std::vector<uint8_t>> bf16 = {
      Bytes<uint16_t>({0x3f80, 0x3f80}), Bytes<uint16_t>({0x3b80, 0x3c00})};
  StatusOr<std::vector<uint8_t>> sum =
      RunVector("vadd.bf16 " + Sources(2), bf16, 2, 2);
  ASSERT_TRUE(IsOk(sum.status()));
  EXPECT_EQ(Values<uint16_t>(*sum), (std::vector<uint16_t>{0x3f80, 0x3f81}));
  // f16: 65504 * 2 overflows to infinity.
  const std::vector<std::vector<uint8_t>> f16 = {Bytes<uint16_t>({0x7bff}),
                                                 Bytes<uint16_t>({0x4000})};
  StatusOr<std::vector<uint8_t>> product =
      RunVector("vmul.f16 " + Sources(2), f16, 1, 2);
  ASSERT_TRUE(IsOk(product.status()));
  EXPECT_EQ(Values<uint16_t>(*product)[0], 0x7c00);
  // The SFU rounds the exact function once: exp(1) in f32.
  StatusOr<std::vector<uint8_t>> e =
      RunVector("vexp.f32 " + Sources(1), {Bytes<float>({1.0f})}, 1, 4);
  ASSERT_TRUE(IsOk(e.status()));
  EXPECT_EQ(Values<float>(*e)[0], static_cast<float>(std::exp(1.0)));
}

// -- Vector operations the unit defines itself

TEST(AsicSimulatorTest, FillIotaBroadcastMoveAndPermute) {
  const std::vector<std::vector<uint8_t>> inputs = {
      Bytes<int32_t>({10, 20, 30, 40}), Bytes<int64_t>({3, 0, 3, 1})};
  StatusOr<std::vector<uint8_t>> fill = RunVector(
      "li x9, 0x1234567f\n  vfill.s16 [x0+0x4000], x9, n=x5", inputs, 4, 2);
  ASSERT_TRUE(IsOk(fill.status()));
  EXPECT_EQ(Values<int16_t>(*fill), (std::vector<int16_t>(4, 0x567f)));
  StatusOr<std::vector<uint8_t>> iota =
      RunVector("li x9, -2\n  viota.s32 [x0+0x4000], x9, n=x5", inputs, 4, 4);
  ASSERT_TRUE(IsOk(iota.status()));
  EXPECT_EQ(Values<int32_t>(*iota), (std::vector<int32_t>{-2, -1, 0, 1}));
  StatusOr<std::vector<uint8_t>> bcast =
      RunVector("vbcast.s32 [x0+0x4000], [x0+0x1004], n=x5", inputs, 4, 4);
  ASSERT_TRUE(IsOk(bcast.status()));
  EXPECT_EQ(Values<int32_t>(*bcast), (std::vector<int32_t>(4, 20)));
  StatusOr<std::vector<uint8_t>> mov =
      RunVector("vmov.s32 " + Sources(1), inputs, 4, 4);
  ASSERT_TRUE(IsOk(mov.status()));
  EXPECT_EQ(*mov, inputs[0]);
  StatusOr<std::vector<uint8_t>> perm =
      RunVector("vperm.s32 " + Sources(2), inputs, 4, 4);
  ASSERT_TRUE(IsOk(perm.status()));
  EXPECT_EQ(Values<int32_t>(*perm), (std::vector<int32_t>{40, 10, 40, 20}));
  // In place: d == a.
  StatusOr<std::vector<uint8_t>> in_place = RunVector(
      "vperm.s32 [x0+0x1000], [x0+0x1000], [x0+0x2000], n=x5\n"
      "  vmov.s32 [x0+0x4000], [x0+0x1000], n=x5",
      inputs, 4, 4);
  ASSERT_TRUE(IsOk(in_place.status()));
  EXPECT_EQ(Values<int32_t>(*in_place), (std::vector<int32_t>{40, 10, 40, 20}));
}

TEST(AsicSimulatorTest, ReductionsFoldInOrderRoundingEachStep) {
  // In order: ((1e8 + 1) - 1e8) + 1 = 1 in f32 (a tree would give 2 or 0).
  StatusOr<std::vector<uint8_t>> sum =
      RunVector("vred.add.f32 " + Sources(1),
                {Bytes<float>({1e8f, 1.0f, -1e8f, 1.0f})}, 4, 4);
  ASSERT_TRUE(IsOk(sum.status()));
  EXPECT_EQ(Values<float>(*sum)[0], 1.0f);
  StatusOr<std::vector<uint8_t>> max = RunVector(
      "vred.max.f32 " + Sources(1),
      {Bytes<float>({1.0f, std::numeric_limits<float>::quiet_NaN(), 3.0f})}, 3,
      4);
  ASSERT_TRUE(IsOk(max.status()));
  EXPECT_TRUE(std::isnan(Values<float>(*max)[0]));
  StatusOr<std::vector<uint8_t>> min = RunVector(
      "vred.min.s8 " + Sources(1), {Bytes<int8_t>({5, -128, 127, 0})}, 4, 1);
  ASSERT_TRUE(IsOk(min.status()));
  EXPECT_EQ(Values<int8_t>(*min)[0], -128);
  StatusOr<std::vector<uint8_t>> wrap = RunVector(
      "vred.add.u8 " + Sources(1), {Bytes<uint8_t>({200, 100, 1})}, 3, 1);
  ASSERT_TRUE(IsOk(wrap.status()));
  EXPECT_EQ((*wrap)[0], 45);
  StatusOr<std::vector<uint8_t>> any = RunVector(
      "vred.max.pred " + Sources(1), {Bytes<uint8_t>({0, 1, 0})}, 3, 1);
  ASSERT_TRUE(IsOk(any.status()));
  EXPECT_EQ((*any)[0], 1);
}

// -- DMA

TEST(AsicSimulatorTest, DmaBoxesTransposeThroughStrides) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  // A 3 x 4 matrix, row-major.
  const std::vector<float> matrix = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const uint64_t in = dram.AllocateWith(matrix);
  const uint64_t out = dram.Allocate(12 * 4);
  const uint64_t strided = dram.AllocateWith(std::vector<float>(24, -1.0f));
  // d0: i (4 columns) strides DRAM by 1 and SRAM by 3; j (3 rows) strides
  // DRAM by 4 and SRAM by 1: SRAM holds the 4 x 3 transpose.
  const std::string text = R"(.kernel transpose
.desc d0 dram=(1, 4, 0) sram=(3, 1, 0)
.desc d1 dram=(1, 0, 0) sram=(1, 0, 0)
.desc d2 dram=(2, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  ld x3, [x0+16]
  li x4, 4
  li x5, 3
  li x6, 12
  dma.ld.f32 [x0+0x100], dram[x1], box=(x4, x5, x0), d0
  dma.st.f32 dram[x2], [x0+0x100], box=(x6, x0, x0), d1
  dma.st.f32 dram[x3], [x0+0x100], box=(x6, x0, x0), d2
  halt
)";
  StatusOr<KernelCounters> counters =
      RunText(simulator, dram, text, {in, out, strided});
  ASSERT_TRUE(IsOk(counters.status()));
  EXPECT_EQ(dram.Read<float>(out, 12),
            (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  const std::vector<float> spread = dram.Read<float>(strided, 24);
  EXPECT_EQ(spread[0], 0);
  EXPECT_EQ(spread[1], -1);
  EXPECT_EQ(spread[2], 4);
  EXPECT_EQ(spread[22], 11);
  EXPECT_EQ(counters->dram_bytes_read, 48u);
  EXPECT_EQ(counters->dram_bytes_written, 96u);
  // The transposing box moves 12 runs of one element: latency + 12 cycles.
  // The contiguous store is one run of 48 bytes: latency + 1; the strided
  // store 12 runs.
  const ArchConfig config;
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kDmaIn)],
            config.dma_latency_cycles + 12);
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kDmaOut)],
            2 * config.dma_latency_cycles + 1 + 12);
}

// The scratchpad aperture: a box whose DRAM side is at kScratchpadAperture
// + a moves bytes within SRAM, at on-chip latency, with no DRAM traffic,
// ordered by the scoreboard (the load from the aperture waits for the
// store to it).
TEST(AsicSimulatorTest, TheScratchpadApertureMovesBytesOnChip) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const std::vector<float> matrix = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  const uint64_t in = dram.AllocateWith(matrix);
  const uint64_t out = dram.Allocate(12 * 4);
  const std::string text = R"(.kernel on_chip
.desc d0 dram=(1, 4, 0) sram=(3, 1, 0)
.desc d1 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  li x9, )" + std::to_string(kScratchpadAperture + 0x10000) +
                           R"(
  li x4, 4
  li x5, 3
  li x6, 12
  dma.ld.f32 [x0+0x100], dram[x1], box=(x6, x0, x0), d1
  dma.st.f32 dram[x9], [x0+0x100], box=(x6, x0, x0), d1
  dma.ld.f32 [x0+0x200], dram[x9], box=(x4, x5, x0), d0
  dma.st.f32 dram[x2], [x0+0x200], box=(x6, x0, x0), d1
  halt
)";
  StatusOr<KernelCounters> counters = RunText(simulator, dram, text, {in, out});
  ASSERT_TRUE(IsOk(counters.status()));
  EXPECT_EQ(dram.Read<float>(out, 12),
            (std::vector<float>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  EXPECT_EQ(counters->dram_bytes_read, 48u);
  EXPECT_EQ(counters->dram_bytes_written, 48u);
  const ArchConfig config;
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kDmaIn)],
            config.dma_latency_cycles + 1 + kScratchpadDmaLatencyCycles + 12);
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kDmaOut)],
            kScratchpadDmaLatencyCycles + 1 + config.dma_latency_cycles + 1);
  // Each transfer waits for the one before it through SRAM.
  EXPECT_GE(counters->cycles, 2 * (config.dma_latency_cycles + 1) +
                                  2 * kScratchpadDmaLatencyCycles + 1 + 12);
}

// An aperture address past the scratchpad faults like any SRAM access.
TEST(AsicSimulatorTest, TheApertureEndsWithTheScratchpad) {
  const ArchConfig config;
  Simulator simulator{config};
  TestDram dram;
  const uint64_t in = dram.Allocate(64);
  const std::string text = R"(.kernel past_the_end
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  li x9, )" + std::to_string(kScratchpadAperture + config.sram_bytes - 8) +
                           R"(
  li x6, 16
  dma.ld.f32 [x0+0x100], dram[x9], box=(x6, x0, x0), d0
  halt
)";
  StatusOr<KernelCounters> counters = RunText(simulator, dram, text, {in});
  ASSERT_FALSE(counters.ok());
  EXPECT_EQ(counters.status().code(), PHAL_OUT_OF_RANGE);
  EXPECT_NE(counters.status().message().find("outside"), std::string::npos)
      << counters.status().message();
}

TEST(AsicSimulatorTest, ThreeDimensionalBoxesAndNegativeStrides) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  std::vector<int16_t> values(2 * 3 * 4);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int16_t>(i);
  const uint64_t in = dram.AllocateWith(values);
  const uint64_t out = dram.Allocate(values.size() * 2);
  // Reverse the last dimension while loading: DRAM stride -1 from the last
  // element of each row.
  const std::string text = R"(.kernel reverse
.desc d0 dram=(12, 4, -1) sram=(12, 4, 1)
.desc d1 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  addi x1, x1, 6
  li x4, 2
  li x5, 3
  li x6, 4
  li x7, 24
  dma.ld.s16 [x0+0x100], dram[x1], box=(x4, x5, x6), d0
  dma.st.s16 dram[x2], [x0+0x100], box=(x7, x0, x0), d1
  halt
)";
  ASSERT_TRUE(IsOk(RunText(simulator, dram, text, {in, out}).status()));
  const std::vector<int16_t> result = dram.Read<int16_t>(out, 24);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 3; ++j) {
      for (int l = 0; l < 4; ++l) {
        EXPECT_EQ(result[i * 12 + j * 4 + l], values[i * 12 + j * 4 + 3 - l]);
      }
    }
  }
}

TEST(AsicSimulatorTest, GatherZeroesNegativeOffsetsAndScatterAppliesInOrder) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t table =
      dram.AllocateWith(std::vector<int32_t>{10, 11, 12, 13});
  const uint64_t gather_list =
      dram.AllocateWith(std::vector<int64_t>{2, -1, 0, 2, -5});
  const uint64_t gathered = dram.Allocate(5 * 4);
  const uint64_t target = dram.AllocateWith(std::vector<int32_t>{0, 0, 0, 0});
  const uint64_t scatter_list =
      dram.AllocateWith(std::vector<int64_t>{1, -1, 1, 3});
  const std::string text = R"(.kernel gather_scatter
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  ld x3, [x0+16]
  ld x4, [x0+24]
  ld x5, [x0+32]
  li x6, 5
  li x7, 4
  dma.ld.s64 [x0+0x200], dram[x2], box=(x6, x0, x0), d0
  dma.gather.s32 [x0+0x100], dram[x1], idx=[x0+0x200], n=x6
  dma.st.s32 dram[x3], [x0+0x100], box=(x6, x0, x0), d0
  dma.ld.s64 [x0+0x300], dram[x5], box=(x7, x0, x0), d0
  viota.s32 [x0+0x400], x7, n=x7
  dma.scatter.s32 dram[x4], [x0+0x400], idx=[x0+0x300], n=x7
  halt
)";
  StatusOr<KernelCounters> counters =
      RunText(simulator, dram, text,
              {table, gather_list, gathered, target, scatter_list});
  ASSERT_TRUE(IsOk(counters.status()));
  EXPECT_EQ(dram.Read<int32_t>(gathered, 5),
            (std::vector<int32_t>{12, 0, 10, 12, 0}));
  // Values 4, 5, 6, 7 to offsets 1, skip, 1, 3: the later write wins.
  EXPECT_EQ(dram.Read<int32_t>(target, 4), (std::vector<int32_t>{0, 6, 0, 7}));
}

// -- The matrix unit

template <typename T>
std::vector<T> RandomTile(size_t count, uint32_t seed, T (*make)(float)) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  std::vector<T> values(count);
  for (auto& v : values) v = make(dist(random));
  return values;
}

// Runs mm.<a>.<b> over m x k and k x n tiles loaded from DRAM, starting from
// `init` (or zero), and returns the m x n accumulator.
std::vector<uint8_t> RunMatMul(const std::string& types, int64_t m, int64_t k,
                               int64_t n, const std::vector<uint8_t>& a,
                               const std::vector<uint8_t>& b,
                               const std::vector<uint8_t>* init) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t da = dram.AllocateWith(a);
  const uint64_t db = dram.AllocateWith(b);
  const uint64_t dc =
      init != nullptr ? dram.AllocateWith(*init) : dram.Allocate(m * n * 4);
  const std::string text =
      ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
      "  ld x1, [x0+0]\n  ld x2, [x0+8]\n  ld x3, [x0+16]\n"
      "  li x4, " +
      std::to_string(m) + "\n  li x5, " + std::to_string(k) + "\n  li x6, " +
      std::to_string(n) + "\n" + "  li x7, " + std::to_string(a.size()) +
      "\n  li x8, " + std::to_string(b.size()) + "\n  li x9, " +
      std::to_string(m * n * 4) +
      "\n"
      "  dma.ld.u8 [x0+0x1000], dram[x1], box=(x7, x0, x0), d0\n"
      "  dma.ld.u8 [x0+0x20000], dram[x2], box=(x8, x0, x0), d0\n"
      "  dma.ld.u8 [x0+0x40000], dram[x3], box=(x9, x0, x0), d0\n"
      "  mm." +
      types + " [x0+0x40000], [x0+0x1000], [x0+0x20000], m=x4, k=x5, n=x6" +
      (init != nullptr ? "" : ", zero") +
      "\n  dma.st.u8 dram[x3], [x0+0x40000], box=(x9, x0, x0), d0\n  halt\n";
  StatusOr<KernelCounters> counters =
      RunText(simulator, dram, text, {da, db, dc});
  EXPECT_TRUE(IsOk(counters.status()));
  if (counters.ok()) {
    EXPECT_EQ(counters->macs, static_cast<uint64_t>(m * k * n));
    const uint64_t a32 = 32;
    EXPECT_EQ(counters->busy[static_cast<int>(Unit::kMatrix)],
              a32 + ((k + 31) / 32) * ((n + 31) / 32) * (m + a32));
  }
  return dram.Read<uint8_t>(dc, m * n * 4);
}

float Identity(float x) { return x; }
uint16_t ToBf16(float x) { return FloatToBFloat16(x); }
uint16_t ToF16(float x) { return FloatToHalf(x); }

TEST(AsicSimulatorTest, MatMulAccumulatesInF32InKOrder) {
  const int64_t m = 37, k = 70, n = 45;
  const std::vector<float> a = RandomTile<float>(m * k, 1, &Identity);
  const std::vector<uint16_t> b = RandomTile<uint16_t>(k * n, 2, &ToBf16);
  const std::vector<float> init = RandomTile<float>(m * n, 3, &Identity);
  std::vector<float> expected = init;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = expected[i * n + j];
      for (int64_t kk = 0; kk < k; ++kk) {
        acc = std::fmaf(a[i * k + kk], BFloat16ToFloat(b[kk * n + j]), acc);
      }
      expected[i * n + j] = acc;
    }
  }
  const std::vector<uint8_t> init_bytes = Bytes(init);
  EXPECT_EQ(Values<float>(RunMatMul("f32.bf16", m, k, n, Bytes(a), Bytes(b),
                                    &init_bytes)),
            expected);
}

TEST(AsicSimulatorTest, MatMulOfSixteenBitFloatsStartsFromZero) {
  const int64_t m = 8, k = 33, n = 13;
  const std::vector<uint16_t> a = RandomTile<uint16_t>(m * k, 4, &ToF16);
  const std::vector<uint16_t> b = RandomTile<uint16_t>(k * n, 5, &ToBf16);
  std::vector<float> expected(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (int64_t kk = 0; kk < k; ++kk) {
        acc = std::fmaf(HalfToFloat(a[i * k + kk]),
                        BFloat16ToFloat(b[kk * n + j]), acc);
      }
      expected[i * n + j] = acc;
    }
  }
  EXPECT_EQ(Values<float>(
                RunMatMul("f16.bf16", m, k, n, Bytes(a), Bytes(b), nullptr)),
            expected);
}

TEST(AsicSimulatorTest, MatMulOfS8AccumulatesInWrappingS32) {
  const int64_t m = 3, k = 300, n = 20;
  std::vector<int8_t> a(m * k, -128), b(k * n, -128);
  b[0] = 1;
  std::vector<int32_t> init(m * n, std::numeric_limits<int32_t>::max());
  std::vector<int32_t> expected(m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      uint32_t acc = static_cast<uint32_t>(init[i * n + j]);
      for (int64_t kk = 0; kk < k; ++kk) {
        acc += static_cast<uint32_t>(a[i * k + kk] * b[kk * n + j]);
      }
      expected[i * n + j] = static_cast<int32_t>(acc);
    }
  }
  const std::vector<uint8_t> init_bytes = Bytes(init);
  EXPECT_EQ(Values<int32_t>(
                RunMatMul("s8.s8", m, k, n, Bytes(a), Bytes(b), &init_bytes)),
            expected);
}

// -- Timing

TEST(AsicSimulatorTest, OneVectorOpCostsLatencyPlusLanes) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  StatusOr<KernelCounters> counters = RunText(simulator, dram, R"(
  li x5, 100
  vadd.f32 [x0+0x1000], [x0+0x2000], [x0+0x3000], n=x5
  halt
)",
                                              {});
  ASSERT_TRUE(IsOk(counters.status()));
  // li at cycle 0; vadd issued in cycle 1, starts at 2, runs 8 + ceil(100 /
  // 64) = 10 cycles; halt waits for it and takes a cycle.
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kVector)], 10u);
  EXPECT_EQ(counters->cycles, 13u);
  EXPECT_EQ(counters->vector_elements, 100u);
  EXPECT_EQ(counters->busy[static_cast<int>(Unit::kScalar)], 3u);
}

TEST(AsicSimulatorTest, CostsScaleForDivisionSfuPermuteAndWideElements) {
  auto vector_busy = [](const std::string& line) {
    Simulator simulator{ArchConfig()};
    TestDram dram;
    StatusOr<KernelCounters> counters =
        RunText(simulator, dram, "  li x5, 640\n  " + line + "\n  halt\n", {});
    EXPECT_TRUE(IsOk(counters.status())) << line;
    return counters.ok() ? counters->busy[static_cast<int>(Unit::kVector)] : 0;
  };
  EXPECT_EQ(vector_busy("vadd.s32 [x0+0x0], [x0+0x1000], [x0+0x2000], n=x5"),
            8u + 10u);
  EXPECT_EQ(vector_busy("vadd.s64 [x0+0x0], [x0+0x2000], [x0+0x4000], n=x5"),
            8u + 20u);
  EXPECT_EQ(vector_busy("vdiv.f32 [x0+0x0], [x0+0x1000], [x0+0x2000], n=x5"),
            8u + 40u);
  EXPECT_EQ(vector_busy("vexp.f16 [x0+0x0], [x0+0x1000], n=x5"), 8u + 40u);
  EXPECT_EQ(vector_busy("vperm.s8 [x0+0x0], [x0+0x1000], [x0+0x2000], n=x5"),
            8u + 20u);
  EXPECT_EQ(vector_busy("vcvt.f32.s64 [x0+0x0], [x0+0x2000], n=x5"), 8u + 20u);
}

// Loads 8 tiles of 1024 f32, applies exp and stores them: double buffered
// (the load of tile i + 1 overlaps the compute of tile i), or in place in
// one buffer (each step waits for the one before).
std::string Pipeline(bool double_buffered) {
  if (!double_buffered) {
    return R"(.kernel serial
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  li x5, 1024
  li x6, 4096
  li x7, 8
loop:
  dma.ld.f32 [x0+0x1000], dram[x1], box=(x5, x0, x0), d0
  vexp.f32 [x0+0x1000], [x0+0x1000], n=x5
  dma.st.f32 dram[x2], [x0+0x1000], box=(x5, x0, x0), d0
  add x1, x1, x6
  add x2, x2, x6
  addi x8, x8, 1
  blt x8, x7, loop
  halt
)";
  }
  return R"(.kernel pipeline
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  li x5, 1024
  li x6, 4096
  li x7, 8
  li x10, 0x1000
  li x11, 0x9000
  dma.ld.f32 [x10+0x0], dram[x1], box=(x5, x0, x0), d0
loop:
  add x1, x1, x6
  addi x8, x8, 1
  bge x8, x7, compute
  dma.ld.f32 [x11+0x0], dram[x1], box=(x5, x0, x0), d0
compute:
  vexp.f32 [x10+0x4000], [x10+0x0], n=x5
  dma.st.f32 dram[x2], [x10+0x4000], box=(x5, x0, x0), d0
  add x2, x2, x6
  add x12, x10, x0
  add x10, x11, x0
  add x11, x12, x0
  blt x8, x7, loop
  halt
)";
}

TEST(AsicSimulatorTest, DoubleBufferingOverlapsDmaAndCompute) {
  std::vector<float> input(8 * 1024);
  for (size_t i = 0; i < input.size(); ++i) {
    input[i] = static_cast<float>(i % 97) / 50.0f - 1.0f;
  }
  uint64_t cycles[2];
  for (bool double_buffered : {false, true}) {
    Simulator simulator{ArchConfig()};
    TestDram dram;
    const uint64_t in = dram.AllocateWith(input);
    const uint64_t out = dram.Allocate(input.size() * 4);
    StatusOr<KernelCounters> counters =
        RunText(simulator, dram, Pipeline(double_buffered), {in, out});
    ASSERT_TRUE(IsOk(counters.status()));
    const std::vector<float> result = dram.Read<float>(out, input.size());
    for (size_t i = 0; i < input.size(); i += 501) {
      EXPECT_EQ(result[i], static_cast<float>(std::exp(double{input[i]})));
    }
    const auto& busy = counters->busy;
    const uint64_t in_busy = busy[static_cast<int>(Unit::kDmaIn)];
    const uint64_t vector_busy = busy[static_cast<int>(Unit::kVector)];
    const uint64_t out_busy = busy[static_cast<int>(Unit::kDmaOut)];
    EXPECT_EQ(in_busy, 8u * (256 + 64));
    EXPECT_EQ(vector_busy, 8u * (8 + 4 * 16));
    EXPECT_GE(counters->cycles, std::max({in_busy, vector_busy, out_busy}));
    cycles[double_buffered] = counters->cycles;
    if (double_buffered) {
      EXPECT_LT(counters->cycles, in_busy + vector_busy + out_busy);
      EXPECT_GT(counters->Utilization(Unit::kDmaIn), 0.8);
    } else {
      // One buffer: each load waits for the store that read the buffer
      // before it, and nothing overlaps.
      EXPECT_GE(counters->cycles, in_busy + vector_busy + out_busy);
    }
  }
  EXPECT_LT(cycles[1] * 10, cycles[0] * 7);
}

TEST(AsicSimulatorTest, DependentChainSerializes) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t in = dram.Allocate(4096);
  const uint64_t out = dram.Allocate(4096);
  StatusOr<KernelCounters> counters = RunText(simulator, dram, R"(
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+8]
  li x5, 1024
  dma.ld.f32 [x0+0x1000], dram[x1], box=(x5, x0, x0), d0
  vadd.f32 [x0+0x2000], [x0+0x1000], [x0+0x1000], n=x5
  dma.st.f32 dram[x2], [x0+0x2000], box=(x5, x0, x0), d0
  halt
)",
                                              {in, out});
  ASSERT_TRUE(IsOk(counters.status()));
  // dma.ld issued in cycle 3 starts at 4 and runs 320; vadd starts when it
  // finishes and runs 24; dma.st then runs 320; halt takes one more cycle.
  EXPECT_EQ(counters->cycles, 4u + 320u + 24u + 320u + 1u);
}

TEST(AsicSimulatorTest, ScalarLoadsWaitForTheSramTheyRead) {
  auto cycles = [](const std::string& address) {
    Simulator simulator{ArchConfig()};
    TestDram dram;
    const uint64_t in = dram.Allocate(64);
    StatusOr<KernelCounters> counters =
        RunText(simulator, dram,
                ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
                "  ld x1, [x0+0]\n  li x5, 8\n"
                "  dma.ld.s64 [x0+0x1000], dram[x1], box=(x5, x0, x0), d0\n"
                "  ld x9, [x0+" +
                    address +
                    "]\n"
                    "  li x3, 200\nloop:\n  addi x2, x2, 1\n  blt x2, x3, "
                    "loop\n  halt\n",
                {in});
    EXPECT_TRUE(IsOk(counters.status()));
    return counters.ok() ? counters->cycles : 0;
  };
  // The loop (800 cycles) starts after the DMA (257 cycles) when the load
  // reads what the DMA writes, at once otherwise.
  EXPECT_EQ(cycles("0x1008") - cycles("0x2000"), 257u + 4u - 4u);
}

TEST(AsicSimulatorTest, ScalarStoresWaitForEarlierReadersOfTheirSram) {
  auto cycles = [](const std::string& address) {
    Simulator simulator{ArchConfig()};
    TestDram dram;
    StatusOr<KernelCounters> counters = RunText(
        simulator, dram,
        "  li x5, 6400\n"
        "  vneg.f32 [x0+0x20000], [x0+0x10000], n=x5\n"
        "  st x5, [x0+" +
            address +
            "]\n"
            "  li x3, 200\nloop:\n  addi x2, x2, 1\n  blt x2, x3, loop\n"
            "  halt\n",
        {});
    EXPECT_TRUE(IsOk(counters.status()));
    return counters.ok() ? counters->cycles : 0;
  };
  // vneg (issued in cycle 1) reads [0x10000, +25600) until cycle 2 + 108; a
  // store into it waits for that, then the 800-cycle loop runs.
  EXPECT_EQ(cycles("0x10040") - cycles("0x8000"), 110u - 2u);
}

TEST(AsicSimulatorTest, AFullQueueStallsTheScalarCore) {
  const std::string text = R"(
  li x5, 6400
  vfill.f32 [x0+0x0000], x0, n=x5
  vfill.f32 [x0+0x8000], x0, n=x5
  vfill.f32 [x0+0x10000], x0, n=x5
  vfill.f32 [x0+0x18000], x0, n=x5
  vfill.f32 [x0+0x20000], x0, n=x5
  vfill.f32 [x0+0x28000], x0, n=x5
  li x3, 200
loop:
  addi x2, x2, 1
  blt x2, x3, loop
  halt
)";
  auto run = [&](uint32_t queue) {
    ArchConfig config;
    config.queue_depth = queue;
    Simulator simulator(config);
    TestDram dram;
    StatusOr<KernelCounters> counters = RunText(simulator, dram, text, {});
    EXPECT_TRUE(IsOk(counters.status()));
    return counters.ok() ? *counters : KernelCounters();
  };
  const KernelCounters deep = run(32);
  const KernelCounters shallow = run(2);
  EXPECT_EQ(deep.busy[static_cast<int>(Unit::kVector)], 6u * 108u);
  EXPECT_EQ(shallow.busy, deep.busy);
  // Deep: the loop runs while the vector unit works (about 800 cycles).
  // Shallow: the sixth vfill waits until the fourth starts (3 x 108).
  EXPECT_LT(deep.cycles, 820u);
  EXPECT_GT(shallow.cycles, deep.cycles + 300);
}

// Stores 8 s64 elements of SRAM 0x100 to buffer 0 (128 bytes), then `second` (a
// DMA of buffer 0's DRAM) with `between` in between.
StatusOr<KernelCounters> RunDramOrder(const std::string& between,
                                      const std::string& second) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t buffer = dram.Allocate(128);
  return RunText(simulator, dram,
                 ".kernel dram_order\n"
                 ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
                 "  ld x1, [x0+0]\n  li x5, 8\n"
                 "  dma.st.s64 dram[x1], [x0+0x100], box=(x5, x0, x0), d0\n" +
                     between + "  " + second + "\n  halt\n",
                 {buffer});
}

TEST(AsicSimulatorTest, UnorderedDmaOfTheSameDramIsARace) {
  const std::string load =
      "dma.ld.s64 [x0+0x200], dram[x1], box=(x5, x0, x0), d0";
  EXPECT_TRUE(HasCode(RunDramOrder("", load).status(), PHAL_FAILED_PRECONDITION,
                      {"instruction 3 (dma.ld.s64", "DRAM race",
                       "instruction 2 (dma.st.s64", "fence"}));
  EXPECT_TRUE(IsOk(RunDramOrder("  fence\n", load).status()));
  // Other DRAM bytes do not race.
  EXPECT_TRUE(IsOk(RunDramOrder("  addi x1, x1, 64\n", load).status()));
}

TEST(AsicSimulatorTest, AStoreOverDramALoadStillReadsIsARace) {
  Simulator simulator{ArchConfig()};
  TestDram dram;
  const uint64_t buffer = dram.Allocate(64);
  const std::string prologue =
      ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
      "  ld x1, [x0+0]\n  li x5, 8\n"
      "  dma.ld.s64 [x0+0x100], dram[x1], box=(x5, x0, x0), d0\n";
  // From other SRAM: nothing orders the store after the load.
  EXPECT_TRUE(HasCode(
      RunText(simulator, dram,
              prologue +
                  "  dma.st.s64 dram[x1], [x0+0x200], box=(x5, x0, x0), d0\n"
                  "  halt\n",
              {buffer})
          .status(),
      PHAL_FAILED_PRECONDITION, {"DRAM race", "writes DRAM"}));
  // Storing what the load brought in (an update in place): the SRAM
  // dependence orders them.
  EXPECT_TRUE(IsOk(
      RunText(simulator, dram,
              prologue +
                  "  vneg.s64 [x0+0x100], [x0+0x100], n=x5\n"
                  "  dma.st.s64 dram[x1], [x0+0x100], box=(x5, x0, x0), d0\n"
                  "  halt\n",
              {buffer})
          .status()));
}

TEST(AsicSimulatorTest, CountersAccumulateAndReportUtilization) {
  KernelCounters a;
  a.cycles = 100;
  a.busy[static_cast<int>(Unit::kMatrix)] = 50;
  a.macs = 32 * 32 * 25;
  a.instructions[0] = 3;
  KernelCounters b = a;
  b.dram_bytes_read = 7;
  b.Accumulate(a);
  EXPECT_EQ(b.cycles, 200u);
  EXPECT_EQ(b.busy[static_cast<int>(Unit::kMatrix)], 100u);
  EXPECT_EQ(b.instructions[0], 6u);
  EXPECT_EQ(b.dram_bytes_read, 7u);
  EXPECT_DOUBLE_EQ(a.Utilization(Unit::kMatrix), 0.5);
  EXPECT_DOUBLE_EQ(a.Utilization(Unit::kVector), 0.0);
  EXPECT_DOUBLE_EQ(a.MatrixUtilization(ArchConfig()), 0.25);
  EXPECT_DOUBLE_EQ(KernelCounters().Utilization(Unit::kScalar), 0.0);
  EXPECT_DOUBLE_EQ(KernelCounters().MatrixUtilization(ArchConfig()), 0.0);
}

// -- Faults

struct FaultCase {
  const char* text;
  phal_status_code_t code;
  std::vector<std::string> parts;
};

TEST(AsicSimulatorTest, EveryFaultEndsTheRunWithAStatus) {
  const FaultCase cases[] = {
      {"  li x5, 0x100001\n  vadd.f32 [x0+0x0], [x0+0x0], [x0+0x0], n=x5\n"
       "  halt\n",
       PHAL_OUT_OF_RANGE,
       {"asic-ref program 'faulty': instruction 1",
        "(vadd.f32 [x0+0x0], [x0+0x0], [x0+0x0], n=x5)", "outside SRAM"}},
      {"  li x1, 0x999\n  li x5, 4\n"
       "  dma.ld.f32 [x0+0x0], dram[x1], box=(x5, x0, x0), d0\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 2", "dma.ld.f32 [x0+0x0], dram[x1], box=(x5, x0, x0), d0",
        "outside allocated memory"}},
      {"  ld x1, [x0+0]\n  li x5, 5\n"
       "  dma.st.f32 dram[x1], [x0+0x0], box=(x5, x0, x0), d0\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 2", "dma.st.f32"}},
      {"  ld x1, [x0+0]\n  li x5, 1\n  li x6, 9\n  st x6, [x0+0x100]\n"
       "  dma.gather.f32 [x0+0x0], dram[x1], idx=[x0+0x100], n=x5\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 4", "offset 9"}},
      {"  li x1, 4\n  div x2, x1, x0\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"instruction 1 (div x2, x1, x0)", "division by zero"}},
      {"  rem x2, x1, x0\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"division by zero"}},
      {"loop:\n  jmp loop\n",
       PHAL_RESOURCE_EXHAUSTED,
       {"instruction 0", "more than 1000 instructions"}},
      {"  ld x1, [x0+4]\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"not aligned to 8"}},
      {"  li x1, 0x400000\n  st x1, [x1+0]\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 1", "outside SRAM"}},
      {"  li x1, 1\n",
       PHAL_INVALID_ARGUMENT,
       {"instruction 1", "without halt"}},
      {"  li x5, 1\n  li x6, 0x7fffff\n  st x6, [x0+0x100]\n"
       "  vperm.f32 [x0+0x0], [x0+0x200], [x0+0x100], n=x5\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 3", "vperm index 8388607"}},
      {"  li x5, 4\n  vexp.s32 [x0+0x0], [x0+0x100], n=x5\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"instruction 1 (vexp.s32", "SFU computes on floats"}},
      {"  li x5, 4\n  vclz.f32 [x0+0x0], [x0+0x100], n=x5\n  halt\n",
       PHAL_UNIMPLEMENTED,
       {"instruction 1 (vclz.f32"}},
      {"  vred.add.f32 [x0+0x0], [x0+0x100], n=x0\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"n >= 1"}},
      {"  li x5, -1\n  vneg.f32 [x0+0x0], [x0+0x100], n=x5\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"element count x5 is negative"}},
      {"  ld x1, [x0+0]\n  li x4, 0x100000\n"
       "  dma.ld.f32 [x0+0x0], dram[x1], box=(x4, x4, x4), d0\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"instruction 2", "more bytes than DRAM holds"}},
      {"  li x4, -3\n"
       "  mm.f32.f32 [x0+0x0], [x0+0x0], [x0+0x0], m=x4, k=x4, n=x4\n  halt\n",
       PHAL_INVALID_ARGUMENT,
       {"m x4 is negative"}},
      {"  li x4, 0x10000\n"
       "  mm.f32.f32 [x0+0x0], [x0+0x0], [x0+0x0], m=x4, k=x4, n=x4\n  halt\n",
       PHAL_OUT_OF_RANGE,
       {"exceeds SRAM"}},
  };
  TestDram dram;
  const uint64_t buffer = dram.Allocate(16);
  Simulator simulator{ArchConfig()};
  for (const FaultCase& c : cases) {
    StatusOr<Program> program = Assemble(
        std::string(
            ".kernel faulty\n.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n") +
            c.text,
        "faulty.s");
    ASSERT_TRUE(IsOk(program.status())) << c.text;
    const Status status =
        simulator.Run(*program, dram, std::vector<uint64_t>{buffer}, 1000)
            .status();
    for (const std::string& part : c.parts) {
      EXPECT_TRUE(HasCode(status, c.code, {part})) << c.text;
    }
  }
  // The simulator runs the next program normally.
  StatusOr<Program> halt = Assemble("  halt\n", "halt.s");
  ASSERT_TRUE(IsOk(halt.status()));
  EXPECT_TRUE(IsOk(simulator.Run(*halt, dram, {}).status()));
}

TEST(AsicSimulatorTest, InvalidProgramsAndArgumentAreasAreRejected) {
  Program program;
  program.name = "bad";
  Instruction jmp;
  jmp.op = Opcode::kJmp;
  jmp.imm = 5;
  program.instructions = {jmp};
  TestDram dram;
  Simulator simulator{ArchConfig()};
  EXPECT_TRUE(HasCode(simulator.Run(program, dram, {}).status(),
                      PHAL_INVALID_ARGUMENT, {"'bad'", "branch target 5"}));
  ArchConfig tiny;
  tiny.sram_bytes = 64;
  Simulator small(tiny);
  Instruction halt;
  halt.op = Opcode::kHalt;
  program.instructions = {halt};
  EXPECT_TRUE(
      HasCode(small.Run(program, dram, std::vector<uint64_t>(9, 0)).status(),
              PHAL_INVALID_ARGUMENT, {"9 buffer addresses"}));
  EXPECT_TRUE(
      IsOk(small.Run(program, dram, std::vector<uint64_t>(8, 0)).status()));
}

TEST(AsicSimulatorTest, SramStartsZeroedExceptTheArgumentArea) {
  TestDram dram;
  const uint64_t out = dram.Allocate(16);
  Simulator simulator{ArchConfig()};
  const std::string dirty = R"(
  li x1, 77
  st x1, [x0+0x800]
  halt
)";
  ASSERT_TRUE(IsOk(RunText(simulator, dram, dirty, {}).status()));
  const std::string read = R"(
.desc d0 dram=(1, 0, 0) sram=(1, 0, 0)
  ld x1, [x0+0]
  ld x2, [x0+0x800]
  st x2, [x0+0x808]
  li x5, 2
  dma.st.s64 dram[x1], [x0+0x800], box=(x5, x0, x0), d0
  halt
)";
  ASSERT_TRUE(IsOk(RunText(simulator, dram, read, {out}).status()));
  EXPECT_EQ(dram.Read<int64_t>(out, 2), (std::vector<int64_t>{0, 0}));
}

// -- Speed

// Not a check: prints the simulator's throughput (run with
// --gtest_also_run_disabled_tests).
TEST(AsicSimulatorTest, DISABLED_Throughput) {
  ArchConfig config;
  config.sram_bytes = 64ull << 20;
  Simulator simulator(config);
  TestDram dram;
  auto time = [&](const std::string& text, int repeats) {
    StatusOr<Program> program = Assemble(text, "speed.s");
    EXPECT_TRUE(IsOk(program.status()));
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repeats; ++i) {
      EXPECT_TRUE(IsOk(simulator.Run(*program, dram, {}).status()));
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
               .count() /
           repeats;
  };
  // One base register reaches 4 MiB: 1M f32 elements fit only in place.
  const double vadd = time(
      "  li x5, 0x100000\n"
      "  vadd.f32 [x0+0x0], [x0+0x0], [x0+0x0], n=x5\n  halt\n",
      20);
  std::printf(
      "vadd.f32 over 1M elements in place: %.2f ms, %.0f M elements/s\n",
      vadd * 1e3, 1.0 / vadd);
  const double vadd3 = time(
      "  li x5, 0x40000\n"
      "  vadd.f32 [x0+0x0], [x0+0x100000], [x0+0x200000], n=x5\n  halt\n",
      50);
  std::printf("vadd.f32 over 256K elements: %.3f ms, %.0f M elements/s\n",
              vadd3 * 1e3, 0.25 / vadd3);
  const double vexp = time(
      "  li x5, 0x40000\n"
      "  vexp.f32 [x0+0x0], [x0+0x100000], n=x5\n  halt\n",
      20);
  std::printf("vexp.f32 over 256K elements: %.3f ms, %.0f M elements/s\n",
              vexp * 1e3, 0.25 / vexp);
  for (const char* types : {"f32.f32", "bf16.bf16", "s8.s8"}) {
    const double mm =
        time(std::string("  li x5, 256\n  mm.") + types +
                 " [x0+0x0], [x0+0x100000], [x0+0x200000], m=x5, k=x5, n=x5, "
                 "zero\n  halt\n",
             5);
    std::printf("mm.%s 256x256x256: %.2f ms, %.0f M MAC/s\n", types, mm * 1e3,
                256.0 * 256 * 256 / mm / 1e6);
  }
  const double loop = time(
      "  li x3, 1000000\nloop:\n  addi x2, x2, 1\n  blt x2, x3, loop\n  halt\n",
      3);
  std::printf("scalar loop: %.0f M instructions/s\n", 2.0 / loop);
  const double small = time(
      ".desc d0 dram=(1, 0, 0) sram=(1, 0, 0)\n"
      "  li x5, 256\n"
      "  vfill.f32 [x0+0x1000], x0, n=x5\n"
      "  vexp.f32 [x0+0x2000], [x0+0x1000], n=x5\n"
      "  vadd.f32 [x0+0x3000], [x0+0x2000], [x0+0x1000], n=x5\n"
      "  vred.add.f32 [x0+0x4000], [x0+0x3000], n=x5\n"
      "  halt\n",
      20000);
  std::printf("a 6-instruction kernel over 256 elements: %.1f us per run\n",
              small * 1e6);
}

}  // namespace
}  // namespace phal::asic_ref
