// The integer and pred functions on the values where C++ is undefined or
// where the width matters: wraparound, division by zero, INT_MIN / -1,
// negative exponents, shifts by the width or more, |INT_MIN| and the bit
// counts of every width.
#include "sdk/element_semantics/integer_functions.h"

#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace phal::element_semantics {
namespace {

template <typename I>
constexpr I kMin = std::numeric_limits<I>::min();
template <typename I>
constexpr I kMax = std::numeric_limits<I>::max();

TEST(IntegerFunctionsTest, ArithmeticWrapsModuloTwoToTheWidth) {
  EXPECT_EQ(IntegerAdd<int32_t>(kMax<int32_t>, 1), kMin<int32_t>);
  EXPECT_EQ(IntegerSubtract<int8_t>(-128, 1), 127);
  EXPECT_EQ(IntegerAdd<uint8_t>(200, 100), 44);
  EXPECT_EQ(IntegerSubtract<uint32_t>(0, 1), kMax<uint32_t>);
  EXPECT_EQ(IntegerMultiply<uint16_t>(300, 300), 24464);  // 90000 - 65536
  EXPECT_EQ(IntegerMultiply<int16_t>(200, 200), -25536);  // 40000 - 65536
  EXPECT_EQ(IntegerMultiply<int64_t>(kMin<int64_t>, -1), kMin<int64_t>);
  EXPECT_EQ(IntegerNegate<int32_t>(kMin<int32_t>), kMin<int32_t>);
  EXPECT_EQ(IntegerNegate<uint8_t>(1), 255);
}

TEST(IntegerFunctionsTest, DivisionTruncatesTowardZero) {
  EXPECT_EQ(IntegerDivide<int32_t>(-7, 2), -3);
  EXPECT_EQ(IntegerDivide<int32_t>(7, -2), -3);
  EXPECT_EQ(IntegerDivide<uint8_t>(200, 3), 66);
}

TEST(IntegerFunctionsTest, DivisionByZeroGivesAllOnes) {
  EXPECT_EQ(IntegerDivide<int8_t>(5, 0), -1);
  EXPECT_EQ(IntegerDivide<int32_t>(kMin<int32_t>, 0), -1);
  EXPECT_EQ(IntegerDivide<int64_t>(0, 0), -1);
  EXPECT_EQ(IntegerDivide<uint8_t>(7, 0), 255);
  EXPECT_EQ(IntegerDivide<uint32_t>(7, 0), kMax<uint32_t>);
  EXPECT_EQ(IntegerDivide<uint64_t>(7, 0), kMax<uint64_t>);
}

TEST(IntegerFunctionsTest, IntMinDividedByMinusOneIsIntMin) {
  EXPECT_EQ(IntegerDivide<int8_t>(-128, -1), -128);
  EXPECT_EQ(IntegerDivide<int16_t>(kMin<int16_t>, -1), kMin<int16_t>);
  EXPECT_EQ(IntegerDivide<int32_t>(kMin<int32_t>, -1), kMin<int32_t>);
  EXPECT_EQ(IntegerDivide<int64_t>(kMin<int64_t>, -1), kMin<int64_t>);
}

TEST(IntegerFunctionsTest, RemainderTakesTheSignOfTheDividend) {
  EXPECT_EQ(IntegerRemainder<int32_t>(-7, 2), -1);
  EXPECT_EQ(IntegerRemainder<int32_t>(7, -2), 1);
  EXPECT_EQ(IntegerRemainder<uint8_t>(200, 7), 4);
}

TEST(IntegerFunctionsTest, RemainderByZeroIsTheDividend) {
  EXPECT_EQ(IntegerRemainder<int32_t>(-7, 0), -7);
  EXPECT_EQ(IntegerRemainder<int64_t>(kMin<int64_t>, 0), kMin<int64_t>);
  EXPECT_EQ(IntegerRemainder<uint16_t>(65535, 0), 65535);
}

TEST(IntegerFunctionsTest, IntMinRemainderMinusOneIsZero) {
  EXPECT_EQ(IntegerRemainder<int8_t>(-128, -1), 0);
  EXPECT_EQ(IntegerRemainder<int32_t>(kMin<int32_t>, -1), 0);
  EXPECT_EQ(IntegerRemainder<int64_t>(kMin<int64_t>, -1), 0);
}

TEST(IntegerFunctionsTest, PowerOfNonNegativeExponentWrapsAndZeroToZeroIsOne) {
  EXPECT_EQ(IntegerPower<int32_t>(3, 4), 81);
  EXPECT_EQ(IntegerPower<int32_t>(-2, 3), -8);
  EXPECT_EQ(IntegerPower<int32_t>(0, 0), 1);
  EXPECT_EQ(IntegerPower<int32_t>(5, 0), 1);
  EXPECT_EQ(IntegerPower<int8_t>(2, 7), -128);
  EXPECT_EQ(IntegerPower<int8_t>(3, 5), -13);  // 243 - 256
  EXPECT_EQ(IntegerPower<uint8_t>(2, 8), 0);
  EXPECT_EQ(IntegerPower<uint64_t>(2, 64), 0u);
  EXPECT_EQ(IntegerPower<uint32_t>(3, 20), 3486784401u);
}

TEST(IntegerFunctionsTest,
     NegativeExponentGivesZeroUnlessTheBaseIsOneOrMinusOne) {
  EXPECT_EQ(IntegerPower<int32_t>(2, -1), 0);
  EXPECT_EQ(IntegerPower<int32_t>(-2, -1), 0);
  EXPECT_EQ(IntegerPower<int32_t>(0, -1), 0);
  EXPECT_EQ(IntegerPower<int32_t>(kMax<int32_t>, -3), 0);
  EXPECT_EQ(IntegerPower<int32_t>(1, -5), 1);
  EXPECT_EQ(IntegerPower<int32_t>(-1, -3), -1);
  EXPECT_EQ(IntegerPower<int32_t>(-1, -4), 1);
  EXPECT_EQ(IntegerPower<int8_t>(-1, -128), 1);
  EXPECT_EQ(IntegerPower<int8_t>(-1, -127), -1);
  EXPECT_EQ(IntegerPower<int64_t>(-1, kMin<int64_t>), 1);
  EXPECT_EQ(IntegerPower<int64_t>(1, kMin<int64_t>), 1);
}

TEST(IntegerFunctionsTest, ShiftsByTheWidthOrMoreShiftEverythingOut) {
  EXPECT_EQ(ShiftLeft<int32_t>(1, 31), kMin<int32_t>);
  EXPECT_EQ(ShiftLeft<int32_t>(1, 32), 0);
  EXPECT_EQ(ShiftLeft<int32_t>(1, 1000), 0);
  EXPECT_EQ(ShiftLeft<int8_t>(1, 8), 0);
  EXPECT_EQ(ShiftLeft<uint8_t>(0xFF, 4), 0xF0);
  EXPECT_EQ(ShiftLeft<uint64_t>(1, 64), 0u);
  EXPECT_EQ(ShiftRightLogical<int32_t>(-1, 31), 1);
  EXPECT_EQ(ShiftRightLogical<int32_t>(-1, 32), 0);
  EXPECT_EQ(ShiftRightLogical<int8_t>(-1, 1), 0x7F);
  EXPECT_EQ(ShiftRightLogical<uint16_t>(0xFFFF, 16), 0);
}

TEST(IntegerFunctionsTest,
     NegativeShiftAmountsReadAsUnsignedAndShiftEverythingOut) {
  EXPECT_EQ(ShiftLeft<int32_t>(1, -1), 0);
  EXPECT_EQ(ShiftLeft<int8_t>(1, kMin<int8_t>), 0);
  EXPECT_EQ(ShiftRightLogical<int32_t>(-1, -1), 0);
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(-8, -1), -1);
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(8, -1), 0);
}

TEST(IntegerFunctionsTest, ArithmeticShiftFillsWithTheSignBitAlsoPastTheWidth) {
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(-8, 1), -4);
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(-8, 31), -1);
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(-8, 40), -1);
  EXPECT_EQ(ShiftRightArithmetic<int32_t>(8, 40), 0);
  EXPECT_EQ(ShiftRightArithmetic<int64_t>(kMin<int64_t>, 63), -1);
  // Unsigned operands are shifted as the signed integer of their bits.
  EXPECT_EQ(ShiftRightArithmetic<uint8_t>(0x80, 1), 0xC0);
  EXPECT_EQ(ShiftRightArithmetic<uint8_t>(0x80, 8), 0xFF);
  EXPECT_EQ(ShiftRightArithmetic<uint8_t>(0x40, 8), 0);
}

TEST(IntegerFunctionsTest, SignOfIntMinIsMinusOneAndOfUnsignedMaxIsOne) {
  EXPECT_EQ(IntegerSign<int8_t>(-128), -1);
  EXPECT_EQ(IntegerSign<int32_t>(kMin<int32_t>), -1);
  EXPECT_EQ(IntegerSign<int64_t>(kMin<int64_t>), -1);
  EXPECT_EQ(IntegerSign<int32_t>(0), 0);
  EXPECT_EQ(IntegerSign<int32_t>(42), 1);
  EXPECT_EQ(IntegerSign<uint32_t>(kMax<uint32_t>), 1u);
  EXPECT_EQ(IntegerSign<uint8_t>(0), 0);
}

TEST(IntegerFunctionsTest, AbsOfIntMinWrapsToIntMin) {
  EXPECT_EQ(IntegerAbs<int8_t>(-128), -128);
  EXPECT_EQ(IntegerAbs<int16_t>(kMin<int16_t>), kMin<int16_t>);
  EXPECT_EQ(IntegerAbs<int32_t>(kMin<int32_t>), kMin<int32_t>);
  EXPECT_EQ(IntegerAbs<int64_t>(kMin<int64_t>), kMin<int64_t>);
  EXPECT_EQ(IntegerAbs<int32_t>(-5), 5);
  EXPECT_EQ(IntegerAbs<uint8_t>(200), 200);
}

TEST(IntegerFunctionsTest, PopulationCountCountsTheBitsOfTheOperandsWidth) {
  EXPECT_EQ(PopulationCount<int8_t>(-1), 8);
  EXPECT_EQ(PopulationCount<int16_t>(-1), 16);
  EXPECT_EQ(PopulationCount<int32_t>(-1), 32);
  EXPECT_EQ(PopulationCount<int64_t>(-1), 64);
  EXPECT_EQ(PopulationCount<uint8_t>(0x80), 1);
  EXPECT_EQ(PopulationCount<int32_t>(kMin<int32_t>), 1);
  EXPECT_EQ(PopulationCount<uint64_t>(0), 0u);
}

TEST(IntegerFunctionsTest, CountLeadingZerosOfZeroIsTheWidth) {
  EXPECT_EQ(CountLeadingZeros<int8_t>(0), 8);
  EXPECT_EQ(CountLeadingZeros<uint16_t>(0), 16);
  EXPECT_EQ(CountLeadingZeros<int32_t>(0), 32);
  EXPECT_EQ(CountLeadingZeros<uint64_t>(0), 64u);
}

TEST(IntegerFunctionsTest, CountLeadingZerosCountsWithinTheOperandsWidth) {
  EXPECT_EQ(CountLeadingZeros<int8_t>(1), 7);
  EXPECT_EQ(CountLeadingZeros<int16_t>(1), 15);
  EXPECT_EQ(CountLeadingZeros<int32_t>(1), 31);
  EXPECT_EQ(CountLeadingZeros<int64_t>(1), 63);
  EXPECT_EQ(CountLeadingZeros<int8_t>(-1), 0);
  EXPECT_EQ(CountLeadingZeros<int64_t>(-1), 0);
  EXPECT_EQ(CountLeadingZeros<uint16_t>(0x00FF), 8);
}

TEST(IntegerFunctionsTest, MaximumAndMinimumCompareInTheOperandsSignedness) {
  EXPECT_EQ(IntegerMaximum<int8_t>(-1, 1), 1);
  EXPECT_EQ(IntegerMinimum<int8_t>(-1, 1), -1);
  EXPECT_EQ(IntegerMaximum<uint8_t>(0xFF, 1), 0xFF);
  EXPECT_EQ(IntegerMinimum<uint8_t>(0xFF, 1), 1);
}

TEST(IntegerFunctionsTest, BitwiseOpsKeepTheWidth) {
  EXPECT_EQ(IntegerNot<int8_t>(0), -1);
  EXPECT_EQ(IntegerNot<uint8_t>(0x0F), 0xF0);
  EXPECT_EQ(IntegerAnd<uint16_t>(0xFF0F, 0x0FFF), 0x0F0F);
  EXPECT_EQ(IntegerOr<int32_t>(kMin<int32_t>, 1), kMin<int32_t> + 1);
  EXPECT_EQ(IntegerXor<uint8_t>(0xFF, 0x0F), 0xF0);
}

TEST(IntegerFunctionsTest, PredIsTheOneBitUnsignedInteger) {
  EXPECT_TRUE(PredNot(false));
  EXPECT_FALSE(PredNot(true));
  EXPECT_FALSE(PredAnd(true, false));
  EXPECT_TRUE(PredOr(true, false));
  EXPECT_TRUE(PredXor(true, false));
  EXPECT_FALSE(PredXor(true, true));
}

}  // namespace
}  // namespace phal::element_semantics
