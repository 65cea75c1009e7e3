#include "core/hlo/shape.h"

#include <gtest/gtest.h>

namespace phal {
namespace {

TEST(ShapeTest, ElementTypeNamesRoundTrip) {
  for (int i = 1; i < PHAL_ELEMENT_TYPE_COUNT; ++i) {
    const auto type = static_cast<ElementType>(i);
    ElementType parsed = PHAL_ELEMENT_TYPE_INVALID;
    ASSERT_TRUE(ParseElementTypeName(ElementTypeName(type), &parsed))
        << ElementTypeName(type);
    EXPECT_EQ(parsed, type);
  }
  ElementType unused;
  EXPECT_FALSE(ParseElementTypeName("f31", &unused));
  EXPECT_FALSE(ParseElementTypeName("invalid", &unused));
}

TEST(ShapeTest, ElementTypeClassesAndSizes) {
  EXPECT_EQ(ElementTypeByteSize(PHAL_ELEMENT_TYPE_C128), 16u);
  EXPECT_EQ(ElementTypeByteSize(PHAL_ELEMENT_TYPE_PRED), 1u);
  EXPECT_EQ(ElementTypeBitWidth(PHAL_ELEMENT_TYPE_BF16), 16);
  EXPECT_TRUE(IsSigned(PHAL_ELEMENT_TYPE_S8));
  EXPECT_TRUE(IsUnsigned(PHAL_ELEMENT_TYPE_U64));
  EXPECT_FALSE(IsIntegral(PHAL_ELEMENT_TYPE_PRED));
  EXPECT_TRUE(IsFloat(PHAL_ELEMENT_TYPE_BF16));
  EXPECT_TRUE(IsComplex(PHAL_ELEMENT_TYPE_C64));
  EXPECT_EQ(ComplexComponentType(PHAL_ELEMENT_TYPE_C128),
            PHAL_ELEMENT_TYPE_F64);
  EXPECT_EQ(ComplexComponentType(PHAL_ELEMENT_TYPE_S32), PHAL_ELEMENT_TYPE_S32);
}

TEST(ShapeTest, ToStringPrintsLayoutOnlyWhenNotRowMajorOrAsked) {
  Shape shape(PHAL_ELEMENT_TYPE_F32, {2, 3});
  EXPECT_EQ(shape.ToString(), "f32[2,3]");
  EXPECT_EQ(shape.ToString(/*with_layout=*/true), "f32[2,3]{1,0}");
  shape.set_minor_to_major({0, 1});
  EXPECT_EQ(shape.ToString(), "f32[2,3]{0,1}");
  EXPECT_EQ(Shape(PHAL_ELEMENT_TYPE_PRED, {}).ToString(true), "pred[]");
  EXPECT_EQ(Shape::Tuple({Shape(PHAL_ELEMENT_TYPE_S32, {}),
                          Shape(PHAL_ELEMENT_TYPE_F32, {4})})
                .ToString(),
            "(s32[], f32[4])");
}

TEST(ShapeTest, EqualityComparesLayoutsButCompatibleIgnoresThem) {
  Shape row_major(PHAL_ELEMENT_TYPE_F32, {2, 3});
  Shape explicit_row_major = row_major;
  explicit_row_major.set_minor_to_major({1, 0});
  Shape column_major = row_major;
  column_major.set_minor_to_major({0, 1});
  EXPECT_EQ(row_major, explicit_row_major);
  EXPECT_NE(row_major, column_major);
  EXPECT_TRUE(row_major.Compatible(column_major));
  EXPECT_FALSE(row_major.Compatible(Shape(PHAL_ELEMENT_TYPE_F32, {3, 2})));
  EXPECT_FALSE(row_major.Compatible(Shape::Tuple({row_major})));
}

TEST(ShapeTest, CountsElementsBytesAndStrides) {
  const Shape shape(PHAL_ELEMENT_TYPE_F64, {2, 3, 4});
  EXPECT_EQ(shape.ElementCount(), 24);
  EXPECT_EQ(shape.ByteSize(), 192);
  EXPECT_EQ(Shape(PHAL_ELEMENT_TYPE_S8, {}).ElementCount(), 1);
  EXPECT_EQ(Shape(PHAL_ELEMENT_TYPE_S8, {0, 5}).ElementCount(), 0);
  EXPECT_EQ(RowMajorStrides({2, 3, 4}), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(Shape::Tuple({shape, Shape(PHAL_ELEMENT_TYPE_S32, {2})}).ByteSize(),
            200);
}

}  // namespace
}  // namespace phal
