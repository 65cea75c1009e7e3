#include "core/hlo/fft_type.h"

#include <array>
#include <utility>

namespace phal {
namespace {

constexpr std::array<std::pair<FftType, std::string_view>, 4> kFftTypeNames = {
    {{FftType::kFft, "FFT"},
     {FftType::kIfft, "IFFT"},
     {FftType::kRfft, "RFFT"},
     {FftType::kIrfft, "IRFFT"}}};

}  // namespace

std::string_view FftTypeName(FftType type) {
  for (const auto& [value, name] : kFftTypeNames) {
    if (value == type) return name;
  }
  return "";
}

std::optional<FftType> FftTypeFromName(std::string_view name) {
  for (const auto& [value, spelling] : kFftTypeNames) {
    if (spelling == name) return value;
  }
  return std::nullopt;
}

}  // namespace phal
