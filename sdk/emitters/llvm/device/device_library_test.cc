// The GPU device library (device_library.h). Its host copies, which run the
// very source the bitcode is compiled from, are measured against glibc's
// long double functions and compared with the host runtime
// (math_library.h, runtime_functions.h); its NVPTX and AMDGPU bitcode is
// parsed, linked into kernels and, for NVPTX, compiled to PTX in process and
// assembled by ptxas where the CUDA toolkit is installed.
#include "sdk/emitters/llvm/device/device_library.h"

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include "sdk/emitters/llvm/math/math_library.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace phal::llvm_emitter {
namespace {

constexpr int kRandomInputs = 1 << 18;

// The host copy of device function `name`, as a `Function*`.
template <typename Function>
Function* Device(const std::string& name) {
  for (const RuntimeSymbol& symbol : DeviceLibraryHostSymbols()) {
    if (name == symbol.name) return reinterpret_cast<Function*>(symbol.address);
  }
  ADD_FAILURE() << "the device library has no host symbol " << name;
  return nullptr;
}

// The unit in the last place of Float in the binade of `value` (the least
// subnormal below the normal range).
template <typename Float>
long double Ulp(long double value) {
  constexpr int kDigits = std::numeric_limits<Float>::digits;
  constexpr int kLeastExponent =
      std::numeric_limits<Float>::min_exponent - kDigits;
  int exponent = 0;
  std::frexp(value == 0 ? std::ldexp(1.0L, kLeastExponent) : value, &exponent);
  return std::ldexp(1.0L, std::max(exponent - kDigits, kLeastExponent));
}

// |got - ref| in ulp of Float. Infinite and NaN results must match exactly.
template <typename Float>
double UlpError(Float got, long double ref) {
  const Float rounded = static_cast<Float>(ref);
  if (std::isnan(got) || std::isnan(rounded)) {
    return std::isnan(got) && std::isnan(rounded) ? 0 : 1e30;
  }
  if (std::isinf(got) || std::isinf(rounded)) return got == rounded ? 0 : 1e30;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) /
                             Ulp<Float>(ref));
}

// NaN for NaN; zeros and infinities bit for bit.
template <typename Float>
bool SameSpecial(Float got, Float want) {
  if (std::isnan(got) || std::isnan(want)) {
    return std::isnan(got) && std::isnan(want);
  }
  if (want == 0 || std::isinf(want) || got == 0 || std::isinf(got)) {
    return got == want && std::signbit(got) == std::signbit(want);
  }
  return true;
}

// A double with a uniformly random exponent in [lo, hi) and a random sign.
double LogUniform(std::mt19937_64& rng, int lo, int hi) {
  const double significand = 1.0 + static_cast<double>(rng() >> 11) * 0x1p-53;
  const double x =
      std::ldexp(significand, lo + static_cast<int>(rng() % (hi - lo)));
  return (rng() & 1) != 0 ? -x : x;
}

std::vector<double> EdgeValues() {
  const double values[] = {0.0,
                           1.0,
                           0.5,
                           2.5,
                           3.0,
                           1.0 + 0x1p-52,
                           std::numeric_limits<double>::max(),
                           0x1p-1022,
                           0x1p-1074,
                           0x1.8p-1070,
                           100.0,
                           0.75,
                           INFINITY,
                           NAN,
                           3.4028234663852886e38,
                           0x1p-126,
                           0x1p-149,
                           709.782712893384,
                           709.7827128933841,
                           745.1332191019411,
                           745.1332191019412,
                           708.4,
                           88.72283935546875,
                           103.97,
                           22.0,
                           5.9,
                           6.0,
                           0.25,
                           1e22,
                           0x1p1000,
                           6381956970095103.0 * 0x1p797,
                           0x1p-27,
                           1e-300};
  std::vector<double> all;
  for (double v : values) {
    all.push_back(v);
    all.push_back(-v);
  }
  return all;
}

struct RealFunction {
  const char* name;
  long double (*reference)(long double);
  double (*host_f64)(double);
  float (*host_f32)(float);
  // Random inputs uniform in [lo, hi], or log-uniform over all doubles.
  double lo, hi;
  bool log_uniform;
  double f64_bound;
};

long double LogisticReference(long double x) { return 1 / (1 + expl(-x)); }
long double RsqrtReference(long double x) { return 1 / sqrtl(x); }

// f32 results are within 0.5 ulp plus the f64 result's error (below 2^-28
// f32 ulp) of the exact value: correctly rounded except at near-ties.
constexpr double kF32Bound = 0.5 + 0x1p-20;

const RealFunction kRealFunctions[] = {
    {"exp", expl, phal_math_exp_f64, phal_math_exp_f32, -746, 710, false, 1},
    {"expm1", expm1l, phal_math_expm1_f64, phal_math_expm1_f32, -40, 45, false,
     1},
    {"log", logl, phal_math_log_f64, phal_math_log_f32, 0, 0, true, 1},
    {"log1p", log1pl, phal_math_log1p_f64, phal_math_log1p_f32, -1, 1e6, false,
     1},
    {"logistic", LogisticReference, phal_math_logistic_f64,
     phal_math_logistic_f32, -709, 750, false, 2},
    {"tanh", tanhl, phal_math_tanh_f64, phal_math_tanh_f32, -25, 25, false, 1},
    {"sin", sinl, phal_math_sin_f64, phal_math_sin_f32, 0, 0, true, 1},
    {"cos", cosl, phal_math_cos_f64, phal_math_cos_f32, 0, 0, true, 1},
    {"tan", tanl, phal_math_tan_f64, phal_math_tan_f32, 0, 0, true, 1},
    {"erf", erfl, phal_math_erf_f64, phal_math_erf_f32, -7, 7, false, 1},
    {"cbrt", cbrtl, phal_math_cbrt_f64, phal_math_cbrt_f32, 0, 0, true, 1},
    {"rsqrt", RsqrtReference, phal_math_rsqrt_f64, phal_math_rsqrt_f32, 0, 0,
     true, 1.5},
};

class DeviceLibraryRealTest : public testing::TestWithParam<RealFunction> {};

TEST_P(DeviceLibraryRealTest, F64IsWithinItsBoundOfTheExactResult) {
  const RealFunction& f = GetParam();
  auto* device =
      Device<double(double)>(std::string("phal_math_") + f.name + "_f64");
  ASSERT_NE(device, nullptr);
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> uniform(f.lo, f.hi);
  // Edge values outside the random domain are special values' business.
  std::vector<double> inputs;
  for (double x : EdgeValues()) {
    if (f.log_uniform || (x >= f.lo && x <= f.hi)) inputs.push_back(x);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.push_back(f.log_uniform ? LogUniform(rng, -1074, 1024)
                                   : uniform(rng));
  }
  double worst = 0, worst_input = 0;
  for (double x : inputs) {
    const double error = UlpError(device(x), f.reference(x));
    if (error > worst) {
      worst = error;
      worst_input = x;
    }
  }
  std::printf("%s_f64: %.3f ulp at %a\n", f.name, worst, worst_input);
  EXPECT_LE(worst, f.f64_bound)
      << f.name << "_f64(" << worst_input << ") is " << device(worst_input)
      << ", exactly " << static_cast<double>(f.reference(worst_input));
}

TEST_P(DeviceLibraryRealTest, F32IsCorrectlyRoundedButForNearTies) {
  const RealFunction& f = GetParam();
  auto* device =
      Device<float(float)>(std::string("phal_math_") + f.name + "_f32");
  ASSERT_NE(device, nullptr);
  std::mt19937_64 rng(14);
  std::uniform_real_distribution<double> uniform(f.lo, f.hi);
  std::vector<float> inputs;
  for (double x : EdgeValues()) {
    if (f.log_uniform || (x >= f.lo && x <= f.hi)) {
      inputs.push_back(static_cast<float>(x));
    }
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.push_back(static_cast<float>(
        f.log_uniform ? LogUniform(rng, -149, 128) : uniform(rng)));
  }
  double worst = 0;
  float worst_input = 0;
  for (float x : inputs) {
    const double error = UlpError(device(x), f.reference(x));
    if (error > worst) {
      worst = error;
      worst_input = x;
    }
  }
  std::printf("%s_f32: %.6f ulp at %a\n", f.name, worst, worst_input);
  EXPECT_LE(worst, kF32Bound)
      << f.name << "_f32(" << worst_input << ") is " << device(worst_input);
}

TEST_P(DeviceLibraryRealTest, SpecialValuesAreTheHostLibrarys) {
  const RealFunction& f = GetParam();
  auto* f64 =
      Device<double(double)>(std::string("phal_math_") + f.name + "_f64");
  auto* f32 = Device<float(float)>(std::string("phal_math_") + f.name + "_f32");
  ASSERT_NE(f64, nullptr);
  ASSERT_NE(f32, nullptr);
  for (double x : EdgeValues()) {
    EXPECT_TRUE(SameSpecial(f64(x), f.host_f64(x)))
        << f.name << "_f64(" << x << ") is " << f64(x) << ", host "
        << f.host_f64(x);
    const float y = static_cast<float>(x);
    EXPECT_TRUE(SameSpecial(f32(y), f.host_f32(y)))
        << f.name << "_f32(" << y << ") is " << f32(y) << ", host "
        << f.host_f32(y);
  }
}

INSTANTIATE_TEST_SUITE_P(DeviceLibrary, DeviceLibraryRealTest,
                         testing::ValuesIn(kRealFunctions),
                         [](const testing::TestParamInfo<RealFunction>& info) {
                           return std::string(info.param.name);
                         });

// Inputs of the binary functions: pairs of edge values and random pairs.
std::vector<std::pair<double, double>> EdgePairs() {
  std::vector<std::pair<double, double>> pairs;
  for (double a : EdgeValues()) {
    for (double b : EdgeValues()) pairs.emplace_back(a, b);
  }
  return pairs;
}

TEST(DeviceLibraryTest, Atan2IsWithinOneUlpWithTheHostLibrarysSpecialValues) {
  auto* f64 = Device<double(double, double)>("phal_math_atan2_f64");
  auto* f32 = Device<float(float, float)>("phal_math_atan2_f32");
  ASSERT_NE(f64, nullptr);
  ASSERT_NE(f32, nullptr);
  std::mt19937_64 rng(15);
  std::vector<std::pair<double, double>> inputs = EdgePairs();
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.emplace_back(LogUniform(rng, -1074, 1024),
                        LogUniform(rng, -1074, 1024));
  }
  double worst64 = 0, worst32 = 0;
  for (const auto& [y, x] : inputs) {
    worst64 = std::max(worst64, UlpError(f64(y, x), atan2l(y, x)));
    const float fy = static_cast<float>(y), fx = static_cast<float>(x);
    worst32 = std::max(worst32, UlpError(f32(fy, fx), atan2l(fy, fx)));
    EXPECT_TRUE(SameSpecial(f64(y, x), phal_math_atan2_f64(y, x)))
        << "atan2(" << y << ", " << x << ")";
  }
  std::printf("atan2: f64 %.3f ulp, f32 %.6f ulp\n", worst64, worst32);
  EXPECT_LE(worst64, 1);
  EXPECT_LE(worst32, kF32Bound);
}

TEST(DeviceLibraryTest, PowIsWithinOneUlpWithTheHostLibrarysSpecialValues) {
  auto* f64 = Device<double(double, double)>("phal_math_pow_f64");
  auto* f32 = Device<float(float, float)>("phal_math_pow_f32");
  ASSERT_NE(f64, nullptr);
  ASSERT_NE(f32, nullptr);
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> exponent(-60, 60);
  std::vector<std::pair<double, double>> inputs = EdgePairs();
  for (int i = 0; i < kRandomInputs; ++i) {
    const double x = LogUniform(rng, -16, 16);
    // Negative bases have real powers only at integer exponents.
    const double y = x < 0 ? std::round(exponent(rng)) : exponent(rng);
    inputs.emplace_back(x, y);
  }
  double worst64 = 0, worst32 = 0;
  for (const auto& [x, y] : inputs) {
    worst64 = std::max(worst64, UlpError(f64(x, y), powl(x, y)));
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    worst32 = std::max(worst32, UlpError(f32(fx, fy), powl(fx, fy)));
    EXPECT_TRUE(SameSpecial(f64(x, y), phal_math_pow_f64(x, y)))
        << "pow(" << x << ", " << y << ")";
  }
  std::printf("pow: f64 %.3f ulp, f32 %.6f ulp\n", worst64, worst32);
  EXPECT_LE(worst64, 1);
  EXPECT_LE(worst32, kF32Bound);
}

// Every float whose low 13 bits lie at or next to an f16 rounding boundary,
// and random ones.
std::vector<float> SixteenBitRoundingInputs() {
  std::vector<float> inputs;
  for (uint32_t high = 0; high < (1u << 19); ++high) {
    for (uint32_t low : {0x0000u, 0x0FFFu, 0x1000u, 0x1001u, 0x1FFFu}) {
      inputs.push_back(std::bit_cast<float>((high << 13) | low));
    }
  }
  std::mt19937 rng(17);
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  }
  return inputs;
}

TEST(DeviceLibraryTest, SixteenBitRoundingFromF32IsTheHostRuntimesBitForBit) {
  auto* to_f16 = Device<float(float)>("phal_rt_round_f32_to_f16");
  auto* to_bf16 = Device<float(float)>("phal_rt_round_f32_to_bf16");
  auto* f16_bits = Device<uint16_t(float)>("phal_rt_f16_bits");
  auto* bf16_bits = Device<uint16_t(float)>("phal_rt_bf16_bits");
  for (float x : SixteenBitRoundingInputs()) {
    ASSERT_EQ(std::bit_cast<uint32_t>(to_f16(x)),
              std::bit_cast<uint32_t>(phal_rt_round_f32_to_f16(x)))
        << "f16 rounding of " << x;
    ASSERT_EQ(std::bit_cast<uint32_t>(to_bf16(x)),
              std::bit_cast<uint32_t>(phal_rt_round_f32_to_bf16(x)))
        << "bf16 rounding of " << x;
    ASSERT_EQ(f16_bits(x), phal_rt_f16_bits(x)) << "f16 bits of " << x;
    ASSERT_EQ(bf16_bits(x), phal_rt_bf16_bits(x)) << "bf16 bits of " << x;
  }
}

TEST(DeviceLibraryTest, SixteenBitRoundingFromF64IsTheHostRuntimesBitForBit) {
  auto* to_f16 = Device<float(double)>("phal_rt_round_f64_to_f16");
  auto* to_bf16 = Device<float(double)>("phal_rt_round_f64_to_bf16");
  std::vector<double> inputs = EdgeValues();
  // Each tie between neighbouring 16-bit values, and the doubles either
  // side of it: rounding through f32 first would get these wrong.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const double values[] = {phal_rt_f16_from_bits(static_cast<uint16_t>(bits)),
                             std::bit_cast<float>(bits << 16)};
    for (double value : values) {
      const double next = std::nextafter(static_cast<float>(value), INFINITY);
      const double tie = value + (next - value) / 2;
      inputs.insert(inputs.end(), {tie, std::nextafter(tie, 0.0),
                                   std::nextafter(tie, INFINITY)});
    }
  }
  std::mt19937_64 rng(18);
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.push_back(LogUniform(rng, -140, 140));
  }
  for (double x : inputs) {
    ASSERT_EQ(std::bit_cast<uint32_t>(to_f16(x)),
              std::bit_cast<uint32_t>(phal_rt_round_f64_to_f16(x)))
        << "f16 rounding of " << x;
    ASSERT_EQ(std::bit_cast<uint32_t>(to_bf16(x)),
              std::bit_cast<uint32_t>(phal_rt_round_f64_to_bf16(x)))
        << "bf16 rounding of " << x;
  }
}

TEST(DeviceLibraryTest, F16FromBitsIsTheHostRuntimesForEveryPattern) {
  auto* from_bits = Device<float(uint16_t)>("phal_rt_f16_from_bits");
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto half = static_cast<uint16_t>(bits);
    ASSERT_EQ(std::bit_cast<uint32_t>(from_bits(half)),
              std::bit_cast<uint32_t>(phal_rt_f16_from_bits(half)))
        << "f16 bits " << bits;
  }
}

// Random bit patterns (NaNs, infinities, subnormals among them) and edge
// values, at every target format the operand's format can narrow to.
TEST(DeviceLibraryTest, ReducePrecisionIsTheHostRuntimesBitForBit) {
  using Narrow = float(float, int32_t, int32_t);
  using Wide = double(double, int32_t, int32_t);
  struct Format {
    const char* name;
    Narrow* host;
    int exponent_bits, mantissa_bits;
  };
  const Format formats[] = {
      {"phal_rt_reduce_precision_f16", phal_rt_reduce_precision_f16, 5, 10},
      {"phal_rt_reduce_precision_bf16", phal_rt_reduce_precision_bf16, 8, 7},
      {"phal_rt_reduce_precision_f32", phal_rt_reduce_precision_f32, 8, 23},
  };
  std::mt19937_64 rng(19);
  for (const Format& format : formats) {
    auto* device = Device<Narrow>(format.name);
    for (int e = 1; e <= format.exponent_bits; ++e) {
      for (int m = 0; m <= format.mantissa_bits; ++m) {
        std::vector<float> values;
        for (double v : EdgeValues()) values.push_back(static_cast<float>(v));
        for (int i = 0; i < 512; ++i) {
          values.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
        }
        for (float v : values) {
          ASSERT_EQ(std::bit_cast<uint32_t>(device(v, e, m)),
                    std::bit_cast<uint32_t>(format.host(v, e, m)))
              << format.name << "(" << v << ", " << e << ", " << m << ")";
        }
      }
    }
  }
  auto* device = Device<Wide>("phal_rt_reduce_precision_f64");
  for (int e = 1; e <= 11; ++e) {
    for (int m = 0; m <= 52; ++m) {
      std::vector<double> values = EdgeValues();
      for (int i = 0; i < 512; ++i) {
        values.push_back(std::bit_cast<double>(rng()));
      }
      for (double v : values) {
        ASSERT_EQ(
            std::bit_cast<uint64_t>(device(v, e, m)),
            std::bit_cast<uint64_t>(phal_rt_reduce_precision_f64(v, e, m)))
            << "reduce_precision_f64(" << v << ", " << e << ", " << m << ")";
      }
    }
  }
}

TEST(DeviceLibraryTest, IntegerPowerWrapsAndIsZeroForNegativeExponents) {
  auto* s64 = Device<int64_t(int64_t, int64_t)>("phal_rt_power_s64");
  auto* u64 = Device<uint64_t(uint64_t, uint64_t)>("phal_rt_power_u64");
  EXPECT_EQ(s64(3, 4), 81);
  EXPECT_EQ(s64(2, 63), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(s64(2, 64), 0);
  EXPECT_EQ(s64(-1, -3), -1);
  EXPECT_EQ(s64(1, -7), 1);
  EXPECT_EQ(s64(2, -1), 0);
  EXPECT_EQ(s64(0, 0), 1);
  EXPECT_EQ(u64(3, 40), 12157665459056928801ull);
  EXPECT_EQ(u64(2, 64), 0u);
  std::mt19937_64 rng(20);
  const int64_t bases[] = {0,
                           1,
                           -1,
                           2,
                           -2,
                           3,
                           -3,
                           7,
                           std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max()};
  for (int64_t base : bases) {
    for (int64_t exponent = -5; exponent <= 70; ++exponent) {
      EXPECT_EQ(s64(base, exponent), phal_rt_power_s64(base, exponent))
          << base << "^" << exponent;
    }
  }
  for (int i = 0; i < 4096; ++i) {
    const uint64_t base = rng(), exponent = rng();
    EXPECT_EQ(u64(base, exponent), phal_rt_power_u64(base, exponent));
    EXPECT_EQ(s64(static_cast<int64_t>(base), static_cast<int64_t>(exponent)),
              phal_rt_power_s64(static_cast<int64_t>(base),
                                static_cast<int64_t>(exponent)));
  }
}

// fmod is exact, so the device's equals glibc's bit for bit (NaN for NaN).
template <typename Float>
bool SameBits(Float got, Float want) {
  if (std::isnan(got) || std::isnan(want)) {
    return std::isnan(got) && std::isnan(want);
  }
  return got == want && std::signbit(got) == std::signbit(want);
}

TEST(DeviceLibraryTest, FmodIsExactAsCs) {
  auto* f64 = Device<double(double, double)>("phal_rt_fmod_f64");
  auto* f32 = Device<float(float, float)>("phal_rt_fmod_f32");
  std::vector<std::pair<double, double>> inputs = EdgePairs();
  std::mt19937_64 rng(21);
  for (int i = 0; i < kRandomInputs; ++i) {
    inputs.emplace_back(LogUniform(rng, -1074, 1024),
                        LogUniform(rng, -1074, 1024));
    inputs.emplace_back(LogUniform(rng, -20, 60), LogUniform(rng, -20, 20));
    inputs.emplace_back(std::bit_cast<double>(rng()),
                        std::bit_cast<double>(rng()));
  }
  for (const auto& [x, y] : inputs) {
    ASSERT_TRUE(SameBits(f64(x, y), std::fmod(x, y)))
        << "fmod(" << x << ", " << y << ") is " << f64(x, y) << ", not "
        << std::fmod(x, y);
    const float fx = static_cast<float>(x), fy = static_cast<float>(y);
    ASSERT_TRUE(SameBits(f32(fx, fy), std::fmod(fx, fy)))
        << "fmodf(" << fx << ", " << fy << ") is " << f32(fx, fy) << ", not "
        << std::fmod(fx, fy);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    const float fx = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    const float fy = std::bit_cast<float>(static_cast<uint32_t>(rng()));
    ASSERT_TRUE(SameBits(f32(fx, fy), std::fmod(fx, fy)))
        << "fmodf(" << fx << ", " << fy << ")";
  }
}

using LongComplex = std::complex<long double>;
using ComplexUnary = void(double, double, double*);
using ComplexBinary = void(double, double, double, double, double*);

// The larger error of the two parts in ulp of the larger part of the exact
// result: componentwise ulp is meaningless where a part cancels to near 0.
double NormwiseUlpError(const double got[2], LongComplex ref) {
  if (std::isnan(got[0]) || std::isnan(got[1]) || std::isinf(got[0]) ||
      std::isinf(got[1])) {
    return UlpError(got[0], ref.real()) + UlpError(got[1], ref.imag());
  }
  const long double difference =
      std::max(std::fabs(got[0] - ref.real()), std::fabs(got[1] - ref.imag()));
  return static_cast<double>(
      difference /
      Ulp<double>(std::max(std::fabs(ref.real()), std::fabs(ref.imag()))));
}

// Every complex function on random operands whose parts are log-uniform
// with exponents in [-20, max_exponent), the device's error and the host
// runtime's (glibc's std::complex) against the same reference; the bound
// is enforced on the device's. Where a formula is ill-conditioned, both
// are far off: logistic near its poles i pi (2k + 1), where 1 + exp(-z)
// cancels, cbrt and power of large operands, where exp(log|z| / 3) carries
// log|z|'s absolute error, atan2 where x^2 + y^2 cancels.
struct ComplexFunction {
  const char* name;
  LongComplex (*reference)(LongComplex a, LongComplex b);
  bool binary;
  int max_exponent;
  double bound;
};

const ComplexFunction kComplexFunctions[] = {
    {"exp", [](LongComplex a, LongComplex) { return std::exp(a); }, false, 9,
     2},
    {"expm1",
     [](LongComplex a, LongComplex) {
       const long double s = sinl(a.imag() / 2);
       return LongComplex(expm1l(a.real()) * cosl(a.imag()) - 2 * s * s,
                          expl(a.real()) * sinl(a.imag()));
     },
     false, 9, 5},
    {"log", [](LongComplex a, LongComplex) { return std::log(a); }, false, 1000,
     4},
    {"log1p",
     [](LongComplex a, LongComplex) {
       const long double x = a.real(), y = a.imag();
       return LongComplex(log1pl(x * (2 + x) + y * y) / 2, atan2l(y, 1 + x));
     },
     false, 500, 2},
    {"logistic",
     [](LongComplex a, LongComplex) { return 1.0L / (1.0L + std::exp(-a)); },
     false, 9, 16384},
    {"sqrt", [](LongComplex a, LongComplex) { return std::sqrt(a); }, false,
     1000, 2},
    {"rsqrt", [](LongComplex a, LongComplex) { return 1.0L / std::sqrt(a); },
     false, 500, 4},
    {"tanh", [](LongComplex a, LongComplex) { return std::tanh(a); }, false, 9,
     5},
    {"sin", [](LongComplex a, LongComplex) { return std::sin(a); }, false, 9,
     2},
    {"cos", [](LongComplex a, LongComplex) { return std::cos(a); }, false, 9,
     2},
    {"tan", [](LongComplex a, LongComplex) { return std::tan(a); }, false, 9,
     5},
    {"cbrt", [](LongComplex a, LongComplex) { return std::pow(a, 1.0L / 3); },
     false, 1000, 384},
    {"divide", [](LongComplex a, LongComplex b) { return a / b; }, true, 500,
     3},
    {"power", [](LongComplex a, LongComplex b) { return std::pow(a, b); }, true,
     3, 256},
    {"atan2",
     [](LongComplex a, LongComplex b) {
       const LongComplex i(0, 1);
       return -i * std::log((b + i * a) / std::sqrt(b * b + a * a));
     },
     true, 4, 1.6e7},
};

// The host runtime's function `name` (runtime_functions.h).
void* HostRuntime(const std::string& name) {
  for (const RuntimeSymbol& symbol : RuntimeSymbols()) {
    if (name == symbol.name) return symbol.address;
  }
  return nullptr;
}

class DeviceLibraryComplexTest
    : public testing::TestWithParam<ComplexFunction> {};

TEST_P(DeviceLibraryComplexTest, IsWithinItsBoundOfTheExactResult) {
  const ComplexFunction& f = GetParam();
  const std::string name = std::string("phal_rt_complex_") + f.name;
  void* device = nullptr;
  for (const RuntimeSymbol& symbol : DeviceLibraryHostSymbols()) {
    if (name == symbol.name) device = symbol.address;
  }
  void* host = HostRuntime(name);
  ASSERT_NE(device, nullptr) << name;
  ASSERT_NE(host, nullptr) << name;
  const auto call = [&f](void* function, LongComplex a, LongComplex b,
                         double* out) {
    const double ar = static_cast<double>(a.real());
    const double ai = static_cast<double>(a.imag());
    if (f.binary) {
      reinterpret_cast<ComplexBinary*>(function)(
          ar, ai, static_cast<double>(b.real()), static_cast<double>(b.imag()),
          out);
    } else {
      reinterpret_cast<ComplexUnary*>(function)(ar, ai, out);
    }
  };
  std::mt19937_64 rng(22);
  double worst = 0, worst_host = 0;
  LongComplex worst_a, worst_b;
  for (int i = 0; i < kRandomInputs / 4; ++i) {
    const LongComplex a(LogUniform(rng, -20, f.max_exponent),
                        LogUniform(rng, -20, f.max_exponent));
    const LongComplex b(LogUniform(rng, -20, f.max_exponent),
                        LogUniform(rng, -20, f.max_exponent));
    const LongComplex exact = f.reference(a, b);
    double out[2];
    call(device, a, b, out);
    const double error = NormwiseUlpError(out, exact);
    if (error > worst) {
      worst = error;
      worst_a = a;
      worst_b = b;
    }
    call(host, a, b, out);
    worst_host = std::max(worst_host, NormwiseUlpError(out, exact));
  }
  std::printf("complex %s: %.3f ulp (host runtime %.3f)\n", f.name, worst,
              worst_host);
  EXPECT_LE(worst, f.bound) << "complex " << f.name << " at a = ("
                            << static_cast<double>(worst_a.real()) << ", "
                            << static_cast<double>(worst_a.imag()) << "), b = ("
                            << static_cast<double>(worst_b.real()) << ", "
                            << static_cast<double>(worst_b.imag()) << ")";
}

INSTANTIATE_TEST_SUITE_P(
    DeviceLibrary, DeviceLibraryComplexTest,
    testing::ValuesIn(kComplexFunctions),
    [](const testing::TestParamInfo<ComplexFunction>& info) {
      return std::string(info.param.name);
    });

// The principal branch: a cut along the negative real axis, the sign of a
// zero imaginary part choosing the side.
TEST(DeviceLibraryTest, ComplexBranchCutsFollowTheSignOfZero) {
  const double pi = 3.141592653589793;
  struct Case {
    const char* name;
    double real, imag, want_real, want_imag;
  };
  const Case cases[] = {
      {"sqrt", -4, 0.0, 0, 2},
      {"sqrt", -4, -0.0, 0, -2},
      {"log", -1, 0.0, 0, pi},
      {"log", -1, -0.0, 0, -pi},
      {"log1p", -2, 0.0, 0, pi},
      {"log1p", -2, -0.0, 0, -pi},
      {"cbrt", -8, 0.0, 1, std::sqrt(3.0)},
      {"cbrt", -8, -0.0, 1, -std::sqrt(3.0)},
      {"cbrt", 8, 0.0, 2, 0},
  };
  for (const Case& c : cases) {
    auto* device =
        Device<ComplexUnary>(std::string("phal_rt_complex_") + c.name);
    double out[2];
    device(c.real, c.imag, out);
    EXPECT_NEAR(out[0], c.want_real, 4e-15)
        << c.name << "(" << c.real << ", " << c.imag << ")";
    EXPECT_NEAR(out[1], c.want_imag, 4e-15)
        << c.name << "(" << c.real << ", " << c.imag << ")";
    EXPECT_EQ(std::signbit(out[1]), std::signbit(c.want_imag))
        << c.name << "(" << c.real << ", " << c.imag << ")";
  }
}

TEST(DeviceLibraryTest, ComplexSpecialValuesFollowTheDialectsFormulas) {
  auto* exp = Device<ComplexUnary>("phal_rt_complex_exp");
  auto* sqrt = Device<ComplexUnary>("phal_rt_complex_sqrt");
  auto* divide = Device<ComplexBinary>("phal_rt_complex_divide");
  double out[2];
  exp(-INFINITY, INFINITY, out);
  EXPECT_TRUE(out[0] == 0 && out[1] == 0 && !std::signbit(out[1]))
      << "exp(-inf + i inf) is (" << out[0] << ", " << out[1] << ")";
  exp(0.0, -0.0, out);
  EXPECT_TRUE(out[0] == 1 && out[1] == 0 && std::signbit(out[1]))
      << "exp(0 - 0i) is (" << out[0] << ", " << out[1] << ")";
  exp(709.5, 1.0, out);
  EXPECT_TRUE(std::isfinite(out[0]) && std::isfinite(out[1]))
      << "exp(709.5 + i) overflowed early: (" << out[0] << ", " << out[1]
      << ")";
  sqrt(2.0, INFINITY, out);
  EXPECT_TRUE(std::isinf(out[0]) && out[1] == INFINITY)
      << "sqrt(2 + i inf) is (" << out[0] << ", " << out[1] << ")";
  sqrt(1.7e308, 1.7e308, out);
  EXPECT_TRUE(std::isfinite(out[0]) && std::isfinite(out[1]))
      << "sqrt near the largest double overflowed";
  divide(1, 2, 0, 0, out);
  EXPECT_TRUE(std::isinf(out[0]) && std::isinf(out[1]))
      << "(1 + 2i) / 0 is (" << out[0] << ", " << out[1] << ")";
  divide(1, 2, INFINITY, 0, out);
  EXPECT_TRUE(out[0] == 0 && out[1] == 0)
      << "(1 + 2i) / inf is (" << out[0] << ", " << out[1] << ")";
}

TEST(DeviceLibraryTest, HostSymbolsCoverEveryRuntimeFunctionButSort) {
  for (const RuntimeSymbol& runtime : RuntimeSymbols()) {
    const std::string name = runtime.name;
    if (name.rfind("phal_", 0) != 0 || name.rfind("phal_rt_sort", 0) == 0) {
      continue;
    }
    bool found = false;
    for (const RuntimeSymbol& device : DeviceLibraryHostSymbols()) {
      found |= name == device.name;
    }
    EXPECT_TRUE(found) << "the device library has no " << name;
  }
}

const DeviceTarget kTargets[] = {DeviceTarget::kNvptx64, DeviceTarget::kAmdgcn};

const char* TripleOf(DeviceTarget target) {
  return target == DeviceTarget::kNvptx64 ? "nvptx64-nvidia-cuda"
                                          : "amdgcn-amd-amdhsa";
}

std::unique_ptr<llvm::Module> ParseBitcode(DeviceTarget target,
                                           llvm::LLVMContext& context) {
  const std::string_view bitcode = DeviceLibraryBitcode(target);
  auto module = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()),
                            "device_library"),
      context);
  if (!module) {
    ADD_FAILURE() << llvm::toString(module.takeError());
    return nullptr;
  }
  return std::move(*module);
}

TEST(DeviceLibraryTest, BitcodeDefinesEveryHostSymbolForAnyCpuOfItsTarget) {
  if (DeviceLibraryBitcode(DeviceTarget::kNvptx64).empty()) {
    GTEST_SKIP() << "built without clang++-16: no device bitcode";
  }
  for (DeviceTarget target : kTargets) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> library = ParseBitcode(target, context);
    ASSERT_NE(library, nullptr);
    EXPECT_EQ(library->getTargetTriple(), TripleOf(target));
    for (const RuntimeSymbol& symbol : DeviceLibraryHostSymbols()) {
      const llvm::Function* function = library->getFunction(symbol.name);
      EXPECT_TRUE(function != nullptr && !function->isDeclaration() &&
                  function->hasExternalLinkage())
          << TripleOf(target) << " bitcode does not define " << symbol.name;
    }
    for (const llvm::Function& function : *library) {
      EXPECT_FALSE(function.hasFnAttribute("target-cpu") ||
                   function.hasFnAttribute("target-features"))
          << function.getName().str() << " is tied to a target CPU";
      if (function.isDeclaration()) {
        EXPECT_TRUE(function.isIntrinsic())
            << TripleOf(target) << " bitcode calls external "
            << function.getName().str();
      }
    }
  }
}

// A kernel that calls f32 exp and complex exp, in each target's IR shape
// (AMDGPU passes its private result slot as a flat pointer).
std::string KernelIr(DeviceTarget target) {
  const std::string declarations =
      "declare float @phal_math_exp_f32(float)\n"
      "declare void @phal_rt_complex_exp(double, double, ptr)\n";
  if (target == DeviceTarget::kNvptx64) {
    return "target triple = \"nvptx64-nvidia-cuda\"\n"
           "target datalayout = "
           "\"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n" +
           declarations +
           "define void @kernel(ptr addrspace(1) %data) {\n"
           "  %x = load float, ptr addrspace(1) %data\n"
           "  %e = call float @phal_math_exp_f32(float %x)\n"
           "  store float %e, ptr addrspace(1) %data\n"
           "  %slot = alloca double, i32 2\n"
           "  %w = fpext float %x to double\n"
           "  call void @phal_rt_complex_exp(double %w, double 1.0, ptr "
           "%slot)\n"
           "  %r = load double, ptr %slot\n"
           "  %p = getelementptr double, ptr addrspace(1) %data, i64 1\n"
           "  store double %r, ptr addrspace(1) %p\n"
           "  ret void\n}\n"
           "!nvvm.annotations = !{!0}\n"
           "!0 = !{ptr @kernel, !\"kernel\", i32 1}\n";
  }
  return "target triple = \"amdgcn-amd-amdhsa\"\n"
         "target datalayout = "
         "\"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-"
         "i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:"
         "512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7\"\n" +
         declarations +
         "define amdgpu_kernel void @kernel(ptr addrspace(1) %data) {\n"
         "  %x = load float, ptr addrspace(1) %data\n"
         "  %e = call float @phal_math_exp_f32(float %x)\n"
         "  store float %e, ptr addrspace(1) %data\n"
         "  %slot = alloca double, i32 2, addrspace(5)\n"
         "  %flat = addrspacecast ptr addrspace(5) %slot to ptr\n"
         "  %w = fpext float %x to double\n"
         "  call void @phal_rt_complex_exp(double %w, double 1.0, ptr %flat)\n"
         "  %r = load double, ptr %flat\n"
         "  %p = getelementptr double, ptr addrspace(1) %data, i64 1\n"
         "  store double %r, ptr addrspace(1) %p\n"
         "  ret void\n}\n";
}

std::unique_ptr<llvm::Module> ParseIr(const std::string& text,
                                      llvm::LLVMContext& context) {
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(text, error, context);
  if (module == nullptr) {
    std::string message;
    llvm::raw_string_ostream stream(message);
    error.print("kernel", stream);
    ADD_FAILURE() << message;
  }
  return module;
}

// The names of the phal_ functions `module` declares but does not define.
std::vector<std::string> ExternalPhalFunctions(const llvm::Module& module) {
  std::vector<std::string> names;
  for (const llvm::Function& function : module) {
    if (function.isDeclaration() && function.getName().startswith("phal_")) {
      names.push_back(function.getName().str());
    }
  }
  return names;
}

TEST(DeviceLibraryTest, LinkingLeavesNoExternalPhalFunction) {
  if (DeviceLibraryBitcode(DeviceTarget::kNvptx64).empty()) {
    GTEST_SKIP() << "built without clang++-16: no device bitcode";
  }
  for (DeviceTarget target : kTargets) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = ParseIr(KernelIr(target), context);
    ASSERT_NE(module, nullptr);
    const Status status = LinkDeviceLibrary(*module, target);
    ASSERT_TRUE(status.ok()) << status.ToString();
    EXPECT_EQ(ExternalPhalFunctions(*module), std::vector<std::string>())
        << TripleOf(target);
    for (const char* name : {"phal_math_exp_f32", "phal_rt_complex_exp"}) {
      const llvm::Function* function = module->getFunction(name);
      ASSERT_NE(function, nullptr) << name;
      EXPECT_TRUE(function->hasLocalLinkage())
          << name << " stays external in " << TripleOf(target);
    }
    EXPECT_EQ(module->getFunction("phal_math_log_f64"), nullptr)
        << "functions the kernel does not call are linked";
  }
}

TEST(DeviceLibraryTest, LinkingRejectsWhatTheLibraryCannotDefine) {
  if (DeviceLibraryBitcode(DeviceTarget::kNvptx64).empty()) {
    GTEST_SKIP() << "built without clang++-16: no device bitcode";
  }
  const std::string nvptx =
      "target triple = \"nvptx64-nvidia-cuda\"\n"
      "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n";
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> sort = ParseIr(
      nvptx + "declare void @phal_rt_sort(ptr, i64, i64, ptr, ptr)\n", context);
  ASSERT_NE(sort, nullptr);
  Status status = LinkDeviceLibrary(*sort, DeviceTarget::kNvptx64);
  EXPECT_EQ(status.code(), PHAL_NOT_FOUND) << status.ToString();
  EXPECT_NE(status.message().find("phal_rt_sort"), std::string::npos)
      << status.message();

  std::unique_ptr<llvm::Module> mistyped =
      ParseIr(nvptx + "declare double @phal_math_exp_f32(double)\n", context);
  ASSERT_NE(mistyped, nullptr);
  status = LinkDeviceLibrary(*mistyped, DeviceTarget::kNvptx64);
  EXPECT_EQ(status.code(), PHAL_INVALID_ARGUMENT) << status.ToString();

  std::unique_ptr<llvm::Module> host = ParseIr(
      "target triple = \"x86_64-pc-linux-gnu\"\n"
      "declare float @phal_math_exp_f32(float)\n",
      context);
  ASSERT_NE(host, nullptr);
  status = LinkDeviceLibrary(*host, DeviceTarget::kNvptx64);
  EXPECT_EQ(status.code(), PHAL_INVALID_ARGUMENT) << status.ToString();
}

// ptxas from PATH or the CUDA toolkit's default place; empty when absent.
std::string FindPtxas() {
  if (std::system("command -v ptxas > /dev/null 2>&1") == 0) return "ptxas";
  const char* installed = "/usr/local/cuda/bin/ptxas";
  return std::filesystem::exists(installed) ? installed : "";
}

TEST(DeviceLibraryTest, LinkedKernelCompilesToPtxThatPtxasAcceptsForSm80) {
  if (DeviceLibraryBitcode(DeviceTarget::kNvptx64).empty()) {
    GTEST_SKIP() << "built without clang++-16: no device bitcode";
  }
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> module =
      ParseIr(KernelIr(DeviceTarget::kNvptx64), context);
  ASSERT_NE(module, nullptr);
  const Status status = LinkDeviceLibrary(*module, DeviceTarget::kNvptx64);
  ASSERT_TRUE(status.ok()) << status.ToString();

  std::string error;
  const llvm::Target* target =
      llvm::TargetRegistry::lookupTarget("nvptx64-nvidia-cuda", error);
  ASSERT_NE(target, nullptr) << error;
  // PTX ISA 7.0 is the first with sm_80.
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine("nvptx64-nvidia-cuda", "sm_80", "+ptx70",
                                  llvm::TargetOptions(), std::nullopt));
  ASSERT_NE(machine, nullptr);
  module->setDataLayout(machine->createDataLayout());
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream stream(ptx);
  llvm::legacy::PassManager passes;
  ASSERT_FALSE(machine->addPassesToEmitFile(passes, stream, nullptr,
                                            llvm::CGFT_AssemblyFile))
      << "NVPTX cannot emit PTX";
  passes.run(*module);
  const std::string text(ptx.str());
  EXPECT_NE(text.find(".target sm_80"), std::string::npos) << text;
  EXPECT_EQ(text.find(".extern .func"), std::string::npos)
      << "the PTX calls an external function:\n"
      << text;

  const std::string ptxas = FindPtxas();
  if (ptxas.empty()) {
    GTEST_SKIP() << "no ptxas on PATH or in /usr/local/cuda/bin: the PTX was "
                    "generated but not assembled";
  }
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() /
      ("phal_device_library_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory);
  const std::filesystem::path source = directory / "kernel.ptx";
  {
    std::FILE* file = std::fopen(source.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fwrite(text.data(), 1, text.size(), file);
    std::fclose(file);
  }
  const std::string command = ptxas + " -arch=sm_80 " + source.string() +
                              " -o " + (directory / "kernel.cubin").string();
  const int result = std::system(command.c_str());
  std::filesystem::remove_all(directory);
  EXPECT_EQ(result, 0) << "ptxas rejected the linked kernel: " << command;
}

}  // namespace
}  // namespace phal::llvm_emitter
