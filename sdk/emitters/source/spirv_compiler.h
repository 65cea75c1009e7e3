// GLSL compute source (the GLSL dialect's kernels) -> SPIR-V, in process
// with glslang, the compiler shaderc wraps (its static libraries, Debian's
// glslang-dev: Debian's libshaderc.so is built against another glslang and
// crashes beside glslang-dev's). A library of its own
// (polyhal_emitter_spirv), so that OpenCL-only users need no glslang.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_SPIRV_COMPILER_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_SPIRV_COMPILER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/status.h"

namespace phal::source_emitter {

// What a kernel asks of the driver's compiler through SPIR-V's float
// controls (SPV_KHR_float_controls, core since SPIR-V 1.4), per float width:
// keep signed zeros, infinities and NaN (the SignedZeroInfNanPreserve
// execution mode, which forbids rewrites such as x * 0 -> 0 and x + 0 -> x)
// and keep subnormals (DenormPreserve). Ask only for what the device offers
// (Vulkan 1.2's shaderSignedZeroInfNanPreserveFloat32/64 and
// shaderDenormPreserveFloat32/64): asking otherwise is invalid usage.
struct FloatControls {
  bool signed_zero_inf_nan_preserve_f32 = false;
  bool signed_zero_inf_nan_preserve_f64 = false;
  bool denorm_preserve_f32 = false;
  bool denorm_preserve_f64 = false;

  // "szinp32 denorm64 ...": what is asked, for cache keys and reports.
  std::string Describe() const;
};

// The SPIR-V of compute shader `source` for Vulkan 1.2, with the execution
// modes `controls` asks for (the f64 ones only where the shader uses f64);
// `name` names it in error messages. INVALID_ARGUMENT carries the
// compiler's messages (file `name`, line, column) when the source does not
// compile; INTERNAL what SPIRV-Tools' validator found when the SPIR-V is
// not valid (ValidateSpirv runs on everything this returns).
StatusOr<std::vector<uint32_t>> CompileGlslToSpirv(
    std::string_view source, std::string_view name,
    const FloatControls& controls = {});

// Adds the capabilities and execution modes `controls` asks for to every
// entry point of SPIR-V module `words` (glslang declares one execution
// mode of each kind only, so a mode for two widths cannot come from GLSL).
// INVALID_ARGUMENT when `words` is no SPIR-V module.
Status AddFloatControls(const FloatControls& controls,
                        std::vector<uint32_t>* words);

// OK when `words` pass SPIRV-Tools' validator (what spirv-val runs) for
// Vulkan 1.2; INTERNAL with its message otherwise.
Status ValidateSpirv(const std::vector<uint32_t>& words, std::string_view name);

// Names the compiler (glslang, SPIR-V and Vulkan versions) for cache keys.
std::string SpirvCompilerIdentity();

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_SPIRV_COMPILER_H_
