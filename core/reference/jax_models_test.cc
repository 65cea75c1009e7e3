// Real models exported from JAX (samples/models/jax: HLO text, the inputs
// and the outputs XLA:CPU computed, as .npy) run on the reference
// interpreter and agree with XLA: integers and booleans exactly, floats
// within a tolerance that allows XLA's fast transcendental approximations.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/io/npy.h"
#include "core/reference/interpreter.h"

namespace phal {
namespace {

const std::string kModels =
    std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/";

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Absolute plus relative tolerance per element type; 0 means exact.
double Tolerance(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F64:
      return 1e-12;
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_C64:
      return 2e-5;
    case PHAL_ELEMENT_TYPE_F16:
      return 1e-3;
    case PHAL_ELEMENT_TYPE_BF16:
      return 8e-3;
    default:
      return 0;
  }
}

void ExpectClose(const Literal& expected, const Literal& actual,
                 const std::string& what) {
  ASSERT_EQ(expected.shape().ToString(), actual.shape().ToString()) << what;
  double tolerance = Tolerance(expected.element_type());
  for (int64_t i = 0; i < expected.ElementCount(); ++i) {
    if (tolerance == 0) {
      ASSERT_EQ(expected.GetAsInt64(i), actual.GetAsInt64(i))
          << what << " element " << i;
      continue;
    }
    double want = expected.GetAsDouble(i);
    double got = actual.GetAsDouble(i);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << what << " element " << i;
      continue;
    }
    ASSERT_LE(std::fabs(want - got), tolerance * (1 + std::fabs(want)))
        << what << " element " << i << ": XLA computed " << want
        << ", the reference " << got;
  }
}

class JaxModelTest : public ::testing::TestWithParam<std::string> {};

TEST_P(JaxModelTest, ReferenceMatchesXla) {
  const std::string base = kModels + GetParam();
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(ReadFile(base + ".hlo"), base + ".hlo");
  ASSERT_TRUE(module.ok()) << module.status().ToString();
  ASSERT_TRUE(VerifyModule(**module).ok());
  std::vector<Literal> arguments;
  for (int i = 0;; ++i) {
    std::string path = base + ".input_" + std::to_string(i) + ".npy";
    if (!std::filesystem::exists(path)) break;
    StatusOr<Literal> input = ReadNpy(path);
    ASSERT_TRUE(input.ok()) << input.status().ToString();
    arguments.push_back(std::move(*input));
  }
  StatusOr<Literal> result = Evaluate(**module, arguments);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<const Literal*> leaves;
  if (result->IsTuple()) {
    for (const Literal& element : result->tuple_elements()) {
      leaves.push_back(&element);
    }
  } else {
    leaves.push_back(&*result);
  }
  for (size_t i = 0; i < leaves.size(); ++i) {
    std::string path = base + ".output_" + std::to_string(i) + ".npy";
    StatusOr<Literal> expected = ReadNpy(path);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    ExpectClose(*expected, *leaves[i], path);
  }
  EXPECT_FALSE(std::filesystem::exists(base + ".output_" +
                                       std::to_string(leaves.size()) + ".npy"))
      << "the reference returned fewer outputs than XLA";
}

INSTANTIATE_TEST_SUITE_P(Models, JaxModelTest,
                         ::testing::Values("mlp", "transformer_block",
                                           "convnet", "while_loop",
                                           "sort_gather", "integer_ops",
                                           "f64_ops", "mixed_precision"));

}  // namespace
}  // namespace phal
