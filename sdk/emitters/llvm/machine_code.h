// Optimisation and code generation of a module for one LLVM target machine,
// shared by every target of the toolkit (host CPU, NVPTX, AMDGPU).
#ifndef POLYHAL_SDK_EMITTERS_LLVM_MACHINE_CODE_H_
#define POLYHAL_SDK_EMITTERS_LLVM_MACHINE_CODE_H_

#include <string>

#include <llvm/Support/CodeGen.h>

#include "sdk/base/status.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace phal::llvm_emitter {

// The code generator's level for an optimisation level 0-3.
llvm::CodeGenOpt::Level CodeGenLevel(unsigned optimization_level);

// Sets `module`'s data layout to `machine`'s, runs LLVM's default pipeline
// at `optimization_level` (none at 0) with the machine's own passes, and
// emits the module as `file_type` (an object file or assembly text).
StatusOr<std::string> OptimizeAndEmit(llvm::TargetMachine& machine,
                                      llvm::Module& module,
                                      unsigned optimization_level,
                                      llvm::CodeGenFileType file_type);

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_MACHINE_CODE_H_
