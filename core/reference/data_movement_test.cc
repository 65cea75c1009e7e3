#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

// [[0 1 2] [3 4 5]]
Literal Matrix2x3(ElementType type = kS32) {
  return Values(type, {2, 3}, {0, 1, 2, 3, 4, 5});
}

TEST(DataMovementTest, BroadcastMapsOperandDimensionsToResultDimensions) {
  EXPECT_TRUE(SameLiteral(EvaluateOp("broadcast", {Values(kS32, {2}, {7, 8})},
                                     Shape(kS32, {2, 3}), "dimensions={0}"),
                          Values(kS32, {2, 3}, {7, 7, 7, 8, 8, 8})));
  EXPECT_TRUE(SameLiteral(EvaluateOp("broadcast", {Values(kF16, {}, {1.5})},
                                     Shape(kF16, {2}), "dimensions={}"),
                          Values(kF16, {2}, {1.5, 1.5})));
}

TEST(DataMovementTest, TransposeReshapeAndCopy) {
  EXPECT_TRUE(SameLiteral(EvaluateOp("transpose", {Matrix2x3()},
                                     Shape(kS32, {3, 2}), "dimensions={1,0}"),
                          Values(kS32, {3, 2}, {0, 3, 1, 4, 2, 5})));
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("reshape", {Matrix2x3()}, Shape(kS32, {3, 2})),
                  Values(kS32, {3, 2}, {0, 1, 2, 3, 4, 5})));
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("copy", {Matrix2x3(kC64)}, Shape(kC64, {2, 3})),
                  Matrix2x3(kC64)));
}

TEST(DataMovementTest, SliceWithStridesAndReverse) {
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("slice", {Matrix2x3()}, Shape(kS32, {2, 2}),
                             "slice={[0:2], [0:3:2]}"),
                  Values(kS32, {2, 2}, {0, 2, 3, 5})));
  EXPECT_TRUE(SameLiteral(EvaluateOp("reverse", {Matrix2x3()},
                                     Shape(kS32, {2, 3}), "dimensions={0,1}"),
                          Values(kS32, {2, 3}, {5, 4, 3, 2, 1, 0})));
}

TEST(DataMovementTest, PadWithInteriorAndNegativeLowPadding) {
  // Row dim: low 1, high 0; column dim: low -1 (drops column 0), interior 1.
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("pad", {Matrix2x3(), Values(kS32, {}, {9})},
                             Shape(kS32, {3, 4}), "padding=1_0x-1_0_1"),
                  Values(kS32, {3, 4}, {9, 9, 9, 9, 9, 1, 9, 2, 9, 4, 9, 5})));
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("pad",
                 {Values(kF32, {0}, std::initializer_list<double>{}),
                  Values(kF32, {}, {1.0})},
                 Shape(kF32, {2}), "padding=1_1"),
      Values(kF32, {2}, {1.0, 1.0})));
}

TEST(DataMovementTest, ConcatenateAlongAnyDimension) {
  EXPECT_TRUE(SameLiteral(
      EvaluateOp("concatenate", {Matrix2x3(), Values(kS32, {2, 1}, {8, 9})},
                 Shape(kS32, {2, 4}), "dimensions={1}"),
      Values(kS32, {2, 4}, {0, 1, 2, 8, 3, 4, 5, 9})));
}

TEST(DataMovementTest, IotaCountsAlongItsDimensionInEveryType) {
  EXPECT_TRUE(SameLiteral(
      EvaluateText("HloModule t\nENTRY e {\n ROOT i = s32[2,3] iota(), "
                   "iota_dimension=1\n}\n"),
      Values(kS32, {2, 3}, {0, 1, 2, 0, 1, 2})));
  EXPECT_TRUE(SameLiteral(
      EvaluateText("HloModule t\nENTRY e {\n ROOT i = f16[3] iota(), "
                   "iota_dimension=0\n}\n"),
      Values(kF16, {3}, {0.0, 1.0, 2.0})));
}

TEST(DataMovementTest, DynamicSliceClampsStartIndicesIntoBounds) {
  const Literal operand = Values(kS32, {5}, {0, 1, 2, 3, 4});
  auto slice_at = [&](int start) {
    return EvaluateOp("dynamic-slice", {operand, Values(kS32, {}, {start})},
                      Shape(kS32, {2}), "dynamic_slice_sizes={2}");
  };
  EXPECT_TRUE(SameLiteral(slice_at(1), Values(kS32, {2}, {1, 2})));
  EXPECT_TRUE(SameLiteral(slice_at(7), Values(kS32, {2}, {3, 4})));
  EXPECT_TRUE(SameLiteral(slice_at(-3), Values(kS32, {2}, {0, 1})));
}

TEST(DataMovementTest, DynamicUpdateSliceClampsStartIndicesIntoBounds) {
  EXPECT_TRUE(
      SameLiteral(EvaluateOp("dynamic-update-slice",
                             {Matrix2x3(), Values(kS32, {1, 2}, {8, 9}),
                              Values(kS32, {}, {5}), Values(kS32, {}, {2})},
                             Shape(kS32, {2, 3})),
                  Values(kS32, {2, 3}, {0, 1, 2, 3, 8, 9})));
}

TEST(DataMovementTest, BitcastReinterpretsThePhysicalLayout) {
  // f32[2,3]{0,1} stores column-major 0 3 1 4 2 5; read as f32[6] that is
  // the physical order.
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[2,3]{0,1} parameter(0)\n"
      " ROOT b = f32[6]{0} bitcast(p)\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Matrix2x3(kF32)}),
                          Values(kF32, {6}, {0, 3, 1, 4, 2, 5})));
}

TEST(DataMovementTest, TupleAndGetTupleElement) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = s32[2] parameter(0)\n"
      " t = (s32[2], s32[2]) tuple(p, p)\n"
      " ROOT g = s32[2] get-tuple-element(t), index=1\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kS32, {2}, {4, 5})}),
                          Values(kS32, {2}, {4, 5})));
}

}  // namespace
}  // namespace phal::testing
