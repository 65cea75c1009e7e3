// Quantized types in the StableHLO front end: parsing !quant.uniform, and
// the quantized ops lowered to plain HLO, run on the reference interpreter.
#include "core/frontend/quantized_lowering.h"

#include <algorithm>
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/quantized_type.h"
#include "core/frontend/stablehlo_test_util.h"
#include "core/testing/jax_models.h"
#include "core/testing/source_files.h"

namespace phal::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

StatusOr<QuantizedType> Parse(const std::string& text) {
  const SourceText source(text, "type.mlir");
  std::size_t end = 0;
  return ParseQuantizedType(source, 0, &end);
}

std::string ParseError(const std::string& program) {
  StatusOr<StableHloModule> parsed = ParseStableHlo(program, "bad.mlir");
  EXPECT_FALSE(parsed.ok());
  return parsed.ok() ? "" : parsed.status().message();
}

// The element types of the dots and convolutions of the entry computation:
// "s8,s8->s32" for each.
std::vector<std::string> AccumulatingOps(const std::string& program) {
  StatusOr<StableHloModule> parsed = ParseStableHlo(program, "q.mlir");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  std::vector<std::string> found;
  if (!parsed.ok()) return found;
  for (const HloInstruction* instruction :
       parsed->module->entry_computation()->instructions()) {
    if (instruction->opcode() != HloOpcode::kDot &&
        instruction->opcode() != HloOpcode::kConvolution) {
      continue;
    }
    found.push_back(
        std::string(
            ElementTypeName(instruction->operand(0)->shape().element_type())) +
        "," + ElementTypeName(instruction->operand(1)->shape().element_type()) +
        "->" + ElementTypeName(instruction->shape().element_type()));
  }
  return found;
}

TEST(QuantizedTypeTest, ParsesPerTensorPerAxisAndStorageRanges) {
  StatusOr<QuantizedType> type = Parse("!quant.uniform<i8:f32, 0.5:-3>");
  ASSERT_TRUE(type.ok()) << type.status().message();
  EXPECT_EQ(type->storage, PHAL_ELEMENT_TYPE_S8);
  EXPECT_EQ(type->expressed, PHAL_ELEMENT_TYPE_F32);
  EXPECT_EQ(type->storage_min, -128);
  EXPECT_EQ(type->storage_max, 127);
  EXPECT_THAT(type->scales, ElementsAre(0.5));
  EXPECT_THAT(type->zero_points, ElementsAre(-3));
  EXPECT_FALSE(type->IsPerAxis());

  type = Parse("!quant.uniform<u8<1:254>:bf16:1, {1.0e-01:3, 2.5:7}>");
  ASSERT_TRUE(type.ok()) << type.status().message();
  EXPECT_EQ(type->storage, PHAL_ELEMENT_TYPE_U8);
  EXPECT_EQ(type->expressed, PHAL_ELEMENT_TYPE_BF16);
  EXPECT_EQ(type->storage_min, 1);
  EXPECT_EQ(type->storage_max, 254);
  EXPECT_EQ(type->quantization_dimension, 1);
  EXPECT_THAT(type->scales, ElementsAre(0.1, 2.5));
  EXPECT_THAT(type->zero_points, ElementsAre(3, 7));

  type = Parse("!quant.uniform<i4:f16, 2.0>");
  ASSERT_TRUE(type.ok()) << type.status().message();
  EXPECT_EQ(type->storage, PHAL_ELEMENT_TYPE_S8);
  EXPECT_EQ(type->storage_min, -8);
  EXPECT_EQ(type->storage_max, 7);
}

TEST(QuantizedTypeTest, MalformedTypesAreErrorsAtTheirColumn) {
  const auto message = [](const std::string& type) {
    StatusOr<QuantizedType> parsed = Parse(type);
    EXPECT_FALSE(parsed.ok()) << type;
    return parsed.ok() ? "" : parsed.status().message();
  };
  EXPECT_THAT(
      message("!quant.uniform<i7:f32, 1.0>"),
      HasSubstr("1:16: error: unsupported quantized storage type 'i7'"));
  EXPECT_THAT(message("!quant.uniform<i8:f8, 1.0>"),
              HasSubstr("unsupported expressed type 'f8'"));
  EXPECT_THAT(message("!quant.uniform<i8:f32, -1.0>"),
              HasSubstr("the scale must be positive and finite"));
  EXPECT_THAT(message("!quant.uniform<i8:f32, 1.0:200>"),
              HasSubstr("the zero point 200 is outside the storage range"));
  EXPECT_THAT(message("!quant.uniform<i8<5:2>:f32, 1.0>"),
              HasSubstr("the storage range [5, 2] is empty"));
  EXPECT_THAT(message("!quant.uniform<i8:f32, {1.0, 2.0}>"),
              HasSubstr("a list of scales needs a quantization dimension"));
  EXPECT_THAT(message("!quant.uniform<i8:f32:0, 1.0>"),
              HasSubstr("a per-axis type needs a list of scales"));
  EXPECT_THAT(message("!quant.uniform<i8:f32, 1.0"),
              HasSubstr("expected '>' to close the quantized type"));
  EXPECT_THAT(message("!quant.any<i8:f32>"),
              HasSubstr("only !quant.uniform quantized types are supported"));
}

TEST(QuantizedTypeTest, PerAxisTypesMustFitTheirTensor) {
  EXPECT_THAT(
      ParseError(
          R"(func.func @main(%x: tensor<3x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<3xf32> {
  %y = stablehlo.uniform_dequantize %x : (tensor<3x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
})"),
      HasSubstr("bad.mlir:1:21: error: the quantized type has 2 scales "
                "but quantization dimension 0 has size 3"));
  EXPECT_THAT(
      ParseError(
          R"(func.func @main(%x: tensor<3x!quant.uniform<i8:f32:1, {1.0}>>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
})"),
      HasSubstr("quantization dimension 1 is out of range"));
}

TEST(QuantizedLoweringTest, QuantizeRoundsTiesToEvenAndSaturates) {
  // x / 0.5: 0.5 -> 0, 1.5 -> 2, -2.5 -> -2, 2000 -> 127, -2000 -> -128;
  // with the range <-127:127> the lowest value is -127.
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %x = stablehlo.constant dense<[0.25, 0.75, -1.25, 1000.0, -1000.0]> : tensor<5xf32>
      %q = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8:f32, 0.5>>
      %s = stablehlo.bitcast_convert %q : (tensor<5x!quant.uniform<i8:f32, 0.5>>) -> tensor<5xi8>
      check.expect_eq_const %s, dense<[0, 2, -2, 127, -128]> : tensor<5xi8>
      %n = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8<-127:127>:f32, 0.5>>
      %ns = stablehlo.bitcast_convert %n : (tensor<5x!quant.uniform<i8<-127:127>:f32, 0.5>>) -> tensor<5xi8>
      check.expect_eq_const %ns, dense<[0, 2, -2, 127, -127]> : tensor<5xi8>
      %u = stablehlo.uniform_quantize %x : (tensor<5xf32>) -> tensor<5x!quant.uniform<u8:f32, 0.5:128>>
      %us = stablehlo.bitcast_convert %u : (tensor<5x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<5xui8>
      check.expect_eq_const %us, dense<[128, 130, 126, 255, 0]> : tensor<5xui8>
      func.return
    })"),
              IsEmpty());
}

TEST(QuantizedLoweringTest, DequantizesPerAxisAndRequantizes) {
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %s = stablehlo.constant dense<[[10, -10], [4, 0]]> : tensor<2x2xi8>
      %q = stablehlo.bitcast_convert %s : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5:2, 0.25:-4}>>
      %d = stablehlo.uniform_dequantize %q : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:2, 0.25:-4}>>) -> tensor<2x2xf32>
      check.expect_eq_const %d, dense<[[4.0, -1.5], [1.0, 1.0]]> : tensor<2x2xf32>
      %r = stablehlo.uniform_quantize %q : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5:2, 0.25:-4}>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.125:1>>
      %rs = stablehlo.bitcast_convert %r : (tensor<2x2x!quant.uniform<i8:f32, 0.125:1>>) -> tensor<2x2xi8>
      check.expect_eq_const %rs, dense<[[33, -11], [9, 9]]> : tensor<2x2xi8>
      func.return
    })"),
              IsEmpty());
}

TEST(QuantizedLoweringTest, DataMovementMovesStorageValues) {
  const std::string program = R"(
    func.func @main() {
      %s = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
      %q = stablehlo.bitcast_convert %s : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
      %t = stablehlo.transpose %q, dims = [1, 0] : (tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
      %sl = stablehlo.slice %t [1:3, 0:2] : (tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
      %d = stablehlo.uniform_dequantize %sl : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) -> tensor<2x2xf32>
      check.expect_eq_const %d, dense<[[1.0, 1.25], [1.5, 1.5]]> : tensor<2x2xf32>
      func.return
    })";
  EXPECT_THAT(CheckFailures(program), IsEmpty());
}

TEST(QuantizedLoweringTest, OtherOpsDequantizeComputeAndQuantize) {
  // quantized_add of the StableHLO interpreter's tests, and maximum with a
  // requantizing result.
  EXPECT_THAT(CheckFailures(R"(
    func.func @main() {
      %a = stablehlo.constant dense<[1.0, -2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
      %qa = stablehlo.uniform_quantize %a : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
      %qb = stablehlo.uniform_quantize %b : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
      %sum = stablehlo.add %qa, %qb : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:-20>>
      %ss = stablehlo.bitcast_convert %sum : (tensor<2x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<2xi8>
      check.expect_eq_const %ss, dense<[-12, -16]> : tensor<2xi8>
      %zero = stablehlo.constant dense<-30> : tensor<2xi8>
      %qz = stablehlo.bitcast_convert %zero : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.1:-30>>
      %relu = stablehlo.maximum %qa, %qz : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2x!quant.uniform<i8:f32, 0.05>>
      %rs = stablehlo.bitcast_convert %relu : (tensor<2x!quant.uniform<i8:f32, 0.05>>) -> tensor<2xi8>
      check.expect_eq_const %rs, dense<[20, 0]> : tensor<2xi8>
      %cmp = stablehlo.compare GT, %qa, %qz : (tensor<2x!quant.uniform<i8:f32, 0.1:-30>>, tensor<2x!quant.uniform<i8:f32, 0.1:-30>>) -> tensor<2xi1>
      check.expect_eq_const %cmp, dense<[true, false]> : tensor<2xi1>
      func.return
    })"),
              IsEmpty());
}

constexpr char kInt8Dot[] = R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
      %qx = stablehlo.uniform_quantize %x : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5>>
      %w = stablehlo.constant dense<[[1, -2], [3, 4], [-5, 6]]> : tensor<3x2xi8>
      %qw = stablehlo.bitcast_convert %w : (tensor<3x2xi8>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.25, 0.125}>>
      %y = stablehlo.dot_general %qx, %qw, contracting_dims = [1] x [0] : (tensor<2x3x!quant.uniform<i8:f32, 0.5>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.25, 0.125}>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.0625:-1>>
      %d = stablehlo.uniform_dequantize %y : (tensor<2x2x!quant.uniform<i8:f32, 0.0625:-1>>) -> tensor<2x2xf32>
      func.return %d : tensor<2x2xf32>
    })";

TEST(QuantizedLoweringTest, Int8DotAccumulatesInInt32) {
  EXPECT_THAT(AccumulatingOps(kInt8Dot), ElementsAre("s8,s8->s32"));
  // x quantizes to [[2, 4, -2], [1, 0, 6]]; the integer sums are
  // [[24, 0], [-29, 34]], times 0.5 * {0.25, 0.125}: [[3, 0], [-3.625,
  // 2.125]], requantized with scale 1/16 and zero point -1, then read back.
  StatusOr<std::vector<Literal>> outputs =
      RunStableHlo(kInt8Dot, "",
                   {Literal::FromValues(
                       PHAL_ELEMENT_TYPE_F32, {2, 3},
                       std::vector<double>{1.0, 2.0, -1.0, 0.5, 0.0, 3.0})});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(3.0, 0.0, -3.625, 2.125));
}

TEST(QuantizedLoweringTest, ZeroPointsAreSubtractedBeforeTheIntegerDot) {
  EXPECT_THAT(AccumulatingOps(R"(
    func.func @main(%a: tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>, %b: tensor<2x2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>> {
      %y = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2x!quant.uniform<u8:f32, 0.5:128>>, tensor<2x2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
      func.return %y : tensor<2x2x!quant.uniform<i8:f32, 1.0>>
    })"),
              ElementsAre("s32,s32->s32"));
}

TEST(QuantizedLoweringTest, SumsThatCouldOverflowInt32AccumulateInInt64) {
  // (-32768)^2 * 2 = 2^31: beyond s32.
  const std::string program = R"(
    func.func @main() {
      %s = stablehlo.constant dense<[-32768, -32768]> : tensor<2xi16>
      %q = stablehlo.bitcast_convert %s : (tensor<2xi16>) -> tensor<2x!quant.uniform<i16:f64, 1.0>>
      %y = stablehlo.dot_general %q, %q, contracting_dims = [0] x [0] : (tensor<2x!quant.uniform<i16:f64, 1.0>>, tensor<2x!quant.uniform<i16:f64, 1.0>>) -> tensor<!quant.uniform<i32:f64, 2.0>>
      %ys = stablehlo.bitcast_convert %y : (tensor<!quant.uniform<i32:f64, 2.0>>) -> tensor<i32>
      check.expect_eq_const %ys, dense<1073741824> : tensor<i32>
      func.return
    })";
  EXPECT_THAT(AccumulatingOps(program), ElementsAre("s16,s16->s64"));
  EXPECT_THAT(CheckFailures(program), IsEmpty());
}

TEST(QuantizedLoweringTest, Int8ConvolutionAccumulatesInInt32) {
  // A 1-D convolution of [1, 2, 3, 4] (zero point -1, so padding reads the
  // real value 0) with the kernel [1, -1] per output feature scales.
  const std::string program = R"(
    func.func @main() {
      %x = stablehlo.constant dense<[[[0], [1], [2], [3]]]> : tensor<1x4x1xi8>
      %qx = stablehlo.bitcast_convert %x : (tensor<1x4x1xi8>) -> tensor<1x4x1x!quant.uniform<i8:f32, 1.0:-1>>
      %k = stablehlo.constant dense<[[[1, 2]], [[-1, -2]]]> : tensor<2x1x2xi8>
      %qk = stablehlo.bitcast_convert %k : (tensor<2x1x2xi8>) -> tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>
      %y = stablehlo.convolution(%qx, %qk) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x4x1x!quant.uniform<i8:f32, 1.0:-1>>, tensor<2x1x2x!quant.uniform<i8:f32:2, {1.0, 0.5}>>) -> tensor<1x4x2x!quant.uniform<i8:f32, 0.5>>
      %ys = stablehlo.bitcast_convert %y : (tensor<1x4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x2xi8>
      check.expect_eq_const %ys, dense<[[[-2, -2], [-2, -2], [-2, -2], [-2, -2]]]> : tensor<1x4x2xi8>
      func.return
    })";
  EXPECT_THAT(AccumulatingOps(program), ElementsAre("s32,s32->s32"));
  EXPECT_THAT(CheckFailures(program), IsEmpty());
}

// A reduction and a max pool whose regions take the operands' quantized
// types run on storage values, each step a quantized add or maximum.
TEST(QuantizedLoweringTest, RegionsOfTheOperandsTypesRunOnStorageValues) {
  EXPECT_THAT(CheckFailures(R"(
func.func @main() {
  %x = stablehlo.constant dense<[[1.0, -1.0, 2.5, 3.0], [0.5, 4.0, -2.0, 1.5]]> : tensor<2x4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<2x4xf32>) -> tensor<2x4x!quant.uniform<i8:f32, 0.5:1>>
  %zs = stablehlo.constant dense<1> : tensor<i8>
  %z = stablehlo.bitcast_convert %zs : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %sum = stablehlo.reduce(%q init: %z) across dimensions = [1] : (tensor<2x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.5:1>>
    reducer(%a: tensor<!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<!quant.uniform<i8:f32, 0.5:1>>) {
      %s = stablehlo.add %a, %b : tensor<!quant.uniform<i8:f32, 0.5:1>>
      stablehlo.return %s : tensor<!quant.uniform<i8:f32, 0.5:1>>
    }
  %sd = stablehlo.uniform_dequantize %sum : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf32>
  check.expect_eq_const %sd, dense<[5.5, 4.0]> : tensor<2xf32>
  %ms = stablehlo.constant dense<-128> : tensor<i8>
  %m = stablehlo.bitcast_convert %ms : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %pool = "stablehlo.reduce_window"(%q, %m) ({
    ^bb0(%a: tensor<!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<!quant.uniform<i8:f32, 0.5:1>>):
      %mx = stablehlo.maximum %a, %b : tensor<!quant.uniform<i8:f32, 0.5:1>>
      stablehlo.return %mx : tensor<!quant.uniform<i8:f32, 0.5:1>>
    }) {window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>} : (tensor<2x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>
  %pd = stablehlo.uniform_dequantize %pool : (tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x2xf32>
  check.expect_eq_const %pd, dense<[[1.0, 3.0], [4.0, 1.5]]> : tensor<2x2xf32>
  func.return
}
)"),
              IsEmpty());
}

// A region of a promoted type (an i8 reduction into an i32 accumulator),
// and the short reduce form whose region takes plain values, are refused.
TEST(QuantizedLoweringTest, RegionsOfOtherTypesAreErrors) {
  EXPECT_THAT(
      ParseError(
          R"(func.func @main(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<!quant.uniform<i32:f32, 1.0>> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %qz = stablehlo.bitcast_convert %z : (tensor<i32>) -> tensor<!quant.uniform<i32:f32, 1.0>>
  %r = stablehlo.reduce(%x init: %qz) across dimensions = [0] : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<!quant.uniform<i32:f32, 1.0>>) -> tensor<!quant.uniform<i32:f32, 1.0>>
    reducer(%a: tensor<!quant.uniform<i32:f32, 1.0>>, %b: tensor<!quant.uniform<i32:f32, 1.0>>) {
      %s = stablehlo.add %a, %b : tensor<!quant.uniform<i32:f32, 1.0>>
      stablehlo.return %s : tensor<!quant.uniform<i32:f32, 1.0>>
    }
  func.return %r : tensor<!quant.uniform<i32:f32, 1.0>>
})"),
      HasSubstr("bad.mlir:4:3: error: stablehlo.reduce: the regions "
                "of an op with quantized operands must take the "
                "operands' quantized types"));
  EXPECT_THAT(
      ParseError(
          R"(func.func @main(%x: tensor<2x!quant.uniform<i8:f32, 1.0>>) -> tensor<!quant.uniform<i8:f32, 1.0>> {
  %z = stablehlo.constant dense<0> : tensor<i8>
  %qz = stablehlo.bitcast_convert %z : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  %r = stablehlo.reduce(%x init: %qz) applies stablehlo.add across dimensions = [0] : (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<!quant.uniform<i8:f32, 1.0>>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  func.return %r : tensor<!quant.uniform<i8:f32, 1.0>>
})"),
      HasSubstr("bad.mlir:4:3: error: stablehlo.reduce: the regions"));
}

// Calls, while loops, pad and select carry storage values; a dot whose
// per-axis rhs is quantized along its contracting dimension, which the
// integer form cannot scale, takes dequantize-op-quantize (and saturates).
constexpr char kCarriers[] = R"(
func.func @inc(%a: tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>> {
  %one = stablehlo.constant dense<3> : tensor<4xi8>
  %q1 = stablehlo.bitcast_convert %one : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %s = stablehlo.add %a, %q1 : tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  func.return %s : tensor<4x!quant.uniform<i8:f32, 0.5:1>>
}

func.func @main() {
  %x = stablehlo.constant dense<[1.0, -1.0, 2.5, 60.0]> : tensor<4xf32>
  %q = stablehlo.uniform_quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %c = func.call @inc(%q) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %v = %c) : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %w = func.call @inc(%v) : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:1>>
      stablehlo.return %j, %w : tensor<i32>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
    }
  %d = stablehlo.uniform_dequantize %r#1 : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  check.expect_eq_const %d, dense<[5.0, 3.0, 6.5, 63.0]> : tensor<4xf32>
  %p = stablehlo.constant dense<1> : tensor<i8>
  %qp = stablehlo.bitcast_convert %p : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5:1>>
  %pad = stablehlo.pad %q, %qp, low = [1], high = [1], interior = [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:1>>
  %pd = stablehlo.uniform_dequantize %pad : (tensor<6x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<6xf32>
  check.expect_eq_const %pd, dense<[0.0, 1.0, -1.0, 2.5, 60.0, 0.0]> : tensor<6xf32>
  %t = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %sel = stablehlo.select %t, %q, %c : tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.5:1>>
  %sd = stablehlo.uniform_dequantize %sel : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<4xf32>
  check.expect_eq_const %sd, dense<[1.0, 0.0, 2.5, 61.0]> : tensor<4xf32>
  %w = stablehlo.constant dense<[[1], [2], [3], [4]]> : tensor<4x1xi8>
  %qw = stablehlo.bitcast_convert %w : (tensor<4x1xi8>) -> tensor<4x1x!quant.uniform<i8:f32:0, {1.0, 1.0, 1.0, 1.0}>>
  %bad = stablehlo.dot_general %q, %qw, contracting_dims = [0] x [0] : (tensor<4x!quant.uniform<i8:f32, 0.5:1>>, tensor<4x1x!quant.uniform<i8:f32:0, {1.0, 1.0, 1.0, 1.0}>>) -> tensor<1x!quant.uniform<i8:f32, 1.0>>
  %bd = stablehlo.uniform_dequantize %bad : (tensor<1x!quant.uniform<i8:f32, 1.0>>) -> tensor<1xf32>
  check.expect_eq_const %bd, dense<[127.0]> : tensor<1xf32>
  func.return
}
)";

TEST(QuantizedLoweringTest, CallsLoopsPadAndSelectCarryStorageValues) {
  EXPECT_THAT(CheckFailures(kCarriers), IsEmpty());
}

// Every prefix of a quantized program, and the program with a character
// replaced, is parsed or refused with an error; none crashes.
TEST(QuantizedLoweringTest, TruncatedAndCorruptedProgramsAreErrors) {
  const std::string program = kCarriers;
  for (std::size_t length = 0; length < program.size(); length += 7) {
    (void)ParseStableHlo(program.substr(0, length), "prefix.mlir");
  }
  for (std::size_t i = 0; i < program.size(); i += 3) {
    for (char c : {'<', '>', ':', '{', '-', 'x', '9'}) {
      std::string corrupted = program;
      corrupted[i] = c;
      (void)ParseStableHlo(corrupted, "corrupted.mlir");
    }
  }
}

// The int8-quantized MLP of testdata/stablehlo (written with XLA's outputs
// by scripts/export_quantized_model.py) in its three forms, on the
// reference: StableHLO with !quant.uniform types, and JAX's integer program
// as StableHLO and as HLO text. Every scale is a power of two, so the
// outputs must equal XLA's bit for bit.
class QuantizedModelTest : public ::testing::TestWithParam<const char*> {};

TEST_P(QuantizedModelTest, ReproducesXlaExactly) {
  const std::filesystem::path file = ::phal::testing::SourceFile(
      std::string("core/frontend/testdata/stablehlo/") + GetParam());
  const std::string text = ::phal::testing::ReadTextFile(file);
  ASSERT_FALSE(text.empty()) << file;
  const std::string base = (file.parent_path() / file.stem()).string();
  StatusOr<std::vector<Literal>> inputs =
      ::phal::testing::ReadNpySequence(base, "input");
  StatusOr<std::vector<Literal>> expected =
      ::phal::testing::ReadNpySequence(base, "expected");
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_EQ(expected->size(), 1u);
  Literal actual;
  if (file.extension() == ".mlir") {
    StatusOr<std::vector<Literal>> outputs = RunStableHlo(text, "", *inputs);
    ASSERT_TRUE(outputs.ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 1u);
    actual = std::move((*outputs)[0]);
  } else {
    StatusOr<std::unique_ptr<HloModule>> module =
        ParseHloText(text, file.string());
    ASSERT_TRUE(module.ok()) << module.status().message();
    StatusOr<Literal> result = Evaluate(**module, *inputs);
    ASSERT_TRUE(result.ok()) << result.status().message();
    actual = std::move(result).value();
  }
  EXPECT_THAT(Values(actual), ElementsAreArray(Values((*expected)[0])));
}

INSTANTIATE_TEST_SUITE_P(Int8Mlp, QuantizedModelTest,
                         ::testing::Values("quantized_mlp.mlir",
                                           "jax_int8_mlp.mlir",
                                           "jax_int8_mlp.hlo"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

}  // namespace
}  // namespace phal::testing
