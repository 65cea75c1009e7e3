// dot (dot_general) in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_DOT_H_
#define POLYHAL_CORE_REFERENCE_DOT_H_

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Evaluates a dot with general dimension numbers. The result's dimensions
// are the batch dimensions, then lhs's free dimensions, then rhs's, each in
// operand order. Products are accumulated in the result type's widest
// domain and rounded once: double for real floats, std::complex<double> for
// complex, 64-bit wraparound arithmetic for integers (so the result wraps
// modulo 2^bits of its type), and/or for pred.
StatusOr<Literal> EvaluateDot(const HloInstruction& instruction,
                              const Literal& lhs, const Literal& rhs);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_DOT_H_
