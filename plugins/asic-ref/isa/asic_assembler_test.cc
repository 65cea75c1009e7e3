// The asic-ref assembly text: what the disassembler prints, that the
// assembler reads it back to the same program, and where assembly errors
// point.
#include "isa/asic_assembler.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::asic_ref {
namespace {

using ::phal::plugin_testing::HasCode;
using ::phal::plugin_testing::IsOk;

Instruction Make(Opcode op) {
  Instruction in;
  in.op = op;
  return in;
}

TEST(AsicAssemblerTest, DisassemblesEachOperandShapeReadably) {
  Instruction vadd = Make(Opcode::kVAdd);
  vadd.type = PHAL_ELEMENT_TYPE_F32;
  vadd.rb = 3;
  vadd.rn = 5;
  vadd.offset = {0x100, 0, 0x80, 0};
  EXPECT_EQ(DisassembleInstruction(vadd),
            "vadd.f32 [x3+0x100], [x3+0x0], [x3+0x80], n=x5");

  Instruction dma = Make(Opcode::kDmaLoad);
  dma.type = PHAL_ELEMENT_TYPE_BF16;
  dma.rm = 7;
  dma.r0 = 5;
  dma.r1 = 6;
  dma.offset[0] = 0x4000;
  dma.descriptor = 2;
  EXPECT_EQ(DisassembleInstruction(dma),
            "dma.ld.bf16 [x0+0x4000], dram[x7], box=(x5, x6, x0), d2");
  dma.op = Opcode::kDmaStore;
  EXPECT_EQ(DisassembleInstruction(dma),
            "dma.st.bf16 dram[x7], [x0+0x4000], box=(x5, x6, x0), d2");

  Instruction mm = Make(Opcode::kMatMul);
  mm.type = mm.type2 = PHAL_ELEMENT_TYPE_BF16;
  mm.rm = 4;
  mm.rk = 5;
  mm.rn = 6;
  mm.offset = {0, 0x8000, 0x10000, 0};
  mm.flags = kMatMulZeroFlag;
  EXPECT_EQ(DisassembleInstruction(mm),
            "mm.bf16.bf16 [x0+0x0], [x0+0x8000], [x0+0x10000], m=x4, k=x5, "
            "n=x6, zero");

  Instruction cmp = Make(Opcode::kVCmp);
  cmp.type = PHAL_ELEMENT_TYPE_F32;
  cmp.flags = CompareFlags(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_TOTALORDER);
  cmp.rn = 1;
  EXPECT_EQ(DisassembleInstruction(cmp),
            "vcmp.f32.lt.totalorder [x0+0x0], [x0+0x0], [x0+0x0], n=x1");

  Instruction cvt = Make(Opcode::kVCvt);
  cvt.type = PHAL_ELEMENT_TYPE_BF16;
  cvt.type2 = PHAL_ELEMENT_TYPE_F32;
  EXPECT_EQ(DisassembleInstruction(cvt),
            "vcvt.bf16.f32 [x0+0x0], [x0+0x0], n=x0");

  Instruction ld = Make(Opcode::kLd);
  ld.rd = 1;
  ld.imm = 8;
  EXPECT_EQ(DisassembleInstruction(ld), "ld x1, [x0+8]");
  Instruction ste = Make(Opcode::kSte);
  ste.type = PHAL_ELEMENT_TYPE_S16;
  ste.ra = 2;
  ste.rb = 9;
  ste.imm = -6;
  EXPECT_EQ(DisassembleInstruction(ste), "ste.s16 x9, [x2-6]");

  Instruction blt = Make(Opcode::kBlt);
  blt.ra = 4;
  blt.rb = 5;
  blt.imm = 3;
  EXPECT_EQ(DisassembleInstruction(blt), "blt x4, x5, 3");
  EXPECT_EQ(DisassembleInstruction(Make(Opcode::kHalt)), "halt");

  Instruction gather = Make(Opcode::kDmaGather);
  gather.type = PHAL_ELEMENT_TYPE_S32;
  gather.rb = 1;
  gather.rm = 2;
  gather.r0 = 3;
  gather.offset = {0x40, 0x80, 0, 0};
  EXPECT_EQ(DisassembleInstruction(gather),
            "dma.gather.s32 [x1+0x40], dram[x2], idx=[x1+0x80], n=x3");

  Instruction rp = Make(Opcode::kVReducePrecision);
  rp.type = PHAL_ELEMENT_TYPE_F32;
  rp.offset = {0, 0x20, 5, 10};
  rp.rn = 2;
  EXPECT_EQ(DisassembleInstruction(rp),
            "vreduceprec.f32 [x0+0x0], [x0+0x20], e=5, m=10, n=x2");
}

// One valid instruction of every opcode, with assorted field values.
Program EveryOpcode() {
  Program program;
  program.name = "every_opcode";
  program.descriptors = {{{1, 2, 3}, {-4, 5, 6}}, {{0, 0, 0}, {0, 0, 0}}};
  uint8_t r = 1;
  for (int value = 0; value < 256; ++value) {
    const auto op = static_cast<Opcode>(value);
    if (OpcodeName(op) == nullptr) continue;
    Instruction in = Make(op);
    auto reg = [&] {
      r = static_cast<uint8_t>(r % 31 + 1);
      return r;
    };
    if (OpcodeUsesType(op)) {
      in.type =
          op == Opcode::kVIota ? PHAL_ELEMENT_TYPE_S64 : PHAL_ELEMENT_TYPE_F16;
    }
    if (OpcodeUsesType2(op)) in.type2 = PHAL_ELEMENT_TYPE_F32;
    switch (OpcodeOperands(op)) {
      case Operands::kNone:
        break;
      case Operands::kRdImm:
        in.rd = reg();
        in.imm = std::numeric_limits<int64_t>::min();
        break;
      case Operands::kRdRaRb:
        in.rd = reg();
        in.ra = reg();
        in.rb = reg();
        break;
      case Operands::kRdRaImm:
      case Operands::kLoad:
        in.rd = reg();
        in.ra = reg();
        in.imm = op == Opcode::kShli || op == Opcode::kShri ? 63 : -123;
        break;
      case Operands::kStore:
        in.ra = reg();
        in.rb = reg();
        in.imm = 4096;
        break;
      case Operands::kBranch:
        in.ra = reg();
        in.rb = reg();
        in.imm = static_cast<int64_t>(program.instructions.size()) / 2;
        break;
      case Operands::kJump:
        in.imm = 0;
        break;
      case Operands::kVUnary:
      case Operands::kVBinary:
      case Operands::kVTernary:
      case Operands::kVReducePrecision:
        in.rb = reg();
        in.rn = reg();
        in.offset = {kMaxOffset, 0x40, 0x80, 0xc0};
        if (OpcodeOperands(op) == Operands::kVUnary) {
          in.offset[2] = in.offset[3] = 0;
        }
        if (OpcodeOperands(op) == Operands::kVBinary) in.offset[3] = 0;
        if (op == Opcode::kVReducePrecision) in.offset = {0, 0x40, 8, 23};
        if (op == Opcode::kVCmp) {
          in.flags =
              CompareFlags(PHAL_KIR_COMPARE_GE, PHAL_KIR_COMPARISON_UNSIGNED);
        }
        break;
      case Operands::kVScalar:
        in.rb = reg();
        in.rn = reg();
        in.rx = reg();
        in.offset[0] = 0x200;
        break;
      case Operands::kMatMul:
        in.rb = reg();
        in.rm = reg();
        in.rk = reg();
        in.rn = reg();
        in.offset = {0, 0x1000, 0x2000, 0};
        in.flags = kMatMulZeroFlag;
        break;
      case Operands::kDmaBox:
        in.rb = reg();
        in.rm = reg();
        in.r0 = reg();
        in.r2 = reg();
        in.offset[0] = 0x300;
        in.descriptor = 1;
        break;
      case Operands::kDmaIndirect:
        in.rb = reg();
        in.rm = reg();
        in.r0 = reg();
        in.offset = {0x10, 0x20, 0, 0};
        break;
    }
    program.instructions.push_back(in);
  }
  program.comments = {{0, "first"},
                      {3, ""},
                      {3, "  indented; with a semicolon"},
                      {static_cast<uint32_t>(program.instructions.size()),
                       "after the last instruction"}};
  return program;
}

TEST(AsicAssemblerTest, EveryOpcodeRoundTripsThroughText) {
  const Program program = EveryOpcode();
  ASSERT_TRUE(IsOk(ValidateProgram(program)));
  const std::string text = Disassemble(program);
  StatusOr<Program> assembled = Assemble(text, "every.s");
  ASSERT_TRUE(IsOk(assembled.status())) << text;
  EXPECT_EQ(assembled->name, program.name);
  EXPECT_EQ(assembled->descriptors, program.descriptors);
  ASSERT_EQ(assembled->instructions.size(), program.instructions.size());
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    EXPECT_EQ(assembled->instructions[i], program.instructions[i])
        << DisassembleInstruction(program.instructions[i]);
  }
  EXPECT_EQ(assembled->comments, program.comments);
  EXPECT_EQ(Disassemble(*assembled), text);
}

// A valid instruction of a random opcode with random field values.
Instruction RandomInstruction(std::mt19937_64& random, size_t count,
                              size_t descriptors) {
  static const std::vector<Opcode> kOpcodes = [] {
    std::vector<Opcode> ops;
    for (int value = 0; value < 256; ++value) {
      const auto op = static_cast<Opcode>(value);
      if (OpcodeName(op) != nullptr) ops.push_back(op);
    }
    return ops;
  }();
  constexpr phal_element_type_t kFloats[] = {
      PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F32};
  Instruction in;
  in.op = kOpcodes[random() % kOpcodes.size()];
  if (in.op == Opcode::kDmaLoad || in.op == Opcode::kDmaStore) {
    if (descriptors == 0) in.op = Opcode::kDmaGather;
  }
  auto reg = [&] { return static_cast<uint8_t>(random() % 32); };
  auto offset = [&] {
    return static_cast<uint32_t>(random() % (kMaxOffset + 1));
  };
  auto imm = [&] { return static_cast<int64_t>(random()) >> (random() % 64); };
  if (OpcodeUsesType(in.op)) {
    in.type = static_cast<phal_element_type_t>(1 + random() % 12);
  }
  if (OpcodeUsesType2(in.op)) {
    in.type2 = static_cast<phal_element_type_t>(1 + random() % 12);
  }
  switch (OpcodeOperands(in.op)) {
    case Operands::kNone:
      break;
    case Operands::kRdImm:
      in.rd = reg();
      in.imm = imm();
      break;
    case Operands::kRdRaRb:
      in.rd = reg();
      in.ra = reg();
      in.rb = reg();
      break;
    case Operands::kRdRaImm:
    case Operands::kLoad:
      in.rd = reg();
      in.ra = reg();
      in.imm = in.op == Opcode::kShli || in.op == Opcode::kShri
                   ? static_cast<int64_t>(random() % 64)
                   : imm();
      break;
    case Operands::kStore:
      in.ra = reg();
      in.rb = reg();
      in.imm = imm();
      break;
    case Operands::kBranch:
      in.ra = reg();
      in.rb = reg();
      in.imm = static_cast<int64_t>(random() % count);
      break;
    case Operands::kJump:
      in.imm = static_cast<int64_t>(random() % count);
      break;
    case Operands::kVUnary:
    case Operands::kVBinary:
    case Operands::kVTernary:
    case Operands::kVReducePrecision: {
      in.rb = reg();
      in.rn = reg();
      const int used = OpcodeOperands(in.op) == Operands::kVUnary    ? 2
                       : OpcodeOperands(in.op) == Operands::kVBinary ? 3
                                                                     : 4;
      for (int i = 0; i < used; ++i) in.offset[i] = offset();
      if (in.op == Opcode::kVCmp) {
        in.flags = CompareFlags(static_cast<uint32_t>(random() % 6),
                                static_cast<uint32_t>(random() % 4));
      }
      break;
    }
    case Operands::kVScalar:
      in.rb = reg();
      in.rn = reg();
      in.rx = reg();
      in.offset[0] = offset();
      if (in.op == Opcode::kVIota) {
        in.type = random() % 2 ? PHAL_ELEMENT_TYPE_S32 : PHAL_ELEMENT_TYPE_S64;
      }
      break;
    case Operands::kMatMul:
      in.rb = reg();
      in.rm = reg();
      in.rk = reg();
      in.rn = reg();
      for (int i = 0; i < 3; ++i) in.offset[i] = offset();
      in.flags = static_cast<uint8_t>(random() % 2);
      in.type = kFloats[random() % 3];
      in.type2 = kFloats[random() % 3];
      if (random() % 4 == 0) in.type = in.type2 = PHAL_ELEMENT_TYPE_S8;
      break;
    case Operands::kDmaBox:
      in.rb = reg();
      in.rm = reg();
      in.r0 = reg();
      in.r1 = reg();
      in.r2 = reg();
      in.offset[0] = offset();
      in.descriptor = static_cast<uint16_t>(random() % descriptors);
      break;
    case Operands::kDmaIndirect:
      in.rb = reg();
      in.rm = reg();
      in.r0 = reg();
      in.offset[0] = offset();
      in.offset[1] = offset();
      break;
  }
  return in;
}

TEST(AsicAssemblerTest, RandomProgramsRoundTripThroughTextAndBinary) {
  std::mt19937_64 random(2024);
  for (int iteration = 0; iteration < 300; ++iteration) {
    Program program;
    program.name = "random_" + std::to_string(iteration);
    const size_t descriptors = random() % 3;
    for (size_t d = 0; d < descriptors; ++d) {
      DmaDescriptor descriptor;
      for (int i = 0; i < 3; ++i) {
        descriptor.dram_strides[i] = static_cast<int64_t>(random());
        descriptor.sram_strides[i] = static_cast<int64_t>(random()) >> 40;
      }
      program.descriptors.push_back(descriptor);
    }
    const size_t count = 1 + random() % 40;
    for (size_t i = 0; i < count; ++i) {
      program.instructions.push_back(
          RandomInstruction(random, count, descriptors));
    }
    ASSERT_TRUE(IsOk(ValidateProgram(program)));
    const std::string text = Disassemble(program);
    StatusOr<Program> assembled = Assemble(text, "random.s");
    ASSERT_TRUE(IsOk(assembled.status())) << text;
    EXPECT_EQ(assembled->instructions, program.instructions) << text;
    EXPECT_EQ(assembled->descriptors, program.descriptors);
    StatusOr<Program> decoded = DecodeProgram(EncodeProgram(program));
    ASSERT_TRUE(IsOk(decoded.status()));
    EXPECT_EQ(decoded->instructions, program.instructions);
    EXPECT_EQ(decoded->descriptors, program.descriptors);
  }
}

// A GEMM tile loop as the documentation shows it.
constexpr char kGemmText[] =
    R"(.kernel gemm_bf16_128x128x256
.desc d0 dram=(256, 1, 0) sram=(256, 1, 0)
.desc d1 dram=(128, 1, 0) sram=(128, 1, 0)
; x1 = A, x2 = B, x3 = C (DRAM addresses from the argument area)
  ld x1, [x0+0]
  ld x2, [x0+8]
  ld x3, [x0+16]
  li x4, 128
  li x5, 256
  li x6, 128
; A and B into SRAM, C = A x B, C out
  dma.ld.bf16 [x0+0x1000], dram[x1], box=(x4, x5, x0), d0
  dma.ld.bf16 [x0+0x11000], dram[x2], box=(x5, x6, x0), d1
  mm.bf16.bf16 [x0+0x21000], [x0+0x1000], [x0+0x11000], m=x4, k=x5, n=x6, zero
  dma.st.f32 dram[x3], [x0+0x21000], box=(x4, x6, x0), d1
  halt
)";

TEST(AsicAssemblerTest, AHandWrittenKernelPrintsAsWritten) {
  StatusOr<Program> program = Assemble(kGemmText, "gemm.s");
  ASSERT_TRUE(IsOk(program.status()));
  EXPECT_EQ(program->name, "gemm_bf16_128x128x256");
  ASSERT_EQ(program->instructions.size(), 11u);
  EXPECT_EQ(program->instructions[8].op, Opcode::kMatMul);
  EXPECT_EQ(program->instructions[8].offset[2], 0x11000u);
  EXPECT_EQ(program->descriptors[0].dram_strides[0], 256);
  EXPECT_EQ(Disassemble(*program), kGemmText);
}

TEST(AsicAssemblerTest, MultiLineCommentsPrintAsOneCommentLineEach) {
  Program program;
  program.instructions = {Make(Opcode::kHalt)};
  program.comments = {{0, "first\nsecond"}};
  const std::string text = Disassemble(program);
  EXPECT_EQ(text, ".kernel\n; first\n; second\n  halt\n");
  StatusOr<Program> assembled = Assemble(text, "comments.s");
  ASSERT_TRUE(IsOk(assembled.status()));
  EXPECT_EQ(assembled->comments, (std::vector<std::pair<uint32_t, std::string>>{
                                     {0, "first"}, {0, "second"}}));
}

TEST(AsicAssemblerTest, LabelsNumbersAndTrailingCommentsAreAccepted) {
  StatusOr<Program> program = Assemble(
      "  li x1, 0x10          ; sixteen\n"
      "  li x2, -3\n"
      "loop: addi x2, x2, 1\n"
      "  blt x2, x1, loop\n"
      "  bne x2, x0, 0\n"
      "  jmp done\n"
      "done:\n"
      "  halt\n",
      "labels.s");
  ASSERT_TRUE(IsOk(program.status()));
  EXPECT_EQ(program->instructions[0].imm, 16);
  EXPECT_EQ(program->instructions[1].imm, -3);
  EXPECT_EQ(program->instructions[3].imm, 2);
  EXPECT_EQ(program->instructions[4].imm, 0);
  EXPECT_EQ(program->instructions[5].imm, 6);
  // Labels print as L<target> at branch targets.
  EXPECT_NE(Disassemble(*program).find("L2:\n  addi x2, x2, 1\n"
                                       "  blt x2, x1, L2\n"),
            std::string::npos);
}

struct ErrorCase {
  const char* text;
  const char* position;  // "line:column"
  const char* message;
};

TEST(AsicAssemblerTest, ErrorsNameTheSourceLineAndColumn) {
  const ErrorCase cases[] = {
      {"  vadd.f32 [x1+0x0], [x1+0x4], [x1+0x8], n=x2\n  vfoo x1\n", "2:3",
       "unknown instruction 'vfoo'"},
      {"  add x1, x2, x32\n", "1:15", "expected a register"},
      {"  vadd.f32 [x1+0x0], [x2+0x4], [x1+0x8], n=x2\n", "1:23",
       "one base register"},
      {"  jmp nowhere\n", "1:7", "undefined label 'nowhere'"},
      {"a:\na: halt\n", "2:1", "label 'a' is defined twice"},
      {"  vadd [x1+0x0], [x1+0x4], [x1+0x8], n=x2\n", "1:3",
       "needs an element type"},
      {"  vadd.f64 [x1+0x0], [x1+0x4], [x1+0x8], n=x2\n", "1:8",
       "'f64' is not an element type"},
      {"  vneg.f32 [x1+0x400000], [x1+0x4], n=x2\n", "1:16",
       "SRAM offset 4194304 is outside"},
      {"  halt x1\n", "1:8", "unexpected 'x1'"},
      {".desc d1 dram=(1, 1, 1) sram=(1, 1, 1)\n", "1:7",
       "expected descriptor d0"},
      {"  vcmp.f32.lt [x1+0x0], [x1+0x4], [x1+0x8], n=x2\n", "1:3",
       "comparison type"},
      {"  vadd.f32.s32 [x1+0x0], [x1+0x4], [x1+0x8], n=x2\n", "1:12",
       "unexpected suffix 's32'"},
      {"  li x1\n", "1:8", "expected ','"},
      {"  li x1, 99999999999999999999\n", "1:10", "out of range"},
      {"  jmp 5\n", "1:1", "branch target 5"},
      {"  dma.ld.f32 [x0+0x0], dram[x1], box=(x1, x2, x3), d0\n", "1:1",
       "descriptor d0 is out of range"},
      {".section text\n", "1:1", "unknown directive '.section'"},
      {"  mm.f32.f32 [x0+0x0], [x0+0x0], [x0+0x0], m=x1, k=x2, n=x3, one\n",
       "1:62", "expected 'zero'"},
  };
  for (const ErrorCase& c : cases) {
    const Status status = Assemble(c.text, "kernel.s").status();
    EXPECT_TRUE(
        HasCode(status, PHAL_INVALID_ARGUMENT,
                {std::string("kernel.s:") + c.position + ": ", c.message}))
        << c.text;
  }
}

}  // namespace
}  // namespace phal::asic_ref
