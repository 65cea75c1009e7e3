// The asic-ref instruction set: opcode facts, the binary encoding of
// instructions and programs, validation, and the configuration string.
#include "isa/asic_isa.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::asic_ref {
namespace {

using ::phal::plugin_testing::HasCode;
using ::phal::plugin_testing::IsOk;

std::vector<Opcode> AllOpcodes() {
  std::vector<Opcode> ops;
  for (int value = 0; value < 256; ++value) {
    if (OpcodeName(static_cast<Opcode>(value)) != nullptr) {
      ops.push_back(static_cast<Opcode>(value));
    }
  }
  return ops;
}

// An instruction of `op` with every field it uses at its largest (or, with
// `high` false, smallest) value.
Instruction Extreme(Opcode op, bool high) {
  Instruction in;
  in.op = op;
  const uint8_t reg = high ? 31 : 0;
  const uint32_t offset = high ? kMaxOffset : 0;
  if (OpcodeUsesType(op)) {
    in.type = high ? PHAL_ELEMENT_TYPE_F32 : PHAL_ELEMENT_TYPE_PRED;
  }
  if (OpcodeUsesType2(op)) {
    in.type2 = high ? PHAL_ELEMENT_TYPE_BF16 : PHAL_ELEMENT_TYPE_F16;
  }
  switch (OpcodeOperands(op)) {
    case Operands::kNone:
      break;
    case Operands::kRdImm:
    case Operands::kRdRaImm:
    case Operands::kLoad:
      in.rd = reg;
      in.ra = OpcodeOperands(op) == Operands::kRdImm ? 0 : reg;
      in.imm = high ? std::numeric_limits<int64_t>::max()
                    : std::numeric_limits<int64_t>::min();
      if (op == Opcode::kShli || op == Opcode::kShri) in.imm = high ? 63 : 0;
      break;
    case Operands::kRdRaRb:
      in.rd = in.ra = in.rb = reg;
      break;
    case Operands::kStore:
      in.ra = in.rb = reg;
      in.imm = high ? -1 : std::numeric_limits<int64_t>::min();
      break;
    case Operands::kBranch:
    case Operands::kJump:
      if (op != Opcode::kJmp) in.ra = in.rb = reg;
      in.imm = high ? std::numeric_limits<int64_t>::max() : 0;
      break;
    case Operands::kVUnary:
    case Operands::kVBinary:
    case Operands::kVTernary:
    case Operands::kVReducePrecision: {
      in.rb = in.rn = reg;
      const int count = OpcodeOperands(op) == Operands::kVUnary    ? 2
                        : OpcodeOperands(op) == Operands::kVBinary ? 3
                                                                   : 4;
      for (int i = 0; i < count; ++i) in.offset[i] = offset;
      if (op == Opcode::kVCmp) {
        in.flags = high ? CompareFlags(PHAL_KIR_COMPARE_GE,
                                       PHAL_KIR_COMPARISON_UNSIGNED)
                        : 0;
      }
      break;
    }
    case Operands::kVScalar:
      in.rb = in.rn = in.rx = reg;
      in.offset[0] = offset;
      if (op == Opcode::kVIota) {
        in.type = high ? PHAL_ELEMENT_TYPE_S64 : PHAL_ELEMENT_TYPE_S32;
      }
      break;
    case Operands::kMatMul:
      in.rb = in.rm = in.rk = in.rn = reg;
      in.offset = {offset, offset, offset, 0};
      in.flags = high ? kMatMulZeroFlag : 0;
      if (!high) in.type = in.type2 = PHAL_ELEMENT_TYPE_S8;
      break;
    case Operands::kDmaBox:
      in.rb = in.rm = in.r0 = in.r1 = in.r2 = reg;
      in.offset[0] = offset;
      in.descriptor = high ? 0xffff : 0;
      break;
    case Operands::kDmaIndirect:
      in.rb = in.rm = in.r0 = reg;
      in.offset[0] = in.offset[1] = offset;
      break;
  }
  return in;
}

TEST(AsicIsaTest, OpcodeNamesAndUnitsFollowTheFormats) {
  EXPECT_STREQ(OpcodeName(Opcode::kVAdd), "vadd");
  EXPECT_STREQ(OpcodeName(Opcode::kDmaLoad), "dma.ld");
  EXPECT_STREQ(OpcodeName(Opcode::kMatMul), "mm");
  EXPECT_EQ(OpcodeName(Opcode::kInvalid), nullptr);
  EXPECT_EQ(OpcodeName(static_cast<Opcode>(63)), nullptr);
  EXPECT_EQ(OpcodeUnit(Opcode::kBlt), Unit::kScalar);
  EXPECT_EQ(OpcodeUnit(Opcode::kVExp), Unit::kVector);
  EXPECT_EQ(OpcodeUnit(Opcode::kMatMul), Unit::kMatrix);
  EXPECT_EQ(OpcodeUnit(Opcode::kDmaGather), Unit::kDmaIn);
  EXPECT_EQ(OpcodeUnit(Opcode::kDmaScatter), Unit::kDmaOut);
  EXPECT_STREQ(UnitName(Unit::kDmaOut), "dma_out");
  EXPECT_EQ(AllOpcodes().size(), 27u + 47u + 1u + 4u);
}

TEST(AsicIsaTest, MachineTypesArePredIntegersAndFloatsUpToF32) {
  for (int t = 0; t < PHAL_ELEMENT_TYPE_COUNT; ++t) {
    const auto type = static_cast<phal_element_type_t>(t);
    const bool expected =
        t >= PHAL_ELEMENT_TYPE_PRED && t <= PHAL_ELEMENT_TYPE_F32;
    EXPECT_EQ(IsMachineType(type), expected) << t;
  }
}

TEST(AsicIsaTest, EveryOpcodeRoundTripsWithExtremeFieldValues) {
  for (Opcode op : AllOpcodes()) {
    for (bool high : {false, true}) {
      const Instruction in = Extreme(op, high);
      ASSERT_TRUE(IsOk(ValidateInstruction(in, 0, ~0ull, ~0ull)))
          << OpcodeName(op);
      const auto word = EncodeInstruction(in);
      StatusOr<Instruction> decoded = DecodeInstruction(word.data(), 0);
      ASSERT_TRUE(IsOk(decoded.status())) << OpcodeName(op);
      EXPECT_EQ(*decoded, in) << OpcodeName(op) << (high ? " high" : " low");
    }
  }
}

uint64_t Low64(const std::array<uint8_t, 16>& word) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = value << 8 | word[i];
  return value;
}
uint64_t High64(const std::array<uint8_t, 16>& word) {
  uint64_t value = 0;
  for (int i = 15; i >= 8; --i) value = value << 8 | word[i];
  return value;
}

TEST(AsicIsaTest, VectorFormatBitLayoutIsPinned) {
  Instruction in;
  in.op = Opcode::kVAdd;
  in.type = PHAL_ELEMENT_TYPE_F32;
  in.rb = 3;
  in.rn = 5;
  in.offset = {0x100, 0, 0x80, 0x3fffff};
  const auto word = EncodeInstruction(in);
  // op 0..7, type 8..12, rb 18..22, rn 23..27, offset[0] 40..61.
  EXPECT_EQ(Low64(word),
            64ull | 12ull << 8 | 3ull << 18 | 5ull << 23 | 0x100ull << 40);
  // offset[2] at bits 84..105, offset[3] at 106..127.
  EXPECT_EQ(High64(word), 0x80ull << 20 | 0x3fffffull << 42);
}

TEST(AsicIsaTest, ScalarFormatKeepsTheImmediateInTheHighWord) {
  Instruction in;
  in.op = Opcode::kAddi;
  in.rd = 1;
  in.ra = 2;
  in.imm = -2;
  const auto word = EncodeInstruction(in);
  EXPECT_EQ(Low64(word), 5ull | 1ull << 8 | 2ull << 13);
  EXPECT_EQ(High64(word), 0xfffffffffffffffeull);
}

TEST(AsicIsaTest, DmaFormatPlacesDescriptorAfterTheOffsets) {
  Instruction in;
  in.op = Opcode::kDmaLoad;
  in.type = PHAL_ELEMENT_TYPE_BF16;
  in.rm = 7;
  in.r0 = 5;
  in.offset[0] = 0x4000;
  in.descriptor = 2;
  const auto word = EncodeInstruction(in);
  EXPECT_EQ(Low64(word),
            160ull | 11ull << 8 | 7ull << 18 | 5ull << 23 | 0x4000ull << 38);
  EXPECT_EQ(High64(word), 2ull << 18);
}

std::array<uint8_t, 16> Word(uint64_t low, uint64_t high) {
  std::array<uint8_t, 16> word{};
  for (int i = 0; i < 8; ++i) {
    word[i] = static_cast<uint8_t>(low >> (8 * i));
    word[8 + i] = static_cast<uint8_t>(high >> (8 * i));
  }
  return word;
}

TEST(AsicIsaTest, DecodeRejectsUnknownOpcodes) {
  const auto word = Word(0x3f, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(word.data(), 7).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"instruction 7", "unknown opcode 0x3f"}));
}

TEST(AsicIsaTest, DecodeRejectsTypesTheMachineLacks) {
  // vadd with type 13 (f64).
  const auto f64 = Word(64 | 13ull << 8, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(f64.data(), 2).status(),
                      PHAL_INVALID_ARGUMENT,
                      {"instruction 2", "vadd", "f64", "not an element type"}));
  // vadd without a type.
  const auto none = Word(64, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(none.data(), 2).status(),
                      PHAL_INVALID_ARGUMENT, {"type 0"}));
  // add with a type.
  const auto add = Word(4 | 12ull << 23, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(add.data(), 2).status(),
                      PHAL_INVALID_ARGUMENT, {"type is 12", "takes none"}));
  // vadd with a type2.
  const auto type2 = Word(64 | 12ull << 8 | 12ull << 13, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(type2.data(), 2).status(),
                      PHAL_INVALID_ARGUMENT, {"type2"}));
}

TEST(AsicIsaTest, DecodeRejectsReservedBitsAndUnusedFields) {
  const auto reserved = Word(4 | 1ull << 40, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(reserved.data(), 1).status(),
                      PHAL_INVALID_ARGUMENT, {"reserved bits"}));
  // halt with an immediate.
  const auto halt = Word(1, 5);
  EXPECT_TRUE(HasCode(DecodeInstruction(halt.data(), 1).status(),
                      PHAL_INVALID_ARGUMENT, {"imm is 5", "does not use"}));
  // vneg (unary) with offset[2] set.
  const auto vneg = Word(77 | 12ull << 8, 1ull << 20);
  EXPECT_TRUE(HasCode(DecodeInstruction(vneg.data(), 1).status(),
                      PHAL_INVALID_ARGUMENT, {"offset[2]"}));
}

TEST(AsicIsaTest, DecodeRejectsUndefinedFlagsAndOperandRules) {
  // vcmp with direction 6.
  const auto cmp = Word(88 | 12ull << 8 | 6ull << 33, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(cmp.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"instruction 4", "comparison"}));
  // mm with flags bit 1.
  const auto mm = Word(128 | 12ull << 8 | 12ull << 13 | 2ull << 38, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(mm.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"only bit 0"}));
  // mm of s8 x f32.
  const auto mixed = Word(128 | 2ull << 8 | 12ull << 13, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(mixed.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"s8 x f32"}));
  // shli by 64.
  const auto shift = Word(16, 64);
  EXPECT_TRUE(HasCode(DecodeInstruction(shift.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"shift amount 64"}));
  // viota of f32.
  const auto iota = Word(96 | 12ull << 8, 0);
  EXPECT_TRUE(HasCode(DecodeInstruction(iota.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"s32 or s64"}));
  // A branch to a negative target.
  const auto branch = Word(27, ~0ull);
  EXPECT_TRUE(HasCode(DecodeInstruction(branch.data(), 4).status(),
                      PHAL_INVALID_ARGUMENT, {"branch target -1"}));
}

TEST(AsicIsaTest, ValidationRejectsRegistersAndOffsetsThatDoNotFit) {
  Instruction add;
  add.op = Opcode::kAdd;
  add.rd = 32;
  EXPECT_TRUE(HasCode(ValidateInstruction(add, 9, 10, 0), PHAL_INVALID_ARGUMENT,
                      {"instruction 9", "register rd is 32"}));
  Instruction vneg = Extreme(Opcode::kVNeg, true);
  vneg.offset[1] = kMaxOffset + 1;
  EXPECT_TRUE(HasCode(ValidateInstruction(vneg, 0, 1, 0), PHAL_INVALID_ARGUMENT,
                      {"offset[1]", "22 bits"}));
  Instruction flags = Extreme(Opcode::kVCmp, true);
  flags.flags = 0x80;
  EXPECT_FALSE(ValidateInstruction(flags, 0, 1, 0).ok());
}

Program SampleProgram() {
  Program program;
  program.name = "sample_kernel";
  program.descriptors = {{{1024, 1, 0}, {64, 1, 0}},
                         {{-1, std::numeric_limits<int64_t>::max(), 3},
                          {std::numeric_limits<int64_t>::min(), 0, -7}}};
  Instruction li;
  li.op = Opcode::kLi;
  li.rd = 4;
  li.imm = -5;
  Instruction dma = Extreme(Opcode::kDmaLoad, true);
  dma.descriptor = 1;
  Instruction loop;
  loop.op = Opcode::kBlt;
  loop.ra = 4;
  loop.rb = 5;
  loop.imm = 0;
  Instruction halt;
  halt.op = Opcode::kHalt;
  program.instructions = {li, dma, Extreme(Opcode::kMatMul, true), loop, halt};
  program.comments = {{0, "not in the binary"}};
  return program;
}

TEST(AsicIsaTest, ProgramsRoundTripThroughTheBinaryForm) {
  const Program program = SampleProgram();
  const std::string bytes = EncodeProgram(program);
  // 32-byte header, the name padded to 16, 48 bytes per descriptor, 16 per
  // instruction.
  EXPECT_EQ(bytes.size(), 32u + 16u + 2u * 48u + 5u * 16u);
  EXPECT_EQ(bytes.substr(0, 8), "PHALASIC");
  StatusOr<Program> decoded = DecodeProgram(bytes);
  ASSERT_TRUE(IsOk(decoded.status()));
  EXPECT_EQ(decoded->name, program.name);
  EXPECT_EQ(decoded->descriptors, program.descriptors);
  EXPECT_EQ(decoded->instructions, program.instructions);
  EXPECT_TRUE(decoded->comments.empty());
}

TEST(AsicIsaTest, DecodeProgramRejectsTruncatedAndTrailingBytes) {
  const std::string bytes = EncodeProgram(SampleProgram());
  EXPECT_TRUE(HasCode(
      DecodeProgram(bytes.substr(0, bytes.size() - 1)).status(),
      PHAL_INVALID_ARGUMENT,
      {"truncated at byte offset " + std::to_string(bytes.size() - 1)}));
  EXPECT_TRUE(HasCode(DecodeProgram(bytes.substr(0, 20)).status(),
                      PHAL_INVALID_ARGUMENT, {"truncated header"}));
  EXPECT_TRUE(HasCode(DecodeProgram(bytes + "x").status(),
                      PHAL_INVALID_ARGUMENT, {"1 bytes after"}));
  std::string magic = bytes;
  magic[0] = 'X';
  EXPECT_TRUE(HasCode(DecodeProgram(magic).status(), PHAL_INVALID_ARGUMENT,
                      {"bad magic"}));
  std::string version = bytes;
  version[8] = 2;
  EXPECT_TRUE(HasCode(DecodeProgram(version).status(), PHAL_INVALID_ARGUMENT,
                      {"format version 2"}));
  std::string header = bytes;
  header[12] = 16;
  EXPECT_TRUE(HasCode(DecodeProgram(header).status(), PHAL_INVALID_ARGUMENT,
                      {"header size"}));
  std::string reserved = bytes;
  reserved[28] = 1;
  EXPECT_TRUE(HasCode(DecodeProgram(reserved).status(), PHAL_INVALID_ARGUMENT,
                      {"reserved word"}));
  std::string padding = bytes;
  padding[32 + 14] = 1;
  EXPECT_TRUE(HasCode(DecodeProgram(padding).status(), PHAL_INVALID_ARGUMENT,
                      {"padding at byte offset 46"}));
}

TEST(AsicIsaTest, DecodeProgramNamesTheInstructionAndByteOffsetAtFault) {
  const uint64_t instructions_at = 32 + 16 + 2 * 48;
  std::string bytes = EncodeProgram(SampleProgram());
  // Instruction 3 (blt) jumps to 5, one past the end.
  std::string branch = bytes;
  branch[instructions_at + 3 * 16 + 8] = 5;
  EXPECT_TRUE(HasCode(DecodeProgram(branch).status(), PHAL_INVALID_ARGUMENT,
                      {"byte offset " + std::to_string(instructions_at + 48),
                       "instruction 3", "branch target 5"}));
  // Instruction 1 (dma.ld) names descriptor d2 of two.
  std::string descriptor = bytes;
  descriptor[instructions_at + 16 + 10] = 2 << 2;
  EXPECT_TRUE(HasCode(DecodeProgram(descriptor).status(), PHAL_INVALID_ARGUMENT,
                      {"instruction 1", "descriptor d2 is out of range"}));
  std::string opcode = bytes;
  opcode[instructions_at + 4 * 16] = static_cast<char>(0xff);
  EXPECT_TRUE(HasCode(DecodeProgram(opcode).status(), PHAL_INVALID_ARGUMENT,
                      {"instruction 4", "unknown opcode 0xff"}));
}

TEST(AsicIsaTest, ConfigurationParsesEveryKeyWithSuffixes) {
  ArchConfig config;
  ASSERT_TRUE(IsOk(ParseArchConfig(
      "sram=8M, array=16,lanes=128,clock=1500,dma=32,latency=100,queue=4,"
      "dram=1G",
      &config)));
  EXPECT_EQ(config.sram_bytes, 8ull << 20);
  EXPECT_EQ(config.array_size, 16u);
  EXPECT_EQ(config.vector_lanes, 128u);
  EXPECT_EQ(config.clock_mhz, 1500u);
  EXPECT_EQ(config.dma_bytes_per_cycle, 32u);
  EXPECT_EQ(config.dma_latency_cycles, 100u);
  EXPECT_EQ(config.queue_depth, 4u);
  EXPECT_EQ(config.dram_bytes, 1ull << 30);
  ASSERT_TRUE(IsOk(ParseArchConfig("sram=512K", &config)));
  EXPECT_EQ(config.sram_bytes, 512ull << 10);
  EXPECT_EQ(config.array_size, 16u);  // the rest is kept
  ASSERT_TRUE(IsOk(ParseArchConfig("", &config)));
}

TEST(AsicIsaTest, ConfigurationErrorsNameTheKeyAndTheText) {
  ArchConfig config;
  EXPECT_TRUE(HasCode(ParseArchConfig("sram=4X", &config),
                      PHAL_INVALID_ARGUMENT, {"sram='4X'", "not a number"}));
  EXPECT_TRUE(HasCode(ParseArchConfig("array=32,speed=3", &config),
                      PHAL_INVALID_ARGUMENT, {"unknown key 'speed'"}));
  EXPECT_TRUE(HasCode(ParseArchConfig("sram=2G", &config),
                      PHAL_INVALID_ARGUMENT, {"sram='2G'", "outside"}));
  EXPECT_TRUE(HasCode(ParseArchConfig("queue=0", &config),
                      PHAL_INVALID_ARGUMENT, {"queue='0'"}));
  EXPECT_TRUE(HasCode(ParseArchConfig("lanes", &config), PHAL_INVALID_ARGUMENT,
                      {"'lanes' is not key=value"}));
  // A failed parse leaves the configuration as it was.
  EXPECT_EQ(config.array_size, ArchConfig().array_size);
}

TEST(AsicIsaTest, ConfigurationPrintsWhatItParses) {
  EXPECT_EQ(ArchConfigToString(ArchConfig()),
            "sram=4M,array=32,lanes=64,clock=1000,dma=64,latency=256,"
            "queue=32,dram=16G,link=32,link_latency=1000");
  ArchConfig config;
  config.sram_bytes = 1000;
  config.dram_bytes = 3ull << 10;
  config.dma_latency_cycles = 0;
  const std::string text = ArchConfigToString(config);
  EXPECT_EQ(text,
            "sram=1000,array=32,lanes=64,clock=1000,dma=64,latency=0,"
            "queue=32,dram=3K,link=32,link_latency=1000");
  ArchConfig parsed;
  ASSERT_TRUE(IsOk(ParseArchConfig(text, &parsed)));
  EXPECT_EQ(ArchConfigToString(parsed), text);
  EXPECT_EQ(parsed.sram_bytes, 1000u);
  EXPECT_EQ(parsed.dram_bytes, 3ull << 10);
}

TEST(AsicIsaTest, TheInterconnectIsPartOfTheArchitecture) {
  ArchConfig config;
  ASSERT_TRUE(IsOk(ParseArchConfig("link=16,link_latency=200", &config)));
  EXPECT_EQ(config.link_bytes_per_cycle, 16u);
  EXPECT_EQ(config.link_latency_cycles, 200u);
  EXPECT_TRUE(HasCode(ParseArchConfig("link=0", &config), PHAL_INVALID_ARGUMENT,
                      {"link='0'"}));
  EXPECT_TRUE(HasCode(ParseArchConfig("links=2", &config),
                      PHAL_INVALID_ARGUMENT,
                      {"unknown key 'links'", "link, link_latency"}));
}

TEST(AsicIsaTest, ALinkTransferCostsItsLatencyAndOneCyclePerBeat) {
  ArchConfig config;
  config.link_bytes_per_cycle = 16;
  config.link_latency_cycles = 200;
  EXPECT_EQ(LinkTransferCycles(config, 0), 0u);
  EXPECT_EQ(LinkTransferCycles(config, 1), 201u);
  EXPECT_EQ(LinkTransferCycles(config, 16), 201u);
  EXPECT_EQ(LinkTransferCycles(config, 17), 202u);
  EXPECT_EQ(LinkTransferCycles(config, 1 << 20), 200u + (1u << 16));
}

}  // namespace
}  // namespace phal::asic_ref
