// chlo.ragged_dot in its three modes against products written out by
// hand, and its malformed forms as errors.
#include "core/frontend/ragged_dot.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/stablehlo_test_util.h"

namespace phal::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// A program computing chlo.ragged_dot of the three constants; `types` is
// the op's functional type, "(lhs, rhs, sizes) -> result".
std::string Program(const std::string& lhs, const std::string& rhs,
                    const std::string& sizes, const std::string& numbers,
                    const std::string& types) {
  const std::string result = types.substr(types.rfind("-> ") + 3);
  return "func.func @main() -> " + result + " {\n  %lhs = stablehlo.constant " +
         lhs + "\n  %rhs = stablehlo.constant " + rhs +
         "\n  %sizes = stablehlo.constant " + sizes +
         "\n  %r = \"chlo.ragged_dot\"(%lhs, %rhs, %sizes) {\n"
         "    ragged_dot_dimension_numbers = #chlo.ragged_dot<" +
         numbers + ">\n  } : " + types + "\n  return %r : " + result + "\n}";
}

std::string Error(const std::string& text) {
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  return outputs.ok() ? "" : std::string(outputs.status().message());
}

constexpr const char* kNonContracting =
    "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
    "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], "
    "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]";

TEST(RaggedDotTest, RowsOfEachGroupMultiplyTheirGroupsMatrix) {
  // Rows 0-1 are group 0 (the identity), row 2 group 1 (twice the
  // identity); row 3 lies past the last group and is zero.
  const std::string text = Program(
      "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : "
      "tensor<4x2xf32>",
      "dense<[[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]> : "
      "tensor<2x2x2xf32>",
      "dense<[2, 1]> : tensor<2xi64>", kNonContracting,
      "(tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xi64>) -> "
      "tensor<4x2xf32>");
  EXPECT_THAT(FirstOutputValues(text),
              ElementsAreArray({1, 2, 3, 4, 10, 12, 0, 0}));
}

TEST(RaggedDotTest, RaggedContractingDimensionSumsEachGroupsIndices) {
  // k = 0..1 is group 0, k = 2 group 1: result[j] = lhs[:, g_j] rhs[g_j, :].
  const std::string text = Program(
      "dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>",
      "dense<[[1.0], [10.0], [100.0]]> : tensor<3x1xf32>",
      "dense<[2, 1]> : tensor<2xi32>",
      "lhs_batching_dimensions = [], rhs_batching_dimensions = [], "
      "lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], "
      "lhs_ragged_dimensions = [1], rhs_group_dimensions = []",
      "(tensor<1x3xf32>, tensor<3x1xf32>, tensor<2xi32>) -> "
      "tensor<2x1x1xf32>");
  EXPECT_THAT(FirstOutputValues(text), ElementsAreArray({21, 300}));
}

TEST(RaggedDotTest, RaggedBatchDimensionIsADotGeneral) {
  const std::string text = Program(
      "dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>",
      "dense<[[[1.0], [1.0]], [[2.0], [2.0]]]> : tensor<2x2x1xf32>",
      "dense<[1, 1]> : tensor<2xi64>",
      "lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
      "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], "
      "lhs_ragged_dimensions = [0], rhs_group_dimensions = []",
      "(tensor<2x1x2xf32>, tensor<2x2x1xf32>, tensor<2xi64>) -> "
      "tensor<2x1x1xf32>");
  EXPECT_THAT(FirstOutputValues(text), ElementsAreArray({3, 14}));
}

TEST(RaggedDotTest, MalformedDimensionNumbersAreErrors) {
  const std::string types =
      "(tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xi64>) -> "
      "tensor<4x2xf32>";
  const std::string lhs = "dense<1.0> : tensor<4x2xf32>";
  const std::string rhs = "dense<1.0> : tensor<2x2x2xf32>";
  EXPECT_THAT(
      Error(Program(lhs, rhs, "dense<[2, 1]> : tensor<2xi64>",
                    "lhs_contracting_dimensions = [1], "
                    "rhs_contracting_dimensions = [1], "
                    "lhs_ragged_dimensions = [0], rhs_group_dimensions = []",
                    types)),
      HasSubstr("needs one rhs group dimension"));
  EXPECT_THAT(Error(Program(lhs, rhs, "dense<[1, 1, 2]> : tensor<3xi64>",
                            kNonContracting,
                            "(tensor<4x2xf32>, tensor<2x2x2xf32>, "
                            "tensor<3xi64>) -> tensor<4x2xf32>")),
              HasSubstr("3 group sizes for 2 rhs groups"));
  EXPECT_THAT(
      Error(Program(lhs, rhs, "dense<1.0> : tensor<2xf32>", kNonContracting,
                    "(tensor<4x2xf32>, tensor<2x2x2xf32>, "
                    "tensor<2xf32>) -> tensor<4x2xf32>")),
      HasSubstr("group_sizes must be a rank-1 integer tensor"));
  EXPECT_THAT(Error(Program(lhs, rhs, "dense<[2, 1]> : tensor<2xi64>",
                            "lhs_contracting_dimensions = [1], "
                            "rhs_contracting_dimensions = [1], "
                            "rhs_group_dimensions = [0]",
                            types)),
              HasSubstr("exactly one lhs ragged dimension"));
  EXPECT_THAT(
      Error(Program(lhs, rhs, "dense<[2, 1]> : tensor<2xi64>",
                    "lhs_contracting_dimensions = [1], "
                    "rhs_contracting_dimensions = [], "
                    "lhs_ragged_dimensions = [1], rhs_group_dimensions = []",
                    types)),
      HasSubstr("as many batch and contracting dimensions"));
}

}  // namespace
}  // namespace phal::testing
