// FFT kernels (ABI 1.6) end to end: fft programs compiled through the
// phal_executable_* C API for the cpu plugin's device, which reports the
// kind, become one FFT kernel each, run the plugin's transform, and match
// the reference interpreter (the oracle: direct sums in double). Every
// fft_type, f32 and f64, the lengths of every path of the plugin (radix
// 4, 2, 3, 5, generic primes, Bluestein), one to three transformed
// dimensions with batch dimensions, zeros, large magnitudes and non-finite
// values. Skipped, with the reason, where the cpu plugin has no device.
#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

constexpr ElementType kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr ElementType kF64 = PHAL_ELEMENT_TYPE_F64;
constexpr ElementType kC64 = PHAL_ELEMENT_TYPE_C64;
constexpr ElementType kC128 = PHAL_ELEMENT_TYPE_C128;

// One fft: its type, the precision, the operand's dimensions and the
// lengths (the trailing dimensions of the real side).
struct FftCase {
  std::string type;   // "FFT", "IFFT", "RFFT", "IRFFT"
  bool wide = false;  // f64 / c128
  std::vector<int64_t> batch;
  std::vector<int64_t> lengths;

  ElementType OperandType() const {
    if (type == "RFFT") return wide ? kF64 : kF32;
    return wide ? kC128 : kC64;
  }
  ElementType ResultType() const {
    if (type == "IRFFT") return wide ? kF64 : kF32;
    return wide ? kC128 : kC64;
  }
  std::vector<int64_t> OperandDims() const {
    std::vector<int64_t> dims = batch;
    dims.insert(dims.end(), lengths.begin(), lengths.end());
    if (type == "IRFFT") dims.back() = lengths.back() / 2 + 1;
    return dims;
  }
  std::vector<int64_t> ResultDims() const {
    std::vector<int64_t> dims = batch;
    dims.insert(dims.end(), lengths.begin(), lengths.end());
    if (type == "RFFT") dims.back() = lengths.back() / 2 + 1;
    return dims;
  }
  std::string Text() const {
    std::ostringstream text;
    text << "HloModule fft\nENTRY main {\n  x = "
         << Shape(OperandType(), OperandDims()).ToString()
         << " parameter(0)\n  ROOT f = "
         << Shape(ResultType(), ResultDims()).ToString()
         << " fft(x), fft_type=" << type << ", fft_length={";
    for (size_t i = 0; i < lengths.size(); ++i) {
      text << (i ? "," : "") << lengths[i];
    }
    text << "}\n}\n";
    return text.str();
  }
  std::string Name() const {
    std::string name = type + (wide ? " f64 " : " f32 ") + "[";
    for (int64_t d : OperandDims()) name += std::to_string(d) + ",";
    return name + "]";
  }
  // log2 of the product of the lengths, at least 1.
  double Log2Size() const {
    double size = 1;
    for (int64_t n : lengths) size *= static_cast<double>(n);
    return std::max(1.0, std::log2(size));
  }
};

// Uniform values in [-scale, scale), real ones for a real operand.
Literal RandomOperand(const FftCase& c, double scale, uint32_t seed) {
  Literal literal(Shape(c.OperandType(), c.OperandDims()));
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-scale, scale);
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    if (IsComplex(c.OperandType())) {
      const double re = value(random);
      literal.SetFromComplex(i, {re, value(random)});
    } else {
      literal.SetFromDouble(i, value(random));
    }
  }
  return literal;
}

// The cpu plugin's device, and fft programs run on it.
class CpuFftKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    plugin_ = std::make_unique<PluginDevice>("cpu");
    device_ = plugin_->device();
    if (device_ == nullptr) GTEST_SKIP() << plugin_->absence();
  }

  // The result of `c`'s program on `operand`, compiled with `options`.
  Literal Run(const FftCase& c, const Literal& operand,
              const phal_compile_options_t* options = nullptr) {
    const std::string text = c.Text();
    Literal result(Shape(c.ResultType(), c.ResultDims()));
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        device_, text.data(), text.size(), options, &executable);
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status) << text;
    phal_status_free(status);
    if (executable == nullptr) return result;
    const phal_buffer_desc_t desc =
        BufferDesc(operand.element_type(), operand.shape().dims());
    phal_buffer_t* input = nullptr;
    EXPECT_EQ(phal_buffer_allocate(device_, &desc, &input), nullptr);
    EXPECT_EQ(phal_buffer_copy_from_host(input, 0, operand.data(),
                                         operand.byte_size()),
              nullptr);
    phal_buffer_t* output = nullptr;
    status = phal_executable_execute(executable, &input, 1, &output, 1);
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
    phal_status_free(status);
    if (output != nullptr) {
      EXPECT_EQ(phal_buffer_copy_to_host(output, 0, result.data(),
                                         result.byte_size()),
                nullptr);
    }
    phal_buffer_free(output);
    phal_buffer_free(input);
    phal_executable_free(executable);
    return result;
  }

  // `c` on `operand` against the reference: where the reference is
  // finite, within 8 ulps of the precision times log2 of the transform's
  // size, relative to the largest finite magnitude of the result; where
  // it is not, not finite either (an infinity may come out as NaN or the
  // other way round: the plugin adds in another order than the direct
  // sums). Returns the largest error in those units.
  double ExpectMatchesReference(const FftCase& c, const Literal& operand) {
    const std::string text = c.Text();
    const std::vector<Literal> expected = ReferenceLeaves(text, {operand});
    if (expected.size() != 1) {
      ADD_FAILURE() << "no reference result for " << c.Name();
      return 0;
    }
    const Literal actual = Run(c, operand);
    double largest = 0;
    for (int64_t i = 0; i < expected[0].ElementCount(); ++i) {
      const std::complex<double> e = expected[0].GetAsComplex(i);
      if (std::isfinite(e.real()) && std::isfinite(e.imag())) {
        largest = std::max(largest, std::abs(e));
      }
    }
    const double epsilon = c.wide ? std::numeric_limits<double>::epsilon()
                                  : std::numeric_limits<float>::epsilon();
    const double unit = epsilon * c.Log2Size() * largest;
    double worst = 0;
    for (int64_t i = 0; i < expected[0].ElementCount(); ++i) {
      const std::complex<double> e = expected[0].GetAsComplex(i);
      const std::complex<double> a = actual.GetAsComplex(i);
      const bool finite = std::isfinite(e.real()) && std::isfinite(e.imag());
      const bool actual_finite =
          std::isfinite(a.real()) && std::isfinite(a.imag());
      if (!finite || !actual_finite) {
        EXPECT_EQ(finite, actual_finite)
            << c.Name() << " element " << i << ": " << a << " vs " << e;
        continue;
      }
      const double error = std::abs(a - e);
      if (error == 0) continue;
      const double units = unit > 0 ? error / unit : HUGE_VAL;
      worst = std::max(worst, units);
      if (units > 8) {
        ADD_FAILURE() << c.Name() << " element " << i << ": " << a << " vs "
                      << e << ", " << units << " units of "
                      << "eps * log2(size) * max|result|";
        return worst;
      }
    }
    return worst;
  }

  std::unique_ptr<PluginDevice> plugin_;
  phal_device_t* device_ = nullptr;
};

const char* const kTypes[] = {"FFT", "IFFT", "RFFT", "IRFFT"};

TEST_F(CpuFftKernels, EveryLengthOfEveryTypeMatchesTheReference) {
  const int64_t lengths[] = {1,  2,   3,   5,   7,   8,    12,   16,   60,  64,
                             97, 127, 128, 210, 256, 1000, 1024, 4096, 4099};
  double worst = 0;
  for (const char* type : kTypes) {
    for (bool wide : {false, true}) {
      for (int64_t n : lengths) {
        // Fewer lines for the long ones: the reference sums directly.
        const FftCase c{type, wide, {n > 1000 ? 2 : 3}, {n}};
        worst = std::max(worst,
                         ExpectMatchesReference(c, RandomOperand(c, 1.0, 11)));
      }
    }
  }
  RecordProperty("worst_error_units", std::to_string(worst));
}

TEST_F(CpuFftKernels, TwoAndThreeDimensionsWithBatchesMatchTheReference) {
  const std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>
      shapes = {{{2}, {6, 10}},   {{3, 2}, {4, 5, 8}}, {{}, {16, 64}},
                {{2}, {97, 4}},   {{5}, {7, 9}},       {{}, {3, 12, 7}},
                {{2}, {1, 5, 1}}, {{3}, {128, 3}}};
  for (const char* type : kTypes) {
    for (bool wide : {false, true}) {
      for (const auto& [batch, lengths] : shapes) {
        const FftCase c{type, wide, batch, lengths};
        ExpectMatchesReference(c, RandomOperand(c, 1.0, 5));
      }
    }
  }
}

TEST_F(CpuFftKernels, ZerosTransformToZeros) {
  for (const char* type : kTypes) {
    for (bool wide : {false, true}) {
      const FftCase c{type, wide, {2}, {12, 6}};
      const Literal zeros(Shape(c.OperandType(), c.OperandDims()));
      const Literal result = Run(c, zeros);
      for (int64_t i = 0; i < result.ElementCount(); ++i) {
        ASSERT_EQ(result.GetAsComplex(i), std::complex<double>(0, 0))
            << c.Name() << " element " << i;
      }
    }
  }
}

TEST_F(CpuFftKernels, LargeMagnitudesMatchTheReference) {
  for (const char* type : kTypes) {
    for (bool wide : {false, true}) {
      const FftCase c{type, wide, {2}, {1000}};
      ExpectMatchesReference(c, RandomOperand(c, wide ? 1e200 : 1e30, 3));
    }
  }
}

TEST_F(CpuFftKernels, NonFiniteValuesReachWhatTheyReachInTheReference) {
  for (const char* type : {"FFT", "IFFT", "RFFT"}) {
    for (bool wide : {false, true}) {
      const FftCase c{type, wide, {3}, {8, 12}};
      Literal operand = RandomOperand(c, 1.0, 9);
      const double inf = std::numeric_limits<double>::infinity();
      const double nan = std::numeric_limits<double>::quiet_NaN();
      // An infinity in the first batch, a NaN in the last; the middle one
      // stays finite.
      if (IsComplex(c.OperandType())) {
        operand.SetFromComplex(5, {inf, 0});
        operand.SetFromComplex(2 * 96 + 40, {0, nan});
      } else {
        operand.SetFromDouble(5, -inf);
        operand.SetFromDouble(2 * 96 + 40, nan);
      }
      ExpectMatchesReference(c, operand);
    }
  }
}

TEST_F(CpuFftKernels, TheProgramIsOneFftKernelTheDeviceDumpsAsKir) {
  TempDir dir;
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  options.dump_directory = dir.path().c_str();
  const FftCase c{"RFFT", false, {64}, {4096}};
  const Literal operand = RandomOperand(c, 1.0, 1);
  Run(c, operand, &options);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    files.push_back(entry.path().filename().string());
  }
  ASSERT_EQ(files, std::vector<std::string>{"f.kir"})
      << "one kernel, the fft, whose device code is its KIR";
  std::ifstream file(dir.path() + "/f.kir");
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_NE(text.str().find("  fft RFFT length [4096] input 0 output 1"),
            std::string::npos)
      << text.str();
}

}  // namespace
}  // namespace phal::testing
