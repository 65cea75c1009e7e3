#!/usr/bin/env bash
# Installs every Debian bookworm package Polyhal needs to build, test and run
# all of its plugins. Safe to run again: packages already present are skipped.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  clang-format
  llvm-16-dev clang-16 lld-16 libclang-rt-16-dev
  libboost1.81-dev nlohmann-json3-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  openmpi-bin libopenmpi-dev
  libopenblas-dev
  python3-dev python3-venv python3-pip python3-numpy python3-pytest pybind11-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
  libvulkan-dev mesa-vulkan-drivers glslang-dev glslang-tools spirv-tools
  zlib1g-dev libzstd-dev libxml2-dev libedit-dev libffi-dev libtinfo-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
