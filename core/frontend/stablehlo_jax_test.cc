// Programs JAX lowered to StableHLO (core/frontend/testdata/stablehlo,
// written by jax.jit(f).lower(...).as_text() with JAX 0.10): each runs on
// the reference interpreter with the saved inputs and must reproduce the
// outputs JAX computed.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/frontend/stablehlo_test_util.h"
#include "core/io/npy.h"

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
                                           "jax_scipy_special", "jax_moe"));

}  // namespace
}  // namespace phal
