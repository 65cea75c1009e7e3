// The macros glsl_math.glsl expects when it is compiled as C++ rather than
// GLSL (by glsl_math_shim.h for the host tests, by glsl_device_shim.h for
// the GPU device library): `precise` (GLSL's no-contraction qualifier)
// expands to nothing, so the including file is compiled with
// -ffp-contract=off; doubles from their bits; out parameters as
// references; constant tables as C++ arrays.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_GLSL_AS_CXX_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_GLSL_AS_CXX_H_

#define precise
#define PHAL_D(bits, value) uint64BitsToDouble(bits)
#define PHAL_OUT(type) type&
#define PHAL_TABLE_BEGIN(type, name, size) const type name[size] = {
#define PHAL_TABLE_END \
  }                    \
  ;

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_GLSL_AS_CXX_H_
