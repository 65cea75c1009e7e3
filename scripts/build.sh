#!/usr/bin/env bash
# Installs the dependencies, then configures and builds Polyhal.
#   scripts/build.sh [BUILD_DIR] [cmake arguments...] [--target T...]
# BUILD_DIR defaults to build/ in the checkout. Arguments after --target
# name the targets to build (default: all).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-"$root/build"}
shift || true
configure=()
targets=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--target" ]; then
    shift
    targets=("$@")
    break
  fi
  configure+=("$1")
  shift
done
bash "$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja "${configure[@]}"
if [ ${#targets[@]} -gt 0 ]; then
  cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"
else
  cmake --build "$build" --parallel "$(nproc)"
fi
