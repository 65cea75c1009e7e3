#include "conformance/report/verdict.h"

namespace phal::conformance {

void StatusCounts::Add(const CaseResult& result) {
  switch (result.status) {
    case CaseStatus::kPass:
      ++pass;
      break;
    case CaseStatus::kFail:
      ++fail;
      break;
    case CaseStatus::kNotSupported:
      ++not_supported;
      if (!result.dtype_unsupported && !result.devices_unsupported) {
        ++not_supported_uncertifiable;
      }
      break;
    case CaseStatus::kCrash:
      ++crash;
      break;
    case CaseStatus::kTimeout:
      ++timeout;
      break;
  }
}

Verdict Judge(const std::vector<CaseResult>& results, int requested_tier) {
  Verdict verdict;
  verdict.requested_tier = requested_tier;
  for (int tier = 1; tier <= requested_tier; ++tier) {
    verdict.tiers.push_back({tier, {}, false});
  }
  for (const CaseResult& result : results) {
    verdict.all.Add(result);
    if (result.tier == kCorpusTier) {
      verdict.corpus.Add(result);
      continue;
    }
    for (TierVerdict& tier : verdict.tiers) {
      if (result.tier <= tier.tier) tier.counts.Add(result);
    }
  }
  for (TierVerdict& tier : verdict.tiers) {
    tier.certified = tier.counts.pass > 0 && tier.counts.Broken() == 0 &&
                     tier.counts.not_supported_uncertifiable == 0;
  }
  const bool corpus_clean = verdict.corpus.Broken() == 0;
  const bool tier_certified =
      !verdict.tiers.empty() && verdict.tiers.back().certified;
  const bool corpus_only =
      verdict.tiers.empty() || verdict.tiers.back().counts.Total() == 0;
  verdict.certified = corpus_only ? corpus_clean && verdict.corpus.pass > 0
                                  : tier_certified && corpus_clean;
  if (verdict.all.Total() == 0) {
    verdict.summary = "no case ran: nothing is certified";
  } else if (corpus_only) {
    verdict.summary =
        std::string(verdict.certified ? "the corpus files pass"
                                      : "the corpus files fail") +
        " (no case of tiers 1-" + std::to_string(requested_tier) +
        " ran, so no tier is certified): " + ClosingLine(verdict.corpus);
  } else if (verdict.certified) {
    verdict.summary = "certified at tier " + std::to_string(requested_tier);
  } else if (!tier_certified) {
    const StatusCounts& counts = verdict.tiers.back().counts;
    verdict.summary =
        "not certified at tier " + std::to_string(requested_tier) + ": " +
        std::to_string(counts.Broken()) +
        " cases failed, crashed or timed out" +
        (counts.not_supported_uncertifiable > 0
             ? ", " + std::to_string(counts.not_supported_uncertifiable) +
                   " need a kernel kind or op the device lacks"
             : "") +
        (counts.pass == 0 ? ", none passed" : "");
  } else {
    verdict.summary =
        "tier " + std::to_string(requested_tier) + " passes, but " +
        std::to_string(verdict.corpus.Broken()) + " corpus files failed";
  }
  return verdict;
}

std::string ClosingLine(const StatusCounts& counts) {
  return std::to_string(counts.pass) + " passed, " +
         std::to_string(counts.Broken()) + " failed, " +
         std::to_string(counts.not_supported) + " skipped";
}

}  // namespace phal::conformance
