#!/usr/bin/env bash
# Builds everything and runs the whole test suite through CTest.
#   scripts/test.sh             the normal build, in build/
#   scripts/test.sh --sanitize  ASan + UBSan, in build-sanitize/
#   scripts/test.sh --tsan      ThreadSanitizer over the concurrency tests,
#                               in build-tsan/
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tests=()
if [ "${1:-}" = "--tsan" ]; then
  build="$root/build-tsan"
  # Only what the concurrency tests need: the core's and the cpu plugin's
  # test binaries, the SDK's, the plugins the core's tests load and the CLI.
  bash "$root/scripts/build.sh" "$build" -DPHAL_BUILD_TESTS=ON \
    -DPHAL_SANITIZE_THREAD=ON -DPHAL_BUILD_SAMPLES=OFF --target \
    polyhal_core_tests polyhal_sdk_tests phal_plugin_cpu_tests polyhal_cli \
    polyhal_cli_tests \
    phal_plugin_nvidia phal_plugin_amd phal_plugin_asic-ref phal_plugin_template
  # second_deadlock_stack: both stacks of a lock-order inversion; the
  # suppressions name reports inside third-party libraries (Open MPI).
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/scripts/tsan_suppressions.txt"
  # The tests that run threads against one client, one executable, one
  # stream, one kernel or one cache (docs/reliability.md, "Sanitizers").
  tests=(-R 'EightThreads|ConcurrencyTest|SeveralThreads|ReadersNeverSeeHalfAnEntry|Stress|Spmd|MultiDevice|CollectiveTimeout|Collectives|HostCommunicator|DistributedGrid|TcpJob|HostReductions|TcpTransport|JoinedCommunicators')
elif [ "${1:-}" = "--sanitize" ]; then
  build="$root/build-sanitize"
  bash "$root/scripts/build.sh" "$build" -DPHAL_BUILD_TESTS=ON -DPHAL_SANITIZE=ON
  # handle_segv=0: the conformance suite's crash isolation must see a
  # plugin's segfault as the signal it is. The suppressions name the
  # process-lifetime allocations of the OpenCL driver stack (PoCL).
  # quarantine_size_mb=32: the conformance suite's leak cases measure
  # resident memory over 256 MiB of freed buffers, which ASan's default
  # quarantine (256 MiB) would hold on to.
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:handle_segv=0:quarantine_size_mb=32
  export LSAN_OPTIONS="suppressions=$root/plugins/intel/lsan_suppressions.txt"
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  build="$root/build"
  # The Python package's jax tests run in build/python-venv (jax from PyPI);
  # made before configuring, so CTest runs them there.
  bash "$root/scripts/install-deps.sh"
  bash "$root/scripts/python-venv.sh" "$build"
  # The PJRT plugin's header, from its PyPI wheel (sdk/pjrt, docs/jax.md);
  # without PyPI the plugin and its tests are skipped.
  if [ -x "$build/python-venv/bin/python" ]; then
    "$build/python-venv/bin/python" "$root/scripts/fetch_pjrt_header.py" \
      "$build/pjrt/include"
  fi
  # Tests on and sanitizers off, whatever an earlier configure of build/
  # chose (scripts/demo.sh builds only what it runs, in the same folder).
  bash "$root/scripts/build.sh" "$build" -DPHAL_BUILD_TESTS=ON -DPHAL_SANITIZE=OFF
fi
# A run that finds no test fails: an empty suite is never a pass.
status=0
ctest --test-dir "$build" --output-on-failure --no-tests=error \
  --parallel "$(nproc)" --timeout 600 "${tests[@]}" || status=$?
if [ "$status" -ne 0 ] && [ "${1:-}" = "--sanitize" ]; then
  # LeakSanitizer's stop-the-world tracer sometimes dies of a segfault of
  # its own at process exit under load ("Tracer caught signal 11", an open
  # bug of the sanitizer runtime, google/sanitizers#1353), after the test
  # passed and before any leak was looked for. Those tests, and only when
  # every failure is one, run again once, alone.
  reruns=$(awk '
    /^[0-9]+\/[0-9]+ Testing: / { split($1, n, "/"); test = n[1]; tracer = 0 }
    /Tracer caught signal/ { tracer = 1 }
    /^Test Failed\./ { print (tracer ? "T " : "F ") test }
  ' "$build/Testing/Temporary/LastTest.log")
  if [ -n "$reruns" ] && ! grep -q '^F ' <<<"$reruns"; then
    list=$(awk '{printf "%s,", $2}' <<<"$reruns")
    echo "== LeakSanitizer's tracer died in $(wc -l <<<"$reruns") test(s);" \
      "running them again: ${list%,}"
    ctest --test-dir "$build" --output-on-failure -I "0,0,0,${list%,}"
    status=$?
  fi
fi
exit "$status"
