// The plugin's FFT: plans of every kind of length against direct sums in
// long double, and FFT kernels (ABI 1.6) through the plugin's slots, every
// fft_type over one to three dimensions and in both precisions, serialized
// and deserialized, and refused when malformed. The differential tests
// against the reference interpreter, through the core's compiler, are in
// core/compiler/fft_kernel_test.cc.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "plugins/cpu/cpu_fft.h"
#include "plugins/cpu/cpu_fft_plan.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::cpu {
namespace {

using ::phal::plugin_testing::FakeHost;
using ::phal::plugin_testing::FromBytes;
using ::phal::plugin_testing::HasCode;
using ::phal::plugin_testing::IsOk;
using ::phal::plugin_testing::PluginTest;
using ::phal::plugin_testing::TestedPlugin;
using ::phal::plugin_testing::ToBytes;

using Exact = std::complex<long double>;

// ---- the direct sums --------------------------------------------------------

// A row-major array of complex values in long double.
struct ExactArray {
  std::vector<int64_t> dims;
  std::vector<Exact> values;
};

int64_t Product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t product = 1;
  for (size_t d = begin; d < end; ++d) product *= dims[d];
  return product;
}

// out[k] = sum_j in[j] exp(sign 2 pi i j k / n) along `dimension`, over n
// (the inverse's scale) when `inverse`.
ExactArray DirectAlong(const ExactArray& in, size_t dimension, bool inverse) {
  const int64_t n = in.dims[dimension];
  const int64_t outer = Product(in.dims, 0, dimension);
  const int64_t inner = Product(in.dims, dimension + 1, in.dims.size());
  ExactArray out{in.dims, std::vector<Exact>(in.values.size())};
  const long double sign = inverse ? 1.0L : -1.0L;
  std::vector<Exact> roots;
  for (int64_t m = 0; m < n; ++m) {
    const long double angle = 2 * std::numbers::pi_v<long double> *
                              static_cast<long double>(m) /
                              static_cast<long double>(n);
    roots.push_back(std::polar(1.0L, sign * angle));
  }
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t k = 0; k < n; ++k) {
        Exact sum = 0;
        int64_t m = 0;  // j * k mod n
        for (int64_t j = 0; j < n; ++j) {
          sum += in.values[static_cast<size_t>((o * n + j) * inner + i)] *
                 roots[static_cast<size_t>(m)];
          m += k;
          if (m >= n) m -= n;
        }
        if (inverse) sum /= static_cast<long double>(n);
        out.values[static_cast<size_t>((o * n + k) * inner + i)] = sum;
      }
    }
  }
  return out;
}

// The last dimension of `in` cut to `length` elements (RFFT's n/2 + 1), or
// extended from n/2 + 1 to `length` by Hermitian symmetry with the
// imaginary parts of X[0] and X[n/2] dropped (IRFFT's input).
ExactArray ResizeLast(const ExactArray& in, int64_t length, bool extend) {
  const int64_t have = in.dims.back();
  ExactArray out{in.dims, {}};
  out.dims.back() = length;
  const int64_t rows = Product(in.dims, 0, in.dims.size() - 1);
  for (int64_t r = 0; r < rows; ++r) {
    const Exact* row = in.values.data() + r * have;
    for (int64_t k = 0; k < length; ++k) {
      if (!extend) {
        out.values.push_back(row[k]);
        continue;
      }
      Exact value = k < have ? row[k] : std::conj(row[length - k]);
      if (k == 0 || 2 * k == length) value = value.real();
      out.values.push_back(value);
    }
  }
  return out;
}

// The StableHLO fft of `in` over its last `lengths.size()` dimensions.
ExactArray DirectFft(phal_kir_fft_type_t type, ExactArray in,
                     const std::vector<int64_t>& lengths) {
  const size_t rank = in.dims.size();
  const size_t first = rank - lengths.size();
  switch (type) {
    case PHAL_KIR_FFT_TYPE_FFT:
      for (size_t d = rank; d-- > first;) in = DirectAlong(in, d, false);
      return in;
    case PHAL_KIR_FFT_TYPE_IFFT:
      for (size_t d = first; d < rank; ++d) in = DirectAlong(in, d, true);
      return in;
    case PHAL_KIR_FFT_TYPE_RFFT:
      for (size_t d = rank; d-- > first;) in = DirectAlong(in, d, false);
      return ResizeLast(in, lengths.back() / 2 + 1, false);
    case PHAL_KIR_FFT_TYPE_IRFFT:
      for (size_t d = first; d + 1 < rank; ++d) in = DirectAlong(in, d, true);
      in = ResizeLast(in, lengths.back(), true);
      in = DirectAlong(in, rank - 1, true);
      for (Exact& value : in.values) value = value.real();
      return in;
  }
  return in;
}

// Every value of `actual` within a few ulps of `T` times log2 of the
// transform's size of `expected`, relative to its largest magnitude.
template <typename T>
void ExpectClose(const std::vector<std::complex<T>>& actual,
                 const ExactArray& expected, int64_t size,
                 const std::string& what) {
  ASSERT_EQ(actual.size(), expected.values.size()) << what;
  long double largest = 0;
  for (const Exact& value : expected.values) {
    largest = std::max(largest, std::abs(value));
  }
  const long double bound = 8 * std::numeric_limits<T>::epsilon() *
                            (std::log2(static_cast<long double>(size)) + 1) *
                            largest;
  for (size_t i = 0; i < actual.size(); ++i) {
    const Exact a(actual[i].real(), actual[i].imag());
    ASSERT_LE(std::abs(a - expected.values[i]), bound)
        << what << ": element " << i << " is " << a << ", expected "
        << expected.values[i];
  }
}

// ---- plans ------------------------------------------------------------------

ExactArray RandomLine(int64_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  ExactArray line{{n}, {}};
  for (int64_t j = 0; j < n; ++j) {
    line.values.emplace_back(value(random), value(random));
  }
  return line;
}

template <typename T>
void ExpectPlanMatchesDirectSum(int64_t n) {
  const FftPlan<T> plan = MakeFftPlan<T>(n);
  const ExactArray line = RandomLine(n, static_cast<uint32_t>(n));
  std::vector<Lane<T>> a(static_cast<size_t>(plan.buffer_length()));
  std::vector<Lane<T>> b(a.size());
  for (int64_t j = 0; j < n; ++j) {
    a[static_cast<size_t>(j)] = {static_cast<T>(line.values[j].real()),
                                 static_cast<T>(line.values[j].imag())};
  }
  ExactArray rounded{{n}, {}};
  for (int64_t j = 0; j < n; ++j) {
    rounded.values.emplace_back(a[static_cast<size_t>(j)].re,
                                a[static_cast<size_t>(j)].im);
  }
  const Lane<T>* result = ExecuteFft(plan, a.data(), b.data());
  std::vector<std::complex<T>> actual;
  for (int64_t k = 0; k < n; ++k)
    actual.emplace_back(result[k].re, result[k].im);
  ExpectClose(actual, DirectAlong(rounded, 0, false), n,
              "length " + std::to_string(n));
}

TEST(FftPlan, FactorsIntoRadixFourFirstThenTwoThreeFiveAndGenericPrimes) {
  const FftPlan<double> plan = MakeFftPlan<double>(4 * 4 * 2 * 3 * 5 * 7 * 11);
  std::vector<int64_t> radices;
  for (const FftPass<double>& pass : plan.passes) radices.push_back(pass.radix);
  EXPECT_EQ(radices, (std::vector<int64_t>{4, 4, 2, 3, 5, 7, 11}));
  EXPECT_EQ(plan.convolution_length, 0);
}

TEST(FftPlan, LengthsWithAPrimeFactorAbove64RunBluestein) {
  const FftPlan<float> plan = MakeFftPlan<float>(2 * 97);
  EXPECT_TRUE(plan.passes.empty());
  EXPECT_EQ(plan.convolution_length, 512) << "the power of two >= 2n - 1";
  ASSERT_NE(plan.convolution, nullptr);
  EXPECT_EQ(plan.convolution->length, 512);
  EXPECT_EQ(plan.buffer_length(), 512);
  EXPECT_EQ(MakeFftPlan<float>(61).convolution_length, 0)
      << "61 is a generic radix";
}

TEST(FftPlan, EveryLengthUpTo130MatchesTheDirectSum) {
  for (int64_t n = 1; n <= 130; ++n) {
    ExpectPlanMatchesDirectSum<double>(n);
    ExpectPlanMatchesDirectSum<float>(n);
  }
}

TEST(FftPlan, LargeMixedAndPrimeLengthsMatchTheDirectSum) {
  for (int64_t n : {210, 1000, 1024, 4096, 4099}) {
    ExpectPlanMatchesDirectSum<double>(n);
    ExpectPlanMatchesDirectSum<float>(n);
  }
}

TEST(FftPlan, UnitRootsAreExactAtQuarterTurns) {
  EXPECT_EQ(UnitRoot(0, 8), std::complex<double>(1, -0.0));
  EXPECT_EQ(UnitRoot(2, 8), std::complex<double>(0, -1));
  EXPECT_EQ(UnitRoot(4, 8), std::complex<double>(-1, 0));
  EXPECT_EQ(UnitRoot(6, 8), std::complex<double>(0, 1));
  EXPECT_EQ(UnitRoot(-2, 8), UnitRoot(6, 8));
  const std::complex<double> w = UnitRoot(1, 12);
  EXPECT_NEAR(w.real(), std::cos(std::numbers::pi / 6), 1e-16);
  EXPECT_NEAR(w.imag(), -std::sin(std::numbers::pi / 6), 1e-16);
}

// ---- FFT kernels through the plugin -----------------------------------------

bool IsDouble(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_F64 || type == PHAL_ELEMENT_TYPE_C128;
}

// An FFT kernel of `type` reading `input_dims` of `input_type`.
KirKernel FftKernelOf(phal_kir_fft_type_t type, phal_element_type_t input_type,
                      const std::vector<int64_t>& input_dims,
                      const std::vector<int64_t>& lengths) {
  const bool wide = IsDouble(input_type);
  const phal_element_type_t real =
      wide ? PHAL_ELEMENT_TYPE_F64 : PHAL_ELEMENT_TYPE_F32;
  const phal_element_type_t complex =
      wide ? PHAL_ELEMENT_TYPE_C128 : PHAL_ELEMENT_TYPE_C64;
  std::vector<int64_t> output_dims = input_dims;
  if (type == PHAL_KIR_FFT_TYPE_RFFT)
    output_dims.back() = lengths.back() / 2 + 1;
  if (type == PHAL_KIR_FFT_TYPE_IRFFT) output_dims.back() = lengths.back();
  KirKernel kernel("fft", PHAL_KERNEL_KIND_FFT);
  kernel.fft.input = kernel.AddBuffer(input_type, input_dims);
  kernel.fft.output =
      kernel.AddBuffer(type == PHAL_KIR_FFT_TYPE_IRFFT ? real : complex,
                       output_dims, PHAL_KIR_ACCESS_WRITE);
  kernel.fft.fft_type = type;
  kernel.arrays[KirKernel::kFftLength] = lengths;
  return kernel;
}

// Values of `dims` from `seed` (real ones with a zero imaginary part).
ExactArray RandomArray(const std::vector<int64_t>& dims, bool real,
                       uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  ExactArray array{dims, {}};
  for (int64_t i = 0; i < Product(dims, 0, dims.size()); ++i) {
    const double re = value(random);
    array.values.emplace_back(re, real ? 0.0 : value(random));
  }
  return array;
}

// `array` in the storage of `type`, rounded.
template <typename T>
std::vector<uint8_t> Stored(const ExactArray& array, bool real) {
  std::vector<T> values;
  for (const Exact& value : array.values) {
    values.push_back(static_cast<T>(value.real()));
    if (!real) values.push_back(static_cast<T>(value.imag()));
  }
  return ToBytes(values);
}

// The stored values read back in long double.
template <typename T>
ExactArray Loaded(const std::vector<uint8_t>& bytes,
                  const std::vector<int64_t>& dims, bool real) {
  const std::vector<T> values = FromBytes<T>(bytes);
  ExactArray array{dims, {}};
  const size_t width = real ? 1 : 2;
  for (size_t i = 0; i < values.size(); i += width) {
    array.values.emplace_back(values[i], real ? T(0) : values[i + 1]);
  }
  return array;
}

template <typename T>
std::vector<std::complex<T>> Complexes(const std::vector<uint8_t>& bytes,
                                       bool real) {
  const ExactArray loaded = Loaded<T>(bytes, {}, real);
  std::vector<std::complex<T>> values;
  for (const Exact& value : loaded.values) {
    values.emplace_back(static_cast<T>(value.real()),
                        static_cast<T>(value.imag()));
  }
  return values;
}

class CpuFftKernelTest : public PluginTest {
 protected:
  // Emits and runs `kernel` on `input` (of the kernel's input buffer);
  // returns the output's bytes.
  std::vector<uint8_t> RunKernel(KirKernel& kernel,
                                 const std::vector<uint8_t>& input) {
    const phal_kernel_desc_t& desc = kernel.Desc();
    phal_plugin_kernel_t* emitted = Emit(desc);
    if (emitted == nullptr) return {};
    return RunEmitted(emitted, kernel, input);
  }

  std::vector<uint8_t> RunEmitted(phal_plugin_kernel_t* emitted,
                                  KirKernel& kernel,
                                  const std::vector<uint8_t>& input) {
    const phal_kernel_desc_t& desc = kernel.Desc();
    std::vector<std::vector<uint8_t>> contents(2);
    contents[desc.u.fft->input] = input;
    const phal_kir_buffer_t& output = desc.buffers[desc.u.fft->output];
    uint64_t bytes = output.element_type == PHAL_ELEMENT_TYPE_F32    ? 4
                     : output.element_type == PHAL_ELEMENT_TYPE_C128 ? 16
                                                                     : 8;
    for (uint32_t d = 0; d < output.rank; ++d) {
      bytes *= static_cast<uint64_t>(output.dims[d]);
    }
    contents[desc.u.fft->output].assign(bytes, 0xEE);
    Run(emitted, contents);
    return contents[desc.u.fft->output];
  }

  // One fft of every kind of `dims` (the input's for FFT, IFFT and RFFT;
  // the output's for IRFFT) against the direct sums.
  template <typename T>
  void ExpectMatchesDirectSums(phal_kir_fft_type_t type,
                               const std::vector<int64_t>& dims, size_t rank) {
    const std::vector<int64_t> lengths(dims.end() - rank, dims.end());
    const bool wide = std::is_same_v<T, double>;
    const phal_element_type_t real =
        wide ? PHAL_ELEMENT_TYPE_F64 : PHAL_ELEMENT_TYPE_F32;
    const phal_element_type_t complex =
        wide ? PHAL_ELEMENT_TYPE_C128 : PHAL_ELEMENT_TYPE_C64;
    std::vector<int64_t> input_dims = dims;
    if (type == PHAL_KIR_FFT_TYPE_IRFFT) {
      input_dims.back() = lengths.back() / 2 + 1;
    }
    const bool real_input = type == PHAL_KIR_FFT_TYPE_RFFT;
    KirKernel kernel =
        FftKernelOf(type, real_input ? real : complex, input_dims, lengths);
    const ExactArray input = RandomArray(input_dims, real_input, 7);
    const std::vector<uint8_t> stored = Stored<T>(input, real_input);
    const std::vector<uint8_t> output = RunKernel(kernel, stored);
    const ExactArray expected =
        DirectFft(type, Loaded<T>(stored, input_dims, real_input), lengths);
    const bool real_output = type == PHAL_KIR_FFT_TYPE_IRFFT;
    int64_t size = 1;
    for (int64_t n : lengths) size *= n;
    std::string what = std::string("fft_type ") + std::to_string(type) +
                       (wide ? " f64" : " f32") + " dims [";
    for (int64_t d : dims) what += std::to_string(d) + ",";
    ExpectClose(Complexes<T>(output, real_output), expected, size,
                what + "] rank " + std::to_string(rank));
  }
};

TEST_F(CpuFftKernelTest, TheDeviceReportsTheFftKind) {
  EXPECT_NE(
      properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT),
      0u);
  EXPECT_GE(TestedPlugin().api().abi_version, PHAL_MAKE_VERSION(1, 6));
}

TEST_F(CpuFftKernelTest, EveryTypeOverOneToThreeDimensionsMatchesDirectSums) {
  const std::vector<std::pair<std::vector<int64_t>, size_t>> shapes = {
      {{3, 16}, 1},      {{5, 12}, 1},    {{2, 7}, 1},    {{9, 1}, 1},
      {{1, 97}, 1},      {{4, 6, 10}, 2}, {{3, 5, 9}, 2}, {{17, 8}, 2},
      {{2, 4, 3, 6}, 3}, {{3, 2, 5}, 3}};
  for (phal_kir_fft_type_t type :
       {PHAL_KIR_FFT_TYPE_FFT, PHAL_KIR_FFT_TYPE_IFFT, PHAL_KIR_FFT_TYPE_RFFT,
        PHAL_KIR_FFT_TYPE_IRFFT}) {
    for (const auto& [dims, rank] : shapes) {
      ExpectMatchesDirectSums<float>(type, dims, rank);
      ExpectMatchesDirectSums<double>(type, dims, rank);
    }
  }
}

TEST_F(CpuFftKernelTest, IrfftIgnoresTheImaginaryPartsOfTheRealFrequencies) {
  // n = 8: X[0] and X[4] are real in a Hermitian spectrum; whatever their
  // imaginary parts hold, NaN included, the result is the same.
  KirKernel kernel =
      FftKernelOf(PHAL_KIR_FFT_TYPE_IRFFT, PHAL_ELEMENT_TYPE_C64, {5}, {8});
  std::vector<float> spectrum = {1, 0, 2, -1, 0.5f, 3, -2, 0.25f, 4, 0};
  const std::vector<uint8_t> clean = RunKernel(kernel, ToBytes(spectrum));
  spectrum[1] = std::numeric_limits<float>::quiet_NaN();
  spectrum[9] = 1e30f;
  EXPECT_EQ(RunKernel(kernel, ToBytes(spectrum)), clean);
}

TEST_F(CpuFftKernelTest, NonFiniteInputsReachEveryOutputOfTheirLine) {
  KirKernel kernel =
      FftKernelOf(PHAL_KIR_FFT_TYPE_FFT, PHAL_ELEMENT_TYPE_C64, {2, 12}, {12});
  std::vector<float> values(48, 0.5f);
  values[6] = std::numeric_limits<float>::infinity();
  const std::vector<float> result =
      FromBytes<float>(RunKernel(kernel, ToBytes(values)));
  for (size_t k = 0; k < 12; ++k) {
    EXPECT_FALSE(std::isfinite(result[2 * k]) &&
                 std::isfinite(result[2 * k + 1]))
        << "frequency " << k << " of the line with inf";
    EXPECT_TRUE(std::isfinite(result[24 + 2 * k]))
        << "frequency " << k << " of the other line";
  }
}

TEST_F(CpuFftKernelTest, EmptyTransformsWriteNothing) {
  KirKernel kernel =
      FftKernelOf(PHAL_KIR_FFT_TYPE_RFFT, PHAL_ELEMENT_TYPE_F32, {0, 8}, {8});
  EXPECT_TRUE(RunKernel(kernel, {}).empty());
  KirKernel zero_length =
      FftKernelOf(PHAL_KIR_FFT_TYPE_FFT, PHAL_ELEMENT_TYPE_C128, {3, 0}, {0});
  EXPECT_TRUE(RunKernel(zero_length, {}).empty());
}

std::string Serialize(phal_plugin_kernel_t* kernel) {
  void* data = nullptr;
  uint64_t size = 0;
  EXPECT_TRUE(
      IsOk(TestedPlugin().api().kernel_serialize(kernel, &data, &size)));
  std::string bytes(static_cast<const char*>(data), size);
  FakeHost().host_free(data);
  return bytes;
}

TEST_F(CpuFftKernelTest, ASerializedFftKernelDeserializesAndComputesTheSame) {
  KirKernel kernel = FftKernelOf(PHAL_KIR_FFT_TYPE_RFFT, PHAL_ELEMENT_TYPE_F64,
                                 {3, 6, 10}, {6, 10});
  const ExactArray input = RandomArray({3, 6, 10}, true, 3);
  const std::vector<uint8_t> stored = Stored<double>(input, true);
  phal_plugin_kernel_t* emitted = Emit(kernel.Desc());
  ASSERT_NE(emitted, nullptr);
  const std::vector<uint8_t> original = RunEmitted(emitted, kernel, stored);
  const std::string bytes = Serialize(emitted);
  phal_plugin_kernel_t* restored = nullptr;
  ASSERT_TRUE(IsOk(api().kernel_deserialize(device_, bytes.data(), bytes.size(),
                                            &restored)));
  EXPECT_EQ(RunEmitted(restored, kernel, stored), original);
  EXPECT_EQ(Serialize(restored), bytes);
  api().kernel_destroy(restored);

  // Cut short anywhere in the FFT's shape, the bytes are refused.
  for (size_t cut : {bytes.size() - 1, bytes.size() / 2}) {
    phal_plugin_kernel_t* truncated = nullptr;
    EXPECT_TRUE(HasCode(
        api().kernel_deserialize(device_, bytes.data(), cut, &truncated),
        PHAL_INVALID_ARGUMENT));
    EXPECT_EQ(truncated, nullptr);
  }
}

TEST_F(CpuFftKernelTest, ShapesDecodedFromBytesAreChecked) {
  FftShape shape;
  shape.rank = 1;
  shape.lengths[0] = 8;
  shape.batch = 2;
  shape.output = 1;
  EXPECT_TRUE(IsOk(CheckFftShape(shape, 2)));
  FftShape same_buffer = shape;
  same_buffer.output = 0;
  EXPECT_FALSE(CheckFftShape(same_buffer, 2).ok());
  FftShape too_many = shape;
  too_many.rank = 4;
  EXPECT_FALSE(CheckFftShape(too_many, 2).ok());
  FftShape huge = shape;
  huge.lengths[0] = int64_t{1} << 62;
  EXPECT_FALSE(CheckFftShape(huge, 2).ok());
  FftShape negative = shape;
  negative.batch = -1;
  EXPECT_FALSE(CheckFftShape(negative, 2).ok());
}

TEST_F(CpuFftKernelTest, MalformedFftKernelsAreRefused) {
  KirKernel wrong_type =
      FftKernelOf(PHAL_KIR_FFT_TYPE_FFT, PHAL_ELEMENT_TYPE_F32, {4, 8}, {8});
  phal_plugin_kernel_t* kernel = nullptr;
  EXPECT_TRUE(
      HasCode(api().kernel_emit(device_, &wrong_type.Desc(), nullptr, &kernel),
              PHAL_INVALID_ARGUMENT));
  KirKernel wrong_length =
      FftKernelOf(PHAL_KIR_FFT_TYPE_RFFT, PHAL_ELEMENT_TYPE_F32, {4, 8}, {6});
  EXPECT_TRUE(HasCode(
      api().kernel_emit(device_, &wrong_length.Desc(), nullptr, &kernel),
      PHAL_INVALID_ARGUMENT));
  EXPECT_EQ(kernel, nullptr);
}

}  // namespace
}  // namespace phal::cpu
