#include "conformance/report/verdict.h"

#include <gtest/gtest.h>

#include "conformance/report/case_result.h"

namespace phal::conformance {
namespace {

CaseResult Result(int tier, CaseStatus status, bool dtype_unsupported = false) {
  CaseResult result;
  result.tier = tier;
  result.status = status;
  result.dtype_unsupported = dtype_unsupported;
  return result;
}

TEST(Verdict, CertifiesWhenEveryCaseOfTheTiersPassesOrLacksADtype) {
  const Verdict verdict =
      Judge({Result(1, CaseStatus::kPass), Result(2, CaseStatus::kPass),
             Result(3, CaseStatus::kNotSupported, true)},
            3);
  EXPECT_TRUE(verdict.certified);
  EXPECT_EQ(verdict.summary, "certified at tier 3");
  EXPECT_EQ(ClosingLine(verdict.all), "2 passed, 0 failed, 1 skipped");
}

TEST(Verdict, AFailureAboveTheRequestedTierDoesNotCount) {
  const std::vector<CaseResult> results = {Result(1, CaseStatus::kPass),
                                           Result(3, CaseStatus::kCrash)};
  EXPECT_TRUE(Judge(results, 2).certified);
  const Verdict three = Judge(results, 3);
  EXPECT_FALSE(three.certified);
  EXPECT_TRUE(three.tiers[0].certified);
  EXPECT_FALSE(three.tiers[2].certified);
}

TEST(Verdict, FailCrashAndTimeoutAllCountAsFailed) {
  const Verdict verdict =
      Judge({Result(1, CaseStatus::kFail), Result(1, CaseStatus::kCrash),
             Result(1, CaseStatus::kTimeout), Result(1, CaseStatus::kPass)},
            1);
  EXPECT_FALSE(verdict.certified);
  EXPECT_EQ(ClosingLine(verdict.all), "1 passed, 3 failed, 0 skipped");
}

TEST(Verdict, AMissingKernelKindIsNotCertifiable) {
  const Verdict verdict = Judge({Result(1, CaseStatus::kPass),
                                 Result(1, CaseStatus::kNotSupported, false)},
                                1);
  EXPECT_FALSE(verdict.certified);
  EXPECT_NE(verdict.summary.find("kernel kind or op"), std::string::npos)
      << verdict.summary;
}

TEST(Verdict, TooFewDevicesForACaseOfSeveralIsCertifiable) {
  CaseResult few = Result(3, CaseStatus::kNotSupported);
  few.devices_unsupported = true;
  const Verdict verdict = Judge({Result(3, CaseStatus::kPass), few}, 3);
  EXPECT_TRUE(verdict.certified) << verdict.summary;
  // The flag survives the report's JSON.
  EXPECT_TRUE(CaseResultFromJson(CaseResultToJson(few)).devices_unsupported);
}

TEST(Verdict, ZeroCasesIsNeverCertified) {
  EXPECT_FALSE(Judge({}, 3).certified);
  EXPECT_EQ(Judge({}, 3).summary, "no case ran: nothing is certified");
  EXPECT_FALSE(Judge({Result(1, CaseStatus::kNotSupported, true)}, 1).certified)
      << "a run where nothing passed certifies nothing";
}

TEST(Verdict, CorpusFilesAreJudgedApartFromTheTiers) {
  const Verdict verdict = Judge(
      {Result(1, CaseStatus::kPass), Result(kCorpusTier, CaseStatus::kFail)},
      3);
  EXPECT_TRUE(verdict.tiers.back().certified);
  EXPECT_FALSE(verdict.certified);
  EXPECT_EQ(verdict.corpus.fail, 1);
}

TEST(Verdict, ARunOfCorpusFilesOnlyPassesWhenTheFilesPass) {
  const Verdict clean = Judge({Result(kCorpusTier, CaseStatus::kPass),
                               Result(kCorpusTier, CaseStatus::kNotSupported)},
                              3);
  EXPECT_TRUE(clean.certified);
  EXPECT_EQ(clean.summary,
            "the corpus files pass (no case of tiers 1-3 ran, so no tier is "
            "certified): 1 passed, 0 failed, 1 skipped");
  EXPECT_FALSE(Judge({Result(kCorpusTier, CaseStatus::kFail)}, 3).certified);
}

}  // namespace
}  // namespace phal::conformance
