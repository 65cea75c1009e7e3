// The GLSL math library (glsl_math.glsl) run on the host through
// glsl_math_shim.h: every function's error in ulp against glibc's long
// double functions on 2^18 random inputs and the conformance suite's edge
// values, its special values against glibc's, the block resolution of
// GlslMathFunctions, and the whole text compiled to SPIR-V and validated
// (when glslangValidator and spirv-val are on PATH).
//
// This file is compiled with -ffp-contract=off: `precise` is empty in C++.
#include "sdk/emitters/source/glsl_math.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/emitters/source/glsl_math_shim.h"

namespace phal::glsl_math_host {
#include "sdk/emitters/source/glsl_math.glsl"
}  // namespace phal::glsl_math_host

// The library again over a builtin sqrt up to 2 ulp off, as Vulkan allows.
namespace phal::glsl_math_inexact_sqrt {
using glsl_math_host::abs;
using glsl_math_host::doubleBitsToUint64;
using glsl_math_host::floor;
using glsl_math_host::fma;
using glsl_math_host::isinf;
using glsl_math_host::isnan;
using glsl_math_host::max;
using glsl_math_host::min;
using glsl_math_host::roundEven;
using glsl_math_host::uint;
using glsl_math_host::uint64BitsToDouble;
double sqrt(double x) {
  double y = std::sqrt(x);
  int steps = static_cast<int>(doubleBitsToUint64(x) % 5) - 2;
  for (int i = 0; i < steps; ++i) y = std::nextafter(y, INFINITY);
  for (int i = 0; i > steps; --i) y = std::nextafter(y, 0.0);
  return y;
}
#include "sdk/emitters/source/glsl_math.glsl"
}  // namespace phal::glsl_math_inexact_sqrt

namespace phal::source_emitter {
namespace {

namespace host = ::phal::glsl_math_host;

constexpr int kRandomInputs = 1 << 18;

// |got - ref| in units of the last place of the binade of `ref` (2^-1074
// below the normal range). Infinite and NaN results must match exactly.
double UlpError(double got, long double ref) {
  double rounded = static_cast<double>(ref);
  if (std::isnan(got) || std::isnan(rounded)) {
    return std::isnan(got) && std::isnan(rounded) ? 0 : 1e30;
  }
  if (std::isinf(got) || std::isinf(rounded)) return got == rounded ? 0 : 1e30;
  int exponent = 0;
  std::frexp(ref == 0 ? 0x1p-1074L : ref, &exponent);
  long double ulp = std::ldexp(1.0L, std::max(exponent - 53, -1074));
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) /
                             ulp);
}

// NaN for NaN, otherwise bit-identical for zeros and infinities.
bool SameSpecial(double got, double want) {
  if (std::isnan(got) || std::isnan(want)) {
    return std::isnan(got) && std::isnan(want);
  }
  if (want == 0 || std::isinf(want) || got == 0 || std::isinf(got)) {
    return got == want && std::signbit(got) == std::signbit(want);
  }
  return true;
}

std::vector<double> EdgeValues() {
  const double max = 1.7976931348623157e308;
  const double max32 = 3.4028234663852886e38;
  std::vector<double> values = {
      0.0, 1.0, 0.5, -2.5, 3.0, 1.0 + 0x1p-52, max, 0x1p-1022, 0x1p-1074, 100.0,
      -0.75, INFINITY, NAN, max32, 0x1p-126, 0x1p-149,
      // Thresholds: exp's overflow and underflow, tanh's and erf's
      // saturation, a hard case of the trigonometric reduction.
      709.782712893384, 709.7827128933841, -745.1332191019411,
      -745.1332191019412, -708.4, 22.0, 5.9, 6.0, 0.25, 1e22,
      6381956970095103.0 * 0x1p797, 0x1p-27, 1e-300};
  std::vector<double> all;
  for (double v : values) {
    all.push_back(v);
    all.push_back(-v);
  }
  return all;
}

// A random double with a uniformly random exponent in [lo, hi) and sign.
double LogUniform(std::mt19937_64& rng, int lo, int hi) {
  double significand = 1.0 + static_cast<double>(rng() >> 11) * 0x1p-53;
  double x = std::ldexp(significand, lo + static_cast<int>(rng() % (hi - lo)));
  return (rng() & 1) ? -x : x;
}

struct Unary {
  const char* name;
  double (*function)(double);
  long double (*reference)(long double);
  double (*special)(double);
  // Uniform inputs in [lo, hi], or log-uniform over all doubles.
  double lo, hi;
  bool log_uniform;
  double bound;
};

const Unary kUnary[] = {
    {"exp", host::phal_m_exp_f64, expl, exp, -746, 710, false, 1},
    {"expm1", host::phal_m_expm1_f64, expm1l, expm1, -40, 45, false, 1},
    {"log", host::phal_m_log_f64, logl, log, 0, 0, true, 1},
    {"log1p", host::phal_m_log1p_f64, log1pl, log1p, -1, 1e6, false, 1},
    {"sin", host::phal_m_sin_f64, sinl, sin, 0, 0, true, 1},
    {"cos", host::phal_m_cos_f64, cosl, cos, 0, 0, true, 1},
    {"tan", host::phal_m_tan_f64, tanl, tan, 0, 0, true, 1},
    {"tanh", host::phal_m_tanh_f64, tanhl, tanh, -25, 25, false, 1},
    {"sinh", host::phal_m_sinh_f64, sinhl, sinh, -712, 712, false, 1},
    {"cosh", host::phal_m_cosh_f64, coshl, cosh, -712, 712, false, 1},
    {"atan", host::phal_m_atan_f64, atanl, atan, 0, 0, true, 1},
    {"erf", host::phal_m_erf_f64, erfl, erf, -7, 7, false, 1},
    {"cbrt", host::phal_m_cbrt_f64, cbrtl, cbrt, 0, 0, true, 1},
    {"sqrt", host::phal_m_sqrt_f64, sqrtl, sqrt, 0, 0, true, 0.5},
};

class GlslMathUnaryTest : public testing::TestWithParam<Unary> {};

TEST_P(GlslMathUnaryTest, WithinBoundAndSpecialValues) {
  const Unary& u = GetParam();
  std::mt19937_64 rng(0x5eed);
  double worst = 0, worst_x = 0;
  auto check = [&](double x) {
    double error = UlpError(u.function(x), u.reference(x));
    if (error > worst) {
      worst = error;
      worst_x = x;
    }
  };
  for (double x : EdgeValues()) {
    check(x);
    double got = u.function(x), want = u.special(x);
    EXPECT_TRUE(SameSpecial(got, want))
        << u.name << "(" << x << ") = " << got << ", glibc " << want;
  }
  std::uniform_real_distribution<double> uniform(u.lo, u.hi);
  std::uniform_real_distribution<double> small(-3, 3);
  for (int i = 0; i < kRandomInputs; ++i) {
    double x = u.log_uniform ? LogUniform(rng, -1074, 1024) : uniform(rng);
    // Every fourth input near the origin, where most functions change
    // formula.
    check(i % 4 == 3 ? small(rng) : x);
  }
  std::printf("%-6s f64 max error %.3f ulp at %.17g\n", u.name, worst, worst_x);
  EXPECT_LE(worst, u.bound + 1e-3) << u.name << " at " << worst_x;
}

INSTANTIATE_TEST_SUITE_P(Functions, GlslMathUnaryTest,
                         testing::ValuesIn(kUnary),
                         [](const testing::TestParamInfo<Unary>& info) {
                           return std::string(info.param.name);
                         });

struct Binary {
  const char* name;
  double (*function)(double, double);
  long double (*reference)(long double, long double);
  double (*special)(double, double);
  double bound;
};

const Binary kBinary[] = {
    {"atan2", host::phal_m_atan2_f64, atan2l, atan2, 1},
    {"pow", host::phal_m_pow_f64, powl, pow, 1},
    {"hypot", host::phal_m_hypot_f64, hypotl, hypot, 1},
};

class GlslMathBinaryTest : public testing::TestWithParam<Binary> {};

TEST_P(GlslMathBinaryTest, WithinBoundAndSpecialValues) {
  const Binary& b = GetParam();
  const bool is_pow = std::string(b.name) == "pow";
  std::mt19937_64 rng(0x5eed);
  double worst = 0, worst_x = 0, worst_y = 0;
  auto check = [&](double x, double y) {
    double error = UlpError(b.function(x, y), b.reference(x, y));
    if (error > worst) {
      worst = error;
      worst_x = x;
      worst_y = y;
    }
  };
  std::vector<double> edges = EdgeValues();
  for (double x : edges) {
    for (double y : edges) {
      check(x, y);
      double got = b.function(x, y), want = b.special(x, y);
      EXPECT_TRUE(SameSpecial(got, want))
          << b.name << "(" << x << ", " << y << ") = " << got << ", glibc "
          << want;
    }
  }
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < kRandomInputs / 2; ++i) {
    double x, y;
    if (is_pow) {
      // |y log x| up to 710: results over the whole range, overflow and
      // underflow included; a quarter near 1, an eighth negative x with
      // integer y.
      x = std::fabs(LogUniform(rng, -100, 100));
      double reach = 710 / std::fabs(std::log(x));
      y = (2 * unit(rng) - 1) * reach;
      if (i % 4 == 0) {
        x = 4 * unit(rng);
        y = 100 * unit(rng) - 50;
      }
      if (i % 8 == 1) {
        x = -x;
        y = std::round(y);
      }
    } else {
      x = LogUniform(rng, -1074, 1024);
      y = LogUniform(rng, -1074, 1024);
      // Half the pairs of similar magnitude.
      if (i % 2) y = x * (100 * unit(rng)) * ((rng() & 1) ? 1 : -1);
    }
    check(x, y);
  }
  std::printf("%-6s f64 max error %.3f ulp at (%.17g, %.17g)\n", b.name, worst,
              worst_x, worst_y);
  EXPECT_LE(worst, b.bound + 1e-3)
      << b.name << " at " << worst_x << ", " << worst_y;
}

INSTANTIATE_TEST_SUITE_P(Functions, GlslMathBinaryTest,
                         testing::ValuesIn(kBinary),
                         [](const testing::TestParamInfo<Binary>& info) {
                           return std::string(info.param.name);
                         });

// sqrt is correctly rounded even when the builtin is not (2 ulp off), on
// random inputs and on inputs whose square roots are near ties.
TEST(GlslMathTest, SqrtIsCorrectlyRounded) {
  namespace inexact = ::phal::glsl_math_inexact_sqrt;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1 << 16; ++i) {
    double x = std::fabs(LogUniform(rng, -1074, 1024));
    ASSERT_EQ(inexact::phal_m_sqrt_f64(x), std::sqrt(x)) << x;
    ASSERT_EQ(inexact::phal_m_hypot_f64(x, 0.75 * x), std::hypot(x, 0.75 * x))
        << x;
    // y * y for y with 27 significant bits is exact: sqrt of its neighbors
    // lies within 2^-53 ulp of a midpoint or a double.
    double y = std::ldexp(static_cast<double>((rng() >> 37) | 1), -13);
    double square = y * y;
    for (double v : {std::nextafter(square, 0.0), square,
                     std::nextafter(square, INFINITY)}) {
      ASSERT_EQ(inexact::phal_m_sqrt_f64(v), std::sqrt(v)) << v;
    }
  }
}

// The constants' decimal values (PHAL_D(bits, value)) are the doubles of
// their bits, so the text reads as it computes.
TEST(GlslMathTest, ConstantsMatchTheirDecimalValues) {
  std::string_view source = GlslMathSource();
  std::size_t pos = 0;
  int count = 0;
  while ((pos = source.find("PHAL_D(0x", pos)) != std::string_view::npos) {
    std::size_t end = source.find(')', pos);
    std::string call(source.substr(pos + 7, end - pos - 7));
    std::size_t comma = call.find(',');
    ASSERT_NE(comma, std::string::npos) << call;
    uint64_t bits = std::strtoull(call.substr(0, comma).c_str(), nullptr, 16);
    double value = std::strtod(call.substr(comma + 1).c_str(), nullptr);
    uint64_t value_bits;
    std::memcpy(&value_bits, &value, sizeof value_bits);
    EXPECT_EQ(bits, value_bits) << call;
    pos = end;
    ++count;
  }
  EXPECT_GT(count, 100);
}

TEST(GlslMathTest, FunctionsResolveDependenciesInOrder) {
  StatusOr<std::string> text = GlslMathFunctions({"phal_m_exp_f64"});
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  // Where block `name`'s marker line is.
  auto at = [&](std::string_view name) {
    std::string marker = "// phal-block: " + std::string(name);
    for (std::size_t pos = text->find(marker); pos != std::string::npos;
         pos = text->find(marker, pos + 1)) {
      char next = (*text)[pos + marker.size()];
      if (next == ' ' || next == '\n') return pos;
    }
    return std::string::npos;
  };
  // Transitive dependencies come before their users, each once.
  ASSERT_NE(at("phal_m_fast_two_sum_f64"), std::string::npos);
  ASSERT_NE(at("phal_m_pow2_f64"), std::string::npos);
  EXPECT_LT(at("phal_m_macros"), at("phal_m_fast_two_sum_f64"));
  EXPECT_LT(at("phal_m_fast_two_sum_f64"), at("phal_m_exp_dd_f64"));
  EXPECT_LT(at("phal_m_pow2_f64"), at("phal_m_scale_f64"));
  EXPECT_LT(at("phal_m_scale_f64"), at("phal_m_exp_f64"));
  EXPECT_EQ(text->find("phal_m_fast_two_sum_f64(double a"),
            text->rfind("phal_m_fast_two_sum_f64(double a"));
  // Nothing else: no log, no trigonometric tables.
  EXPECT_EQ(text->find("phal_m_log_table"), std::string::npos);
  EXPECT_EQ(text->find("phal_m_two_over_pi"), std::string::npos);

  StatusOr<std::string> both =
      GlslMathFunctions({"phal_m_sin_f64", "phal_m_cos_f64", "phal_m_sin_f64"});
  ASSERT_TRUE(both.ok());
  std::string_view words = "uint64_t phal_m_two_over_pi(int i)";
  EXPECT_NE(both->find(words), std::string::npos);
  EXPECT_EQ(both->find(words), both->rfind(words));
  EXPECT_EQ(both->find("double phal_m_sin_f64("),
            both->rfind("double phal_m_sin_f64("));

  StatusOr<std::string> missing = GlslMathFunctions({"phal_m_gamma_f64"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), PHAL_NOT_FOUND);
}

// Every block is reachable and every dependency names a block: resolving all
// function names yields the whole library but its header comment.
TEST(GlslMathTest, AllBlocksResolve) {
  std::vector<std::string> names;
  std::string_view source = GlslMathSource();
  std::string_view marker = "\n// phal-block: ";
  for (std::size_t pos = source.find(marker); pos != std::string_view::npos;
       pos = source.find(marker, pos + 1)) {
    std::size_t begin = pos + marker.size();
    names.emplace_back(
        source.substr(begin, source.find_first_of(" \n", begin) - begin));
  }
  EXPECT_GE(names.size(), 35u);
  StatusOr<std::string> text = GlslMathFunctions(names);
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(text->size(), source.size() - source.find(marker) - 1);
}

// No constant arrays: Mesa's lavapipe compiles a dynamically indexed one
// per access, seconds to minutes per shader (a 128-entry log table took 10 s,
// a 690-entry erf table 3 minutes); constants picked by a run-time index
// come from switch statements.
TEST(GlslMathTest, HasNoTables) {
  std::string_view source = GlslMathSource();
  std::size_t functions = source.find("\n// phal-block: phal_m_two_sum_f64");
  ASSERT_NE(functions, std::string_view::npos);
  EXPECT_EQ(source.find("PHAL_TABLE_BEGIN(", functions),
            std::string_view::npos);
  EXPECT_EQ(source.find("double[", functions), std::string_view::npos);
  EXPECT_EQ(source.find("uint64_t[", functions), std::string_view::npos);
}

bool OnPath(const char* program) {
  std::string command = std::string("command -v ") + program + " >/dev/null";
  return std::system(command.c_str()) == 0;
}

// The whole library, with a main calling every function, compiles for
// Vulkan 1.1 and validates.
TEST(GlslMathTest, CompilesToValidSpirv) {
  if (!OnPath("glslangValidator") || !OnPath("spirv-val")) {
    GTEST_SKIP() << "glslangValidator or spirv-val not on PATH";
  }
  std::string dir = testing::TempDir();
  std::string shader = dir + "phal_glsl_math_test.comp";
  std::string spirv = dir + "phal_glsl_math_test.spv";
  {
    std::ofstream out(shader);
    out << "#version 450\n"
           "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : "
           "require\n"
        << GlslMathSource()
        << "layout(local_size_x = 1) in;\n"
           "layout(std430, binding = 0) buffer Data { double v[]; };\n"
           "void main() {\n"
           "  double x = v[0];\n"
           "  double y = v[1];\n";
    const char* unary[] = {"exp",  "expm1", "log",  "log1p", "sin",
                           "cos",  "tan",   "tanh", "sinh",  "cosh",
                           "atan", "erf",   "cbrt", "sqrt"};
    int slot = 2;
    for (const char* f : unary) {
      out << "  v[" << slot++ << "] = phal_m_" << f << "_f64(x);\n";
    }
    out << "  v[" << slot << "] = phal_m_atan2_f64(y, x);\n";
    out << "  v[" << slot + 1 << "] = phal_m_pow_f64(x, y);\n";
    out << "  v[" << slot + 2 << "] = phal_m_hypot_f64(x, y);\n}\n";
  }
  std::string compile = "glslangValidator -V --target-env vulkan1.1 -o " +
                        spirv + " " + shader + " > " + dir +
                        "phal_glsl_math_test.log 2>&1";
  EXPECT_EQ(std::system(compile.c_str()), 0)
      << compile << "\n"
      << std::ifstream(dir + "phal_glsl_math_test.log").rdbuf();
  std::string validate = "spirv-val --target-env vulkan1.1 " + spirv;
  EXPECT_EQ(std::system(validate.c_str()), 0) << validate;
}

}  // namespace
}  // namespace phal::source_emitter
