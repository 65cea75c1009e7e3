#!/usr/bin/env bash
# Runs a command as it would run on an x86-64 processor with AVX2 and FMA
# but no AVX-512 (the x86-64-v3 level: Haswell to Skylake client, AMD Zen 1
# to 3), on any processor that has those features, AVX-512 or not. The
# plugins that compile kernels for the processor they run on are each told
# to compile for that level instead (docs/conformance.md, "As another
# processor"):
#   cpu, and the GPU plugins' grid emulator (the LLVM toolkit):
#       PHAL_CPU_TARGET=x86-64-v3
#   arm on lavapipe (Mesa's llvmpipe compiles the shaders):
#       GALLIUM_OVERRIDE_CPU_CAPS=avx, which clears AVX-512 and with it the
#       512-bit vectors llvmpipe would use; its shader cache is off, since
#       its entries do not say which processor they were compiled for
#   intel on PoCL (PoCL's Clang compiles the kernels):
#       POCL_KERNELLIB_NAME=avx2, PoCL's kernel library for AVX2 processors,
#       which also makes it compile for haswell (its device name says so),
#       with a kernel cache of its own
# and the libraries such a processor would run with the AVX2 kernels they
# pick at run time: OpenBLAS (OPENBLAS_CORETYPE=Haswell, unless set), and
# for XLA:CPU beside Polyhal in scripts/bench_vs_xla.py its generated code
# (XLA_FLAGS gains --xla_cpu_max_isa=AVX2) and oneDNN, its convolutions and
# dots (ONEDNN_MAX_CPU_ISA=AVX2). XLA's YNNPACK fusions pick AVX-512 kernels
# wherever the processor has them, whatever --xla_cpu_max_isa says, so
# XLA_FLAGS also gains --xla_cpu_experimental_ynn_fusion_type= (no YNNPACK
# fusions): XLA's dots then run in its Eigen contractions, whose kernels
# come from oneDNN (docs/performance.md).
# Usage: scripts/as-avx2.sh COMMAND [ARGS...]
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
if [ "$(uname -m)" != "x86_64" ]; then
  echo "$0: this processor is $(uname -m), not x86-64" >&2
  exit 2
fi
for feature in avx2 fma bmi2 movbe; do
  if ! grep -qw "$feature" /proc/cpuinfo; then
    echo "$0: this processor lacks $feature, so it cannot run as x86-64-v3" >&2
    exit 2
  fi
done
export PHAL_CPU_TARGET=x86-64-v3
export GALLIUM_OVERRIDE_CPU_CAPS=avx
export MESA_SHADER_CACHE_DISABLE=true
export POCL_KERNELLIB_NAME=avx2
if [ -n "${POCL_CACHE_DIR:-}" ]; then
  export POCL_CACHE_DIR="$POCL_CACHE_DIR/x86-64-v3"
fi
export OPENBLAS_CORETYPE="${OPENBLAS_CORETYPE:-Haswell}"
export ONEDNN_MAX_CPU_ISA=AVX2
export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_cpu_max_isa=AVX2 --xla_cpu_experimental_ynn_fusion_type="
exec "$@"
