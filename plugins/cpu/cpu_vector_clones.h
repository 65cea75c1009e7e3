// The plugin is built for the baseline instruction set; its few hand-written
// loops whose speed depends on vector width (the Winograd transforms,
// cpu_gemm.cc; the FFT passes, cpu_fft.cc) are compiled for AVX-512 and
// AVX2 too on x86-64, and the dynamic loader picks the clone the CPU runs.
// Templates forced inline into such a function are compiled for each clone.
#ifndef POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_
#define POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_

#if defined(__x86_64__)
#define PHAL_CPU_VECTOR_CLONES \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PHAL_CPU_VECTOR_CLONES
#endif

#endif  // POLYHAL_PLUGINS_CPU_CPU_VECTOR_CLONES_H_
