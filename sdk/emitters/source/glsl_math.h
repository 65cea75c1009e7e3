// The GLSL math library (glsl_math.glsl): double-precision exp, expm1, log,
// log1p, sin, cos, tan, tanh, sinh, cosh, atan, erf, cbrt, sqrt, atan2, pow
// and hypot for Vulkan compute shaders, within 1 ulp (sqrt correctly
// rounded) with C99 Annex F special values. Algorithms and measured bounds
// are documented at the top of glsl_math.glsl; the text is embedded into
// the library at build time.
//
// The functions are
//   double phal_m_<f>_f64(double x)   f in exp expm1 log log1p sin cos tan
//                                     tanh sinh cosh atan erf cbrt sqrt
//   double phal_m_atan2_f64(double y, double x)
//   double phal_m_pow_f64(double x, double y)
//   double phal_m_hypot_f64(double x, double y)
// and need `#version 450` and
// `#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require`
// before them, which the dialect writes.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_H_

#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/status.h"

namespace phal::source_emitter {

// The library's source text, whole (for tests and spirv-val).
std::string_view GlslMathSource();

// Block `name` and the blocks it depends on, in dependency order, each once:
// the text to put in a shader's prelude for functions `names` (e.g.
// {"phal_m_exp_f64", "phal_m_pow_f64"}). The first block is always
// phal_m_macros. NotFound for a name that is no block.
StatusOr<std::string> GlslMathFunctions(const std::vector<std::string>& names);

// Block `name` alone (its marker line and text) and the blocks it names as
// dependencies, for callers that gather blocks themselves (the GLSL
// dialect's prelude). NotFound for a name that is no block.
struct GlslMathBlock {
  std::string_view text;
  std::vector<std::string> dependencies;
};
StatusOr<GlslMathBlock> FindGlslMathBlock(std::string_view name);

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_H_
