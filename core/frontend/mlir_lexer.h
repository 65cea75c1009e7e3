// Tokens of MLIR's textual syntax as StableHLO programs use it: SSA values
// (%x, %0#1), block labels (^bb0), symbols (@main), attribute and type
// aliases (#loc, !stablehlo.token), bare identifiers (stablehlo.add, f32),
// numbers, strings and punctuation. Comments ("//" to the end of the line)
// are skipped.
#ifndef POLYHAL_CORE_FRONTEND_MLIR_LEXER_H_
#define POLYHAL_CORE_FRONTEND_MLIR_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace phal {

enum class MlirTokenKind {
  kEndOfFile,
  kInvalid,    // a byte no token starts with, or an unterminated string
  kPercentId,  // %name or %name#index; text() keeps the '%'
  kCaretId,    // ^bb0
  kAtId,       // @name or @"quoted name"
  kHashId,     // #name
  kBangId,     // !dialect.type
  kBareId,     // letters, digits, '_', '$', '.'
  kInteger,    // 12, 0x7FC00000
  kFloat,      // 1.5, 2.0e-3
  kString,     // "text" (text() keeps the quotes)
  kLeftParen,
  kRightParen,
  kLeftBrace,
  kRightBrace,
  kLeftSquare,
  kRightSquare,
  kLess,
  kGreater,
  kComma,
  kColon,
  kEqual,
  kArrow,  // ->
  kMinus,
  kPlus,
  kQuestion,
  kStar,
  kPipe,
};

struct MlirToken {
  MlirTokenKind kind = MlirTokenKind::kEndOfFile;
  std::string_view text;
  std::size_t offset = 0;  // of the first byte, in the whole source text

  bool Is(MlirTokenKind k) const { return kind == k; }
  bool IsBare(std::string_view word) const {
    return kind == MlirTokenKind::kBareId && text == word;
  }
};

class MlirLexer {
 public:
  // Lexes text[begin, end); offsets are relative to the start of `text`.
  MlirLexer(std::string_view text, std::size_t begin, std::size_t end)
      : text_(text), position_(begin), end_(end) {}

  MlirToken Next();
  // Continues lexing from `offset` (used to re-read a token differently).
  void ResetTo(std::size_t offset) { position_ = offset; }
  std::size_t position() const { return position_; }

  // Reads the "2x3x" prefix of a shaped type's body starting at the current
  // position: every "<digits>x" group, stopping before the element type.
  // A '?' (dynamic) dimension is returned as -1.
  std::vector<int64_t> LexDimensionPrefix();

 private:
  char Peek(std::size_t ahead = 0) const {
    return position_ + ahead < end_ ? text_[position_ + ahead] : '\0';
  }
  void SkipWhitespaceAndComments();
  MlirToken Make(MlirTokenKind kind, std::size_t start) const;
  MlirToken LexNumber(std::size_t start);
  MlirToken LexString(std::size_t start);
  MlirToken LexPrefixedIdentifier(MlirTokenKind kind, std::size_t start);

  std::string_view text_;
  std::size_t position_;
  std::size_t end_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_MLIR_LEXER_H_
