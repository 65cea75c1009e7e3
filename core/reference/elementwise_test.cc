#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

constexpr int32_t kS32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kS32Max = std::numeric_limits<int32_t>::max();

Literal Unary(std::string_view op, const Literal& x, ElementType out) {
  return EvaluateElementwiseOp(op, {x}, out);
}
Literal Binary(std::string_view op, const Literal& x, const Literal& y,
               std::string_view attributes = "") {
  return EvaluateElementwiseOp(op, {x, y}, x.element_type(), attributes);
}

Literal ComplexValues(ElementType type, std::vector<std::complex<double>> zs) {
  Literal literal(Shape(type, {static_cast<int64_t>(zs.size())}));
  for (std::size_t i = 0; i < zs.size(); ++i) {
    literal.SetFromComplex(static_cast<int64_t>(i), zs[i]);
  }
  return literal;
}

TEST(ElementwiseTest, FloatArithmeticRoundsOnceToEveryFloatType) {
  // 1 + 2^-11 is a tie in f16 (rounds to even: 1); 1 + 2^-8 in bf16.
  for (auto [type, half_ulp] :
       {std::pair{kF16, 0x1p-11}, std::pair{kBF16, 0x1p-8},
        std::pair{kF32, 0x1p-24}, std::pair{kF64, 0x1p-53}}) {
    SCOPED_TRACE(ElementTypeName(type));
    const Literal one = Values(type, {2}, {1.0, 1.0});
    const Literal tiny = Values(type, {2}, {half_ulp, 3 * half_ulp});
    EXPECT_TRUE(SameLiteral(Binary("add", one, tiny),
                            Values(type, {2}, {1.0, 1.0 + 4 * half_ulp})));
  }
  EXPECT_TRUE(SameLiteral(Binary("divide", Values(kF32, {3}, {1.0, -1.0, 0.0}),
                                 Values(kF32, {3}, {0.0, 0.0, 0.0})),
                          Values(kF32, {3}, {kInf, -kInf, kNaN})));
  EXPECT_TRUE(SameLiteral(
      Binary("multiply", Values(kF16, {2}, {256.0, 0x1p-14}),
             Values(kF16, {2}, {256.0, 0x1p-2})),
      Values(kF16, {2}, {kInf, 0x1p-16})));  // overflow; subnormal result
  EXPECT_TRUE(SameLiteral(
      Binary("subtract", Values(kF64, {1}, {0.0}), Values(kF64, {1}, {0.0})),
      Values(kF64, {1}, {0.0})));
  EXPECT_TRUE(SameLiteral(Binary("remainder", Values(kF32, {2}, {-7.5, 7.5}),
                                 Values(kF32, {2}, {2.0, -2.0})),
                          Values(kF32, {2}, {-1.5, 1.5})));
}

TEST(ElementwiseTest, MaximumAndMinimumPropagateNaNAndOrderSignedZeros) {
  for (ElementType type : {kF16, kBF16, kF32, kF64}) {
    SCOPED_TRACE(ElementTypeName(type));
    const Literal x = Values(type, {4}, {kNaN, 1.0, -0.0, 0.0});
    const Literal y = Values(type, {4}, {1.0, kNaN, 0.0, -0.0});
    EXPECT_TRUE(SameLiteral(Binary("maximum", x, y),
                            Values(type, {4}, {kNaN, kNaN, 0.0, 0.0})));
    EXPECT_TRUE(SameLiteral(Binary("minimum", x, y),
                            Values(type, {4}, {kNaN, kNaN, -0.0, -0.0})));
  }
  EXPECT_TRUE(SameLiteral(Binary("maximum", Values(kS32, {2}, {kS32Min, -1}),
                                 Values(kS32, {2}, {0, -2})),
                          Values(kS32, {2}, {0, -1})));
  EXPECT_TRUE(SameLiteral(
      Binary("minimum", Values(kU8, {1}, {255}), Values(kU8, {1}, {1})),
      Values(kU8, {1}, {1})));
}

TEST(ElementwiseTest, IntegerDivisionTruncatesAndFollowsXlaAtZeroAndOverflow) {
  const Literal x = Values(kS32, {6}, {7, -7, 7, kS32Min, 5, -5});
  const Literal y = Values(kS32, {6}, {-2, 2, 0, -1, 0, 0});
  EXPECT_TRUE(SameLiteral(Binary("divide", x, y),
                          Values(kS32, {6}, {-3, -3, -1, kS32Min, -1, -1})));
  EXPECT_TRUE(SameLiteral(Binary("remainder", x, y),
                          Values(kS32, {6}, {1, -1, 7, 0, 5, -5})));
  EXPECT_TRUE(SameLiteral(
      Binary("divide", Values(kU8, {2}, {200, 200}), Values(kU8, {2}, {0, 7})),
      Values(kU8, {2}, {255, 28})));
  EXPECT_TRUE(SameLiteral(Binary("remainder", Values(kU8, {2}, {200, 200}),
                                 Values(kU8, {2}, {0, 7})),
                          Values(kU8, {2}, {200, 4})));
  EXPECT_TRUE(SameLiteral(
      Binary("divide", Values(kS8, {1}, {-128}), Values(kS8, {1}, {-1})),
      Values(kS8, {1}, {-128})));
}

TEST(ElementwiseTest, IntegerArithmeticWrapsAround) {
  EXPECT_TRUE(SameLiteral(Binary("add", Values(kS32, {2}, {kS32Max, kS32Min}),
                                 Values(kS32, {2}, {1, -1})),
                          Values(kS32, {2}, {kS32Min, kS32Max})));
  EXPECT_TRUE(SameLiteral(
      Binary("multiply", Values(PHAL_ELEMENT_TYPE_U16, {1}, {65535}),
             Values(PHAL_ELEMENT_TYPE_U16, {1}, {65535})),
      Values(PHAL_ELEMENT_TYPE_U16, {1}, {1})));
  EXPECT_TRUE(SameLiteral(Unary("negate", Values(kS8, {2}, {-128, 5}), kS8),
                          Values(kS8, {2}, {-128, -5})));
  EXPECT_TRUE(SameLiteral(Unary("abs", Values(kS8, {2}, {-128, -5}), kS8),
                          Values(kS8, {2}, {-128, 5})));
  EXPECT_TRUE(SameLiteral(Unary("negate", Values(kU8, {1}, {1}), kU8),
                          Values(kU8, {1}, {255})));
}

TEST(ElementwiseTest, ShiftsByTheBitWidthOrMoreShiftEverythingOut) {
  const Literal x = Values(kS8, {5}, {1, -128, -128, 64, -1});
  const Literal amounts = Values(kS8, {5}, {8, 9, 7, -1, 1});
  EXPECT_TRUE(SameLiteral(Binary("shift-left", x, amounts),
                          Values(kS8, {5}, {0, 0, 0, 0, -2})));
  EXPECT_TRUE(SameLiteral(Binary("shift-right-arithmetic", x, amounts),
                          Values(kS8, {5}, {0, -1, -1, 0, -1})));
  EXPECT_TRUE(SameLiteral(Binary("shift-right-logical", x, amounts),
                          Values(kS8, {5}, {0, 0, 1, 0, 127})));
  EXPECT_TRUE(SameLiteral(Binary("shift-left", Values(kU32, {2}, {1, 1}),
                                 Values(kU32, {2}, {31, 32})),
                          Values<int64_t>(kU32, {2}, {2147483648, 0})));
}

TEST(ElementwiseTest, IntegerPowerHandlesNegativeExponentsAndWraps) {
  const Literal base = Values(kS32, {7}, {2, -1, 1, 2, 0, 2, -3});
  const Literal exponent = Values(kS32, {7}, {10, -3, -5, -1, 0, 32, 3});
  EXPECT_TRUE(SameLiteral(Binary("power", base, exponent),
                          Values(kS32, {7}, {1024, -1, 1, 0, 1, 0, -27})));
  EXPECT_TRUE(SameLiteral(
      Binary("power", Values(kS32, {1}, {2}), Values(kS32, {1}, {31})),
      Values(kS32, {1}, {kS32Min})));
  EXPECT_TRUE(SameLiteral(Binary("power", Values(kF32, {2}, {2.0, -8.0}),
                                 Values(kF32, {2}, {-2.0, 1.0 / 3})),
                          Values(kF32, {2}, {0.25, kNaN})));
}

TEST(ElementwiseTest, BitCountingOps) {
  EXPECT_TRUE(
      SameLiteral(Unary("popcnt", Values(kU8, {3}, {0xF0, 0, 0xFF}), kU8),
                  Values(kU8, {3}, {4, 0, 8})));
  EXPECT_TRUE(SameLiteral(Unary("popcnt", Values(kS32, {1}, {-1}), kS32),
                          Values(kS32, {1}, {32})));
  EXPECT_TRUE(SameLiteral(
      Unary("count-leading-zeros", Values(kS32, {3}, {1, 0, -1}), kS32),
      Values(kS32, {3}, {31, 32, 0})));
  EXPECT_TRUE(SameLiteral(Unary("not", Values(kS8, {1}, {0x0F}), kS8),
                          Values(kS8, {1}, {-16})));
}

TEST(ElementwiseTest, LogicalOpsOnPred) {
  const Literal a = Values(kPred, {4}, {0, 0, 1, 1});
  const Literal b = Values(kPred, {4}, {0, 1, 0, 1});
  EXPECT_TRUE(
      SameLiteral(Binary("and", a, b), Values(kPred, {4}, {0, 0, 0, 1})));
  EXPECT_TRUE(
      SameLiteral(Binary("or", a, b), Values(kPred, {4}, {0, 1, 1, 1})));
  EXPECT_TRUE(
      SameLiteral(Binary("xor", a, b), Values(kPred, {4}, {0, 1, 1, 0})));
  EXPECT_TRUE(
      SameLiteral(Unary("not", a, kPred), Values(kPred, {4}, {1, 1, 0, 0})));
  EXPECT_TRUE(SameLiteral(
      Binary("and", Values(kU8, {1}, {0x0C}), Values(kU8, {1}, {0x0A})),
      Values(kU8, {1}, {0x08})));
}

TEST(ElementwiseTest, RoundingOps) {
  const Literal x = Values(kF32, {6}, {2.5, -2.5, 3.5, -0.5, 0.49999997, kNaN});
  EXPECT_TRUE(
      SameLiteral(Unary("round-nearest-afz", x, kF32),
                  Values(kF32, {6}, {3.0, -3.0, 4.0, -1.0, 0.0, kNaN})));
  EXPECT_TRUE(
      SameLiteral(Unary("round-nearest-even", x, kF32),
                  Values(kF32, {6}, {2.0, -2.0, 4.0, -0.0, 0.0, kNaN})));
  EXPECT_TRUE(
      SameLiteral(Unary("floor", Values(kBF16, {2}, {-1.5, 1.5}), kBF16),
                  Values(kBF16, {2}, {-2.0, 1.0})));
  EXPECT_TRUE(SameLiteral(Unary("ceil", Values(kF16, {2}, {-1.5, 1.5}), kF16),
                          Values(kF16, {2}, {-1.0, 2.0})));
}

TEST(ElementwiseTest, SignAndIsFiniteAtSpecialValues) {
  EXPECT_TRUE(SameLiteral(
      Unary("sign", Values(kF32, {5}, {kNaN, -0.0, 0.0, -3.0, kInf}), kF32),
      Values(kF32, {5}, {kNaN, -0.0, 0.0, -1.0, 1.0})));
  EXPECT_TRUE(
      SameLiteral(Unary("sign", Values(kS32, {3}, {kS32Min, 0, 9}), kS32),
                  Values(kS32, {3}, {-1, 0, 1})));
  EXPECT_TRUE(
      SameLiteral(Unary("is-finite",
                        Values(kF16, {4}, {kInf, -kInf, kNaN, 65504.0}), kPred),
                  Values(kPred, {4}, {0, 0, 0, 1})));
}

TEST(ElementwiseTest, TranscendentalsAreComputedInDoubleAndRoundedOnce) {
  const double e = 2.718281828459045;
  EXPECT_TRUE(SameLiteral(Unary("exponential", Values(kF32, {1}, {1.0}), kF32),
                          Values(kF32, {1}, {e})));
  EXPECT_TRUE(SameLiteral(Unary("exponential", Values(kF16, {1}, {1.0}), kF16),
                          Values(kF16, {1}, {2.71875})));
  EXPECT_TRUE(
      SameLiteral(Unary("exponential", Values(kBF16, {1}, {1.0}), kBF16),
                  Values(kBF16, {1}, {2.71875})));
  EXPECT_TRUE(SameLiteral(
      Unary("exponential-minus-one", Values(kF32, {2}, {1e-10, -kInf}), kF32),
      Values(kF32, {2}, {1e-10, -1.0})));
  EXPECT_TRUE(
      SameLiteral(Unary("log-plus-one", Values(kF64, {2}, {1e-20, -1.0}), kF64),
                  Values(kF64, {2}, {1e-20, -kInf})));
  EXPECT_TRUE(
      SameLiteral(Unary("log", Values(kF32, {3}, {0.0, -1.0, 0.5}), kF32),
                  Values(kF32, {3}, {-kInf, kNaN, -0.6931471805599453})));
  EXPECT_TRUE(SameLiteral(
      Unary("logistic", Values(kF32, {3}, {0.0, -kInf, 1000.0}), kF32),
      Values(kF32, {3}, {0.5, 0.0, 1.0})));
  EXPECT_TRUE(SameLiteral(Unary("cbrt", Values(kF32, {2}, {-27.0, 8.0}), kF32),
                          Values(kF32, {2}, {-3.0, 2.0})));
  EXPECT_TRUE(
      SameLiteral(Unary("tanh", Values(kF32, {3}, {0.5, -kInf, -0.0}), kF32),
                  Values(kF32, {3}, {0.46211715726000974, -1.0, -0.0})));
  EXPECT_TRUE(SameLiteral(Unary("tan", Values(kF32, {1}, {1.0}), kF32),
                          Values(kF32, {1}, {1.5574077246549023})));
  EXPECT_TRUE(SameLiteral(Unary("sine", Values(kF64, {2}, {0.5, kInf}), kF64),
                          Values(kF64, {2}, {0.479425538604203, kNaN})));
  EXPECT_TRUE(SameLiteral(Unary("cosine", Values(kF32, {1}, {0.0}), kF32),
                          Values(kF32, {1}, {1.0})));
  EXPECT_TRUE(
      SameLiteral(Unary("sqrt", Values(kF32, {3}, {2.0, -1.0, -0.0}), kF32),
                  Values(kF32, {3}, {1.4142135623730951, kNaN, -0.0})));
  EXPECT_TRUE(SameLiteral(Unary("rsqrt", Values(kF32, {2}, {4.0, 0.0}), kF32),
                          Values(kF32, {2}, {0.5, kInf})));
  EXPECT_TRUE(SameLiteral(Unary("erf", Values(kF32, {2}, {0.5, -kInf}), kF32),
                          Values(kF32, {2}, {0.5204998778130465, -1.0})));
  EXPECT_TRUE(SameLiteral(
      Binary("atan2", Values(kF32, {3}, {1.0, 0.0, -0.0}),
             Values(kF32, {3}, {-1.0, -1.0, -1.0})),
      Values(kF32, {3},
             {2.356194490192345, 3.141592653589793, -3.141592653589793})));
}

TEST(ElementwiseTest, ComplexArithmeticAndParts) {
  const Literal z = ComplexValues(kC64, {{3, 4}, {1, -1}});
  const Literal w = ComplexValues(kC64, {{1, 2}, {0, 1}});
  EXPECT_TRUE(SameLiteral(Binary("multiply", z, w),
                          ComplexValues(kC64, {{-5, 10}, {1, 1}})));
  EXPECT_TRUE(
      SameLiteral(Binary("add", z, w), ComplexValues(kC64, {{4, 6}, {1, 0}})));
  EXPECT_TRUE(SameLiteral(Binary("divide", z, w),
                          ComplexValues(kC64, {{2.2, -0.4}, {-1, -1}})));
  EXPECT_TRUE(SameLiteral(Unary("abs", z, kF32),
                          Values(kF32, {2}, {5.0, std::sqrt(2.0)})));
  EXPECT_TRUE(
      SameLiteral(Unary("real", z, kF32), Values(kF32, {2}, {3.0, 1.0})));
  EXPECT_TRUE(
      SameLiteral(Unary("imag", z, kF32), Values(kF32, {2}, {4.0, -1.0})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "complex", {Values(kF64, {1}, {1.5}), Values(kF64, {1}, {-2.0})},
          kC128),
      ComplexValues(kC128, {{1.5, -2.0}})));
  EXPECT_TRUE(SameLiteral(
      Unary("exponential", ComplexValues(kC128, {{0, M_PI}}), kC128),
      ComplexValues(kC128, {{-1, std::sin(M_PI)}})));
  EXPECT_TRUE(
      SameLiteral(Unary("sign", ComplexValues(kC64, {{3, 4}, {0, 0}}), kC64),
                  ComplexValues(kC64, {{0.6, 0.8}, {0, 0}})));
  EXPECT_TRUE(SameLiteral(Unary("sqrt", ComplexValues(kC64, {{-4, 0}}), kC64),
                          ComplexValues(kC64, {{0, 2}})));
}

TEST(ElementwiseTest, ComplexAtan2CbrtAndLexicographicMaximumMinimum) {
  EXPECT_TRUE(
      SameLiteral(Binary("atan2", ComplexValues(kC128, {{1, 0}, {-1, 0}}),
                         ComplexValues(kC128, {{0, 0}, {0, 0}})),
                  ComplexValues(kC128, {{M_PI / 2, -0.0}, {-M_PI / 2, 0.0}})));
  EXPECT_TRUE(SameLiteral(
      Unary("cbrt", ComplexValues(kC128, {{-8, 0}}), kC128),
      ComplexValues(kC128, {std::pow(std::complex<double>(-8, 0), 1.0 / 3)})));
  const Literal x = ComplexValues(kC64, {{1.5, 2.5}, {1.5, 7.5}, {0, 1.5}});
  const Literal y = ComplexValues(kC64, {{7.5, 1.5}, {1.5, 2.5}, {-0.0, 2.5}});
  EXPECT_TRUE(
      SameLiteral(Binary("maximum", x, y),
                  ComplexValues(kC64, {{7.5, 1.5}, {1.5, 7.5}, {-0.0, 2.5}})));
  EXPECT_TRUE(
      SameLiteral(Binary("minimum", x, y),
                  ComplexValues(kC64, {{1.5, 2.5}, {1.5, 2.5}, {0, 1.5}})));
}

TEST(CompareTest, FloatComparisonIsUnorderedWithNaN) {
  const Literal x = Values(kF32, {3}, {kNaN, 1.0, -0.0});
  const Literal y = Values(kF32, {3}, {kNaN, kNaN, 0.0});
  auto compare = [&](std::string_view direction) {
    return EvaluateElementwiseOp("compare", {x, y}, kPred,
                                 "direction=" + std::string(direction));
  };
  EXPECT_TRUE(SameLiteral(compare("EQ"), Values(kPred, {3}, {0, 0, 1})));
  EXPECT_TRUE(SameLiteral(compare("NE"), Values(kPred, {3}, {1, 1, 0})));
  EXPECT_TRUE(SameLiteral(compare("LT"), Values(kPred, {3}, {0, 0, 0})));
  EXPECT_TRUE(SameLiteral(compare("GE"), Values(kPred, {3}, {0, 0, 1})));
}

TEST(CompareTest, TotalOrderSortsNaNsInfinitiesAndSignedZeros) {
  const Literal x = Values(kF32, {4}, {-kNaN, -0.0, kNaN, -kInf});
  const Literal y = Values(kF32, {4}, {-kInf, 0.0, kInf, -kInf});
  Literal negative_nan = x;
  negative_nan.data_as<uint32_t>()[0] = 0xFFC00000u;
  EXPECT_TRUE(
      SameLiteral(EvaluateElementwiseOp("compare", {negative_nan, y}, kPred,
                                        "direction=LT, type=TOTALORDER"),
                  Values(kPred, {4}, {1, 1, 0, 0})));
  EXPECT_TRUE(
      SameLiteral(EvaluateElementwiseOp("compare", {negative_nan, y}, kPred,
                                        "direction=EQ, type=TOTALORDER"),
                  Values(kPred, {4}, {0, 0, 0, 1})));
}

TEST(CompareTest, SignedAndUnsignedIntegerOrders) {
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "compare", {Values(kS32, {2}, {-1, 1}), Values(kS32, {2}, {1, 1})},
          kPred, "direction=LT"),
      Values(kPred, {2}, {1, 0})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "compare", {Values(kU32, {1}, {4294967295u}), Values(kU32, {1}, {1})},
          kPred, "direction=GT"),
      Values(kPred, {1}, {1})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "compare", {Values(kPred, {2}, {1, 0}), Values(kPred, {2}, {0, 0})},
          kPred, "direction=GT"),
      Values(kPred, {2}, {1, 0})));
  EXPECT_TRUE(
      SameLiteral(EvaluateElementwiseOp("compare",
                                        {ComplexValues(kC64, {{1, 2}, {1, 2}}),
                                         ComplexValues(kC64, {{1, 2}, {1, 3}})},
                                        kPred, "direction=EQ"),
                  Values(kPred, {2}, {1, 0})));
}

TEST(ConvertTest, FloatToIntegerTruncatesSaturatesAndMapsNaNToZero) {
  const Literal x = Values(kF32, {7}, {2.9, -2.9, kNaN, 3e9, -3e9, kInf, -0.5});
  EXPECT_TRUE(
      SameLiteral(Unary("convert", x, kS32),
                  Values(kS32, {7}, {2, -2, 0, kS32Max, kS32Min, kS32Max, 0})));
  EXPECT_TRUE(SameLiteral(
      Unary("convert", Values(kF32, {3}, {-1.0, 300.0, 255.9}), kU8),
      Values(kU8, {3}, {0, 255, 255})));
  EXPECT_TRUE(
      SameLiteral(Unary("convert", Values(kF64, {2}, {1e19, 9.3e18}), kS64),
                  Values(kS64, {2}, {INT64_MAX, INT64_MAX})));
  EXPECT_TRUE(SameLiteral(Unary("convert", Values(kF64, {1}, {2e19}), kU64),
                          Values(kU64, {1}, {UINT64_MAX})));
}

TEST(ConvertTest, IntegerToFloatRoundsOnceToNearestEven) {
  EXPECT_TRUE(SameLiteral(
      Unary("convert", Values(kS32, {3}, {2049, 2051, 65520}), kF16),
      Values(kF16, {3}, {2048.0, 2052.0, kInf})));
  EXPECT_TRUE(SameLiteral(
      Unary("convert", Values(kS64, {1}, {(int64_t{1} << 53) + 1}), kF32),
      Values(kF32, {1}, {0x1p53})));
  // 2^62 + 2^54 + 1 is just above a bf16 tie; rounding it to double first
  // would land on the tie and round down to 2^62.
  EXPECT_TRUE(SameLiteral(
      Unary("convert",
            Values(kS64, {1}, {(int64_t{1} << 62) + (int64_t{1} << 54) + 1}),
            kBF16),
      Values(kBF16, {1}, {0x1p62 + 0x1p55})));
  EXPECT_TRUE(
      SameLiteral(Unary("convert", Values(kU64, {1}, {UINT64_MAX}), kF64),
                  Values(kF64, {1}, {0x1p64})));
}

TEST(ConvertTest, FloatToFloatAndBoolAndComplexConversions) {
  EXPECT_TRUE(SameLiteral(
      Unary("convert", Values(kF64, {3}, {0.1, 1e300, -1e-300}), kF32),
      Values(kF32, {3}, {0.1, kInf, -0.0})));
  EXPECT_TRUE(SameLiteral(Unary("convert", Values(kF32, {1}, {65519.0}), kF16),
                          Values(kF16, {1}, {65504.0})));
  EXPECT_TRUE(SameLiteral(
      Unary("convert", Values(kF32, {4}, {kNaN, -0.0, 0.5, -2.0}), kPred),
      Values(kPred, {4}, {1, 0, 1, 1})));
  EXPECT_TRUE(SameLiteral(Unary("convert", Values(kPred, {2}, {1, 0}), kF32),
                          Values(kF32, {2}, {1.0, 0.0})));
  EXPECT_TRUE(SameLiteral(Unary("convert", Values(kS8, {2}, {-1, 5}), kU8),
                          Values(kU8, {2}, {255, 5})));
  EXPECT_TRUE(
      SameLiteral(Unary("convert", Values(kU32, {1}, {4294967295u}), kS32),
                  Values(kS32, {1}, {-1})));
  EXPECT_TRUE(SameLiteral(Unary("convert", Values(kS32, {1}, {7}), kC128),
                          ComplexValues(kC128, {{7, 0}})));
  EXPECT_TRUE(
      SameLiteral(Unary("convert", ComplexValues(kC128, {{0.1, 0.2}}), kC64),
                  ComplexValues(kC64, {{0.1, 0.2}})));
}

TEST(BitcastConvertTest, ReinterpretsBitsAtEqualAndDifferentWidths) {
  EXPECT_TRUE(SameLiteral(
      Unary("bitcast-convert", Values(kF32, {2}, {1.0, -0.0}), kS32),
      Values(kS32, {2}, {0x3F800000, kS32Min})));
  EXPECT_TRUE(SameLiteral(
      phal::testing::EvaluateOp("bitcast-convert", {Values(kF32, {}, {1.0})},
                                Shape(kU8, {4})),
      Values(kU8, {4}, {0, 0, 0x80, 0x3F})));
  EXPECT_TRUE(SameLiteral(
      phal::testing::EvaluateOp("bitcast-convert",
                                {Values(kU8, {2, 2}, {0x80, 0x3F, 0, 0xC0})},
                                Shape(kBF16, {2})),
      Values(kBF16, {2}, {1.0, -2.0})));
}

TEST(ReducePrecisionTest, RoundsMantissaAndFlushesOutOfRangeExponents) {
  // To f16's format: ties to even, overflow to inf, f16-subnormal values
  // flush to zero, NaN stays NaN.
  const Literal x = Values(
      kF32, {6},
      {1.0 + 0x1p-11, 1.0 + 0x1p-10 + 0x1p-11, 65520.0, 1e-5, -1e-30, kNaN});
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp("reduce-precision", {x}, kF32,
                            "exponent_bits=5, mantissa_bits=10"),
      Values(kF32, {6}, {1.0, 1.0 + 0x1p-9, kInf, 0.0, -0.0, kNaN})));
  // A NaN whose mantissa is all ones would carry into the sign when
  // rounded; with no mantissa bits left it becomes +inf.
  Literal all_ones_nan(Shape(kF64, {1}));
  all_ones_nan.data_as<uint64_t>()[0] = 0x7FFFFFFFFFFFFFFF;
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp("reduce-precision", {all_ones_nan}, kF64,
                            "exponent_bits=5, mantissa_bits=0"),
      Values(kF64, {1}, {kInf})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp("reduce-precision",
                            {Values(kF64, {1}, {1.0 + 0x1p-8 + 0x1p-30})}, kF64,
                            "exponent_bits=8, mantissa_bits=7"),
      Values(kF64, {1}, {1.0 + 0x1p-7})));
}

TEST(SelectClampTest, ScalarPredicateAndBoundsBroadcast) {
  const Literal on_true = Values(kS32, {3}, {1, 2, 3});
  const Literal on_false = Values(kS32, {3}, {-1, -2, -3});
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp(
          "select", {Values(kPred, {3}, {1, 0, 1}), on_true, on_false}, kS32),
      Values(kS32, {3}, {1, -2, 3})));
  EXPECT_TRUE(SameLiteral(
      EvaluateElementwiseOp("select",
                            {Values(kPred, {}, {0}), on_true, on_false}, kS32),
      on_false));
  EXPECT_TRUE(SameLiteral(
      phal::testing::EvaluateOp(
          "clamp",
          {Values(kF32, {}, {0.0}), Values(kF32, {4}, {-1.0, 0.5, 2.0, kNaN}),
           Values(kF32, {}, {1.0})},
          Shape(kF32, {4})),
      Values(kF32, {4}, {0.0, 0.5, 1.0, kNaN})));
  EXPECT_TRUE(SameLiteral(phal::testing::EvaluateOp("clamp",
                                                    {Values(kS32, {2}, {0, 5}),
                                                     Values(kS32, {2}, {-3, 3}),
                                                     Values(kS32, {2}, {2, 9})},
                                                    Shape(kS32, {2})),
                          Values(kS32, {2}, {0, 5})));
}

TEST(ElementwiseTest, EmptyArraysGiveEmptyResults) {
  const Literal empty(Shape(kF32, {0, 3}));
  EXPECT_TRUE(SameLiteral(Binary("add", empty, empty), empty));
}

TEST(ElementwiseTest, UnsupportedTypeIsAnErrorNotACrash) {
  StatusOr<Literal> result = phal::testing::TryEvaluate(
      phal::testing::OpModule("popcnt", {Shape(kF32, {2})}, Shape(kF32, {2})),
      {Values(kF32, {2}, {1.0, 2.0})});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("popcnt"), std::string::npos)
      << result.status().message();
}

}  // namespace
}  // namespace phal::testing
