#!/usr/bin/env python3
"""All-reduce on a plugin's devices, against memcpy on the same machine.

For each size, writes an HLO module whose N processes all-reduce an f32
array, times it with `polyhal bench --devices N` (PHAL_VIRTUAL_DEVICES=N,
so the cpu plugin offers N host devices) and reports the bandwidths as
nccl-tests define them: algbw = bytes / time, busbw = algbw * 2 (N - 1) / N
(the bytes each device's link carries in a ring). The baseline is a
memcpy of the same bytes (numpy.copyto of a preallocated array) timed in
the same run, and so is the same all-reduce staged through host memory
(PHAL_STAGE_COLLECTIVES=1), the way plugins without ABI 1.8's collective
slots run it.

  build/python-venv/bin/python scripts/bench_collectives.py \\
      [--polyhal build/bin/polyhal] [--plugin cpu] [--devices 2 4] \\
      [--sizes 4096 262144 4194304 16777216] [--repeat 20]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

MODULE = """HloModule all_reduce_{elements}, replica_count={devices}
add {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}}
ENTRY main {{
  x = f32[{elements}] parameter(0)
  ROOT r = f32[{elements}] all-reduce(x), replica_groups={{}}, to_apply=add
}}
"""


def bench_all_reduce(polyhal, plugin, devices, size, repeat, directory,
                     staged=False):
    elements = size // 4
    path = os.path.join(directory, f"all_reduce_{devices}_{elements}.hlo")
    with open(path, "w") as f:
        f.write(MODULE.format(elements=elements, devices=devices))
    env = dict(os.environ, PHAL_VIRTUAL_DEVICES=str(devices),
               PHAL_STAGE_COLLECTIVES="1" if staged else "0")
    out = subprocess.run(
        [polyhal, "bench", path, "--plugin", plugin, "--devices",
         str(devices), "--repeat", str(repeat), "--json"],
        env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["median_ms"] / 1e3


def bench_memcpy(size, repeat):
    source = np.ones(size // 4, dtype=np.float32)
    target = np.empty_like(source)
    np.copyto(target, source)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        np.copyto(target, source)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polyhal", default="build/bin/polyhal")
    parser.add_argument("--plugin", default="cpu")
    parser.add_argument("--devices", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--sizes", type=int, nargs="+",
                        default=[4096, 262144, 4194304, 16777216])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print("| devices | bytes | time | algbw | busbw | memcpy | busbw / memcpy "
          "| staged busbw | slots / staged |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for devices in args.devices:
            for size in args.sizes:
                seconds = bench_all_reduce(args.polyhal, args.plugin, devices,
                                           size, args.repeat, directory)
                staged = bench_all_reduce(args.polyhal, args.plugin, devices,
                                          size, args.repeat, directory,
                                          staged=True)
                memcpy = size / bench_memcpy(size, args.repeat)
                factor = 2 * (devices - 1) / devices
                algbw = size / seconds
                busbw = algbw * factor
                staged_busbw = size / staged * factor
                print(f"| {devices} | {size} | {seconds * 1e3:.3f} ms | "
                      f"{algbw / 1e9:.2f} GB/s | {busbw / 1e9:.2f} GB/s | "
                      f"{memcpy / 1e9:.2f} GB/s | {busbw / memcpy:.3f} | "
                      f"{staged_busbw / 1e9:.2f} GB/s | "
                      f"{staged / seconds:.1f}x |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
