// Buffer assignment: gives every kernel output of every computation plan a
// slot (a device buffer allocated when the computation starts), sharing
// slots between values whose lifetimes do not overlap, and letting a loop
// kernel write over an input that dies in it when every iteration reads
// that input only at the point it writes (an elementwise update, or a
// dynamic-update-slice of its operand). A scatter updates its operand in
// place when the operand dies in it.
#ifndef POLYHAL_CORE_COMPILER_BUFFER_ASSIGNMENT_H_
#define POLYHAL_CORE_COMPILER_BUFFER_ASSIGNMENT_H_

#include "core/compiler/program.h"

namespace phal {

// Fills leaf_slot and slot_bytes of every computation of `program`, and
// rewrites kernels that update a buffer in place.
void AssignBuffers(Program* program);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_BUFFER_ASSIGNMENT_H_
