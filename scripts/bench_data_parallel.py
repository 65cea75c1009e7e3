#!/usr/bin/env python3
"""A data-parallel training step on 1 and 2 devices: Polyhal against XLA:CPU.

One SGD step of an MLP (batch split over the devices, parameters
replicated; XLA's SPMD partitioner sums the gradients with an all-reduce),
jitted by JAX with NamedShardings over a mesh of N host devices. For each
N the script takes XLA's module right after its spmd-partitioning pass
(the per-device program), times it with `polyhal bench --devices N` on the
plugin's first N devices (PHAL_VIRTUAL_DEVICES=N), and times the same
compiled JAX function on XLA:CPU's N devices, in the same run. Medians of
--repeat runs after a warm-up.

  build/python-venv/bin/python scripts/bench_data_parallel.py \\
      [--polyhal build/bin/polyhal] [--plugin cpu] [--devices 1 2] \\
      [--batch 1024] [--width 512] [--repeat 20]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

DUMP = tempfile.mkdtemp(prefix="dp_dump_")
os.environ["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=2 "
                           f"--xla_dump_to={DUMP} "
                           "--xla_dump_hlo_pass_re=spmd-partitioning")
import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402


def loss(params, x, y):
    w1, b1, w2, b2, w3, b3 = params
    h = jnp.tanh(x @ w1 + b1)
    h = jnp.tanh(h @ w2 + b2)
    return jnp.mean((h @ w3 + b3 - y) ** 2)


def step(w1, b1, w2, b2, w3, b3, x, y):
    params = (w1, b1, w2, b2, w3, b3)
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return tuple(p - 0.01 * g for p, g in zip(params, grads)) + (value,)


def partitioned_hlo(name):
    """XLA's module after spmd-partitioning; on one device, where XLA does
    not partition, the module as JAX handed it to XLA."""
    paths = glob.glob(f"{DUMP}/*.jit_{name}.*after_spmd-partitioning*.txt")
    if not paths:
        paths = glob.glob(f"{DUMP}/*.jit_{name}.before_optimizations.txt")
    [path] = paths
    text = open(path).read()
    text = re.sub(r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n(.+\n)+", "\n", text)
    return re.sub(r', metadata=\{[^{}]*\}', "", text)


def time_jax(compiled, args, repeat):
    jax.block_until_ready(compiled(*args))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def time_polyhal(polyhal, plugin, path, devices, repeat):
    env = dict(os.environ, PHAL_VIRTUAL_DEVICES=str(devices))
    out = subprocess.run(
        [polyhal, "bench", path, "--plugin", plugin, "--devices",
         str(devices), "--repeat", str(repeat), "--json"],
        env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["median_ms"] / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polyhal", default="build/bin/polyhal")
    parser.add_argument("--plugin", default="cpu")
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(3)
    w, b = args.width, args.batch

    def f32(*shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    inputs = (f32(w, w, scale=w ** -0.5), f32(w, scale=0.1),
              f32(w, w, scale=w ** -0.5), f32(w, scale=0.1),
              f32(w, 16, scale=w ** -0.5), f32(16, scale=0.1),
              f32(b, w), f32(b, 16))
    print(f"MLP {w}-{w}-{w}-16, batch {b}, f32; plugin {args.plugin}")
    print("| devices | Polyhal | XLA:CPU | speed vs XLA (XLA time / ours) | speed-up "
          "over 1 device |")
    print("|---|---|---|---|---|")
    first = None
    with tempfile.TemporaryDirectory() as directory:
        for devices in args.devices:
            mesh = Mesh(np.array(jax.devices()[:devices]), ("x",))
            replicated = NamedSharding(mesh, P())
            batch = NamedSharding(mesh, P("x"))
            name = f"dp_step_{devices}"
            step.__name__ = name
            jitted = jax.jit(step, in_shardings=(replicated,) * 6 + (batch,) * 2)
            compiled = jitted.lower(*inputs).compile()
            placed = [jax.device_put(a, s) for a, s in
                      zip(inputs, (replicated,) * 6 + (batch,) * 2)]
            xla = time_jax(compiled, placed, args.repeat)
            path = os.path.join(directory, name + ".hlo")
            with open(path, "w") as f:
                f.write(partitioned_hlo(name))
            ours = time_polyhal(args.polyhal, args.plugin, path, devices,
                                args.repeat)
            first = first or ours
            print(f"| {devices} | {ours * 1e3:.2f} ms | {xla * 1e3:.2f} ms | "
                  f"{xla / ours:.2f}x | {first / ours:.2f}x |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
