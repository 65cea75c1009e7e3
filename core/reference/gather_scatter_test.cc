#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

// [[0 1] [2 3] [4 5]]
Literal Table() { return Values(kF32, {3, 2}, {0, 1, 2, 3, 4, 5}); }

TEST(GatherTest, RowLookupClampsOutOfBoundsIndices) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[3,2] parameter(0)\n"
      " i = s32[3] parameter(1)\n"
      " ROOT g = f32[3,2] gather(p, i), offset_dims={1}, "
      "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
      "slice_sizes={1,2}\n}\n";
  EXPECT_TRUE(
      SameLiteral(EvaluateText(text, {Table(), Values(kS32, {3}, {2, 7, -1})}),
                  Values(kF32, {3, 2}, {4, 5, 4, 5, 0, 1})));
}

TEST(GatherTest, WindowsClampSoTheWholeSliceFits) {
  const std::string text =
      "HloModule t\nENTRY e {\n p = f32[3,2] parameter(0)\n"
      " i = s32[1,2] parameter(1)\n"
      " ROOT g = f32[1,2,2] gather(p, i), offset_dims={1,2}, "
      "collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=1, "
      "slice_sizes={2,2}\n}\n";
  EXPECT_TRUE(
      SameLiteral(EvaluateText(text, {Table(), Values(kS32, {1, 2}, {2, 1})}),
                  Values(kF32, {1, 2, 2}, {2, 3, 4, 5})));
}

TEST(GatherTest, BatchingDimensionsPairOperandAndIndexBatches) {
  // operand [2 batches, 3], indices [2 batches] -> picks one per batch.
  const std::string text =
      "HloModule t\nENTRY e {\n p = s32[2,3] parameter(0)\n"
      " i = s32[2,1] parameter(1)\n"
      " ROOT g = s32[2] gather(p, i), offset_dims={}, "
      "collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, "
      "operand_batching_dims={0}, start_indices_batching_dims={0}, "
      "slice_sizes={1,1}\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Values(kS32, {2, 3}, {10, 11, 12, 20, 21, 22}),
                          Values(kS32, {2, 1}, {2, 0})}),
      Values(kS32, {2}, {12, 20})));
}

constexpr const char* kScatterAdd =
    "HloModule t\nadd {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
    " ROOT s = f32[] add(a, b)\n}\n";

TEST(ScatterTest, DuplicateIndicesCombineInUpdateOrder) {
  const std::string text =
      std::string(kScatterAdd) +
      "ENTRY e {\n p = f32[3,2] parameter(0)\n"
      " i = s32[3] parameter(1)\n u = f32[3,2] parameter(2)\n"
      " ROOT s = f32[3,2] scatter(p, i, u), "
      "update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
      "to_apply=add\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Table(), Values(kS32, {3}, {1, 1, 0}),
                          Values(kF32, {3, 2}, {10, 20, 100, 200, 1, 1})}),
      Values(kF32, {3, 2}, {1, 2, 112, 223, 4, 5})));
}

TEST(ScatterTest, OutOfBoundsUpdateElementsAreSkippedOneByOne) {
  // A [1,2] window starting at column 1 of a 2-wide row: its second element
  // falls outside and is skipped; index 5 is entirely outside.
  const std::string text =
      std::string(kScatterAdd) +
      "ENTRY e {\n p = f32[3,2] parameter(0)\n"
      " i = s32[2,2] parameter(1)\n u = f32[2,1,2] parameter(2)\n"
      " ROOT s = f32[3,2] scatter(p, i, u), "
      "update_window_dims={1,2}, inserted_window_dims={}, "
      "scatter_dims_to_operand_dims={0,1}, index_vector_dim=1, "
      "to_apply=add\n}\n";
  EXPECT_TRUE(SameLiteral(
      EvaluateText(text, {Table(), Values(kS32, {2, 2}, {0, 1, 5, 0}),
                          Values(kF32, {2, 1, 2}, {10, 20, 30, 40})}),
      Values(kF32, {3, 2}, {0, 11, 2, 3, 4, 5})));
}

TEST(ScatterTest, OverwriteWithAComputationReturningTheUpdate) {
  const std::string text =
      "HloModule t\nset {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n"
      " ROOT r = s32[] copy(b)\n}\n"
      "ENTRY e {\n p = s32[4] parameter(0)\n i = s32[2,1] parameter(1)\n"
      " u = s32[2] parameter(2)\n"
      " ROOT s = s32[4] scatter(p, i, u), update_window_dims={}, "
      "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
      "index_vector_dim=1, to_apply=set\n}\n";
  EXPECT_TRUE(SameLiteral(EvaluateText(text, {Values(kS32, {4}, {0, 0, 0, 0}),
                                              Values(kS32, {2, 1}, {3, -1}),
                                              Values(kS32, {2}, {7, 8})}),
                          Values(kS32, {4}, {0, 0, 0, 7})));
}

}  // namespace
}  // namespace phal::testing
