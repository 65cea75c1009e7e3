#include "core/frontend/mlir_lexer.h"

#include <cctype>

namespace phal {
namespace {

bool IsIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool IsIdentifierBody(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}

bool IsBareBody(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

void MlirLexer::SkipWhitespaceAndComments() {
  while (position_ < end_) {
    const char c = text_[position_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++position_;
    } else if (c == '/' && Peek(1) == '/') {
      while (position_ < end_ && text_[position_] != '\n') ++position_;
    } else {
      return;
    }
  }
}

MlirToken MlirLexer::Make(MlirTokenKind kind, std::size_t start) const {
  return MlirToken{kind, text_.substr(start, position_ - start), start};
}

MlirToken MlirLexer::Next() {
  SkipWhitespaceAndComments();
  const std::size_t start = position_;
  if (position_ >= end_) return MlirToken{MlirTokenKind::kEndOfFile, {}, end_};
  const char c = text_[position_];
  if (IsDigit(c)) return LexNumber(start);
  if (IsIdentifierStart(c)) {
    while (position_ < end_ && IsBareBody(text_[position_])) ++position_;
    return Make(MlirTokenKind::kBareId, start);
  }
  ++position_;
  switch (c) {
    case '%':
      return LexPrefixedIdentifier(MlirTokenKind::kPercentId, start);
    case '^':
      return LexPrefixedIdentifier(MlirTokenKind::kCaretId, start);
    case '@':
      if (Peek() == '"') {
        MlirToken quoted = LexString(position_);
        return MlirToken{quoted.kind == MlirTokenKind::kString
                             ? MlirTokenKind::kAtId
                             : MlirTokenKind::kInvalid,
                         text_.substr(start, position_ - start), start};
      }
      return LexPrefixedIdentifier(MlirTokenKind::kAtId, start);
    case '#':
      return LexPrefixedIdentifier(MlirTokenKind::kHashId, start);
    case '!':
      return LexPrefixedIdentifier(MlirTokenKind::kBangId, start);
    case '"':
      return LexString(start);
    case '(':
      return Make(MlirTokenKind::kLeftParen, start);
    case ')':
      return Make(MlirTokenKind::kRightParen, start);
    case '{':
      return Make(MlirTokenKind::kLeftBrace, start);
    case '}':
      return Make(MlirTokenKind::kRightBrace, start);
    case '[':
      return Make(MlirTokenKind::kLeftSquare, start);
    case ']':
      return Make(MlirTokenKind::kRightSquare, start);
    case '<':
      return Make(MlirTokenKind::kLess, start);
    case '>':
      return Make(MlirTokenKind::kGreater, start);
    case ',':
      return Make(MlirTokenKind::kComma, start);
    case ':':
      return Make(MlirTokenKind::kColon, start);
    case '=':
      return Make(MlirTokenKind::kEqual, start);
    case '?':
      return Make(MlirTokenKind::kQuestion, start);
    case '*':
      return Make(MlirTokenKind::kStar, start);
    case '|':
      return Make(MlirTokenKind::kPipe, start);
    case '+':
      return Make(MlirTokenKind::kPlus, start);
    case '-':
      if (Peek() == '>') {
        ++position_;
        return Make(MlirTokenKind::kArrow, start);
      }
      return Make(MlirTokenKind::kMinus, start);
    default:
      return Make(MlirTokenKind::kInvalid, start);
  }
}

MlirToken MlirLexer::LexPrefixedIdentifier(MlirTokenKind kind,
                                           std::size_t start) {
  // "%0", "%arg0", "%x#1", "#loc3", "!stablehlo.token"; an SSA name may be
  // all digits, other names start with a letter.
  const std::size_t name_start = position_;
  while (position_ < end_ && IsIdentifierBody(text_[position_])) {
    // A '-' belongs to a name only when a name character follows it: "->" or
    // a minus sign after an identifier ends the identifier.
    if (text_[position_] == '-' && !IsBareBody(Peek(1))) break;
    ++position_;
  }
  if (kind == MlirTokenKind::kPercentId && Peek() == '#' && IsDigit(Peek(1))) {
    ++position_;
    while (position_ < end_ && IsDigit(text_[position_])) ++position_;
  }
  if (position_ == name_start) return Make(MlirTokenKind::kInvalid, start);
  return Make(kind, start);
}

MlirToken MlirLexer::LexNumber(std::size_t start) {
  if (text_[position_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X') &&
      std::isxdigit(static_cast<unsigned char>(Peek(2)))) {
    position_ += 2;
    while (position_ < end_ &&
           std::isxdigit(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
    return Make(MlirTokenKind::kInteger, start);
  }
  while (position_ < end_ && IsDigit(text_[position_])) ++position_;
  bool is_float = false;
  if (Peek() == '.' && IsDigit(Peek(1))) {
    is_float = true;
    ++position_;
    while (position_ < end_ && IsDigit(text_[position_])) ++position_;
  } else if (Peek() == '.' && !IsIdentifierStart(Peek(1))) {
    is_float = true;  // "1." as in numpy-style output
    ++position_;
  }
  if ((Peek() == 'e' || Peek() == 'E') &&
      (IsDigit(Peek(1)) ||
       ((Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2))))) {
    is_float = true;
    position_ += 2;
    while (position_ < end_ && IsDigit(text_[position_])) ++position_;
  }
  return Make(is_float ? MlirTokenKind::kFloat : MlirTokenKind::kInteger,
              start);
}

MlirToken MlirLexer::LexString(std::size_t start) {
  position_ = start + 1;
  while (position_ < end_) {
    const char c = text_[position_++];
    if (c == '\\' && position_ < end_) {
      ++position_;
    } else if (c == '"') {
      return Make(MlirTokenKind::kString, start);
    } else if (c == '\n') {
      break;
    }
  }
  return Make(MlirTokenKind::kInvalid, start);
}

std::vector<int64_t> MlirLexer::LexDimensionPrefix() {
  std::vector<int64_t> dims;
  while (true) {
    SkipWhitespaceAndComments();
    std::size_t probe = position_;
    int64_t dim = 0;
    if (probe < end_ && text_[probe] == '?') {
      dim = -1;
      ++probe;
    } else {
      const std::size_t digits_start = probe;
      while (probe < end_ && IsDigit(text_[probe]) &&
             probe - digits_start < 18) {
        dim = dim * 10 + (text_[probe] - '0');
        ++probe;
      }
      if (probe == digits_start) return dims;
    }
    if (probe >= end_ || text_[probe] != 'x') return dims;
    dims.push_back(dim);
    position_ = probe + 1;
  }
}

}  // namespace phal
