// Window and padding attributes: how reduce-window, select-and-scatter and
// convolution slide over an operand, and how pad grows one.
#ifndef POLYHAL_CORE_HLO_WINDOW_H_
#define POLYHAL_CORE_HLO_WINDOW_H_

#include <cstdint>
#include <string>
#include <vector>

namespace phal {

// One spatial dimension of a window. Defaults are the identity values XLA
// omits when printing.
struct WindowDimension {
  int64_t size = 1;
  int64_t stride = 1;
  int64_t padding_low = 0;
  int64_t padding_high = 0;
  // Dilation of the base (operand; "lhs_dilate" in convolutions).
  int64_t base_dilation = 1;
  // Dilation of the window (kernel; "rhs_dilate" in convolutions).
  int64_t window_dilation = 1;
  // Convolution only: the kernel is flipped along this dimension.
  bool window_reversal = false;

  bool operator==(const WindowDimension&) const = default;
};

// A window over every (spatial) dimension, outermost first.
struct Window {
  std::vector<WindowDimension> dimensions;

  bool operator==(const Window&) const = default;
};

// XLA text for a window: "size=3x3 stride=2x2 pad=1_1x1_1", listing only the
// fields that differ from the identity. Empty for a window of no dimensions.
std::string WindowToString(const Window& window);

// Padding of one dimension of a pad op. Low and high may be negative (they
// then cut elements off); interior is the number of elements inserted
// between each pair of neighbours and is never negative.
struct PaddingDimension {
  int64_t low = 0;
  int64_t high = 0;
  int64_t interior = 0;

  bool operator==(const PaddingDimension&) const = default;
};

struct PaddingConfig {
  std::vector<PaddingDimension> dimensions;

  bool operator==(const PaddingConfig&) const = default;
};

// XLA text for a padding config: "0_0x1_2_1" (interior omitted when 0).
std::string PaddingConfigToString(const PaddingConfig& config);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_WINDOW_H_
