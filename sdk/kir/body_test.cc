// The body builder: value numbering, the index arithmetic that folds
// constants, and the C view of what was built.
#include "sdk/kir/body.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace phal {
namespace {

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;

TEST(KirBodyTest, AnEqualNodeIsBuiltOnce) {
  KirBody body;
  const uint32_t i = body.Index(0);
  const uint32_t x = body.Read(kF32, 0, {&i, 1});
  const uint32_t y = body.Read(kF32, 0, {&i, 1});
  EXPECT_EQ(x, y);
  EXPECT_EQ(body.Add(PHAL_KIR_OP_ADD, kF32, {x, x}),
            body.Add(PHAL_KIR_OP_ADD, kF32, {x, y}));
  EXPECT_NE(body.Read(kF32, 1, {&i, 1}), x) << "another buffer";
  EXPECT_NE(body.Constant(kF32, 1), body.Constant(PHAL_ELEMENT_TYPE_S32, 1))
      << "another type";
  EXPECT_EQ(body.nodes().size(), 6u);
}

TEST(KirBodyTest, IndexArithmeticFoldsConstantsAndNeutralOperands) {
  KirBody body;
  const uint32_t i = body.Index(0);
  EXPECT_EQ(body.AddIndex(i, body.Index64(0)), i);
  EXPECT_EQ(body.MultiplyIndex(i, 1), i);
  EXPECT_EQ(body.DivideIndex(i, 1), i);
  int64_t value = 0;
  ASSERT_TRUE(body.IsIndexConstant(
      body.AddIndex(body.Index64(2), body.Index64(3)), &value));
  EXPECT_EQ(value, 5);
  ASSERT_TRUE(
      body.IsIndexConstant(body.ClampIndex(0, body.Index64(9), 4), &value));
  EXPECT_EQ(value, 4);
  EXPECT_FALSE(body.IsIndexConstant(body.MultiplyIndex(i, 3), &value));
}

TEST(KirBodyTest, ParametersSetTheParameterCount) {
  KirBody body;
  body.Parameter(kF32, 2);
  body.Parameter(kF32, 0);
  EXPECT_EQ(body.parameter_count(), 3u);
}

TEST(KirBodyTest, ConvertOfAValueOfTheTypeIsTheValue) {
  KirBody body;
  const uint32_t x = body.Parameter(kF32, 0);
  EXPECT_EQ(body.Convert(x, kF32), x);
  const uint32_t wide = body.Convert(x, PHAL_ELEMENT_TYPE_F64);
  EXPECT_EQ(body.node(wide).op, PHAL_KIR_OP_CONVERT);
  EXPECT_EQ(body.type_of(wide), PHAL_ELEMENT_TYPE_F64);
}

TEST(KirBodyTest, SelectIsOfTheTypeOfItsValues) {
  KirBody body;
  const uint32_t yes = body.Constant(PHAL_ELEMENT_TYPE_PRED, 1);
  const uint32_t select =
      body.Select(yes, body.Parameter(kF32, 0), body.Parameter(kF32, 1));
  EXPECT_EQ(body.node(select).op, PHAL_KIR_OP_SELECT);
  EXPECT_EQ(body.type_of(select), kF32);
  EXPECT_EQ(body.operands_of(select).size(), 3u);
}

TEST(KirBodyTest, ViewPointsAtTheNodesOperandsAndResults) {
  KirBody body;
  const uint32_t a = body.Parameter(kS64, 0);
  const uint32_t b = body.Parameter(kS64, 1);
  const uint32_t less =
      body.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED, a, b);
  body.AddResult(less);
  const phal_kir_body_t view = body.View();
  ASSERT_EQ(view.node_count, 3u);
  EXPECT_EQ(view.parameter_count, 2u);
  ASSERT_EQ(view.result_count, 1u);
  EXPECT_EQ(view.results[0], less);
  const phal_kir_node_t& compare = view.nodes[less];
  EXPECT_EQ(compare.type, PHAL_ELEMENT_TYPE_PRED);
  EXPECT_EQ(compare.attributes[0], PHAL_KIR_COMPARE_LT);
  ASSERT_EQ(compare.operand_count, 2u);
  EXPECT_EQ(view.operands[compare.operand_begin], a);
  EXPECT_EQ(view.operands[compare.operand_begin + 1], b);
}

TEST(KirBodyTest, RemapBuffersRenumbersReads) {
  KirBody body;
  const uint32_t i = body.Index(0);
  const uint32_t x = body.Read(kF32, 1, {&i, 1});
  body.RemapBuffers({0, 0});
  EXPECT_EQ(body.node(x).attributes[0], 0);
}

}  // namespace
}  // namespace phal
