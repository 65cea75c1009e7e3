// A source file held in memory, so that any stage reading it can turn a byte
// offset into a "file:line:column: error: message" diagnostic with the line
// and a caret. Offsets always refer to the whole file, so a part of a file
// split at "// -----" reports the line numbers of the whole file.
#ifndef POLYHAL_CORE_FRONTEND_SOURCE_TEXT_H_
#define POLYHAL_CORE_FRONTEND_SOURCE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "sdk/base/status.h"

namespace phal {

// A line and column, both counted from 1.
struct SourcePosition {
  int64_t line = 0;
  int64_t column = 0;
};

class SourceText {
 public:
  // `text` must outlive this object.
  SourceText(std::string_view text, std::string_view file_name)
      : text_(text), file_name_(file_name) {}

  std::string_view text() const { return text_; }
  const std::string& file_name() const { return file_name_; }

  SourcePosition PositionOf(std::size_t offset) const;
  // "file:line:column".
  std::string LocationOf(std::size_t offset) const;
  // "file:line:column: error: message", then the source line and a caret
  // under the column; INVALID_ARGUMENT unless `code` says otherwise
  // (UNIMPLEMENTED for valid input the front end does not support).
  Status ErrorAt(std::size_t offset, const std::string& message,
                 phal_status_code_t code = PHAL_INVALID_ARGUMENT) const;

 private:
  std::string_view text_;
  std::string file_name_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_SOURCE_TEXT_H_
