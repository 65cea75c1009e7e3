#!/usr/bin/env bash
# The main job on the default plugin: build, then list the plugins and
# devices Polyhal finds, round-trip a buffer through the C API on every
# device, and run a model on the reference interpreter.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
bash "$root/scripts/build.sh" "$build" -DPHAL_BUILD_TESTS=OFF
echo "== polyhal plugins"
"$build/bin/polyhal" plugins
echo "== polyhal devices"
"$build/bin/polyhal" devices
echo "== samples/c/hello_buffer (the C API)"
"$build/bin/hello_buffer"
echo "== polyhal run samples/models/mlp.hlo --plugin reference"
"$build/bin/polyhal" run "$root/samples/models/mlp.hlo" --random-inputs 0 --print
