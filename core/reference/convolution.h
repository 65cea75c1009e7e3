// convolution in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_CONVOLUTION_H_
#define POLYHAL_CORE_REFERENCE_CONVOLUTION_H_

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// Evaluates a convolution with any dimension numbers, window strides,
// padding, lhs (base) and rhs (window) dilation, window reversal, feature
// groups and batch groups, as the StableHLO specification defines them:
// feature groups split the input features and the kernel's output features
// into contiguous groups; batch groups split the input batch into
// contiguous groups matched with contiguous groups of output features.
// Accumulation is as for dot (accumulation.h): one rounding per result.
StatusOr<Literal> EvaluateConvolution(const HloInstruction& instruction,
                                      const Literal& lhs, const Literal& rhs);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_CONVOLUTION_H_
