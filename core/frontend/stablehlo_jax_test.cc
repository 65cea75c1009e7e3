// Programs JAX lowered to StableHLO (core/frontend/testdata/stablehlo,
// written by jax.jit(f).lower(...).as_text() with JAX 0.10), and some also
// as XLA's HLO text: each runs on the reference interpreter with the saved
// inputs and must reproduce the outputs JAX computed.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_test_util.h"
#include "core/hlo/verifier.h"
#include "core/io/npy.h"
#include "core/reference/interpreter.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal {
namespace {

std::string TestdataPath(const std::string& file) {
  return std::string(PHAL_TEST_SOURCE_DIR) +
         "/core/frontend/testdata/stablehlo/" + file;
}

class JaxStableHloTest : public ::testing::TestWithParam<const char*> {};

TEST_P(JaxStableHloTest, ReproducesJaxOutputs) {
  const std::string name = GetParam();
  std::ifstream in(TestdataPath(name + ".mlir"));
  std::stringstream text;
  text << in.rdbuf();
  std::vector<Literal> inputs;
  for (int i = 0; std::filesystem::exists(
           TestdataPath(name + ".input_" + std::to_string(i) + ".npy"));
       ++i) {
    StatusOr<Literal> input =
        ReadNpy(TestdataPath(name + ".input_" + std::to_string(i) + ".npy"));
    ASSERT_TRUE(input.ok()) << input.status().message();
    inputs.push_back(std::move(input).value());
  }
  StatusOr<std::vector<Literal>> outputs =
      testing::RunStableHlo(text.str(), "main", inputs);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  for (std::size_t i = 0; i < outputs->size(); ++i) {
    StatusOr<Literal> expected =
        ReadNpy(TestdataPath(name + ".expected_" + std::to_string(i) + ".npy"));
    ASSERT_TRUE(expected.ok()) << expected.status().message();
    const Literal& actual = (*outputs)[i];
    ASSERT_TRUE(actual.shape().Compatible(expected->shape()))
        << "output " << i << ": " << actual.shape().ToString() << " vs "
        << expected->shape().ToString();
    for (int64_t e = 0; e < actual.ElementCount(); ++e) {
      const double want = expected->GetAsDouble(e);
      EXPECT_NEAR(actual.GetAsDouble(e), want, 1e-5 + 1e-5 * std::fabs(want))
          << name << " output " << i << " element " << e;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaxStableHloTest,
                         ::testing::Values("jax_mlp", "jax_control",
                                           "jax_special", "jax_conv",
                                           "jax_scipy_special", "jax_moe",
                                           "jax_gelu_transformer"));

class JaxHloTextTest : public ::testing::TestWithParam<const char*> {};

// The HLO text of the same program, on the same inputs, within XLA's
// tolerance of its outputs.
TEST_P(JaxHloTextTest, ReproducesXlaOutputs) {
  const std::string base = TestdataPath(GetParam());
  const std::string text = testing::ReadTextFile(base + ".hlo");
  ASSERT_FALSE(text.empty()) << base << ".hlo";
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(text, std::string(GetParam()) + ".hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(VerifyModule(**module).ok());
  StatusOr<std::vector<Literal>> inputs =
      testing::ReadNpySequence(base, "input");
  StatusOr<std::vector<Literal>> expected =
      testing::ReadNpySequence(base, "expected");
  ASSERT_TRUE(inputs.ok()) << inputs.status().ToString();
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  StatusOr<Literal> result = Evaluate(**module, *inputs);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> leaves;
  testing::FlattenLiteral(*result, &leaves);
  ASSERT_EQ(leaves.size(), expected->size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Literal& want = (*expected)[i];
    EXPECT_TRUE(testing::Matches(leaves[i], want,
                                 testing::XlaTolerance(want.element_type())))
        << GetParam() << " output " << i
        << ": XLA computed the expected, the reference the actual";
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaxHloTextTest,
                         ::testing::Values("jax_gelu_transformer", "jax_moe",
                                           "jax_scipy_special"));

}  // namespace
}  // namespace phal
