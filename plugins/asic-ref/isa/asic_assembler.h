// The text form of asic-ref programs (docs/plugins/asic-ref.md, "Assembly"):
// Disassemble prints a Program as assembly the assembler reads back to the
// same Program.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ASSEMBLER_H_
#define POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ASSEMBLER_H_

#include <string>

#include "isa/asic_isa.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// One instruction's text, without label or comment ("vadd.f32 [x3+0x100],
// [x3+0x0], [x3+0x80], x5"); branch targets as instruction numbers.
std::string DisassembleInstruction(const Instruction& instruction);

// The whole program: a header naming it, the descriptor table, then one
// instruction per line with labels at branch targets and the program's
// comments.
std::string Disassemble(const Program& program);

// Parses assembly text. Errors name `source_name`, the line and the column
// at fault.
StatusOr<Program> Assemble(const std::string& text,
                           const std::string& source_name);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ASSEMBLER_H_
