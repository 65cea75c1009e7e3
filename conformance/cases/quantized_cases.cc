// Quantized programs: StableHLO with !quant.uniform types, which the front
// end lowers to plain HLO on storage integers (docs/stablehlo.md,
// "Quantized types"). Each case is that HLO, so a plugin runs quantize,
// dequantize, requantize and the int8 dot and convolution with integer
// accumulation as it runs any other program, and is compared exactly with
// the reference: the integer parts are exact and the float parts are single
// correctly rounded operations per element.
#include <string>
#include <vector>

#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"

namespace phal::conformance {
namespace {

constexpr ElementType kS8 = PHAL_ELEMENT_TYPE_S8;
constexpr ElementType kU8 = PHAL_ELEMENT_TYPE_U8;
constexpr ElementType kS32 = PHAL_ELEMENT_TYPE_S32;

// `!quant.uniform<STORAGE:f32:DIMENSION, {...}>` with `count` scales
// spread over [0.02, 0.2) and zero points cycling through -3..3 (or 0).
std::string PerAxisType(const std::string& storage, int dimension, int count,
                        bool zero_points) {
  std::string type =
      "!quant.uniform<" + storage + ":f32:" + std::to_string(dimension) + ", {";
  for (int i = 0; i < count; ++i) {
    const double scale = 0.02 + 0.18 * i / count;
    type += (i > 0 ? ", " : "") + std::to_string(scale);
    if (zero_points) type += ":" + std::to_string(i % 7 - 3);
  }
  return type + "}>";
}

// The HLO text of the StableHLO program `text`; a program the front end
// rejects becomes its error message, which then fails the case.
std::string LoweredText(const std::string& id, const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, id + ".mlir");
  if (!program.ok()) return program.status().message();
  return HloModuleToText(*program->module);
}

Case QuantizedCase(const std::string& op, const std::string& variant,
                   ElementType dtype, int tier, const std::string& shape_class,
                   const std::string& value_class, const std::string& program,
                   std::vector<InputSpec> inputs) {
  Case c = NumericCase(op, variant, dtype, tier, shape_class, value_class, "",
                       std::move(inputs), Exact());
  c.module_text = LoweredText(c.id, program);
  return c;
}

std::vector<Case> QuantizeCases() {
  std::vector<Case> cases;
  // Saturation at both ends: |x| / 0.1 reaches 200.
  cases.push_back(QuantizedCase(
      "quantized.uniform_quantize", "per_tensor", kS8, 1, "odd", "random",
      R"(func.func @main(%x: tensor<7x13xf32>) -> tensor<7x13x!quant.uniform<i8:f32, 0.1:-3>> {
  %q = stablehlo.uniform_quantize %x : (tensor<7x13xf32>) -> tensor<7x13x!quant.uniform<i8:f32, 0.1:-3>>
  func.return %q : tensor<7x13x!quant.uniform<i8:f32, 0.1:-3>>
})",
      {RandomValues(-20, 20)}));
  const std::string axis = PerAxisType("i8", 1, 13, true);
  cases.push_back(QuantizedCase(
      "quantized.uniform_quantize", "per_axis", kS8, 1, "odd", "random",
      "func.func @main(%x: tensor<7x13xf32>) -> tensor<7x13x" + axis +
          "> {\n  %q = stablehlo.uniform_quantize %x : (tensor<7x13xf32>) -> "
          "tensor<7x13x" +
          axis + ">\n  func.return %q : tensor<7x13x" + axis + ">\n}",
      {RandomValues(-10, 10)}));
  // Odd integers halved are ties, rounded to even; beyond +-254 the values
  // saturate at the narrowed range <-127:127> (and 0..255 for u8).
  cases.push_back(QuantizedCase(
      "quantized.uniform_quantize", "ties", kS8, 1, "1d", "edge",
      R"(func.func @main(%x: tensor<64xf32>) -> tensor<64x!quant.uniform<i8<-127:127>:f32, 2.0>> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x!quant.uniform<i8<-127:127>:f32, 2.0>>
  func.return %q : tensor<64x!quant.uniform<i8<-127:127>:f32, 2.0>>
})",
      {IndexValues(-300, 300)}));
  cases.push_back(QuantizedCase(
      "quantized.uniform_quantize", "ties", kU8, 1, "1d", "edge",
      R"(func.func @main(%x: tensor<64xf32>) -> tensor<64x!quant.uniform<u8:f32, 2.0:128>> {
  %q = stablehlo.uniform_quantize %x : (tensor<64xf32>) -> tensor<64x!quant.uniform<u8:f32, 2.0:128>>
  func.return %q : tensor<64x!quant.uniform<u8:f32, 2.0:128>>
})",
      {IndexValues(-300, 300)}));
  const std::string rows = PerAxisType("i8", 0, 7, true);
  cases.push_back(QuantizedCase(
      "quantized.uniform_dequantize", "per_axis", kS8, 1, "odd", "random",
      "func.func @main(%s: tensor<7x13xi8>) -> tensor<7x13xf32> {\n"
      "  %q = stablehlo.bitcast_convert %s : (tensor<7x13xi8>) -> "
      "tensor<7x13x" +
          rows + ">\n  %d = stablehlo.uniform_dequantize %q : (tensor<7x13x" +
          rows +
          ">) -> tensor<7x13xf32>\n  func.return %d : tensor<7x13xf32>\n}",
      {RandomValues()}));
  cases.push_back(QuantizedCase(
      "quantized.requantize", "per_tensor_to_per_axis", kS8, 1, "odd", "random",
      "func.func @main(%s: tensor<7x13xi8>) -> tensor<7x13x" + axis +
          "> {\n  %q = stablehlo.bitcast_convert %s : (tensor<7x13xi8>) -> "
          "tensor<7x13x!quant.uniform<i8:f32, 0.3:-7>>\n"
          "  %r = stablehlo.uniform_quantize %q : "
          "(tensor<7x13x!quant.uniform<i8:f32, 0.3:-7>>) -> tensor<7x13x" +
          axis + ">\n  func.return %r : tensor<7x13x" + axis + ">\n}",
      {RandomValues()}));
  return cases;
}

std::vector<Case> DotAndConvolutionCases() {
  std::vector<Case> cases;
  // s8 x s8 -> s32 with per-output-channel weight scales, requantized to i8.
  const std::string weights = PerAxisType("i8", 1, 10, false);
  cases.push_back(QuantizedCase(
      "quantized.dot", "int8_per_axis", kS8, 1, "odd", "random",
      "func.func @main(%x: tensor<9x32xf32>, %w: tensor<32x10xi8>) -> "
      "tensor<9x10x!quant.uniform<i8:f32, 0.5:2>> {\n"
      "  %qx = stablehlo.uniform_quantize %x : (tensor<9x32xf32>) -> "
      "tensor<9x32x!quant.uniform<i8:f32, 0.03125>>\n"
      "  %qw = stablehlo.bitcast_convert %w : (tensor<32x10xi8>) -> "
      "tensor<32x10x" +
          weights +
          ">\n  %y = stablehlo.dot_general %qx, %qw, contracting_dims = [1] x "
          "[0] : (tensor<9x32x!quant.uniform<i8:f32, 0.03125>>, "
          "tensor<32x10x" +
          weights +
          ">) -> tensor<9x10x!quant.uniform<i8:f32, 0.5:2>>\n"
          "  func.return %y : tensor<9x10x!quant.uniform<i8:f32, 0.5:2>>\n}",
      {RandomValues(-4, 4), RandomValues()}));
  // u8 and s8 with zero points, into an i32 accumulator type.
  cases.push_back(QuantizedCase(
      "quantized.dot", "zero_points_to_i32", kS32, 1, "odd", "random",
      R"(func.func @main(%a: tensor<9x32xui8>, %b: tensor<32x10xi8>) -> tensor<9x10x!quant.uniform<i32:f32, 0.001>> {
  %qa = stablehlo.bitcast_convert %a : (tensor<9x32xui8>) -> tensor<9x32x!quant.uniform<u8:f32, 0.02:128>>
  %qb = stablehlo.bitcast_convert %b : (tensor<32x10xi8>) -> tensor<32x10x!quant.uniform<i8:f32, 0.05:3>>
  %y = stablehlo.dot_general %qa, %qb, contracting_dims = [1] x [0] : (tensor<9x32x!quant.uniform<u8:f32, 0.02:128>>, tensor<32x10x!quant.uniform<i8:f32, 0.05:3>>) -> tensor<9x10x!quant.uniform<i32:f32, 0.001>>
  func.return %y : tensor<9x10x!quant.uniform<i32:f32, 0.001>>
})",
      {RandomValues(), RandomValues()}));
  cases.push_back(QuantizedCase(
      "quantized.dot", "batched", kS8, 1, "npot", "random",
      R"(func.func @main(%a: tensor<3x5x16xi8>, %b: tensor<3x16x6xi8>) -> tensor<3x5x6x!quant.uniform<i8:f32, 4.0>> {
  %qa = stablehlo.bitcast_convert %a : (tensor<3x5x16xi8>) -> tensor<3x5x16x!quant.uniform<i8:f32, 0.25>>
  %qb = stablehlo.bitcast_convert %b : (tensor<3x16x6xi8>) -> tensor<3x16x6x!quant.uniform<i8:f32, 0.125>>
  %y = stablehlo.dot_general %qa, %qb, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<3x5x16x!quant.uniform<i8:f32, 0.25>>, tensor<3x16x6x!quant.uniform<i8:f32, 0.125>>) -> tensor<3x5x6x!quant.uniform<i8:f32, 4.0>>
  func.return %y : tensor<3x5x6x!quant.uniform<i8:f32, 4.0>>
})",
      {RandomValues(), RandomValues()}));
  // NHWC input with a zero point (padding reads the real value 0), a 3x3
  // kernel with per-output-channel scales, stride 2.
  const std::string kernel = PerAxisType("i8", 3, 4, false);
  cases.push_back(QuantizedCase(
      "quantized.convolution", "int8_per_axis", kS8, 2, "nhwc", "random",
      "func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xi8>) -> "
      "tensor<1x4x4x4x!quant.uniform<i8:f32, 0.25:-1>> {\n"
      "  %qx = stablehlo.uniform_quantize %x : (tensor<1x8x8x3xf32>) -> "
      "tensor<1x8x8x3x!quant.uniform<i8:f32, 0.05:-2>>\n"
      "  %qk = stablehlo.bitcast_convert %k : (tensor<3x3x3x4xi8>) -> "
      "tensor<3x3x3x4x" +
          kernel +
          ">\n  %y = stablehlo.convolution(%qx, %qk) dim_numbers = [b, 0, 1, "
          "f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = "
          "[[1, 1], [1, 1]]} {batch_group_count = 1 : i64, "
          "feature_group_count = 1 : i64} : "
          "(tensor<1x8x8x3x!quant.uniform<i8:f32, 0.05:-2>>, "
          "tensor<3x3x3x4x" +
          kernel +
          ">) -> tensor<1x4x4x4x!quant.uniform<i8:f32, 0.25:-1>>\n"
          "  func.return %y : tensor<1x4x4x4x!quant.uniform<i8:f32, "
          "0.25:-1>>\n}",
      {RandomValues(-4, 4), RandomValues()}));
  return cases;
}

std::vector<Case> OtherQuantizedCases() {
  std::vector<Case> cases;
  cases.push_back(QuantizedCase(
      "quantized.add", "", kS8, 1, "odd", "random",
      R"(func.func @main(%a: tensor<7x13xf32>, %b: tensor<7x13xf32>) -> tensor<7x13x!quant.uniform<i8:f32, 0.5:-20>> {
  %qa = stablehlo.uniform_quantize %a : (tensor<7x13xf32>) -> tensor<7x13x!quant.uniform<i8:f32, 0.1:-30>>
  %qb = stablehlo.uniform_quantize %b : (tensor<7x13xf32>) -> tensor<7x13x!quant.uniform<i8:f32, 0.5:-20>>
  %y = stablehlo.add %qa, %qb : (tensor<7x13x!quant.uniform<i8:f32, 0.1:-30>>, tensor<7x13x!quant.uniform<i8:f32, 0.5:-20>>) -> tensor<7x13x!quant.uniform<i8:f32, 0.5:-20>>
  func.return %y : tensor<7x13x!quant.uniform<i8:f32, 0.5:-20>>
})",
      {RandomValues(-8, 8), RandomValues(-8, 8)}));
  // A max pool and a sum whose regions take quantized values: each step is
  // a quantized maximum or add (dequantize, the op, quantize).
  const std::string q = "!quant.uniform<i8:f32, 0.25:3>";
  cases.push_back(QuantizedCase(
      "quantized.reduce_window", "max_pool", kS8, 2, "nhwc", "random",
      "func.func @main(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3x" + q +
          "> {\n"
          "  %qx = stablehlo.uniform_quantize %x : (tensor<1x8x8x3xf32>) -> "
          "tensor<1x8x8x3x" +
          q + ">\n  %ms = stablehlo.constant dense<-128> : tensor<i8>\n" +
          "  %m = stablehlo.bitcast_convert %ms : (tensor<i8>) -> tensor<" + q +
          ">\n  %y = \"stablehlo.reduce_window\"(%qx, %m) ({\n" +
          "  ^bb0(%a: tensor<" + q + ">, %b: tensor<" + q + ">):\n" +
          "    %r = stablehlo.maximum %a, %b : tensor<" + q + ">\n" +
          "    stablehlo.return %r : tensor<" + q + ">\n" +
          "  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = "
          "array<i64: 1, 2, 2, 1>} : (tensor<1x8x8x3x" +
          q + ">, tensor<" + q + ">) -> tensor<1x4x4x3x" + q +
          ">\n  func.return %y : tensor<1x4x4x3x" + q + ">\n}",
      {RandomValues(-40, 40)}));
  cases.push_back(QuantizedCase(
      "quantized.reduce", "sum", kS8, 1, "odd", "random",
      "func.func @main(%x: tensor<7x13xf32>) -> tensor<7x" + q + "> {\n" +
          "  %qx = stablehlo.uniform_quantize %x : (tensor<7x13xf32>) -> "
          "tensor<7x13x" +
          q + ">\n  %zs = stablehlo.constant dense<3> : tensor<i8>\n" +
          "  %z = stablehlo.bitcast_convert %zs : (tensor<i8>) -> tensor<" + q +
          ">\n  %y = stablehlo.reduce(%qx init: %z) across dimensions = "
          "[1] : (tensor<7x13x" +
          q + ">, tensor<" + q + ">) -> tensor<7x" + q +
          ">\n    reducer(%a: tensor<" + q + ">, %b: tensor<" + q +
          ">) {\n      %s = stablehlo.add %a, %b : tensor<" + q +
          ">\n      stablehlo.return %s : tensor<" + q +
          ">\n    }\n  func.return %y : tensor<7x" + q + ">\n}",
      {RandomValues(-3, 3)}));
  const std::string columns = PerAxisType("i8", 1, 4, true);
  const std::string rows = PerAxisType("i8", 0, 4, true);
  cases.push_back(QuantizedCase(
      "quantized.data_movement", "per_axis", kS8, 1, "odd", "random",
      "func.func @main(%s: tensor<6x4xi8>) -> tensor<4x5x" + rows +
          "> {\n"
          "  %q = stablehlo.bitcast_convert %s : (tensor<6x4xi8>) -> "
          "tensor<6x4x" +
          columns + ">\n  %t = stablehlo.transpose %q, dims = [1, 0] : " +
          "(tensor<6x4x" + columns + ">) -> tensor<4x6x" + rows +
          ">\n  %r = stablehlo.reverse %t, dims = [1] : (tensor<4x6x" + rows +
          ">) -> tensor<4x6x" + rows +
          ">\n  %c = stablehlo.concatenate %t, %r, dim = 1 : (tensor<4x6x" +
          rows + ">, tensor<4x6x" + rows + ">) -> tensor<4x12x" + rows +
          ">\n  %y = stablehlo.slice %c [0:4, 3:8] : (tensor<4x12x" + rows +
          ">) -> tensor<4x5x" + rows + ">\n  func.return %y : tensor<4x5x" +
          rows + ">\n}",
      {RandomValues()}));
  return cases;
}

}  // namespace

std::vector<Case> QuantizedCases() {
  std::vector<Case> cases = QuantizeCases();
  for (auto family : {&DotAndConvolutionCases, &OtherQuantizedCases}) {
    std::vector<Case> more = family();
    cases.insert(cases.end(), std::make_move_iterator(more.begin()),
                 std::make_move_iterator(more.end()));
  }
  return cases;
}

}  // namespace phal::conformance
