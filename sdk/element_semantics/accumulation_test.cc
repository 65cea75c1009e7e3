// The accumulation domains of dot and convolution: which domain each
// element type sums in, how values enter and leave it, and the order and
// rounding of the batched matrix product.
#include "sdk/element_semantics/accumulation.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/base/element_types.h"
#include "sdk/element_semantics/real_functions.h"

namespace phal::element_semantics {
namespace {

static_assert(std::is_same_v<Domain<HalfTraits>, double>);
static_assert(std::is_same_v<Domain<Float32Traits>, double>);
static_assert(std::is_same_v<Domain<C64Traits>, Complex>);
static_assert(std::is_same_v<Domain<PredTraits>, PredDomain>);
static_assert(std::is_same_v<Domain<S8Traits>, uint64_t>);
static_assert(std::is_same_v<Domain<U64Traits>, uint64_t>);

enum class DomainKind { kReal, kComplex, kPred, kInteger };

DomainKind DomainOf(ElementType type) {
  return DispatchAccumulationDomain(type, [](auto domain) {
    using D = decltype(domain);
    if constexpr (std::is_same_v<D, double>) {
      return DomainKind::kReal;
    } else if constexpr (std::is_same_v<D, Complex>) {
      return DomainKind::kComplex;
    } else if constexpr (std::is_same_v<D, PredDomain>) {
      return DomainKind::kPred;
    } else {
      static_assert(std::is_same_v<D, uint64_t>);
      return DomainKind::kInteger;
    }
  });
}

TEST(AccumulationTest, EachElementTypeDispatchesToItsDomain) {
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_F16), DomainKind::kReal);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_BF16), DomainKind::kReal);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_F64), DomainKind::kReal);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_C64), DomainKind::kComplex);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_C128), DomainKind::kComplex);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_PRED), DomainKind::kPred);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_S8), DomainKind::kInteger);
  EXPECT_EQ(DomainOf(PHAL_ELEMENT_TYPE_U32), DomainKind::kInteger);
}

TEST(AccumulationTest, SignedIntegersEnterSignExtendedAndUnsignedZeroExtended) {
  EXPECT_EQ((ToDomain<uint64_t, S32Traits>(-5)), uint64_t{0} - 5);
  EXPECT_EQ((ToDomain<uint64_t, S8Traits>(-128)), uint64_t{0} - 128);
  EXPECT_EQ((ToDomain<uint64_t, U32Traits>(0xFFFFFFFF)), 0xFFFFFFFFu);
  EXPECT_EQ(
      (ToDomain<uint64_t, U64Traits>(std::numeric_limits<uint64_t>::max())),
      std::numeric_limits<uint64_t>::max());
}

TEST(AccumulationTest, RealValuesEnterTheIntegerDomainTruncatedTowardZero) {
  EXPECT_EQ((ToDomain<uint64_t, Float32Traits>(2.9)), 2u);
  EXPECT_EQ((ToDomain<uint64_t, Float32Traits>(-2.9)), uint64_t{0} - 2);
}

TEST(AccumulationTest, ComplexValuesKeepTheirRealPartInARealDomain) {
  EXPECT_EQ((ToDomain<double, C64Traits>({3, 4})), 3.0);
  EXPECT_EQ((ToDomain<Complex, Float32Traits>(2.5)), Complex(2.5, 0));
  EXPECT_EQ((ToDomain<Complex, S32Traits>(-7)), Complex(-7, 0));
}

TEST(AccumulationTest, PredDomainHoldsOneForEveryNonZeroValue) {
  EXPECT_EQ((ToDomain<PredDomain, Float32Traits>(-0.0)), 0);
  EXPECT_EQ((ToDomain<PredDomain, Float32Traits>(kNaN)), 1);
  EXPECT_EQ((ToDomain<PredDomain, S32Traits>(-2)), 1);
  EXPECT_EQ((ToDomain<PredDomain, C64Traits>({0, 1})), 1);
  EXPECT_EQ((ToDomain<PredDomain, PredTraits>(true)), 1);
}

TEST(AccumulationTest, IntegerResultsWrapToTheirWidthOnce) {
  EXPECT_EQ(FromDomain<S8Traits>(uint64_t{300}), 44);
  EXPECT_EQ(FromDomain<U8Traits>(uint64_t{0} - 1), 255);
  EXPECT_EQ(FromDomain<S32Traits>(uint64_t{0} - 5), -5);
}

TEST(AccumulationTest, RealResultsRoundOnceToTheirType) {
  // Above the tie between two f16 (bf16) neighbours, but rounding to f32
  // first would land on the tie and round to even.
  EXPECT_EQ(FromDomain<HalfTraits>(1 + 0x1p-11 + 0x1p-30), 0x3C01);
  EXPECT_EQ(FromDomain<BFloat16Traits>(1 + 0x1p-8 + 0x1p-30), 0x3F81);
  EXPECT_EQ(FromDomain<Float32Traits>(1 + 0x1p-30), 1.0f);
}

TEST(AccumulationTest,
     ComplexResultsRoundEachPartAndKeepTheRealPartInARealType) {
  EXPECT_EQ(FromDomain<C64Traits>(Complex(1 + 0x1p-30, -2)),
            std::complex<float>(1, -2));
  EXPECT_EQ(FromDomain<Float32Traits>(Complex(1.5, 9)), 1.5f);
}

TEST(AccumulationTest, PredResultIsNonZero) {
  EXPECT_EQ(FromDomain<PredTraits>(uint64_t{2}), 1);
  EXPECT_EQ(FromDomain<PredTraits>(uint64_t{0}), 0);
  EXPECT_EQ(FromDomain<PredTraits>(PredDomain{1}), 1);
  EXPECT_EQ(FromDomain<PredTraits>(-0.0), 0);
}

template <typename T>
void ExpectIntegerRoundTrips() {
  using V = typename T::Value;
  for (const V x :
       {std::numeric_limits<V>::min(), std::numeric_limits<V>::max(), V{0},
        V{1}, static_cast<V>(-1)}) {
    const uint64_t domain = ToDomain<uint64_t, T>(x);
    EXPECT_EQ(FromDomain<T>(domain), x)
        << "element type " << ElementTypeName(T::kElementType);
  }
}

TEST(AccumulationTest, EveryIntegerRoundTripsThroughItsDomain) {
  ExpectIntegerRoundTrips<S8Traits>();
  ExpectIntegerRoundTrips<S16Traits>();
  ExpectIntegerRoundTrips<S32Traits>();
  ExpectIntegerRoundTrips<S64Traits>();
  ExpectIntegerRoundTrips<U8Traits>();
  ExpectIntegerRoundTrips<U16Traits>();
  ExpectIntegerRoundTrips<U32Traits>();
  ExpectIntegerRoundTrips<U64Traits>();
}

template <typename T>
void ExpectEverySixteenBitFloatRoundTrips() {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    const auto stored = static_cast<uint16_t>(bits);
    if (std::isnan(T::Load(stored))) continue;
    const uint16_t back = FromDomain<T>(ToDomain<double, T>(T::Load(stored)));
    ASSERT_EQ(back, stored) << ElementTypeName(T::kElementType) << " bits 0x"
                            << std::hex << bits << " came back as 0x" << back;
  }
}

TEST(AccumulationTest, EveryF16AndBF16ValueRoundTripsThroughTheRealDomain) {
  ExpectEverySixteenBitFloatRoundTrips<HalfTraits>();
  ExpectEverySixteenBitFloatRoundTrips<BFloat16Traits>();
}

TEST(AccumulationTest, ComplexRoundTripsThroughTheComplexDomain) {
  const std::complex<float> z(1.5f, -0x1p-140f);
  EXPECT_EQ(
      FromDomain<C64Traits>(ToDomain<Complex, C64Traits>(C64Traits::Load(z))),
      z);
}

TEST(AccumulationTest, MultiplyAddInPredIsOrOfAnd) {
  EXPECT_EQ(MultiplyAdd<PredDomain>(0, 1, 1), 1);
  EXPECT_EQ(MultiplyAdd<PredDomain>(0, 1, 0), 0);
  EXPECT_EQ(MultiplyAdd<PredDomain>(1, 0, 0), 1);
}

TEST(AccumulationTest, MultiplyAddInTheIntegerDomainWraps) {
  const uint64_t minus_one = uint64_t{0} - 1;
  EXPECT_EQ(MultiplyAdd<uint64_t>(1, minus_one, 3), uint64_t{0} - 2);
  EXPECT_EQ(MultiplyAdd<uint64_t>(0, uint64_t{1} << 32, uint64_t{1} << 32), 0u);
}

TEST(AccumulationTest, MatrixProductMatchesHandComputedBatches) {
  // Batch 0: [1 2; 3 4] x [5 6; 7 8]; batch 1: [1 0; 0 1] x [9 8; 7 6].
  const std::vector<double> a = {1, 2, 3, 4, 1, 0, 0, 1};
  const std::vector<double> b = {5, 6, 7, 8, 9, 8, 7, 6};
  EXPECT_EQ(MultiplyBatched<double>(a, b, 2, 2, 2, 2),
            (std::vector<double>{19, 22, 43, 50, 9, 8, 7, 6}));
}

TEST(AccumulationTest, MatrixProductSumsInIncreasingContractionOrder) {
  // ((2^53 + 1) - 2^53) is 0 in doubles, as 2^53 + 1 rounds to 2^53;
  // summed from the last term, (-2^53 + 1) + 2^53 is 1.
  const std::vector<double> a = {0x1p53, 1, -0x1p53};
  const std::vector<double> b = {1, 1, 1};
  EXPECT_EQ(MultiplyBatched<double>(a, b, 1, 1, 3, 1),
            (std::vector<double>{0}));
}

TEST(AccumulationTest, MatrixProductRoundsEachProductBeforeAdding) {
  // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60 rounds to 1 + 2^-29, which cancels the
  // first term exactly; a fused multiply-add would leave 2^-60.
  const double c = 1 + 0x1p-30;
  const std::vector<double> a = {-(1 + 0x1p-29), c};
  const std::vector<double> b = {1, c};
  EXPECT_EQ(MultiplyBatched<double>(a, b, 1, 1, 2, 1),
            (std::vector<double>{0}));
}

TEST(AccumulationTest, MatrixProductWithEmptyContractionIsZero) {
  const std::vector<uint64_t> none;
  EXPECT_EQ(MultiplyBatched<uint64_t>(none, none, 1, 2, 0, 3),
            (std::vector<uint64_t>(6, 0)));
}

TEST(AccumulationTest, MatrixProductInTheOtherDomains) {
  const uint64_t minus_two = uint64_t{0} - 2;
  EXPECT_EQ(MultiplyBatched<uint64_t>(std::vector<uint64_t>{minus_two, 3},
                                      std::vector<uint64_t>{5, 4}, 1, 1, 2, 1),
            (std::vector<uint64_t>{2}));
  EXPECT_EQ(
      MultiplyBatched<PredDomain>(std::vector<PredDomain>{1, 0},
                                  std::vector<PredDomain>{0, 1}, 1, 1, 2, 1),
      (std::vector<PredDomain>{0}));
  EXPECT_EQ(MultiplyBatched<Complex>(std::vector<Complex>{{1, 2}},
                                     std::vector<Complex>{{3, 4}}, 1, 1, 1, 1),
            (std::vector<Complex>{{-5, 10}}));
}

}  // namespace
}  // namespace phal::element_semantics
