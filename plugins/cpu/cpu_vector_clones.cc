#include "plugins/cpu/cpu_vector_clones.h"

#include <atomic>

#include "plugins/cpu/cpu_features.h"

namespace phal::cpu {
namespace {

VectorIsa ProcessorVectorIsa() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return VectorIsa::kAvx512;
  if (__builtin_cpu_supports("avx2")) return VectorIsa::kAvx2;
#endif
  return VectorIsa::kBaseline;
}

std::atomic<int> target_isa{-1};

}  // namespace

VectorIsa VectorIsaOfFeatures(const std::string& features) {
  if (HasIsaFeature(features, "avx512f")) return VectorIsa::kAvx512;
  if (HasIsaFeature(features, "avx2")) return VectorIsa::kAvx2;
  return VectorIsa::kBaseline;
}

VectorIsa TargetVectorIsa() {
  int isa = target_isa.load(std::memory_order_relaxed);
  if (isa < 0) {
    isa = static_cast<int>(ProcessorVectorIsa());
    int unset = -1;
    if (!target_isa.compare_exchange_strong(unset, isa)) isa = unset;
  }
  return static_cast<VectorIsa>(isa);
}

void SetTargetVectorIsa(VectorIsa isa) {
  target_isa.store(static_cast<int>(isa), std::memory_order_relaxed);
}

}  // namespace phal::cpu
