#include "isa/asic_isa.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>

#include "polyhal/kernel.h"
#include "sdk/base/byte_codec.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

// -- Opcode facts

struct OpcodeInfo {
  const char* name = nullptr;
  Unit unit = Unit::kScalar;
  Operands operands = Operands::kNone;
  bool uses_type = false;
  bool uses_type2 = false;
};

struct OpcodeTable {
  std::array<OpcodeInfo, 256> entries{};

  constexpr void Set(Opcode op, const char* name, Unit unit, Operands operands,
                     bool uses_type = true, bool uses_type2 = false) {
    entries[static_cast<uint8_t>(op)] = {name, unit, operands, uses_type,
                                         uses_type2};
  }
};

constexpr OpcodeTable MakeOpcodeTable() {
  OpcodeTable t;
  constexpr Unit kS = Unit::kScalar;
  constexpr Unit kV = Unit::kVector;
  t.Set(Opcode::kHalt, "halt", kS, Operands::kNone, false);
  t.Set(Opcode::kFence, "fence", kS, Operands::kNone, false);
  t.Set(Opcode::kLi, "li", kS, Operands::kRdImm, false);
  t.Set(Opcode::kAdd, "add", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kAddi, "addi", kS, Operands::kRdRaImm, false);
  t.Set(Opcode::kSub, "sub", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kMul, "mul", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kMuli, "muli", kS, Operands::kRdRaImm, false);
  t.Set(Opcode::kDiv, "div", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kRem, "rem", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kMin, "min", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kMax, "max", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kAnd, "and", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kOr, "or", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kXor, "xor", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kShli, "shli", kS, Operands::kRdRaImm, false);
  t.Set(Opcode::kShri, "shri", kS, Operands::kRdRaImm, false);
  t.Set(Opcode::kSlt, "slt", kS, Operands::kRdRaRb, false);
  t.Set(Opcode::kLd, "ld", kS, Operands::kLoad, false);
  t.Set(Opcode::kSt, "st", kS, Operands::kStore, false);
  t.Set(Opcode::kLde, "lde", kS, Operands::kLoad);
  t.Set(Opcode::kSte, "ste", kS, Operands::kStore);
  t.Set(Opcode::kBeq, "beq", kS, Operands::kBranch, false);
  t.Set(Opcode::kBne, "bne", kS, Operands::kBranch, false);
  t.Set(Opcode::kBlt, "blt", kS, Operands::kBranch, false);
  t.Set(Opcode::kBge, "bge", kS, Operands::kBranch, false);
  t.Set(Opcode::kJmp, "jmp", kS, Operands::kJump, false);

  t.Set(Opcode::kVAdd, "vadd", kV, Operands::kVBinary);
  t.Set(Opcode::kVSub, "vsub", kV, Operands::kVBinary);
  t.Set(Opcode::kVMul, "vmul", kV, Operands::kVBinary);
  t.Set(Opcode::kVDiv, "vdiv", kV, Operands::kVBinary);
  t.Set(Opcode::kVRem, "vrem", kV, Operands::kVBinary);
  t.Set(Opcode::kVMax, "vmax", kV, Operands::kVBinary);
  t.Set(Opcode::kVMin, "vmin", kV, Operands::kVBinary);
  t.Set(Opcode::kVAnd, "vand", kV, Operands::kVBinary);
  t.Set(Opcode::kVOr, "vor", kV, Operands::kVBinary);
  t.Set(Opcode::kVXor, "vxor", kV, Operands::kVBinary);
  t.Set(Opcode::kVShl, "vshl", kV, Operands::kVBinary);
  t.Set(Opcode::kVShra, "vshra", kV, Operands::kVBinary);
  t.Set(Opcode::kVShrl, "vshrl", kV, Operands::kVBinary);
  t.Set(Opcode::kVNeg, "vneg", kV, Operands::kVUnary);
  t.Set(Opcode::kVAbs, "vabs", kV, Operands::kVUnary);
  t.Set(Opcode::kVSign, "vsign", kV, Operands::kVUnary);
  t.Set(Opcode::kVFloor, "vfloor", kV, Operands::kVUnary);
  t.Set(Opcode::kVCeil, "vceil", kV, Operands::kVUnary);
  t.Set(Opcode::kVRoundAfz, "vround.afz", kV, Operands::kVUnary);
  t.Set(Opcode::kVRoundEven, "vround.even", kV, Operands::kVUnary);
  t.Set(Opcode::kVNot, "vnot", kV, Operands::kVUnary);
  t.Set(Opcode::kVPopcnt, "vpopcnt", kV, Operands::kVUnary);
  t.Set(Opcode::kVClz, "vclz", kV, Operands::kVUnary);
  t.Set(Opcode::kVIsFinite, "visfinite", kV, Operands::kVUnary);
  t.Set(Opcode::kVCmp, "vcmp", kV, Operands::kVBinary);
  t.Set(Opcode::kVSel, "vsel", kV, Operands::kVTernary);
  t.Set(Opcode::kVClamp, "vclamp", kV, Operands::kVTernary);
  t.Set(Opcode::kVCvt, "vcvt", kV, Operands::kVUnary, true, true);
  t.Set(Opcode::kVBitcast, "vbitcast", kV, Operands::kVUnary, true, true);
  t.Set(Opcode::kVReducePrecision, "vreduceprec", kV,
        Operands::kVReducePrecision);
  t.Set(Opcode::kVMov, "vmov", kV, Operands::kVUnary);
  t.Set(Opcode::kVFill, "vfill", kV, Operands::kVScalar);
  t.Set(Opcode::kVIota, "viota", kV, Operands::kVScalar);
  t.Set(Opcode::kVBcast, "vbcast", kV, Operands::kVUnary);
  t.Set(Opcode::kVPerm, "vperm", kV, Operands::kVBinary);
  t.Set(Opcode::kVRedAdd, "vred.add", kV, Operands::kVUnary);
  t.Set(Opcode::kVRedMax, "vred.max", kV, Operands::kVUnary);
  t.Set(Opcode::kVRedMin, "vred.min", kV, Operands::kVUnary);
  t.Set(Opcode::kVExp, "vexp", kV, Operands::kVUnary);
  t.Set(Opcode::kVLog, "vlog", kV, Operands::kVUnary);
  t.Set(Opcode::kVSin, "vsin", kV, Operands::kVUnary);
  t.Set(Opcode::kVCos, "vcos", kV, Operands::kVUnary);
  t.Set(Opcode::kVErf, "verf", kV, Operands::kVUnary);
  t.Set(Opcode::kVSqrt, "vsqrt", kV, Operands::kVUnary);
  t.Set(Opcode::kVRsqrt, "vrsqrt", kV, Operands::kVUnary);
  t.Set(Opcode::kVPow, "vpow", kV, Operands::kVBinary);
  t.Set(Opcode::kVAtan2, "vatan2", kV, Operands::kVBinary);

  t.Set(Opcode::kMatMul, "mm", Unit::kMatrix, Operands::kMatMul, true, true);

  t.Set(Opcode::kDmaLoad, "dma.ld", Unit::kDmaIn, Operands::kDmaBox);
  t.Set(Opcode::kDmaStore, "dma.st", Unit::kDmaOut, Operands::kDmaBox);
  t.Set(Opcode::kDmaGather, "dma.gather", Unit::kDmaIn, Operands::kDmaIndirect);
  t.Set(Opcode::kDmaScatter, "dma.scatter", Unit::kDmaOut,
        Operands::kDmaIndirect);
  return t;
}

constexpr OpcodeTable kOpcodes = MakeOpcodeTable();

const OpcodeInfo& Info(Opcode op) {
  return kOpcodes.entries[static_cast<uint8_t>(op)];
}

// -- Fields each operand shape uses

enum Field : uint32_t {
  kRd = 1u << 0,
  kRa = 1u << 1,
  kRb = 1u << 2,
  kRn = 1u << 3,
  kRx = 1u << 4,
  kRm = 1u << 5,
  kRk = 1u << 6,
  kR0 = 1u << 7,
  kR1 = 1u << 8,
  kR2 = 1u << 9,
  kFlags = 1u << 10,
  kOff0 = 1u << 11,
  kOff1 = 1u << 12,
  kOff2 = 1u << 13,
  kOff3 = 1u << 14,
  kDesc = 1u << 15,
  kImm = 1u << 16,
};

uint32_t UsedFields(Opcode op) {
  switch (OpcodeOperands(op)) {
    case Operands::kNone:
      return 0;
    case Operands::kRdImm:
      return kRd | kImm;
    case Operands::kRdRaRb:
      return kRd | kRa | kRb;
    case Operands::kRdRaImm:
      return kRd | kRa | kImm;
    case Operands::kLoad:
      return kRd | kRa | kImm;
    case Operands::kStore:
      return kRa | kRb | kImm;
    case Operands::kBranch:
      return kRa | kRb | kImm;
    case Operands::kJump:
      return kImm;
    case Operands::kVUnary:
      return kRb | kRn | kOff0 | kOff1;
    case Operands::kVBinary:
      return kRb | kRn | kOff0 | kOff1 | kOff2 |
             (op == Opcode::kVCmp ? kFlags : 0u);
    case Operands::kVTernary:
      return kRb | kRn | kOff0 | kOff1 | kOff2 | kOff3;
    case Operands::kVScalar:
      return kRb | kRn | kRx | kOff0;
    case Operands::kVReducePrecision:
      return kRb | kRn | kOff0 | kOff1 | kOff2 | kOff3;
    case Operands::kMatMul:
      return kRb | kRm | kRk | kRn | kFlags | kOff0 | kOff1 | kOff2;
    case Operands::kDmaBox:
      return kRb | kRm | kR0 | kR1 | kR2 | kOff0 | kDesc;
    case Operands::kDmaIndirect:
      return kRb | kRm | kR0 | kOff0 | kOff1;
  }
  return 0;
}

std::string OpcodeText(Opcode op) {
  const char* name = OpcodeName(op);
  return name != nullptr ? name : "opcode " + Hex(static_cast<uint8_t>(op));
}

bool IsMatMulFloat(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_BF16 || type == PHAL_ELEMENT_TYPE_F16 ||
         type == PHAL_ELEMENT_TYPE_F32;
}

Status FieldError(uint64_t index, Opcode op, const std::string& message) {
  return InvalidArgument("instruction " + std::to_string(index) + " (" +
                         OpcodeText(op) + "): " + message);
}

// Unused fields must be zero; `used` is UsedFields(op).
Status CheckUnusedFieldsZero(const Instruction& in, uint32_t used,
                             uint64_t index) {
  struct Named {
    uint32_t field;
    uint64_t value;
    const char* name;
  };
  const Named fields[] = {
      {kRd, in.rd, "rd"},
      {kRa, in.ra, "ra"},
      {kRb, in.rb, "rb"},
      {kRn, in.rn, "rn"},
      {kRx, in.rx, "rx"},
      {kRm, in.rm, "rm"},
      {kRk, in.rk, "rk"},
      {kR0, in.r0, "r0"},
      {kR1, in.r1, "r1"},
      {kR2, in.r2, "r2"},
      {kFlags, in.flags, "flags"},
      {kOff0, in.offset[0], "offset[0]"},
      {kOff1, in.offset[1], "offset[1]"},
      {kOff2, in.offset[2], "offset[2]"},
      {kOff3, in.offset[3], "offset[3]"},
      {kDesc, in.descriptor, "descriptor"},
      {kImm, static_cast<uint64_t>(in.imm), "imm"},
  };
  for (const Named& f : fields) {
    if ((used & f.field) == 0 && f.value != 0) {
      return FieldError(index, in.op,
                        std::string(f.name) + " is " + std::to_string(f.value) +
                            " but the opcode does not use it (must be 0)");
    }
    if ((used & f.field) != 0 && f.field <= kR2 && f.value > 31) {
      return FieldError(index, in.op,
                        std::string("register ") + f.name + " is " +
                            std::to_string(f.value) + " (registers are 0..31)");
    }
  }
  return OkStatus();
}

Status CheckType(const Instruction& in, uint64_t index, bool used,
                 phal_element_type_t type, const char* field) {
  const int value = static_cast<int>(type);
  if (!used) {
    if (value == 0) return OkStatus();
    return FieldError(index, in.op,
                      std::string(field) + " is " + std::to_string(value) +
                          " but the opcode takes none (must be 0)");
  }
  if (IsMachineType(type)) return OkStatus();
  return FieldError(index, in.op,
                    std::string(field) + " " + std::to_string(value) + " (" +
                        ElementTypeName(type) +
                        ") is not an element type of the machine");
}

Status CheckOpcodeRules(const Instruction& in, uint64_t index,
                        uint64_t instruction_count, uint64_t descriptor_count) {
  switch (OpcodeOperands(in.op)) {
    case Operands::kBranch:
    case Operands::kJump:
      if (in.imm < 0 || static_cast<uint64_t>(in.imm) >= instruction_count) {
        return FieldError(index, in.op,
                          "branch target " + std::to_string(in.imm) +
                              " is outside the program (" +
                              std::to_string(instruction_count) +
                              " instructions)");
      }
      return OkStatus();
    case Operands::kDmaBox:
      if (in.descriptor >= descriptor_count) {
        return FieldError(index, in.op,
                          "descriptor d" + std::to_string(in.descriptor) +
                              " is out of range (" +
                              std::to_string(descriptor_count) +
                              " descriptors)");
      }
      return OkStatus();
    default:
      break;
  }
  if ((in.op == Opcode::kShli || in.op == Opcode::kShri) &&
      (in.imm < 0 || in.imm > 63)) {
    return FieldError(
        index, in.op,
        "shift amount " + std::to_string(in.imm) + " is outside 0..63");
  }
  if (in.op == Opcode::kVCmp &&
      (CompareDirection(in.flags) > PHAL_KIR_COMPARE_GE || in.flags > 31)) {
    return FieldError(index, in.op,
                      "flags " + Hex(in.flags) +
                          " name no comparison (direction 0..5 in bits 0..2, "
                          "type in bits 3..4)");
  }
  if (in.op == Opcode::kMatMul) {
    if ((in.flags & ~kMatMulZeroFlag) != 0) {
      return FieldError(index, in.op,
                        "flags " + Hex(in.flags) + " (only bit 0 is defined)");
    }
    const bool floats = IsMatMulFloat(in.type) && IsMatMulFloat(in.type2);
    const bool ints =
        in.type == PHAL_ELEMENT_TYPE_S8 && in.type2 == PHAL_ELEMENT_TYPE_S8;
    if (!floats && !ints) {
      return FieldError(index, in.op,
                        std::string("input types ") + ElementTypeName(in.type) +
                            " x " + ElementTypeName(in.type2) +
                            " (bf16/f16/f32 pairs or s8 x s8)");
    }
  }
  if (in.op == Opcode::kVIota && in.type != PHAL_ELEMENT_TYPE_S32 &&
      in.type != PHAL_ELEMENT_TYPE_S64) {
    return FieldError(
        index, in.op,
        std::string("type ") + ElementTypeName(in.type) + " (s32 or s64)");
  }
  return OkStatus();
}

// -- Bit fields of a 128-bit word

struct Word {
  uint64_t lo = 0;  // bits 0..63 (bytes 0..7)
  uint64_t hi = 0;  // bits 64..127 (bytes 8..15)

  void Put(int position, int width, uint64_t value) {
    const uint64_t mask =
        width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    value &= mask;
    if (position < 64) {
      lo |= value << position;
      if (position + width > 64) hi |= value >> (64 - position);
    } else {
      hi |= value << (position - 64);
    }
  }

  uint64_t Get(int position, int width) const {
    const uint64_t mask =
        width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    uint64_t value;
    if (position >= 64) {
      value = hi >> (position - 64);
    } else {
      value = lo >> position;
      if (position + width > 64) value |= hi << (64 - position);
    }
    return value & mask;
  }
};

// Bit positions of each format (docs/plugins/asic-ref.md, "Encoding").
struct FieldPos {
  int position;
  int width;
};
// S: op 0..7, rd 8..12, ra 13..17, rb 18..22, type 23..27, reserved
// 28..63, imm 64..127.
constexpr FieldPos kSRd{8, 5}, kSRa{13, 5}, kSRb{18, 5}, kSType{23, 5},
    kSReserved{28, 36}, kSImm{64, 64};
// V: op 0..7, type 8..12, type2 13..17, rb 18..22, rn 23..27, rx 28..32,
// flags 33..39, offset[0..3] 40..61, 62..83, 84..105, 106..127.
constexpr FieldPos kVType{8, 5}, kVType2{13, 5}, kVRb{18, 5}, kVRn{23, 5},
    kVRx{28, 5}, kVFlags{33, 7};
constexpr int kVOffset = 40;
// M: op 0..7, type 8..12, type2 13..17, rb 18..22, rm 23..27, rk 28..32,
// rn 33..37, flags 38..44, offset[0..2] 45..66, 67..88, 89..110, reserved
// 111..127.
constexpr FieldPos kMType{8, 5}, kMType2{13, 5}, kMRb{18, 5}, kMRm{23, 5},
    kMRk{28, 5}, kMRn{33, 5}, kMFlags{38, 7}, kMReserved{111, 17};
constexpr int kMOffset = 45;
// D: op 0..7, type 8..12, rb 13..17, rm 18..22, r0 23..27, r1 28..32,
// r2 33..37, offset[0] 38..59, offset[1] 60..81, descriptor 82..97,
// reserved 98..127.
constexpr FieldPos kDType{8, 5}, kDRb{13, 5}, kDRm{18, 5}, kDR0{23, 5},
    kDR1{28, 5}, kDR2{33, 5}, kDOff0{38, 22}, kDOff1{60, 22}, kDDesc{82, 16},
    kDReserved{98, 30};

void Put(Word& w, FieldPos f, uint64_t value) {
  w.Put(f.position, f.width, value);
}
uint64_t Get(const Word& w, FieldPos f) { return w.Get(f.position, f.width); }

// -- Program container

constexpr char kMagic[8] = {'P', 'H', 'A', 'L', 'A', 'S', 'I', 'C'};
constexpr uint32_t kFormatVersion = 1;
constexpr uint64_t kHeaderBytes = 32;
constexpr uint64_t kDescriptorBytes = 48;
constexpr uint64_t kInstructionBytes = 16;

uint64_t PaddedNameBytes(uint64_t name_bytes) {
  return (name_bytes + 15) & ~15ull;
}

// -- Configuration text

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

bool ParseSize(std::string_view text, uint64_t* out) {
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
      case 'k':
        scale = 1ull << 10;
        break;
      case 'M':
      case 'm':
        scale = 1ull << 20;
        break;
      case 'G':
      case 'g':
        scale = 1ull << 30;
        break;
      default:
        break;
    }
    if (scale != 1) text.remove_suffix(1);
  }
  if (text.empty()) return false;
  uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return false;
  if (value > std::numeric_limits<uint64_t>::max() / scale) return false;
  *out = value * scale;
  return true;
}

std::string SizeText(uint64_t value) {
  static constexpr struct {
    int shift;
    char suffix;
  } kSuffixes[] = {{30, 'G'}, {20, 'M'}, {10, 'K'}};
  for (const auto& s : kSuffixes) {
    const uint64_t unit = 1ull << s.shift;
    if (value != 0 && value % unit == 0) {
      return std::to_string(value / unit) + s.suffix;
    }
  }
  return std::to_string(value);
}

struct ConfigKey {
  const char* key;
  uint64_t min;
  uint64_t max;
  uint64_t ArchConfig::*wide;
  uint32_t ArchConfig::*narrow;
};

constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();

constexpr ConfigKey kConfigKeys[] = {
    {"sram", 64, 1ull << 30, &ArchConfig::sram_bytes, nullptr},
    {"array", 1, 1024, nullptr, &ArchConfig::array_size},
    {"lanes", 1, 1u << 16, nullptr, &ArchConfig::vector_lanes},
    {"clock", 1, kU32Max, nullptr, &ArchConfig::clock_mhz},
    {"dma", 1, kU32Max, nullptr, &ArchConfig::dma_bytes_per_cycle},
    {"latency", 0, kU32Max, nullptr, &ArchConfig::dma_latency_cycles},
    {"queue", 1, 1u << 16, nullptr, &ArchConfig::queue_depth},
    {"dram", 1, std::numeric_limits<uint64_t>::max(), &ArchConfig::dram_bytes,
     nullptr},
    {"link", 1, kU32Max, nullptr, &ArchConfig::link_bytes_per_cycle},
    {"link_latency", 0, kU32Max, nullptr, &ArchConfig::link_latency_cycles},
};

// "sram, array, ...": every key, for messages.
std::string ConfigKeyList() {
  std::string keys;
  for (const ConfigKey& k : kConfigKeys) {
    if (!keys.empty()) keys += ", ";
    keys += k.key;
  }
  return keys;
}

}  // namespace

std::string Hex(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string digits;
  do {
    digits.insert(digits.begin(), kDigits[value & 15]);
    value >>= 4;
  } while (value != 0);
  return "0x" + digits;
}

// -- Opcode facts

const char* OpcodeName(Opcode op) { return Info(op).name; }

Unit OpcodeUnit(Opcode op) { return Info(op).unit; }

Operands OpcodeOperands(Opcode op) { return Info(op).operands; }

bool OpcodeUsesType(Opcode op) { return Info(op).uses_type; }

bool OpcodeUsesType2(Opcode op) { return Info(op).uses_type2; }

Format OpcodeFormat(Opcode op) {
  switch (Info(op).unit) {
    case Unit::kScalar:
      return Format::kS;
    case Unit::kVector:
      return Format::kV;
    case Unit::kMatrix:
      return Format::kM;
    case Unit::kDmaIn:
    case Unit::kDmaOut:
      return Format::kD;
  }
  return Format::kS;
}

const char* UnitName(Unit unit) {
  switch (unit) {
    case Unit::kScalar:
      return "scalar";
    case Unit::kVector:
      return "vector";
    case Unit::kMatrix:
      return "matrix";
    case Unit::kDmaIn:
      return "dma_in";
    case Unit::kDmaOut:
      return "dma_out";
  }
  return "invalid";
}

bool IsMachineType(phal_element_type_t type) {
  const int value = static_cast<int>(type);
  return value >= PHAL_ELEMENT_TYPE_PRED && value <= PHAL_ELEMENT_TYPE_F32;
}

// -- Configuration

Status ParseArchConfig(const std::string& text, ArchConfig* config) {
  ArchConfig parsed = *config;
  std::string_view rest = text;
  while (!Trim(rest).empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = Trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view()
                                           : rest.substr(comma + 1);
    const size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      return InvalidArgument("asic-ref configuration: '" + std::string(item) +
                             "' is not key=value");
    }
    const std::string key(Trim(item.substr(0, equals)));
    const std::string value_text(Trim(item.substr(equals + 1)));
    const ConfigKey* found = nullptr;
    for (const ConfigKey& k : kConfigKeys) {
      if (key == k.key) found = &k;
    }
    if (found == nullptr) {
      return InvalidArgument("asic-ref configuration: unknown key '" + key +
                             "' (keys: " + ConfigKeyList() + ")");
    }
    uint64_t value = 0;
    if (!ParseSize(value_text, &value)) {
      return InvalidArgument("asic-ref configuration: " + key + "='" +
                             value_text +
                             "' is not a number (K, M and G suffixes allowed)");
    }
    if (value < found->min || value > found->max) {
      return InvalidArgument("asic-ref configuration: " + key + "='" +
                             value_text + "' is outside " +
                             std::to_string(found->min) + ".." +
                             std::to_string(found->max));
    }
    if (found->wide != nullptr) {
      parsed.*(found->wide) = value;
    } else {
      parsed.*(found->narrow) = static_cast<uint32_t>(value);
    }
  }
  *config = parsed;
  return OkStatus();
}

std::string ArchConfigToString(const ArchConfig& config) {
  std::string text;
  for (const ConfigKey& k : kConfigKeys) {
    const uint64_t value =
        k.wide != nullptr ? config.*(k.wide) : config.*(k.narrow);
    if (!text.empty()) text += ',';
    text += k.key;
    text += '=';
    text += k.wide != nullptr ? SizeText(value) : std::to_string(value);
  }
  return text;
}

uint64_t LinkTransferCycles(const ArchConfig& config, uint64_t bytes) {
  if (bytes == 0) return 0;
  const uint64_t per_cycle = config.link_bytes_per_cycle;
  return config.link_latency_cycles + (bytes + per_cycle - 1) / per_cycle;
}

// -- Validation

Status ValidateInstruction(const Instruction& in, uint64_t index,
                           uint64_t instruction_count,
                           uint64_t descriptor_count) {
  if (OpcodeName(in.op) == nullptr) {
    return InvalidArgument("instruction " + std::to_string(index) +
                           ": unknown opcode " +
                           Hex(static_cast<uint8_t>(in.op)));
  }
  PHAL_RETURN_IF_ERROR(CheckUnusedFieldsZero(in, UsedFields(in.op), index));
  PHAL_RETURN_IF_ERROR(
      CheckType(in, index, OpcodeUsesType(in.op), in.type, "type"));
  PHAL_RETURN_IF_ERROR(
      CheckType(in, index, OpcodeUsesType2(in.op), in.type2, "type2"));
  if (in.flags > 127) {
    return FieldError(index, in.op,
                      "flags " + Hex(in.flags) + " do not fit in 7 bits");
  }
  for (int i = 0; i < 4; ++i) {
    if (in.offset[i] > kMaxOffset) {
      return FieldError(index, in.op,
                        "offset[" + std::to_string(i) + "] " +
                            Hex(in.offset[i]) + " does not fit in 22 bits");
    }
  }
  return CheckOpcodeRules(in, index, instruction_count, descriptor_count);
}

Status ValidateProgram(const Program& program) {
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    PHAL_RETURN_IF_ERROR(ValidateInstruction(program.instructions[i], i,
                                             program.instructions.size(),
                                             program.descriptors.size()));
  }
  return OkStatus();
}

// -- Encoding

std::array<uint8_t, 16> EncodeInstruction(const Instruction& in) {
  Word w;
  w.Put(0, 8, static_cast<uint8_t>(in.op));
  const auto type = static_cast<uint64_t>(in.type);
  const auto type2 = static_cast<uint64_t>(in.type2);
  switch (OpcodeFormat(in.op)) {
    case Format::kS:
      Put(w, kSRd, in.rd);
      Put(w, kSRa, in.ra);
      Put(w, kSRb, in.rb);
      Put(w, kSType, type);
      Put(w, kSImm, static_cast<uint64_t>(in.imm));
      break;
    case Format::kV:
      Put(w, kVType, type);
      Put(w, kVType2, type2);
      Put(w, kVRb, in.rb);
      Put(w, kVRn, in.rn);
      Put(w, kVRx, in.rx);
      Put(w, kVFlags, in.flags);
      for (int i = 0; i < 4; ++i) {
        w.Put(kVOffset + 22 * i, 22, in.offset[i]);
      }
      break;
    case Format::kM:
      Put(w, kMType, type);
      Put(w, kMType2, type2);
      Put(w, kMRb, in.rb);
      Put(w, kMRm, in.rm);
      Put(w, kMRk, in.rk);
      Put(w, kMRn, in.rn);
      Put(w, kMFlags, in.flags);
      for (int i = 0; i < 3; ++i) {
        w.Put(kMOffset + 22 * i, 22, in.offset[i]);
      }
      break;
    case Format::kD:
      Put(w, kDType, type);
      Put(w, kDRb, in.rb);
      Put(w, kDRm, in.rm);
      Put(w, kDR0, in.r0);
      Put(w, kDR1, in.r1);
      Put(w, kDR2, in.r2);
      Put(w, kDOff0, in.offset[0]);
      Put(w, kDOff1, in.offset[1]);
      Put(w, kDDesc, in.descriptor);
      break;
  }
  std::array<uint8_t, 16> bytes{};
  for (int i = 0; i < 8; ++i) {
    bytes[i] = static_cast<uint8_t>(w.lo >> (8 * i));
    bytes[8 + i] = static_cast<uint8_t>(w.hi >> (8 * i));
  }
  return bytes;
}

StatusOr<Instruction> DecodeInstruction(const uint8_t* word, uint64_t index) {
  const Word w{LoadLittleEndian(word, 8), LoadLittleEndian(word + 8, 8)};
  Instruction in;
  in.op = static_cast<Opcode>(w.Get(0, 8));
  if (OpcodeName(in.op) == nullptr) {
    return InvalidArgument("instruction " + std::to_string(index) +
                           ": unknown opcode " + Hex(w.Get(0, 8)));
  }
  auto reg = [&](FieldPos f) { return static_cast<uint8_t>(Get(w, f)); };
  auto type = [&](FieldPos f) {
    return static_cast<phal_element_type_t>(Get(w, f));
  };
  uint64_t reserved = 0;
  switch (OpcodeFormat(in.op)) {
    case Format::kS:
      in.rd = reg(kSRd);
      in.ra = reg(kSRa);
      in.rb = reg(kSRb);
      in.type = type(kSType);
      in.imm = static_cast<int64_t>(Get(w, kSImm));
      reserved = Get(w, kSReserved);
      break;
    case Format::kV:
      in.type = type(kVType);
      in.type2 = type(kVType2);
      in.rb = reg(kVRb);
      in.rn = reg(kVRn);
      in.rx = reg(kVRx);
      in.flags = reg(kVFlags);
      for (int i = 0; i < 4; ++i) {
        in.offset[i] = static_cast<uint32_t>(w.Get(kVOffset + 22 * i, 22));
      }
      break;
    case Format::kM:
      in.type = type(kMType);
      in.type2 = type(kMType2);
      in.rb = reg(kMRb);
      in.rm = reg(kMRm);
      in.rk = reg(kMRk);
      in.rn = reg(kMRn);
      in.flags = reg(kMFlags);
      for (int i = 0; i < 3; ++i) {
        in.offset[i] = static_cast<uint32_t>(w.Get(kMOffset + 22 * i, 22));
      }
      reserved = Get(w, kMReserved);
      break;
    case Format::kD:
      in.type = type(kDType);
      in.rb = reg(kDRb);
      in.rm = reg(kDRm);
      in.r0 = reg(kDR0);
      in.r1 = reg(kDR1);
      in.r2 = reg(kDR2);
      in.offset[0] = static_cast<uint32_t>(Get(w, kDOff0));
      in.offset[1] = static_cast<uint32_t>(Get(w, kDOff1));
      in.descriptor = static_cast<uint16_t>(Get(w, kDDesc));
      reserved = Get(w, kDReserved);
      break;
  }
  if (reserved != 0) {
    return FieldError(index, in.op,
                      "reserved bits are set (" + Hex(reserved) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      ValidateInstruction(in, index, std::numeric_limits<uint64_t>::max(),
                          std::numeric_limits<uint64_t>::max()));
  return in;
}

std::string EncodeProgram(const Program& program) {
  std::string out(kMagic, sizeof(kMagic));
  AppendLittleEndian(out, kFormatVersion, 4);
  AppendLittleEndian(out, kHeaderBytes, 4);
  AppendLittleEndian(out, program.name.size(), 4);
  AppendLittleEndian(out, program.descriptors.size(), 4);
  AppendLittleEndian(out, program.instructions.size(), 4);
  AppendLittleEndian(out, 0, 4);
  out += program.name;
  out.resize(kHeaderBytes + PaddedNameBytes(program.name.size()), '\0');
  for (const DmaDescriptor& d : program.descriptors) {
    for (int64_t stride : d.dram_strides) {
      AppendLittleEndian(out, static_cast<uint64_t>(stride), 8);
    }
    for (int64_t stride : d.sram_strides) {
      AppendLittleEndian(out, static_cast<uint64_t>(stride), 8);
    }
  }
  for (const Instruction& in : program.instructions) {
    const auto word = EncodeInstruction(in);
    out.append(reinterpret_cast<const char*>(word.data()), word.size());
  }
  return out;
}

StatusOr<Program> DecodeProgram(const std::string& bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint64_t size = bytes.size();
  if (size < kHeaderBytes) {
    return InvalidArgument("asic-ref program: truncated header (" +
                           std::to_string(size) + " of " +
                           std::to_string(kHeaderBytes) + " bytes)");
  }
  if (std::memcmp(data, kMagic, sizeof(kMagic)) != 0) {
    return InvalidArgument(
        "asic-ref program: bad magic at byte offset 0 (not an asic-ref "
        "program)");
  }
  const uint64_t version = LoadLittleEndian(data + 8, 4);
  if (version != kFormatVersion) {
    return InvalidArgument("asic-ref program: format version " +
                           std::to_string(version) + " at byte offset 8 (" +
                           std::to_string(kFormatVersion) + " expected)");
  }
  if (LoadLittleEndian(data + 12, 4) != kHeaderBytes ||
      LoadLittleEndian(data + 28, 4) != 0) {
    return InvalidArgument(
        "asic-ref program: header size at byte offset 12 or reserved word at "
        "byte offset 28 is wrong");
  }
  const uint64_t name_bytes = LoadLittleEndian(data + 16, 4);
  const uint64_t descriptor_count = LoadLittleEndian(data + 20, 4);
  const uint64_t instruction_count = LoadLittleEndian(data + 24, 4);
  const uint64_t descriptors_at = kHeaderBytes + PaddedNameBytes(name_bytes);
  const uint64_t instructions_at =
      descriptors_at + descriptor_count * kDescriptorBytes;
  const uint64_t expected =
      instructions_at + instruction_count * kInstructionBytes;
  if (size < expected) {
    return InvalidArgument("asic-ref program: truncated at byte offset " +
                           std::to_string(size) + " (the header describes " +
                           std::to_string(expected) + " bytes)");
  }
  if (size > expected) {
    return InvalidArgument(
        "asic-ref program: " + std::to_string(size - expected) +
        " bytes after the last instruction, at byte offset " +
        std::to_string(expected));
  }
  for (uint64_t i = kHeaderBytes + name_bytes; i < descriptors_at; ++i) {
    if (data[i] != 0) {
      return InvalidArgument(
          "asic-ref program: non-zero name padding at byte "
          "offset " +
          std::to_string(i));
    }
  }
  Program program;
  program.name.assign(bytes, kHeaderBytes, name_bytes);
  program.descriptors.resize(descriptor_count);
  for (uint64_t d = 0; d < descriptor_count; ++d) {
    const uint8_t* at = data + descriptors_at + d * kDescriptorBytes;
    for (int i = 0; i < 3; ++i) {
      program.descriptors[d].dram_strides[i] =
          static_cast<int64_t>(LoadLittleEndian(at + 8 * i, 8));
      program.descriptors[d].sram_strides[i] =
          static_cast<int64_t>(LoadLittleEndian(at + 24 + 8 * i, 8));
    }
  }
  program.instructions.reserve(instruction_count);
  for (uint64_t i = 0; i < instruction_count; ++i) {
    const uint64_t offset = instructions_at + i * kInstructionBytes;
    StatusOr<Instruction> in = DecodeInstruction(data + offset, i);
    Status status = in.ok() ? ValidateInstruction(*in, i, instruction_count,
                                                  descriptor_count)
                            : in.status();
    if (!status.ok()) {
      return Status(status.code(), "asic-ref program: byte offset " +
                                       std::to_string(offset) + ": " +
                                       status.message());
    }
    program.instructions.push_back(*in);
  }
  return program;
}

}  // namespace phal::asic_ref
