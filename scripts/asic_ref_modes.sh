#!/usr/bin/env bash
# asic-ref's graph mode against its kernel mode (docs/plugins/asic-ref.md,
# "Graph mode"): each model run once in each mode with `polyhal bench`,
# the simulated cycles and DRAM bytes of one run printed as a Markdown
# table with the ratios. A model that fails or runs past the time limit
# (seconds, default 300) in either mode prints its reason instead.
#   scripts/asic_ref_modes.sh [--timeout S] MODEL...
#   scripts/asic_ref_modes.sh benchmarks/models/* samples/models/jax/*.hlo
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
polyhal="$root/build/bin/polyhal"
limit=300
if [ "${1:-}" = "--timeout" ]; then
  limit=$2
  shift 2
fi
# "cycles dram_bytes" of one run of $2 in mode $1, or the failure.
measure() {
  local out
  out=$(PHAL_ASIC_REF_MODE=$1 timeout "$limit" "$polyhal" bench "$2" \
    --plugin asic-ref --repeat 1 2>&1)
  local status=$?
  if [ $status -ne 0 ]; then
    [ $status -eq 124 ] && echo "timeout" && return
    echo "failed: $(tail -1 <<<"$out" | cut -c1-80)"
    return
  fi
  awk '$1 == "cycles" { c = $2 }
       $1 == "dram.bytes_read" { r = $2 }
       $1 == "dram.bytes_written" { w = $2 }
       END { printf "%.0f %.0f\n", c, r + w }' <<<"$out"
}
echo "| model | kernel mode cycles | graph mode cycles | cycles graph/kernel | kernel mode DRAM bytes | graph mode DRAM bytes | bytes graph/kernel |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for model in "$@"; do
  case "$model" in *.hlo|*.mlir) ;; *) continue ;; esac
  kernels=$(measure kernels "$model")
  graph=$(measure graph "$model")
  name=$(basename "$model")
  if [[ ! "$kernels" =~ ^[0-9]+\ [0-9]+$ ]] || [[ ! "$graph" =~ ^[0-9]+\ [0-9]+$ ]]; then
    echo "| $name | ${kernels} | ${graph} | | | | |"
    continue
  fi
  read -r kc kb <<<"$kernels"
  read -r gc gb <<<"$graph"
  awk -v n="$name" -v kc="$kc" -v gc="$gc" -v kb="$kb" -v gb="$gb" 'BEGIN {
    printf "| %s | %.0f | %.0f | %.3f | %.0f | %.0f | %.3f |\n", n, kc, gc,
      (kc ? gc / kc : 1), kb, gb, (kb ? gb / kb : 1) }'
done
