// The plugin is built for the baseline instruction set; its few hand-written
// loops whose speed depends on vector width (the Winograd transforms,
// cpu_gemm.cc; the FFT passes, cpu_fft.cc) are compiled for AVX-512 and
// AVX2 too on x86-64, and run as the clone the processor the plugin
// targets allows: the one it runs on, or the narrower one PHAL_CPU_TARGET
// names (docs/conformance.md, "As another processor"), so that a run as an
// AVX2 processor runs AVX2 code throughout. Templates forced inline into
// such a function are compiled for each clone.
#ifndef POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_
#define POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_

#include <string>

namespace phal::cpu {

enum class VectorIsa { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };

// The widest clone `features` (LLVM's spellings, as TargetIsaFeatures()
// lists them) runs.
VectorIsa VectorIsaOfFeatures(const std::string& features);

// The clone the cloned functions run: the processor's widest until
// SetTargetVectorIsa, which a device calls with its target's before its
// first kernel runs. Thread-safe.
VectorIsa TargetVectorIsa();
void SetTargetVectorIsa(VectorIsa isa);

}  // namespace phal::cpu

// Defines `void NAME PARAMETERS` (PARAMETERS and ARGUMENTS parenthesised)
// to run `BODY ARGUMENTS` as compiled for the clone TargetVectorIsa()
// names.
#if defined(__x86_64__)
#define PHAL_CPU_VECTOR_CLONES(NAME, PARAMETERS, BODY, ARGUMENTS)   \
  __attribute__((target("avx512f"))) void NAME##Avx512 PARAMETERS { \
    BODY ARGUMENTS;                                                 \
  }                                                                 \
  __attribute__((target("avx2"))) void NAME##Avx2 PARAMETERS {      \
    BODY ARGUMENTS;                                                 \
  }                                                                 \
  void NAME##Baseline PARAMETERS { BODY ARGUMENTS; }                \
  void NAME PARAMETERS {                                            \
    switch (::phal::cpu::TargetVectorIsa()) {                       \
      case ::phal::cpu::VectorIsa::kAvx512:                         \
        return NAME##Avx512 ARGUMENTS;                              \
      case ::phal::cpu::VectorIsa::kAvx2:                           \
        return NAME##Avx2 ARGUMENTS;                                \
      case ::phal::cpu::VectorIsa::kBaseline:                       \
        break;                                                      \
    }                                                               \
    return NAME##Baseline ARGUMENTS;                                \
  }
#else
#define PHAL_CPU_VECTOR_CLONES(NAME, PARAMETERS, BODY, ARGUMENTS) \
  void NAME PARAMETERS { BODY ARGUMENTS; }
#endif

#endif  // POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_
