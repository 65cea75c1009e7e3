#include "compiler/program_builder.h"

#include <string>

namespace phal::asic_ref {

Instruction ProgramBuilder::MakeScalar(Opcode op, uint8_t rd, uint8_t ra,
                                       uint8_t rb, int64_t imm) {
  Instruction i;
  i.op = op;
  i.rd = rd;
  i.ra = ra;
  i.rb = rb;
  i.imm = imm;
  return i;
}

Label ProgramBuilder::NewLabel() {
  label_targets_.push_back(-1);
  return static_cast<Label>(label_targets_.size() - 1);
}

void ProgramBuilder::Bind(Label label) { label_targets_[label] = size(); }

void ProgramBuilder::Branch(Opcode op, uint8_t ra, uint8_t rb, Label target) {
  fixups_.emplace_back(size(), target);
  Scalar(op, 0, ra, rb, 0);
}

void ProgramBuilder::Vector(Opcode op, phal_element_type_t type, uint32_t d,
                            uint32_t a, uint32_t b, uint32_t c,
                            phal_element_type_t type2, uint8_t flags,
                            uint8_t count) {
  Instruction i;
  i.op = op;
  i.type = type;
  i.type2 = type2;
  i.rb = reg::kZero;
  i.rn = count;
  i.flags = flags;
  i.offset = {d, a, b, c};
  Add(i);
}

void ProgramBuilder::Fill(phal_element_type_t type, uint32_t d,
                          uint8_t value_reg, uint8_t count) {
  Instruction i;
  i.op = Opcode::kVFill;
  i.type = type;
  i.rn = count;
  i.rx = value_reg;
  i.offset[0] = d;
  Add(i);
}

void ProgramBuilder::Iota(uint32_t d, uint8_t start_reg, uint8_t count) {
  Instruction i;
  i.op = Opcode::kVIota;
  i.type = PHAL_ELEMENT_TYPE_S64;
  i.rn = count;
  i.rx = start_reg;
  i.offset[0] = d;
  Add(i);
}

void ProgramBuilder::MatMul(phal_element_type_t a_type,
                            phal_element_type_t b_type, uint32_t acc,
                            uint32_t a, uint32_t b, uint8_t m, uint8_t k,
                            uint8_t n, bool zero) {
  Instruction i;
  i.op = Opcode::kMatMul;
  i.type = a_type;
  i.type2 = b_type;
  i.rm = m;
  i.rk = k;
  i.rn = n;
  i.flags = zero ? 1 : 0;
  i.offset = {acc, a, b, 0};
  Add(i);
}

uint16_t ProgramBuilder::Descriptor(const DmaDescriptor& descriptor) {
  for (size_t i = 0; i < program_.descriptors.size(); ++i) {
    if (program_.descriptors[i] == descriptor) return static_cast<uint16_t>(i);
  }
  program_.descriptors.push_back(descriptor);
  return static_cast<uint16_t>(program_.descriptors.size() - 1);
}

void ProgramBuilder::DmaBox(Opcode op, phal_element_type_t type, uint32_t sram,
                            uint8_t dram_reg, uint8_t r0, uint8_t r1,
                            uint8_t r2, uint16_t descriptor) {
  Instruction i;
  i.op = op;
  i.type = type;
  i.rb = reg::kZero;
  i.rm = dram_reg;
  i.r0 = r0;
  i.r1 = r1;
  i.r2 = r2;
  i.offset[0] = sram;
  i.descriptor = descriptor;
  Add(i);
}

void ProgramBuilder::DmaIndirect(Opcode op, phal_element_type_t type,
                                 uint32_t sram, uint8_t dram_reg,
                                 uint32_t offsets, uint8_t count) {
  Instruction i;
  i.op = op;
  i.type = type;
  i.rb = reg::kZero;
  i.rm = dram_reg;
  i.r0 = count;
  i.offset[0] = sram;
  i.offset[1] = offsets;
  Add(i);
}

void ProgramBuilder::Comment(std::string text) {
  program_.comments.emplace_back(size(), std::move(text));
}

StatusOr<Program> ProgramBuilder::Finish() {
  for (const auto& [index, label] : fixups_) {
    if (label >= label_targets_.size() || label_targets_[label] < 0) {
      return Internal("asic-ref compiler: branch at instruction " +
                      std::to_string(index) + " of " + program_.name +
                      " to an unbound label");
    }
    program_.instructions[index].imm = label_targets_[label];
  }
  return program_;
}

}  // namespace phal::asic_ref
