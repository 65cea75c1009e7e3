// KIR kernel -> one LLVM module defining kKernelSymbol (launch_plan.h).
//
// Every kind is emitted as loops over its iteration space whose outermost
// dimension is the function's [begin, end) range, so a runtime splits that
// dimension over threads: LOOP splits dims[0]; REDUCE the first dimension it
// keeps; DOT the rows batch * m; COPY 1 MiB chunks; SORT the slices along
// the sorted dimension; GATHER and CONV the output's dimension 0; SCATTER
// runs as one unit, so its updates never race. Inner loops are plain
// counted loops that LLVM's vectoriser widens for the target's features.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_KERNEL_EMITTER_H_
#define POLYHAL_SDK_EMITTERS_LLVM_KERNEL_EMITTER_H_

#include <memory>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/emitters/llvm/target_hooks.h"
#include "sdk/kir/facts.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

// The kernel kinds EmitKernel implements, as a PHAL_KERNEL_KIND_BIT mask.
uint64_t SupportedKernelKinds();

// The checks EmitKernel makes before it reads `kernel`, for callers that
// read it first (to fingerprint it, say): a kind EmitKernel implements
// (UNIMPLEMENTED naming it otherwise) and a well-formed description
// (CheckKernelStructure, sdk/kir/facts.h; INVALID_ARGUMENT).
Status CheckKernel(const phal_kernel_desc_t& kernel);

struct EmittedKernel {
  std::unique_ptr<llvm::Module> module;
  LaunchPlan plan;
};

// Fails with UNIMPLEMENTED naming the kind, op or element type the emitter
// does not support, and INVALID_ARGUMENT for a malformed kernel.
StatusOr<EmittedKernel> EmitKernel(const phal_kernel_desc_t& kernel,
                                   const TargetHooks& target,
                                   llvm::LLVMContext& context);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_KERNEL_EMITTER_H_
