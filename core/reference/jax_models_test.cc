// Real models exported from JAX (samples/models/jax: HLO and StableHLO
// text, the inputs and the outputs XLA:CPU computed, as .npy) run on the
// reference interpreter from either text and agree with XLA: integers and
// booleans exactly, floats within a tolerance that allows XLA's fast
// transcendental approximations.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal::testing {
namespace {

class JaxModelTest : public ::testing::TestWithParam<std::string> {};

void ExpectReferenceMatchesXla(const HloModule& module, const JaxModel& model) {
  StatusOr<Literal> result = Evaluate(module, model.arguments);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<Literal> leaves;
  FlattenLiteral(*result, &leaves);
  ASSERT_EQ(leaves.size(), model.results.size())
      << "the reference returned another number of outputs than XLA";
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Literal& expected = model.results[i];
    EXPECT_TRUE(
        Matches(leaves[i], expected, XlaTolerance(expected.element_type())))
        << "output " << i
        << ": XLA computed the expected, the reference the "
           "actual";
  }
}

TEST_P(JaxModelTest, ReferenceMatchesXla) {
  StatusOr<JaxModel> model = ReadJaxModel(GetParam());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(model->text, GetParam() + ".hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(VerifyModule(**module).ok());
  ExpectReferenceMatchesXla(**module, *model);
}

TEST_P(JaxModelTest, ReferenceMatchesXlaFromStableHlo) {
  StatusOr<JaxModel> model = ReadJaxModel(GetParam(), ".mlir");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<StableHloModule> program =
      ParseStableHlo(model->text, GetParam() + ".mlir");
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  ASSERT_TRUE(VerifyModule(*program->module).ok());
  ExpectReferenceMatchesXla(*program->module, *model);
}

INSTANTIATE_TEST_SUITE_P(Models, JaxModelTest, ::testing::ValuesIn(kJaxModels));

}  // namespace
}  // namespace phal::testing
