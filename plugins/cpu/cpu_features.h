// ISA extensions of the host CPU, as reported in the device's `features`.
#ifndef POLYHAL_PLUGINS_CPU_CPU_FEATURES_H_
#define POLYHAL_PLUGINS_CPU_CPU_FEATURES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace phal::cpu {

// Whether `features` (a list as the two functions below return it) names
// the extension `name`.
inline bool HasIsaFeature(std::string_view features, std::string_view name) {
  for (std::size_t begin = 0; begin < features.size();) {
    std::size_t end = features.find(' ', begin);
    if (end == std::string_view::npos) end = features.size();
    if (features.substr(begin, end - begin) == name) return true;
    begin = end + 1;
  }
  return false;
}

// Space-separated extension names the CPU has *and* the operating system
// enables (AVX needs the OS to save YMM state, AVX-512 the ZMM and mask
// state). Names are LLVM's target-feature spellings ("avx2", "avx512bf16",
// "neon", "fullfp16"), so the compiler can pass them to the JIT unchanged.
std::string DetectIsaFeatures();

// What kernels are compiled for: DetectIsaFeatures() less the extensions
// the processor PHAL_CPU_TARGET names lacks (sdk/emitters/llvm/
// host_cpu_target.h), so the device reports, and the GEMM library picks
// its kernels by, the processor the plugin runs as.
std::string TargetIsaFeatures();

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_FEATURES_H_
