#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

// x: [batch 2, feature 2] = [[1 10] [3 30]]; feature 0 has mean 2 and
// variance 1, feature 1 mean 20 and variance 100.
Literal Input(ElementType type) { return Values(type, {2, 2}, {1, 10, 3, 30}); }

TEST(BatchNormTest, InferenceNormalizesWithTheGivenMoments) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "batch-norm-inference",
          {Input(kF32), Values(kF32, {2}, {1, 2}), Values(kF32, {2}, {0, 1}),
           Values(kF32, {2}, {2, 20}), Values(kF32, {2}, {1, 100})},
          Shape(kF32, {2, 2}), "epsilon=0, feature_index=1"),
      Values(kF32, {2, 2}, {-1, -1, 1, 3})));
}

TEST(BatchNormTest, TrainingReturnsOutputMeanAndBiasedVariance) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "batch-norm-training",
          {Input(kF64), Values(kF64, {2}, {1, 1}), Values(kF64, {2}, {0, 0})},
          Shape::Tuple(
              {Shape(kF64, {2, 2}), Shape(kF64, {2}), Shape(kF64, {2})}),
          "epsilon=0, feature_index=1"),
      Literal::Tuple({Values(kF64, {2, 2}, {-1, -1, 1, 1}),
                      Values(kF64, {2}, {2, 20}),
                      Values(kF64, {2}, {1, 100})})));
}

TEST(BatchNormTest, GradMatchesTheSpecificationFormulas) {
  // Feature 0: x = [1, 3], mean 2, variance 1, scale 1, dy = [1, 0].
  //   grad_offset = 1, grad_scale = sum(dy * (x - mean)) / 1 = -1,
  //   grad_x = (1 / 1 / 2) * (dy * 2 - 1 - (-1) * (x - mean) / 1)
  //          = [0.5 * (2 - 1 - 1), 0.5 * (0 - 1 + 1)] = [0, 0].
  // Feature 1: x = [10, 30], mean 20, variance 100, scale 2, dy = [1, 1].
  //   grad_offset = 2, grad_scale = (-10 + 10) / 10 = 0,
  //   grad_x = (2 / 10 / 2) * (2 - 2 - 0) = [0, 0].
  EXPECT_TRUE(SameLiteral(
      EvaluateOp(
          "batch-norm-grad",
          {Input(kF64), Values(kF64, {2}, {1, 2}), Values(kF64, {2}, {2, 20}),
           Values(kF64, {2}, {1, 100}), Values(kF64, {2, 2}, {1, 1, 0, 1})},
          Shape::Tuple(
              {Shape(kF64, {2, 2}), Shape(kF64, {2}), Shape(kF64, {2})}),
          "epsilon=0, feature_index=1"),
      Literal::Tuple({Values(kF64, {2, 2}, {0, 0, 0, 0}),
                      Values(kF64, {2}, {-1, 0}), Values(kF64, {2}, {1, 2})})));
}

}  // namespace
}  // namespace phal::testing
