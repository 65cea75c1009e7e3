// fft: every fft_type over one, two and three trailing dimensions, lengths
// that are not powers of two (primes among them) and long transforms whose
// twiddles plugins compute in the kernel, in both precisions. Each output
// element sums every element of the lines it transforms, so the bound is
// accumulation over the product of the lengths.
#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"

namespace phal::conformance {
namespace {

struct FftSpec {
  const char* variant;
  const char* fft_type;
  const char* shape_class;
  std::vector<int64_t> operand;  // dimensions
  std::vector<int64_t> length;   // fft_length
};

std::vector<FftSpec> FftSpecs() {
  return {{"fft_1d", "FFT", "npot", {5, 12}, {12}},
          {"fft_1d", "FFT", "prime", {3, 97}, {97}},
          {"fft_1d", "FFT", "large", {8, 256}, {256}},
          {"fft_2d", "FFT", "npot", {3, 6, 10}, {6, 10}},
          {"fft_3d", "FFT", "npot", {2, 3, 5, 4}, {3, 5, 4}},
          {"ifft_1d", "IFFT", "npot", {4, 9}, {9}},
          {"ifft_2d", "IFFT", "npot", {5, 8}, {5, 8}},
          {"ifft_3d", "IFFT", "npot", {2, 3, 4}, {2, 3, 4}},
          {"rfft_1d", "RFFT", "npot", {6, 10}, {10}},
          {"rfft_1d", "RFFT", "odd", {4, 11}, {11}},
          {"rfft_2d", "RFFT", "npot", {3, 5, 8}, {5, 8}},
          {"rfft_3d", "RFFT", "npot", {2, 3, 7}, {2, 3, 7}},
          {"irfft_1d", "IRFFT", "npot", {6, 6}, {10}},
          {"irfft_1d", "IRFFT", "odd", {4, 6}, {11}},
          {"irfft_2d", "IRFFT", "npot", {3, 5, 5}, {5, 8}},
          {"irfft_3d", "IRFFT", "npot", {2, 3, 4}, {2, 3, 7}},
          // Beyond the twiddle tables the compiler computes on the host.
          {"fft_1d", "FFT", "long", {1, 1100}, {1100}},
          {"rfft_1d", "RFFT", "long", {1, 2100}, {2100}},
          {"irfft_1d", "IRFFT", "long", {1, 1051}, {2100}}};
}

void AddFft(const FftSpec& spec, ElementType complex_type,
            std::vector<Case>* cases) {
  const ElementType real_type = ComplexComponentType(complex_type);
  const std::string fft_type = spec.fft_type;
  const ElementType operand_type =
      fft_type == "RFFT" ? real_type : complex_type;
  const ElementType result_type =
      fft_type == "IRFFT" ? real_type : complex_type;
  std::vector<int64_t> result = spec.operand;
  int64_t terms = 1;
  for (std::size_t i = 0; i < spec.length.size(); ++i) {
    const std::size_t d = result.size() - spec.length.size() + i;
    result[d] = spec.length[i];
    terms *= spec.length[i];
  }
  if (fft_type == "RFFT") result.back() = spec.length.back() / 2 + 1;
  Case c = NumericCase("fft", spec.variant, complex_type, 3, spec.shape_class,
                       "random", "", {RandomValues()}, Accumulation(terms));
  c.module_text = ModuleText(c.id, {},
                             {ParameterLine(0, operand_type, spec.operand),
                              "ROOT r = " + ShapeText(result_type, result) +
                                  " fft(p0), fft_type=" + fft_type +
                                  ", fft_length=" + DimsText(spec.length)});
  cases->push_back(std::move(c));
}

}  // namespace

std::vector<Case> FftCases() {
  std::vector<Case> cases;
  for (ElementType type : ComplexTypes()) {
    for (const FftSpec& spec : FftSpecs()) AddFft(spec, type, &cases);
  }
  return cases;
}

}  // namespace phal::conformance
