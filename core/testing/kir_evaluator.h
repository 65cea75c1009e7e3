// The KIR evaluator: runs a kernel description on host buffers with exactly
// the semantics kernel.h defines. It is the oracle the compiler's tests use
// to check partitioning against the reference interpreter, and a model a
// plugin author can compare an emitter with. Every scalar operation is
// computed by the reference interpreter's implementation of the HLO op of
// the same semantics, evaluated over all iteration points at once.
#ifndef POLYHAL_CORE_TESTING_KIR_EVALUATOR_H_
#define POLYHAL_CORE_TESTING_KIR_EVALUATOR_H_

#include <cstdint>
#include <span>

#include "sdk/base/status.h"
#include "polyhal/kernel.h"

namespace phal {

// Runs `kernel` once. buffers[i] holds the bytes of kernel.buffers[i]
// (dense, row-major). A READ out of bounds, which kernel.h forbids the core
// to emit, is reported as an INTERNAL error naming the kernel and node.
Status EvaluateKernel(const phal_kernel_desc_t& kernel,
                      std::span<uint8_t* const> buffers);

}  // namespace phal

#endif  // POLYHAL_CORE_TESTING_KIR_EVALUATOR_H_
