"""StableHLO portable artifacts written by jaxlib (docs/stablehlo.md,
"Portable artifacts"): jax.export's `mlir_module_serialized` and
`serialize_portable_artifact` at several target versions, compiled by
polyhal.compile from their bytes and run by `polyhal run` from a file,
matching jax."""
import os
import subprocess
import tempfile

import numpy as np
import pytest

polyhal = pytest.importorskip("polyhal")
jax = pytest.importorskip(
    "jax", reason="jax is not installed: scripts/python-venv.sh makes the "
    "test venv with it")
import jax.numpy as jnp  # noqa: E402
from jax import export, lax  # noqa: E402
from jaxlib.mlir.dialects import stablehlo  # noqa: E402

from polyhal import _cli  # noqa: E402

rng = np.random.default_rng(7)


def normal(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def mlp(w, b, x):
    return jax.nn.softmax(jnp.tanh(x @ w + b))


def conv(image, kernel):
    return lax.conv_general_dilated(image, kernel, (1, 1), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def scan(xs):
    return lax.scan(lambda c, x: (c * 0.5 + x, c.sum()), jnp.zeros(4), xs)


def gather_sort(x, index):
    return jnp.sort(x[index], axis=-1)


def int8_matmul(a, b):
    return jnp.matmul(a, b, preferred_element_type=jnp.int32)


MODELS = {
    "mlp": (mlp, (normal(8, 4), normal(4), normal(3, 8))),
    "conv": (conv, (normal(1, 6, 6, 2), normal(3, 3, 2, 5))),
    "scan": (scan, (normal(7, 4),)),
    "gather_sort": (gather_sort, (normal(5, 9), np.array([4, 0, 2], np.int32))),
    "int8_matmul": (int8_matmul,
                    (rng.integers(-100, 100, (4, 16)).astype(np.int8),
                     rng.integers(-100, 100, (16, 3)).astype(np.int8))),
}


def exported(name):
    function, arguments = MODELS[name]
    return export.export(jax.jit(function))(*arguments), arguments


def expected(name):
    function, arguments = MODELS[name]
    return [np.asarray(leaf) for leaf in
            jax.tree_util.tree_leaves(jax.jit(function)(*arguments))]


def assert_matches(got, want, name):
    got = got if isinstance(got, (list, tuple)) else [got]
    assert len(got) == len(want), name
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-5, atol=1e-5,
                                   err_msg=name)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_jax_export_bytes_compile_and_match(name):
    artifact, arguments = exported(name)
    data = artifact.mlir_module_serialized
    assert data.startswith(b"ML\xefR")
    executable = polyhal.compile(data, "cpu")
    assert_matches(executable(*arguments), expected(name), name)


@pytest.mark.parametrize("version", ["0.9.0", "0.15.0", "1.0.0", "1.5.0",
                                     "1.10.0", "current"])
def test_every_target_version_reads(version):
    target = stablehlo.get_current_version() if version == "current" \
        else version
    for name in ("mlp", "scan", "gather_sort"):
        artifact, arguments = exported(name)
        data = stablehlo.serialize_portable_artifact_str(
            artifact.mlir_module(), target)
        assert data.startswith(b"ML\xefR")
        assert_matches(polyhal.compile(bytes(data), "cpu")(*arguments),
                       expected(name), f"{name} at {target}")


def test_polyhal_run_reads_an_artifact_file():
    artifact, arguments = exported("mlp")
    with tempfile.TemporaryDirectory(prefix="polyhal-artifact-") as work:
        path = os.path.join(work, "mlp.mlirbc")
        with open(path, "wb") as f:
            f.write(artifact.mlir_module_serialized)
        command = [_cli.command_path(), "run", path, "--plugin", "cpu",
                   "--output-dir", os.path.join(work, "out")]
        for i, argument in enumerate(arguments):
            input_path = os.path.join(work, f"in{i}.npy")
            np.save(input_path, argument)
            command += ["--input", input_path]
        done = subprocess.run(command, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        got = np.load(os.path.join(work, "out", "output_0.npy"))
        assert_matches([got], expected("mlp"), "polyhal run")
        text = subprocess.run([_cli.command_path(), "convert", path, "--to",
                               "stablehlo"], capture_output=True, text=True)
        assert text.returncode == 0, text.stderr
        assert '"stablehlo.tanh"' in text.stdout


def test_a_truncated_artifact_is_refused_with_its_byte_offset():
    data = exported("mlp")[0].mlir_module_serialized
    with pytest.raises(polyhal.Error) as error:
        polyhal.compile(data[:len(data) // 2], "cpu")
    assert "byte " in str(error.value)
