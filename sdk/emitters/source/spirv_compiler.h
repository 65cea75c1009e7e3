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

// The SPIR-V of compute shader `source` for Vulkan 1.2; `name` names it in
// error messages. INVALID_ARGUMENT carries the compiler's messages (file
// `name`, line, column) when the source does not compile; INTERNAL what
// SPIRV-Tools' validator found when the SPIR-V is not valid (ValidateSpirv
// runs on everything this returns).
StatusOr<std::vector<uint32_t>> CompileGlslToSpirv(std::string_view source,
                                                   std::string_view name);

// OK when `words` pass SPIRV-Tools' validator (what spirv-val runs) for
// Vulkan 1.2; INTERNAL with its message otherwise.
Status ValidateSpirv(const std::vector<uint32_t>& words, std::string_view name);

// Names the compiler (glslang, SPIR-V and Vulkan versions) for cache keys.
std::string SpirvCompilerIdentity();

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_SPIRV_COMPILER_H_
