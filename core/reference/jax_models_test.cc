// Real models exported from JAX (samples/models/jax: HLO text, the inputs
// and the outputs XLA:CPU computed, as .npy) run on the reference
// interpreter and agree with XLA: integers and booleans exactly, floats
// within a tolerance that allows XLA's fast transcendental approximations.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal::testing {
namespace {

class JaxModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(JaxModelTest, ReferenceMatchesXla) {
  StatusOr<JaxModel> model = ReadJaxModel(GetParam());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(model->text, GetParam() + ".hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(VerifyModule(**module).ok());
  StatusOr<Literal> result = Evaluate(**module, model->arguments);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> leaves;
  FlattenLiteral(*result, &leaves);
  ASSERT_EQ(leaves.size(), model->results.size())
      << "the reference returned another number of outputs than XLA";
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Literal& expected = model->results[i];
    EXPECT_TRUE(
        Matches(leaves[i], expected, XlaTolerance(expected.element_type())))
        << "output " << i
        << ": XLA computed the expected, the reference the "
           "actual";
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaxModelTest, ::testing::ValuesIn(kJaxModels));

}  // namespace
}  // namespace phal::testing
