"""polyhal.compile(..., devices=) runs programs for several processes: the
JAX SPMD models on four cpu devices with XLA's results, global arrays split
and assembled as `polyhal run --devices N` does, a program on devices of two
plugins, each device's own arrays, and the errors.

The cpu and template plugins give several devices only when
PHAL_VIRTUAL_DEVICES is set before the client is made, which the other test
files' session has already done; without it, the one test that runs here
runs this file again in a process of its own with PHAL_VIRTUAL_DEVICES=4."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import polyhal
from conftest import (JAX_MODELS, assert_close, check_model_outputs,
                      jax_model_arrays, spmd_model_names)

DEVICES = 4
HAS_DEVICES = int(os.environ.get("PHAL_VIRTUAL_DEVICES", "1")) >= DEVICES


def needs_devices(test):
    """Collected where the plugins have the devices; elsewhere
    test_runs_with_four_virtual_devices runs it."""
    test.__test__ = HAS_DEVICES
    return test

SPMD_MODELS = spmd_model_names()
# Each model's HLO and, where JAX wrote them, its StableHLO with Shardy and
# with GSPMD shardings.
SPMD_MODEL_FILES = [name + suffix for name in SPMD_MODELS
                    for suffix in (".hlo", ".mlir", ".gspmd.mlir")
                    if os.path.exists(os.path.join(JAX_MODELS, name + suffix))]

# Two partitions: x split by rows, y whole on both; x * y stays split, the
# all-reduce gives both devices the sum of the two halves.
TWO_PARTITIONS = """HloModule two_partitions, num_partitions=2

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %sum = f32[] add(%a, %b)
}

ENTRY %main (x: f32[2,3], y: f32[3]) -> (f32[2,3], f32[2,3]) {
  %x = f32[2,3] parameter(0), sharding={devices=[2,1]<=[2]}
  %y = f32[3] parameter(1)
  %wide = f32[2,3] broadcast(%y), dimensions={1}
  %product = f32[2,3] multiply(%x, %wide)
  %total = f32[2,3] all-reduce(%x), channel_id=1, replica_groups={{0,1}}, use_global_device_ids=true, to_apply=%add
  ROOT %results = (f32[2,3], f32[2,3]) tuple(%product, %total), sharding={{devices=[2,1]<=[2]}, {replicated}}
}
"""

X = np.arange(12, dtype=np.float32).reshape(4, 3)
Y = np.array([1, 2, 3], dtype=np.float32)


def model_path(name):
    return os.path.join(JAX_MODELS, name + ".hlo")


def test_runs_with_four_virtual_devices():
    environment = dict(os.environ, PHAL_VIRTUAL_DEVICES=str(DEVICES))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         os.path.abspath(__file__)],
        env=environment, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


test_runs_with_four_virtual_devices.__test__ = not HAS_DEVICES


@needs_devices
@pytest.mark.parametrize("file_name", SPMD_MODEL_FILES)
def test_spmd_model_on_four_cpu_devices_gives_xla_results(file_name):
    executable = polyhal.compile(os.path.join(JAX_MODELS, file_name), "cpu",
                                 devices=DEVICES)
    assert isinstance(executable, polyhal.MultiDeviceExecutable)
    assert executable.devices == polyhal.devices("cpu")[:DEVICES]
    name = file_name.split(".")[0]
    check_model_outputs(executable(*jax_model_arrays(name, "input")), name)


def polyhal_run_on_devices(name, work):
    """`polyhal run --devices 4 --per-device` on cpu: the global outputs and
    each device's, as the C++ side splits and assembles them."""
    inputs = []
    for i, _ in enumerate(jax_model_arrays(name, "input")):
        inputs += ["--input", os.path.join(JAX_MODELS, f"{name}.input_{i}.npy")]
    done = subprocess.run(
        [polyhal._cli.command_path(), "run", model_path(name), "--plugin",
         "cpu", "--devices", str(DEVICES), "--per-device", "--output-dir",
         work, *inputs], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    count = len(jax_model_arrays(name, "output"))
    globals_ = [np.load(os.path.join(work, f"output_{i}.npy"))
                for i in range(count)]
    per_device = [[np.load(os.path.join(work, f"output_{i}.device_{d}.npy"))
                   for i in range(count)] for d in range(DEVICES)]
    return globals_, per_device


@needs_devices
@pytest.mark.parametrize("name", SPMD_MODELS)
def test_global_arrays_are_split_and_assembled_as_polyhal_run_does(name):
    executable = polyhal.compile(model_path(name), "cpu", devices=DEVICES)
    with tempfile.TemporaryDirectory(prefix="polyhal-devices-") as work:
        cli_globals, cli_per_device = polyhal_run_on_devices(name, work)
    pieces = executable.split_arguments(*jax_model_arrays(name, "input"))
    per_device = executable.execute_on_devices(pieces)
    for mine, theirs in zip(per_device, cli_per_device):
        for buffer, expected in zip(mine, theirs):
            np.testing.assert_array_equal(buffer.numpy(), expected)
    for mine, theirs in zip(executable.assemble_results(cli_per_device),
                            cli_globals):
        np.testing.assert_array_equal(mine, theirs)


@needs_devices
def test_program_runs_on_devices_of_two_plugins():
    devices = [polyhal.device("cpu"), polyhal.device("template")]
    executable = polyhal.compile(TWO_PARTITIONS, devices=devices)
    assert executable.devices == devices
    assert executable.parameter_shardings == ["devices=[2,1]<=[2]", None]
    assert executable.result_shardings == ["devices=[2,1]<=[2]", "replicated"]
    product, total = executable(X, Y)
    np.testing.assert_array_equal(product, X * Y)
    np.testing.assert_array_equal(total, X[:2] + X[2:])


@needs_devices
def test_a_count_means_the_first_devices_of_the_plugin():
    executable = polyhal.compile(TWO_PARTITIONS, "template", devices=2)
    assert executable.devices == polyhal.devices("template")[:2]


@needs_devices
def test_execute_on_devices_takes_and_returns_each_devices_arrays():
    devices = polyhal.devices("cpu")[:2]
    executable = polyhal.compile(TWO_PARTITIONS, devices=devices)
    assert executable.parameters == [(np.float32, (2, 3)),
                                     (np.float32, (3,))]
    # Arrays for device 0, Buffers (one on another device) for device 1.
    arguments = [[X[:2], Y],
                 [polyhal.put(X[2:], devices[1]), polyhal.put(Y, devices[0])]]
    results = executable.execute_on_devices(arguments)
    assert len(results) == 2
    for device, (product, total) in zip(devices, results):
        assert product.device == device and total.device == device
        np.testing.assert_array_equal(total.numpy(), X[:2] + X[2:])
    np.testing.assert_array_equal(results[0][0].numpy(), X[:2] * Y)
    np.testing.assert_array_equal(results[1][0].numpy(), X[2:] * Y)


@needs_devices
def test_uneven_global_array_is_zero_padded_on_the_last_device():
    executable = polyhal.compile(TWO_PARTITIONS, devices=2)
    x = X[:3]
    pieces = executable.split_arguments(x, Y)
    np.testing.assert_array_equal(pieces[1][0], [x[2], [0, 0, 0]])
    product, _ = executable(x, Y)
    # The assembled result has the padded global shape, as polyhal run's.
    np.testing.assert_array_equal(product[:3], x * Y)
    assert product.shape == (4, 3)


@needs_devices
def test_device_count_other_than_the_grid_is_refused():
    with pytest.raises(polyhal.Error) as raised:
        polyhal.compile(TWO_PARTITIONS, devices=3)
    assert raised.value.code == "INVALID_ARGUMENT"
    assert "2 partitions" in raised.value.message


@needs_devices
def test_more_devices_than_the_plugin_has_are_refused():
    with pytest.raises(polyhal.Error, match="it has 4"):
        polyhal.compile(TWO_PARTITIONS, "cpu", devices=DEVICES + 1)


@needs_devices
def test_global_array_of_another_shape_is_refused_naming_the_global_shape():
    executable = polyhal.compile(TWO_PARTITIONS, devices=2)
    with pytest.raises(polyhal.Error, match=r"global arrays of \[4, 3\]"):
        executable(X[:2], Y)
    with pytest.raises(polyhal.Error, match="2 global argument"):
        executable(X)


@needs_devices
def test_arguments_for_another_number_of_devices_are_refused():
    executable = polyhal.compile(TWO_PARTITIONS, devices=2)
    with pytest.raises(polyhal.Error, match="runs on 2 devices"):
        executable.execute_on_devices([[X[:2], Y]])
    with pytest.raises(polyhal.Error, match="2 argument"):
        executable.execute_on_devices([[X[:2], Y], [X[2:]]])


def test_explicit_device_lists_and_iota_tile_assignments_agree():
    explicit = polyhal._sharding.parse("devices=[2,2]0,2,1,3")
    iota = polyhal._sharding.parse("devices=[2,2]<=[2,2]T(1,0)")
    assert explicit.devices == iota.devices == (0, 2, 1, 3)
    replicated = polyhal._sharding.parse(
        "devices=[2,1,2]0,1,2,3 last_tile_dim_replicate")
    assert replicated.data_rank == 2
    assert replicated.tile_of_device(3, 2) == (1, 0)


def test_maximal_sharding_gives_the_whole_array_to_its_device_only():
    maximal = polyhal._sharding.parse("maximal device=1")
    np.testing.assert_array_equal(polyhal._sharding.shard_of(X, maximal, 1), X)
    with pytest.raises(polyhal.Error, match="device 0 holds no piece"):
        polyhal._sharding.shard_of(X, maximal, 0)
