// fft on the reference interpreter against values computed by hand: each
// fft_type, a length that is not a power of two, two and three transformed
// dimensions, batches, and the parts of IRFFT's input it must ignore.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/reference/interpreter_test_util.h"

namespace phal::testing {
namespace {

using C = std::complex<double>;

Literal ComplexLiteral(ElementType type, std::vector<int64_t> dims,
                       const std::vector<C>& values) {
  Literal literal(Shape(type, std::move(dims)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    literal.SetFromComplex(static_cast<int64_t>(i), values[i]);
  }
  return literal;
}

Literal RealLiteral(ElementType type, std::vector<int64_t> dims,
                    const std::vector<double>& values) {
  return Literal::FromValues(type, std::move(dims), values);
}

void ExpectComplexNear(const Literal& actual, const std::vector<C>& expected,
                       double tolerance) {
  ASSERT_EQ(actual.ElementCount(), static_cast<int64_t>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const C value = actual.GetAsComplex(static_cast<int64_t>(i));
    EXPECT_NEAR(value.real(), expected[i].real(), tolerance) << "element " << i;
    EXPECT_NEAR(value.imag(), expected[i].imag(), tolerance) << "element " << i;
  }
}

void ExpectRealNear(const Literal& actual, const std::vector<double>& expected,
                    double tolerance) {
  ASSERT_EQ(actual.ElementCount(), static_cast<int64_t>(expected.size()));
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual.GetAsDouble(static_cast<int64_t>(i)), expected[i],
                tolerance)
        << "element " << i;
  }
}

TEST(ReferenceFft, ForwardOfFourValues) {
  // sum_j x_j (-i)^(jk): [1+2+3+4, 1-2i-3+4i, 1-2+3-4, 1+2i-3-4i].
  Literal result =
      EvaluateOp("fft", {ComplexLiteral(kC128, {4}, {1, 2, 3, 4})},
                 Shape(kC128, {4}), "fft_type=FFT, fft_length={4}");
  ExpectComplexNear(result, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}, 1e-15);
}

TEST(ReferenceFft, ForwardOfALengthThatIsNotAPowerOfTwo) {
  // w = exp(-2 pi i / 3) = -1/2 - i sqrt(3)/2: X1 = 1 + 2w + 3w^2.
  const double h = std::sqrt(3.0) / 2;
  Literal result = EvaluateOp("fft", {ComplexLiteral(kC64, {3}, {1, 2, 3})},
                              Shape(kC64, {3}), "fft_type=FFT, fft_length={3}");
  ExpectComplexNear(result, {{6, 0}, {-1.5, h}, {-1.5, -h}}, 1e-6);
}

TEST(ReferenceFft, InverseDividesByTheLength) {
  Literal result = EvaluateOp(
      "fft",
      {ComplexLiteral(kC128, {4}, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}})},
      Shape(kC128, {4}), "fft_type=IFFT, fft_length={4}");
  ExpectComplexNear(result, {1, 2, 3, 4}, 1e-15);
}

TEST(ReferenceFft, TransformsEachRowOfABatch) {
  Literal result = EvaluateOp(
      "fft", {ComplexLiteral(kC128, {2, 2}, {1, 2, {0, 1}, {0, -1}})},
      Shape(kC128, {2, 2}), "fft_type=FFT, fft_length={2}");
  ExpectComplexNear(result, {3, -1, 0, {0, 2}}, 1e-15);
}

TEST(ReferenceFft, TwoDimensions) {
  // [[1,2],[3,4]]: rows give [[3,-1],[7,-1]], columns [[10,-2],[-4,0]].
  Literal result =
      EvaluateOp("fft", {ComplexLiteral(kC128, {2, 2}, {1, 2, 3, 4})},
                 Shape(kC128, {2, 2}), "fft_type=FFT, fft_length={2,2}");
  ExpectComplexNear(result, {10, -2, -4, 0}, 1e-15);
}

TEST(ReferenceFft, ThreeDimensionsOfAShiftedImpulse) {
  // x = delta at (0, 1, 2) of [2, 3, 5]: X[a,b,c] = exp(-2 pi i (b/3 +
  // 2c/5)) = exp(-2 pi i ((5b + 6c) mod 15) / 15).
  std::vector<C> input(30, 0);
  input[1 * 5 + 2] = 1;
  std::vector<C> expected;
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 5; ++c) {
        expected.push_back(
            std::polar(1.0, -2 * M_PI * ((5 * b + 6 * c) % 15) / 15.0));
      }
    }
  }
  Literal result =
      EvaluateOp("fft", {ComplexLiteral(kC128, {2, 3, 5}, input)},
                 Shape(kC128, {2, 3, 5}), "fft_type=FFT, fft_length={2,3,5}");
  ExpectComplexNear(result, expected, 1e-15);
}

TEST(ReferenceFft, RealForwardKeepsTheNonNegativeFrequencies) {
  Literal result =
      EvaluateOp("fft", {RealLiteral(kF32, {4}, {1, 2, 3, 4})},
                 Shape(kC64, {3}), "fft_type=RFFT, fft_length={4}");
  ExpectComplexNear(result, {10, {-2, 2}, -2}, 0);
  // Odd length 5: [15, -2.5 + 3.441i, -2.5 + 0.812i].
  Literal odd = EvaluateOp("fft", {RealLiteral(kF64, {5}, {1, 2, 3, 4, 5})},
                           Shape(kC128, {3}), "fft_type=RFFT, fft_length={5}");
  ExpectComplexNear(odd,
                    {15,
                     {-2.5, 2.5 / std::tan(M_PI / 5)},
                     {-2.5, 2.5 / std::tan(2 * M_PI / 5)}},
                    1e-14);
}

TEST(ReferenceFft, RealForwardOverTwoDimensions) {
  // [[1,2],[3,4]] as RFFT over both: the last dimension keeps 2/2+1 = 2.
  Literal result =
      EvaluateOp("fft", {RealLiteral(kF64, {2, 2}, {1, 2, 3, 4})},
                 Shape(kC128, {2, 2}), "fft_type=RFFT, fft_length={2,2}");
  ExpectComplexNear(result, {10, -2, -4, 0}, 1e-15);
}

TEST(ReferenceFft, RealInverseIgnoresTheImaginaryPartsSymmetryFixes) {
  // The spectrum of [1,2,3,4] with imaginary parts added to X0 and X2,
  // which a real signal's spectrum cannot have.
  Literal result = EvaluateOp(
      "fft", {ComplexLiteral(kC64, {3}, {{10, 5}, {-2, 2}, {-2, 7}})},
      Shape(kF32, {4}), "fft_type=IRFFT, fft_length={4}");
  ExpectRealNear(result, {1, 2, 3, 4}, 1e-6);
}

TEST(ReferenceFft, RealInverseOfAnOddLength) {
  Literal result =
      EvaluateOp("fft",
                 {ComplexLiteral(kC128, {3},
                                 {15,
                                  {-2.5, 2.5 / std::tan(M_PI / 5)},
                                  {-2.5, 2.5 / std::tan(2 * M_PI / 5)}})},
                 Shape(kF64, {5}), "fft_type=IRFFT, fft_length={5}");
  ExpectRealNear(result, {1, 2, 3, 4, 5}, 1e-14);
}

TEST(ReferenceFft, RealInverseOverTwoDimensions) {
  Literal result =
      EvaluateOp("fft", {ComplexLiteral(kC128, {2, 2}, {10, -2, -4, 0})},
                 Shape(kF64, {2, 2}), "fft_type=IRFFT, fft_length={2,2}");
  ExpectRealNear(result, {1, 2, 3, 4}, 1e-15);
}

TEST(ReferenceFft, EmptyTransformsGiveEmptyResults) {
  Literal result =
      EvaluateOp("fft", {RealLiteral(kF32, {3, 0}, {})}, Shape(kC64, {3, 0}),
                 "fft_type=RFFT, fft_length={0}");
  EXPECT_EQ(result.ElementCount(), 0);
}

}  // namespace
}  // namespace phal::testing
