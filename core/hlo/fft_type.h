// The attribute of an fft op that says which discrete Fourier transform it
// computes (StableHLO's fft_type, XLA's FftType).
#ifndef POLYHAL_CORE_HLO_FFT_TYPE_H_
#define POLYHAL_CORE_HLO_FFT_TYPE_H_

#include <optional>
#include <string_view>

namespace phal {

enum class FftType {
  kFft,    // complex to complex, forward: sum_j x_j exp(-2 pi i j k / n)
  kIfft,   // complex to complex, inverse: the forward sign flipped, over n
  kRfft,   // real to complex: the n/2+1 non-negative frequencies
  kIrfft,  // complex to real: the inverse of kRfft
};

// "FFT", "IFFT", "RFFT", "IRFFT".
std::string_view FftTypeName(FftType type);
std::optional<FftType> FftTypeFromName(std::string_view name);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_FFT_TYPE_H_
