// Object files compiled for the host CPU -> callable code: one process-wide
// ORC LLJIT shared by every user of the toolkit (the cpu plugin's kernels,
// the grid emulator's). Each object is linked into a library of its own, so
// unloading one frees only its code, and its undefined symbols resolve only
// against the list it is loaded with, never against the process: a kernel
// that calls a function nobody listed fails to load instead of running
// whatever the process happens to export under that name.
//
// Thread-safe: objects may be loaded and unloaded from many threads at once.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_HOST_JIT_H_
#define POLYHAL_SDK_EMITTERS_LLVM_HOST_JIT_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace phal::llvm_emitter {

// Code loaded by LoadHostObject; it stays valid until UnloadHostObject.
struct HostJitCode {
  void* entry = nullptr;  // the address of the entry symbol
  uint64_t library_id = 0;
};

// Links `object` (a relocatable object file for the host CPU, as
// HostCpuTarget::Compile makes) into a new library whose undefined symbols
// resolve against `symbols` only, and returns the address of
// `entry_symbol`. Fails with UNAVAILABLE when the JIT cannot start, and
// INTERNAL when the object does not link (an unresolved symbol among them).
StatusOr<HostJitCode> LoadHostObject(std::string_view object,
                                     std::string_view entry_symbol,
                                     std::span<const RuntimeSymbol> symbols);

// Frees the library of `code`; its entry must not be running or called
// again. Unloading code that was never loaded does nothing.
void UnloadHostObject(const HostJitCode& code);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_HOST_JIT_H_
