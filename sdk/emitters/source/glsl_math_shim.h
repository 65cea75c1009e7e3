// Test-only: the GLSL 4.50 types, builtins and qualifiers glsl_math.glsl
// uses, defined in C++ so that a host test can include the library and call
// its functions directly. Include this header, then the .glsl text inside
// the shim's namespace:
//
//   #include "sdk/emitters/source/glsl_math_shim.h"
//   namespace phal::glsl_math_host {
//   #include "sdk/emitters/source/glsl_math.glsl"
//   }
//
// Compile that file with -ffp-contract=off: `precise` (GLSL's no-contraction
// qualifier) expands to nothing here, so the compiler must not fuse a
// multiply and an add on its own either.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_SHIM_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_SHIM_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sdk/emitters/source/glsl_as_cxx.h"

namespace phal::glsl_math_host {

typedef unsigned int uint;
using ::int64_t;
using ::uint64_t;

inline double abs(double x) { return std::fabs(x); }
inline float abs(float x) { return std::fabs(x); }
inline int abs(int x) { return x < 0 ? -x : x; }
inline double floor(double x) { return std::floor(x); }
inline float floor(float x) { return std::floor(x); }
inline double ceil(double x) { return std::ceil(x); }
inline float ceil(float x) { return std::ceil(x); }
inline double trunc(double x) { return std::trunc(x); }
inline float trunc(float x) { return std::trunc(x); }
inline double round(double x) { return std::round(x); }
inline float round(float x) { return std::round(x); }
// Round half to even: the default rounding mode's nearbyint.
inline double roundEven(double x) { return std::nearbyint(x); }
inline float roundEven(float x) { return std::nearbyint(x); }
inline double fract(double x) { return x - std::floor(x); }
inline float fract(float x) { return x - std::floor(x); }
inline double sign(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }
inline float sign(float x) { return x > 0 ? 1.0f : (x < 0 ? -1.0f : 0.0f); }
inline double min(double a, double b) { return b < a ? b : a; }
inline float min(float a, float b) { return b < a ? b : a; }
inline int min(int a, int b) { return b < a ? b : a; }
inline uint min(uint a, uint b) { return b < a ? b : a; }
inline double max(double a, double b) { return a < b ? b : a; }
inline float max(float a, float b) { return a < b ? b : a; }
inline int max(int a, int b) { return a < b ? b : a; }
inline uint max(uint a, uint b) { return a < b ? b : a; }
inline double clamp(double x, double lo, double hi) {
  return min(max(x, lo), hi);
}
inline float clamp(float x, float lo, float hi) { return min(max(x, lo), hi); }
inline int clamp(int x, int lo, int hi) { return min(max(x, lo), hi); }
inline double fma(double a, double b, double c) { return std::fma(a, b, c); }
inline float fma(float a, float b, float c) { return std::fma(a, b, c); }
inline double sqrt(double x) { return std::sqrt(x); }
inline float sqrt(float x) { return std::sqrt(x); }
inline double inversesqrt(double x) { return 1.0 / std::sqrt(x); }
inline float inversesqrt(float x) { return 1.0f / std::sqrt(x); }
inline bool isnan(double x) { return std::isnan(x); }
inline bool isnan(float x) { return std::isnan(x); }
inline bool isinf(double x) { return std::isinf(x); }
inline bool isinf(float x) { return std::isinf(x); }
inline double frexp(double x, int& e) { return std::frexp(x, &e); }
inline float frexp(float x, int& e) { return std::frexp(x, &e); }
inline double ldexp(double x, int e) { return std::ldexp(x, e); }
inline float ldexp(float x, int e) { return std::ldexp(x, e); }

inline uint64_t doubleBitsToUint64(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline int64_t doubleBitsToInt64(double x) {
  int64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double uint64BitsToDouble(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline double int64BitsToDouble(int64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline uint floatBitsToUint(float x) {
  uint b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline int floatBitsToInt(float x) {
  int b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline float uintBitsToFloat(uint b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}
inline float intBitsToFloat(int b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

}  // namespace phal::glsl_math_host

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_GLSL_MATH_SHIM_H_
