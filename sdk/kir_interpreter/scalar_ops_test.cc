// Node ops on edge values, with expectations worked out by hand from the
// StableHLO semantics (and XLA's choices where C++ leaves a case undefined).
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/kir_interpreter/kir_interpreter_test_util.h"

namespace phal::kir_interpreter {
namespace {

using namespace ::phal::kir_interpreter::testing;  // NOLINT(build/namespaces)

constexpr int32_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kIntMax = std::numeric_limits<int32_t>::max();
constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

using C64 = std::complex<float>;

template <typename T>
std::vector<T> Unary(phal_kir_op_t op, phal_element_type_t type,
                     const std::vector<T>& x) {
  return FromBytes<T>(ApplyOp(op, type, {Values(type, x)}));
}

template <typename T>
std::vector<T> Binary(phal_kir_op_t op, phal_element_type_t type,
                      const std::vector<T>& x, const std::vector<T>& y) {
  return FromBytes<T>(ApplyOp(op, type, {Values(type, x), Values(type, y)}));
}

template <typename T>
std::vector<uint8_t> Compare(phal_element_type_t type,
                             phal_kir_comparison_direction_t direction,
                             phal_kir_comparison_type_t ordering,
                             const std::vector<T>& x, const std::vector<T>& y) {
  return ApplyOp(PHAL_KIR_OP_COMPARE, kPred, {Values(type, x), Values(type, y)},
                 {direction, ordering});
}

template <typename To, typename From>
std::vector<To> Convert(phal_element_type_t from, phal_element_type_t to,
                        const std::vector<From>& x) {
  return FromBytes<To>(ApplyOp(PHAL_KIR_OP_CONVERT, to, {Values(from, x)}));
}

// Bitwise float equality, so that -0 differs from +0 and NaN matches NaN.
template <typename T>
::testing::AssertionResult SameBits(const std::vector<T>& actual,
                                    const std::vector<T>& expected) {
  if (ToBytes(actual) == ToBytes(expected)) {
    return ::testing::AssertionSuccess();
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "got";
  for (T v : actual) failure << " " << v;
  failure << ", expected";
  for (T v : expected) failure << " " << v;
  return failure;
}

// ---- integers ---------------------------------------------------------------

TEST(IntegerOps, DivisionByZeroGivesAllOnesAndIntMinByMinusOneGivesIntMin) {
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_DIVIDE, kS32, {7, -7, kIntMin, 0},
                            {0, 2, -1, 0}),
            (std::vector<int32_t>{-1, -3, kIntMin, -1}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_DIVIDE, kU8, {7, 200}, {0, 3}),
            (std::vector<uint8_t>{255, 66}));
}

TEST(IntegerOps, RemainderByZeroGivesTheDividendAndFollowsItsSign) {
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_REMAINDER, kS32, {7, -7, kIntMin, 7},
                            {0, 2, -1, -2}),
            (std::vector<int32_t>{7, -1, 0, 1}));
}

TEST(IntegerOps, ArithmeticWrapsAround) {
  EXPECT_EQ(Binary<int8_t>(PHAL_KIR_OP_ADD, kS8, {127, -128}, {1, -1}),
            (std::vector<int8_t>{-128, 127}));
  EXPECT_EQ(Binary<uint16_t>(PHAL_KIR_OP_SUBTRACT, kU16, {0}, {1}),
            (std::vector<uint16_t>{65535}));
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_MULTIPLY, kS32, {65536}, {65536}),
            (std::vector<int32_t>{0}));
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_NEGATE, kS32, {kIntMin, 5}),
            (std::vector<int32_t>{kIntMin, -5}));
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_ABS, kS32, {kIntMin, -5}),
            (std::vector<int32_t>{kIntMin, 5}));
}

TEST(IntegerOps, ShiftsByTheWidthOrMoreShiftEverythingOut) {
  // Amounts are read as unsigned: -1 is a huge shift.
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_SHIFT_LEFT, kS32, {1, 1, 1, 3},
                            {31, 32, -1, 1}),
            (std::vector<int32_t>{kIntMin, 0, 0, 6}));
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, kS32,
                            {-8, 8, -8, kIntMin}, {40, 40, 1, 31}),
            (std::vector<int32_t>{-1, 0, -4, -1}));
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL, kS32, {-1, -1, 16},
                            {28, 32, 2}),
            (std::vector<int32_t>{15, 0, 4}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_SHIFT_LEFT, kU8, {1, 1}, {7, 8}),
            (std::vector<uint8_t>{128, 0}));
}

TEST(IntegerOps, PowerWrapsAndNegativeExponentsGiveZeroUnlessBaseIsOne) {
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_POWER, kS32, {2, 3, -1, 1, -1, 2, 0},
                            {10, -1, -3, -5, kIntMin, 32, 0}),
            (std::vector<int32_t>{1024, 0, -1, 1, 1, 0, 1}));
  EXPECT_EQ(Binary<int64_t>(PHAL_KIR_OP_POWER, kS64, {-1},
                            {std::numeric_limits<int64_t>::min()}),
            (std::vector<int64_t>{1}));
}

TEST(IntegerOps, BitCountsAndSign) {
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_POPCNT, kS32, {-1, 0, 7}),
            (std::vector<int32_t>{32, 0, 3}));
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_CLZ, kS32, {0, 1, -1}),
            (std::vector<int32_t>{32, 31, 0}));
  EXPECT_EQ(Unary<uint8_t>(PHAL_KIR_OP_CLZ, kU8, {0, 1}),
            (std::vector<uint8_t>{8, 7}));
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_SIGN, kS32, {-5, 0, 9}),
            (std::vector<int32_t>{-1, 0, 1}));
  EXPECT_EQ(Unary<uint8_t>(PHAL_KIR_OP_SIGN, kU8, {0, 200}),
            (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(Unary<int32_t>(PHAL_KIR_OP_NOT, kS32, {0, -1}),
            (std::vector<int32_t>{-1, 0}));
}

TEST(IntegerOps, MaxMinAndBitwiseOps) {
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_MAXIMUM, kS32, {-3, 4}, {2, -9}),
            (std::vector<int32_t>{2, 4}));
  EXPECT_EQ(
      Binary<uint32_t>(PHAL_KIR_OP_MINIMUM, kU32, {0xFFFFFFFFu, 4}, {1, 9}),
      (std::vector<uint32_t>{1, 4}));
  EXPECT_EQ(Binary<int32_t>(PHAL_KIR_OP_XOR, kS32, {0b1100}, {0b1010}),
            (std::vector<int32_t>{0b0110}));
}

// ---- pred -------------------------------------------------------------------

TEST(PredOps, ArithmeticIsThatOfOneBit) {
  const std::vector<uint8_t> x = {0, 0, 1, 1};
  const std::vector<uint8_t> y = {0, 1, 0, 1};
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_ADD, kPred, x, y),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_SUBTRACT, kPred, x, y),
            (std::vector<uint8_t>{0, 1, 1, 0}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_MULTIPLY, kPred, x, y),
            (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_MAXIMUM, kPred, x, y),
            (std::vector<uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(Binary<uint8_t>(PHAL_KIR_OP_MINIMUM, kPred, x, y),
            (std::vector<uint8_t>{0, 0, 0, 1}));
  EXPECT_EQ(Unary<uint8_t>(PHAL_KIR_OP_NOT, kPred, x),
            (std::vector<uint8_t>{1, 1, 0, 0}));
}

TEST(PredOps, AnyNonZeroByteReadsAsTrue) {
  EXPECT_EQ(Unary<uint8_t>(PHAL_KIR_OP_NOT, kPred, {2, 0}),
            (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(
      FromBytes<int32_t>(ApplyOp(PHAL_KIR_OP_CONVERT, kS32,
                                 {Values(kPred, std::vector<uint8_t>{2, 0})})),
      (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(ApplyOp(PHAL_KIR_OP_SELECT, kS32,
                    {Values(kPred, std::vector<uint8_t>{7, 0}),
                     Values(kS32, std::vector<int32_t>{1, 2}),
                     Values(kS32, std::vector<int32_t>{3, 4})}),
            ToBytes(std::vector<int32_t>{1, 4}));
}

// ---- conversions ------------------------------------------------------------

TEST(ConvertOp, FloatToIntegerTruncatesSaturatesAndSendsNanToZero) {
  EXPECT_EQ((Convert<int32_t, float>(kF32, kS32,
                                     {3e9f, -3e9f, kNaN, -1.9f, kInf, 2.5f})),
            (std::vector<int32_t>{kIntMax, kIntMin, 0, -1, kIntMax, 2}));
  EXPECT_EQ((Convert<uint8_t, double>(kF64, kU8, {-5.0, 300.0, 254.9})),
            (std::vector<uint8_t>{0, 255, 254}));
  EXPECT_EQ((Convert<uint64_t, float>(kF32, kU64, {1.8446744e19f, -1.0f})),
            (std::vector<uint64_t>{std::numeric_limits<uint64_t>::max(), 0}));
}

TEST(ConvertOp, IntegerToNarrowFloatRoundsOnce) {
  // 2049 and 2051 lie halfway between f16 neighbours: ties go to even.
  EXPECT_EQ(
      FromHalves((Convert<uint16_t, int32_t>(kS32, kF16, {2049, 2051, 70000}))),
      (std::vector<double>{2048, 2052, INFINITY}));
  // Just above halfway between bf16 neighbours 2^60 and 2^60 + 2^53; going
  // through double first would round to the tie and then to even (2^60).
  const int64_t x = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  EXPECT_EQ((Convert<uint16_t, int64_t>(kS64, kBF16, {x})),
            BFloats({std::ldexp(1.0, 60) + std::ldexp(1.0, 53)}));
}

TEST(ConvertOp, PredAndComplexConversions) {
  EXPECT_EQ((Convert<uint8_t, float>(kF32, kPred, {kNaN, -0.0f, 0.5f})),
            (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ((Convert<float, C64>(kC64, kF32, {C64(1.5f, -2.0f)})),
            (std::vector<float>{1.5f}));
  EXPECT_EQ((Convert<C64, int32_t>(kS32, kC64, {-3})),
            (std::vector<C64>{C64(-3.0f, 0.0f)}));
  EXPECT_EQ((Convert<int32_t, C64>(kC64, kS32, {C64(-2.7f, 9.0f)})),
            (std::vector<int32_t>{-2}));
}

TEST(ConvertOp, FloatNarrowingRoundsToNearestEven) {
  // 1 + 2^-11 is halfway between f16 1 and 1 + 2^-10.
  EXPECT_EQ(FromHalves(Convert<uint16_t, double>(
                kF64, kF16, {1.0 + std::ldexp(1.0, -11), 1e-8, 65520.0})),
            (std::vector<double>{1.0, 0.0, INFINITY}));
}

TEST(BitcastConvertOp, ReinterpretsTheBits) {
  EXPECT_EQ(FromBytes<int32_t>(
                ApplyOp(PHAL_KIR_OP_BITCAST_CONVERT, kS32,
                        {Values(kF32, std::vector<float>{1.0f, -0.0f})})),
            (std::vector<int32_t>{0x3F800000, kIntMin}));
  EXPECT_EQ(ApplyOp(PHAL_KIR_OP_BITCAST_CONVERT, kPred,
                    {Values(kU8, std::vector<uint8_t>{0, 1, 5})}),
            (std::vector<uint8_t>{0, 1, 5}));
}

// ---- real floats ------------------------------------------------------------

TEST(FloatOps, MaximumAndMinimumPropagateNanAndOrderSignedZeros) {
  EXPECT_TRUE(SameBits(
      Binary<float>(PHAL_KIR_OP_MAXIMUM, kF32, {-0.0f, 0.0f, kNaN, 1.0f},
                    {0.0f, -0.0f, 1.0f, kNaN}),
      {0.0f, 0.0f, kNaN, kNaN}));
  EXPECT_TRUE(SameBits(Binary<float>(PHAL_KIR_OP_MINIMUM, kF32,
                                     {-0.0f, 0.0f, kNaN}, {0.0f, -0.0f, 1.0f}),
                       {-0.0f, -0.0f, kNaN}));
}

TEST(FloatOps, HalfArithmeticRoundsOnceFromDouble) {
  // 2048 + 1 ties to 2048; 2048 + 3 rounds to 2052.
  EXPECT_EQ(FromHalves(Binary<uint16_t>(PHAL_KIR_OP_ADD, kF16,
                                        Halves({2048, 2048, 65504}),
                                        Halves({1, 3, 65504}))),
            (std::vector<double>{2048, 2052, INFINITY}));
}

TEST(FloatOps, RoundingSignAndRemainder) {
  EXPECT_TRUE(SameBits(
      Unary<double>(PHAL_KIR_OP_ROUND_NEAREST_AFZ, kF64, {2.5, -2.5, 0.4}),
      {3.0, -3.0, 0.0}));
  EXPECT_TRUE(SameBits(
      Unary<double>(PHAL_KIR_OP_ROUND_NEAREST_EVEN, kF64, {2.5, 3.5, -0.5}),
      {2.0, 4.0, -0.0}));
  EXPECT_TRUE(
      SameBits(Unary<float>(PHAL_KIR_OP_SIGN, kF32, {-0.0f, -3.0f, 2.0f, kNaN}),
               {-0.0f, -1.0f, 1.0f, kNaN}));
  const std::vector<float> remainders = Binary<float>(
      PHAL_KIR_OP_REMAINDER, kF32, {-7.0f, 7.0f, 1.0f}, {2.0f, -2.0f, 0.0f});
  ASSERT_EQ(remainders.size(), 3u);
  EXPECT_EQ(remainders[0], -1.0f);
  EXPECT_EQ(remainders[1], 1.0f);
  EXPECT_TRUE(std::isnan(remainders[2]));
}

TEST(FloatOps, TranscendentalsComputeInDoubleAndRoundOnce) {
  EXPECT_EQ(Unary<float>(PHAL_KIR_OP_EXP, kF32, {1.0f}),
            (std::vector<float>{static_cast<float>(std::exp(1.0))}));
  EXPECT_EQ(Unary<float>(PHAL_KIR_OP_LOGISTIC, kF32, {0.0f}),
            (std::vector<float>{0.5f}));
  EXPECT_EQ(Unary<float>(PHAL_KIR_OP_RSQRT, kF32, {4.0f}),
            (std::vector<float>{0.5f}));
  EXPECT_EQ(Unary<float>(PHAL_KIR_OP_CBRT, kF32, {-8.0f}),
            (std::vector<float>{-2.0f}));
  EXPECT_EQ(Unary<float>(PHAL_KIR_OP_ERF, kF32, {0.5f}),
            (std::vector<float>{static_cast<float>(std::erf(0.5))}));
  EXPECT_EQ(FromHalves(Unary<uint16_t>(PHAL_KIR_OP_TANH, kF16, Halves({0.5}))),
            FromHalves(Halves({std::tanh(HalfToFloat(DoubleToHalf(0.5)))})));
}

TEST(FloatOps, IsFiniteGivesPred) {
  EXPECT_EQ(ApplyOp(PHAL_KIR_OP_IS_FINITE, kPred,
                    {Values(kF32, std::vector<float>{1.0f, kInf, kNaN})}),
            (std::vector<uint8_t>{1, 0, 0}));
}

TEST(FloatOps, ClampOrdersBoundsAndPropagatesNan) {
  EXPECT_TRUE(
      SameBits(FromBytes<float>(ApplyOp(
                   PHAL_KIR_OP_CLAMP, kF32,
                   {Values(kF32, std::vector<float>{0.0f, 0.0f, 0.0f}),
                    Values(kF32, std::vector<float>{-1.0f, 5.0f, kNaN}),
                    Values(kF32, std::vector<float>{2.0f, 2.0f, 2.0f})})),
               {0.0f, 2.0f, kNaN}));
  EXPECT_EQ(
      FromBytes<int32_t>(ApplyOp(PHAL_KIR_OP_CLAMP, kS32,
                                 {Values(kS32, std::vector<int32_t>{-2, -2}),
                                  Values(kS32, std::vector<int32_t>{-9, 9}),
                                  Values(kS32, std::vector<int32_t>{3, 3})})),
      (std::vector<int32_t>{-2, 3}));
}

TEST(ReducePrecisionOp, RoundsMantissaThenFlushesOrSaturatesTheExponent) {
  const std::vector<float> x = {1.0f + std::ldexp(1.0f, -11),
                                1.0f + 3 * std::ldexp(1.0f, -11),
                                65520.0f,
                                1e-8f,
                                -1e-8f,
                                kNaN};
  const std::vector<float> e5m10 = FromBytes<float>(
      ApplyOp(PHAL_KIR_OP_REDUCE_PRECISION, kF32, {Values(kF32, x)}, {5, 10}));
  EXPECT_TRUE(SameBits(
      e5m10, {1.0f, 1.0f + std::ldexp(1.0f, -9), kInf, 0.0f, -0.0f, kNaN}));
  // With no mantissa bits left a NaN becomes +infinity.
  EXPECT_TRUE(SameBits(
      FromBytes<float>(ApplyOp(PHAL_KIR_OP_REDUCE_PRECISION, kF32,
                               {Values(kF32, std::vector{-kNaN})}, {8, 0})),
      {kInf}));
}

// ---- compare ----------------------------------------------------------------

TEST(CompareOp, FloatComparisonTreatsNanAsUnorderedAndZerosAsEqual) {
  const std::vector<float> x = {kNaN, kNaN, -0.0f, 1.0f};
  const std::vector<float> y = {kNaN, 1.0f, 0.0f, 2.0f};
  EXPECT_EQ(Compare(kF32, PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARISON_FLOAT, x, y),
            (std::vector<uint8_t>{0, 0, 1, 0}));
  EXPECT_EQ(Compare(kF32, PHAL_KIR_COMPARE_NE, PHAL_KIR_COMPARISON_FLOAT, x, y),
            (std::vector<uint8_t>{1, 1, 0, 1}));
  EXPECT_EQ(Compare(kF32, PHAL_KIR_COMPARE_GE, PHAL_KIR_COMPARISON_FLOAT, x, y),
            (std::vector<uint8_t>{0, 0, 1, 0}));
}

TEST(CompareOp, TotalOrderRanksNegativeNanFirstAndNanLast) {
  const std::vector<float> x = {-kNaN, -kInf, -0.0f, kInf, kNaN};
  const std::vector<float> y = {-kInf, -0.0f, 0.0f, kNaN, kNaN};
  EXPECT_EQ(
      Compare(kF32, PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_TOTALORDER, x, y),
      (std::vector<uint8_t>{1, 1, 1, 1, 0}));
  EXPECT_EQ(
      Compare(kF32, PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARISON_TOTALORDER, x, y),
      (std::vector<uint8_t>{0, 0, 0, 0, 1}));
}

TEST(CompareOp, SignedAndUnsignedReinterpretIntegerBits) {
  EXPECT_EQ(Compare<int32_t>(kS32, PHAL_KIR_COMPARE_LT,
                             PHAL_KIR_COMPARISON_UNSIGNED, {-1, 1}, {1, 2}),
            (std::vector<uint8_t>{0, 1}));
  EXPECT_EQ(
      Compare<uint32_t>(kU32, PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_SIGNED,
                        {0xFFFFFFFFu, 1}, {1, 2}),
      (std::vector<uint8_t>{1, 1}));
}

TEST(CompareOp, ComplexComparesRealThenImaginary) {
  EXPECT_EQ(Compare<C64>(kC64, PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_FLOAT,
                         {C64(1, 5), C64(1, 2), C64(2, 0)},
                         {C64(2, 0), C64(1, 3), C64(1, 9)}),
            (std::vector<uint8_t>{1, 1, 0}));
}

// ---- complex ----------------------------------------------------------------

TEST(ComplexOps, ArithmeticInDoubleAndPartsAsReals) {
  EXPECT_EQ(Binary<C64>(PHAL_KIR_OP_MULTIPLY, kC64, {C64(1, 2)}, {C64(3, 4)}),
            (std::vector<C64>{C64(-5, 10)}));
  EXPECT_EQ(Binary<C64>(PHAL_KIR_OP_DIVIDE, kC64, {C64(-5, 10)}, {C64(3, 4)}),
            (std::vector<C64>{C64(1, 2)}));
  EXPECT_EQ(Unary<C64>(PHAL_KIR_OP_SQRT, kC64, {C64(-4, 0)}),
            (std::vector<C64>{C64(0, 2)}));
  EXPECT_EQ(
      FromBytes<float>(ApplyOp(PHAL_KIR_OP_ABS, kF32,
                               {Values(kC64, std::vector<C64>{C64(3, -4)})})),
      (std::vector<float>{5.0f}));
  EXPECT_EQ(
      FromBytes<float>(ApplyOp(PHAL_KIR_OP_IMAG, kF32,
                               {Values(kC64, std::vector<C64>{C64(3, -4)})})),
      (std::vector<float>{-4.0f}));
  EXPECT_EQ(Binary<C64>(PHAL_KIR_OP_MAXIMUM, kC64, {C64(1, 5), C64(2, 0)},
                        {C64(1, 7), C64(1, 9)}),
            (std::vector<C64>{C64(1, 7), C64(2, 0)}));
}

TEST(ComplexOps, ComplexOfTwoRealsTakesTheirWidth) {
  EXPECT_EQ(FromBytes<std::complex<double>>(
                ApplyOp(PHAL_KIR_OP_COMPLEX, kC128,
                        {Values(kF64, std::vector<double>{1.5}),
                         Values(kF64, std::vector<double>{-2.0})})),
            (std::vector<std::complex<double>>{{1.5, -2.0}}));
}

// ---- ops an element type does not define ------------------------------------

TEST(UndefinedOps, AreRefusedWhenTheKernelIsCreated) {
  KirKernel loop("sine_of_integers", PHAL_KERNEL_KIND_LOOP);
  loop.dims = {2};
  const uint32_t in = loop.AddBuffer(kS32, {2});
  loop.outputs = {loop.AddBuffer(kS32, {2}, PHAL_KIR_ACCESS_WRITE)};
  KirBody& b = loop.body;
  const uint32_t x = b.Read(kS32, in, {b.Index(0)});
  b.AddResult(b.Add(PHAL_KIR_OP_SIN, kS32, {x}));
  EXPECT_TRUE(HasCode(Kernel::Create(loop.Desc()).status(), PHAL_UNIMPLEMENTED,
                      {"kernel sine_of_integers", "loop body", "node %2 (sin)",
                       "sin is not defined for element type s32"}));
}

}  // namespace
}  // namespace phal::kir_interpreter
