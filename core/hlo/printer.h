// Prints HLO IR as XLA HLO text that core/frontend/hlo_parser.h reads back
// to an Identical() module.
#ifndef POLYHAL_CORE_HLO_PRINTER_H_
#define POLYHAL_CORE_HLO_PRINTER_H_

#include <string>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"

namespace phal {

// The whole module: header, then each computation, callees first. Any module
// prints, but only a verified one is guaranteed to read back.
std::string HloModuleToText(const HloModule& module);

// One computation: "%name (p: f32[]) -> f32[] { ... }", with ENTRY when it is
// its module's entry computation.
std::string HloComputationToText(const HloComputation& computation);

// One instruction line without indentation or ROOT:
// "%add.1 = f32[2] add(%x, %y)".
std::string HloInstructionToText(const HloInstruction& instruction);

// A literal as it appears inside constant(...): "1.5", "{ {1, 2}, {3, 4} }",
// "(1, 2)" for a complex scalar, "( {1}, true )" for a tuple. Floating-point
// values are printed with the fewest digits that read back to the same bits
// (NaN payloads aside).
std::string LiteralToText(const Literal& literal);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_PRINTER_H_
