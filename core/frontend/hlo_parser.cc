#include "core/frontend/hlo_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/frontend/lapack_custom_calls.h"
#include "core/frontend/ragged_dot.h"
#include "core/hlo/literal.h"
#include "core/hlo/process_groups.h"
#include "core/hlo/replica_groups.h"
#include "core/hlo/shape_inference.h"
#include "core/hlo/sharding.h"
#include "core/hlo/text_cursor.h"
#include "sdk/base/float16.h"

namespace phal {
namespace {

// Deep enough for any real tuple shape or literal; shallow enough that
// adversarial input cannot exhaust the stack.
constexpr int kMaxNestingDepth = 64;
// Literals are read recursively, one level per dimension.
constexpr int kMaxRank = 64;

// XLA's grouped matrix product, which Polyhal has no opcode for: the
// parser lowers it to a call of a computation of plain HLO.
constexpr std::string_view kRaggedDotOpcode = "ragged-dot";
// The custom calls the parser reads: the sharding annotations jax.jit
// lowers (a constraint, and Shardy's mark on a result), each a copy of its
// operand whose sharding= the SPMD partitioner honours.
constexpr std::string_view kCustomCallOpcode = "custom-call";
constexpr std::string_view kShardingTargets[] = {
    "Sharding", "xla.sdy.FuncResultSharding", "xla.sdy.ShardingConstraint"};

// The sections of stack-frame tables that newer XLA appends to a module.
constexpr std::string_view kStackFrameSections[] = {
    "FileNames", "FunctionNames", "FileLocations", "StackFrames"};

bool IsNameStartChar(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
         c == '-';
}

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)); }

// A reference to a computation by name, resolved once the whole module has
// been read (the text may call a computation it defines later).
struct ComputationReference {
  std::string name;
  std::size_t offset = 0;
};

// What an instruction's attribute list said, beyond what is stored directly
// on the instruction.
struct AttributeList {
  // The opcode whose attributes these are: the instruction's, or kDot for
  // the dot dimensions of a ragged-dot (read into a call).
  HloOpcode owner = HloOpcode::kParameter;
  std::set<std::string, std::less<>> seen;
  std::map<std::string, std::vector<ComputationReference>, std::less<>>
      computations;
  // Where the value of each attribute starts, for errors found later.
  std::map<std::string, std::size_t, std::less<>> value_offsets;
  // A custom-call (read into a copy) and its custom_call_target.
  bool is_custom_call = false;
  std::string custom_call_target;
  // A custom-call's backend_config as written (a LAPACK call's dictionary
  // of character codes).
  std::string backend_config;
};

// A collective whose groups and shape are checked once its reduction
// computation is resolved: at the end of the module.
struct PendingCollective {
  HloInstruction* instruction = nullptr;
  std::size_t instruction_offset = 0;
  std::size_t groups_offset = 0;
};

struct PendingCalls {
  HloInstruction* instruction = nullptr;
  std::vector<ComputationReference> references;
};

// One element of a literal as written: its text (real and, for complex
// values, imaginary part) and where it starts.
struct ScalarText {
  std::string_view real;
  std::string_view imag;
  std::size_t offset = 0;
};

// The attributes an opcode cannot do without.
std::vector<std::string_view> RequiredAttributes(HloOpcode opcode) {
  switch (opcode) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kTranspose:
    case HloOpcode::kReverse:
    case HloOpcode::kConcatenate:
      return {"dimensions"};
    case HloOpcode::kReduce:
    case HloOpcode::kSort:
    case HloOpcode::kReduceScatter:
      return {"dimensions", "to_apply"};
    case HloOpcode::kAllGather:
      return {"dimensions"};
    case HloOpcode::kAllReduce:
      return {"to_apply"};
    case HloOpcode::kCollectivePermute:
      return {"source_target_pairs"};
    case HloOpcode::kCall:
    case HloOpcode::kMap:
    case HloOpcode::kScatter:
      return {"to_apply"};
    case HloOpcode::kReduceWindow:
      return {"window", "to_apply"};
    case HloOpcode::kSelectAndScatter:
      return {"window", "select", "scatter"};
    case HloOpcode::kFusion:
      return {"calls"};
    case HloOpcode::kWhile:
      return {"condition", "body"};
    case HloOpcode::kSlice:
      return {"slice"};
    case HloOpcode::kDynamicSlice:
      return {"dynamic_slice_sizes"};
    case HloOpcode::kPad:
      return {"padding"};
    case HloOpcode::kConvolution:
      return {"dim_labels"};
    case HloOpcode::kGather:
      return {"offset_dims", "collapsed_slice_dims", "start_index_map",
              "index_vector_dim", "slice_sizes"};
    case HloOpcode::kCompare:
      return {"direction"};
    case HloOpcode::kGetTupleElement:
      return {"index"};
    case HloOpcode::kTopK:
      return {"k"};
    case HloOpcode::kFft:
      return {"fft_type", "fft_length"};
    case HloOpcode::kIota:
      return {"iota_dimension"};
    case HloOpcode::kReducePrecision:
      return {"exponent_bits", "mantissa_bits"};
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormTraining:
    case HloOpcode::kBatchNormGrad:
      return {"epsilon", "feature_index"};
    default:
      return {};
  }
}

// The computation-valued attributes of an opcode, in the order the
// instruction's called_computations() holds them.
std::vector<std::string_view> ComputationRoles(HloOpcode opcode,
                                               bool has_branch_list) {
  switch (opcode) {
    case HloOpcode::kWhile:
      return {"condition", "body"};
    case HloOpcode::kSelectAndScatter:
      return {"select", "scatter"};
    case HloOpcode::kConditional:
      if (has_branch_list) return {"branch_computations"};
      return {"true_computation", "false_computation"};
    case HloOpcode::kFusion:
      return {"calls"};
    case HloOpcode::kAllReduce:
    case HloOpcode::kCall:
    case HloOpcode::kMap:
    case HloOpcode::kReduce:
    case HloOpcode::kReduceScatter:
    case HloOpcode::kReduceWindow:
    case HloOpcode::kScatter:
    case HloOpcode::kSort:
      return {"to_apply"};
    default:
      return {};
  }
}

bool IsComputationAttribute(std::string_view name) {
  return name == "to_apply" || name == "calls" || name == "condition" ||
         name == "body" || name == "select" || name == "scatter" ||
         name == "true_computation" || name == "false_computation" ||
         name == "branch_computations";
}

// Attribute tables: the text name and the member that receives the value.
template <typename Member>
struct NamedMember {
  std::string_view name;
  Member member;
};

constexpr NamedMember<void (HloInstruction::*)(int64_t)> kIntegerAttributes[] =
    {{"index", &HloInstruction::set_tuple_index},
     {"iota_dimension", &HloInstruction::set_iota_dimension},
     {"feature_group_count", &HloInstruction::set_feature_group_count},
     {"batch_group_count", &HloInstruction::set_batch_group_count},
     {"exponent_bits", &HloInstruction::set_exponent_bits},
     {"mantissa_bits", &HloInstruction::set_mantissa_bits},
     {"feature_index", &HloInstruction::set_feature_index},
     {"k", &HloInstruction::set_top_k}};

constexpr NamedMember<void (HloInstruction::*)(bool)> kBoolAttributes[] = {
    {"is_stable", &HloInstruction::set_is_stable},
    {"largest", &HloInstruction::set_largest},
    {"indices_are_sorted", &HloInstruction::set_indices_are_sorted},
    {"unique_indices", &HloInstruction::set_unique_indices},
    {"use_global_device_ids", &HloInstruction::set_use_global_device_ids}};

constexpr NamedMember<bool LinearAlgebraOptions::*> kLinearAlgebraFlags[] = {
    {"left_side", &LinearAlgebraOptions::left_side},
    {"lower", &LinearAlgebraOptions::lower},
    {"unit_diagonal", &LinearAlgebraOptions::unit_diagonal},
    {"full_matrices", &LinearAlgebraOptions::full_matrices}};

constexpr NamedMember<std::vector<int64_t> DotDimensionNumbers::*> kDotLists[] =
    {{"lhs_batch_dims", &DotDimensionNumbers::lhs_batch_dimensions},
     {"rhs_batch_dims", &DotDimensionNumbers::rhs_batch_dimensions},
     {"lhs_contracting_dims", &DotDimensionNumbers::lhs_contracting_dimensions},
     {"rhs_contracting_dims",
      &DotDimensionNumbers::rhs_contracting_dimensions}};

constexpr NamedMember<std::vector<int64_t> GatherDimensionNumbers::*>
    kGatherLists[] = {
        {"offset_dims", &GatherDimensionNumbers::offset_dims},
        {"collapsed_slice_dims", &GatherDimensionNumbers::collapsed_slice_dims},
        {"start_index_map", &GatherDimensionNumbers::start_index_map},
        {"operand_batching_dims",
         &GatherDimensionNumbers::operand_batching_dims},
        {"start_indices_batching_dims",
         &GatherDimensionNumbers::start_indices_batching_dims}};

constexpr NamedMember<std::vector<int64_t> ScatterDimensionNumbers::*>
    kScatterLists[] = {
        {"update_window_dims", &ScatterDimensionNumbers::update_window_dims},
        {"inserted_window_dims",
         &ScatterDimensionNumbers::inserted_window_dims},
        {"scatter_dims_to_operand_dims",
         &ScatterDimensionNumbers::scatter_dims_to_operand_dims},
        {"input_batching_dims", &ScatterDimensionNumbers::input_batching_dims},
        {"scatter_indices_batching_dims",
         &ScatterDimensionNumbers::scatter_indices_batching_dims}};

// The entry of `table` called `name`, or null.
template <typename Member, std::size_t N>
const NamedMember<Member>* FindByName(const NamedMember<Member> (&table)[N],
                                      std::string_view name) {
  for (const NamedMember<Member>& entry : table) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

// Whether the value attribute `name` belongs to `opcode`: the printer
// writes each only for its opcodes, so one given to another opcode is
// skipped, as attributes the parser does not know are, and every module
// prints to text that parses back to it. Names not listed here (metadata,
// sharding, ...) are skipped for every opcode.
bool AttributeAppliesTo(std::string_view name, HloOpcode opcode) {
  using enum HloOpcode;
  auto any_of = [opcode](std::initializer_list<HloOpcode> owners) {
    return std::find(owners.begin(), owners.end(), opcode) != owners.end();
  };
  if (FindByName(kDotLists, name) != nullptr) return opcode == kDot;
  if (FindByName(kGatherLists, name) != nullptr || name == "slice_sizes") {
    return opcode == kGather;
  }
  if (FindByName(kScatterLists, name) != nullptr || name == "unique_indices") {
    return opcode == kScatter;
  }
  if (name == "index_vector_dim" || name == "indices_are_sorted") {
    return any_of({kGather, kScatter});
  }
  if (name == "dimensions") {
    return any_of({kAllGather, kAllToAll, kBroadcast, kConcatenate, kMap,
                   kReduce, kReduceScatter, kReverse, kTranspose, kSort});
  }
  if (name == "channel_id") return IsCollective(opcode);
  if (name == "replica_groups") {
    return IsCollective(opcode) && opcode != kCollectivePermute;
  }
  if (name == "use_global_device_ids") {
    return any_of({kAllGather, kAllReduce, kReduceScatter});
  }
  if (name == "window") {
    return any_of({kReduceWindow, kSelectAndScatter, kConvolution});
  }
  if (name == "dim_labels" || name == "feature_group_count" ||
      name == "batch_group_count") {
    return opcode == kConvolution;
  }
  if (name == "lower") return any_of({kCholesky, kTriangularSolve, kEigh});
  if (name == "full_matrices") return opcode == kSvd;
  if (name == "left_side" || name == "unit_diagonal" || name == "transpose_a") {
    return opcode == kTriangularSolve;
  }
  if (name == "epsilon" || name == "feature_index") {
    return any_of({kBatchNormGrad, kBatchNormInference, kBatchNormTraining});
  }
  static const std::map<std::string_view, HloOpcode> kOwner = {
      {"is_stable", kSort},
      {"index", kGetTupleElement},
      {"k", kTopK},
      {"largest", kTopK},
      {"fft_type", kFft},
      {"fft_length", kFft},
      {"iota_dimension", kIota},
      {"slice", kSlice},
      {"dynamic_slice_sizes", kDynamicSlice},
      {"padding", kPad},
      {"direction", kCompare},
      {"source_target_pairs", kCollectivePermute},
      {"type", kCompare},
      {"exponent_bits", kReducePrecision},
      {"mantissa_bits", kReducePrecision},
      {"kind", kFusion}};
  auto owner = kOwner.find(name);
  return owner == kOwner.end() || owner->second == opcode;
}

class HloTextParser {
 public:
  HloTextParser(std::string_view text, std::string_view file_name)
      : text_(text), file_name_(file_name) {}

  StatusOr<std::unique_ptr<HloModule>> ParseModule();
  StatusOr<Shape> ParseWholeShape();

 private:
  // --- Errors --------------------------------------------------------------
  Status ErrorAt(std::size_t offset, const std::string& message) const;
  Status Error(const std::string& message) const {
    return ErrorAt(token_start_, message);
  }

  // --- Cursor --------------------------------------------------------------
  // Skips whitespace and /*...*/ and //... comments; marks the next token.
  void SkipTrivia();
  char Peek() {
    SkipTrivia();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  char PeekRaw(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool TryConsume(char c);
  // Consumes `c` only when it is the very next character (no whitespace
  // between), as inside "3x3" and "1_2".
  bool TryConsumeAdjacent(char c);
  bool TryConsume(std::string_view token);
  Status Expect(char c, std::string_view context);
  Status Expect(std::string_view token, std::string_view context);
  // An identifier of name characters, without a leading '%'.
  StatusOr<std::string_view> ParseIdentifier(std::string_view what);
  // An instruction or computation name, with or without its '%'.
  StatusOr<std::string> ParseName(std::string_view what);
  StatusOr<int64_t> ParseInt64(std::string_view what);
  StatusOr<std::vector<int64_t>> ParseIntList(std::string_view what);
  // Integers separated by 'x', as in "3x3".
  StatusOr<std::vector<int64_t>> ParseIntsSeparatedByX(std::string_view what);
  StatusOr<bool> ParseBool(std::string_view what);
  StatusOr<float> ParseFloatAttribute(std::string_view what);
  // The raw text of a value up to the next ',', whitespace or closing
  // bracket, as in "b01f_01io->b01f" or "kLoop".
  std::string_view ParseBareWord();
  // Skips a value whose meaning is ignored: balanced brackets and quoted
  // strings, up to the ',' or whitespace that ends it.
  Status SkipAttributeValue();
  Status SkipQuotedString();

  // --- Shapes --------------------------------------------------------------
  StatusOr<Shape> ParseShape(int depth = 0);
  Status ParseLayout(Shape* shape);
  // True when the next tokens start a shape rather than a name.
  bool AtShape();

  // --- Literals ------------------------------------------------------------
  StatusOr<Literal> ParseLiteral(const Shape& shape, int depth = 0);
  Status ParseArrayElements(const Shape& shape, std::size_t dimension,
                            std::vector<ScalarText>* out);
  StatusOr<ScalarText> ParseScalarText(ElementType type);
  std::string_view ParseNumberToken();
  Status StoreScalar(const ScalarText& scalar, ElementType type, uint8_t* out);

  // Runs `reader` (a reader of core/hlo over a TextCursor) at the current
  // position; its errors are reported at their line and column.
  template <typename Reader>
  auto ReadWithCursor(Reader reader)
      -> decltype(reader(std::declval<TextCursor&>()));

  // --- Module structure ----------------------------------------------------
  // The module header's attributes: replica_count and num_partitions are
  // kept, the others skipped.
  Status ParseModuleAttributes(HloModule* module);
  // A custom-call must be one of kShardingTargets on one operand of its
  // shape.
  // A LAPACK custom call JAX writes for CPU as a call of a computation
  // holding its lowering (lapack_custom_calls.h).
  StatusOr<std::unique_ptr<HloInstruction>> LapackCall(
      std::unique_ptr<HloInstruction> custom_call,
      const AttributeList& attributes, std::size_t opcode_offset);
  Status CheckShardingCustomCall(const HloInstruction& instruction,
                                 const AttributeList& attributes,
                                 std::size_t opcode_offset);
  // A module whose header states no process grid but whose shardings split
  // values over several devices is a global SPMD program (what jax.jit
  // lowers): num_partitions becomes the shardings' device count.
  Status MarkGlobalProgram(HloModule* module);
  Status SkipHeaderAttributes();
  bool AtStackFrameSection();
  Status SkipStackFrameSection();
  Status ParseComputation(HloModule* module);
  Status SkipSignature();
  Status ParseInstruction(
      HloComputation* computation,
      std::unordered_map<std::string, HloInstruction*>* instructions_by_name,
      bool* is_root);
  Status ParseOperands(HloInstruction* instruction,
                       const std::unordered_map<std::string, HloInstruction*>&
                           instructions_by_name);
  // The attributes and lowering of a `ragged-dot` whose operands are read
  // into `call`, a call instruction that is to compute it.
  Status ParseRaggedDot(HloInstruction* call, std::size_t instruction_offset);
  // lhs_ragged_dims and rhs_group_dims; false when `name` is neither.
  StatusOr<bool> ParseRaggedDimensions(std::string_view name,
                                       RaggedDotDimensionNumbers* numbers);
  // A name for a new computation that no computation of the module has,
  // nor starts with followed by '.'.
  std::string UnusedComputationName(const std::string& base) const;
  Status ParseAttribute(HloInstruction* instruction, AttributeList* list);
  // Dot, gather and scatter dimension lists and index_vector_dim; false
  // when `name` is none of them.
  StatusOr<bool> ParseDimensionNumbersAttribute(std::string_view name,
                                                HloInstruction* instruction);
  // Attributes with a syntax of their own (slice, window, dim_labels, ...);
  // skips the value of any attribute it does not know.
  Status ParseStructuredAttribute(std::string_view name,
                                  HloInstruction* instruction);
  Status ParseComputationAttribute(std::string_view name, AttributeList* list);
  Status FinishAttributes(HloInstruction* instruction, AttributeList* list,
                          std::size_t instruction_offset);
  StatusOr<std::vector<std::vector<int64_t>>> ParseSliceRanges();
  StatusOr<PaddingConfig> ParsePaddingConfig();
  StatusOr<Window> ParseWindow();
  StatusOr<ConvolutionDimensionNumbers> ParseDimLabels();
  Status ResolveCalls(const HloModule& module);
  // Checks the groups and shapes of the module's collectives.
  Status CheckCollectives(const HloModule& module);

  std::string_view text_;
  std::string_view file_name_;
  std::size_t pos_ = 0;
  // Whether the header stated replica_count or num_partitions.
  bool grid_stated_ = false;
  // Each sharding= read, with where its value starts.
  std::vector<std::pair<const HloInstruction*, std::size_t>> sharding_offsets_;
  std::size_t token_start_ = 0;
  std::vector<PendingCalls> pending_calls_;
  std::vector<PendingCollective> pending_collectives_;
  HloModule* module_ = nullptr;
};

// --- Errors -----------------------------------------------------------------

Status HloTextParser::ErrorAt(std::size_t offset,
                              const std::string& message) const {
  offset = std::min(offset, text_.size());
  std::size_t line_start = 0;
  int line = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text_[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  std::size_t line_end = text_.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text_.size();
  const std::size_t column = offset - line_start + 1;
  std::string formatted = std::string(file_name_) + ":" + std::to_string(line) +
                          ":" + std::to_string(column) + ": error: " + message +
                          "\n";
  formatted += std::string(text_.substr(line_start, line_end - line_start));
  formatted += "\n" + std::string(column - 1, ' ') + "^";
  return InvalidArgument(std::move(formatted));
}

// --- Cursor -----------------------------------------------------------------

void HloTextParser::SkipTrivia() {
  while (pos_ < text_.size()) {
    if (IsSpace(text_[pos_])) {
      ++pos_;
    } else if (text_.substr(pos_, 2) == "/*") {
      const std::size_t end = text_.find("*/", pos_ + 2);
      pos_ = end == std::string_view::npos ? text_.size() : end + 2;
    } else if (text_.substr(pos_, 2) == "//") {
      const std::size_t end = text_.find('\n', pos_);
      pos_ = end == std::string_view::npos ? text_.size() : end + 1;
    } else {
      break;
    }
  }
  token_start_ = pos_;
}

bool HloTextParser::TryConsume(char c) {
  if (Peek() != c) return false;
  ++pos_;
  return true;
}

bool HloTextParser::TryConsumeAdjacent(char c) {
  if (PeekRaw() != c) return false;
  ++pos_;
  return true;
}

bool HloTextParser::TryConsume(std::string_view token) {
  SkipTrivia();
  if (text_.substr(pos_, token.size()) != token) return false;
  pos_ += token.size();
  return true;
}

Status HloTextParser::Expect(char c, std::string_view context) {
  if (TryConsume(c)) return OkStatus();
  const char found = Peek();
  const std::string found_text =
      found == '\0' ? "end of input" : "'" + std::string(1, found) + "'";
  return Error("expected '" + std::string(1, c) + "' " + std::string(context) +
               ", found " + found_text);
}

Status HloTextParser::Expect(std::string_view token, std::string_view context) {
  if (TryConsume(token)) return OkStatus();
  return Error("expected '" + std::string(token) + "' " + std::string(context));
}

StatusOr<std::string_view> HloTextParser::ParseIdentifier(
    std::string_view what) {
  SkipTrivia();
  if (!IsNameStartChar(PeekRaw())) {
    return Error("expected " + std::string(what));
  }
  const std::size_t start = pos_;
  while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

StatusOr<std::string> HloTextParser::ParseName(std::string_view what) {
  SkipTrivia();
  const bool has_percent = PeekRaw() == '%';
  if (has_percent) ++pos_;
  if (!IsNameStartChar(PeekRaw()) &&
      !(has_percent && std::isdigit(static_cast<unsigned char>(PeekRaw())))) {
    return ErrorAt(token_start_, "expected " + std::string(what));
  }
  const std::size_t start = pos_;
  while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

StatusOr<int64_t> HloTextParser::ParseInt64(std::string_view what) {
  SkipTrivia();
  const std::size_t start = pos_;
  // from_chars reads a '-' but not a '+'.
  const bool plus = PeekRaw() == '+';
  if (plus || PeekRaw() == '-') ++pos_;
  while (std::isdigit(static_cast<unsigned char>(PeekRaw()))) ++pos_;
  const char* begin = text_.data() + start + (plus ? 1 : 0);
  const char* end = text_.data() + pos_;
  int64_t value = 0;
  const auto [parsed_end, error] = std::from_chars(begin, end, value);
  if (begin == end || error != std::errc() || parsed_end != end) {
    pos_ = start;
    if (error == std::errc::result_out_of_range) {
      return Error(std::string(what) + " is out of the range of s64");
    }
    return Error("expected an integer for " + std::string(what));
  }
  return value;
}

StatusOr<std::vector<int64_t>> HloTextParser::ParseIntList(
    std::string_view what) {
  PHAL_RETURN_IF_ERROR(Expect('{', "to open " + std::string(what)));
  std::vector<int64_t> values;
  if (TryConsume('}')) return values;
  do {
    PHAL_ASSIGN_OR_RETURN(int64_t value, ParseInt64(what));
    values.push_back(value);
  } while (TryConsume(','));
  PHAL_RETURN_IF_ERROR(Expect('}', "to close " + std::string(what)));
  return values;
}

StatusOr<std::vector<int64_t>> HloTextParser::ParseIntsSeparatedByX(
    std::string_view what) {
  std::vector<int64_t> values;
  do {
    PHAL_ASSIGN_OR_RETURN(int64_t value, ParseInt64(what));
    values.push_back(value);
  } while (TryConsumeAdjacent('x'));
  return values;
}

StatusOr<bool> HloTextParser::ParseBool(std::string_view what) {
  if (TryConsume("true")) return true;
  if (TryConsume("false")) return false;
  return Error("expected true or false for " + std::string(what));
}

StatusOr<float> HloTextParser::ParseFloatAttribute(std::string_view what) {
  SkipTrivia();
  const std::size_t start = pos_;
  const std::string token(ParseNumberToken());
  char* end = nullptr;
  const float value = std::strtof(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size()) {
    return ErrorAt(start, "expected a number for " + std::string(what));
  }
  return value;
}

std::string_view HloTextParser::ParseBareWord() {
  SkipTrivia();
  const std::size_t start = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (IsSpace(c) || c == ',' || c == '}' || c == ')' || c == ']') break;
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

Status HloTextParser::SkipQuotedString() {
  const std::size_t start = pos_;
  ++pos_;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    pos_ += text_[pos_] == '\\' ? 2 : 1;
  }
  if (pos_ >= text_.size()) {
    return ErrorAt(start, "unterminated string");
  }
  ++pos_;
  return OkStatus();
}

Status HloTextParser::SkipAttributeValue() {
  SkipTrivia();
  const std::size_t start = pos_;
  std::vector<std::size_t> open_brackets;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '"') {
      PHAL_RETURN_IF_ERROR(SkipQuotedString());
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      open_brackets.push_back(pos_);
    } else if (c == '}' || c == ')' || c == ']') {
      if (open_brackets.empty()) break;
      open_brackets.pop_back();
    } else if (open_brackets.empty() && (c == ',' || IsSpace(c))) {
      break;
    }
    ++pos_;
  }
  if (!open_brackets.empty()) {
    return ErrorAt(open_brackets.back(),
                   "unbalanced bracket in attribute value");
  }
  if (pos_ == start) return ErrorAt(start, "expected an attribute value");
  return OkStatus();
}

// --- Shapes -----------------------------------------------------------------

bool HloTextParser::AtShape() {
  const char next = Peek();
  if (next == '(') return true;
  if (!IsNameStartChar(next)) return false;
  std::size_t end = pos_;
  while (end < text_.size() && IsNameChar(text_[end])) ++end;
  ElementType type;
  return end < text_.size() && text_[end] == '[' &&
         ParseElementTypeName(std::string(text_.substr(pos_, end - pos_)),
                              &type);
}

StatusOr<Shape> HloTextParser::ParseShape(int depth) {
  if (depth > kMaxNestingDepth) return Error("shape nested too deeply");
  if (TryConsume('(')) {
    std::vector<Shape> elements;
    if (!TryConsume(')')) {
      do {
        PHAL_ASSIGN_OR_RETURN(Shape element, ParseShape(depth + 1));
        elements.push_back(std::move(element));
      } while (TryConsume(','));
      PHAL_RETURN_IF_ERROR(Expect(')', "to close the tuple shape"));
    }
    return Shape::Tuple(std::move(elements));
  }
  SkipTrivia();
  const std::size_t type_offset = token_start_;
  PHAL_ASSIGN_OR_RETURN(std::string_view type_name, ParseIdentifier("a shape"));
  ElementType type;
  if (!ParseElementTypeName(std::string(type_name), &type)) {
    return ErrorAt(type_offset,
                   "unknown element type '" + std::string(type_name) + "'");
  }
  if (PeekRaw() != '[') {
    return Error("expected '[' after element type " + std::string(type_name));
  }
  ++pos_;
  std::vector<int64_t> dims;
  int64_t element_count = 1;
  if (!TryConsume(']')) {
    do {
      if (Peek() == '<' || Peek() == '?') {
        return Error("dynamic dimensions are not supported");
      }
      if (static_cast<int>(dims.size()) == kMaxRank) {
        return Error("shape has more than " + std::to_string(kMaxRank) +
                     " dimensions");
      }
      PHAL_ASSIGN_OR_RETURN(int64_t dim, ParseInt64("a dimension size"));
      if (dim < 0) return Error("dimension size must not be negative");
      if (dim != 0 &&
          element_count > std::numeric_limits<int64_t>::max() / dim) {
        return Error("shape has more elements than fit in s64");
      }
      element_count *= dim;
      dims.push_back(dim);
    } while (TryConsume(','));
    PHAL_RETURN_IF_ERROR(Expect(']', "to close the dimensions"));
  }
  Shape shape(type, std::move(dims));
  if (PeekRaw() == '{') PHAL_RETURN_IF_ERROR(ParseLayout(&shape));
  return shape;
}

Status HloTextParser::ParseLayout(Shape* shape) {
  const std::size_t layout_offset = pos_;
  ++pos_;
  std::vector<int64_t> minor_to_major;
  if (Peek() != '}' && Peek() != ':') {
    do {
      PHAL_ASSIGN_OR_RETURN(int64_t dim, ParseInt64("a layout dimension"));
      minor_to_major.push_back(dim);
    } while (TryConsume(','));
  }
  if (TryConsume(':')) {
    // Tiling, memory space and element size suffixes describe physical
    // storage on the device that produced the dump; they do not change
    // values, so they are read and dropped.
    int depth = 0;
    while (pos_ < text_.size() && !(depth == 0 && text_[pos_] == '}')) {
      if (text_[pos_] == '(') ++depth;
      if (text_[pos_] == ')') --depth;
      ++pos_;
    }
  }
  PHAL_RETURN_IF_ERROR(Expect('}', "to close the layout"));
  std::vector<bool> used(static_cast<std::size_t>(shape->rank()), false);
  for (int64_t dim : minor_to_major) {
    if (dim < 0 || dim >= shape->rank() ||
        used[static_cast<std::size_t>(dim)]) {
      return ErrorAt(layout_offset, "layout is not a permutation of the " +
                                        std::to_string(shape->rank()) +
                                        " dimensions of the shape");
    }
    used[static_cast<std::size_t>(dim)] = true;
  }
  if (!minor_to_major.empty() &&
      static_cast<int64_t>(minor_to_major.size()) != shape->rank()) {
    return ErrorAt(layout_offset, "layout is not a permutation of the " +
                                      std::to_string(shape->rank()) +
                                      " dimensions of the shape");
  }
  shape->set_minor_to_major(std::move(minor_to_major));
  return OkStatus();
}

StatusOr<Shape> HloTextParser::ParseWholeShape() {
  PHAL_ASSIGN_OR_RETURN(Shape shape, ParseShape());
  if (Peek() != '\0') return Error("unexpected text after the shape");
  return shape;
}

// --- Literals ---------------------------------------------------------------

std::string_view HloTextParser::ParseNumberToken() {
  SkipTrivia();
  const std::size_t start = pos_;
  if (PeekRaw() == '-' || PeekRaw() == '+') ++pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    const char previous = pos_ > start ? text_[pos_ - 1] : '\0';
    const bool exponent_sign =
        (c == '-' || c == '+') && (previous == 'e' || previous == 'E');
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' &&
        !exponent_sign) {
      break;
    }
    ++pos_;
  }
  return text_.substr(start, pos_ - start);
}

StatusOr<ScalarText> HloTextParser::ParseScalarText(ElementType type) {
  SkipTrivia();
  ScalarText scalar;
  scalar.offset = token_start_;
  if (IsComplex(type)) {
    PHAL_RETURN_IF_ERROR(Expect('(', "to open a complex value"));
    scalar.real = ParseNumberToken();
    PHAL_RETURN_IF_ERROR(Expect(',', "between the parts of a complex value"));
    scalar.imag = ParseNumberToken();
    PHAL_RETURN_IF_ERROR(Expect(')', "to close a complex value"));
    return scalar;
  }
  scalar.real = ParseNumberToken();
  if (scalar.real.empty()) {
    return Error(std::string("expected a ") + ElementTypeName(type) + " value");
  }
  return scalar;
}

Status HloTextParser::ParseArrayElements(const Shape& shape,
                                         std::size_t dimension,
                                         std::vector<ScalarText>* out) {
  if (dimension == shape.dims().size()) {
    PHAL_ASSIGN_OR_RETURN(ScalarText scalar,
                          ParseScalarText(shape.element_type()));
    out->push_back(scalar);
    return OkStatus();
  }
  PHAL_RETURN_IF_ERROR(Expect('{', "to open a literal dimension"));
  if (TryConsume("...")) {
    return Error(
        "the constant's value was elided ('{...}'); dump the module with "
        "large constants printed");
  }
  const int64_t size = shape.dims()[dimension];
  for (int64_t i = 0; i < size; ++i) {
    if (i > 0 && !TryConsume(',')) {
      return Error("literal dimension " + std::to_string(dimension) + " has " +
                   std::to_string(i) + " elements, the shape " +
                   shape.ToString() + " says " + std::to_string(size));
    }
    PHAL_RETURN_IF_ERROR(ParseArrayElements(shape, dimension + 1, out));
  }
  if (!TryConsume('}')) {
    return Error("literal dimension " + std::to_string(dimension) +
                 " has more than " + std::to_string(size) +
                 " elements, the shape " + shape.ToString() + " says " +
                 std::to_string(size));
  }
  return OkStatus();
}

StatusOr<Literal> HloTextParser::ParseLiteral(const Shape& shape, int depth) {
  if (depth > kMaxNestingDepth) return Error("literal nested too deeply");
  if (shape.IsTuple()) {
    PHAL_RETURN_IF_ERROR(Expect('(', "to open a tuple literal"));
    std::vector<Literal> elements;
    for (std::size_t i = 0; i < shape.tuple_shapes().size(); ++i) {
      if (i > 0) PHAL_RETURN_IF_ERROR(Expect(',', "between tuple elements"));
      PHAL_ASSIGN_OR_RETURN(Literal element,
                            ParseLiteral(shape.tuple_shapes()[i], depth + 1));
      elements.push_back(std::move(element));
    }
    PHAL_RETURN_IF_ERROR(Expect(')', "to close the tuple literal"));
    return Literal::Tuple(std::move(elements));
  }
  // Older XLA repeats the shape inside the parentheses: constant(f32[2] {1,
  // 2}).
  // A '(' here opens a complex scalar, not a tuple shape.
  if (Peek() != '(' && AtShape()) {
    PHAL_RETURN_IF_ERROR(ParseShape().status());
  }
  std::vector<ScalarText> scalars;
  PHAL_RETURN_IF_ERROR(ParseArrayElements(shape, 0, &scalars));
  Shape row_major = shape;
  row_major.set_minor_to_major({});
  Literal literal(row_major);
  const std::size_t element_size = ElementTypeByteSize(shape.element_type());
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    PHAL_RETURN_IF_ERROR(StoreScalar(scalars[i], shape.element_type(),
                                     literal.data() + i * element_size));
  }
  return literal;
}

Status HloTextParser::StoreScalar(const ScalarText& scalar, ElementType type,
                                  uint8_t* out) {
  const std::string type_name = ElementTypeName(type);
  const std::string text(scalar.real);
  const auto invalid = [&] {
    return ErrorAt(scalar.offset,
                   "'" + text + "' is not a valid " + type_name + " value");
  };
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    if (text != "true" && text != "false" && text != "1" && text != "0") {
      return invalid();
    }
    *out = (text == "true" || text == "1") ? 1 : 0;
    return OkStatus();
  }
  if (IsIntegral(type)) {
    const int bits = ElementTypeBitWidth(type);
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (IsSigned(type)) {
      int64_t value = 0;
      const auto [stop, error] = std::from_chars(begin, end, value);
      const int64_t limit = bits == 64 ? std::numeric_limits<int64_t>::max()
                                       : (int64_t{1} << (bits - 1)) - 1;
      if (error != std::errc() || stop != end || value > limit ||
          value < -limit - 1) {
        return invalid();
      }
      std::memcpy(out, &value, static_cast<std::size_t>(bits / 8));
      return OkStatus();
    }
    uint64_t value = 0;
    const auto [stop, error] = std::from_chars(begin, end, value);
    const uint64_t limit = bits == 64 ? std::numeric_limits<uint64_t>::max()
                                      : (uint64_t{1} << bits) - 1;
    if (error != std::errc() || stop != end || value > limit) return invalid();
    std::memcpy(out, &value, static_cast<std::size_t>(bits / 8));
    return OkStatus();
  }
  const auto parse_double = [](const std::string& token, double* value) {
    char* end = nullptr;
    *value = std::strtod(token.c_str(), &end);
    return !token.empty() && end == token.c_str() + token.size();
  };
  double real = 0;
  if (!parse_double(text, &real)) return invalid();
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16: {
      const uint16_t bits = DoubleToHalf(real);
      std::memcpy(out, &bits, sizeof(bits));
      return OkStatus();
    }
    case PHAL_ELEMENT_TYPE_BF16: {
      const uint16_t bits = DoubleToBFloat16(real);
      std::memcpy(out, &bits, sizeof(bits));
      return OkStatus();
    }
    case PHAL_ELEMENT_TYPE_F32: {
      const float value = std::strtof(text.c_str(), nullptr);
      std::memcpy(out, &value, sizeof(value));
      return OkStatus();
    }
    case PHAL_ELEMENT_TYPE_F64:
      std::memcpy(out, &real, sizeof(real));
      return OkStatus();
    default:
      break;
  }
  double imag = 0;
  if (!parse_double(std::string(scalar.imag), &imag)) {
    return ErrorAt(scalar.offset, "'" + std::string(scalar.imag) +
                                      "' is not a valid imaginary part");
  }
  if (type == PHAL_ELEMENT_TYPE_C64) {
    const float parts[2] = {
        std::strtof(text.c_str(), nullptr),
        std::strtof(std::string(scalar.imag).c_str(), nullptr)};
    std::memcpy(out, parts, sizeof(parts));
  } else {
    const double parts[2] = {real, imag};
    std::memcpy(out, parts, sizeof(parts));
  }
  return OkStatus();
}

// --- Module structure -------------------------------------------------------

StatusOr<std::unique_ptr<HloModule>> HloTextParser::ParseModule() {
  SkipTrivia();
  if (!TryConsume("HloModule")) {
    return Error("expected 'HloModule' at the start of the module");
  }
  PHAL_ASSIGN_OR_RETURN(std::string name, ParseName("the module name"));
  auto module = std::make_unique<HloModule>(std::move(name));
  module_ = module.get();
  PHAL_RETURN_IF_ERROR(ParseModuleAttributes(module.get()));
  while (Peek() != '\0') {
    if (AtStackFrameSection()) {
      PHAL_RETURN_IF_ERROR(SkipStackFrameSection());
      continue;
    }
    PHAL_RETURN_IF_ERROR(ParseComputation(module.get()));
  }
  if (module->computations().empty()) {
    return Error("the module has no computation");
  }
  if (module->entry_computation() == nullptr) {
    module->set_entry_computation(module->computations().back());
  }
  PHAL_RETURN_IF_ERROR(ResolveCalls(*module));
  PHAL_RETURN_IF_ERROR(CheckCollectives(*module));
  PHAL_RETURN_IF_ERROR(MarkGlobalProgram(module.get()));
  return module;
}

StatusOr<std::unique_ptr<HloInstruction>> HloTextParser::LapackCall(
    std::unique_ptr<HloInstruction> custom_call,
    const AttributeList& attributes, std::size_t opcode_offset) {
  const std::string& target = attributes.custom_call_target;
  LapackOptions options;
  // backend_config={diag = 85 : ui8, side = 76 : ui8, ...}: LAPACK's
  // character codes by name; {lower = true, ...}: the GPU solvers' flags.
  const std::string& config = attributes.backend_config;
  for (std::size_t at = 0; at < config.size();) {
    const std::size_t equals = config.find('=', at);
    if (equals == std::string::npos) break;
    std::size_t key_end = equals;
    while (key_end > at && config[key_end - 1] == ' ') --key_end;
    std::size_t key_begin = key_end;
    while (key_begin > at &&
           (std::isalnum(static_cast<unsigned char>(config[key_begin - 1])) ||
            config[key_begin - 1] == '_')) {
      --key_begin;
    }
    const std::string key = config.substr(key_begin, key_end - key_begin);
    std::size_t digits = equals + 1;
    while (digits < config.size() && config[digits] == ' ') ++digits;
    int value = 0;
    std::size_t end = digits;
    while (end < config.size() &&
           std::isdigit(static_cast<unsigned char>(config[end]))) {
      value = value * 10 + (config[end] - '0');
      ++end;
    }
    if (end > digits) {
      options.SetCode(key, static_cast<char>(value));
    } else if (config.compare(digits, 4, "true") == 0) {
      options.SetFlag(key, true);
      end = digits + 4;
    } else if (config.compare(digits, 5, "false") == 0) {
      options.SetFlag(key, false);
      end = digits + 5;
    }
    at = end > equals ? end : equals + 1;
  }
  const Shape& stated = custom_call->shape();
  std::vector<Shape> result_types =
      stated.IsTuple() ? stated.tuple_shapes() : std::vector<Shape>{stated};
  HloBuilder helper(UnusedComputationName(custom_call->name() + ".lapack"));
  std::vector<HloInstruction*> parameters;
  for (const HloInstruction* operand : custom_call->operands()) {
    parameters.push_back(helper.AddParameter(operand->shape()));
  }
  LapackComputations sink{
      [this](const std::string& base) { return UnusedComputationName(base); },
      [this](std::unique_ptr<HloComputation> computation) {
        return module_->AddComputation(std::move(computation));
      }};
  StatusOr<std::vector<HloInstruction*>> results = LowerLapackCustomCall(
      helper, sink, target, options, parameters, result_types);
  if (!results.ok()) {
    return ErrorAt(opcode_offset, std::string(results.status().message()));
  }
  HloInstruction* root = (*results)[0];
  if (stated.IsTuple()) {
    PHAL_ASSIGN_OR_RETURN(root, helper.Tuple(*results));
  }
  auto call = std::make_unique<HloInstruction>(HloOpcode::kCall,
                                               custom_call->name(), stated);
  for (HloInstruction* operand : custom_call->operands()) {
    call->AppendOperand(operand);
  }
  custom_call->DropOperands();
  call->AppendCalledComputation(module_->AddComputation(helper.Build(root)));
  return call;
}

Status HloTextParser::CheckShardingCustomCall(const HloInstruction& instruction,
                                              const AttributeList& attributes,
                                              std::size_t opcode_offset) {
  const std::string& target = attributes.custom_call_target;
  if (std::find(std::begin(kShardingTargets), std::end(kShardingTargets),
                target) == std::end(kShardingTargets)) {
    return ErrorAt(opcode_offset,
                   "custom-call" +
                       (target.empty() ? std::string(" without a target")
                                       : " target '" + target + "'") +
                       " is not supported: the HLO front end reads only the "
                       "sharding annotations 'Sharding' and "
                       "'xla.sdy.FuncResultSharding'");
  }
  if (instruction.operand_count() != 1 ||
      !instruction.operand(0)->shape().Compatible(instruction.shape())) {
    return ErrorAt(opcode_offset, "custom-call '" + target +
                                      "' takes one operand of its own shape");
  }
  return OkStatus();
}

Status HloTextParser::MarkGlobalProgram(HloModule* module) {
  if (grid_stated_) return OkStatus();
  int64_t devices = 0;
  for (const auto& [instruction, offset] : sharding_offsets_) {
    std::vector<const HloSharding*> leaves = {&*instruction->sharding()};
    if (leaves[0]->IsTuple()) {
      leaves.clear();
      for (const HloSharding& element :
           instruction->sharding()->tuple_elements()) {
        leaves.push_back(&element);
      }
    }
    for (const HloSharding* leaf : leaves) {
      if (leaf->kind() != HloSharding::Kind::kTiled) continue;
      const int64_t count = leaf->tile_assignment().device_count();
      if (devices == 0) devices = count;
      if (count != devices) {
        return ErrorAt(offset, "this sharding lays the value over " +
                                   std::to_string(count) +
                                   " devices, an earlier one over " +
                                   std::to_string(devices) +
                                   "; a program runs on one set of devices");
      }
    }
  }
  if (devices <= 1) return OkStatus();
  for (const auto& [instruction, offset] : sharding_offsets_) {
    const HloSharding& sharding = *instruction->sharding();
    if (sharding.kind() == HloSharding::Kind::kMaximal &&
        sharding.device() >= devices) {
      return ErrorAt(offset, "device " + std::to_string(sharding.device()) +
                                 " is not among the program's " +
                                 std::to_string(devices) + " devices");
    }
  }
  module->set_num_partitions(devices);
  module->set_spmd_global(true);
  return OkStatus();
}

template <typename Reader>
auto HloTextParser::ReadWithCursor(Reader reader)
    -> decltype(reader(std::declval<TextCursor&>())) {
  SkipTrivia();
  TextCursor cursor(text_, pos_);
  auto value = reader(cursor);
  if (!value.ok()) {
    return ErrorAt(cursor.error_offset(),
                   std::string(value.status().message()));
  }
  pos_ = cursor.position();
  return value;
}

Status HloTextParser::ParseModuleAttributes(HloModule* module) {
  while (TryConsume(',')) {
    PHAL_ASSIGN_OR_RETURN(std::string_view name,
                          ParseIdentifier("a module attribute name"));
    PHAL_RETURN_IF_ERROR(Expect('=', "after the module attribute name"));
    if (name != "replica_count" && name != "num_partitions") {
      PHAL_RETURN_IF_ERROR(SkipAttributeValue());
      continue;
    }
    SkipTrivia();
    const std::size_t value_offset = token_start_;
    PHAL_ASSIGN_OR_RETURN(int64_t count, ParseInt64(name));
    if (count < 1 || count > (int64_t{1} << 20)) {
      return ErrorAt(value_offset, std::string(name) +
                                       " must be between 1 "
                                       "and 1048576, got " +
                                       std::to_string(count));
    }
    grid_stated_ = true;
    if (name == "replica_count") {
      module->set_replica_count(count);
    } else {
      module->set_num_partitions(count);
    }
  }
  return OkStatus();
}

Status HloTextParser::SkipHeaderAttributes() {
  while (TryConsume(',')) {
    PHAL_RETURN_IF_ERROR(ParseIdentifier("a module attribute name").status());
    PHAL_RETURN_IF_ERROR(Expect('=', "after the module attribute name"));
    PHAL_RETURN_IF_ERROR(SkipAttributeValue());
  }
  return OkStatus();
}

bool HloTextParser::AtStackFrameSection() {
  SkipTrivia();
  for (std::string_view section : kStackFrameSections) {
    if (text_.substr(pos_, section.size()) != section) continue;
    const std::size_t after = pos_ + section.size();
    if (after < text_.size() && IsNameChar(text_[after])) continue;
    std::size_t next = after;
    while (next < text_.size() && IsSpace(text_[next])) ++next;
    return next == text_.size() ||
           std::isdigit(static_cast<unsigned char>(text_[next])) ||
           IsNameStartChar(text_[next]);
  }
  return false;
}

Status HloTextParser::SkipStackFrameSection() {
  PHAL_RETURN_IF_ERROR(ParseIdentifier("a section name").status());
  while (std::isdigit(static_cast<unsigned char>(Peek()))) {
    PHAL_RETURN_IF_ERROR(ParseInt64("a table index").status());
    PHAL_RETURN_IF_ERROR(SkipAttributeValue());
  }
  return OkStatus();
}

Status HloTextParser::SkipSignature() {
  if (!TryConsume(')')) {
    do {
      PHAL_RETURN_IF_ERROR(ParseName("a parameter name").status());
      PHAL_RETURN_IF_ERROR(Expect(':', "after the parameter name"));
      PHAL_RETURN_IF_ERROR(ParseShape().status());
    } while (TryConsume(','));
    PHAL_RETURN_IF_ERROR(Expect(')', "to close the parameter list"));
  }
  PHAL_RETURN_IF_ERROR(Expect("->", "after the parameter list"));
  return ParseShape().status();
}

Status HloTextParser::ParseComputation(HloModule* module) {
  SkipTrivia();
  const bool is_entry = TryConsume("ENTRY");
  SkipTrivia();
  const std::size_t name_offset = token_start_;
  PHAL_ASSIGN_OR_RETURN(std::string name, ParseName("a computation name"));
  if (module->GetComputationWithName(name) != nullptr) {
    return ErrorAt(name_offset, "computation %" + name + " is defined twice");
  }
  if (TryConsume('(')) PHAL_RETURN_IF_ERROR(SkipSignature());
  PHAL_RETURN_IF_ERROR(Expect('{', "to open the computation body"));
  auto computation = std::make_unique<HloComputation>(name);
  std::unordered_map<std::string, HloInstruction*> instructions_by_name;
  HloInstruction* root = nullptr;
  while (!TryConsume('}')) {
    if (Peek() == '\0') {
      return Error("expected '}' to close computation %" + name);
    }
    bool is_root = false;
    SkipTrivia();
    const std::size_t instruction_offset = token_start_;
    PHAL_RETURN_IF_ERROR(
        ParseInstruction(computation.get(), &instructions_by_name, &is_root));
    if (is_root && root != nullptr) {
      return ErrorAt(instruction_offset,
                     "computation %" + name + " has a second ROOT");
    }
    if (is_root) root = computation->instructions().back();
  }
  if (computation->instructions().empty()) {
    return ErrorAt(name_offset, "computation %" + name + " is empty");
  }
  for (int64_t i = 0; i < computation->num_parameters(); ++i) {
    if (computation->parameter_instruction(i) == nullptr) {
      return ErrorAt(name_offset, "computation %" + name +
                                      " has no parameter " + std::to_string(i));
    }
  }
  computation->set_root_instruction(
      root != nullptr ? root : computation->instructions().back());
  // Newer XLA may follow a computation with `, execution_thread="..."`.
  PHAL_RETURN_IF_ERROR(SkipHeaderAttributes());
  HloComputation* added = module->AddComputation(std::move(computation));
  if (is_entry) {
    if (module->entry_computation() != nullptr) {
      return ErrorAt(name_offset, "a second ENTRY computation");
    }
    module->set_entry_computation(added);
  }
  return OkStatus();
}

Status HloTextParser::ParseInstruction(
    HloComputation* computation,
    std::unordered_map<std::string, HloInstruction*>* instructions_by_name,
    bool* is_root) {
  SkipTrivia();
  const std::size_t instruction_offset = token_start_;
  if (text_.substr(pos_, 4) == "ROOT" && !IsNameChar(PeekRaw(4))) {
    pos_ += 4;
    *is_root = true;
  }
  SkipTrivia();
  const std::size_t name_offset = token_start_;
  PHAL_ASSIGN_OR_RETURN(std::string name, ParseName("an instruction name"));
  if (instructions_by_name->count(name) != 0) {
    return ErrorAt(name_offset, "instruction %" + name + " is defined twice");
  }
  PHAL_RETURN_IF_ERROR(Expect('=', "after the instruction name"));
  PHAL_ASSIGN_OR_RETURN(Shape shape, ParseShape());
  SkipTrivia();
  const std::size_t opcode_offset = token_start_;
  PHAL_ASSIGN_OR_RETURN(std::string_view opcode_name,
                        ParseIdentifier("an opcode"));
  const bool is_ragged_dot = opcode_name == kRaggedDotOpcode;
  const bool is_custom_call = opcode_name == kCustomCallOpcode;
  const std::optional<HloOpcode> opcode = is_ragged_dot ? HloOpcode::kCall
                                          : is_custom_call
                                              ? HloOpcode::kCopy
                                              : HloOpcodeFromName(opcode_name);
  if (!opcode.has_value()) {
    return ErrorAt(opcode_offset, "unknown or unsupported opcode '" +
                                      std::string(opcode_name) + "'");
  }
  auto instruction =
      std::make_unique<HloInstruction>(*opcode, name, std::move(shape));
  PHAL_RETURN_IF_ERROR(Expect('(', "to open the operand list"));
  PHAL_RETURN_IF_ERROR(ParseOperands(instruction.get(), *instructions_by_name));
  if (is_ragged_dot) {
    PHAL_RETURN_IF_ERROR(ParseRaggedDot(instruction.get(), instruction_offset));
    (*instructions_by_name)[name] =
        computation->AddInstruction(std::move(instruction));
    return OkStatus();
  }
  AttributeList attributes;
  attributes.owner = instruction->opcode();
  attributes.is_custom_call = is_custom_call;
  while (TryConsume(',')) {
    PHAL_RETURN_IF_ERROR(ParseAttribute(instruction.get(), &attributes));
  }
  if (is_custom_call && IsLapackTarget(attributes.custom_call_target)) {
    PHAL_ASSIGN_OR_RETURN(instruction, LapackCall(std::move(instruction),
                                                  attributes, opcode_offset));
    (*instructions_by_name)[name] =
        computation->AddInstruction(std::move(instruction));
    return OkStatus();
  }
  if (is_custom_call) {
    PHAL_RETURN_IF_ERROR(
        CheckShardingCustomCall(*instruction, attributes, opcode_offset));
  }
  PHAL_RETURN_IF_ERROR(
      FinishAttributes(instruction.get(), &attributes, instruction_offset));
  if (*opcode == HloOpcode::kParameter) {
    const int64_t number = instruction->parameter_number();
    if (number < computation->num_parameters() &&
        computation->parameter_instruction(number) != nullptr) {
      return ErrorAt(name_offset, "parameter number " + std::to_string(number) +
                                      " is used twice");
    }
  }
  (*instructions_by_name)[name] =
      computation->AddInstruction(std::move(instruction));
  return OkStatus();
}

Status HloTextParser::ParseOperands(
    HloInstruction* instruction,
    const std::unordered_map<std::string, HloInstruction*>&
        instructions_by_name) {
  if (instruction->opcode() == HloOpcode::kConstant) {
    PHAL_ASSIGN_OR_RETURN(Literal literal, ParseLiteral(instruction->shape()));
    instruction->set_literal(std::move(literal));
    return Expect(')', "to close the constant");
  }
  if (instruction->opcode() == HloOpcode::kParameter) {
    PHAL_ASSIGN_OR_RETURN(int64_t number, ParseInt64("the parameter number"));
    // A computation with parameter n has parameters 0..n as well, each
    // spelled out in the text, so n is below the text's length.
    if (number < 0 || static_cast<uint64_t>(number) >= text_.size()) {
      return Error("parameter number " + std::to_string(number) +
                   " is out of range");
    }
    instruction->set_parameter_number(number);
    return Expect(')', "to close the parameter number");
  }
  if (TryConsume(')')) return OkStatus();
  do {
    // Older dumps state each operand's shape before its name.
    if (AtShape()) PHAL_RETURN_IF_ERROR(ParseShape().status());
    SkipTrivia();
    const std::size_t operand_offset = token_start_;
    PHAL_ASSIGN_OR_RETURN(std::string operand_name,
                          ParseName("an operand name"));
    const auto found = instructions_by_name.find(operand_name);
    if (found == instructions_by_name.end()) {
      return ErrorAt(operand_offset,
                     "use of undefined instruction %" + operand_name);
    }
    instruction->AppendOperand(found->second);
  } while (TryConsume(','));
  return Expect(')', "to close the operand list");
}

Status HloTextParser::ParseRaggedDot(HloInstruction* call,
                                     std::size_t instruction_offset) {
  const std::string what = "ragged-dot %" + call->name();
  if (call->operand_count() != 3) {
    return ErrorAt(instruction_offset,
                   what +
                       " takes three operands (lhs, rhs, group_sizes), got " +
                       std::to_string(call->operand_count()));
  }
  for (const HloInstruction* operand : call->operands()) {
    if (operand->shape().IsTuple()) {
      return ErrorAt(instruction_offset, what + " operand %" + operand->name() +
                                             " is a tuple, not an array");
    }
  }
  if (call->shape().IsTuple()) {
    return ErrorAt(instruction_offset, what + " must return an array");
  }
  RaggedDotDimensionNumbers numbers;
  AttributeList attributes;
  attributes.owner = HloOpcode::kDot;
  while (TryConsume(',')) {
    SkipTrivia();
    const std::size_t name_offset = token_start_;
    const std::size_t name_end =
        text_.find_first_not_of("abcdefghijklmnopqrstuvwxyz_", pos_);
    const std::string_view name = text_.substr(pos_, name_end - pos_);
    PHAL_ASSIGN_OR_RETURN(bool ragged, ParseRaggedDimensions(name, &numbers));
    if (ragged) {
      if (!attributes.seen.insert(std::string(name)).second) {
        return ErrorAt(name_offset,
                       "attribute '" + std::string(name) + "' is given twice");
      }
      continue;
    }
    PHAL_RETURN_IF_ERROR(ParseAttribute(call, &attributes));
    if (!attributes.computations.empty()) {
      return ErrorAt(attributes.computations.begin()->second[0].offset,
                     "attribute '" + attributes.computations.begin()->first +
                         "' is not used by ragged-dot");
    }
  }
  if (attributes.seen.count("lhs_ragged_dims") == 0) {
    return ErrorAt(instruction_offset,
                   what + " needs attribute 'lhs_ragged_dims'");
  }
  numbers.dot = call->dot_dimension_numbers();
  call->set_dot_dimension_numbers(DotDimensionNumbers());
  const std::string helper_name =
      UnusedComputationName(call->name() + ".ragged_dot");
  const ComputationSink sink = [this](std::unique_ptr<HloComputation> helper) {
    return module_->AddComputation(std::move(helper));
  };
  StatusOr<std::unique_ptr<HloComputation>> lowered = RaggedDotComputation(
      helper_name, call->operand(0)->shape(), call->operand(1)->shape(),
      call->operand(2)->shape(), numbers, call->shape().element_type(), sink);
  if (!lowered.ok()) {
    return ErrorAt(instruction_offset,
                   what + ": " + std::string(lowered.status().message()));
  }
  const Shape& computed = (*lowered)->root_instruction()->shape();
  if (computed.dims() != call->shape().dims()) {
    return ErrorAt(instruction_offset,
                   what + " computes " + computed.ToString() +
                       ", the text states " + call->shape().ToString());
  }
  call->AppendCalledComputation(
      module_->AddComputation(std::move(lowered).value()));
  return OkStatus();
}

StatusOr<bool> HloTextParser::ParseRaggedDimensions(
    std::string_view name, RaggedDotDimensionNumbers* numbers) {
  std::vector<int64_t>* field = nullptr;
  if (name == "lhs_ragged_dims") field = &numbers->lhs_ragged_dimensions;
  if (name == "rhs_group_dims") field = &numbers->rhs_group_dimensions;
  if (field == nullptr) return false;
  PHAL_RETURN_IF_ERROR(ParseIdentifier("an attribute name").status());
  PHAL_RETURN_IF_ERROR(Expect('=', "after attribute " + std::string(name)));
  PHAL_ASSIGN_OR_RETURN(*field, ParseIntList(name));
  return true;
}

std::string HloTextParser::UnusedComputationName(
    const std::string& base) const {
  const auto used = [this](const std::string& name) {
    for (const HloComputation* computation : module_->computations()) {
      const std::string& other = computation->name();
      if (other == name || other.rfind(name + ".", 0) == 0) return true;
    }
    return false;
  };
  std::string name = base;
  for (int suffix = 1; used(name); ++suffix) {
    name = base + "_" + std::to_string(suffix);
  }
  return name;
}

Status HloTextParser::ParseComputationAttribute(std::string_view name,
                                                AttributeList* list) {
  std::vector<ComputationReference>& references =
      list->computations[std::string(name)];
  const bool is_list = name == "branch_computations";
  if (is_list)
    PHAL_RETURN_IF_ERROR(Expect('{', "to open the computation list"));
  do {
    SkipTrivia();
    ComputationReference reference;
    reference.offset = token_start_;
    PHAL_ASSIGN_OR_RETURN(reference.name, ParseName("a computation name"));
    references.push_back(std::move(reference));
  } while (is_list && TryConsume(','));
  if (is_list)
    PHAL_RETURN_IF_ERROR(Expect('}', "to close the computation list"));
  return OkStatus();
}

Status HloTextParser::ParseAttribute(HloInstruction* instruction,
                                     AttributeList* list) {
  SkipTrivia();
  const std::size_t name_offset = token_start_;
  PHAL_ASSIGN_OR_RETURN(std::string_view name,
                        ParseIdentifier("an attribute name"));
  PHAL_RETURN_IF_ERROR(Expect('=', "after attribute " + std::string(name)));
  if (!list->seen.insert(std::string(name)).second) {
    return ErrorAt(name_offset,
                   "attribute '" + std::string(name) + "' is given twice");
  }
  SkipTrivia();
  list->value_offsets[std::string(name)] = token_start_;
  if (name == "custom_call_target" && list->is_custom_call) {
    const std::size_t start = pos_;
    PHAL_RETURN_IF_ERROR(SkipQuotedString());
    if (pos_ < start + 2 || text_[start] != '"') {
      return ErrorAt(start, "custom_call_target needs a quoted name");
    }
    list->custom_call_target =
        std::string(text_.substr(start + 1, pos_ - start - 2));
    return OkStatus();
  }
  if (name == "backend_config" && list->is_custom_call) {
    const std::size_t start = pos_;
    PHAL_RETURN_IF_ERROR(SkipAttributeValue());
    list->backend_config = std::string(text_.substr(start, pos_ - start));
    return OkStatus();
  }
  if (name == "sharding" && list->owner == instruction->opcode()) {
    sharding_offsets_.emplace_back(instruction, token_start_);
    PHAL_ASSIGN_OR_RETURN(HloSharding sharding,
                          ReadWithCursor(ReadHloSharding));
    Status fits = CheckShardingFitsShape(sharding, instruction->shape());
    if (!fits.ok()) {
      return ErrorAt(list->value_offsets["sharding"],
                     std::string(fits.message()));
    }
    instruction->set_sharding(std::move(sharding));
    return OkStatus();
  }
  if (IsComputationAttribute(name)) {
    return ParseComputationAttribute(name, list);
  }
  if (!AttributeAppliesTo(name, list->owner)) return SkipAttributeValue();
  if (const auto* setter = FindByName(kIntegerAttributes, name)) {
    PHAL_ASSIGN_OR_RETURN(int64_t value, ParseInt64(name));
    (instruction->*(setter->member))(value);
    return OkStatus();
  }
  if (const auto* setter = FindByName(kBoolAttributes, name)) {
    PHAL_ASSIGN_OR_RETURN(bool value, ParseBool(name));
    (instruction->*(setter->member))(value);
    return OkStatus();
  }
  if (const auto* field = FindByName(kLinearAlgebraFlags, name)) {
    LinearAlgebraOptions options = instruction->linear_algebra();
    PHAL_ASSIGN_OR_RETURN(options.*(field->member), ParseBool(name));
    instruction->set_linear_algebra(options);
    return OkStatus();
  }
  if (name == "transpose_a") {
    const std::size_t start = pos_;
    const std::string_view word = ParseBareWord();
    const auto transpose = TriangularSolveTransposeFromName(word);
    if (!transpose.has_value()) {
      return ErrorAt(start, "unknown transpose_a '" + std::string(word) +
                                "' (expected NO_TRANSPOSE, TRANSPOSE or "
                                "ADJOINT)");
    }
    LinearAlgebraOptions options = instruction->linear_algebra();
    options.transpose_a = *transpose;
    instruction->set_linear_algebra(options);
    return OkStatus();
  }
  PHAL_ASSIGN_OR_RETURN(bool parsed,
                        ParseDimensionNumbersAttribute(name, instruction));
  if (parsed) return OkStatus();
  return ParseStructuredAttribute(name, instruction);
}

StatusOr<bool> HloTextParser::ParseDimensionNumbersAttribute(
    std::string_view name, HloInstruction* instruction) {
  if (const auto* field = FindByName(kDotLists, name)) {
    DotDimensionNumbers numbers = instruction->dot_dimension_numbers();
    PHAL_ASSIGN_OR_RETURN(numbers.*(field->member), ParseIntList(name));
    instruction->set_dot_dimension_numbers(std::move(numbers));
    return true;
  }
  if (const auto* field = FindByName(kGatherLists, name)) {
    GatherDimensionNumbers numbers = instruction->gather_dimension_numbers();
    PHAL_ASSIGN_OR_RETURN(numbers.*(field->member), ParseIntList(name));
    instruction->set_gather_dimension_numbers(std::move(numbers));
    return true;
  }
  if (const auto* field = FindByName(kScatterLists, name)) {
    ScatterDimensionNumbers numbers = instruction->scatter_dimension_numbers();
    PHAL_ASSIGN_OR_RETURN(numbers.*(field->member), ParseIntList(name));
    instruction->set_scatter_dimension_numbers(std::move(numbers));
    return true;
  }
  if (name == "index_vector_dim") {
    // Shared by gather and scatter; the opcode decides which one reads it.
    PHAL_ASSIGN_OR_RETURN(int64_t dim, ParseInt64(name));
    GatherDimensionNumbers gather = instruction->gather_dimension_numbers();
    ScatterDimensionNumbers scatter = instruction->scatter_dimension_numbers();
    gather.index_vector_dim = dim;
    scatter.index_vector_dim = dim;
    instruction->set_gather_dimension_numbers(std::move(gather));
    instruction->set_scatter_dimension_numbers(std::move(scatter));
    return true;
  }
  return false;
}

Status HloTextParser::ParseStructuredAttribute(std::string_view name,
                                               HloInstruction* instruction) {
  if (name == "dimensions") {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> dimensions, ParseIntList(name));
    instruction->set_dimensions(std::move(dimensions));
  } else if (name == "dynamic_slice_sizes") {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ParseIntList(name));
    instruction->set_dynamic_slice_sizes(std::move(sizes));
  } else if (name == "slice_sizes") {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ParseIntList(name));
    instruction->set_gather_slice_sizes(std::move(sizes));
  } else if (name == "slice") {
    PHAL_ASSIGN_OR_RETURN(auto ranges, ParseSliceRanges());
    instruction->set_slice(std::move(ranges[0]), std::move(ranges[1]),
                           std::move(ranges[2]));
  } else if (name == "padding") {
    PHAL_ASSIGN_OR_RETURN(PaddingConfig config, ParsePaddingConfig());
    instruction->set_padding_config(std::move(config));
  } else if (name == "window") {
    PHAL_ASSIGN_OR_RETURN(Window window, ParseWindow());
    instruction->set_window(std::move(window));
  } else if (name == "dim_labels") {
    PHAL_ASSIGN_OR_RETURN(ConvolutionDimensionNumbers numbers,
                          ParseDimLabels());
    instruction->set_convolution_dimension_numbers(std::move(numbers));
  } else if (name == "epsilon") {
    PHAL_ASSIGN_OR_RETURN(float epsilon, ParseFloatAttribute(name));
    instruction->set_epsilon(epsilon);
  } else if (name == "direction") {
    const std::string_view word = ParseBareWord();
    const auto direction = ComparisonDirectionFromName(word);
    if (!direction.has_value()) {
      return Error("unknown comparison direction '" + std::string(word) +
                   "' (expected EQ, NE, LT, LE, GT or GE)");
    }
    instruction->set_comparison_direction(*direction);
  } else if (name == "type") {
    const std::string_view word = ParseBareWord();
    const auto type = ComparisonTypeFromName(word);
    if (!type.has_value()) {
      return Error("unknown comparison type '" + std::string(word) +
                   "' (expected SIGNED, UNSIGNED, FLOAT or TOTALORDER)");
    }
    instruction->set_comparison_type(*type);
  } else if (name == "fft_type") {
    const std::string_view word = ParseBareWord();
    const auto type = FftTypeFromName(word);
    if (!type.has_value()) {
      return Error("unknown fft_type '" + std::string(word) +
                   "' (expected FFT, IFFT, RFFT or IRFFT)");
    }
    instruction->set_fft_type(*type);
  } else if (name == "fft_length") {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> length, ParseIntList(name));
    instruction->set_fft_length(std::move(length));
  } else if (name == "kind") {
    instruction->set_fusion_kind(std::string(ParseBareWord()));
  } else if (name == "channel_id") {
    PHAL_ASSIGN_OR_RETURN(int64_t id, ParseInt64(name));
    instruction->set_channel_id(id);
  } else if (name == "replica_groups") {
    PHAL_ASSIGN_OR_RETURN(ReplicaGroups groups,
                          ReadWithCursor(ReadReplicaGroups));
    instruction->set_replica_groups(std::move(groups));
  } else if (name == "source_target_pairs") {
    PHAL_ASSIGN_OR_RETURN(auto pairs, ReadWithCursor([](TextCursor& cursor) {
                            return ReadIntGroups(cursor, "source_target_pairs");
                          }));
    std::vector<std::pair<int64_t, int64_t>> source_target_pairs;
    for (const std::vector<int64_t>& pair : pairs) {
      if (pair.size() != 2) {
        return Error("each of source_target_pairs must be {source,target}");
      }
      source_target_pairs.emplace_back(pair[0], pair[1]);
    }
    instruction->set_source_target_pairs(std::move(source_target_pairs));
  } else {
    // Everything else (metadata, sharding, backend_config,
    // precision_config, frontend_attributes, ...) guides XLA's own passes
    // and does not change what the instruction computes.
    return SkipAttributeValue();
  }
  return OkStatus();
}

Status HloTextParser::FinishAttributes(HloInstruction* instruction,
                                       AttributeList* list,
                                       std::size_t instruction_offset) {
  const std::string opcode_name(HloOpcodeName(instruction->opcode()));
  for (std::string_view required : RequiredAttributes(instruction->opcode())) {
    if (list->seen.count(required) == 0) {
      return ErrorAt(instruction_offset,
                     opcode_name + " %" + instruction->name() +
                         " needs attribute '" + std::string(required) + "'");
    }
  }
  const bool has_branch_list = list->computations.count("branch_computations");
  if (instruction->opcode() == HloOpcode::kConditional && !has_branch_list &&
      (list->computations.count("true_computation") == 0 ||
       list->computations.count("false_computation") == 0)) {
    return ErrorAt(instruction_offset,
                   "conditional %" + instruction->name() +
                       " needs branch_computations or both true_computation "
                       "and false_computation");
  }
  PendingCalls pending;
  pending.instruction = instruction;
  for (std::string_view role :
       ComputationRoles(instruction->opcode(), has_branch_list)) {
    const auto found = list->computations.find(role);
    if (found == list->computations.end()) continue;
    for (ComputationReference& reference : found->second) {
      pending.references.push_back(std::move(reference));
    }
    list->computations.erase(found);
  }
  if (!list->computations.empty()) {
    const ComputationReference& stray = list->computations.begin()->second[0];
    return ErrorAt(stray.offset, "attribute '" +
                                     list->computations.begin()->first +
                                     "' is not used by " + opcode_name);
  }
  if (!pending.references.empty()) pending_calls_.push_back(std::move(pending));
  const HloOpcode opcode = instruction->opcode();
  if (IsCollective(opcode) || opcode == HloOpcode::kReplicaId ||
      opcode == HloOpcode::kPartitionId) {
    PendingCollective collective;
    collective.instruction = instruction;
    collective.instruction_offset = instruction_offset;
    collective.groups_offset = instruction_offset;
    for (const char* groups : {"replica_groups", "source_target_pairs"}) {
      const auto found = list->value_offsets.find(groups);
      if (found != list->value_offsets.end()) {
        collective.groups_offset = found->second;
      }
    }
    pending_collectives_.push_back(collective);
  }
  return OkStatus();
}

Status HloTextParser::CheckCollectives(const HloModule& module) {
  ProcessGrid grid;
  grid.replicas = module.replica_count();
  grid.partitions = module.num_partitions();
  for (const PendingCollective& pending : pending_collectives_) {
    const HloInstruction& instruction = *pending.instruction;
    const std::string what = std::string(HloOpcodeName(instruction.opcode())) +
                             " %" + instruction.name();
    if (IsCollective(instruction.opcode())) {
      Status groups = ProcessGroupsOf(instruction, grid).status();
      if (!groups.ok()) {
        return ErrorAt(pending.groups_offset,
                       what + ": " + std::string(groups.message()));
      }
    }
    StatusOr<Shape> shape = InferCollectiveShape(instruction, grid);
    if (!shape.ok()) {
      return ErrorAt(pending.instruction_offset,
                     what + ": " + std::string(shape.status().message()));
    }
    if (!shape->Compatible(instruction.shape())) {
      return ErrorAt(pending.instruction_offset,
                     what + ": the text states " +
                         instruction.shape().ToString() +
                         ", the operands give " + shape->ToString());
    }
  }
  return OkStatus();
}

Status HloTextParser::ResolveCalls(const HloModule& module) {
  for (const PendingCalls& pending : pending_calls_) {
    for (const ComputationReference& reference : pending.references) {
      HloComputation* callee = module.GetComputationWithName(reference.name);
      if (callee == nullptr) {
        return ErrorAt(reference.offset,
                       "call of undefined computation %" + reference.name);
      }
      pending.instruction->AppendCalledComputation(callee);
    }
  }
  return OkStatus();
}

StatusOr<std::vector<std::vector<int64_t>>> HloTextParser::ParseSliceRanges() {
  std::vector<std::vector<int64_t>> ranges(3);
  PHAL_RETURN_IF_ERROR(Expect('{', "to open the slice"));
  if (TryConsume('}')) return ranges;
  do {
    PHAL_RETURN_IF_ERROR(Expect('[', "to open a slice range"));
    PHAL_ASSIGN_OR_RETURN(int64_t start, ParseInt64("a slice start"));
    PHAL_RETURN_IF_ERROR(Expect(':', "after the slice start"));
    PHAL_ASSIGN_OR_RETURN(int64_t limit, ParseInt64("a slice limit"));
    int64_t stride = 1;
    if (TryConsume(':')) {
      PHAL_ASSIGN_OR_RETURN(stride, ParseInt64("a slice stride"));
    }
    PHAL_RETURN_IF_ERROR(Expect(']', "to close a slice range"));
    ranges[0].push_back(start);
    ranges[1].push_back(limit);
    ranges[2].push_back(stride);
  } while (TryConsume(','));
  PHAL_RETURN_IF_ERROR(Expect('}', "to close the slice"));
  return ranges;
}

StatusOr<PaddingConfig> HloTextParser::ParsePaddingConfig() {
  PaddingConfig config;
  do {
    PaddingDimension dimension;
    PHAL_ASSIGN_OR_RETURN(dimension.low, ParseInt64("the low padding"));
    if (!TryConsumeAdjacent('_')) {
      return Error("expected '_' after the low padding");
    }
    PHAL_ASSIGN_OR_RETURN(dimension.high, ParseInt64("the high padding"));
    if (TryConsumeAdjacent('_')) {
      PHAL_ASSIGN_OR_RETURN(dimension.interior,
                            ParseInt64("the interior padding"));
    }
    config.dimensions.push_back(dimension);
  } while (TryConsumeAdjacent('x'));
  return config;
}

StatusOr<Window> HloTextParser::ParseWindow() {
  PHAL_RETURN_IF_ERROR(Expect('{', "to open the window"));
  std::map<std::string, std::vector<int64_t>, std::less<>> fields;
  std::vector<std::pair<int64_t, int64_t>> padding;
  while (!TryConsume('}')) {
    SkipTrivia();
    const std::size_t key_offset = token_start_;
    PHAL_ASSIGN_OR_RETURN(std::string_view key,
                          ParseIdentifier("a window field"));
    PHAL_RETURN_IF_ERROR(Expect('=', "after the window field"));
    if (key == "pad") {
      PHAL_ASSIGN_OR_RETURN(PaddingConfig pads, ParsePaddingConfig());
      for (const PaddingDimension& pad : pads.dimensions) {
        padding.emplace_back(pad.low, pad.high);
      }
      fields["pad"].resize(padding.size());
      continue;
    }
    if (key != "size" && key != "stride" && key != "lhs_dilate" &&
        key != "rhs_dilate" && key != "rhs_reversal") {
      return ErrorAt(key_offset,
                     "unknown window field '" + std::string(key) + "'");
    }
    PHAL_ASSIGN_OR_RETURN(fields[std::string(key)], ParseIntsSeparatedByX(key));
  }
  if (fields.count("size") == 0) return Error("window has no size");
  const std::size_t rank = fields["size"].size();
  for (const auto& [key, values] : fields) {
    if (values.size() != rank) {
      return Error("window field '" + key + "' has " +
                   std::to_string(values.size()) + " dimensions, size has " +
                   std::to_string(rank));
    }
  }
  Window window;
  window.dimensions.resize(rank);
  const auto field_or = [&](std::string_view key, std::size_t i,
                            int64_t fallback) {
    const auto found = fields.find(key);
    return found == fields.end() ? fallback : found->second[i];
  };
  for (std::size_t i = 0; i < rank; ++i) {
    WindowDimension& dimension = window.dimensions[i];
    dimension.size = fields["size"][i];
    dimension.stride = field_or("stride", i, 1);
    dimension.base_dilation = field_or("lhs_dilate", i, 1);
    dimension.window_dilation = field_or("rhs_dilate", i, 1);
    dimension.window_reversal = field_or("rhs_reversal", i, 0) != 0;
    if (!padding.empty()) {
      dimension.padding_low = padding[i].first;
      dimension.padding_high = padding[i].second;
    }
  }
  return window;
}

StatusOr<ConvolutionDimensionNumbers> HloTextParser::ParseDimLabels() {
  SkipTrivia();
  const std::size_t offset = token_start_;
  const std::string_view labels = ParseBareWord();
  const std::size_t underscore = labels.find('_');
  const std::size_t arrow = labels.find("->");
  const auto invalid = [&](const std::string& why) {
    return ErrorAt(offset,
                   "invalid dim_labels '" + std::string(labels) + "': " + why);
  };
  if (underscore == std::string_view::npos || arrow == std::string_view::npos ||
      arrow < underscore) {
    return invalid("expected the form <input>_<kernel>-><output>");
  }
  const std::string_view input = labels.substr(0, underscore);
  const std::string_view kernel =
      labels.substr(underscore + 1, arrow - underscore - 1);
  const std::string_view output = labels.substr(arrow + 2);
  if (kernel.size() != input.size() || output.size() != input.size() ||
      input.size() < 2) {
    return invalid("input, kernel and output must have the same rank");
  }
  const std::size_t spatial_count = input.size() - 2;
  // Assigns each label of `part` to its role; the two named roles are
  // `first` and `second`, digits are spatial dimensions.
  const auto assign = [&](std::string_view part, char first, char second,
                          int64_t* first_dim, int64_t* second_dim,
                          std::vector<int64_t>* spatial) -> bool {
    *first_dim = -1;
    *second_dim = -1;
    spatial->assign(spatial_count, -1);
    for (std::size_t i = 0; i < part.size(); ++i) {
      const char c = part[i];
      const auto dim = static_cast<int64_t>(i);
      if (c == first && *first_dim < 0) {
        *first_dim = dim;
      } else if (c == second && *second_dim < 0) {
        *second_dim = dim;
      } else if (c >= '0' &&
                 static_cast<std::size_t>(c - '0') < spatial_count &&
                 (*spatial)[static_cast<std::size_t>(c - '0')] < 0) {
        (*spatial)[static_cast<std::size_t>(c - '0')] = dim;
      } else {
        return false;
      }
    }
    return true;
  };
  ConvolutionDimensionNumbers numbers;
  if (!assign(input, 'b', 'f', &numbers.input_batch_dimension,
              &numbers.input_feature_dimension,
              &numbers.input_spatial_dimensions)) {
    return invalid("the input part must name b, f and each spatial digit once");
  }
  if (!assign(kernel, 'i', 'o', &numbers.kernel_input_feature_dimension,
              &numbers.kernel_output_feature_dimension,
              &numbers.kernel_spatial_dimensions)) {
    return invalid(
        "the kernel part must name i, o and each spatial digit once");
  }
  if (!assign(output, 'b', 'f', &numbers.output_batch_dimension,
              &numbers.output_feature_dimension,
              &numbers.output_spatial_dimensions)) {
    return invalid(
        "the output part must name b, f and each spatial digit once");
  }
  return numbers;
}

}  // namespace

StatusOr<std::unique_ptr<HloModule>> ParseHloText(std::string_view text,
                                                  std::string_view file_name) {
  return HloTextParser(text, file_name).ParseModule();
}

StatusOr<Shape> ParseShapeText(std::string_view text) {
  return HloTextParser(text, "<shape>").ParseWholeShape();
}

}  // namespace phal
