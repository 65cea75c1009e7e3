#!/usr/bin/env bash
# Builds the CLI, the samples and every plugin the configure step found the
# dependencies of; lists the plugins and devices Polyhal finds; round-trips
# a buffer through the C API on every device; runs and times a JAX model on
# the default plugin and a larger one next to the reference interpreter's
# answer; then runs that larger model on every plugin that has a device and
# prints one table: each result checked against XLA's output, the median run
# time and, where the device counts them, its cycles per run. Exits 1, after
# the table, when a plugin's result does not match XLA's or its run fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
# Only what the demo runs is built, in the same folder as scripts/test.sh
# and with whatever options it last configured there, so either command
# may run first.
bash "$root/scripts/build.sh" "$build" -DPHAL_SANITIZE=OFF --target \
  polyhal_cli hello_buffer run_model run_model_cpp
# The configure step above wrote a manifest to share/polyhal/plugins.d/ for
# each plugin whose dependencies it found (plugins/*/CMakeLists.txt). Each of
# those plugins is built, so that `polyhal plugins` finds a library behind
# every manifest. A manifest that an earlier configure left for a plugin this
# one no longer defines has no target in the build's list (Ninja prints
# "TARGET: phony") and is passed over.
build_targets=$(cmake --build "$build" --target help)
plugin_targets=()
for manifest in "$build"/share/polyhal/plugins.d/*.json; do
  target="phal_plugin_$(basename "$manifest" .json)"
  if grep -q "^$target: " <<<"$build_targets"; then
    plugin_targets+=("$target")
  fi
done
cmake --build "$build" --parallel "$(nproc)" --target "${plugin_targets[@]}"

echo "== polyhal plugins"
"$build/bin/polyhal" plugins
echo "== polyhal devices"
"$build/bin/polyhal" devices
echo "== samples/c/hello_buffer (the C API)"
"$build/bin/hello_buffer"
models="$root/samples/models/jax"
mlp_inputs=("$models"/mlp.input_*.npy)
echo "== samples/c/run_model: the JAX MLP through the C API, on the cpu plugin"
PHAL_PLUGINS=cpu "$build/bin/run_model" "$models/mlp.hlo" "${mlp_inputs[@]}"
echo "== polyhal bench samples/models/jax/mlp.hlo --repeat 20"
"$build/bin/polyhal" bench "$models/mlp.hlo" --repeat 20
model="$models/transformer_block"
model_inputs=("$model".input_*.npy)
inputs=()
for input in "${model_inputs[@]}"; do inputs+=(--input "$input"); done
echo "== polyhal run samples/models/jax/transformer_block.hlo --plugin cpu"
"$build/bin/polyhal" run "$model.hlo" "${inputs[@]}" --plugin cpu --print
echo "== the same on the reference interpreter"
"$build/bin/polyhal" run "$model.hlo" "${inputs[@]}" --plugin reference --print

# Reads `polyhal plugins` (docs/cli.md); prints one tab-separated line per
# plugin: its name, its state (loaded or skipped), its device count and the
# reason it was skipped or has no device. Only a plugin's first line starts
# in column 1.
list_plugins() {
  awk '
    function flush() {
      if (name != "") print name "\t" state "\t" devices "\t" reason
    }
    /^[^ ]/ && ($3 == "loaded" || $3 == "skipped") {
      flush()
      name = $1
      state = $3
      devices = (state == "loaded" && $NF == "device(s)") ? $(NF - 1) : 0
      reason = "-"
    }
    /^    reason: / { sub(/^    reason: +/, ""); reason = $0 }
    END { flush() }
  '
}

# Reads run_model_cpp's output for one plugin (samples/cpp/run_model.cc);
# prints one table row per device: plugin, check against XLA, worst |error|,
# median run, cycles, device. The environment gives plugin, status (the
# exit status), error (its last error line) and cycles (for the first
# device). Exits 1 when a device's result does not match or its run failed.
device_rows() {
  awk '
    BEGIN { OFS = "\t"; plugin = ENVIRON["plugin"]; cycles = ENVIRON["cycles"] }
    function flush() {
      if (device == "") return
      if (check == "") {
        check = "error"
        note = ": " ENVIRON["error"]
      }
      if (check == "FAIL" || check == "error") failed = 1
      print plugin, check, worst, median, (rows++ == 0 ? cycles : "-"),
            device note
      device = ""
    }
    /^device [0-9]+: / {
      flush()
      device = $0
      sub(/^device [0-9]+: /, "", device)
      sub(/ \(plugin [^)]*\)$/, "", device)
      check = ""; worst = "-"; median = "-"; note = ""
    }
    /^  cannot run this model: / {
      check = "cannot run"
      note = $0
      sub(/^  cannot run this model/, "", note)
    }
    /^  median run / { median = $3 " ms" }
    # One line per result; the worst error over all results is shown.
    /^    vs .*: worst \|error\| / {
      value = $0
      sub(/.*: worst \|error\| /, "", value)
      sub(/ .*/, "", value)
      if (worst == "-" || value + 0 > worst + 0) worst = value
      if (check == "") check = "pass"
      if ($0 ~ /does not match$/) check = "FAIL"
    }
    END {
      flush()
      if (rows == 0 && ENVIRON["status"] != 0) {
        print plugin, "error", "-", "-", "-", ENVIRON["error"]
        failed = 1
      }
      exit failed
    }
  '
}

# Pads every column but the last to its widest cell.
print_table() {
  awk -F'\t' '
    {
      line[NR] = $0
      for (i = 1; i < NF; i++) if (length($i) > width[i]) width[i] = length($i)
    }
    END {
      for (r = 1; r <= NR; r++) {
        n = split(line[r], cell, "\t")
        text = ""
        for (i = 1; i < n; i++) text = text sprintf("%-" width[i] "s  ", cell[i])
        print text cell[n]
      }
    }
  '
}

echo "== samples/models/jax/transformer_block.hlo on every plugin, against XLA's output"
# The nvidia and amd plugins add an emulated GPU on the host with
# PHAL_GPU_EMULATION=1 (docs/plugins/nvidia.md), so they run the model on a
# machine without their GPUs; a real GPU, where there is one, comes first.
export PHAL_GPU_EMULATION=1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
table="$scratch/table"
printf 'plugin\tvs XLA\tworst |error|\tmedian run\tcycles/run\tdevice\n' >"$table"
failed=0
plugins=$("$build/bin/polyhal" plugins)
while IFS=$'\t' read -r plugin state devices reason; do
  if [ "$devices" -eq 0 ]; then
    why="no device"
    if [ "$state" = skipped ]; then why=skipped; fi
    printf '%s\t%s\t-\t-\t-\t%s\n' "$plugin" "$why" "$reason" >>"$table"
    continue
  fi
  # run_model_cpp runs the model on every device of the plugin and compares
  # each result with XLA's; its exit status is 1 on a mismatch or an error.
  status=0
  PHAL_PLUGINS="$plugin" "$build/bin/run_model_cpp" --expect \
    "$model.output_0.npy" "$model.hlo" "${model_inputs[@]}" </dev/null \
    >"$scratch/run" 2>"$scratch/errors" || status=$?
  # polyhal bench reads the performance counters of the plugin's first
  # device where it keeps them (the asic-ref simulator counts cycles); a
  # device without counters prints none and its cell stays "-".
  cycles="-"
  if [ "$status" -eq 0 ]; then
    if "$build/bin/polyhal" bench "$model.hlo" "${inputs[@]}" \
        --plugin "$plugin" --repeat 3 </dev/null >"$scratch/bench"; then
      cycles=$(awk '/^device counters/ { counters = 1 }
                    counters && $1 == "cycles" { print $2 }' "$scratch/bench")
      cycles=${cycles:-"-"}
    else
      cycles="bench failed"
      failed=1
    fi
  fi
  error=$(grep '^run_model_cpp: ' "$scratch/errors" | tail -n 1 || true)
  error=${error:-"exit status $status"}
  plugin="$plugin" status="$status" error="$error" cycles="$cycles" \
    device_rows <"$scratch/run" >>"$table" || failed=1
done < <(list_plugins <<<"$plugins")
print_table <"$table"
if [ "$failed" -ne 0 ]; then
  echo "demo: a plugin's result does not match XLA's, or its run failed" >&2
  exit 1
fi
