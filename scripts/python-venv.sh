#!/usr/bin/env bash
# Makes the virtual environment the Python package's jax tests run in:
#   scripts/python-venv.sh [BUILD_DIR]
# BUILD_DIR/python-venv (default build/python-venv) is created from Debian's
# interpreter with its site packages visible (numpy, pytest), and gets the
# pinned test dependencies of sdk/python/requirements-test.txt from PyPI
# (jax, jaxlib, ml_dtypes). Safe to run again: a venv whose requirements
# have not changed is kept. If PyPI cannot be reached, it says so and exits 0:
# the jax tests then skip, naming this script, and everything else runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-"$root/build"}
venv="$build/python-venv"
requirements="$root/sdk/python/requirements-test.txt"
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)

stamp="$venv/requirements.sha256"
wanted=$( (sha256sum "$requirements"; "$python" --version) | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi
rm -rf "$venv"
mkdir -p "$build"
"$python" -m venv --system-site-packages "$venv"
if ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-input -r "$requirements"; then
  echo "python-venv: could not install $requirements from PyPI;" \
       "the Python package's jax tests will be skipped" >&2
  rm -rf "$venv"
  exit 0
fi
echo "$wanted" >"$stamp"
