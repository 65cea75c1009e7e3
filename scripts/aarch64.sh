#!/usr/bin/env bash
# Cross-builds Polyhal for AArch64 (arm64) Linux and runs the cpu plugin's
# tests and its conformance under qemu-aarch64 (docs/plugins/cpu.md,
# "AArch64").
#
#   bash scripts/aarch64.sh [--tier 1|2|3] [--filter GLOB[,GLOB...]]
#                           [--corpus DIR] [--skip-tests] [--skip-conformance]
#
# Steps, each timed and logged in build-aarch64/logs/:
#   1. host packages (apt, as root or through sudo): Debian's cross
#      toolchain g++-aarch64-linux-gnu, qemu-user-static, cmake, ninja;
#   2. the arm64 sysroot in ~/.cache/polyhal/aarch64-sysroot (or
#      $PHAL_AARCH64_SYSROOT; outside the checkout): Debian bookworm's arm64
#      packages (llvm-16-dev, libopenblas-dev, libgtest-dev, ... and their
#      dependencies) resolved by apt in a private state folder
#      (build-aarch64/apt), so the host's dpkg database is left alone, and
#      unpacked with dpkg-deb. llvm-16-dev is not Multi-Arch: same, so it
#      could not sit beside the amd64 one through dpkg multiarch;
#   3. configure and build in build-aarch64/build with
#      cmake/aarch64-toolchain.cmake: polyhal_cli, phal_plugin_cpu and
#      phal_plugin_cpu_tests (-j1 under nice unless PHAL_AARCH64_JOBS says
#      otherwise: the build shares the machine);
#   4. phal_plugin_cpu_tests under qemu-aarch64-static;
#   5. polyhal conformance --plugin cpu at the tier (default 1) under
#      qemu-aarch64-static, report in build-aarch64/conformance-tier<N>/
#      (conformance-tier<N>-corpus/ with --corpus; add --filter 'corpus.*'
#      for the corpus cases alone).
# Safe to run again: packages present are skipped, the sysroot is kept while
# its package list is unchanged, and the build is incremental.
#
# Environment: PHAL_AARCH64_BUILD (default <checkout>/build-aarch64),
# PHAL_AARCH64_SYSROOT (default ~/.cache/polyhal/aarch64-sysroot),
# PHAL_AARCH64_JOBS (build jobs, default 1), PHAL_AARCH64_CONFORMANCE_JOBS
# (default: the number of cores), PHAL_AARCH64_TIMEOUT (seconds per
# conformance case, default 600: qemu is 5-30x slower than the host).
# The step functions run through step(), which shellcheck does not follow.
# shellcheck disable=SC2317
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${PHAL_AARCH64_BUILD:-"$root/build-aarch64"}
# Outside the checkout: LLVM's include folder, which is in the sysroot, is
# part of the installable Polyhal::emitter_llvm target, and CMake refuses an
# installed include path inside the source or build tree.
sysroot=${PHAL_AARCH64_SYSROOT:-"${XDG_CACHE_HOME:-$HOME/.cache}/polyhal/aarch64-sysroot"}
build="$work/build"
logs="$work/logs"
jobs=${PHAL_AARCH64_JOBS:-1}
conformance_jobs=${PHAL_AARCH64_CONFORMANCE_JOBS:-$(nproc)}
timeout=${PHAL_AARCH64_TIMEOUT:-600}
tier=1
filter=""
corpus=""
run_tests=1
run_conformance=1
while [ $# -gt 0 ]; do
  case "$1" in
    --tier) tier=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --corpus) corpus=$(cd "$2" && pwd); shift 2 ;;
    --skip-tests) run_tests=0; shift ;;
    --skip-conformance) run_conformance=0; shift ;;
    *) echo "usage: $0 [--tier 1|2|3] [--filter GLOB] [--corpus DIR]" \
            "[--skip-tests] [--skip-conformance]" >&2; exit 2 ;;
  esac
done
mkdir -p "$logs"

summary=()
# step NAME COMMAND...: runs the command, logs its output to logs/NAME.log
# (and the terminal), and records its wall time and exit status.
step() {
  local name=$1
  shift
  local start=$SECONDS status=0
  echo "== $name"
  "$@" 2>&1 | tee "$logs/$name.log" || status=${PIPESTATUS[0]}
  local line
  line=$(printf '%-22s %5ds  exit %d' "$name" $((SECONDS - start)) "$status")
  summary+=("$line")
  echo "== $line"
  return "$status"
}

print_summary() {
  echo
  echo "AArch64 run on $(uname -m), $(nproc) cores" \
       "($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))"
  printf '  %s\n' "${summary[@]}"
}
trap print_summary EXIT

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi

host_packages() {
  local packages=(g++-aarch64-linux-gnu qemu-user-static cmake ninja-build
                  dpkg-dev debian-archive-keyring)
  local missing=() p
  for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
        grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "host packages present"
    return
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The arm64 packages the build and the run need; apt adds their
# dependencies (libc6, libstdc++6, libllvm16, libopenblas0, ...).
sysroot_packages=(
  llvm-16-dev libopenblas-dev libgtest-dev libgmock-dev libboost1.81-dev
  nlohmann-json3-dev zlib1g-dev libzstd-dev libxml2-dev libedit-dev
  libffi-dev libtinfo-dev
)

make_sysroot() {
  local stamp="$sysroot/.polyhal-sysroot"
  local want="2, bookworm arm64: ${sysroot_packages[*]}"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "sysroot up to date: $sysroot"
    return
  fi
  # apt with its own sources, state and cache: arm64 only, and an empty
  # dpkg status, so it resolves the whole dependency closure.
  local apt="$work/apt"
  mkdir -p "$apt/etc/apt.conf.d" "$apt/etc/preferences.d" \
           "$apt/etc/sources.list.d" "$apt/state/lists/partial" \
           "$apt/cache/archives/partial"
  : > "$apt/state/status"
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  local mirror=${PHAL_DEBIAN_MIRROR:-http://deb.debian.org}
  cat > "$apt/etc/sources.list" <<EOF
deb [arch=arm64 signed-by=$keyring] $mirror/debian bookworm main
deb [arch=arm64 signed-by=$keyring] $mirror/debian bookworm-updates main
deb [arch=arm64 signed-by=$keyring] $mirror/debian-security bookworm-security main
EOF
  local opts=(-o "Dir::Etc=$apt/etc" -o "Dir::State=$apt/state"
              -o "Dir::State::status=$apt/state/status"
              -o "Dir::Cache=$apt/cache" -o APT::Architecture=arm64
              -o APT::Architectures::=arm64 -o Debug::NoLocking=1
              -o APT::Install-Recommends=0 -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" -qq update
  apt-get "${opts[@]}" -qq -y install --download-only "${sysroot_packages[@]}"

  rm -rf "$sysroot"
  mkdir -p "$sysroot"
  local deb
  for deb in "$apt"/cache/archives/*.deb; do
    dpkg-deb -x "$deb" "$sysroot"
  done
  # Bookworm is merged-/usr: /lib, /bin and /sbin are links into /usr.
  # dpkg-deb -x makes them folders, so fold them back.
  local d
  for d in lib bin sbin; do
    if [ -d "$sysroot/$d" ] && [ ! -L "$sysroot/$d" ]; then
      mkdir -p "$sysroot/usr/$d"
      cp -a "$sysroot/$d/." "$sysroot/usr/$d/"
      rm -rf "${sysroot:?}/$d"
    fi
    ln -sfn "usr/$d" "$sysroot/$d"
  done
  # Absolute links point into the sysroot, relative to where they are.
  local link target
  while IFS= read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" \
               "$sysroot$target")" "$link"
  done < <(find "$sysroot" -type l -lname '/*')
  # The links update-alternatives makes when OpenBLAS is installed: the
  # pthread flavour as libopenblas, libblas and liblapack, its cblas.h.
  local lib="$sysroot/usr/lib/aarch64-linux-gnu"
  local f
  for f in libopenblas.so libopenblas.so.0 libblas.so libblas.so.3 \
           liblapack.so liblapack.so.3; do
    if [ -e "$lib/openblas-pthread/$f" ]; then
      ln -sfn "openblas-pthread/$f" "$lib/$f"
    fi
  done
  local include="$sysroot/usr/include/aarch64-linux-gnu" header
  for header in "$include"/openblas-pthread/*.h; do
    ln -sfn "openblas-pthread/${header##*/}" "$include/${header##*/}"
  done
  echo "$want" > "$stamp"
  du -sh "$sysroot"
}

configure() {
  local generator="Unix Makefiles"
  if command -v ninja >/dev/null; then
    generator=Ninja
  fi
  cmake -S "$root" -B "$build" -G "$generator" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-toolchain.cmake" \
    -DPHAL_AARCH64_SYSROOT="$sysroot" \
    -DPHAL_BUILD_TESTS=ON -DPHAL_BUILD_SAMPLES=OFF \
    -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST
}

build_targets() {
  nice -n 19 cmake --build "$build" --parallel "$jobs" \
    --target polyhal_cli phal_plugin_cpu phal_plugin_cpu_tests
}

qemu() {
  QEMU_LD_PREFIX="$sysroot" nice -n 19 qemu-aarch64-static "$@"
}

kernel_tests() {
  qemu "$build/bin/phal_plugin_cpu_tests" --gtest_color=no
}

conformance() {
  local args=(conformance --plugin cpu --tier "$tier"
              --jobs "$conformance_jobs" --timeout "$timeout"
              --report "$work/conformance-tier$tier${corpus:+-corpus}")
  if [ -n "$filter" ]; then
    args+=(--filter "$filter")
  fi
  if [ -n "$corpus" ]; then
    args+=(--corpus "$corpus")
  fi
  PHAL_PLUGIN_PATH="$build/share/polyhal/plugins.d" \
  PHAL_CACHE_DIR="$work/kernel-cache" \
    qemu "$build/bin/polyhal" "${args[@]}"
}

status=0
step host-packages host_packages
step sysroot make_sysroot
step configure configure
step build build_targets
if [ "$run_tests" = 1 ]; then
  step kernel-tests kernel_tests || status=1
fi
if [ "$run_conformance" = 1 ]; then
  step "conformance-tier$tier${corpus:+-corpus}" conformance || status=1
fi
exit "$status"
