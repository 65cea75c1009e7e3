// The scalar node ops of KIR (every op but the leaves constant, index, read
// and parameter), each as a loop over a batch of points. The op and the
// element types are resolved once, when a body is compiled, to a function
// that runs the whole batch; no per-element dispatch happens at run time.
//
// Semantics are those of the StableHLO op of the same name, computed with
// the functions of sdk/element_semantics that the core's reference
// interpreter computes with too, so results match it bit for bit: real
// floats compute in double and round once to the element type, complex
// values in std::complex<double>, integers wrap, and the cases C++ leaves
// undefined take XLA's choices (x / 0 = -1, INT_MIN / -1 = INT_MIN,
// x % 0 = x, shifts by the width or more shift everything out, float to
// integer conversion saturates and sends NaN to 0).
#ifndef POLYHAL_SDK_KIR_INTERPRETER_SCALAR_OPS_H_
#define POLYHAL_SDK_KIR_INTERPRETER_SCALAR_OPS_H_

#include <cstdint>
#include <span>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/status.h"

namespace phal::kir_interpreter {

// One op over `count` points. Each operand array and the result array hold
// `count` elements in their element type's storage, aligned for it. The
// result never overlaps an operand.
struct ScalarOpArgs {
  const uint8_t* operands[3] = {};
  uint8_t* result = nullptr;
  int64_t count = 0;
  const phal_kir_node_t* node = nullptr;  // for the op's attributes
};
using ScalarOp = void (*)(const ScalarOpArgs& args);

// The function computing `node` from operands of `operand_types` (as many
// as the op takes; node.op and node.type are valid enum values). Fails with
// INVALID_ARGUMENT when the types break the op's rules (operands of
// different types, a result type the op does not produce, a bad
// attribute), and with UNIMPLEMENTED when the op is not defined for the
// element type (sin of an integer, floor of a complex). Messages do not
// name the node; the caller adds where it is.
StatusOr<ScalarOp> SelectScalarOp(const phal_kir_node_t& node,
                                  std::span<const ElementType> operand_types);

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_SCALAR_OPS_H_
