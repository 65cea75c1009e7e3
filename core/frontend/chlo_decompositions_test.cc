// The chlo decompositions against values computed independently (std::
// math in double, and JAX where noted).
#include "core/frontend/chlo_decompositions.h"

#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/frontend/stablehlo_test_util.h"

namespace phal::testing {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;
using ::testing::Pointwise;

// Runs "%r = <op_text>" on %x = dense<x_values> : x_type, returning %r.
std::vector<double> Apply(const std::string& op_text, const std::string& x,
                          const std::string& type,
                          const std::string& result_type) {
  const std::string text = "func.func @main() -> " + result_type +
                           " {\n  %x = stablehlo.constant " + x + " : " + type +
                           "\n  %r = " + op_text +
                           "\n  return %r : " + result_type + "\n}";
  return FirstOutputValues(text);
}

TEST(ChloDecompositionsTest, ErfInvInvertsErf) {
  const std::vector<double> inputs = {-0.999, -0.5, 0.0, 0.3, 0.9, 0.99999};
  // Newton's method on erf in double as the reference.
  const auto erf_inv = [](double y) {
    double x = 0;
    for (int i = 0; i < 100; ++i)
      x -= (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
    return x;
  };
  std::vector<double> expected, expected_f32;
  for (double y : inputs) {
    expected.push_back(erf_inv(y));
    expected_f32.push_back(erf_inv(static_cast<float>(y)));
  }
  const std::string dense = "dense<[-0.999, -0.5, 0.0, 0.3, 0.9, 0.99999]>";
  EXPECT_THAT(Apply("chlo.erf_inv %x : tensor<6xf64> -> tensor<6xf64>", dense,
                    "tensor<6xf64>", "tensor<6xf64>"),
              Pointwise(DoubleNear(1e-11), expected));
  EXPECT_THAT(Apply("chlo.erf_inv %x : tensor<6xf32> -> tensor<6xf32>", dense,
                    "tensor<6xf32>", "tensor<6xf32>"),
              Pointwise(DoubleNear(2e-5), expected_f32));
  const std::vector<double> poles =
      Apply("chlo.erf_inv %x : tensor<2xf32> -> tensor<2xf32>",
            "dense<[1.0, -1.0]>", "tensor<2xf32>", "tensor<2xf32>");
  EXPECT_THAT(poles, ElementsAre(HUGE_VAL, -HUGE_VAL));
}

TEST(ChloDecompositionsTest, ErfAndTanMapToHloOps) {
  EXPECT_THAT(Apply("chlo.erf %x : tensor<2xf64> -> tensor<2xf64>",
                    "dense<[0.5, -1.0]>", "tensor<2xf64>", "tensor<2xf64>"),
              Pointwise(DoubleNear(1e-15), {std::erf(0.5), std::erf(-1.0)}));
  EXPECT_THAT(Apply("chlo.tan %x : tensor<2xf64> -> tensor<2xf64>",
                    "dense<[0.5, -1.0]>", "tensor<2xf64>", "tensor<2xf64>"),
              Pointwise(DoubleNear(1e-15), {std::tan(0.5), std::tan(-1.0)}));
}

TEST(ChloDecompositionsTest, ErfcIsExactWhereOneMinusErfUnderflows) {
  // erfc(9.5) and erfc(26) are below the smallest normal number of f32 and
  // f64, where 1 - erf(x) is 0. Within an ulp of std::erfc, whose value
  // the compiler may fold correctly rounded where libm is an ulp off.
  const std::vector<double> f64 =
      Apply("chlo.erfc %x : tensor<4xf64> -> tensor<4xf64>",
            "dense<[-3.0, 0.5, 5.0, 26.0]>", "tensor<4xf64>", "tensor<4xf64>");
  const std::vector<double> x = {-3.0, 0.5, 5.0, 26.0};
  ASSERT_EQ(f64.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    EXPECT_NEAR(f64[i], std::erfc(x[i]), 2.3e-16 * std::erfc(x[i]))
        << "erfc(" << x[i] << ")";
  }
  EXPECT_THAT(Apply("chlo.erfc %x : tensor<2xf32> -> tensor<2xf32>",
                    "dense<[0.5, 9.5]>", "tensor<2xf32>", "tensor<2xf32>"),
              ElementsAre(static_cast<float>(std::erfc(0.5)),
                          static_cast<float>(std::erfc(9.5))));
}

TEST(ChloDecompositionsTest, InverseTrigonometricAndHyperbolicFunctions) {
  const std::string dense = "dense<[-0.75, 0.25, 0.5]>";
  const std::string type = "tensor<3xf64>";
  const auto apply = [&](const std::string& name) {
    return Apply("chlo." + name + " %x : " + type + " -> " + type, dense, type,
                 type);
  };
  const auto expect = [](double (*f)(double)) {
    return std::vector<double>{f(-0.75), f(0.25), f(0.5)};
  };
  EXPECT_THAT(apply("atan"), Pointwise(DoubleNear(1e-14), expect(std::atan)));
  EXPECT_THAT(apply("asin"), Pointwise(DoubleNear(1e-14), expect(std::asin)));
  EXPECT_THAT(apply("acos"), Pointwise(DoubleNear(1e-14), expect(std::acos)));
  EXPECT_THAT(apply("sinh"), Pointwise(DoubleNear(1e-14), expect(std::sinh)));
  EXPECT_THAT(apply("cosh"), Pointwise(DoubleNear(1e-14), expect(std::cosh)));
  EXPECT_THAT(apply("asinh"), Pointwise(DoubleNear(1e-14), expect(std::asinh)));
  EXPECT_THAT(apply("atanh"), Pointwise(DoubleNear(1e-14), expect(std::atanh)));
  EXPECT_THAT(Apply("chlo.acosh %x : tensor<2xf64> -> tensor<2xf64>",
                    "dense<[1.5, 3.0]>", "tensor<2xf64>", "tensor<2xf64>"),
              Pointwise(DoubleNear(1e-14), {std::acosh(1.5), std::acosh(3.0)}));
}

TEST(ChloDecompositionsTest, RealHyperbolicFunctionsAreTheirChloExpansion) {
  // sinh(x) beyond |x| = 1 is exp(x + log(1/2)) - exp(log(1/2) - x) with
  // every op rounded to f32, not the correctly rounded sinh.
  const float x = -10.2856512f;
  const float log_half = static_cast<float>(std::log(0.5));
  const auto exp = [](float v) {
    return static_cast<float>(std::exp(static_cast<double>(v)));
  };
  const float expansion = exp(x + log_half) - exp(log_half - x);
  EXPECT_THAT(Apply("chlo.sinh %x : tensor<1xf32> -> tensor<1xf32>",
                    "dense<[-10.2856512]>", "tensor<1xf32>", "tensor<1xf32>"),
              ElementsAre(expansion));
  // The edges: atanh is infinite at +-1 and NaN beyond, acosh NaN below 1,
  // asinh and acosh finite where x * x overflows.
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> atanh =
      Apply("chlo.atanh %x : tensor<3xf32> -> tensor<3xf32>",
            "dense<[1.0, -1.0, 1.5]>", "tensor<3xf32>", "tensor<3xf32>");
  ASSERT_EQ(atanh.size(), 3u);
  EXPECT_EQ(atanh[0], inf);
  EXPECT_EQ(atanh[1], -inf);
  EXPECT_TRUE(std::isnan(atanh[2]));
  const std::vector<double> acosh =
      Apply("chlo.acosh %x : tensor<2xf32> -> tensor<2xf32>",
            "dense<[0.5, 3.0e38]>", "tensor<2xf32>", "tensor<2xf32>");
  ASSERT_EQ(acosh.size(), 2u);
  EXPECT_TRUE(std::isnan(acosh[0]));
  EXPECT_NEAR(acosh[1], std::acosh(3.0e38), 1e-5);
  EXPECT_THAT(Apply("chlo.asinh %x : tensor<1xf32> -> tensor<1xf32>",
                    "dense<[-3.0e38]>", "tensor<1xf32>", "tensor<1xf32>"),
              Pointwise(DoubleNear(1e-5), {std::asinh(-3.0e38)}));
}

TEST(ChloDecompositionsTest, ComplexInverseFunctionsTakeTheBranchCutsOfStd) {
  // Points on and beside the cuts of asin and atanh (real axis beyond +-1)
  // and of acosh (real axis below 1), with the sign of a zero imaginary
  // part choosing the side.
  const std::vector<std::complex<double>> z = {
      {2.0, 0.0}, {2.0, -0.0}, {-3.0, 0.5}, {0.25, -1.5}};
  const std::string type = "tensor<4xcomplex<f64>>";
  const std::string parts = "tensor<4xf64>";
  for (const char* name :
       {"asin", "acos", "atan", "asinh", "acosh", "atanh", "sinh", "cosh"}) {
    const std::string text =
        "func.func @main() -> (" + parts + ", " + parts +
        ") {\n  %x = stablehlo.constant dense<[(2.0, 0.0), (2.0, -0.0), "
        "(-3.0, 0.5), (0.25, -1.5)]> : " +
        type + "\n  %y = chlo." + name + " %x : " + type + " -> " + type +
        "\n  %re = stablehlo.real %y : (" + type + ") -> " + parts +
        "\n  %im = stablehlo.imag %y : (" + type + ") -> " + parts +
        "\n  return %re, %im : " + parts + ", " + parts + "\n}";
    StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
    ASSERT_TRUE(outputs.ok()) << outputs.status().message() << "\n" << text;
    const std::vector<double> re = Values((*outputs)[0]);
    const std::vector<double> im = Values((*outputs)[1]);
    for (std::size_t i = 0; i < z.size(); ++i) {
      const std::string f = name;
      const std::complex<double> expected = f == "asin"    ? std::asin(z[i])
                                            : f == "acos"  ? std::acos(z[i])
                                            : f == "atan"  ? std::atan(z[i])
                                            : f == "asinh" ? std::asinh(z[i])
                                            : f == "acosh" ? std::acosh(z[i])
                                            : f == "atanh" ? std::atanh(z[i])
                                            : f == "sinh"  ? std::sinh(z[i])
                                                           : std::cosh(z[i]);
      EXPECT_NEAR(re[i], expected.real(), 1e-14) << name << z[i];
      EXPECT_NEAR(im[i], expected.imag(), 1e-14) << name << z[i];
    }
  }
}

TEST(ChloDecompositionsTest, SpecialFunctionsMapToHloOps) {
  const std::string type = "tensor<2xf64>";
  const auto unary = [&](const std::string& name) {
    return Apply("chlo." + name + " %x : " + type + " -> " + type,
                 "dense<[0.5, 3.0]>", type, type);
  };
  const double euler_gamma = 0.57721566490153286061;
  EXPECT_THAT(unary("lgamma"),
              Pointwise(DoubleNear(1e-15), {std::lgamma(0.5), std::log(2.0)}));
  EXPECT_THAT(unary("digamma"),
              Pointwise(DoubleNear(1e-14),
                        {-euler_gamma - 2 * std::log(2.0), 1.5 - euler_gamma}));
  EXPECT_THAT(unary("bessel_i1e"),
              Pointwise(DoubleNear(1e-15),
                        {std::cyl_bessel_i(1.0, 0.5) * std::exp(-0.5),
                         std::cyl_bessel_i(1.0, 3.0) * std::exp(-3.0)}));
  const auto binary = [&](const std::string& name) {
    return Apply(
        "chlo." + name + " %x, %x : " + type + ", " + type + " -> " + type,
        "dense<[1.0, 2.0]>", type, type);
  };
  // zeta(2, 2) = pi^2 / 6 - 1; polygamma(1, 1) = pi^2 / 6.
  const double pi_squared_over_6 = M_PI * M_PI / 6;
  EXPECT_THAT(binary("zeta"),
              Pointwise(DoubleNear(1e-15), {HUGE_VAL, pi_squared_over_6 - 1}));
  EXPECT_THAT(binary("next_after"), ElementsAre(1.0, 2.0));
  EXPECT_NEAR(binary("polygamma")[0], pi_squared_over_6, 1e-14);
  StatusOr<std::vector<Literal>> step = RunStableHlo(
      "func.func @main() -> tensor<1xf32> {\n"
      "  %x = stablehlo.constant dense<1.0> : tensor<1xf32>\n"
      "  %y = stablehlo.constant dense<2.0> : tensor<1xf32>\n"
      "  %r = chlo.next_after %x, %y : tensor<1xf32>, tensor<1xf32> -> "
      "tensor<1xf32>\n"
      "  return %r : tensor<1xf32>\n}");
  ASSERT_TRUE(step.ok()) << step.status().message();
  EXPECT_THAT(Values((*step)[0]), ElementsAre(std::nextafter(1.0f, 2.0f)));
}

TEST(ChloDecompositionsTest, IsInfFamily) {
  const std::string dense = "dense<[0x7F800000, 0xFF800000, 1.0]>";
  EXPECT_THAT(Apply("chlo.is_inf %x : tensor<3xf32> -> tensor<3xi1>", dense,
                    "tensor<3xf32>", "tensor<3xi1>"),
              ElementsAre(1, 1, 0));
  EXPECT_THAT(Apply("chlo.is_pos_inf %x : tensor<3xf32> -> tensor<3xi1>", dense,
                    "tensor<3xf32>", "tensor<3xi1>"),
              ElementsAre(1, 0, 0));
  EXPECT_THAT(Apply("chlo.is_neg_inf %x : tensor<3xf32> -> tensor<3xi1>", dense,
                    "tensor<3xf32>", "tensor<3xi1>"),
              ElementsAre(0, 1, 0));
}

TEST(ChloDecompositionsTest, TopKReturnsTheLargestValuesAndTheirIndices) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x2xf32>, tensor<2x2xi32>) {
      %x = stablehlo.constant dense<[[1.0, 5.0, 3.0], [2.0, 2.0, 9.0]]> : tensor<2x3xf32>
      %v, %i = chlo.top_k(%x, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)
      return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(5, 3, 9, 2));
  // Ties keep their order: the first 2.0 wins.
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(1, 2, 2, 0));
}

TEST(ChloDecompositionsTest, BroadcastingBinaryOps) {
  const std::string text = R"(
    func.func @main() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>) {
      %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
      %row = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
      %col = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %0 = chlo.broadcast_add %m, %row : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
      %1 = chlo.broadcast_multiply %col, %m {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      %2 = chlo.broadcast_compare %m, %row {comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
      return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(11, 22, 33, 14, 25, 36));
  EXPECT_THAT(Values((*outputs)[1]), ElementsAre(1, 2, 3, 8, 10, 12));
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(0, 0, 0, 0, 0, 0));
}

TEST(ChloDecompositionsTest, ConstantLikeAndMulhi) {
  EXPECT_THAT(Apply("\"chlo.constant_like\"(%x) {value = 2.5 : f32} : "
                    "(tensor<3xf32>) -> tensor<3xf32>",
                    "dense<0.0>", "tensor<3xf32>", "tensor<3xf32>"),
              ElementsAre(2.5, 2.5, 2.5));
  // High halves of 64-bit products: (2^62 * 8) >> 64 = 2, and signed
  // products of mixed signs.
  const std::string text = R"(
    func.func @main() -> (tensor<3xi64>, tensor<2xui64>, tensor<2xi32>) {
      %a = stablehlo.constant dense<[4611686018427387904, -4611686018427387904, -3]> : tensor<3xi64>
      %b = stablehlo.constant dense<[8, 8, 5]> : tensor<3xi64>
      %0 = chlo.mulhi %a, %b : tensor<3xi64>
      %c = stablehlo.constant dense<[18446744073709551615, 4294967296]> : tensor<2xui64>
      %d = stablehlo.constant dense<[18446744073709551615, 4294967296]> : tensor<2xui64>
      %1 = chlo.mulhi %c, %d : tensor<2xui64>
      %e = stablehlo.constant dense<[268435456, -268435456]> : tensor<2xi32>
      %f = stablehlo.constant dense<[16, 16]> : tensor<2xi32>
      %2 = chlo.mulhi %e, %f : tensor<2xi32>
      return %0, %1, %2 : tensor<3xi64>, tensor<2xui64>, tensor<2xi32>
    })";
  StatusOr<std::vector<Literal>> outputs = RunStableHlo(text);
  ASSERT_TRUE(outputs.ok()) << outputs.status().message();
  EXPECT_THAT(Values((*outputs)[0]), ElementsAre(2, -2, -1));
  EXPECT_EQ(static_cast<uint64_t>((*outputs)[1].GetAsInt64(0)),
            18446744073709551614u);
  EXPECT_EQ((*outputs)[1].GetAsInt64(1), 1);
  EXPECT_THAT(Values((*outputs)[2]), ElementsAre(1, -1));
}

}  // namespace
}  // namespace phal::testing
