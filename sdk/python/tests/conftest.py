"""Shared by the Python package's tests: the sample models and the plugins
that execute programs."""
import os

import numpy as np
import pytest

import polyhal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
JAX_MODELS = os.path.join(ROOT, "samples", "models", "jax")


def executing_plugins():
    """Every loaded plugin with a device: cpu, intel (PoCL), template."""
    return [plugin.name for plugin in polyhal.plugins()
            if plugin.state == "loaded" and plugin.device_count > 0]


def is_multi_device(name):
    """spmd_ models are per-device programs for four devices, sharded_ ones
    jax.jit programs the SPMD partitioner splits over four; their inputs
    and outputs are global arrays (test_multi_device.py)."""
    return name.startswith("spmd_") or name.startswith("sharded_")


def jax_model_names():
    """The models for one device."""
    return [name for name in all_jax_model_names()
            if not is_multi_device(name)]


def spmd_model_names():
    """The models for four devices (samples/models/jax/spmd_*, sharded_*)."""
    return [name for name in all_jax_model_names() if is_multi_device(name)]


def all_jax_model_names():
    """Every NAME.hlo (NAME.xla.hlo, XLA's partitioned module kept to count
    its collectives, is not a model of its own)."""
    return sorted(name[:-len(".hlo")] for name in os.listdir(JAX_MODELS)
                  if name.endswith(".hlo") and not name.endswith(".xla.hlo"))


def jax_model_arrays(name, kind):
    """The model's inputs or XLA's outputs, in order."""
    arrays = []
    while True:
        path = os.path.join(JAX_MODELS, f"{name}.{kind}_{len(arrays)}.npy")
        if not os.path.exists(path):
            return arrays
        arrays.append(np.load(path))


def assert_close(actual, expected, rtol=1e-5, atol=1e-5):
    """Equal for integers and booleans, close for floating point."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    if np.issubdtype(expected.dtype, np.inexact):
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(actual, expected)


def check_model_outputs(outputs, name):
    """`outputs` (one array, or a list) are the XLA results of JAX model
    `name`, within the model tolerances: half precision differs from XLA's
    in the last bit or so."""
    expected = jax_model_arrays(name, "output")
    if len(expected) == 1:
        outputs = [outputs]
    assert len(outputs) == len(expected)
    for actual, wanted in zip(outputs, expected):
        loose = wanted.dtype == np.float16
        assert_close(actual, wanted, rtol=2e-3 if loose else 1e-4,
                     atol=2e-3 if loose else 1e-4)


@pytest.fixture(params=executing_plugins())
def plugin(request):
    return request.param
