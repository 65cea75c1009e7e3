// The corpus as a specification: unique ids, every tier populated, every
// op of tiers 1-3 present, deterministic inputs that contain the edge
// values, and every numeric case valid for the reference interpreter.
#include "conformance/cases/corpus.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>

#include "conformance/cases/edge_values.h"
#include "conformance/cases/input_spec.h"
#include "core/frontend/hlo_parser.h"
#include "core/reference/interpreter.h"
#include "core/testing/elementwise_ops.h"

namespace phal::conformance {
namespace {

const std::vector<Case>& Corpus() {
  static const std::vector<Case> cases = BuiltInCases();
  return cases;
}

TEST(Corpus, IdsAreUniqueAndEveryCaseHasARowColumnAndTier) {
  std::set<std::string> ids;
  for (const Case& c : Corpus()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_FALSE(c.op.empty()) << c.id;
    EXPECT_FALSE(c.dtype.empty()) << c.id;
    EXPECT_GE(c.tier, 1) << c.id;
    EXPECT_LE(c.tier, 3) << c.id;
  }
}

TEST(Corpus, CoversEveryOpOfTiersOneToThree) {
  std::set<std::string> ops;
  for (const Case& c : Corpus()) ops.insert(c.op);
  std::set<std::string> expected = {"real",
                                    "imag",
                                    "complex",
                                    "compare",
                                    "select",
                                    "clamp",
                                    "convert",
                                    "bitcast-convert",
                                    "reduce-precision",
                                    "map",
                                    "broadcast",
                                    "reshape",
                                    "transpose",
                                    "slice",
                                    "dynamic-slice",
                                    "dynamic-update-slice",
                                    "concatenate",
                                    "pad",
                                    "reverse",
                                    "gather",
                                    "scatter",
                                    "iota",
                                    "copy",
                                    "reduce",
                                    "reduce-window",
                                    "select-and-scatter",
                                    "dot",
                                    "convolution",
                                    "sort",
                                    "topk",
                                    "while",
                                    "conditional",
                                    "call",
                                    "batch-norm-inference",
                                    "batch-norm-training",
                                    "batch-norm-grad",
                                    "model.mlp",
                                    "model.transformer_block",
                                    "model.convnet",
                                    "model.long_while",
                                    "model.tuple_outputs",
                                    "api.version",
                                    "api.leaks"};
  for (const std::vector<std::string>* elementwise :
       {&::phal::testing::kFloatUnaryOps, &::phal::testing::kFloatBinaryOps,
        &::phal::testing::kIntegerUnaryOps,
        &::phal::testing::kIntegerBinaryOps}) {
    expected.insert(elementwise->begin(), elementwise->end());
  }
  for (const std::string& op : expected) {
    EXPECT_EQ(ops.count(op), 1u) << "no case for " << op;
  }
}

TEST(Corpus, EveryTierHasCases) {
  int per_tier[4] = {0, 0, 0, 0};
  for (const Case& c : Corpus()) ++per_tier[c.tier];
  EXPECT_GT(per_tier[1], 500);
  EXPECT_GT(per_tier[2], 30);
  EXPECT_GT(per_tier[3], 500);
}

TEST(Inputs, AreAPureFunctionOfShapeSpecAndSeed) {
  const Shape shape(PHAL_ELEMENT_TYPE_BF16, {7, 13});
  EXPECT_EQ(MakeInput(shape, RandomValues(), 42),
            MakeInput(shape, RandomValues(), 42));
  EXPECT_NE(MakeInput(shape, RandomValues(), 42),
            MakeInput(shape, RandomValues(), 43));
}

TEST(Inputs, EdgeValuesHoldTheSpecialFloatsOfEachType) {
  for (ElementType type : {PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_BF16,
                           PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
    const Literal edges =
        MakeInput(Shape(type, {EdgeValueCount(type)}), EdgeValues(), 0);
    bool nan = false, inf = false, negative_zero = false, subnormal = false;
    for (int64_t i = 0; i < edges.ElementCount(); ++i) {
      const double v = edges.GetAsDouble(i);
      nan |= std::isnan(v);
      inf |= std::isinf(v);
      negative_zero |= v == 0 && std::signbit(v);
      subnormal |= v != 0 && std::fabs(v) < FloatEdgeValues(type)[13];
    }
    EXPECT_TRUE(nan && inf && negative_zero && subnormal)
        << ElementTypeName(type);
  }
}

TEST(Inputs, BinaryEdgePhasesMeetEveryPair) {
  const Shape shape(PHAL_ELEMENT_TYPE_S8,
                    {EdgeValueCount(PHAL_ELEMENT_TYPE_S8) *
                     EdgeValueCount(PHAL_ELEMENT_TYPE_S8)});
  const Literal lhs = MakeInput(shape, EdgeValues(0), 0);
  const Literal rhs = MakeInput(shape, EdgeValues(1), 0);
  std::set<std::pair<int64_t, int64_t>> pairs;
  for (int64_t i = 0; i < shape.ElementCount(); ++i) {
    pairs.insert({lhs.GetAsInt64(i), rhs.GetAsInt64(i)});
  }
  EXPECT_EQ(static_cast<int64_t>(pairs.size()), shape.ElementCount());
  EXPECT_EQ(pairs.count({-128, -1}), 1u) << "INT_MIN / -1 is among the pairs";
}

// A case the reference cannot evaluate would blame every plugin for a bug
// of the suite.
TEST(Corpus, EveryNumericCaseParsesAndEvaluatesOnTheReference) {
  std::vector<const Case*> numeric;
  for (const Case& c : Corpus()) {
    if (c.kind == CaseKind::kNumeric) numeric.push_back(&c);
  }
  std::atomic<std::size_t> next{0};
  std::mutex mutex;
  std::vector<std::string> failures;
  auto worker = [&] {
    for (std::size_t i = next++; i < numeric.size(); i = next++) {
      const Case& c = *numeric[i];
      auto module = ParseHloText(c.module_text, c.id);
      std::string failure;
      if (!module.ok()) {
        failure = module.status().ToString();
      } else {
        const HloComputation& entry = *(*module)->entry_computation();
        std::vector<Literal> arguments;
        for (int64_t p = 0; p < entry.num_parameters(); ++p) {
          const auto index = static_cast<std::size_t>(p);
          arguments.push_back(MakeInput(
              entry.parameter_instruction(p)->shape(),
              index < c.inputs.size() ? c.inputs[index] : RandomValues(),
              c.seed + static_cast<uint64_t>(p)));
        }
        auto result = Evaluate(**module, arguments);
        if (!result.ok()) failure = result.status().ToString();
      }
      if (failure.empty()) continue;
      std::lock_guard<std::mutex> lock(mutex);
      failures.push_back(c.id + ": " + failure);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < std::max(2u, std::thread::hardware_concurrency());
       ++t) {
    threads.emplace_back(worker);
  }
  worker();
  for (std::thread& thread : threads) thread.join();
  for (const std::string& failure : failures) ADD_FAILURE() << failure;
}

}  // namespace
}  // namespace phal::conformance
