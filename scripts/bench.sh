#!/usr/bin/env bash
# Times the HLO modules of benchmarks/models (the kernel-level ones) with
# `polyhal bench` on a plugin
# (default cpu) and on the reference interpreter, and prints a Markdown
# table: compile time cold (empty kernel cache) and cached (the disk cache
# a first compile filled, in a new process), first run, median run, and
# the speedup over the reference. Builds first unless BUILD_DIR holds a
# build already.
#   scripts/bench.sh [--plugin NAME] [--repeat N] [BUILD_DIR]
# With --vs-xla it instead times the model suite (the StableHLO modules of
# benchmarks/models) on the plugin and on XLA:CPU, interleaved, with
# scripts/bench_vs_xla.py (needs jax: BUILD_DIR/python-venv's interpreter
# when there is one, else python3; without jax it says so and exits 0):
#   scripts/bench.sh --vs-xla [--plugin NAME] [--repeat N] [--rounds N]
#                    [BUILD_DIR] [-- MODULE...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
plugin=cpu
repeat=
rounds=3
vs_xla=0
build="$root/build"
modules=()
while [ $# -gt 0 ]; do
  case "$1" in
    --plugin) plugin=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --vs-xla) vs_xla=1; shift ;;
    --) shift; modules=("$@"); break ;;
    *) build=$1; shift ;;
  esac
done
[ -x "$build/bin/polyhal" ] || bash "$root/scripts/build.sh" "$build"
polyhal="$build/bin/polyhal"

if [ "$vs_xla" = 1 ]; then
  python=python3
  [ -x "$build/python-venv/bin/python" ] && python="$build/python-venv/bin/python"
  exec "$python" "$root/scripts/bench_vs_xla.py" --polyhal "$polyhal" \
    --plugin "$plugin" --repeat "${repeat:-5}" --rounds "$rounds" "${modules[@]}"
fi
repeat=${repeat:-20}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT

# The value of a numeric member of the JSON `polyhal bench --json` prints.
field() { sed -n "s/^  \"$1\": \([0-9.e+-]*\),\{0,1\}$/\1/p" <<<"$2"; }
ms() { printf '%.3f' "$1"; }

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "plugin: $plugin, $repeat runs per module, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo
echo "| module | compile cold (ms) | compile cached (ms) | first run (ms) | median (ms) | min (ms) | reference median (ms) | speedup |"
echo "|---|---|---|---|---|---|---|---|"
for module in "$root"/benchmarks/models/*.hlo; do
  name=$(basename "$module" .hlo)
  cold=$(PHAL_CACHE_DIR="$cache/$name" "$polyhal" bench "$module" --plugin "$plugin" --repeat "$repeat" --json)
  warm=$(PHAL_CACHE_DIR="$cache/$name" "$polyhal" bench "$module" --plugin "$plugin" --repeat 1 --json)
  reference=$("$polyhal" bench "$module" --plugin reference --repeat 3 --json)
  median=$(field median_ms "$cold")
  reference_median=$(field median_ms "$reference")
  speedup=$(awk -v r="$reference_median" -v p="$median" 'BEGIN { printf "%.1f", r / p }')
  echo "| $name | $(ms "$(field compile_ms "$cold")") | $(ms "$(field compile_ms "$warm")") | $(ms "$(field first_run_ms "$cold")") | $(ms "$median") | $(ms "$(field min_ms "$cold")") | $(ms "$reference_median") | ${speedup}x |"
done
