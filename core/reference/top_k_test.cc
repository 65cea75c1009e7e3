// topk on the reference interpreter: total float order, ties by index,
// smallest-first, and the printer/parser round trip of its attributes.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/printer.h"
#include "core/reference/interpreter.h"

namespace phal::testing {
namespace {

constexpr char kTopK[] = R"(
HloModule topk
ENTRY main {
  x = f32[2,5] parameter(0)
  ROOT t = (f32[2,3], s32[2,3]) topk(x), k=3, largest=%s
}
)";

Literal RunTopK(bool largest, const Literal& input) {
  char text[512];
  std::snprintf(text, sizeof(text), kTopK, largest ? "true" : "false");
  auto module = ParseHloText(text, "topk.hlo");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  auto result = Evaluate(**module, {input});
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return std::move(*result);
}

TEST(ReferenceTopK, LargestOrdersNanFirstAndTiesByIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Literal input = Literal::FromValues(
      PHAL_ELEMENT_TYPE_F32, {2, 5},
      std::vector<double>{1, nan, inf, 1, -2, -0.0, 0.0, 3, 3, -inf});
  Literal result = RunTopK(true, input);
  const Literal& values = result.tuple_elements()[0];
  const Literal& indices = result.tuple_elements()[1];
  EXPECT_TRUE(std::isnan(values.GetAsDouble(0)));
  EXPECT_EQ(values.GetAsDouble(1), inf);
  EXPECT_EQ(values.GetAsDouble(2), 1.0);
  EXPECT_EQ(indices.GetAsInt64(0), 1);
  EXPECT_EQ(indices.GetAsInt64(1), 2);
  EXPECT_EQ(indices.GetAsInt64(2), 0) << "equal values keep the lower index";
  EXPECT_EQ(indices.GetAsInt64(3), 2);
  EXPECT_EQ(indices.GetAsInt64(4), 3);
  EXPECT_EQ(indices.GetAsInt64(5), 1) << "+0 orders above -0";
}

TEST(ReferenceTopK, SmallestFirstWhenLargestIsFalse) {
  Literal input = Literal::FromValues(
      PHAL_ELEMENT_TYPE_F32, {2, 5},
      std::vector<double>{5, 4, 3, 2, 1, -1, -0.0, 0.0, 7, -1});
  Literal result = RunTopK(false, input);
  const Literal& indices = result.tuple_elements()[1];
  EXPECT_EQ(indices.GetAsInt64(0), 4);
  EXPECT_EQ(indices.GetAsInt64(1), 3);
  EXPECT_EQ(indices.GetAsInt64(2), 2);
  EXPECT_EQ(indices.GetAsInt64(3), 0);
  EXPECT_EQ(indices.GetAsInt64(4), 4);
  EXPECT_EQ(indices.GetAsInt64(5), 1) << "-0 orders below +0";
}

TEST(ReferenceTopK, AttributesRoundTripThroughThePrinter) {
  char text[512];
  std::snprintf(text, sizeof(text), kTopK, "false");
  auto module = ParseHloText(text, "topk.hlo");
  ASSERT_TRUE(module.ok());
  std::string printed = HloModuleToText(**module);
  EXPECT_NE(printed.find("k=3, largest=false"), std::string::npos) << printed;
  auto again = ParseHloText(printed, "printed.hlo");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE((*again)->Identical(**module));
}

TEST(ReferenceTopK, KBeyondTheLastDimensionIsRejected) {
  auto module = ParseHloText(R"(
HloModule bad
ENTRY main {
  x = f32[4] parameter(0)
  ROOT t = (f32[5], s32[5]) topk(x), k=5
}
)",
                             "bad.hlo");
  ASSERT_TRUE(module.ok());
  auto result =
      Evaluate(**module, {Literal(Shape(PHAL_ELEMENT_TYPE_F32, {4}))});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("k=5 must lie in [0, 4]"),
            std::string::npos)
      << result.status().message();
}

}  // namespace
}  // namespace phal::testing
