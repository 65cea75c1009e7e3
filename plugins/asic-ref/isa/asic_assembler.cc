#include "isa/asic_assembler.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

// -- Printing

constexpr const char* kDirectionNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};
constexpr const char* kComparisonTypeNames[] = {"float", "totalorder", "signed",
                                                "unsigned"};

std::string Reg(uint8_t r) { return "x" + std::to_string(r); }

// [x3+0x100]: an SRAM operand of a unit instruction.
std::string Sram(uint8_t base, uint32_t offset) {
  return "[" + Reg(base) + "+" + Hex(offset) + "]";
}

// [x2+8] or [x2-8]: the SRAM operand of a scalar load or store.
std::string ScalarAddress(uint8_t base, int64_t imm) {
  const uint64_t magnitude =
      imm < 0 ? 0 - static_cast<uint64_t>(imm) : static_cast<uint64_t>(imm);
  return "[" + Reg(base) + (imm < 0 ? "-" : "+") + std::to_string(magnitude) +
         "]";
}

std::string TypeName(phal_element_type_t type) { return ElementTypeName(type); }

std::string Mnemonic(const Instruction& in) {
  const char* name = OpcodeName(in.op);
  std::string text = name != nullptr ? name : "invalid";
  if (OpcodeUsesType(in.op)) text += "." + TypeName(in.type);
  if (OpcodeUsesType2(in.op)) text += "." + TypeName(in.type2);
  if (in.op == Opcode::kVCmp) {
    const uint32_t direction = CompareDirection(in.flags);
    text += ".";
    text += direction <= 5 ? kDirectionNames[direction] : "invalid";
    text += ".";
    text += kComparisonTypeNames[CompareType(in.flags)];
  }
  return text;
}

std::string OperandText(const Instruction& in, const std::string& target) {
  const std::string n = "n=" + Reg(in.rn);
  auto sram = [&](int i) { return Sram(in.rb, in.offset[i]); };
  switch (OpcodeOperands(in.op)) {
    case Operands::kNone:
      return "";
    case Operands::kRdImm:
      return Reg(in.rd) + ", " + std::to_string(in.imm);
    case Operands::kRdRaRb:
      return Reg(in.rd) + ", " + Reg(in.ra) + ", " + Reg(in.rb);
    case Operands::kRdRaImm:
      return Reg(in.rd) + ", " + Reg(in.ra) + ", " + std::to_string(in.imm);
    case Operands::kLoad:
      return Reg(in.rd) + ", " + ScalarAddress(in.ra, in.imm);
    case Operands::kStore:
      return Reg(in.rb) + ", " + ScalarAddress(in.ra, in.imm);
    case Operands::kBranch:
      return Reg(in.ra) + ", " + Reg(in.rb) + ", " + target;
    case Operands::kJump:
      return target;
    case Operands::kVUnary:
      return sram(0) + ", " + sram(1) + ", " + n;
    case Operands::kVBinary:
      return sram(0) + ", " + sram(1) + ", " + sram(2) + ", " + n;
    case Operands::kVTernary:
      return sram(0) + ", " + sram(1) + ", " + sram(2) + ", " + sram(3) + ", " +
             n;
    case Operands::kVScalar:
      return sram(0) + ", " + Reg(in.rx) + ", " + n;
    case Operands::kVReducePrecision:
      return sram(0) + ", " + sram(1) + ", e=" + std::to_string(in.offset[2]) +
             ", m=" + std::to_string(in.offset[3]) + ", " + n;
    case Operands::kMatMul:
      return sram(0) + ", " + sram(1) + ", " + sram(2) + ", m=" + Reg(in.rm) +
             ", k=" + Reg(in.rk) + ", " + n +
             ((in.flags & kMatMulZeroFlag) != 0 ? ", zero" : "");
    case Operands::kDmaBox: {
      const std::string dram = "dram[" + Reg(in.rm) + "]";
      const std::string box =
          "box=(" + Reg(in.r0) + ", " + Reg(in.r1) + ", " + Reg(in.r2) + ")";
      const std::string desc = "d" + std::to_string(in.descriptor);
      return in.op == Opcode::kDmaLoad
                 ? sram(0) + ", " + dram + ", " + box + ", " + desc
                 : dram + ", " + sram(0) + ", " + box + ", " + desc;
    }
    case Operands::kDmaIndirect: {
      const std::string dram = "dram[" + Reg(in.rm) + "]";
      const std::string rest = ", idx=" + sram(1) + ", n=" + Reg(in.r0);
      return in.op == Opcode::kDmaGather ? sram(0) + ", " + dram + rest
                                         : dram + ", " + sram(0) + rest;
    }
  }
  return "";
}

std::string InstructionText(const Instruction& in, const std::string& target) {
  const std::string operands = OperandText(in, target);
  return operands.empty() ? Mnemonic(in) : Mnemonic(in) + " " + operands;
}

bool HasTarget(Opcode op) {
  return OpcodeOperands(op) == Operands::kBranch ||
         OpcodeOperands(op) == Operands::kJump;
}

std::string Label(int64_t index) { return "L" + std::to_string(index); }

// -- Parsing

const std::map<std::string, Opcode, std::less<>>& OpcodesByName() {
  static const auto* const kMap = [] {
    auto* map = new std::map<std::string, Opcode, std::less<>>();
    for (int value = 0; value < 256; ++value) {
      const auto op = static_cast<Opcode>(value);
      if (OpcodeName(op) != nullptr) (*map)[OpcodeName(op)] = op;
    }
    return map;
  }();
  return *kMap;
}

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}

// A reference to a label, resolved once every line is read.
struct Fixup {
  size_t instruction;
  std::string label;
  int line;
  int column;
};

// Reads one line; every error names the source, the line and the column.
class LineParser {
 public:
  LineParser(std::string_view line, int line_number, const std::string& source)
      : line_(line), line_number_(line_number), source_(source) {}

  Status Error(const std::string& message) const {
    return ErrorAt(pos_, message);
  }
  Status ErrorAt(size_t pos, const std::string& message) const {
    return InvalidArgument(source_ + ":" + std::to_string(line_number_) + ":" +
                           std::to_string(pos + 1) + ": " + message);
  }

  size_t pos() const { return pos_; }
  int line_number() const { return line_number_; }

  void SkipSpace() {
    while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= line_.size();
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < line_.size() && line_[pos_] == c;
  }
  bool Consume(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  Status Expect(char c) {
    if (Consume(c)) return OkStatus();
    return Error(std::string("expected '") + c + "'" + Found());
  }
  Status ExpectComma() { return Expect(','); }
  Status ExpectEnd() {
    if (AtEnd()) return OkStatus();
    return Error("unexpected '" + std::string(Rest()) + "' after the operands");
  }
  std::string Found() {
    SkipSpace();
    if (pos_ >= line_.size()) return ", found the end of the line";
    return ", found '" + std::string(line_.substr(pos_, 12)) + "'";
  }
  std::string_view Rest() {
    SkipSpace();
    return line_.substr(pos_);
  }
  std::string_view Identifier() {
    SkipSpace();
    const size_t begin = pos_;
    while (pos_ < line_.size() && IsIdentifierChar(line_[pos_])) ++pos_;
    return line_.substr(begin, pos_ - begin);
  }
  // `key=` when the text continues with it.
  bool ConsumeKey(std::string_view key) {
    SkipSpace();
    if (line_.substr(pos_, key.size()) != key) return false;
    size_t after = pos_ + key.size();
    while (after < line_.size() && line_[after] == ' ') ++after;
    if (after >= line_.size() || line_[after] != '=') return false;
    pos_ = after + 1;
    return true;
  }
  Status ExpectKey(std::string_view key) {
    if (ConsumeKey(key)) return OkStatus();
    return Error("expected '" + std::string(key) + "='" + Found());
  }

  StatusOr<uint8_t> Register() {
    SkipSpace();
    const size_t begin = pos_;
    if (pos_ >= line_.size() || line_[pos_] != 'x') {
      return Error("expected a register x0..x31" + Found());
    }
    ++pos_;
    uint64_t value = 0;
    const size_t digits = pos_;
    while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') {
      value = value * 10 + static_cast<uint64_t>(line_[pos_] - '0');
      if (value > 1000) break;
      ++pos_;
    }
    if (pos_ == digits || value > 31 ||
        (pos_ < line_.size() && IsIdentifierChar(line_[pos_]))) {
      pos_ = begin;
      return Error("expected a register x0..x31" + Found());
    }
    return static_cast<uint8_t>(value);
  }

  // A decimal or 0x-hexadecimal integer with an optional sign, as the 64
  // bits of an int64 (hexadecimal up to 2^64 - 1 wraps).
  StatusOr<int64_t> Integer() {
    SkipSpace();
    const size_t begin = pos_;
    bool negative = false;
    if (pos_ < line_.size() && (line_[pos_] == '-' || line_[pos_] == '+')) {
      negative = line_[pos_] == '-';
      ++pos_;
    }
    int base = 10;
    if (line_.substr(pos_, 2) == "0x" || line_.substr(pos_, 2) == "0X") {
      base = 16;
      pos_ += 2;
    }
    uint64_t magnitude = 0;
    const char* first = line_.data() + pos_;
    const auto [end, error] =
        std::from_chars(first, line_.data() + line_.size(), magnitude, base);
    if (error == std::errc::result_out_of_range) {
      pos_ = begin;
      return Error("number out of range" + Found());
    }
    if (error != std::errc() || end == first) {
      pos_ = begin;
      return Error("expected a number" + Found());
    }
    pos_ += static_cast<size_t>(end - first);
    if (pos_ < line_.size() && IsIdentifierChar(line_[pos_])) {
      pos_ = begin;
      return Error("expected a number" + Found());
    }
    const uint64_t limit =
        base == 16 ? std::numeric_limits<uint64_t>::max()
                   : (negative ? uint64_t{1} << 63
                               : static_cast<uint64_t>(
                                     std::numeric_limits<int64_t>::max()));
    if (magnitude > limit) {
      pos_ = begin;
      return Error("number out of range" + Found());
    }
    return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
  }

  StatusOr<uint32_t> Unsigned(uint64_t max, const char* what) {
    SkipSpace();
    const size_t begin = pos_;
    PHAL_ASSIGN_OR_RETURN(int64_t value, Integer());
    if (value < 0 || static_cast<uint64_t>(value) > max) {
      return ErrorAt(begin, std::string(what) + " " + std::to_string(value) +
                                " is outside 0.." + std::to_string(max));
    }
    return static_cast<uint32_t>(value);
  }

  // [xB+offset] with the base register shared by the instruction's SRAM
  // operands: the first sets *base, the others must match.
  Status SramOperand(uint8_t* base, bool* have_base, uint32_t* offset) {
    PHAL_RETURN_IF_ERROR(Expect('['));
    SkipSpace();
    const size_t register_at = pos_;
    PHAL_ASSIGN_OR_RETURN(uint8_t reg, Register());
    if (*have_base && reg != *base) {
      return ErrorAt(register_at,
                     "every SRAM operand of an instruction uses one base "
                     "register (" +
                         Reg(*base) + " here, not " + Reg(reg) + ")");
    }
    *base = reg;
    *have_base = true;
    *offset = 0;
    if (Consume('+')) {
      PHAL_ASSIGN_OR_RETURN(*offset, Unsigned(kMaxOffset, "SRAM offset"));
    }
    return Expect(']');
  }

  // [xA+imm] / [xA-imm] of a scalar load or store.
  Status ScalarAddressOperand(uint8_t* base, int64_t* imm) {
    PHAL_RETURN_IF_ERROR(Expect('['));
    PHAL_ASSIGN_OR_RETURN(*base, Register());
    *imm = 0;
    if (Peek('+') || Peek('-')) {
      PHAL_ASSIGN_OR_RETURN(*imm, Integer());
    }
    return Expect(']');
  }

  Status DramOperand(uint8_t* reg) {
    SkipSpace();
    if (line_.substr(pos_, 4) != "dram") {
      return Error("expected dram[xN]" + Found());
    }
    pos_ += 4;
    PHAL_RETURN_IF_ERROR(Expect('['));
    PHAL_ASSIGN_OR_RETURN(*reg, Register());
    return Expect(']');
  }

  Status CountOperand(uint8_t* reg) {
    PHAL_RETURN_IF_ERROR(ExpectKey("n"));
    PHAL_ASSIGN_OR_RETURN(*reg, Register());
    return OkStatus();
  }

  StatusOr<std::array<int64_t, 3>> Triple() {
    std::array<int64_t, 3> values{};
    PHAL_RETURN_IF_ERROR(Expect('('));
    for (int i = 0; i < 3; ++i) {
      if (i > 0) PHAL_RETURN_IF_ERROR(ExpectComma());
      PHAL_ASSIGN_OR_RETURN(values[i], Integer());
    }
    PHAL_RETURN_IF_ERROR(Expect(')'));
    return values;
  }

 private:
  std::string_view line_;
  size_t pos_ = 0;
  int line_number_;
  const std::string& source_;
};

class Assembler {
 public:
  explicit Assembler(const std::string& source) : source_(source) {}

  StatusOr<Program> Run(const std::string& text) {
    size_t begin = 0;
    int line_number = 0;
    while (begin <= text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      std::string_view line(text.data() + begin, end - begin);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      ++line_number;
      PHAL_RETURN_IF_ERROR(Line(line, line_number));
      begin = end + 1;
    }
    for (const Fixup& fixup : fixups_) {
      const auto label = labels_.find(fixup.label);
      if (label == labels_.end()) {
        return InvalidArgument(source_ + ":" + std::to_string(fixup.line) +
                               ":" + std::to_string(fixup.column) +
                               ": undefined label '" + fixup.label + "'");
      }
      program_.instructions[fixup.instruction].imm =
          static_cast<int64_t>(label->second);
    }
    for (size_t i = 0; i < program_.instructions.size(); ++i) {
      Status status = ValidateInstruction(program_.instructions[i], i,
                                          program_.instructions.size(),
                                          program_.descriptors.size());
      if (!status.ok()) {
        return InvalidArgument(source_ + ":" +
                               std::to_string(instruction_lines_[i]) +
                               ":1: " + status.message());
      }
    }
    return std::move(program_);
  }

 private:
  Status Line(std::string_view line, int line_number) {
    size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) return OkStatus();
    if (line[first] == ';') {
      std::string_view comment = line.substr(first + 1);
      if (!comment.empty() && comment.front() == ' ') comment.remove_prefix(1);
      program_.comments.emplace_back(
          static_cast<uint32_t>(program_.instructions.size()),
          std::string(comment));
      return OkStatus();
    }
    const size_t semicolon = line.find(';');
    if (semicolon != std::string_view::npos) line = line.substr(0, semicolon);
    LineParser p(line, line_number, source_);
    if (p.Peek('.')) return Directive(p);
    // Labels: `name:` before an optional instruction.
    for (;;) {
      p.SkipSpace();
      const size_t at = p.pos();
      const std::string_view word = p.Identifier();
      if (word.empty()) {
        if (p.AtEnd()) return OkStatus();
        return p.Error("expected an instruction or a label" + p.Found());
      }
      if (!p.Consume(':')) {
        return InstructionLine(p, word, at);
      }
      if (!labels_.emplace(std::string(word), program_.instructions.size())
               .second) {
        return p.ErrorAt(at,
                         "label '" + std::string(word) + "' is defined twice");
      }
      if (p.AtEnd()) return OkStatus();
    }
  }

  Status Directive(LineParser& p) {
    p.Consume('.');
    const size_t at = p.pos();
    const std::string_view name = p.Identifier();
    if (name == "kernel") {
      program_.name = std::string(p.Rest());
      return OkStatus();
    }
    if (name != "desc") {
      return p.ErrorAt(at - 1, "unknown directive '." + std::string(name) +
                                   "' (.kernel, .desc)");
    }
    p.SkipSpace();
    const size_t index_at = p.pos();
    const std::string_view label = p.Identifier();
    const std::string expected =
        "d" + std::to_string(program_.descriptors.size());
    if (label != expected) {
      return p.ErrorAt(index_at, "expected descriptor " + expected +
                                     " (descriptors are listed in order)");
    }
    DmaDescriptor descriptor;
    PHAL_RETURN_IF_ERROR(p.ExpectKey("dram"));
    PHAL_ASSIGN_OR_RETURN(descriptor.dram_strides, p.Triple());
    PHAL_RETURN_IF_ERROR(p.ExpectKey("sram"));
    PHAL_ASSIGN_OR_RETURN(descriptor.sram_strides, p.Triple());
    PHAL_RETURN_IF_ERROR(p.ExpectEnd());
    program_.descriptors.push_back(descriptor);
    return OkStatus();
  }

  // Splits `mnemonic` into the longest opcode name it starts with and the
  // suffixes after it.
  Status ParseMnemonic(LineParser& p, std::string_view mnemonic, size_t at,
                       Instruction* in) {
    std::vector<std::string_view> parts;
    size_t begin = 0;
    while (begin <= mnemonic.size()) {
      size_t dot = mnemonic.find('.', begin);
      if (dot == std::string_view::npos) dot = mnemonic.size();
      parts.push_back(mnemonic.substr(begin, dot - begin));
      begin = dot + 1;
    }
    size_t used = 0;
    for (size_t count = parts.size(); count > 0 && used == 0; --count) {
      const size_t length =
          static_cast<size_t>(parts[count - 1].data() - mnemonic.data()) +
          parts[count - 1].size();
      const auto found = OpcodesByName().find(mnemonic.substr(0, length));
      if (found != OpcodesByName().end()) {
        in->op = found->second;
        used = count;
      }
    }
    if (used == 0) {
      return p.ErrorAt(at,
                       "unknown instruction '" + std::string(mnemonic) + "'");
    }
    std::vector<std::string_view> suffixes(parts.begin() + used, parts.end());
    size_t next = 0;
    auto suffix_at = [&](size_t i) {
      return at + static_cast<size_t>(suffixes[i].data() - mnemonic.data());
    };
    auto take_type = [&](phal_element_type_t* type) -> Status {
      if (next >= suffixes.size()) {
        return p.ErrorAt(at, "'" + std::string(mnemonic) +
                                 "' needs an element type suffix (." +
                                 "f32, .s8, ...)");
      }
      const std::string name(suffixes[next]);
      if (!ParseElementTypeName(name, type) || !IsMachineType(*type)) {
        return p.ErrorAt(
            suffix_at(next),
            "'" + name + "' is not an element type of the machine");
      }
      ++next;
      return OkStatus();
    };
    auto take_name = [&](const auto& names, const char* what,
                         uint32_t* value) -> Status {
      if (next < suffixes.size()) {
        for (uint32_t i = 0; i < std::size(names); ++i) {
          if (suffixes[next] == names[i]) {
            *value = i;
            ++next;
            return OkStatus();
          }
        }
      }
      return p.ErrorAt(next < suffixes.size() ? suffix_at(next) : at,
                       std::string("expected a ") + what + " suffix");
    };
    if (OpcodeUsesType(in->op)) PHAL_RETURN_IF_ERROR(take_type(&in->type));
    if (OpcodeUsesType2(in->op)) PHAL_RETURN_IF_ERROR(take_type(&in->type2));
    if (in->op == Opcode::kVCmp) {
      uint32_t direction = 0, comparison = 0;
      PHAL_RETURN_IF_ERROR(
          take_name(kDirectionNames, "comparison direction", &direction));
      PHAL_RETURN_IF_ERROR(
          take_name(kComparisonTypeNames, "comparison type", &comparison));
      in->flags = CompareFlags(direction, comparison);
    }
    if (next < suffixes.size()) {
      return p.ErrorAt(suffix_at(next), "unexpected suffix '" +
                                            std::string(suffixes[next]) + "'");
    }
    return OkStatus();
  }

  Status Target(LineParser& p, Instruction* in) {
    p.SkipSpace();
    const size_t at = p.pos();
    const std::string_view rest = p.Rest();
    if (!rest.empty() &&
        ((rest[0] >= '0' && rest[0] <= '9') || rest[0] == '-')) {
      PHAL_ASSIGN_OR_RETURN(in->imm, p.Integer());
      return OkStatus();
    }
    const std::string_view label = p.Identifier();
    if (label.empty())
      return p.Error("expected a label or an instruction number" + p.Found());
    fixups_.push_back({program_.instructions.size(), std::string(label),
                       p.line_number(), static_cast<int>(at + 1)});
    return OkStatus();
  }

  Status InstructionLine(LineParser& p, std::string_view mnemonic, size_t at) {
    Instruction in;
    PHAL_RETURN_IF_ERROR(ParseMnemonic(p, mnemonic, at, &in));
    PHAL_RETURN_IF_ERROR(OperandsOf(p, &in));
    PHAL_RETURN_IF_ERROR(p.ExpectEnd());
    program_.instructions.push_back(in);
    instruction_lines_.push_back(p.line_number());
    return OkStatus();
  }

  Status OperandsOf(LineParser& p, Instruction* in) {
    bool have_base = false;
    auto sram = [&](int i) {
      return p.SramOperand(&in->rb, &have_base, &in->offset[i]);
    };
    auto comma = [&] { return p.ExpectComma(); };
    switch (OpcodeOperands(in->op)) {
      case Operands::kNone:
        return OkStatus();
      case Operands::kRdImm: {
        PHAL_ASSIGN_OR_RETURN(in->rd, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->imm, p.Integer());
        return OkStatus();
      }
      case Operands::kRdRaRb: {
        PHAL_ASSIGN_OR_RETURN(in->rd, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->ra, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->rb, p.Register());
        return OkStatus();
      }
      case Operands::kRdRaImm: {
        PHAL_ASSIGN_OR_RETURN(in->rd, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->ra, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->imm, p.Integer());
        return OkStatus();
      }
      case Operands::kLoad: {
        PHAL_ASSIGN_OR_RETURN(in->rd, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        return p.ScalarAddressOperand(&in->ra, &in->imm);
      }
      case Operands::kStore: {
        PHAL_ASSIGN_OR_RETURN(in->rb, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        return p.ScalarAddressOperand(&in->ra, &in->imm);
      }
      case Operands::kBranch: {
        PHAL_ASSIGN_OR_RETURN(in->ra, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->rb, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        return Target(p, in);
      }
      case Operands::kJump:
        return Target(p, in);
      case Operands::kVUnary:
      case Operands::kVBinary:
      case Operands::kVTernary: {
        const int sources = OpcodeOperands(in->op) == Operands::kVUnary    ? 1
                            : OpcodeOperands(in->op) == Operands::kVBinary ? 2
                                                                           : 3;
        PHAL_RETURN_IF_ERROR(sram(0));
        for (int i = 1; i <= sources; ++i) {
          PHAL_RETURN_IF_ERROR(comma());
          PHAL_RETURN_IF_ERROR(sram(i));
        }
        PHAL_RETURN_IF_ERROR(comma());
        return p.CountOperand(&in->rn);
      }
      case Operands::kVScalar: {
        PHAL_RETURN_IF_ERROR(sram(0));
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->rx, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        return p.CountOperand(&in->rn);
      }
      case Operands::kVReducePrecision: {
        PHAL_RETURN_IF_ERROR(sram(0));
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(sram(1));
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(p.ExpectKey("e"));
        PHAL_ASSIGN_OR_RETURN(in->offset[2],
                              p.Unsigned(kMaxOffset, "exponent bits"));
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(p.ExpectKey("m"));
        PHAL_ASSIGN_OR_RETURN(in->offset[3],
                              p.Unsigned(kMaxOffset, "mantissa bits"));
        PHAL_RETURN_IF_ERROR(comma());
        return p.CountOperand(&in->rn);
      }
      case Operands::kMatMul: {
        for (int i = 0; i < 3; ++i) {
          if (i > 0) PHAL_RETURN_IF_ERROR(comma());
          PHAL_RETURN_IF_ERROR(sram(i));
        }
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(p.ExpectKey("m"));
        PHAL_ASSIGN_OR_RETURN(in->rm, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(p.ExpectKey("k"));
        PHAL_ASSIGN_OR_RETURN(in->rk, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_RETURN_IF_ERROR(p.CountOperand(&in->rn));
        if (p.Consume(',')) {
          p.SkipSpace();
          const size_t at = p.pos();
          if (p.Identifier() != "zero") {
            return p.ErrorAt(at,
                             "expected 'zero' (start from a zero "
                             "accumulator)");
          }
          in->flags = kMatMulZeroFlag;
        }
        return OkStatus();
      }
      case Operands::kDmaBox:
      case Operands::kDmaIndirect: {
        const bool to_sram =
            in->op == Opcode::kDmaLoad || in->op == Opcode::kDmaGather;
        if (to_sram) {
          PHAL_RETURN_IF_ERROR(sram(0));
          PHAL_RETURN_IF_ERROR(comma());
          PHAL_RETURN_IF_ERROR(p.DramOperand(&in->rm));
        } else {
          PHAL_RETURN_IF_ERROR(p.DramOperand(&in->rm));
          PHAL_RETURN_IF_ERROR(comma());
          PHAL_RETURN_IF_ERROR(sram(0));
        }
        PHAL_RETURN_IF_ERROR(comma());
        if (OpcodeOperands(in->op) == Operands::kDmaIndirect) {
          PHAL_RETURN_IF_ERROR(p.ExpectKey("idx"));
          PHAL_RETURN_IF_ERROR(sram(1));
          PHAL_RETURN_IF_ERROR(comma());
          return p.CountOperand(&in->r0);
        }
        PHAL_RETURN_IF_ERROR(p.ExpectKey("box"));
        PHAL_RETURN_IF_ERROR(p.Expect('('));
        PHAL_ASSIGN_OR_RETURN(in->r0, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->r1, p.Register());
        PHAL_RETURN_IF_ERROR(comma());
        PHAL_ASSIGN_OR_RETURN(in->r2, p.Register());
        PHAL_RETURN_IF_ERROR(p.Expect(')'));
        PHAL_RETURN_IF_ERROR(comma());
        p.SkipSpace();
        const size_t at = p.pos();
        const std::string_view desc = p.Identifier();
        uint32_t index = 0;
        const auto [end, error] =
            std::from_chars(desc.data() + std::min<size_t>(1, desc.size()),
                            desc.data() + desc.size(), index);
        if (desc.size() < 2 || desc[0] != 'd' || error != std::errc() ||
            end != desc.data() + desc.size() || index > 0xffff) {
          return p.ErrorAt(at, "expected a descriptor d0..d65535");
        }
        in->descriptor = static_cast<uint16_t>(index);
        return OkStatus();
      }
    }
    return OkStatus();
  }

  const std::string& source_;
  Program program_;
  std::map<std::string, size_t, std::less<>> labels_;
  std::vector<Fixup> fixups_;
  std::vector<int> instruction_lines_;
};

}  // namespace

std::string DisassembleInstruction(const Instruction& instruction) {
  return InstructionText(instruction, std::to_string(instruction.imm));
}

std::string Disassemble(const Program& program) {
  std::string text =
      program.name.empty() ? ".kernel\n" : ".kernel " + program.name + "\n";
  for (size_t d = 0; d < program.descriptors.size(); ++d) {
    const DmaDescriptor& desc = program.descriptors[d];
    auto triple = [](const std::array<int64_t, 3>& v) {
      return "(" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
             std::to_string(v[2]) + ")";
    };
    text += ".desc d" + std::to_string(d) +
            " dram=" + triple(desc.dram_strides) +
            " sram=" + triple(desc.sram_strides) + "\n";
  }
  std::vector<bool> is_target(program.instructions.size(), false);
  for (const Instruction& in : program.instructions) {
    if (HasTarget(in.op) && in.imm >= 0 &&
        static_cast<uint64_t>(in.imm) < is_target.size()) {
      is_target[static_cast<size_t>(in.imm)] = true;
    }
  }
  std::vector<std::pair<uint32_t, std::string>> comments = program.comments;
  std::stable_sort(
      comments.begin(), comments.end(),
      [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t next_comment = 0;
  auto print_comments = [&](uint64_t index) {
    while (next_comment < comments.size() &&
           comments[next_comment].first <= index) {
      // A comment of several lines prints as one comment line each.
      std::string_view comment = comments[next_comment].second;
      for (;;) {
        const size_t newline = comment.find('\n');
        text += "; " + std::string(comment.substr(0, newline)) + "\n";
        if (newline == std::string_view::npos) break;
        comment.remove_prefix(newline + 1);
      }
      ++next_comment;
    }
  };
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    print_comments(i);
    if (is_target[i]) text += Label(static_cast<int64_t>(i)) + ":\n";
    const Instruction& in = program.instructions[i];
    const bool labelled = HasTarget(in.op) && in.imm >= 0 &&
                          static_cast<uint64_t>(in.imm) < is_target.size();
    text +=
        "  " +
        InstructionText(in, labelled ? Label(in.imm) : std::to_string(in.imm)) +
        "\n";
  }
  print_comments(std::numeric_limits<uint64_t>::max());
  return text;
}

StatusOr<Program> Assemble(const std::string& text,
                           const std::string& source_name) {
  return Assembler(source_name).Run(text);
}

}  // namespace phal::asic_ref
