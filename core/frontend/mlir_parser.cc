#include "core/frontend/mlir_parser.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "core/frontend/mlir_lexer.h"
#include "core/frontend/quantized_type.h"

namespace phal {
namespace {

using Kind = MlirTokenKind;

// Nesting deeper than this is rejected rather than risking the stack on
// hostile input.
constexpr int kMaxNesting = 200;

std::string Unquote(std::string_view quoted) {
  if (quoted.size() < 2) return std::string(quoted);
  std::string out;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    if (quoted[i] == '\\' && i + 2 < quoted.size()) {
      const char next = quoted[i + 1];
      if (next == 'n') {
        out += '\n';
      } else if (next == 't') {
        out += '\t';
      } else if (next == '"' || next == '\\') {
        out += next;
      } else {
        out += quoted[i];
        continue;
      }
      ++i;
      continue;
    }
    out += quoted[i];
  }
  return out;
}

bool ParseUnsigned(std::string_view text, uint64_t* value) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  const auto result =
      std::from_chars(text.data(), text.data() + text.size(), *value, base);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

bool DecodeHex(std::string_view hex, std::string* bytes) {
  if (hex.size() % 2 != 0) return false;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    unsigned value = 0;
    const auto result =
        std::from_chars(hex.data() + i, hex.data() + i + 2, value, 16);
    if (result.ec != std::errc() || result.ptr != hex.data() + i + 2)
      return false;
    bytes->push_back(static_cast<char>(value));
  }
  return true;
}

class MlirParser {
 public:
  MlirParser(const SourceText& source, std::size_t begin, std::size_t end)
      : source_(source), lexer_(source.text(), begin, end) {
    Advance();
  }

  StatusOr<MlirModule> ParseModule();

 private:
  // --- Tokens ---------------------------------------------------------------
  void Advance() { token_ = lexer_.Next(); }
  MlirToken PeekNext() {
    const std::size_t saved = lexer_.position();
    MlirToken next = lexer_.Next();
    lexer_.ResetTo(saved);
    return next;
  }
  bool ConsumeIf(Kind kind) {
    if (!token_.Is(kind)) return false;
    Advance();
    return true;
  }
  bool ConsumeBare(std::string_view word) {
    if (!token_.IsBare(word)) return false;
    Advance();
    return true;
  }
  Status Error(const std::string& message) const {
    return source_.ErrorAt(token_.offset, message);
  }
  Status ErrorExpected(const std::string& what) const {
    const std::string found = token_.Is(Kind::kEndOfFile)
                                  ? "end of input"
                                  : "'" + std::string(token_.text) + "'";
    return Error("expected " + what + ", found " + found);
  }
  Status Expect(Kind kind, const std::string& what) {
    if (!ConsumeIf(kind)) return ErrorExpected(what);
    return OkStatus();
  }
  bool OnSameLine(std::size_t from, std::size_t to) const {
    return source_.text().substr(from, to - from).find('\n') ==
           std::string_view::npos;
  }
  Status EnterNesting();
  void LeaveNesting() { --nesting_; }

  // --- Structure ------------------------------------------------------------
  Status SkipTopLevelAlias();
  Status ParseModuleBody(MlirModule* module);
  Status ParseFunction(MlirModule* module);
  // sdy.mesh @name = <...> {attributes}: the mesh's text is kept.
  Status ParseSdyMesh(MlirModule* module);
  Status ParseFunctionResults(MlirFunction* function);
  Status ParseRegion(MlirRegion* region);
  Status ParseRegionOperations(MlirRegion* region);
  Status ParseOperation(MlirOperation* op);
  Status ParseResultGroups(MlirOperation* op);
  Status ParseGenericOperation(MlirOperation* op);
  Status ParsePrettyOperation(MlirOperation* op);
  Status ParsePrettyItems(MlirOperation* op, std::size_t name_end);
  Status ParsePrettyItem(MlirOperation* op, bool* ends_with_group);
  Status ParseBracketSpec(MlirOperation* op);
  Status ParsePrettyReduce(MlirOperation* op);
  Status ParsePrettyWhile(MlirOperation* op);
  Status ParsePrettyScan(MlirOperation* op);
  Status ParsePrettyManualComputation(MlirOperation* op);
  // The balanced text from the current token ('<', '[' or '{') to its
  // closing token, as a kSdy attribute.
  StatusOr<MlirAttribute> ParseSdyText();
  Status ParseValueList(std::vector<MlirValueUse>* values);
  // "%name: type", as function, block and reducer arguments are written.
  Status ParseTypedArgument(MlirBlockArgument* argument);
  Status ParsePrettySignature(MlirOperation* op);
  Status ParseValueUse(MlirValueUse* use);
  Status SkipLocation();
  Status SkipBalanced(Kind open, Kind close);

  // --- Types and attributes -----------------------------------------------
  StatusOr<Shape> ParseType();
  // `bits`, when given, receives each type's narrow integer width.
  Status ParseTypeList(std::vector<Shape>* types,
                       std::vector<EmulatedType>* bits = nullptr);
  Status ParseFunctionResultTypes(std::vector<Shape>* types,
                                  std::vector<EmulatedType>* bits = nullptr);
  StatusOr<ElementType> ParseElementType();
  // `typed_scalars`: a number may carry ": type" (false in the pretty
  // form's "dim = 0 : tensor<...>", where the type is the op's).
  StatusOr<MlirAttribute> ParseAttributeValue(bool typed_scalars = true);
  Status ParseAttributeDictionary(std::vector<MlirNamedAttribute>* fields);
  Status ParseDialectAttribute(MlirAttribute* attribute);
  Status ParseArrayTail(MlirAttribute* attribute);
  Status ParseDenseArray(MlirAttribute* attribute);
  Status ParseDenseElements(DenseElements* elements);
  Status ParseOptionalAttributeType(MlirAttribute* attribute);

  const SourceText& source_;
  MlirLexer lexer_;
  MlirToken token_;
  int nesting_ = 0;
  // What the element type ParseType() read last emulates.
  EmulatedType element_emulated_;
};

Status MlirParser::EnterNesting() {
  if (++nesting_ > kMaxNesting) return Error("nesting is too deep");
  return OkStatus();
}

StatusOr<MlirModule> MlirParser::ParseModule() {
  MlirModule module;
  module.offset = token_.offset;
  bool saw_module = false;
  while (!token_.Is(Kind::kEndOfFile)) {
    if (token_.Is(Kind::kHashId) || token_.Is(Kind::kBangId)) {
      PHAL_RETURN_IF_ERROR(SkipTopLevelAlias());
    } else if (token_.IsBare("module") && !saw_module) {
      saw_module = true;
      module.offset = token_.offset;
      Advance();
      if (token_.Is(Kind::kAtId)) {
        module.name = std::string(token_.text.substr(1));
        if (!module.name.empty() && module.name[0] == '"')
          module.name = Unquote(module.name);
        Advance();
      }
      if (ConsumeBare("attributes")) {
        PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&module.attributes));
      }
      PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftBrace, "'{' to open the module"));
      PHAL_RETURN_IF_ERROR(ParseModuleBody(&module));
      PHAL_RETURN_IF_ERROR(SkipLocation());
    } else if (token_.IsBare("func.func")) {
      PHAL_RETURN_IF_ERROR(ParseFunction(&module));
    } else {
      return ErrorExpected("'module' or 'func.func'");
    }
  }
  if (module.functions.empty()) {
    return source_.ErrorAt(module.offset, "the module defines no function");
  }
  return module;
}

Status MlirParser::SkipTopLevelAlias() {
  // "#loc3 = loc(...)", "#map = ...", "!type = ...": aliases only name
  // things; locations and types are resolved where they are used.
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' after an alias name"));
  if (token_.IsBare("type")) Advance();
  PHAL_ASSIGN_OR_RETURN(MlirAttribute ignored, ParseAttributeValue());
  (void)ignored;
  return OkStatus();
}

Status MlirParser::ParseModuleBody(MlirModule* module) {
  while (!ConsumeIf(Kind::kRightBrace)) {
    if (token_.IsBare("func.func")) {
      PHAL_RETURN_IF_ERROR(ParseFunction(module));
    } else if (token_.IsBare("sdy.mesh")) {
      PHAL_RETURN_IF_ERROR(ParseSdyMesh(module));
    } else if (token_.Is(Kind::kEndOfFile)) {
      return ErrorExpected("'}' to close the module");
    } else {
      return Error("unsupported operation '" + std::string(token_.text) +
                   "' in a module (expected func.func or sdy.mesh)");
    }
  }
  return OkStatus();
}

Status MlirParser::ParseFunction(MlirModule* module) {
  MlirFunction function;
  function.offset = token_.offset;
  Advance();
  if (token_.IsBare("private")) {
    function.is_public = false;
    Advance();
  } else if (token_.IsBare("public") || token_.IsBare("nested")) {
    Advance();
  }
  if (!token_.Is(Kind::kAtId))
    return ErrorExpected("a function name such as @main");
  function.name = std::string(token_.text.substr(1));
  if (!function.name.empty() && function.name[0] == '"')
    function.name = Unquote(function.name);
  Advance();
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kLeftParen, "'(' to open the argument list"));
  while (!ConsumeIf(Kind::kRightParen)) {
    if (!function.arguments.empty()) {
      PHAL_RETURN_IF_ERROR(
          Expect(Kind::kComma, "',' or ')' in the argument list"));
    }
    MlirBlockArgument argument;
    PHAL_RETURN_IF_ERROR(ParseTypedArgument(&argument));
    if (token_.Is(Kind::kLeftBrace)) {
      PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&argument.attributes));
    }
    PHAL_RETURN_IF_ERROR(SkipLocation());
    function.arguments.push_back(std::move(argument));
  }
  if (ConsumeIf(Kind::kArrow))
    PHAL_RETURN_IF_ERROR(ParseFunctionResults(&function));
  if (ConsumeBare("attributes")) {
    std::vector<MlirNamedAttribute> ignored;
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&ignored));
  }
  if (!token_.Is(Kind::kLeftBrace))
    return ErrorExpected("'{' to open the function body");
  function.body.arguments = function.arguments;
  PHAL_RETURN_IF_ERROR(ParseRegion(&function.body));
  PHAL_RETURN_IF_ERROR(SkipLocation());
  module->functions.push_back(std::move(function));
  return OkStatus();
}

Status MlirParser::ParseFunctionResults(MlirFunction* function) {
  const bool parenthesized = ConsumeIf(Kind::kLeftParen);
  if (parenthesized && ConsumeIf(Kind::kRightParen)) return OkStatus();
  while (true) {
    PHAL_ASSIGN_OR_RETURN(Shape type, ParseType());
    function->result_types.push_back(std::move(type));
    std::vector<MlirNamedAttribute>& attributes =
        function->result_attributes.emplace_back();
    if (parenthesized && token_.Is(Kind::kLeftBrace)) {
      PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&attributes));
    }
    if (!parenthesized || !ConsumeIf(Kind::kComma)) break;
  }
  if (parenthesized)
    return Expect(Kind::kRightParen, "')' after the result types");
  return OkStatus();
}

Status MlirParser::ParseRegion(MlirRegion* region) {
  PHAL_RETURN_IF_ERROR(EnterNesting());
  region->offset = token_.offset;
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftBrace, "'{' to open a region"));
  if (token_.Is(Kind::kCaretId)) {
    Advance();
    if (ConsumeIf(Kind::kLeftParen)) {
      region->arguments.clear();
      while (!ConsumeIf(Kind::kRightParen)) {
        if (!region->arguments.empty()) {
          PHAL_RETURN_IF_ERROR(
              Expect(Kind::kComma, "',' or ')' in the block arguments"));
        }
        MlirBlockArgument argument;
        PHAL_RETURN_IF_ERROR(ParseTypedArgument(&argument));
        PHAL_RETURN_IF_ERROR(SkipLocation());
        region->arguments.push_back(std::move(argument));
      }
    }
    PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' after the block label"));
  }
  PHAL_RETURN_IF_ERROR(ParseRegionOperations(region));
  LeaveNesting();
  return OkStatus();
}

Status MlirParser::ParseRegionOperations(MlirRegion* region) {
  while (!ConsumeIf(Kind::kRightBrace)) {
    if (token_.Is(Kind::kEndOfFile))
      return ErrorExpected("'}' to close the region");
    if (token_.Is(Kind::kCaretId)) {
      return Error("regions with several blocks are not supported");
    }
    MlirOperation op;
    PHAL_RETURN_IF_ERROR(ParseOperation(&op));
    region->operations.push_back(std::move(op));
  }
  return OkStatus();
}

Status MlirParser::ParseOperation(MlirOperation* op) {
  op->offset = token_.offset;
  if (token_.Is(Kind::kPercentId)) PHAL_RETURN_IF_ERROR(ParseResultGroups(op));
  if (token_.Is(Kind::kString)) {
    PHAL_RETURN_IF_ERROR(ParseGenericOperation(op));
  } else if (token_.Is(Kind::kBareId)) {
    PHAL_RETURN_IF_ERROR(ParsePrettyOperation(op));
  } else {
    return ErrorExpected("an operation");
  }
  return SkipLocation();
}

Status MlirParser::ParseResultGroups(MlirOperation* op) {
  while (true) {
    if (!token_.Is(Kind::kPercentId)) return ErrorExpected("a result name");
    MlirResultGroup group;
    group.name = std::string(token_.text.substr(1));
    Advance();
    if (ConsumeIf(Kind::kColon)) {
      uint64_t count = 0;
      if (!token_.Is(Kind::kInteger) || !ParseUnsigned(token_.text, &count) ||
          count == 0 || count > 1000000) {
        return ErrorExpected("a result count");
      }
      group.count = static_cast<int64_t>(count);
      Advance();
    }
    op->results.push_back(std::move(group));
    if (!ConsumeIf(Kind::kComma)) break;
  }
  return Expect(Kind::kEqual, "'=' after the results");
}

Status MlirParser::ParseValueUse(MlirValueUse* use) {
  if (!token_.Is(Kind::kPercentId)) return ErrorExpected("a value such as %0");
  use->offset = token_.offset;
  std::string_view text = token_.text.substr(1);
  const std::size_t hash = text.find('#');
  if (hash != std::string_view::npos) {
    uint64_t index = 0;
    if (!ParseUnsigned(text.substr(hash + 1), &index) || index > 1000000) {
      return Error("bad result index in '" + std::string(token_.text) + "'");
    }
    use->index = static_cast<int64_t>(index);
    text = text.substr(0, hash);
  }
  use->name = std::string(text);
  Advance();
  return OkStatus();
}

Status MlirParser::ParseGenericOperation(MlirOperation* op) {
  op->name = Unquote(token_.text);
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftParen, "'(' and the operands"));
  while (!ConsumeIf(Kind::kRightParen)) {
    if (!op->operands.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ')' in the operands"));
    }
    MlirValueUse use;
    PHAL_RETURN_IF_ERROR(ParseValueUse(&use));
    op->operands.push_back(std::move(use));
  }
  if (token_.Is(Kind::kLeftSquare))
    return Error("operations with successor blocks are not supported");
  if (token_.Is(Kind::kLess)) {
    Advance();
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
    PHAL_RETURN_IF_ERROR(Expect(Kind::kGreater, "'>' to close the properties"));
  }
  if (ConsumeIf(Kind::kLeftParen)) {
    while (true) {
      MlirRegion region;
      PHAL_RETURN_IF_ERROR(ParseRegion(&region));
      op->regions.push_back(std::move(region));
      if (!ConsumeIf(Kind::kComma)) break;
    }
    PHAL_RETURN_IF_ERROR(Expect(Kind::kRightParen, "')' after the regions"));
  }
  if (token_.Is(Kind::kLeftBrace))
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' and the operation's type"));
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kLeftParen, "'(' to open the operand types"));
  if (!ConsumeIf(Kind::kRightParen)) {
    PHAL_RETURN_IF_ERROR(ParseTypeList(&op->operand_types));
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kRightParen, "')' after the operand types"));
  }
  PHAL_RETURN_IF_ERROR(Expect(Kind::kArrow, "'->' and the result types"));
  return ParseFunctionResultTypes(&op->result_types, &op->result_emulated);
}

Status MlirParser::ParsePrettyOperation(MlirOperation* op) {
  op->name = std::string(token_.text);
  const std::size_t name_end = token_.offset + token_.text.size();
  Advance();
  if (op->name == "stablehlo.reduce" && token_.Is(Kind::kLeftParen)) {
    return ParsePrettyReduce(op);
  }
  if (op->name == "stablehlo.while" && token_.Is(Kind::kLeftParen)) {
    return ParsePrettyWhile(op);
  }
  if (op->name == "chlo.scan" && token_.Is(Kind::kLeftParen)) {
    return ParsePrettyScan(op);
  }
  if (op->name == "sdy.manual_computation" && token_.Is(Kind::kLeftParen)) {
    return ParsePrettyManualComputation(op);
  }
  PHAL_RETURN_IF_ERROR(ParsePrettyItems(op, name_end));
  // sdy.sharding_constraint %x <@mesh, [...]> and sdy.reshard %x <...>.
  if (op->name.rfind("sdy.", 0) == 0 && token_.Is(Kind::kLess)) {
    PHAL_ASSIGN_OR_RETURN(MlirAttribute sharding, ParseSdyText());
    op->attributes.emplace_back("sharding", std::move(sharding));
  }
  if (token_.Is(Kind::kLeftBrace))
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  if (ConsumeIf(Kind::kColon)) {
    PHAL_RETURN_IF_ERROR(ParsePrettySignature(op));
    if (token_.Is(Kind::kLeftBrace) && op->attributes.empty()) {
      PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
    }
  }
  return OkStatus();
}

Status MlirParser::ParsePrettyItems(MlirOperation* op, std::size_t name_end) {
  // Items are comma separated ("%a, %b, dims = [0]"); after a parenthesized
  // group ("convolution(%a, %b) dim_numbers = ...") the comma is optional.
  // The first item must start on the op's line, so an op without operands
  // ("func.return") does not swallow the next line's results.
  static constexpr Kind kItemStarts[] = {
      Kind::kPercentId, Kind::kAtId,  Kind::kLeftParen, Kind::kString,
      Kind::kInteger,   Kind::kFloat, Kind::kMinus,     Kind::kBareId};
  const auto starts_item = [&] {
    for (Kind kind : kItemStarts) {
      if (token_.Is(kind)) return true;
    }
    return false;
  };
  if (!starts_item() || !OnSameLine(name_end, token_.offset)) return OkStatus();
  bool after_group = false;
  while (true) {
    PHAL_RETURN_IF_ERROR(ParsePrettyItem(op, &after_group));
    if (ConsumeIf(Kind::kComma)) continue;
    const bool keyword_follows =
        token_.Is(Kind::kBareId) && PeekNext().Is(Kind::kEqual);
    if (after_group && (keyword_follows || token_.Is(Kind::kPercentId))) {
      continue;
    }
    return OkStatus();
  }
}

Status MlirParser::ParsePrettyItem(MlirOperation* op, bool* ends_with_group) {
  *ends_with_group = false;
  if (token_.Is(Kind::kPercentId)) {
    MlirValueUse use;
    PHAL_RETURN_IF_ERROR(ParseValueUse(&use));
    op->operands.push_back(std::move(use));
    if (token_.Is(Kind::kLeftSquare)) return ParseBracketSpec(op);
    return OkStatus();
  }
  if (token_.Is(Kind::kAtId)) {
    MlirAttribute symbol;
    PHAL_ASSIGN_OR_RETURN(symbol, ParseAttributeValue());
    op->attributes.emplace_back("callee", std::move(symbol));
    if (!token_.Is(Kind::kLeftParen)) return OkStatus();
  }
  if (ConsumeIf(Kind::kLeftParen)) {
    PHAL_RETURN_IF_ERROR(EnterNesting());
    bool inner_group = false;
    while (!ConsumeIf(Kind::kRightParen)) {
      PHAL_RETURN_IF_ERROR(ParsePrettyItem(op, &inner_group));
      if (!token_.Is(Kind::kRightParen)) {
        PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ')'"));
      }
    }
    LeaveNesting();
    *ends_with_group = true;
    return OkStatus();
  }
  if (token_.Is(Kind::kString)) {
    MlirAttribute name;
    PHAL_ASSIGN_OR_RETURN(name, ParseAttributeValue(/*typed_scalars=*/false));
    op->attributes.emplace_back("name", std::move(name));
    // composite's operands follow its name without a comma.
    *ends_with_group = true;
    return OkStatus();
  }
  if (token_.Is(Kind::kBareId) && PeekNext().Is(Kind::kEqual)) {
    std::string key(token_.text);
    Advance();
    Advance();
    PHAL_ASSIGN_OR_RETURN(MlirAttribute value,
                          ParseAttributeValue(/*typed_scalars=*/false));
    op->attributes.emplace_back(std::move(key), std::move(value));
    return OkStatus();
  }
  if (token_.Is(Kind::kBareId) && token_.text != "dense" &&
      token_.text != "true" && token_.text != "false") {
    op->keywords.emplace_back(token_.text);
    Advance();
    return OkStatus();
  }
  PHAL_ASSIGN_OR_RETURN(
      MlirAttribute value,
      ParseAttributeValue(/*typed_scalars=*/token_.IsBare("dense")));
  op->attributes.emplace_back("value", std::move(value));
  return OkStatus();
}

Status MlirParser::ParseBracketSpec(MlirOperation* op) {
  // "%x [0:2, 1:3:2]" (slice) or "%t[1]" (get_tuple_element).
  Advance();
  MlirAttribute starts, limits, strides;
  starts.kind = limits.kind = strides.kind = MlirAttribute::Kind::kDenseArray;
  bool is_slice = false;
  while (!ConsumeIf(Kind::kRightSquare)) {
    if (!starts.integers.empty())
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']'"));
    int64_t parts[3] = {0, 0, 1};
    int count = 0;
    while (true) {
      const bool negative = ConsumeIf(Kind::kMinus);
      uint64_t value = 0;
      if (!token_.Is(Kind::kInteger) || !ParseUnsigned(token_.text, &value)) {
        return ErrorExpected("an integer");
      }
      Advance();
      if (count < 3) parts[count] = SignedFromMagnitude(value, negative);
      ++count;
      if (!ConsumeIf(Kind::kColon)) break;
      is_slice = true;
    }
    if (count > 3) return Error("a slice range has at most start:limit:stride");
    starts.integers.push_back(parts[0]);
    limits.integers.push_back(parts[1]);
    strides.integers.push_back(parts[2]);
  }
  if (!is_slice) {
    MlirAttribute index;
    index.kind = MlirAttribute::Kind::kInteger;
    index.integer = starts.integers.empty() ? 0 : starts.integers[0];
    op->attributes.emplace_back("index", std::move(index));
    return OkStatus();
  }
  op->attributes.emplace_back("start_indices", std::move(starts));
  op->attributes.emplace_back("limit_indices", std::move(limits));
  op->attributes.emplace_back("strides", std::move(strides));
  return OkStatus();
}

Status MlirParser::ParsePrettySignature(MlirOperation* op) {
  // "(t1, t2) -> t3", "t1 -> (t2, t3)" or a plain type list: the result
  // types, or the operand types of an op without results (return, checks).
  std::vector<Shape> types;
  if (token_.Is(Kind::kLeftParen)) {
    Advance();
    if (!ConsumeIf(Kind::kRightParen)) {
      PHAL_RETURN_IF_ERROR(ParseTypeList(&types));
      PHAL_RETURN_IF_ERROR(
          Expect(Kind::kRightParen, "')' after the operand types"));
    }
    op->operand_types = std::move(types);
    PHAL_RETURN_IF_ERROR(Expect(Kind::kArrow, "'->' and the result types"));
    return ParseFunctionResultTypes(&op->result_types, &op->result_emulated);
  }
  std::vector<EmulatedType> bits;
  PHAL_RETURN_IF_ERROR(ParseTypeList(&types, &bits));
  if (ConsumeIf(Kind::kArrow)) {
    op->operand_types = std::move(types);
    return ParseFunctionResultTypes(&op->result_types, &op->result_emulated);
  }
  const int64_t result_count = op->ResultCount();
  const bool component_of_complex =
      (op->name == "stablehlo.real" || op->name == "stablehlo.imag") &&
      types.size() == 1;
  if (result_count == 0 || component_of_complex) {
    op->operand_types = std::move(types);
  } else if (static_cast<int64_t>(types.size()) == result_count) {
    op->result_types = std::move(types);
    op->result_emulated = std::move(bits);
  } else {
    op->result_types.push_back(types.back());
    op->result_emulated.push_back(bits.back());
    types.pop_back();
    op->operand_types = std::move(types);
  }
  return OkStatus();
}

Status MlirParser::ParsePrettyReduce(MlirOperation* op) {
  // stablehlo.reduce(%x init: %c), (%y init: %d) applies stablehlo.add
  //   across dimensions = [1] : (...) -> ...
  // or, instead of "applies", a trailing
  //   reducer(%a0: t, %b0: t) (%a1: t, %b1: t) { body }
  std::vector<MlirValueUse> inputs, inits;
  do {
    PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftParen, "'(' and a reduce input"));
    MlirValueUse input, init;
    PHAL_RETURN_IF_ERROR(ParseValueUse(&input));
    if (!ConsumeBare("init")) return ErrorExpected("'init:'");
    PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' after 'init'"));
    PHAL_RETURN_IF_ERROR(ParseValueUse(&init));
    PHAL_RETURN_IF_ERROR(Expect(Kind::kRightParen, "')' after the init value"));
    inputs.push_back(std::move(input));
    inits.push_back(std::move(init));
  } while (ConsumeIf(Kind::kComma));
  op->operands = inputs;
  op->operands.insert(op->operands.end(), inits.begin(), inits.end());
  std::string applied_op;
  std::size_t applied_offset = token_.offset;
  if (ConsumeBare("applies")) {
    if (!token_.Is(Kind::kBareId))
      return ErrorExpected("the applied operation");
    applied_op = std::string(token_.text);
    applied_offset = token_.offset;
    Advance();
  }
  if (!ConsumeBare("across"))
    return ErrorExpected("'across dimensions = [...]'");
  if (!ConsumeBare("dimensions")) return ErrorExpected("'dimensions'");
  PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' after 'dimensions'"));
  PHAL_ASSIGN_OR_RETURN(MlirAttribute dimensions, ParseAttributeValue());
  op->attributes.emplace_back("dimensions", std::move(dimensions));
  if (token_.Is(Kind::kLeftBrace))
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' and the reduce's type"));
  PHAL_RETURN_IF_ERROR(ParsePrettySignature(op));
  MlirRegion body;
  body.offset = applied_offset;
  if (!applied_op.empty()) {
    if (inputs.size() != 1 || op->operand_types.size() != 2) {
      return source_.ErrorAt(
          applied_offset, "'applies' needs exactly one input and init value");
    }
    const Shape scalar(op->operand_types[1].element_type(), {});
    body.arguments = {{"lhs", scalar, {}, applied_offset, {}},
                      {"rhs", scalar, {}, applied_offset, {}}};
    MlirOperation apply;
    apply.name = applied_op;
    apply.offset = applied_offset;
    apply.results = {{"applied", 1}};
    apply.operands = {{"lhs", 0, applied_offset}, {"rhs", 0, applied_offset}};
    apply.result_types = {scalar};
    MlirOperation ret;
    ret.name = "stablehlo.return";
    ret.offset = applied_offset;
    ret.operands = {{"applied", 0, applied_offset}};
    body.operations.push_back(std::move(apply));
    body.operations.push_back(std::move(ret));
    op->regions.push_back(std::move(body));
    return OkStatus();
  }
  if (!ConsumeBare("reducer")) return ErrorExpected("'applies' or 'reducer'");
  std::vector<MlirBlockArgument> lhs, rhs;
  while (ConsumeIf(Kind::kLeftParen)) {
    for (auto* side : {&lhs, &rhs}) {
      if (side == &rhs)
        PHAL_RETURN_IF_ERROR(
            Expect(Kind::kComma, "',' between reducer arguments"));
      MlirBlockArgument argument;
      PHAL_RETURN_IF_ERROR(ParseTypedArgument(&argument));
      PHAL_RETURN_IF_ERROR(SkipLocation());
      side->push_back(std::move(argument));
    }
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kRightParen, "')' after reducer arguments"));
  }
  body.arguments = lhs;
  body.arguments.insert(body.arguments.end(), rhs.begin(), rhs.end());
  const std::vector<MlirBlockArgument> arguments = body.arguments;
  PHAL_RETURN_IF_ERROR(ParseRegion(&body));
  body.arguments = arguments;
  op->regions.push_back(std::move(body));
  return OkStatus();
}

Status MlirParser::ParsePrettyWhile(MlirOperation* op) {
  // stablehlo.while(%iterArg = %x, ...) : types cond { ... } do { ... }
  Advance();
  std::vector<MlirBlockArgument> arguments;
  while (!ConsumeIf(Kind::kRightParen)) {
    if (!arguments.empty())
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ')'"));
    if (!token_.Is(Kind::kPercentId)) return ErrorExpected("a loop variable");
    MlirBlockArgument argument;
    argument.name = std::string(token_.text.substr(1));
    argument.offset = token_.offset;
    Advance();
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kEqual, "'=' and the loop variable's initial value"));
    MlirValueUse init;
    PHAL_RETURN_IF_ERROR(ParseValueUse(&init));
    op->operands.push_back(std::move(init));
    arguments.push_back(std::move(argument));
  }
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kColon, "':' and the loop variables' types"));
  if (!arguments.empty())
    PHAL_RETURN_IF_ERROR(
        ParseTypeList(&op->result_types, &op->result_emulated));
  if (op->result_types.size() != arguments.size()) {
    return Error("the while loop has " + std::to_string(arguments.size()) +
                 " variables but " + std::to_string(op->result_types.size()) +
                 " types");
  }
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    arguments[i].type = op->result_types[i];
    arguments[i].emulated = op->result_emulated[i];
  }
  op->operand_types = op->result_types;
  if (ConsumeBare("attributes"))
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  for (std::string_view keyword : {"cond", "do"}) {
    if (!ConsumeBare(keyword))
      return ErrorExpected("'" + std::string(keyword) + "' and a region");
    MlirRegion region;
    region.arguments = arguments;
    PHAL_RETURN_IF_ERROR(ParseRegion(&region));
    op->regions.push_back(std::move(region));
  }
  return OkStatus();
}

Status MlirParser::ParseTypedArgument(MlirBlockArgument* argument) {
  if (!token_.Is(Kind::kPercentId))
    return ErrorExpected("an argument such as %arg0");
  argument->name = std::string(token_.text.substr(1));
  argument->offset = token_.offset;
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' and the argument's type"));
  PHAL_ASSIGN_OR_RETURN(argument->type, ParseType());
  argument->emulated = element_emulated_;
  return OkStatus();
}

Status MlirParser::ParseValueList(std::vector<MlirValueUse>* values) {
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLeftParen, "'(' and values"));
  for (bool first = true; !ConsumeIf(Kind::kRightParen); first = false) {
    if (!first) PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ')'"));
    MlirValueUse use;
    PHAL_RETURN_IF_ERROR(ParseValueUse(&use));
    values->push_back(std::move(use));
  }
  return OkStatus();
}

Status MlirParser::ParsePrettyScan(MlirOperation* op) {
  // chlo.scan(%x, ...) inits(%c, ...) dimension=0 [attributes {...}]
  //   { ^bb0(...): ... } : (types) -> (types)
  PHAL_RETURN_IF_ERROR(ParseValueList(&op->operands));
  MlirAttribute input_count;
  input_count.kind = MlirAttribute::Kind::kInteger;
  input_count.integer = static_cast<int64_t>(op->operands.size());
  op->attributes.emplace_back("input_count", std::move(input_count));
  if (!ConsumeBare("inits")) return ErrorExpected("'inits(...)'");
  PHAL_RETURN_IF_ERROR(ParseValueList(&op->operands));
  if (!ConsumeBare("dimension")) return ErrorExpected("'dimension = N'");
  PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' after 'dimension'"));
  PHAL_ASSIGN_OR_RETURN(MlirAttribute dimension,
                        ParseAttributeValue(/*typed_scalars=*/false));
  op->attributes.emplace_back("dimension", std::move(dimension));
  if (ConsumeBare("attributes"))
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
  MlirRegion body;
  PHAL_RETURN_IF_ERROR(ParseRegion(&body));
  op->regions.push_back(std::move(body));
  PHAL_RETURN_IF_ERROR(Expect(Kind::kColon, "':' and the scan's type"));
  return ParsePrettySignature(op);
}

Status MlirParser::ParsePrettyManualComputation(MlirOperation* op) {
  // sdy.manual_computation(%a, %b) in_shardings=[...] out_shardings=[...]
  //   manual_axes={...} (%arg0: t, %arg1: t) { body } : (...) -> (...)
  PHAL_RETURN_IF_ERROR(ParseValueList(&op->operands));
  for (const char* name : {"in_shardings", "out_shardings", "manual_axes"}) {
    if (!ConsumeBare(name)) return ErrorExpected(name);
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kEqual, "'=' after " + std::string(name)));
    PHAL_ASSIGN_OR_RETURN(MlirAttribute value, ParseSdyText());
    op->attributes.emplace_back(name, std::move(value));
  }
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kLeftParen, "'(' and the body's arguments"));
  std::vector<MlirBlockArgument> arguments;
  while (!ConsumeIf(Kind::kRightParen)) {
    if (!arguments.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ')'"));
    }
    MlirBlockArgument argument;
    PHAL_RETURN_IF_ERROR(ParseTypedArgument(&argument));
    arguments.push_back(std::move(argument));
  }
  MlirRegion body;
  body.arguments = std::move(arguments);
  PHAL_RETURN_IF_ERROR(ParseRegion(&body));
  op->regions.push_back(std::move(body));
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kColon, "':' and the manual computation's type"));
  return ParsePrettySignature(op);
}

StatusOr<MlirAttribute> MlirParser::ParseSdyText() {
  MlirAttribute attribute;
  attribute.kind = MlirAttribute::Kind::kSdy;
  attribute.offset = token_.offset;
  attribute.raw_begin = token_.offset;
  const Kind open = token_.kind;
  const Kind close = open == Kind::kLess         ? Kind::kGreater
                     : open == Kind::kLeftSquare ? Kind::kRightSquare
                                                 : Kind::kRightBrace;
  if (open != Kind::kLess && open != Kind::kLeftSquare &&
      open != Kind::kLeftBrace) {
    return ErrorExpected("'<', '[' or '{' to open Shardy's attribute");
  }
  int depth = 0;
  do {
    if (token_.Is(Kind::kEndOfFile) || token_.Is(Kind::kInvalid)) {
      return source_.ErrorAt(attribute.raw_begin,
                             "Shardy's attribute is not closed");
    }
    if (token_.Is(open)) ++depth;
    if (token_.Is(close)) --depth;
    attribute.raw_end = token_.offset + token_.text.size();
    Advance();
  } while (depth > 0);
  return attribute;
}

Status MlirParser::ParseSdyMesh(MlirModule* module) {
  MlirMesh mesh;
  mesh.offset = token_.offset;
  Advance();
  if (!token_.Is(Kind::kAtId)) return ErrorExpected("the mesh's @name");
  mesh.name = std::string(token_.text.substr(1));
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kEqual, "'=' and the mesh"));
  PHAL_ASSIGN_OR_RETURN(MlirAttribute text, ParseSdyText());
  mesh.begin = text.raw_begin;
  mesh.end = text.raw_end;
  if (token_.Is(Kind::kLeftBrace)) {
    std::vector<MlirNamedAttribute> ignored;
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&ignored));
  }
  module->meshes.push_back(std::move(mesh));
  return SkipLocation();
}

Status MlirParser::SkipLocation() {
  if (!token_.IsBare("loc") || !PeekNext().Is(Kind::kLeftParen))
    return OkStatus();
  Advance();
  return SkipBalanced(Kind::kLeftParen, Kind::kRightParen);
}

Status MlirParser::SkipBalanced(Kind open, Kind close) {
  const std::size_t start = token_.offset;
  int depth = 0;
  do {
    if (token_.Is(Kind::kEndOfFile) || token_.Is(Kind::kInvalid)) {
      return source_.ErrorAt(
          start, "unbalanced '" +
                     std::string(1, open == Kind::kLess        ? '<'
                                    : open == Kind::kLeftParen ? '('
                                                               : '{') +
                     "'");
    }
    if (token_.Is(open)) ++depth;
    if (token_.Is(close)) --depth;
    Advance();
  } while (depth > 0);
  return OkStatus();
}

// --- Types
// --------------------------------------------------------------------

StatusOr<Shape> MlirParser::ParseType() {
  PHAL_RETURN_IF_ERROR(EnterNesting());
  element_emulated_ = EmulatedType();
  const std::size_t start = token_.offset;
  if (token_.IsBare("tensor")) {
    Advance();
    if (!token_.Is(Kind::kLess)) return ErrorExpected("'<' after 'tensor'");
    lexer_.ResetTo(token_.offset + 1);
    std::vector<int64_t> dims = lexer_.LexDimensionPrefix();
    Advance();
    for (int64_t dim : dims) {
      if (dim < 0)
        return source_.ErrorAt(start, "dynamic dimensions are not supported");
    }
    PHAL_ASSIGN_OR_RETURN(ElementType element, ParseElementType());
    if (element_emulated_.quantized != nullptr) {
      PHAL_RETURN_IF_ERROR(CheckQuantizedDimensions(
          *element_emulated_.quantized, dims, source_, start));
    }
    if (ConsumeIf(Kind::kComma)) {
      PHAL_ASSIGN_OR_RETURN(MlirAttribute encoding, ParseAttributeValue());
      (void)encoding;
    }
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kGreater, "'>' to close the tensor type"));
    LeaveNesting();
    return Shape(element, std::move(dims));
  }
  if (token_.IsBare("tuple")) {
    Advance();
    PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' after 'tuple'"));
    std::vector<Shape> elements;
    if (!ConsumeIf(Kind::kGreater)) {
      PHAL_RETURN_IF_ERROR(ParseTypeList(&elements));
      PHAL_RETURN_IF_ERROR(
          Expect(Kind::kGreater, "'>' to close the tuple type"));
    }
    LeaveNesting();
    element_emulated_ = EmulatedType();
    return Shape::Tuple(std::move(elements));
  }
  if (token_.Is(Kind::kBangId) && token_.text == "!stablehlo.token") {
    // Tokens only order side effects; an empty tuple carries them.
    Advance();
    LeaveNesting();
    return Shape::Tuple({});
  }
  if (token_.Is(Kind::kBangId)) {
    return Error("type '" + std::string(token_.text) + "' is not supported");
  }
  PHAL_ASSIGN_OR_RETURN(ElementType element, ParseElementType());
  LeaveNesting();
  return Shape(element, {});
}

StatusOr<ElementType> MlirParser::ParseElementType() {
  if (token_.IsBare("complex")) {
    const std::size_t start = token_.offset;
    Advance();
    PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' after 'complex'"));
    PHAL_ASSIGN_OR_RETURN(ElementType part, ParseElementType());
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kGreater, "'>' to close the complex type"));
    if (part == PHAL_ELEMENT_TYPE_F32) return PHAL_ELEMENT_TYPE_C64;
    if (part == PHAL_ELEMENT_TYPE_F64) return PHAL_ELEMENT_TYPE_C128;
    return source_.ErrorAt(start,
                           "only complex<f32> and complex<f64> are supported");
  }
  if (token_.Is(Kind::kBangId) && token_.text.rfind("!quant.", 0) == 0) {
    std::size_t end = 0;
    PHAL_ASSIGN_OR_RETURN(QuantizedType quantized,
                          ParseQuantizedType(source_, token_.offset, &end));
    lexer_.ResetTo(end);
    Advance();
    const ElementType storage = quantized.storage;
    element_emulated_.quantized =
        std::make_shared<const QuantizedType>(std::move(quantized));
    return storage;
  }
  if (token_.Is(Kind::kBangId)) {
    return Error("type '" + std::string(token_.text) + "' is not supported");
  }
  if (!token_.Is(Kind::kBareId)) return ErrorExpected("an element type");
  ElementType type = PHAL_ELEMENT_TYPE_INVALID;
  if (FindEmulatedType(token_.text, &type, &element_emulated_)) {
    Advance();
    return type;
  }
  if (!MlirElementTypeFromName(token_.text, &type)) {
    return Error("element type '" + std::string(token_.text) +
                 "' is not supported");
  }
  Advance();
  return type;
}

Status MlirParser::ParseTypeList(std::vector<Shape>* types,
                                 std::vector<EmulatedType>* bits) {
  do {
    PHAL_ASSIGN_OR_RETURN(Shape type, ParseType());
    types->push_back(std::move(type));
    if (bits != nullptr) bits->push_back(element_emulated_);
  } while (ConsumeIf(Kind::kComma));
  return OkStatus();
}

Status MlirParser::ParseFunctionResultTypes(std::vector<Shape>* types,
                                            std::vector<EmulatedType>* bits) {
  if (!ConsumeIf(Kind::kLeftParen)) {
    PHAL_ASSIGN_OR_RETURN(Shape type, ParseType());
    types->push_back(std::move(type));
    if (bits != nullptr) bits->push_back(element_emulated_);
    return OkStatus();
  }
  if (ConsumeIf(Kind::kRightParen)) return OkStatus();
  PHAL_RETURN_IF_ERROR(ParseTypeList(types, bits));
  return Expect(Kind::kRightParen, "')' after the result types");
}

// --- Attributes -------------------------------------------------------------

Status MlirParser::ParseAttributeDictionary(
    std::vector<MlirNamedAttribute>* fields) {
  PHAL_RETURN_IF_ERROR(EnterNesting());
  PHAL_RETURN_IF_ERROR(
      Expect(Kind::kLeftBrace, "'{' to open an attribute dictionary"));
  bool first = true;
  while (!ConsumeIf(Kind::kRightBrace)) {
    if (!first)
      PHAL_RETURN_IF_ERROR(
          Expect(Kind::kComma, "',' or '}' in the attributes"));
    first = false;
    std::string key;
    if (token_.Is(Kind::kBareId)) {
      key = std::string(token_.text);
    } else if (token_.Is(Kind::kString)) {
      key = Unquote(token_.text);
    } else {
      return ErrorExpected("an attribute name");
    }
    Advance();
    MlirAttribute value;
    value.offset = token_.offset;
    if (ConsumeIf(Kind::kEqual)) {
      PHAL_ASSIGN_OR_RETURN(value, ParseAttributeValue());
    }
    fields->emplace_back(std::move(key), std::move(value));
  }
  LeaveNesting();
  return OkStatus();
}

Status MlirParser::ParseOptionalAttributeType(MlirAttribute* attribute) {
  if (!token_.Is(Kind::kColon)) return OkStatus();
  Advance();
  PHAL_ASSIGN_OR_RETURN(attribute->type, ParseType());
  attribute->emulated = element_emulated_;
  attribute->has_type = true;
  return OkStatus();
}

StatusOr<MlirAttribute> MlirParser::ParseAttributeValue(bool typed_scalars) {
  PHAL_RETURN_IF_ERROR(EnterNesting());
  MlirAttribute attribute;
  attribute.offset = token_.offset;
  using AK = MlirAttribute::Kind;
  const bool negative = token_.Is(Kind::kMinus);
  if (negative) Advance();
  if (token_.Is(Kind::kInteger)) {
    uint64_t value = 0;
    if (!ParseUnsigned(token_.text, &value))
      return Error("integer out of range");
    attribute.kind = AK::kInteger;
    attribute.integer = SignedFromMagnitude(value, negative);
    attribute.number = static_cast<double>(attribute.integer);
    Advance();
    if (typed_scalars)
      PHAL_RETURN_IF_ERROR(ParseOptionalAttributeType(&attribute));
  } else if (token_.Is(Kind::kFloat)) {
    attribute.kind = AK::kFloat;
    attribute.number = std::strtod(std::string(token_.text).c_str(), nullptr);
    if (negative) attribute.number = -attribute.number;
    Advance();
    if (typed_scalars)
      PHAL_RETURN_IF_ERROR(ParseOptionalAttributeType(&attribute));
  } else if (negative) {
    return ErrorExpected("a number after '-'");
  } else if (token_.Is(Kind::kString)) {
    attribute.kind = AK::kString;
    attribute.text = Unquote(token_.text);
    Advance();
    if (typed_scalars)
      PHAL_RETURN_IF_ERROR(ParseOptionalAttributeType(&attribute));
  } else if (token_.Is(Kind::kAtId)) {
    attribute.kind = AK::kSymbol;
    attribute.text = std::string(token_.text.substr(1));
    if (!attribute.text.empty() && attribute.text[0] == '"')
      attribute.text = Unquote(attribute.text);
    Advance();
    // Nested references "@a::@b" are not used by StableHLO; accept "::@b".
  } else if (token_.Is(Kind::kLeftSquare)) {
    PHAL_RETURN_IF_ERROR(ParseArrayTail(&attribute));
  } else if (token_.Is(Kind::kLeftBrace)) {
    attribute.kind = AK::kDictionary;
    PHAL_RETURN_IF_ERROR(ParseAttributeDictionary(&attribute.fields));
  } else if (token_.Is(Kind::kHashId) && token_.text.rfind("#sdy.", 0) == 0 &&
             PeekNext().Is(Kind::kLess)) {
    std::string name(token_.text.substr(1));
    Advance();
    PHAL_ASSIGN_OR_RETURN(attribute, ParseSdyText());
    attribute.text = std::move(name);
  } else if (token_.Is(Kind::kHashId)) {
    attribute.kind = AK::kDialect;
    attribute.text = std::string(token_.text.substr(1));
    Advance();
    if (token_.Is(Kind::kLess))
      PHAL_RETURN_IF_ERROR(ParseDialectAttribute(&attribute));
  } else if (token_.Is(Kind::kLess)) {
    attribute.kind = AK::kKeyword;
    PHAL_RETURN_IF_ERROR(SkipBalanced(Kind::kLess, Kind::kGreater));
  } else if (token_.Is(Kind::kLeftParen)) {
    // A function type "(t1) -> t2" used as an attribute.
    attribute.kind = AK::kType;
    PHAL_RETURN_IF_ERROR(SkipBalanced(Kind::kLeftParen, Kind::kRightParen));
    if (ConsumeIf(Kind::kArrow)) {
      std::vector<Shape> ignored;
      PHAL_RETURN_IF_ERROR(ParseFunctionResultTypes(&ignored));
    }
  } else if (token_.IsBare("true") || token_.IsBare("false")) {
    attribute.kind = AK::kBool;
    attribute.boolean = token_.text == "true";
    attribute.integer = attribute.boolean ? 1 : 0;
    Advance();
  } else if (token_.IsBare("unit")) {
    attribute.kind = AK::kUnit;
    Advance();
  } else if (token_.IsBare("dense")) {
    attribute.kind = AK::kDenseElements;
    Advance();
    PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' after 'dense'"));
    if (!token_.Is(Kind::kGreater))
      PHAL_RETURN_IF_ERROR(ParseDenseElements(&attribute.dense));
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kGreater, "'>' to close the dense elements"));
    PHAL_RETURN_IF_ERROR(ParseOptionalAttributeType(&attribute));
  } else if (token_.IsBare("array")) {
    PHAL_RETURN_IF_ERROR(ParseDenseArray(&attribute));
  } else if (token_.IsBare("tensor") || token_.IsBare("tuple") ||
             token_.IsBare("complex")) {
    attribute.kind = AK::kType;
    PHAL_ASSIGN_OR_RETURN(attribute.type, ParseType());
  } else if (token_.IsBare("loc") && PeekNext().Is(Kind::kLeftParen)) {
    attribute.kind = AK::kUnit;
    PHAL_RETURN_IF_ERROR(SkipLocation());
  } else if (token_.IsBare("dense_resource") || token_.IsBare("sparse")) {
    return Error("'" + std::string(token_.text) +
                 "' attributes are not supported");
  } else if (token_.Is(Kind::kBareId)) {
    attribute.kind = AK::kKeyword;
    attribute.text = std::string(token_.text);
    Advance();
    if (token_.Is(Kind::kLess))
      PHAL_RETURN_IF_ERROR(SkipBalanced(Kind::kLess, Kind::kGreater));
  } else if (token_.Is(Kind::kBangId)) {
    attribute.kind = AK::kKeyword;
    attribute.text = std::string(token_.text);
    Advance();
    if (token_.Is(Kind::kLess))
      PHAL_RETURN_IF_ERROR(SkipBalanced(Kind::kLess, Kind::kGreater));
  } else {
    return ErrorExpected("an attribute value");
  }
  LeaveNesting();
  return attribute;
}

Status MlirParser::ParseArrayTail(MlirAttribute* attribute) {
  // "[a, b]", and the pairs "[0] x [1]" (dot_general) and triples
  // "[b, 0, f]x[0, i, o]->[b, 0, f]" (convolution dimension numbers).
  attribute->kind = MlirAttribute::Kind::kArray;
  Advance();
  while (!ConsumeIf(Kind::kRightSquare)) {
    if (!attribute->elements.empty()) {
      PHAL_RETURN_IF_ERROR(Expect(Kind::kComma, "',' or ']' in the array"));
    }
    PHAL_ASSIGN_OR_RETURN(MlirAttribute element, ParseAttributeValue());
    attribute->elements.push_back(std::move(element));
  }
  if (!token_.IsBare("x") || !PeekNext().Is(Kind::kLeftSquare))
    return OkStatus();
  Advance();
  MlirAttribute first = std::move(*attribute);
  MlirAttribute second;
  second.offset = token_.offset;
  PHAL_RETURN_IF_ERROR(ParseArrayTail(&second));
  *attribute = MlirAttribute();
  attribute->offset = first.offset;
  if (second.kind == MlirAttribute::Kind::kConvDimensions) {
    attribute->kind = MlirAttribute::Kind::kConvDimensions;
    attribute->elements.push_back(std::move(first));
    for (MlirAttribute& part : second.elements)
      attribute->elements.push_back(std::move(part));
    return OkStatus();
  }
  attribute->kind = MlirAttribute::Kind::kArray;
  attribute->elements.push_back(std::move(first));
  attribute->elements.push_back(std::move(second));
  if (!ConsumeIf(Kind::kArrow)) return OkStatus();
  if (!token_.Is(Kind::kLeftSquare))
    return ErrorExpected("'[' and the output dimensions");
  MlirAttribute third;
  PHAL_RETURN_IF_ERROR(ParseArrayTail(&third));
  attribute->kind = MlirAttribute::Kind::kConvDimensions;
  attribute->elements.push_back(std::move(third));
  return OkStatus();
}

Status MlirParser::ParseDenseArray(MlirAttribute* attribute) {
  // array<i64: 1, 2, 3>, array<i1: true, false>, array<i64>.
  attribute->kind = MlirAttribute::Kind::kDenseArray;
  Advance();
  PHAL_RETURN_IF_ERROR(Expect(Kind::kLess, "'<' after 'array'"));
  if (!token_.Is(Kind::kBareId))
    return ErrorExpected("the array's element type");
  Advance();
  if (ConsumeIf(Kind::kColon)) {
    do {
      const bool negative = ConsumeIf(Kind::kMinus);
      if (token_.IsBare("true") || token_.IsBare("false")) {
        attribute->integers.push_back(token_.text == "true" ? 1 : 0);
      } else if (token_.Is(Kind::kInteger)) {
        uint64_t value = 0;
        if (!ParseUnsigned(token_.text, &value))
          return Error("integer out of range");
        attribute->integers.push_back(SignedFromMagnitude(value, negative));
      } else if (token_.Is(Kind::kFloat)) {
        const double value =
            std::strtod(std::string(token_.text).c_str(), nullptr);
        // A float element of an integer array must fit an i64 (2^63 is
        // the first double that does not).
        if (!(std::fabs(value) < 9223372036854775808.0)) {
          return Error("array element " + std::string(token_.text) +
                       " is out of range");
        }
        attribute->integers.push_back(
            static_cast<int64_t>(negative ? -value : value));
      } else {
        return ErrorExpected("an array element");
      }
      Advance();
    } while (ConsumeIf(Kind::kComma));
  }
  return Expect(Kind::kGreater, "'>' to close the array");
}

Status MlirParser::ParseDialectAttribute(MlirAttribute* attribute) {
  // #stablehlo.gather<offset_dims = [1], ...>, #stablehlo<precision HIGH>,
  // #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
  // #stablehlo.conv<raw input_batch_dimension = 0, ...>.
  PHAL_RETURN_IF_ERROR(EnterNesting());
  Advance();
  ConsumeBare("raw");
  while (!ConsumeIf(Kind::kGreater)) {
    if (token_.Is(Kind::kEndOfFile))
      return ErrorExpected("'>' to close the attribute");
    if (ConsumeIf(Kind::kComma)) continue;
    if (token_.Is(Kind::kBareId) && PeekNext().Is(Kind::kEqual)) {
      std::string key(token_.text);
      Advance();
      Advance();
      PHAL_ASSIGN_OR_RETURN(MlirAttribute value, ParseAttributeValue());
      attribute->fields.emplace_back(std::move(key), std::move(value));
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(MlirAttribute element, ParseAttributeValue());
    attribute->elements.push_back(std::move(element));
  }
  LeaveNesting();
  return OkStatus();
}

Status MlirParser::ParseDenseElements(DenseElements* elements) {
  PHAL_RETURN_IF_ERROR(EnterNesting());
  using DK = DenseElements::Kind;
  elements->offset = token_.offset;
  if (token_.Is(Kind::kString)) {
    const std::string text = Unquote(token_.text);
    if (text.size() < 2 || text[0] != '0' ||
        (text[1] != 'x' && text[1] != 'X') ||
        !DecodeHex(std::string_view(text).substr(2), &elements->bytes)) {
      return Error("expected a hex string \"0x...\" of element bytes");
    }
    elements->kind = DK::kHexBytes;
    Advance();
  } else if (ConsumeIf(Kind::kLeftSquare)) {
    elements->kind = DK::kList;
    while (!ConsumeIf(Kind::kRightSquare)) {
      if (!elements->elements.empty()) {
        PHAL_RETURN_IF_ERROR(
            Expect(Kind::kComma, "',' or ']' in the dense elements"));
      }
      DenseElements element;
      PHAL_RETURN_IF_ERROR(ParseDenseElements(&element));
      elements->elements.push_back(std::move(element));
    }
  } else if (ConsumeIf(Kind::kLeftParen)) {
    elements->kind = DK::kComplex;
    elements->elements.resize(2);
    PHAL_RETURN_IF_ERROR(ParseDenseElements(&elements->elements[0]));
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kComma, "',' between the real and imaginary parts"));
    PHAL_RETURN_IF_ERROR(ParseDenseElements(&elements->elements[1]));
    PHAL_RETURN_IF_ERROR(
        Expect(Kind::kRightParen, "')' after the imaginary part"));
  } else if (token_.IsBare("true") || token_.IsBare("false")) {
    elements->kind = DK::kBool;
    elements->boolean = token_.text == "true";
    Advance();
  } else {
    elements->negative = ConsumeIf(Kind::kMinus);
    if (token_.Is(Kind::kInteger)) {
      elements->kind = DK::kInteger;
      elements->is_hex = token_.text.size() > 2 &&
                         (token_.text[1] == 'x' || token_.text[1] == 'X');
      if (!ParseUnsigned(token_.text, &elements->integer_bits))
        return Error("integer out of range");
    } else if (token_.Is(Kind::kFloat)) {
      elements->kind = DK::kFloat;
      elements->number = std::strtod(std::string(token_.text).c_str(), nullptr);
    } else if (token_.IsBare("inf") || token_.IsBare("nan")) {
      elements->kind = DK::kFloat;
      elements->number = token_.text == "inf" ? HUGE_VAL : std::nan("");
    } else {
      return ErrorExpected("a dense element");
    }
    if (elements->negative && elements->kind == DK::kFloat)
      elements->number = -elements->number;
    Advance();
  }
  LeaveNesting();
  return OkStatus();
}

}  // namespace

// MLIR's index is 64 bits wide on every host JAX runs on; JAX writes it in
// attributes (the layouts of custom calls).
bool MlirElementTypeFromName(std::string_view name, ElementType* type) {
  static constexpr std::pair<std::string_view, ElementType> kTypes[] = {
      {"i1", PHAL_ELEMENT_TYPE_PRED},   {"i8", PHAL_ELEMENT_TYPE_S8},
      {"si8", PHAL_ELEMENT_TYPE_S8},    {"i16", PHAL_ELEMENT_TYPE_S16},
      {"si16", PHAL_ELEMENT_TYPE_S16},  {"i32", PHAL_ELEMENT_TYPE_S32},
      {"si32", PHAL_ELEMENT_TYPE_S32},  {"i64", PHAL_ELEMENT_TYPE_S64},
      {"si64", PHAL_ELEMENT_TYPE_S64},  {"ui8", PHAL_ELEMENT_TYPE_U8},
      {"ui16", PHAL_ELEMENT_TYPE_U16},  {"ui32", PHAL_ELEMENT_TYPE_U32},
      {"ui64", PHAL_ELEMENT_TYPE_U64},  {"f16", PHAL_ELEMENT_TYPE_F16},
      {"bf16", PHAL_ELEMENT_TYPE_BF16}, {"f32", PHAL_ELEMENT_TYPE_F32},
      {"f64", PHAL_ELEMENT_TYPE_F64},   {"index", PHAL_ELEMENT_TYPE_S64},
  };
  for (const auto& [spelling, element] : kTypes) {
    if (spelling == name) {
      *type = element;
      return true;
    }
  }
  return false;
}

StatusOr<MlirModule> ParseMlirModule(const SourceText& source,
                                     std::size_t begin, std::size_t end) {
  MlirParser parser(source, begin, end);
  return parser.ParseModule();
}

}  // namespace phal
