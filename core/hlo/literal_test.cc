#include "core/hlo/literal.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace phal {
namespace {

TEST(LiteralTest, ShapeConstructorZeroFills) {
  const Literal literal(Shape(PHAL_ELEMENT_TYPE_S32, {2, 3}));
  EXPECT_EQ(literal.byte_size(), 24u);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(literal.GetAsInt64(i), 0);
}

TEST(LiteralTest, TupleShapeConstructorBuildsElements) {
  const Literal literal(Shape::Tuple(
      {Shape(PHAL_ELEMENT_TYPE_F32, {2}), Shape(PHAL_ELEMENT_TYPE_PRED, {})}));
  ASSERT_EQ(literal.tuple_elements().size(), 2u);
  EXPECT_EQ(literal.tuple_elements()[0].byte_size(), 8u);
}

TEST(LiteralTest, EqualityIsBitwiseSoNaNEqualsItselfAndZerosDiffer) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Literal::Scalar(PHAL_ELEMENT_TYPE_F32, nan),
            Literal::Scalar(PHAL_ELEMENT_TYPE_F32, nan));
  EXPECT_NE(Literal::Scalar(PHAL_ELEMENT_TYPE_F32, 0.0),
            Literal::Scalar(PHAL_ELEMENT_TYPE_F32, -0.0));
  EXPECT_NE(Literal::Scalar(PHAL_ELEMENT_TYPE_F32, 1.0),
            Literal::Scalar(PHAL_ELEMENT_TYPE_F64, 1.0));
}

TEST(LiteralTest, IntegerStoresWrapModuloTheWidth) {
  Literal literal(Shape(PHAL_ELEMENT_TYPE_S8, {2}));
  literal.SetFromInt64(0, 200);
  literal.SetFromInt64(1, -129);
  EXPECT_EQ(literal.GetAsInt64(0), -56);
  EXPECT_EQ(literal.GetAsInt64(1), 127);
  const Literal u64 = Literal::Scalar(PHAL_ELEMENT_TYPE_U64, -1);
  EXPECT_EQ(static_cast<uint64_t>(u64.GetAsInt64(0)),
            std::numeric_limits<uint64_t>::max());
}

TEST(LiteralTest, FloatStoresRoundToTheElementType) {
  const Literal half = Literal::Scalar(PHAL_ELEMENT_TYPE_F16, 1.0 + 0x1p-12);
  EXPECT_EQ(half.GetAsDouble(0), 1.0);
  const Literal bf16 = Literal::Scalar(PHAL_ELEMENT_TYPE_BF16, 3.0);
  EXPECT_EQ(bf16.data_as<uint16_t>()[0], 0x4040);
}

TEST(LiteralTest, ComplexStoresRealThenImaginary) {
  Literal literal(Shape(PHAL_ELEMENT_TYPE_C64, {1}));
  literal.SetFromComplex(0, {1.5, -2.0});
  EXPECT_EQ(literal.data_as<float>()[0], 1.5f);
  EXPECT_EQ(literal.data_as<float>()[1], -2.0f);
  EXPECT_EQ(literal.GetAsComplex(0), std::complex<double>(1.5, -2.0));
}

TEST(LiteralToStringTest, PrintsLikeNumpy) {
  EXPECT_EQ(Literal::FromValues(PHAL_ELEMENT_TYPE_S32, {2, 2}, {1, 2, 3, 4})
                .ToString(),
            "[[1 2]\n [3 4]]");
  EXPECT_EQ(Literal::FromValues(PHAL_ELEMENT_TYPE_S32, {2, 1, 2}, {1, 2, 3, 4})
                .ToString(),
            "[[[1 2]]\n\n [[3 4]]]");
  EXPECT_EQ(Literal::FromValues(PHAL_ELEMENT_TYPE_F32, {3}, {1.0, 0.1, -2.5})
                .ToString(),
            "[ 1.   0.1 -2.5]");
  EXPECT_EQ(Literal::FromValues(PHAL_ELEMENT_TYPE_PRED, {2}, {1, 0}).ToString(),
            "[ True False]");
  EXPECT_EQ(
      Literal::FromValues(PHAL_ELEMENT_TYPE_F64, {3}, {1.0, std::nan(""), 0.25})
          .ToString(),
      "[1.    nan 0.25]");
  EXPECT_EQ(
      Literal::FromValues(PHAL_ELEMENT_TYPE_F64, {2, 2}, {100.5, 2.0, 3.0, 4.0})
          .ToString(),
      "[[100.5   2. ]\n [  3.    4. ]]");
  EXPECT_EQ(Literal::Scalar(PHAL_ELEMENT_TYPE_F16, 0.1).ToString(), "0.1");
  EXPECT_EQ(Literal::Scalar(PHAL_ELEMENT_TYPE_F64, 1e20).ToString(), "1.e+20");
  EXPECT_EQ(
      Literal::FromValues(PHAL_ELEMENT_TYPE_F32, {2}, {std::nan(""), -HUGE_VAL})
          .ToString(),
      "[ nan -inf]");
  EXPECT_EQ(Literal(Shape(PHAL_ELEMENT_TYPE_F32, {0, 3})).ToString(), "[]");
}

TEST(LiteralToStringTest, PrintsComplexAndTuples) {
  Literal complex(Shape(PHAL_ELEMENT_TYPE_C128, {}));
  complex.SetFromComplex(0, {1.0, -2.5});
  EXPECT_EQ(complex.ToString(), "1.-2.5j");
  const Literal tuple =
      Literal::Tuple({Literal::Scalar(PHAL_ELEMENT_TYPE_U8, 255), complex});
  EXPECT_EQ(tuple.ToString(), "(255, 1.-2.5j)");
}

}  // namespace
}  // namespace phal

namespace phal {
namespace {

TEST(LiteralSetters, InvalidElementTypeIsIgnoredNotRecursedInto) {
  Literal invalid;
  invalid.SetFromInt64(0, 5);
  invalid.SetFromDouble(0, 2.5);
  EXPECT_EQ(invalid.byte_size(), 0u);
}

}  // namespace
}  // namespace phal
