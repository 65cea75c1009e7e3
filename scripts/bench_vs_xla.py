# Times the StableHLO modules of benchmarks/models on a Polyhal plugin (cpu
# by default) and on XLA:CPU, side by side, and prints a Markdown table of
# the ratio XLA time / Polyhal time (above 1: Polyhal is faster) with the
# geometric mean. A development tool: it needs jax, which building and
# testing Polyhal never do; without jax it says so and exits 0.
#
# Both sides run the same text with the same inputs: Polyhal through
# `polyhal bench --json --input ...`, XLA by compiling the module's text with
# jax's CPU client (`jax.extend.backend.get_backend("cpu").compile_and_load`)
# and executing the loaded executable on device arrays of the inputs
# (`scripts/export_benchmark_models.py` makes them from a fixed seed). Each
# round runs one `polyhal bench` of --repeat runs, then --repeat XLA runs, so
# machine load falls on both alike; the medians are over every timed run of
# every round. The outputs of `polyhal run` are checked against XLA's.
#   scripts/bench_vs_xla.py [--polyhal PATH] [--plugin NAME] [--rounds N]
#                           [--repeat N] [--models-dir DIR]
#                           [--models-module NAME] [MODULE...]
# --models-dir DIR times the .mlir files of a directory other than
# benchmarks/models, and --models-module NAME names the script of scripts/
# whose `inputs(name)` makes their inputs (export_benchmark_models by
# default). The variant models, a second set of the suite's families at
# other shapes, come from scripts/export_variant_models.py:
#   build/python-venv/bin/python scripts/export_variant_models.py --out /tmp/variant-models
#   scripts/bench_vs_xla.py --models-dir /tmp/variant-models \
#                           --models-module export_variant_models
import argparse
import glob
import importlib
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    np = None

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MODELS_DIR = os.path.join(ROOT, "benchmarks", "models")


def parse_args():
    parser = argparse.ArgumentParser(
        description="Times benchmarks/models/*.mlir on a Polyhal plugin and on XLA:CPU, "
        "interleaved, and prints the ratio XLA time / Polyhal time.")
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help="module names (default: every .mlir of benchmarks/models)")
    parser.add_argument("--polyhal", default=os.path.join(ROOT, "build", "bin", "polyhal"),
                        help="the polyhal executable (default: build/bin/polyhal)")
    parser.add_argument("--plugin", default="cpu", help="the Polyhal plugin (default: cpu)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternations of Polyhal and XLA per module (default: 3)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="timed runs per side and round (default: 5)")
    parser.add_argument("--rtol", type=float, default=2e-3,
                        help="largest difference of the outputs allowed, relative to the "
                        "largest magnitude of XLA's output (default: 2e-3; for bf16 and "
                        "f16 outputs at least their epsilon, 2^-7 and 2^-10)")
    parser.add_argument("--models-dir", default=MODELS_DIR, metavar="DIR",
                        help="the directory of the .mlir modules (default: benchmarks/models)")
    parser.add_argument("--models-module", default="export_benchmark_models", metavar="NAME",
                        help="the script of scripts/ whose inputs(name) makes the modules' "
                        "inputs (default: export_benchmark_models; export_variant_models "
                        "for the variant models)")
    return parser.parse_args()


def polyhal_bench(args, module, input_files, cache):
    command = [args.polyhal, "bench", module, "--plugin", args.plugin,
               "--repeat", str(args.repeat), "--json"]
    for path in input_files:
        command += ["--input", path]
    result = subprocess.run(command, capture_output=True, text=True,
                            env=dict(os.environ, PHAL_CACHE_DIR=cache))
    if result.returncode != 0:
        raise RuntimeError(f"polyhal bench failed: {result.stderr.strip()}")
    return json.loads(result.stdout)["runs_ms"]


def polyhal_outputs(args, module, input_files, directory):
    command = [args.polyhal, "run", module, "--plugin", args.plugin, "--output-dir", directory]
    for path in input_files:
        command += ["--input", path]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"polyhal run failed: {result.stderr.strip()}")
    count = len(glob.glob(os.path.join(directory, "output_*.npy")))
    return [np.load(os.path.join(directory, f"output_{k}.npy")) for k in range(count)]


def register_lapack_targets(jax):
    """jaxlib registers its LAPACK custom-call targets with XLA:CPU when a
    linear-algebra function first lowers; text compiled directly would
    otherwise call targets XLA does not know."""
    import jax.numpy as jnp
    square = np.eye(2, dtype=np.float32)
    for function in (jnp.linalg.cholesky, jnp.linalg.inv, jnp.linalg.qr,
                     jnp.linalg.eigh, jnp.linalg.svd):
        jax.jit(function).lower(square)


class XlaModule:
    """A module's text compiled by XLA:CPU, ready to run on its inputs."""

    def __init__(self, jax, text, data):
        register_lapack_targets(jax)
        from jax._src import compiler
        from jax._src.lib import xla_client
        from jax.extend import backend
        self._jax = jax
        client = backend.get_backend("cpu")
        device = client.local_devices()[0]
        options = compiler.get_compile_options(num_replicas=1, num_partitions=1)
        self._executable = client.compile_and_load(
            text, xla_client.DeviceList((device,)), options)
        self._arguments = [jax.device_put(np.asarray(value), device) for value in data]

    def run(self):
        return self._jax.block_until_ready(self._executable.execute(self._arguments))

    def runs_ms(self, repeat):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            self.run()
            times.append((time.perf_counter() - start) * 1e3)
        return times


# One unit in the last place at the top of a binade, relative: outputs of
# these types may differ by a rounding step wherever the sums they round
# were added in another order.
OUTPUT_EPSILON = {"bfloat16": 2.0 ** -7, "float16": 2.0 ** -10}


def difference(polyhal, xla, rtol):
    """The largest difference of the outputs, relative to the largest
    magnitude of XLA's outputs (integers: the count of unequal elements),
    and the largest allowed: rtol, or a 16-bit float output's epsilon."""
    worst, allowed = 0.0, rtol
    for mine, theirs in zip(polyhal, xla):
        theirs = np.asarray(theirs)
        if mine.shape != theirs.shape:
            return math.inf, allowed
        if mine.dtype != theirs.dtype and mine.dtype.itemsize == theirs.dtype.itemsize:
            mine = mine.view(theirs.dtype)  # bf16 comes back as raw 2-byte records
        allowed = max(allowed, OUTPUT_EPSILON.get(theirs.dtype.name, rtol))
        theirs = theirs.astype(np.float64) if theirs.dtype.kind == "V" or \
            theirs.dtype.name in OUTPUT_EPSILON else theirs
        if np.issubdtype(theirs.dtype, np.integer):
            worst = max(worst, float(np.count_nonzero(mine != theirs)))
            continue
        scale = max(float(np.max(np.abs(theirs))), np.finfo(np.float32).tiny)
        worst = max(worst, float(np.max(np.abs(mine.astype(np.float64) - theirs))) / scale)
    return (worst if len(polyhal) == len(xla) else math.inf), allowed


def machine():
    name = platform.processor() or platform.machine()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    return f"{name}, {os.cpu_count()} CPUs, load {load}"


def main():
    args = parse_args()
    try:
        if np is None:
            raise ImportError("no numpy")
        import jax
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        models = importlib.import_module(args.models_module)
    except ImportError as error:
        if error.name == args.models_module:
            print(f"bench_vs_xla: no script {args.models_module}.py in scripts/", file=sys.stderr)
            return 2
        print(f"bench_vs_xla: needs jax and numpy ({error}); nothing compared. "
              "scripts/python-venv.sh builds a virtual environment with it.", file=sys.stderr)
        return 0
    if not os.access(args.polyhal, os.X_OK):
        print(f"bench_vs_xla: no polyhal executable at {args.polyhal}", file=sys.stderr)
        return 2
    names = args.modules or sorted(
        os.path.basename(path)[:-len(".mlir")]
        for path in glob.glob(os.path.join(args.models_dir, "*.mlir")))
    print(f"machine: {machine()}")
    print(f"Polyhal plugin {args.plugin} against XLA:CPU (jax {jax.__version__}), "
          f"{args.rounds} rounds of {args.repeat} runs each, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("| module | Polyhal median (ms) | XLA:CPU median (ms) | XLA / Polyhal | outputs differ by |")
    print("|---|---|---|---|---|")
    ratios, failures = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            module = os.path.join(args.models_dir, name + ".mlir")
            data = models.inputs(name)
            input_files = []
            for k, value in enumerate(data):
                input_files.append(os.path.join(scratch, f"{name}.input_{k}.npy"))
                np.save(input_files[-1], np.asarray(value))
            cache = os.path.join(scratch, f"{name}.cache")
            try:
                with open(module) as f:
                    xla = XlaModule(jax, f.read(), data)
                expected = xla.run()
                error, allowed = difference(
                    polyhal_outputs(args, module, input_files, os.path.join(scratch, name)),
                    expected, args.rtol)
                polyhal_ms, xla_ms = [], []
                for _ in range(args.rounds):
                    polyhal_ms += polyhal_bench(args, module, input_files, cache)
                    xla_ms += xla.runs_ms(args.repeat)
            except RuntimeError as failure:
                failures.append(name)
                print(f"| {name} | failed: {str(failure).splitlines()[0]} | | | |")
                continue
            finally:
                for path in input_files:
                    os.remove(path)
            polyhal_median, xla_median = np.median(polyhal_ms), np.median(xla_ms)
            ratios.append(xla_median / polyhal_median)
            agrees = error <= allowed
            if not agrees:
                failures.append(name)
            print(f"| {name} | {polyhal_median:.3f} | {xla_median:.3f} | {ratios[-1]:.2f} | "
                  f"{error:.1e}{'' if agrees else ' (above ' + str(allowed) + ')'} |",
                  flush=True)
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"| geometric mean | | | {mean:.2f} | |")
    if failures:
        print(f"\nbench_vs_xla: failed or disagreed: {', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
