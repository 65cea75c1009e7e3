#!/usr/bin/env bash
# The main job on the default plugin: build, then list the plugins and
# devices Polyhal finds, round-trip a buffer through the C API on every
# device, run a JAX model with the samples (checked against XLA's output)
# and time it, and run a larger one next to the reference interpreter's
# answer.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
# Only what the demo runs is built, in the same folder as scripts/test.sh
# and with whatever options it last configured there, so either command
# may run first.
# Every plugin is built, so that `polyhal plugins` finds a library behind
# each manifest the configure step wrote.
bash "$root/scripts/build.sh" "$build" -DPHAL_SANITIZE=OFF --target \
  polyhal_cli phal_plugin_cpu phal_plugin_intel phal_plugin_template \
  hello_buffer run_model run_model_cpp
echo "== polyhal plugins"
"$build/bin/polyhal" plugins
echo "== polyhal devices"
"$build/bin/polyhal" devices
echo "== samples/c/hello_buffer (the C API)"
"$build/bin/hello_buffer"
models="$root/samples/models/jax"
mlp_inputs=("$models"/mlp.input_*.npy)
echo "== samples/cpp/run_model: the JAX MLP on the cpu plugin, against XLA's output"
PHAL_PLUGINS=cpu "$build/bin/run_model_cpp" \
  --expect "$models/mlp.output_0.npy" "$models/mlp.hlo" "${mlp_inputs[@]}"
echo "== samples/c/run_model: the same through the C API"
PHAL_PLUGINS=cpu "$build/bin/run_model" "$models/mlp.hlo" "${mlp_inputs[@]}"
echo "== polyhal bench samples/models/jax/mlp.hlo --repeat 20"
"$build/bin/polyhal" bench "$models/mlp.hlo" --repeat 20
inputs=()
for input in "$models"/transformer_block.input_*.npy; do inputs+=(--input "$input"); done
echo "== polyhal run samples/models/jax/transformer_block.hlo --plugin cpu"
"$build/bin/polyhal" run "$models/transformer_block.hlo" "${inputs[@]}" --plugin cpu --print
echo "== the same on the reference interpreter"
"$build/bin/polyhal" run "$models/transformer_block.hlo" "${inputs[@]}" --plugin reference --print
