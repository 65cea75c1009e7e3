// Builds a Program instruction by instruction: scalar registers by role,
// labels and forward branches, DMA descriptors (deduplicated), and the
// comments the disassembly shows.
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_PROGRAM_BUILDER_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_PROGRAM_BUILDER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/asic_isa.h"

namespace phal::asic_ref {

// Registers by role. The kernels' loops use x1..x15; x16..x31 are
// temporaries a helper may use between two instructions it emits.
namespace reg {
inline constexpr uint8_t kZero = 0;
inline constexpr uint8_t kLanes = 1;      // lanes of the current tile
inline constexpr uint8_t kFirstLoop = 2;  // loop counters x2..x9
inline constexpr uint8_t kBound = 10;     // loop bounds x10..x15
inline constexpr uint8_t kFirstTemp = 16;
inline constexpr uint8_t kLastTemp = 31;
}  // namespace reg

using Label = uint32_t;

class ProgramBuilder {
 public:
  explicit ProgramBuilder(std::string name) { program_.name = std::move(name); }

  // -- scalar core -----------------------------------------------------------
  void Li(uint8_t rd, int64_t value) { Scalar(Opcode::kLi, rd, 0, 0, value); }
  void Addi(uint8_t rd, uint8_t ra, int64_t imm) {
    Scalar(Opcode::kAddi, rd, ra, 0, imm);
  }
  void Muli(uint8_t rd, uint8_t ra, int64_t imm) {
    Scalar(Opcode::kMuli, rd, ra, 0, imm);
  }
  void Alu(Opcode op, uint8_t rd, uint8_t ra, uint8_t rb) {
    Scalar(op, rd, ra, rb, 0);
  }
  // rd = the DRAM address of kernel buffer `buffer` (from the argument area).
  void LoadBufferAddress(uint8_t rd, uint32_t buffer) {
    Scalar(Opcode::kLd, rd, reg::kZero, 0, int64_t{8} * buffer);
  }
  // rd = the element of `type` at SRAM [base + sram].
  void Lde(phal_element_type_t type, uint8_t rd, uint32_t sram,
           uint8_t base = reg::kZero) {
    Instruction i = MakeScalar(Opcode::kLde, rd, base, 0, sram);
    i.type = type;
    Add(i);
  }
  void Ste(phal_element_type_t type, uint8_t rb, uint32_t sram) {
    Instruction i = MakeScalar(Opcode::kSte, 0, reg::kZero, rb, sram);
    i.type = type;
    Add(i);
  }
  void Fence() { Scalar(Opcode::kFence, 0, 0, 0, 0); }
  void Halt() { Scalar(Opcode::kHalt, 0, 0, 0, 0); }

  // -- control flow ----------------------------------------------------------
  Label NewLabel();
  void Bind(Label label);  // the label names the next instruction
  void Branch(Opcode op, uint8_t ra, uint8_t rb, Label target);
  void Jump(Label target) { Branch(Opcode::kJmp, 0, 0, target); }

  // -- vector unit: every SRAM operand absolute (base x0) --------------------
  void Vector(Opcode op, phal_element_type_t type, uint32_t d, uint32_t a,
              uint32_t b = 0, uint32_t c = 0,
              phal_element_type_t type2 = PHAL_ELEMENT_TYPE_INVALID,
              uint8_t flags = 0, uint8_t count = reg::kLanes);
  void Fill(phal_element_type_t type, uint32_t d, uint8_t value_reg,
            uint8_t count = reg::kLanes);
  void Iota(uint32_t d, uint8_t start_reg, uint8_t count = reg::kLanes);

  // -- matrix unit ------------------------------------------------------------
  void MatMul(phal_element_type_t a_type, phal_element_type_t b_type,
              uint32_t acc, uint32_t a, uint32_t b, uint8_t m, uint8_t k,
              uint8_t n, bool zero);

  // -- DMA
  // ---------------------------------------------------------------------
  uint16_t Descriptor(const DmaDescriptor& descriptor);
  void DmaBox(Opcode op, phal_element_type_t type, uint32_t sram,
              uint8_t dram_reg, uint8_t r0, uint8_t r1, uint8_t r2,
              uint16_t descriptor);
  void DmaIndirect(Opcode op, phal_element_type_t type, uint32_t sram,
                   uint8_t dram_reg, uint32_t offsets, uint8_t count);

  // An instruction as it is (branch targets already resolved).
  void Raw(const Instruction& instruction) { Add(instruction); }

  void Comment(std::string text);
  uint32_t size() const {
    return static_cast<uint32_t>(program_.instructions.size());
  }

  // Resolves branches; every used label must be bound.
  StatusOr<Program> Finish();

 private:
  static Instruction MakeScalar(Opcode op, uint8_t rd, uint8_t ra, uint8_t rb,
                                int64_t imm);
  void Scalar(Opcode op, uint8_t rd, uint8_t ra, uint8_t rb, int64_t imm) {
    Add(MakeScalar(op, rd, ra, rb, imm));
  }
  void Add(const Instruction& instruction) {
    program_.instructions.push_back(instruction);
  }

  Program program_;
  std::vector<int64_t> label_targets_;              // -1 until bound
  std::vector<std::pair<uint32_t, Label>> fixups_;  // instruction, label
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_PROGRAM_BUILDER_H_
