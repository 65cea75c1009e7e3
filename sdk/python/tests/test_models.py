"""polyhal.compile runs the JAX models of samples/models/jax, from their HLO
and their StableHLO text, with the results XLA computed for them, on every
plugin that executes programs and on the reference interpreter."""
import os

import pytest

import polyhal
from conftest import (JAX_MODELS, check_model_outputs, jax_model_arrays,
                      jax_model_names)


@pytest.mark.parametrize("suffix", [".hlo", ".mlir"])
@pytest.mark.parametrize("name", jax_model_names())
def test_jax_model_gives_xla_results(name, suffix, plugin):
    path = os.path.join(JAX_MODELS, name + suffix)
    try:
        executable = polyhal.compile(path, plugin)
    except polyhal.Error as error:
        # As the conformance suite's NotSupported: a device may lack an
        # element type (asic-ref has no f64 or complex), and says so.
        if error.code == "UNIMPLEMENTED" and "are not supported" in str(error):
            pytest.skip(str(error))
        raise
    assert executable.device.plugin == plugin
    check_model_outputs(executable(*jax_model_arrays(name, "input")), name)


@pytest.mark.parametrize("name", jax_model_names())
def test_jax_model_text_is_detected_as_the_file_would_be(name):
    with open(os.path.join(JAX_MODELS, name + ".mlir")) as file:
        stablehlo = file.read()
    check_model_outputs(
        polyhal.compile(stablehlo)(*jax_model_arrays(name, "input")), name)


@pytest.mark.parametrize("name", jax_model_names())
def test_reference_interpreter_gives_xla_results(name):
    path = os.path.join(JAX_MODELS, name + ".hlo")
    check_model_outputs(
        polyhal.reference(path, *jax_model_arrays(name, "input")), name)
