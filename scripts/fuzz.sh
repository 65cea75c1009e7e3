#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-16 (ASan + UBSan + coverage, in
# build-fuzz/) and runs each for SECONDS (default 60), one after another.
#   scripts/fuzz.sh [SECONDS] [FUZZER...]
# Each starts from its seed corpus fuzz/<name>/corpus/ and dictionary
# fuzz/<name>.dict; inputs it finds go to build-fuzz/corpus/<name>/, and a
# crashing, leaking, hanging or out-of-memory input to
# build-fuzz/artifacts/<name>/. docs/reliability.md, "Fuzzing".
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
seconds=${1:-60}
shift || true
fuzzers=("$@")
if [ ${#fuzzers[@]} -eq 0 ]; then
  fuzzers=(hlo_parser_fuzzer stablehlo_parser_fuzzer npy_reader_fuzzer
    manifest_fuzzer portable_artifact_fuzzer)
fi
CC=clang-16 CXX=clang++-16 cmake -S "$root" -B "$build" -G Ninja \
  -DPHAL_BUILD_FUZZERS=ON -DPHAL_SANITIZE=ON -DPHAL_BUILD_TESTS=OFF \
  -DPHAL_BUILD_SAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g"
cmake --build "$build" --parallel "$(nproc)" --target "${fuzzers[@]}"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for fuzzer in "${fuzzers[@]}"; do
  mkdir -p "$build/corpus/$fuzzer" "$build/artifacts/$fuzzer"
  echo "== $fuzzer: $seconds s"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: 2 GiB is OOM.
  # The StableHLO project's artifacts seed the artifact reader too, when
  # ../shared/corpus is beside the checkout (read there, never copied).
  extra=()
  if [ "$fuzzer" = portable_artifact_fuzzer ] &&
    [ -d "$root/../shared/corpus/vhlo" ]; then
    extra=("$root/../shared/corpus/vhlo")
  fi
  "$build/bin/$fuzzer" "$build/corpus/$fuzzer" "$root/fuzz/$fuzzer/corpus" \
    "${extra[@]}" \
    -dict="$root/fuzz/$fuzzer.dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$fuzzer/" || status=1
done
exit $status
