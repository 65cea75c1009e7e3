// The GPU device library: every function the body emitter calls
// (math_library.h; runtime_functions.h but phal_rt_sort) and the exact
// phal_rt_fmod_f32/_f64, as LLVM bitcode that links into NVPTX and AMDGPU
// kernels, so GPU kernels need neither libdevice nor ocml and compute what
// the GLSL dialect's shaders compute: the transcendental functions are the
// GLSL math library (sdk/emitters/source/glsl_math.glsl) and the complex
// functions its complex helpers' formulas. f32 functions evaluate in f64
// and round once. The same source compiled for the host backs
// DeviceLibraryHostSymbols(), so the grid emulator runs the code a GPU runs.
//
// Measured bounds (DeviceLibrary* tests in polyhal_sdk_tests: 2^18 random
// inputs per function plus edge values, against glibc's long double
// functions), in ulp of the result type, with the bound the test enforces:
//
//   function   f32 (bound)     f64 (bound)
//   exp        0.500 (0.501)   0.746 (1)
//   expm1      0.500 (0.501)   0.799 (1)
//   log        0.500 (0.501)   0.500 (1)
//   log1p      0.500 (0.501)   0.500 (1)
//   logistic   0.500 (0.501)   1.500 (2)    1 / (1 + exp(-x))
//   tanh       0.500 (0.501)   0.673 (1)
//   sin        0.500 (0.501)   0.743 (1)
//   cos        0.500 (0.501)   0.710 (1)
//   tan        0.500 (0.501)   0.822 (1)
//   erf        0.500 (0.501)   0.539 (1)
//   cbrt       0.500 (0.501)   0.500 (1)
//   rsqrt      0.500 (0.501)   1.000 (1.5)  1 / sqrt(x)
//   atan2      0.500 (0.501)   0.501 (1)
//   pow        0.500 (0.501)   0.740 (1)
//
// Complex functions (f64), largest error of either part in ulp of the
// larger part of the exact result:
//
//   exp 0.0 (1)  ...
//
// 16-bit rounding, reduce_precision, integer power and fmod are exact and
// equal the host runtime's bit for bit.
//
// Special values follow C99 Annex F for the real functions; the complex
// ones follow the GLSL dialect's formulas, which keep C99 Annex G's special
// cases for exp, division and multiplication within power only.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_LIBRARY_H_
#define POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_LIBRARY_H_

#include <span>
#include <string_view>

#include "sdk/base/status.h"
#include "sdk/emitters/llvm/runtime_functions.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace phal::llvm_emitter {

enum class DeviceTarget { kNvptx64, kAmdgcn };

// The library's bitcode for `target` (nvptx64-nvidia-cuda or
// amdgcn-amd-amdhsa, no target CPU), embedded at build time; empty when the
// SDK was built without clang++-16. Static storage.
std::string_view DeviceLibraryBitcode(DeviceTarget target);

// Links into `module` the library functions it calls (and what they call),
// with internal linkage, so the module calls nothing external of the
// library. The module's triple must name `target`'s architecture; its
// triple and data layout are kept. FailedPrecondition when the SDK has no
// bitcode, NotFound when the module calls a phal_ function the library
// lacks, InvalidArgument when it declares one with another type or targets
// another architecture. The module is unchanged on error.
Status LinkDeviceLibrary(llvm::Module& module, DeviceTarget target);

// The same functions compiled for the host, under the names kernels call
// ("phal_math_exp_f32", ...), for a JIT that runs kernel IR on the CPU
// (the grid emulator). Static storage.
std::span<const RuntimeSymbol> DeviceLibraryHostSymbols();

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_LIBRARY_H_
