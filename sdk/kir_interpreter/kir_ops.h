// Facts about KIR node ops and kernel kinds the interpreter's checks and
// messages need: names as the text dump spells them and operand counts.
// Enum values arrive from outside (a core, or decoded bytes), so every
// function here takes the raw integer and never loads an out-of-range value
// as the enum.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KIR_OPS_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KIR_OPS_H_

#include <cstdint>
#include <cstring>

#include "polyhal/kernel.h"

namespace phal::kir_interpreter {

// The integer stored in an enum field, read without loading it as the enum.
template <typename Enum>
uint32_t RawEnum(const Enum& field) {
  static_assert(sizeof(Enum) == sizeof(uint32_t), "ABI enums are 32-bit");
  uint32_t value;
  std::memcpy(&value, &field, sizeof(value));
  return value;
}

// "add", "shift_left", ...; "invalid" for a value that is no node op.
const char* KirOpName(uint32_t op);

// Operands a node op takes: 0 for constant, index and parameter, 1, 2 or 3
// for unary, binary and ternary ops; -1 for read (one per buffer dimension)
// and for a value that is no node op.
int KirOpArity(uint32_t op);

// "loop", "reduce", ...; "invalid" for a value that is no kernel kind.
const char* KernelKindName(uint32_t kind);

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_KIR_OPS_H_
