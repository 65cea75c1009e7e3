// The reference interpreter: the oracle the conformance suite certifies
// plugins against. It runs the HLO IR directly with the StableHLO
// specification's semantics for every op and element type; transcendental
// functions are computed in double and rounded to the element type. Where
// the specification leaves a result open, docs/hlo.md ("Reference
// semantics") says what this interpreter does.
#ifndef POLYHAL_CORE_REFERENCE_INTERPRETER_H_
#define POLYHAL_CORE_REFERENCE_INTERPRETER_H_

#include <vector>

#include "core/hlo/literal.h"
#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// Runs the entry computation of `module` with parameter i bound to
// arguments[i] and returns the root's value (a tuple literal when the root
// is a tuple). The module is verified first (VerifyModule); arguments must
// match the parameters' shapes (layouts aside).
// Thread-safe: concurrent calls on one module are allowed.
StatusOr<Literal> Evaluate(const HloModule& module,
                           const std::vector<Literal>& arguments);

}  // namespace phal

#endif  // POLYHAL_CORE_REFERENCE_INTERPRETER_H_
