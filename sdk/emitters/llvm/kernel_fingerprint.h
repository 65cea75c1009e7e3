// A 64-bit hash of everything in a KIR kernel that decides its code: two
// kernels with the same fingerprint compile to the same function. Caches key
// compiled kernels by it (with the target and the compiler's version).
#ifndef POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_
#define POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_

#include <cstdint>
#include <string_view>

#include "polyhal/kernel.h"

namespace phal::llvm_emitter {

// The kernel's name is left out: it labels logs, not code. Covers the kinds
// SupportedKernelKinds() names; other kinds hash their kind only.
uint64_t KernelFingerprint(const phal_kernel_desc_t& kernel);

// FNV-1a over `bytes`, continuing from `hash`.
uint64_t HashBytes(std::string_view bytes,
                   uint64_t hash = 0xcbf29ce484222325ull);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_KERNEL_FINGERPRINT_H_
