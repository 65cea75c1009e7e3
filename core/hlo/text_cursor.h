// A read position in attribute text, for the small readers of core/hlo
// (tile assignments, replica groups, shardings) that both front ends use.
// A reader that fails leaves error_offset() at the fault, so that the
// caller can report the error at its line and column in the whole file.
#ifndef POLYHAL_CORE_HLO_TEXT_CURSOR_H_
#define POLYHAL_CORE_HLO_TEXT_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/status.h"

namespace phal {

class TextCursor {
 public:
  // Reads `text` from byte `position`; offsets are into `text`.
  explicit TextCursor(std::string_view text, std::size_t position = 0)
      : text_(text), position_(position) {}

  std::string_view text() const { return text_; }
  std::size_t position() const { return position_; }
  void set_position(std::size_t position) { position_ = position; }
  // Where the last Error() was raised.
  std::size_t error_offset() const { return error_offset_; }

  // Skips whitespace and /*...*/ comments (XLA writes /*index=5*/ in
  // long lists).
  void SkipSpaces();
  // The next character after spaces, or '\0' at the end.
  char Peek();
  bool AtEnd() { return Peek() == '\0'; }
  bool TryConsume(char c);
  // Consumes `word` when the text continues with it (after spaces) and the
  // word is not followed by another identifier character.
  bool TryConsumeWord(std::string_view word);
  Status Expect(char c, std::string_view context);
  StatusOr<int64_t> ReadInt(std::string_view what);
  // Integers between `open` and `close`, separated by commas: "{0,1}",
  // "[2,2]", "(1,0)". May be empty.
  StatusOr<std::vector<int64_t>> ReadIntList(char open, char close,
                                             std::string_view what);
  // A name quoted with ' or ", or a bare identifier.
  StatusOr<std::string> ReadName(std::string_view what);

  // An INVALID_ARGUMENT status with `message`, raised at the current
  // position (after spaces) or at `offset`.
  Status Error(const std::string& message);
  Status ErrorAt(std::size_t offset, const std::string& message);

 private:
  std::string_view text_;
  std::size_t position_ = 0;
  std::size_t error_offset_ = 0;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_TEXT_CURSOR_H_
