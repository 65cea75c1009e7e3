// The traits of each element type: its class, its storage size against the
// sdk/base table, how pred and the 16-bit floats load and store, and the
// dispatch from an element type value to its traits.
#include "sdk/element_semantics/element_traits.h"

#include <complex>
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include "sdk/base/element_types.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::element_semantics {
namespace {

using plugin_testing::HasCode;
using plugin_testing::IsOk;

static_assert(kIsPred<PredTraits>);
static_assert(kIsInteger<S8Traits> && kIsInteger<U64Traits>);
static_assert(!kIsInteger<PredTraits> && !kIsInteger<HalfTraits>);
static_assert(kIsFloat<HalfTraits> && kIsFloat<BFloat16Traits>);
static_assert(kIsFloat<Float32Traits> && kIsFloat<Float64Traits>);
static_assert(kIsComplex<C64Traits> && kIsComplex<C128Traits>);
static_assert(!kIsFloat<C64Traits>);

constexpr int kFirstType = PHAL_ELEMENT_TYPE_PRED;
constexpr int kTypeCount = PHAL_ELEMENT_TYPE_COUNT;

TEST(ElementTraitsTest, DispatchGivesTheTraitsOfEveryElementType) {
  for (int t = kFirstType; t < kTypeCount; ++t) {
    const auto type = static_cast<ElementType>(t);
    const ElementType dispatched = DispatchElementType(
        type, [](auto traits) { return decltype(traits)::kElementType; });
    EXPECT_EQ(dispatched, type) << "dispatching " << ElementTypeName(type)
                                << " gave " << ElementTypeName(dispatched);
  }
}

TEST(ElementTraitsTest, StorageSizeIsTheElementTypesByteSize) {
  for (int t = kFirstType; t < kTypeCount; ++t) {
    const auto type = static_cast<ElementType>(t);
    const std::size_t size = DispatchElementType(type, [](auto traits) {
      return sizeof(typename decltype(traits)::Storage);
    });
    EXPECT_EQ(size, ElementTypeByteSize(type)) << ElementTypeName(type);
  }
}

TEST(ElementTraitsTest, DispatchOfNoElementTypeIsInvalidArgumentForStatus) {
  const auto returns_ok = [](auto) { return OkStatus(); };
  EXPECT_TRUE(
      HasCode(DispatchElementType(PHAL_ELEMENT_TYPE_INVALID, returns_ok),
              PHAL_INVALID_ARGUMENT, {"invalid element type 0"}));
  EXPECT_TRUE(HasCode(DispatchElementType(PHAL_ELEMENT_TYPE_COUNT, returns_ok),
                      PHAL_INVALID_ARGUMENT, {"invalid element type 16"}));
  EXPECT_TRUE(IsOk(DispatchElementType(PHAL_ELEMENT_TYPE_F32, returns_ok)));
}

TEST(ElementTraitsTest, DispatchOfNoElementTypeIsValueInitialisedOtherwise) {
  const int result =
      DispatchElementType(PHAL_ELEMENT_TYPE_COUNT, [](auto) { return 7; });
  EXPECT_EQ(result, 0);
}

TEST(ElementTraitsTest, PredReadsAnyNonZeroByteAsTrueAndStoresOne) {
  EXPECT_FALSE(PredTraits::Load(0));
  EXPECT_TRUE(PredTraits::Load(1));
  EXPECT_TRUE(PredTraits::Load(0x80));
  EXPECT_EQ(PredTraits::Store(true), 1);
  EXPECT_EQ(PredTraits::Store(false), 0);
}

TEST(ElementTraitsTest, SixteenBitFloatsStoreRoundingOnceFromDouble) {
  // Above the tie between two neighbours, but rounding to f32 first would
  // land on the tie and round to even.
  EXPECT_EQ(HalfTraits::Store(1 + 0x1p-11 + 0x1p-30), 0x3C01);
  EXPECT_EQ(BFloat16Traits::Store(1 + 0x1p-8 + 0x1p-30), 0x3F81);
  EXPECT_EQ(HalfTraits::Load(0x3C01), 1 + 0x1p-10);
  EXPECT_EQ(BFloat16Traits::Load(0xBF81), -(1 + 0x1p-7));
}

TEST(ElementTraitsTest, ComplexComputesInDoubleAndStoresEachPartRounded) {
  EXPECT_EQ(C64Traits::Load({1.5f, -2.0f}), Complex(1.5, -2));
  EXPECT_EQ(C64Traits::Store(Complex(1 + 0x1p-30, -2)),
            std::complex<float>(1, -2));
}

TEST(ElementTraitsTest, LoadUnalignedReadsAnElementAtAnyByteOffset) {
  uint8_t bytes[1 + sizeof(float)] = {};
  const float value = -3.25f;
  std::memcpy(bytes + 1, &value, sizeof(value));
  EXPECT_EQ(LoadUnaligned<Float32Traits>(bytes + 1), -3.25);
  const int16_t half_word = -2;
  std::memcpy(bytes + 1, &half_word, sizeof(half_word));
  EXPECT_EQ(LoadUnaligned<S16Traits>(bytes + 1), -2);
}

}  // namespace
}  // namespace phal::element_semantics
