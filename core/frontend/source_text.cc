#include "core/frontend/source_text.h"

#include <algorithm>

namespace phal {

SourcePosition SourceText::PositionOf(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  SourcePosition position{1, 1};
  const std::string_view before = text_.substr(0, offset);
  position.line +=
      static_cast<int64_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t line_start = before.rfind('\n');
  const std::size_t start =
      line_start == std::string_view::npos ? 0 : line_start + 1;
  position.column = static_cast<int64_t>(offset - start) + 1;
  return position;
}

std::string SourceText::LocationOf(std::size_t offset) const {
  const SourcePosition position = PositionOf(offset);
  return file_name_ + ":" + std::to_string(position.line) + ":" +
         std::to_string(position.column);
}

Status SourceText::ErrorAt(std::size_t offset, const std::string& message,
                           phal_status_code_t code) const {
  offset = std::min(offset, text_.size());
  const SourcePosition position = PositionOf(offset);
  const std::size_t line_start =
      offset - static_cast<std::size_t>(position.column - 1);
  std::size_t line_end = text_.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text_.size();
  std::string line(text_.substr(line_start, line_end - line_start));
  // Non-printable bytes would garble the terminal and shift the caret.
  for (char& c : line) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = '?';
    if (static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return Status(
      code,
      LocationOf(offset) + ": error: " + message + "\n" + line + "\n" +
          std::string(static_cast<std::size_t>(position.column - 1), ' ') +
          "^");
}

}  // namespace phal
