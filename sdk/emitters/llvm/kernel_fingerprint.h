// A 64-bit hash of everything in a KIR kernel that decides its code: two
// kernels with the same fingerprint compile to the same function. Caches key
// compiled kernels by it (with the target and the compiler's version).
#ifndef POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_
#define POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_

#include <cstdint>

#include "polyhal/kernel.h"

namespace phal::llvm_emitter {

// The kernel's name is left out: it labels logs, not code. Covers the kinds
// SupportedKernelKinds() names; other kinds hash their kind only. `kernel`
// must have passed CheckKernel (kernel_emitter.h). The hash is FNV-1a
// (sdk/base/hash.h): callers extend it into a cache key with Fnv1a.
uint64_t KernelFingerprint(const phal_kernel_desc_t& kernel);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_
