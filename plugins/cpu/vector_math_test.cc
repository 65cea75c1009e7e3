// The f32 exp, tanh, logistic and erf that kernels compute inline and
// vectorized (sdk/emitters/llvm/inline_math.h), run as a loop kernel on the cpu
// plugin and measured against the exact value (long double) and against the
// math library the reference interpreter agrees with (math/math_library.h).
// They compute in f32 arithmetic, within their stated ulp.
// PHAL_VECTOR_MATH_SWEEP=1 widens the random inputs to every 64th f32 of
// each function's range (about 2^26 per function, a minute or so).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/emitters/llvm/math/math_library.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_test.h"

namespace phal::cpu {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

struct Function {
  const char* name;
  phal_kir_op_t op;
  float (*library)(float);
  long double (*exact)(long double);
  float lowest, highest;  // the inputs whose results are not 0 or +-1
  double bound;           // the error allowed, in ulp
};

long double Exp(long double x) { return std::exp(x); }
long double Tanh(long double x) { return std::tanh(x); }
long double Logistic(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double Erf(long double x) { return std::erf(x); }

// The bounds are the errors measured over every 64th f32 of each range
// (PHAL_VECTOR_MATH_SWEEP=1: 0.914, 1.328, 2.402 and 1.188 ulp), rounded up.
const Function kFunctions[] = {
    {"exp", PHAL_KIR_OP_EXP, phal_math_exp_f32, Exp, -104.0f, 89.0f, 1.0},
    {"tanh", PHAL_KIR_OP_TANH, phal_math_tanh_f32, Tanh, -10.0f, 10.0f, 1.5},
    {"logistic", PHAL_KIR_OP_LOGISTIC, phal_math_logistic_f32, Logistic,
     -104.0f, 20.0f, 2.5},
    {"erf", PHAL_KIR_OP_ERF, phal_math_erf_f32, Erf, -5.0f, 5.0f, 1.5},
};

// |result - exact| in ulp of the f32 nearest `exact`; 0 for matching NaNs
// and infinities, infinite for a wrong special value.
double UlpError(float result, long double exact) {
  if (std::isnan(exact)) return std::isnan(result) ? 0 : INFINITY;
  const float rounded = static_cast<float>(exact);
  if (std::isinf(rounded)) return result == rounded ? 0 : INFINITY;
  if (std::isnan(result) || std::isinf(result)) return INFINITY;
  const float next = std::nextafter(std::fabs(rounded),
                                    std::numeric_limits<float>::infinity());
  const long double ulp = static_cast<long double>(next) -
                          std::fabs(static_cast<long double>(rounded));
  return static_cast<double>(
      std::fabs(static_cast<long double>(result) - exact) / ulp);
}

std::vector<float> Inputs(const Function& function) {
  std::vector<float> inputs = {
      0.0f,   -0.0f,   1e-45f,   -1e-45f,   1e-38f,        -1e-38f,
      1e-10f, -1e-10f, 0.03125f, -0.03125f, 0.0312499981f, -0.0312499981f,
      0.5f,   -0.5f,   1.0f,     -1.0f,     20.0f,         -20.0f,
      88.72f, 88.73f,  89.0f,    -103.9f,   -104.0f,       -110.0f,
      200.0f, -200.0f, 3e38f,    -3e38f,    INFINITY,      -INFINITY,
      NAN,    -NAN};
  const bool sweep = std::getenv("PHAL_VECTOR_MATH_SWEEP") != nullptr;
  if (sweep) {
    // Every 64th f32 between the range's ends, both signs.
    const uint32_t top = std::bit_cast<uint32_t>(
        std::max(std::fabs(function.lowest), function.highest));
    for (uint32_t bits = 0; bits <= top; bits += 64) {
      const float value = std::bit_cast<float>(bits);
      if (value <= function.highest) inputs.push_back(value);
      if (-value >= function.lowest) inputs.push_back(-value);
    }
  } else {
    std::mt19937 random(20261124);
    std::uniform_real_distribution<float> uniform(function.lowest,
                                                  function.highest);
    // Log-uniform magnitudes reach the small inputs where tanh and exp
    // change formula or flush.
    std::uniform_real_distribution<float> exponent(-40.0f, 6.0f);
    for (int i = 0; i < (1 << 18); ++i) {
      inputs.push_back(uniform(random));
      const float small = std::exp2(exponent(random));
      inputs.push_back((i & 1) ? small : -small);
    }
  }
  return inputs;
}

using VectorMathTest = PluginTest;

TEST_F(VectorMathTest, ExpTanhLogisticAndErfStayWithinTheirBounds) {
  for (const Function& function : kFunctions) {
    const std::vector<float> inputs = Inputs(function);
    const int64_t count = static_cast<int64_t>(inputs.size());
    KirKernel kernel =
        UnaryLoopKernel(kF32, {count}, [&](KirBody& body, uint32_t x) {
          return body.Add(function.op, kF32, {x});
        });
    std::vector<std::vector<uint8_t>> contents = {
        ToBytes(inputs), std::vector<uint8_t>(inputs.size() * 4, 0xEE)};
    Run(Emit(kernel.Desc()), contents);
    const std::vector<float> results = FromBytes<float>(contents[1]);
    ASSERT_EQ(results.size(), inputs.size());

    double worst = 0;
    float worst_input = 0;
    int64_t differ_from_library = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const double error = UlpError(results[i], function.exact(inputs[i]));
      if (error > worst) {
        worst = error;
        worst_input = inputs[i];
      }
      const float library = function.library(inputs[i]);
      const bool same = std::bit_cast<uint32_t>(library) ==
                            std::bit_cast<uint32_t>(results[i]) ||
                        (std::isnan(library) && std::isnan(results[i]));
      if (!same) ++differ_from_library;
    }
    std::printf(
        "%s: %zu inputs, worst %.6f ulp (at %a), %lld differ from "
        "the library\n",
        function.name, inputs.size(), worst, worst_input,
        static_cast<long long>(differ_from_library));
    EXPECT_LE(worst, function.bound) << function.name << " at " << worst_input;
  }
}

}  // namespace
}  // namespace phal::cpu
