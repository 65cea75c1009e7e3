"""JAX through Polyhal's PJRT plugin (libpolyhal_pjrt, docs/jax.md):
unchanged jax.jit programs on jax.devices("polyhal") against jax's CPU
backend, on the cpu, asic-ref and emulated nvidia plugins. Each plugin runs
in its own process (JAX makes its backends once per process), which finds
the plugin the way an installed package offers it: a `jax_plugins` entry
point."""
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import textwrap

import pytest

polyhal = pytest.importorskip("polyhal")
pytest.importorskip(
    "jax", reason="jax is not installed: scripts/python-venv.sh makes the "
    "test venv with it")
from polyhal import jax_plugin  # noqa: E402

LIBRARY = jax_plugin.library_path()
pytestmark = pytest.mark.skipif(
    LIBRARY is None,
    reason="libpolyhal_pjrt was not built: the PJRT header could not be "
    "fetched (scripts/fetch_pjrt_header.py)")

# The programs, run in a child process on jax.devices("polyhal")[0] and on
# jax's CPU backend; one JSON line per program.
CHILD = textwrap.dedent(r'''
    import json, sys, traceback
    import numpy as np
    import jax, jax.numpy as jnp
    from jax import lax

    poly = jax.devices("polyhal")[0]
    cpu = jax.devices("cpu")[0]
    rng = np.random.default_rng(0)

    def normal(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    def run(fn, args, device):
        placed = jax.device_put(args, device)
        return jax.tree_util.tree_map(np.asarray, jax.jit(fn)(*placed))

    def check(name, fn, *args, rtol=1e-4, atol=1e-5):
        try:
            got = run(fn, args, poly)
            want = run(fn, args, cpu)
            errors = []
            for g, w in zip(jax.tree_util.tree_leaves(got),
                            jax.tree_util.tree_leaves(want)):
                if g.shape != w.shape or g.dtype != w.dtype:
                    errors.append(f"{g.dtype}{g.shape} vs {w.dtype}{w.shape}")
                elif not np.allclose(g, w, rtol=rtol, atol=atol,
                                     equal_nan=True):
                    errors.append("max |error| %g" % np.max(np.abs(
                        g.astype(np.float64) - w.astype(np.float64))))
            print(json.dumps({"name": name, "ok": not errors,
                              "error": "; ".join(errors)}), flush=True)
        except Exception as error:  # reported to the parent test
            print(json.dumps({"name": name, "ok": False,
                              "error": f"{type(error).__name__}: {error}"}),
                  flush=True)

    def mlp(params, x):
        (w1, b1), (w2, b2) = params
        h = jax.nn.relu(x @ w1 + b1)
        return jax.nn.log_softmax(h @ w2 + b2)

    mlp_params = ((normal(16, 32), normal(32)), (normal(32, 8), normal(8)))
    check("mlp", mlp, mlp_params, normal(4, 16))

    def layer_norm(x, eps=1e-5):
        mean = x.mean(-1, keepdims=True)
        return (x - mean) * lax.rsqrt(((x - mean) ** 2).mean(-1, keepdims=True)
                                      + eps)

    def block(p, x):
        h = layer_norm(x)
        q, k, v = jnp.split(h @ p["qkv"], 3, axis=-1)
        scores = jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(q.shape[-1])
        mask = jnp.tril(jnp.ones((x.shape[1], x.shape[1]), bool))
        scores = jnp.where(mask, scores, -1e9)
        x = x + jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(scores), v) @ p["o"]
        return x + jax.nn.gelu(layer_norm(x) @ p["up"]) @ p["down"]

    block_params = {"qkv": normal(32, 96) * 0.2, "o": normal(32, 32) * 0.2,
                    "up": normal(32, 64) * 0.2, "down": normal(64, 32) * 0.2}
    check("transformer_block", block, block_params, normal(2, 8, 32),
          rtol=1e-3, atol=1e-4)

    def loss(w, x, y):
        return jnp.mean((jnp.tanh(x @ w["a"]) @ w["b"] - y) ** 2)

    def train(w, x, y):
        velocity = jax.tree_util.tree_map(jnp.zeros_like, w)
        losses = []
        for _ in range(4):
            value, grads = jax.value_and_grad(loss)(w, x, y)
            velocity = jax.tree_util.tree_map(lambda v, g: 0.9 * v + g,
                                              velocity, grads)
            w = jax.tree_util.tree_map(lambda p, v: p - 0.05 * v, w, velocity)
            losses.append(value)
        return w, jnp.stack(losses)

    check("training_loop", train, {"a": normal(8, 16), "b": normal(16, 2)},
          normal(32, 8), normal(32, 2), rtol=1e-3, atol=1e-4)

    def rnn(w, xs):
        def cell(h, x):
            h = jnp.tanh(x @ w["x"] + h @ w["h"])
            return h, h.sum()
        return lax.scan(cell, jnp.zeros(w["h"].shape[0]), xs)

    check("scan", rnn, {"x": normal(4, 8) * 0.5, "h": normal(8, 8) * 0.5},
          normal(12, 4), rtol=1e-3, atol=1e-4)

    def newton_sqrt(a):
        def body(state):
            x, i = state
            return 0.5 * (x + a / x), i + 1
        return lax.while_loop(lambda s: (s[1] < 20) & (jnp.max(
            jnp.abs(s[0] * s[0] - a)) > 1e-5), body, (a, 0))

    check("while_loop", newton_sqrt, np.linspace(1, 9, 7, dtype=np.float32))

    def sample(key):
        k1, k2 = jax.random.split(key)
        return (jax.random.normal(k1, (6,)), jax.random.uniform(k2, (3, 2)),
                jax.random.randint(key, (5,), 0, 100),
                jax.random.bits(k2, (4,)))

    check("random", sample, jax.random.key_data(jax.random.key(42)))

    def sort(x):
        return jnp.sort(x, axis=-1), jnp.argsort(x[0]), lax.sort(
            (x[1], x[0]), num_keys=1)

    check("sort", sort, normal(3, 17))

    def fft(x):
        spectrum = jnp.fft.fft(x)
        return spectrum.real, spectrum.imag, jnp.fft.irfft(jnp.fft.rfft(x))

    check("fft", fft, normal(4, 16), rtol=1e-3, atol=1e-4)

    def linear_algebra(a):
        spd = a @ a.T + a.shape[0] * jnp.eye(a.shape[0])
        return (jnp.linalg.eigh(spd)[0], jnp.linalg.cholesky(spd),
                jnp.linalg.solve(spd, a[:, :2]), jnp.linalg.slogdet(spd)[1])

    check("linear_algebra", linear_algebra, normal(6, 6), rtol=1e-3,
          atol=1e-4)

    def int8_matmul(a, b):
        return jnp.matmul(a, b, preferred_element_type=jnp.int32)

    check("int8_matmul", int8_matmul,
          rng.integers(-128, 128, (8, 32)).astype(np.int8),
          rng.integers(-128, 128, (32, 4)).astype(np.int8), rtol=0, atol=0)

    def dtypes(b, i, h, bf):
        return ~b, i * 3 - 1, h * 2, (bf + 1).astype(jnp.float32)

    check("dtypes", dtypes, rng.random(5) > 0.5,
          rng.integers(-9, 9, (2, 3)).astype(np.int32),
          normal(4).astype(np.float16), normal(4).astype(jnp.bfloat16),
          rtol=1e-2, atol=1e-2)

    # Donation, memory statistics, and an error that does not end the
    # process.
    try:
        value = normal(256)
        x = jax.device_put(value, poly)
        stats = poly.memory_stats() or {}
        y = jax.jit(lambda v: v * 2, donate_argnums=0)(x)
        ok = (stats.get("bytes_in_use", 0) >= value.nbytes and
              np.array_equal(np.asarray(y), value * 2))
        print(json.dumps({"name": "donation_and_memory_stats",
                          "ok": bool(ok), "error": str(stats)}), flush=True)
    except Exception as error:
        print(json.dumps({"name": "donation_and_memory_stats", "ok": False,
                          "error": f"{type(error).__name__}: {error}"}),
              flush=True)

    try:
        jax.jit(lambda v: jax.ffi.ffi_call(
            "polyhal_test_no_such_target",
            jax.ShapeDtypeStruct(v.shape, v.dtype))(v))(
                jax.device_put(normal(3), poly))
        print(json.dumps({"name": "unsupported_program", "ok": False,
                          "error": "no exception"}), flush=True)
    except Exception as error:
        after = np.asarray(jax.jit(lambda v: v + 1)(
            jax.device_put(np.ones(2, np.float32), poly)))
        print(json.dumps({"name": "unsupported_program",
                          "ok": "polyhal_test_no_such_target" in str(error)
                          and after.tolist() == [2.0, 2.0],
                          "error": f"{type(error).__name__}: {error}"}),
              flush=True)
''')

# What a plugin's device refuses, with the words of its refusal.
EXPECTED_REFUSALS = {
    "asic-ref": {"fft": "c64"},
}


def entry_point_dir(root):
    """A directory on sys.path holding the dist-info JAX's plugin discovery
    reads (importlib.metadata entry points, group jax_plugins), as `pip
    install .` writes it from pyproject.toml."""
    info = os.path.join(root, "polyhal_jax_entry-0.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: polyhal-jax-entry\n"
                "Version: 0\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as f:
        f.write("[jax_plugins]\npolyhal = polyhal.jax_plugin\n")
    return root


def run_child(code, plugin, platforms="polyhal,cpu", timeout=600,
              extra_env=None):
    with tempfile.TemporaryDirectory(prefix="polyhal-pjrt-") as root:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [entry_point_dir(root)] +
            [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
        env["POLYHAL_PJRT_PLUGIN"] = plugin
        env["JAX_PLATFORMS"] = platforms
        env["PHAL_GPU_EMULATION"] = "1"
        env.pop("PJRT_NAMES_AND_LIBRARY_PATHS", None)
        env.update(extra_env or {})
        return subprocess.run([sys.executable, "-c", code], env=env,
                              capture_output=True, text=True,
                              timeout=timeout)


@pytest.mark.parametrize("plugin", ["cpu", "asic-ref", "nvidia"])
def test_jax_programs_match_jax_cpu(plugin):
    done = run_child(CHILD, plugin)
    results = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            results[record["name"]] = record
    assert len(results) == 13, (
        f"the child process ended early (exit {done.returncode}):\n"
        f"{done.stdout}\n{done.stderr[-3000:]}")
    refusals = EXPECTED_REFUSALS.get(plugin, {})
    failures = []
    for name, record in results.items():
        if name in refusals:
            if record["ok"] or refusals[name] not in record["error"]:
                failures.append(f"{name}: expected a refusal naming "
                                f"{refusals[name]!r}, got {record}")
            continue
        if not record["ok"]:
            failures.append(f"{name}: {record['error']}")
    assert not failures, f"on {plugin}:\n" + "\n".join(failures)


MULTI_DEVICE = textwrap.dedent(r'''
    import jax, jax.numpy as jnp, numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    devices = jax.devices("polyhal")
    assert len(devices) == 4, devices
    x = np.arange(16, dtype=np.float32).reshape(4, 4)
    # Replicas: pmap with a cross-replica sum.
    y = jax.pmap(lambda v: jax.lax.psum(v, "i") * 2, axis_name="i",
                 devices=devices)(x)
    np.testing.assert_allclose(np.asarray(y), np.tile(x.sum(0) * 2, (4, 1)))
    # Partitions: a global program sharded over a mesh, partitioned by
    # Polyhal's SPMD partitioner.
    mesh = Mesh(np.array(devices), ("x",))
    xs = jax.device_put(x, NamedSharding(mesh, P("x", None)))
    f = jax.jit(lambda v: jnp.sin(v).sum(axis=0) + v[:, 0].sum(),
                out_shardings=NamedSharding(mesh, P()))
    np.testing.assert_allclose(np.asarray(f(xs)),
                               np.sin(x).sum(0) + x[:, 0].sum(), rtol=1e-5)
    print("multi-device ok")
''')


def test_replicated_and_sharded_programs_run_on_several_devices():
    done = run_child(MULTI_DEVICE, "cpu",
                     extra_env={"PHAL_VIRTUAL_DEVICES": "4"})
    assert done.returncode == 0 and "multi-device ok" in done.stdout, (
        done.stdout + done.stderr[-3000:])


def test_polyhal_is_the_default_backend_only_when_asked():
    code = ("import jax; print(jax.default_backend()); "
            "print(len(jax.devices('polyhal')))")
    alongside = run_child(code, "cpu", platforms="")
    assert alongside.returncode == 0, alongside.stderr
    assert alongside.stdout.split()[:2] == ["cpu", "1"], alongside.stdout
    alone = run_child("import jax; print(jax.default_backend()); "
                      "print(jax.devices())", "cpu", platforms="polyhal")
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.splitlines()[0] == "polyhal", alone.stdout
    assert "PolyhalDevice(id=0, plugin=cpu)" in alone.stdout


def test_a_plugin_without_devices_is_a_clear_error():
    done = run_child("import jax; jax.devices('polyhal')", "no-such-plugin",
                     platforms="polyhal")
    assert done.returncode != 0
    assert "no-such-plugin" in done.stderr, done.stderr[-2000:]


class ErrorMessageArgs(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t),
                ("extension_start", ctypes.c_void_p),
                ("error", ctypes.c_void_p),
                ("message", ctypes.c_char_p),
                ("message_size", ctypes.c_size_t)]


def test_every_entry_point_is_filled_and_unimplemented_ones_say_so():
    library = ctypes.CDLL(LIBRARY)
    library.GetPjrtApi.restype = ctypes.c_void_p
    api = library.GetPjrtApi()
    struct_size = ctypes.c_size_t.from_address(api).value
    # struct_size, extension_start, then PJRT_Api_Version (struct_size,
    # extension_start, major, minor), then one pointer per entry point.
    header = 2 * 8 + 8 + 8 + 4 + 4
    count = (struct_size - header) // 8
    assert count >= 118
    slots = (ctypes.c_void_p * count).from_address(api + header)
    assert all(slots), [i for i, slot in enumerate(slots) if not slot]
    version = (ctypes.c_int * 2).from_address(api + 2 * 8 + 8 + 8)
    assert version[0] == 0 and version[1] >= 81
    # PJRT_TopologyDescription_Create is slot 82; PJRT_Error_Message 1.
    function = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)
    create = function(slots[82])
    error = create(None)
    assert error
    message = ErrorMessageArgs(ctypes.sizeof(ErrorMessageArgs), None, error)
    ctypes.CFUNCTYPE(None, ctypes.POINTER(ErrorMessageArgs))(slots[1])(
        ctypes.byref(message))
    text = message.message[:message.message_size].decode()
    assert text == ("PJRT_TopologyDescription_Create is not implemented by "
                    "Polyhal's PJRT plugin")
