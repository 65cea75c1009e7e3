#include "conformance/report/case_result.h"

#include <gtest/gtest.h>

#include <cmath>

namespace phal::conformance {
namespace {

// Isolated runs pass results from child to parent as JSON: nothing may be
// lost on the way.
TEST(CaseResultJson, RoundTripsEveryField) {
  CaseResult result;
  result.id = "tanh.f32.odd.random";
  result.op = "tanh";
  result.dtype = "f32";
  result.tier = 1;
  result.kind = "numeric";
  result.device = 1;
  result.status = CaseStatus::kFail;
  result.message = "result differs";
  result.bound = "4 ulp";
  result.error = 17;
  result.seconds = 0.25;
  result.inputs = {"f32[7,13] {1, 2, ...}"};
  result.worst = {{0, 5, "[0,5]", "0.5", "0.75", "17 ulp", {"0.25"}}};
  const CaseResult back = CaseResultFromJson(CaseResultToJson(result));
  EXPECT_EQ(CaseResultToJson(back), CaseResultToJson(result));
  EXPECT_EQ(back.worst[0].inputs[0], "0.25");
}

TEST(CaseResultJson, AnInfiniteErrorIsWrittenAsNullAndReadBackInfinite) {
  CaseResult result;
  result.error = INFINITY;
  const nlohmann::json json = CaseResultToJson(result);
  EXPECT_TRUE(json["error"].is_null());
  EXPECT_TRUE(std::isinf(CaseResultFromJson(json).error));
}

TEST(CaseResultJson, StatusNamesAreTheDocumentedOnes) {
  CaseStatus status = CaseStatus::kPass;
  for (const char* name :
       {"Pass", "Fail", "NotSupported", "Crash", "Timeout"}) {
    ASSERT_TRUE(ParseCaseStatus(name, &status)) << name;
    EXPECT_STREQ(CaseStatusName(status), name);
  }
  EXPECT_FALSE(ParseCaseStatus("Passed", &status));
}

}  // namespace
}  // namespace phal::conformance
