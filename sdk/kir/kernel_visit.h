// Dispatching on a kernel's kind: the one switch over phal_kernel_kind_t
// that the emitters share.
#ifndef POLYHAL_SDK_KIR_KERNEL_VISIT_H_
#define POLYHAL_SDK_KIR_KERNEL_VISIT_H_

#include <string>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/kir/facts.h"

namespace phal {

// Calls `visit` with the description of `kernel`'s kind (a
// `const phal_kir_loop_t&`, `const phal_kir_reduce_t&`, ...) and returns
// what it returns; a kind this header does not know (a newer ABI's) is
// passed as the phal_kernel_kind_t itself.
template <typename Visit>
decltype(auto) VisitKernel(const phal_kernel_desc_t& kernel, Visit&& visit) {
  switch (kernel.kind) {
    case PHAL_KERNEL_KIND_LOOP:
      return visit(*kernel.u.loop);
    case PHAL_KERNEL_KIND_REDUCE:
      return visit(*kernel.u.reduce);
    case PHAL_KERNEL_KIND_DOT:
      return visit(*kernel.u.dot);
    case PHAL_KERNEL_KIND_CONV:
      return visit(*kernel.u.conv);
    case PHAL_KERNEL_KIND_GATHER:
      return visit(*kernel.u.gather);
    case PHAL_KERNEL_KIND_SCATTER:
      return visit(*kernel.u.scatter);
    case PHAL_KERNEL_KIND_SORT:
      return visit(*kernel.u.sort);
    case PHAL_KERNEL_KIND_COPY:
      return visit(*kernel.u.copy);
    case PHAL_KERNEL_KIND_FFT:
      return visit(*kernel.u.fft);
    case PHAL_KERNEL_KIND_LINALG:
      return visit(*kernel.u.linalg);
    default:
      return visit(kernel.kind);
  }
}

// The error of `who` (an emitter, a compiler) given a kernel kind it does
// not implement.
inline Status UnimplementedKernelKind(const std::string& who,
                                      phal_kernel_kind_t kind) {
  return Unimplemented(who + " does not implement kernel kind " +
                       KernelKindName(kind));
}

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_KERNEL_VISIT_H_
