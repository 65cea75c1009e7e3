#include "core/hlo/window.h"

#include <functional>

namespace phal {
namespace {

// "3x3" from one field of every dimension.
std::string JoinField(
    const Window& window,
    const std::function<std::string(const WindowDimension&)>& field_text) {
  std::string text;
  for (std::size_t i = 0; i < window.dimensions.size(); ++i) {
    if (i > 0) text += "x";
    text += field_text(window.dimensions[i]);
  }
  return text;
}

bool AnyDimension(const Window& window,
                  const std::function<bool(const WindowDimension&)>& test) {
  for (const WindowDimension& dimension : window.dimensions) {
    if (test(dimension)) return true;
  }
  return false;
}

}  // namespace

std::string WindowToString(const Window& window) {
  if (window.dimensions.empty()) return "";
  std::string text = "size=" + JoinField(window, [](const WindowDimension& d) {
                       return std::to_string(d.size);
                     });
  if (AnyDimension(window,
                   [](const WindowDimension& d) { return d.stride != 1; })) {
    text += " stride=" + JoinField(window, [](const WindowDimension& d) {
              return std::to_string(d.stride);
            });
  }
  if (AnyDimension(window, [](const WindowDimension& d) {
        return d.padding_low != 0 || d.padding_high != 0;
      })) {
    text += " pad=" + JoinField(window, [](const WindowDimension& d) {
              return std::to_string(d.padding_low) + "_" +
                     std::to_string(d.padding_high);
            });
  }
  if (AnyDimension(window, [](const WindowDimension& d) {
        return d.base_dilation != 1;
      })) {
    text += " lhs_dilate=" + JoinField(window, [](const WindowDimension& d) {
              return std::to_string(d.base_dilation);
            });
  }
  if (AnyDimension(window, [](const WindowDimension& d) {
        return d.window_dilation != 1;
      })) {
    text += " rhs_dilate=" + JoinField(window, [](const WindowDimension& d) {
              return std::to_string(d.window_dilation);
            });
  }
  if (AnyDimension(
          window, [](const WindowDimension& d) { return d.window_reversal; })) {
    text += " rhs_reversal=" + JoinField(window, [](const WindowDimension& d) {
              return std::string(d.window_reversal ? "1" : "0");
            });
  }
  return text;
}

std::string PaddingConfigToString(const PaddingConfig& config) {
  std::string text;
  for (std::size_t i = 0; i < config.dimensions.size(); ++i) {
    const PaddingDimension& dimension = config.dimensions[i];
    if (i > 0) text += "x";
    text +=
        std::to_string(dimension.low) + "_" + std::to_string(dimension.high);
    if (dimension.interior != 0)
      text += "_" + std::to_string(dimension.interior);
  }
  return text;
}

}  // namespace phal
