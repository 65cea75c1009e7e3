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
// Measured bounds (DeviceLibrary* tests in polyhal_sdk_tests, on the host
// copies: 2^18 random inputs per function plus edge values, against glibc's
// long double functions), in ulp of the result type, with the bound the
// tests enforce:
//
//   function   f32 measured (bound)    f64 measured (bound)
//   exp        0.500 (0.5 + 2^-20)     0.737 (1)
//   expm1      0.500                   0.789 (1)
//   log        0.500                   0.500 (1)
//   log1p      0.500                   0.500 (1)
//   logistic   0.500                   1.937 (2)    1 / (1 + exp(-x))
//   tanh       0.500                   0.617 (1)
//   sin        0.500                   0.683 (1)
//   cos        0.500                   0.710 (1)
//   tan        0.500                   0.778 (1)
//   erf        0.500                   0.537 (1)
//   cbrt       0.500                   0.500 (1)
//   rsqrt      0.500                   1.470 (1.5)  1 / sqrt(x)
//   atan2      0.500                   0.500 (1)
//   pow        0.500                   0.599 (1)
//
// Every f32 result is correctly rounded but at near-ties. Below x == -709.78
// logistic's exp(-x) overflows and the result is 0 (as the host library's
// and the GLSL dialect's), where the exact value is subnormal.
//
// Complex functions (f64; 2^16 random operands with parts of magnitude
// 2^-20 to 2^9, or up to 2^1000 where the function allows), the larger
// error of the two parts in ulp of the larger part of the exact result,
// measured, with the host runtime's (glibc) on the same inputs in brackets:
// exp 1.92 (1.92), expm1 4.00 (4.00), log 3.36 (0.58), log1p 1.70 (1.70),
// sqrt 1.31 (1.31), rsqrt 3.21 (3.21), tanh 3.70 (4.55), sin 1.91 (2.45),
// cos 1.88 (2.06), tan 3.49 (5.00), divide 1.66 (1.66). Where the formulas
// are ill-conditioned both are far off alike: logistic near its poles
// 11287 (11287), cbrt of large operands 254 (341), power 132 (132), atan2
// where x^2 + y^2 cancels 8.9e6 (7.7e6).
//
// 16-bit rounding, reduce_precision and integer power equal the host
// runtime's bit for bit, fmod glibc's (both exact).
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
// another architecture. These checks run before anything is linked.
Status LinkDeviceLibrary(llvm::Module& module, DeviceTarget target);

// The same functions compiled for the host, under the names kernels call
// ("phal_math_exp_f32", ...), for a JIT that runs kernel IR on the CPU
// (the grid emulator). Static storage.
std::span<const RuntimeSymbol> DeviceLibraryHostSymbols();

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_DEVICE_DEVICE_LIBRARY_H_
