// What the interpreter's parts share to check kernels and to walk their
// buffers: the error every validation failure becomes, and row-major index
// arithmetic.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KERNEL_CHECKS_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KERNEL_CHECKS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/element_semantics/row_major.h"

namespace phal::kir_interpreter {

// "kernel NAME: message" (INVALID_ARGUMENT), the form of every complaint
// about a malformed kernel.
Status KernelError(const phal_kernel_desc_t& kernel,
                   const std::string& message);

// "[2,3]".
std::string DimsText(std::span<const int64_t> dims);

// The dims of a buffer (validated: dims present for its rank).
std::span<const int64_t> BufferDims(const phal_kir_buffer_t& buffer);

using element_semantics::ElementCount;
using element_semantics::NextIndex;

// Strides, in elements, of a dense row-major array of `dims`.
std::vector<int64_t> RowMajorStrides(std::span<const int64_t> dims);

// Writes, for the `count` consecutive row-major positions of `dims` from
// linear position `start`, the index along each dimension d into
// indices[d][0 .. count).
void FillRowMajorIndices(std::span<const int64_t> dims, int64_t start,
                         int64_t count, std::span<int64_t* const> indices);

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_KERNEL_CHECKS_H_
