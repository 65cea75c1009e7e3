// The StableHLO front end: both op syntaxes, every construct of the text
// format, the op lowerings and the error messages.
#include "core/frontend/stablehlo_parser.h"

#include <random>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/stablehlo_test_util.h"

namespace phal::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ErrorOf(const std::string& text) {
  StatusOr<StableHloModule> program = ParseStableHlo(text, "bad.mlir");
  EXPECT_FALSE(program.ok()) << "parsed:\n" << text;
  return program.ok() ? "" : program.status().message();
}

TEST(StableHloParserTest, PrettyAndGenericFormsLowerToTheSameAdd) {
  const std::string pretty = R"(
    func.func @main() -> tensor<2xf32> {
      %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[3.5, 4.5]> : tensor<2xf32>
      %0 = stablehlo.add %a, %b : tensor<2xf32>
      func.return %0 : tensor<2xf32>
    })";
  const std::string generic_ops = R"(
    func.func @main() -> tensor<2xf32> {
      %a = "stablehlo.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
      %b = "stablehlo.constant"() {value = dense<[3.5, 4.5]> : tensor<2xf32>} : () -> tensor<2xf32>
      %0 = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      "func.return"(%0) : (tensor<2xf32>) -> ()
    })";
  EXPECT_THAT(FirstOutputValues(pretty), ElementsAre(4.5, 6.5));
  EXPECT_THAT(FirstOutputValues(generic_ops), ElementsAre(4.5, 6.5));
}

TEST(StableHloParserTest, CompareReadsDirectionAndTypeInBothForms) {
  const std::string text = R"(
    func.func @main() -> (tensor<3xi1>, tensor<3xi1>) {
      %a = stablehlo.constant dense<[-1, 0, 1]> : tensor<3xi32>
      %b = stablehlo.constant dense<[0, 0, 0]> : tensor<3xi32>
      %0 = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
      %x = stablehlo.constant dense<[-0.0, 0x7FC00000, 1.0]> : tensor<3xf32>
      %y = stablehlo.constant dense<[0.0, 1.0, 1.0]> : tensor<3xf32>
      %1 = "stablehlo.compare"(%x, %y) {comparison_direction = #stablehlo<comparison_direction GE>,
             compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
      return %0, %1 : tensor<3xi1>, tensor<3xi1>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1, 0, 0));
  // Total order: -0 < +0 and +NaN is above every number.
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(0, 1, 1));
}

TEST(StableHloParserTest, ReduceInEveryForm) {
  const std::string applies = R"(
    func.func @main() -> tensor<2xi64> {
      %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
      %c = stablehlo.constant dense<0> : tensor<i64>
      %0 = stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
      return %0 : tensor<2xi64>
    })";
  const std::string reducer = R"(
    func.func @main() -> (tensor<3xi64>, tensor<3xi64>) {
      %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
      %c = stablehlo.constant dense<0> : tensor<i64>
      %m = stablehlo.constant dense<-100> : tensor<i64>
      %0:2 = stablehlo.reduce(%x init: %c), (%x init: %m) across dimensions = [0] : (tensor<2x3xi64>, tensor<2x3xi64>, tensor<i64>, tensor<i64>) -> (tensor<3xi64>, tensor<3xi64>)
       reducer(%a0: tensor<i64>, %b0: tensor<i64>) (%a1: tensor<i64>, %b1: tensor<i64>) {
        %s = stablehlo.add %a0, %b0 : tensor<i64>
        %m1 = stablehlo.maximum %a1, %b1 : tensor<i64>
        stablehlo.return %s, %m1 : tensor<i64>, tensor<i64>
      }
      return %0#0, %0#1 : tensor<3xi64>, tensor<3xi64>
    })";
  const std::string generic = R"(
    func.func @main() -> tensor<2xi64> {
      %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
      %c = stablehlo.constant dense<1> : tensor<i64>
      %0 = "stablehlo.reduce"(%x, %c) ({
        ^bb0(%arg0: tensor<i64>, %arg1: tensor<i64>):
          %1 = stablehlo.multiply %arg0, %arg1 : tensor<i64>
          stablehlo.return %1 : tensor<i64>
      }) {dimensions = array<i64: 1>} : (tensor<2x3xi64>, tensor<i64>) -> tensor<2xi64>
      return %0 : tensor<2xi64>
    })";
  EXPECT_THAT(FirstOutputValues(applies), ElementsAre(6, 15));
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(reducer);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(5, 7, 9));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(4, 5, 6));
  EXPECT_THAT(FirstOutputValues(generic), ElementsAre(6, 120));
}

TEST(StableHloParserTest, WhileCarriesValuesItUsesFromOutside) {
  const std::string text = R"(
    func.func @main() -> tensor<i64> {
      %init = stablehlo.constant dense<0> : tensor<i64>
      %step = stablehlo.constant dense<3> : tensor<i64>
      %limit = stablehlo.constant dense<10> : tensor<i64>
      %0 = stablehlo.while(%iterArg = %init) : tensor<i64>
       cond {
        %c = stablehlo.compare LT, %iterArg, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      } do {
        %n = stablehlo.add %iterArg, %step : tensor<i64>
        stablehlo.return %n : tensor<i64>
      }
      return %0 : tensor<i64>
    })";
  EXPECT_THAT(FirstOutputValues(text), ElementsAre(12));
}

TEST(StableHloParserTest, IfAndCaseSelectBranchesWithCapturedValues) {
  const std::string text = R"(
    func.func @main() -> (tensor<2xf32>, tensor<2xf32>) {
      %p = stablehlo.constant dense<false> : tensor<i1>
      %i = stablehlo.constant dense<7> : tensor<i32>
      %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[5.0, 6.0]> : tensor<2xf32>
      %0 = "stablehlo.if"(%p) ({
        stablehlo.return %a : tensor<2xf32>
      }, {
        %n = stablehlo.negate %b : tensor<2xf32>
        stablehlo.return %n : tensor<2xf32>
      }) : (tensor<i1>) -> tensor<2xf32>
      %1 = "stablehlo.case"(%i) ({
        stablehlo.return %a : tensor<2xf32>
      }, {
        stablehlo.return %b : tensor<2xf32>
      }) : (tensor<i32>) -> tensor<2xf32>
      return %0, %1 : tensor<2xf32>, tensor<2xf32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(-5, -6));
  // An out-of-range index runs the last branch.
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(5, 6));
}

TEST(StableHloParserTest, DataMovementOpsInPrettyForm) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xi32>, tensor<1x2xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<4xi32>) {
      %x = stablehlo.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
      %0 = stablehlo.slice %x [0:2, 1:3] : (tensor<2x3xi32>) -> tensor<2x2xi32>
      %1 = stablehlo.slice %x [1:2, 0:3:2] : (tensor<2x3xi32>) -> tensor<1x2xi32>
      %2 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xi32>) -> tensor<3x2xi32>
      %s = stablehlo.constant dense<7> : tensor<i32>
      %3 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
      %4 = stablehlo.iota dim = 0 : tensor<4xi32>
      return %0, %1, %2, %3, %4 : tensor<2x2xi32>, tensor<1x2xi32>, tensor<3x2xi32>, tensor<2x3xi32>, tensor<4xi32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1, 2, 4, 5));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(3, 5));
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(7, 7, 7, 7, 7, 7));
  EXPECT_THAT(Values((*outputs)[4]), ElementsAre(0, 1, 2, 3));
}

TEST(StableHloParserTest, DotGeneralWithBatchingAndContractingDims) {
  const std::string text = R"(
    func.func @main() -> tensor<2x1x1xf32> {
      %a = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
      %b = stablehlo.constant dense<[[[1.0], [1.0]], [[2.0], [0.5]]]> : tensor<2x2x1xf32>
      %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x1x2xf32>, tensor<2x2x1xf32>) -> tensor<2x1x1xf32>
      return %0 : tensor<2x1x1xf32>
    })";
  EXPECT_THAT(FirstOutputValues(text), ElementsAre(3, 8));
}

TEST(StableHloParserTest, ConvolutionPrettyFormMatchesGenericForm) {
  const std::string pretty = R"(
    func.func @main() -> tensor<1x2x2x1xf32> {
      %lhs = stablehlo.iota dim = 1 : tensor<1x3x3x1xf32>
      %rhs = stablehlo.constant dense<1.0> : tensor<2x2x1x1xf32>
      %0 = stablehlo.convolution(%lhs, %rhs)
          dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
          window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]}
          {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
          : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
      return %0 : tensor<1x2x2x1xf32>
    })";
  const std::string generic = R"(
    func.func @main() -> tensor<1x2x2x1xf32> {
      %lhs = stablehlo.iota dim = 1 : tensor<1x3x3x1xf32>
      %rhs = stablehlo.constant dense<1.0> : tensor<2x2x1x1xf32>
      %0 = "stablehlo.convolution"(%lhs, %rhs) {
        dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
        window_strides = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>,
        feature_group_count = 1 : i64, batch_group_count = 1 : i64
      } : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
      return %0 : tensor<1x2x2x1xf32>
    })";
  EXPECT_THAT(FirstOutputValues(pretty), ElementsAre(2, 2, 6, 6));
  EXPECT_THAT(FirstOutputValues(generic), ElementsAre(2, 2, 6, 6));
}

TEST(StableHloParserTest, GatherAndSortInGenericFormWithProperties) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xi64>, tensor<4xi64>) {
      %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
      %i = stablehlo.constant dense<[2, 0]> : tensor<2xi64>
      %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
      %v = stablehlo.constant dense<[3, 1, 4, 1]> : tensor<4xi64>
      %1 = "stablehlo.sort"(%v) <{dimension = 0 : i64, is_stable = true}> ({
      ^bb0(%a: tensor<i64>, %b: tensor<i64>):
        %c = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %c : tensor<i1>
      }) : (tensor<4xi64>) -> tensor<4xi64>
      return %0, %1 : tensor<2x2xi64>, tensor<4xi64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(5, 6, 1, 2));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(4, 3, 1, 1));
}

TEST(StableHloParserTest, ModulesFunctionsCallsAttributesAndLocations) {
  const std::string text = R"(#loc = loc("model.py":3:0)
#loc1 = loc(unknown)
module @jit_f attributes {mhlo.num_partitions = 1 : i32, jax.uses_shape_polymorphism = false} {
  func.func public @main(%arg0: tensor<2xf32> {jax.arg_info = "x", mhlo.sharding = "{replicated}"} loc("x")) -> (tensor<2xf32> {jax.result_info = ""}, tensor<2xf32>) {
    %0:2 = call @twice(%arg0) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) loc(#loc)
    %1:2 = func.call @twice(%0#1) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    return %0#0, %1#1 : tensor<2xf32>, tensor<2xf32> loc(#loc1)
  } loc(#loc)
  func.func private @twice(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32> loc(fused[#loc, "add"])
    return %arg0, %0 : tensor<2xf32>, tensor<2xf32>
  }
} loc(#loc))";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(
      text, "", {Literal::FromValues(PHAL_ELEMENT_TYPE_F32, {2}, {1.0, 3.0})});
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1, 3));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(4, 12));
}

TEST(StableHloParserTest, EntryIsMainOrTheOnlyPublicFunction) {
  StatusOr<StableHloModule> with_main = ParseStableHlo(R"(
    func.func @helper() -> tensor<i1> { %0 = stablehlo.constant dense<true> : tensor<i1> return %0 : tensor<i1> }
    func.func @main() -> tensor<i1> { %0 = stablehlo.constant dense<true> : tensor<i1> return %0 : tensor<i1> })",
                                                       "t.mlir");
  ASSERT_TRUE(with_main.ok()) << with_main.status().message();
  EXPECT_EQ(with_main->EntryFunction()->name, "main");
  StatusOr<StableHloModule> one_public = ParseStableHlo(R"(
    func.func private @p() -> tensor<i1> { %0 = stablehlo.constant dense<true> : tensor<i1> return %0 : tensor<i1> }
    func.func @f() -> tensor<i1> { %0 = func.call @p() : () -> tensor<i1> return %0 : tensor<i1> })",
                                                        "t.mlir");
  ASSERT_TRUE(one_public.ok()) << one_public.status().message();
  EXPECT_EQ(one_public->EntryFunction()->name, "f");
  EXPECT_EQ(one_public->FindFunction("f")->callees,
            std::vector<std::string>{"p"});
}

TEST(StableHloParserTest, DenseLiteralsOfEveryForm) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf32>, tensor<3xi8>, tensor<2xf32>, tensor<2xi1>, tensor<complex<f64>>, tensor<2xui16>, tensor<f32>) {
      %0 = stablehlo.constant dense<[[1.5, -2.0], [3.0e2, 4]]> : tensor<2x2xf32>
      %1 = stablehlo.constant dense<-3> : tensor<3xi8>
      %2 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
      %3 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
      %4 = stablehlo.constant dense<(1.0, -2.5)> : tensor<complex<f64>>
      %5 = stablehlo.constant dense<[65535, 7]> : tensor<2xui16>
      %6 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      return %0, %1, %2, %3, %4, %5, %6 : tensor<2x2xf32>, tensor<3xi8>, tensor<2xf32>, tensor<2xi1>, tensor<complex<f64>>, tensor<2xui16>, tensor<f32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1.5, -2, 300, 4));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(-3, -3, -3));
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(1, 2));
  EXPECT_THAT(Values((*outputs)[3]), ElementsAre(1, 0));
  EXPECT_EQ((*outputs)[4].GetAsComplex(0), std::complex<double>(1.0, -2.5));
  EXPECT_THAT(Values((*outputs)[5]), ElementsAre(65535, 7));
  EXPECT_TRUE(std::isnan((*outputs)[6].GetAsDouble(0)));
}

TEST(StableHloParserTest, ElementTypesMapOntoHloTypes) {
  const std::pair<const char*, ElementType> cases[] = {
      {"i1", PHAL_ELEMENT_TYPE_PRED},
      {"i8", PHAL_ELEMENT_TYPE_S8},
      {"i16", PHAL_ELEMENT_TYPE_S16},
      {"i32", PHAL_ELEMENT_TYPE_S32},
      {"i64", PHAL_ELEMENT_TYPE_S64},
      {"ui8", PHAL_ELEMENT_TYPE_U8},
      {"ui16", PHAL_ELEMENT_TYPE_U16},
      {"ui32", PHAL_ELEMENT_TYPE_U32},
      {"ui64", PHAL_ELEMENT_TYPE_U64},
      {"f16", PHAL_ELEMENT_TYPE_F16},
      {"bf16", PHAL_ELEMENT_TYPE_BF16},
      {"f32", PHAL_ELEMENT_TYPE_F32},
      {"f64", PHAL_ELEMENT_TYPE_F64},
      {"complex<f32>", PHAL_ELEMENT_TYPE_C64},
      {"complex<f64>", PHAL_ELEMENT_TYPE_C128},
  };
  for (const auto& [name, type] : cases) {
    const std::string text = std::string("func.func @main(%x: tensor<2x") +
                             name + ">) -> tensor<2x" + name +
                             "> { return %x : tensor<2x" + name + "> }";
    StatusOr<StableHloModule> program = ParseStableHlo(text, "t.mlir");
    ASSERT_TRUE(program.ok()) << name << ": " << program.status().message();
    EXPECT_EQ(program->module->entry_computation()->ParameterShapes()[0],
              Shape(type, {2}))
        << name;
  }
}

TEST(StableHloParserTest, CompositeRunsItsDecomposition) {
  const std::string text = R"(
    func.func @add_n.impl(%arg0: tensor<i64>) -> tensor<i64> {
      %0 = stablehlo.constant dense<2> : tensor<i64>
      %1 = stablehlo.add %arg0, %0 : tensor<i64>
      func.return %1 : tensor<i64>
    }
    func.func @main() -> tensor<i64> {
      %0 = stablehlo.constant dense<1> : tensor<i64>
      %1 = stablehlo.composite "my.add_n" %0 {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl} : (tensor<i64>) -> tensor<i64>
      return %1 : tensor<i64>
    })";
  EXPECT_THAT(FirstOutputValues(text), ElementsAre(3));
}

TEST(StableHloParserTest, DynamicOpsWithConstantShapesBecomeStaticOps) {
  const std::string text = R"(
    func.func @main() -> (tensor<3x2xi64>, tensor<2xi64>) {
      %x = stablehlo.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
      %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
      %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<6xi64>, tensor<2xi64>) -> tensor<3x2xi64>
      %s = stablehlo.constant dense<[1]> : tensor<1xi64>
      %l = stablehlo.constant dense<[5]> : tensor<1xi64>
      %st = stablehlo.constant dense<[2]> : tensor<1xi64>
      %1 = stablehlo.real_dynamic_slice %x, %s, %l, %st : (tensor<6xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
      return %0, %1 : tensor<3x2xi64>, tensor<2xi64>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(1, 2, 3, 4, 5, 6));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(2, 4));
}

TEST(StableHloParserTest, CheckOpsBecomeOutputsAndSpecs) {
  const std::string text = R"(
    func.func @main() -> tensor<2xf32> {
      %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[1.00001, 2.0]> : tensor<2xf32>
      check.expect_eq %a, %a : tensor<2xf32>
      check.expect_almost_eq %a, %b : tensor<2xf32>
      check.expect_almost_eq_const %a, dense<[1.1, 2.0]> : tensor<2xf32> {tolerance = 0.2 : f64}
      check.expect_close %a, %b, max_ulp_difference = 200, min_ulp_difference = 0 : tensor<2xf32>, tensor<2xf32>
      stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      check.expect_serialized_eq %a, probe_id = "probe0", iter = 0 : tensor<2xf32>
      return %a : tensor<2xf32>
    })";
  StatusOr<StableHloModule> program = ParseStableHlo(text, "checks.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const StableHloFunction& main = *program->EntryFunction();
  ASSERT_EQ(main.checks.size(), 6u);
  EXPECT_EQ(main.result_count, 1);
  EXPECT_TRUE(main.returns_tuple);
  EXPECT_EQ(main.checks[0].kind, CheckKind::kEqual);
  EXPECT_EQ(main.checks[0].actual_output, 1);
  EXPECT_EQ(main.checks[0].expected_output, 2);
  EXPECT_EQ(main.checks[0].location, "checks.mlir:5:7");
  EXPECT_EQ(main.checks[1].tolerance, kDefaultAlmostEqualTolerance);
  EXPECT_EQ(main.checks[2].tolerance, 0.2);
  EXPECT_TRUE(main.checks[2].expected.has_value());
  EXPECT_EQ(main.checks[3].max_ulp_difference, 200u);
  EXPECT_EQ(main.checks[3].min_ulp_difference, 0u);
  EXPECT_EQ(main.checks[4].op_name, "custom_call @check.expect_eq");
  EXPECT_EQ(main.checks[5].kind, CheckKind::kSkipped);
  StatusOr<std::vector<std::string>> failed = FailedChecks(text);
  ASSERT_TRUE(failed.ok()) << failed.status().message();
  // Only the exact custom_call comparison of a and b fails.
  ASSERT_EQ(failed->size(), 1u);
  EXPECT_THAT((*failed)[0],
              HasSubstr("main: custom_call @check.expect_eq at test.mlir:9:7"));
}

TEST(StableHloParserTest, CheckCustomCallsTakeTheInterpreterDriversBounds) {
  // JAX's test data writes its checks as attribute-less custom calls; the
  // StableHLO interpreter driver checks them within 3 ulp, 1e-3, and 1e-4
  // for @check.eq on floats.
  const std::string text = R"(
    func.func @main() -> tensor<2xf32> {
      %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[1.0000003, 2.0005]> : tensor<2xf32>
      %c = stablehlo.constant dense<[1.00005, 2.0]> : tensor<2xf32>
      stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      stablehlo.custom_call @check.expect_almost_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      stablehlo.custom_call @check.eq(%a, %c) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      return %a : tensor<2xf32>
    })";
  StatusOr<StableHloModule> program = ParseStableHlo(text, "checks.mlir");
  ASSERT_TRUE(program.ok()) << program.status().message();
  const StableHloFunction& main = *program->EntryFunction();
  ASSERT_EQ(main.checks.size(), 3u);
  EXPECT_EQ(main.checks[0].max_ulp_difference, kCustomCallMaxUlpDifference);
  EXPECT_EQ(main.checks[1].tolerance, kCustomCallAlmostEqualTolerance);
  EXPECT_EQ(main.checks[2].kind, CheckKind::kAlmostEqual);
  StatusOr<std::vector<std::string>> failed = FailedChecks(text);
  ASSERT_TRUE(failed.ok()) << failed.status().message();
  // 1.0000003 is 3 ulp from 1; 2.0005 is 0.0005 from 2 but 1049 ulp away.
  ASSERT_EQ(failed->size(), 1u);
  EXPECT_THAT((*failed)[0], HasSubstr("custom_call @check.expect_close"));
}

TEST(StableHloParserTest, SplitsPartsAtDashedLines) {
  const std::string text = "a\n// -----\nb\n  // -----  \nc";
  const std::vector<StableHloPart> parts = SplitStableHloParts(text);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(text.substr(parts[0].begin, parts[0].end - parts[0].begin), "a\n");
  EXPECT_NE(
      text.substr(parts[2].begin, parts[2].end - parts[2].begin).find('c'),
      std::string::npos);
}

TEST(StableHloParserTest, ErrorsInALaterPartCarryTheWholeFilesLineNumbers) {
  const std::string text =
      "func.func @a() { func.return }\n// -----\nfunc.func @b() {\n  %0 = "
      "stablehlo.bogus : tensor<f32>\n  func.return\n}\n";
  const SourceText source(text, "parts.mlir");
  const std::vector<StableHloPart> parts = SplitStableHloParts(text);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(ParseStableHloPart(source, parts[0]).ok());
  StatusOr<StableHloModule> second = ParseStableHloPart(source, parts[1]);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(),
            "parts.mlir:4:3: error: stablehlo.bogus: unsupported operation "
            "stablehlo.bogus\n"
            "  %0 = stablehlo.bogus : tensor<f32>\n"
            "  ^");
}

// stablehlo.fft in the pretty form JAX prints, the generic form with
// array<i64: ...> and the older dense<...> fft_length: each becomes one HLO
// fft the reference computes (the impulse's spectrum is all ones).
TEST(StableHloParserTest, FftInEveryFormLowersToOneHloFft) {
  const std::string impulse =
      "  %x = stablehlo.constant dense<[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "
      "0.0]> : tensor<8xf32>\n";
  for (const std::string& op :
       {std::string("stablehlo.fft %x, type = RFFT, length = [8] : "
                    "(tensor<8xf32>) -> tensor<5xcomplex<f32>>"),
        std::string("\"stablehlo.fft\"(%x) {fft_type = #stablehlo<fft_type "
                    "RFFT>, fft_length = array<i64: 8>} : (tensor<8xf32>) -> "
                    "tensor<5xcomplex<f32>>"),
        std::string("\"stablehlo.fft\"(%x) {fft_type = #stablehlo<fft_type "
                    "RFFT>, fft_length = dense<8> : tensor<1xi64>} : "
                    "(tensor<8xf32>) -> tensor<5xcomplex<f32>>")}) {
    SCOPED_TRACE(op);
    const std::string text = "func.func @main() -> tensor<5xcomplex<f32>> {\n" +
                             impulse + "  %0 = " + op +
                             "\n  return %0 : tensor<5xcomplex<f32>>\n}\n";
    StatusOr<StableHloModule> program = ParseStableHlo(text, "fft.mlir");
    ASSERT_TRUE(program.ok()) << program.status().message();
    const HloInstruction* root =
        program->EntryFunction()->computation->root_instruction();
    ASSERT_EQ(root->opcode(), HloOpcode::kFft);
    EXPECT_EQ(root->fft_type(), FftType::kRfft);
    EXPECT_EQ(root->fft_length(), std::vector<int64_t>{8});
    EXPECT_THAT(FirstOutputValues(text), ElementsAre(1, 1, 1, 1, 1));
  }
}

TEST(StableHloParserTest, FftOfTheWrongTypeIsReportedAtTheOp) {
  EXPECT_THAT(
      ErrorOf("func.func @main(%x: tensor<8xcomplex<f32>>) {\n  %0 = "
              "stablehlo.fft %x, type = RFFT, length = [8] : "
              "(tensor<8xcomplex<f32>>) -> tensor<5xcomplex<f32>>\n  "
              "func.return\n}"),
      HasSubstr("bad.mlir:2:3: error: stablehlo.fft: RFFT needs an f32 or f64 "
                "operand, got c64[8]"));
  EXPECT_THAT(
      ErrorOf("func.func @main(%x: tensor<8xf32>) {\n  %0 = stablehlo.fft %x, "
              "type = DCT, length = [8] : (tensor<8xf32>) -> "
              "tensor<5xcomplex<f32>>\n  func.return\n}"),
      HasSubstr("unknown fft_type 'DCT'"));
}

// stablehlo_parser_fuzzer's finding: an op written without its operand
// ("bf162" where "%1" belongs) was lowered as if it had one.
TEST(StableHloParserTest, OpsWithoutTheirOperandAreErrors) {
  for (const char* op :
       {"stablehlo.broadcast_in_dim bf162, dims = [1] : (tensor<8xf32>) -> "
        "tensor<1x8xf32>",
        "\"stablehlo.broadcast_in_dim\"() {broadcast_dimensions = "
        "array<i64: 1>} : () -> tensor<1x8xf32>",
        "\"stablehlo.broadcast\"() {broadcast_sizes = array<i64: 1>} : () "
        "-> tensor<1x8xf32>",
        "\"stablehlo.reshape\"() : () -> tensor<1x8xf32>",
        "\"stablehlo.bitcast_convert\"() : () -> tensor<1x8xf32>"}) {
    EXPECT_THAT(ErrorOf(std::string("func.func @main(%arg0: tensor<8xf32>) -> "
                                    "tensor<1x8xf32> {\n  %1 = ") +
                        op + "\n  return %1 : tensor<1x8xf32>\n}"),
                HasSubstr("expects an operand, got none"))
        << op;
  }
}

// stablehlo_parser_fuzzer's finding: a float element of an integer array
// beyond an i64's range (here infinite) was converted to one regardless.
TEST(StableHloParserTest, ArrayElementsBeyondAnI64AreErrors) {
  for (const char* element : {"222222e22222", "-1e19", "9.3e18"}) {
    EXPECT_THAT(
        ErrorOf(std::string("module @m attributes {a = array<i64: 1, ") +
                element +
                ">} {\n  func.func @main() {\n    func.return\n  "
                "}\n}"),
        HasSubstr("is out of range"))
        << element;
  }
}

// stablehlo_parser_fuzzer's finding: a splat constant of 777,777,777,777,774
// elements was materialized, asking the allocator for 777 TB.
TEST(StableHloParserTest, ConstantsExpandedBeyondTheLimitAreErrors) {
  for (const char* elements : {"dense<3> : tensor<777777777777774xi8>",
                               "dense<\"0x0300\"> : tensor<200000000xi16>",
                               "dense<[1, 2]> : tensor<1000000x1000xf32>"}) {
    EXPECT_THAT(ErrorOf(std::string("func.func @main() {\n  %0 = "
                                    "stablehlo.constant ") +
                        elements + "\n  func.return\n}"),
                HasSubstr("bad.mlir:2:33: error: a constant of "))
        << elements;
  }
}

TEST(StableHloParserTest, SplatsFillEveryElement) {
  EXPECT_THAT(FirstOutputValues(R"(
    func.func @main() -> tensor<5xi16> {
      %0 = stablehlo.constant dense<-3> : tensor<5xi16>
      func.return %0 : tensor<5xi16>
    })"),
              ElementsAre(-3, -3, -3, -3, -3));
  EXPECT_THAT(FirstOutputValues(R"(
    func.func @main() -> tensor<3x3xf32> {
      %0 = stablehlo.constant dense<"0x0000C03F"> : tensor<3x3xf32>
      func.return %0 : tensor<3x3xf32>
    })"),
              ElementsAre(1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5));
}

TEST(StableHloParserTest, MalformedTextGetsPreciseMessages) {
  EXPECT_THAT(ErrorOf("func.func @main() {\n  %0 = stablehlo.add %x, %x : "
                      "tensor<f32>\n  func.return\n}"),
              HasSubstr("bad.mlir:2:22: error: use of undefined value %x"));
  EXPECT_THAT(
      ErrorOf("func.func @main() {\n  %0 = stablehlo.constant dense<1> : "
              "tensor<2xtf32>\n}"),
      HasSubstr("bad.mlir:2:47: error: element type 'tf32' is not supported"));
  EXPECT_THAT(ErrorOf("func.func @main() {\n  stablehlo.custom_call @foo() : "
                      "() -> ()\n  func.return\n}"),
              HasSubstr("bad.mlir:2:3: error: unsupported custom_call @foo"));
  EXPECT_THAT(ErrorOf("func.func @main() {\n  %0 = stablehlo.constant "
                      "dense<[1, 2]> : tensor<3xi32>\n  func.return\n}"),
              HasSubstr("expected 3 elements in dimension 0 of s32[3]"));
  EXPECT_THAT(
      ErrorOf("func.func @main() {\n  %0 = \"stablehlo.all_reduce\"(%0) : "
              "(tensor<f32>) -> tensor<f32>\n  func.return\n}"),
      HasSubstr("use of undefined value %0"));
  EXPECT_THAT(ErrorOf("func.func @main(%a: tensor<f32>) {\n  %0 = "
                      "\"stablehlo.all_gather\"(%a) : (tensor<f32>) -> "
                      "tensor<f32>\n  func.return\n}"),
              HasSubstr("all_gather: dimensions {0} has 0, out of range"));
  EXPECT_THAT(
      ErrorOf("func.func @main() -> tensor<2xf32> {\n  %0 = stablehlo.constant "
              "dense<1.0> : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}"),
      HasSubstr("@main returns f32[3] as result 0 but declares f32[2]"));
  EXPECT_THAT(ErrorOf("func.func @main() {\n  %0 = stablehlo.constant "
                      "dense<1.0> : tensor<?xf32>\n}"),
              HasSubstr("dynamic dimensions are not supported"));
  EXPECT_THAT(
      ErrorOf("func.func @main() {\n  %0 = stablehlo.constant dense<1.0> : "
              "tensor<f32>"),
      HasSubstr("expected '}' to close the region, found end of input"));
  EXPECT_THAT(
      ErrorOf("func.func @main() {\n  %0 = stablehlo.constant dense<1>\n  "
              "func.return\n}"),
      HasSubstr("dense elements need a tensor type"));
  EXPECT_THAT(ErrorOf(""), HasSubstr("the module defines no function"));
}

TEST(StableHloParserTest, TruncatedAndRandomInputNeverCrashes) {
  const std::string text = R"(module @m {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "stablehlo.reduce"(%arg0, %arg0) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %1 = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) {dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %c = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
    %2 = stablehlo.convolution(%arg0, %arg0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1]} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %arg0 : tensor<2xf32>
  }
})";
  for (std::size_t length = 0; length <= text.size(); ++length) {
    StatusOr<StableHloModule> program =
        ParseStableHlo(text.substr(0, length), "cut.mlir");
    (void)program;
  }
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    std::string noisy = text;
    for (int edit = 0; edit < 4; ++edit) {
      noisy[random() % noisy.size()] = static_cast<char>(random() % 256);
    }
    StatusOr<StableHloModule> program = ParseStableHlo(noisy, "noise.mlir");
    (void)program;
  }
  std::string bytes(2000, '\0');
  for (char& c : bytes) c = static_cast<char>(random() % 256);
  EXPECT_FALSE(ParseStableHlo(bytes, "bytes.mlir").ok());
  EXPECT_FALSE(ParseStableHlo(std::string(5000, '['), "deep.mlir").ok());
  EXPECT_FALSE(
      ParseStableHlo("func.func @f() { %0 = stablehlo.constant dense<" +
                         std::string(5000, '['),
                     "deep.mlir")
          .ok());
}

}  // namespace
}  // namespace phal::testing
