#include "core/hlo/text_cursor.h"

#include <cctype>
#include <charconv>

namespace phal {
namespace {

bool IsIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-';
}

}  // namespace

void TextCursor::SkipSpaces() {
  while (position_ < text_.size()) {
    if (std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    } else if (text_.substr(position_, 2) == "/*") {
      const std::size_t end = text_.find("*/", position_ + 2);
      position_ = end == std::string_view::npos ? text_.size() : end + 2;
    } else {
      return;
    }
  }
}

char TextCursor::Peek() {
  SkipSpaces();
  return position_ < text_.size() ? text_[position_] : '\0';
}

bool TextCursor::TryConsume(char c) {
  if (Peek() != c) return false;
  ++position_;
  return true;
}

bool TextCursor::TryConsumeWord(std::string_view word) {
  SkipSpaces();
  if (text_.substr(position_, word.size()) != word) return false;
  const std::size_t after = position_ + word.size();
  if (after < text_.size() && IsIdentifierChar(text_[after]) &&
      IsIdentifierChar(word.back())) {
    return false;
  }
  position_ = after;
  return true;
}

Status TextCursor::Expect(char c, std::string_view context) {
  if (TryConsume(c)) return OkStatus();
  const char found = Peek();
  return Error(
      "expected '" + std::string(1, c) + "' " + std::string(context) +
      ", found " +
      (found == '\0' ? "end of input" : "'" + std::string(1, found) + "'"));
}

StatusOr<int64_t> TextCursor::ReadInt(std::string_view what) {
  SkipSpaces();
  const std::size_t start = position_;
  std::size_t end = start;
  if (end < text_.size() && text_[end] == '-') ++end;
  while (end < text_.size() &&
         std::isdigit(static_cast<unsigned char>(text_[end]))) {
    ++end;
  }
  int64_t value = 0;
  const char* first = text_.data() + start;
  const char* last = text_.data() + end;
  const auto [stop, error] = std::from_chars(first, last, value);
  if (first == last || error != std::errc() || stop != last) {
    return Error("expected an integer for " + std::string(what));
  }
  position_ = end;
  return value;
}

StatusOr<std::vector<int64_t>> TextCursor::ReadIntList(char open, char close,
                                                       std::string_view what) {
  PHAL_RETURN_IF_ERROR(Expect(open, "to open " + std::string(what)));
  std::vector<int64_t> values;
  if (TryConsume(close)) return values;
  do {
    PHAL_ASSIGN_OR_RETURN(int64_t value, ReadInt(what));
    values.push_back(value);
  } while (TryConsume(','));
  PHAL_RETURN_IF_ERROR(Expect(close, "to close " + std::string(what)));
  return values;
}

StatusOr<std::string> TextCursor::ReadName(std::string_view what) {
  const char quote = Peek();
  if (quote == '\'' || quote == '"') {
    const std::size_t end = text_.find(quote, position_ + 1);
    if (end == std::string_view::npos) return Error("unterminated name");
    std::string name(text_.substr(position_ + 1, end - position_ - 1));
    position_ = end + 1;
    return name;
  }
  const std::size_t start = position_;
  while (position_ < text_.size() && IsIdentifierChar(text_[position_]) &&
         text_[position_] != '.') {
    ++position_;
  }
  if (position_ == start) return Error("expected " + std::string(what));
  return std::string(text_.substr(start, position_ - start));
}

Status TextCursor::Error(const std::string& message) {
  SkipSpaces();
  return ErrorAt(position_, message);
}

Status TextCursor::ErrorAt(std::size_t offset, const std::string& message) {
  error_offset_ = offset;
  return InvalidArgument(message);
}

}  // namespace phal
