"""The package over the C API: plugins, devices, compile, execute, buffers,
element types and the errors each misuse raises."""
import os

import numpy as np
import pytest

import polyhal
from conftest import assert_close

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

ADD_HLO = """HloModule add
ENTRY main {
  x = f32[2,3] parameter(0)
  y = f32[2,3] parameter(1)
  ROOT sum = f32[2,3] add(x, y)
}
"""

ADD_STABLEHLO = """module @add {
  func.func public @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.add %x, %y : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
"""

SUM_AND_PRODUCT_HLO = """HloModule sum_and_product
ENTRY main {
  x = s32[4] parameter(0)
  y = s32[4] parameter(1)
  sum = s32[4] add(x, y)
  product = s32[4] multiply(x, y)
  ROOT both = (s32[4], s32[4]) tuple(sum, product)
}
"""

ELEMENT_TYPES = ["pred", "s8", "s16", "s32", "s64", "u8", "u16", "u32",
                 "u64", "f16", "bf16", "f32", "f64", "c64", "c128"]


def numpy_dtype(name):
    if name == "bf16":
        if ml_dtypes is None:
            pytest.skip("bf16 arrays need ml_dtypes, which is not installed")
        return np.dtype(ml_dtypes.bfloat16)
    return {"pred": np.dtype(np.bool_), "c64": np.dtype(np.complex64),
            "c128": np.dtype(np.complex128)}.get(name) or np.dtype(
                {"s": "int", "u": "uint", "f": "float"}[name[0]] + name[1:])


def sample_array(dtype, shape=(2, 3)):
    values = np.arange(np.prod(shape)).reshape(shape) % 5
    if dtype.kind == "c":
        return (values + 1j * values[::-1]).astype(dtype)
    return values.astype(dtype)


def test_plugins_lists_every_manifest_with_its_state():
    plugins = {plugin.name: plugin for plugin in polyhal.plugins()}
    assert "cpu" in plugins
    cpu = plugins["cpu"]
    assert cpu.state == "loaded"
    assert cpu.reason == ""
    assert cpu.device_count >= 1
    assert cpu.abi_version.startswith("1.")
    assert os.path.isabs(cpu.manifest_path)


def test_devices_describe_name_kind_vendor_memory_and_element_types():
    devices = polyhal.devices()
    assert devices
    for device in devices:
        assert device.name
        assert device.kind in ("cpu", "gpu", "accelerator", "unknown")
        assert isinstance(device.vendor, str)
        assert device.memory > 0
        assert "f32" in device.element_types
        assert device.plugin in {p.name for p in polyhal.plugins()}
    assert polyhal.devices("cpu") == [d for d in devices if d.plugin == "cpu"]


def test_default_device_is_the_cpu_plugins_first():
    assert polyhal.device().plugin == "cpu"
    assert polyhal.device() == polyhal.devices("cpu")[0]


def test_the_simulated_accelerator_counts_each_run_until_reset():
    if not polyhal.devices("asic-ref"):
        pytest.skip("the asic-ref plugin has no device here")
    device = polyhal.device("asic-ref")
    add = polyhal.compile(ADD_HLO, device)
    device.reset_counters()
    x = np.ones((2, 3), np.float32)
    add(x, x)
    add(x, x)
    totals = {name: value for name, kernel, unit, value in device.counters()
              if kernel == ""}
    assert totals["launches"] == 2
    assert totals["cycles"] > 0
    device.reset_counters()
    totals = {name: value for name, kernel, unit, value in device.counters()
              if kernel == ""}
    assert totals["launches"] == 0


def test_a_plugin_without_counters_reports_none():
    assert polyhal.device("cpu").counters() == []


def test_a_missing_plugin_is_an_error_naming_it():
    with pytest.raises(polyhal.Error, match="no plugin named 'nosuch'"):
        polyhal.device("nosuch")
    with pytest.raises(polyhal.Error, match="nosuch"):
        polyhal.compile(ADD_HLO, "nosuch")


@pytest.mark.parametrize("text", [ADD_HLO, ADD_STABLEHLO],
                         ids=["hlo", "stablehlo"])
def test_compile_takes_hlo_or_stablehlo_text(text, plugin):
    add = polyhal.compile(text, plugin)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_close(add(x, x * 10), x * 11)


def test_compile_takes_a_path_or_a_device(tmp_path):
    path = tmp_path / "add.hlo"
    path.write_text(ADD_HLO)
    x = np.ones((2, 3), np.float32)
    assert_close(polyhal.compile(path, polyhal.device())(x, x), 2 * x)
    assert_close(polyhal.compile(str(path))(x, x), 2 * x)


def test_a_mlir_path_is_read_as_stablehlo(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(ADD_STABLEHLO)
    x = np.ones((2, 3), np.float32)
    assert_close(polyhal.compile(path)(x, x), 2 * x)


def test_a_missing_file_is_an_error_naming_it():
    with pytest.raises(polyhal.Error, match="cannot read the module "
                                            "nosuch.hlo: No such file"):
        polyhal.compile("nosuch.hlo")


def test_compile_errors_name_the_file_line_and_column(tmp_path):
    path = tmp_path / "broken.hlo"
    path.write_text(ADD_HLO.replace("add(x, y)", "add(x, z)"))
    with pytest.raises(polyhal.Error) as error:
        polyhal.compile(path)
    assert error.value.code == "INVALID_ARGUMENT"
    assert f"{path}:5:" in str(error.value)
    assert "z" in error.value.message


def test_compile_errors_in_stablehlo_text_give_line_and_column():
    with pytest.raises(polyhal.Error, match=r":3:\d+"):
        polyhal.compile(ADD_STABLEHLO.replace("stablehlo.add", "stablehlo.nosuch"))


def test_executable_describes_its_parameters_and_results():
    add = polyhal.compile(ADD_HLO)
    assert add.parameters == [(np.dtype(np.float32), (2, 3))] * 2
    assert add.results == [(np.dtype(np.float32), (2, 3))]
    assert add.device == polyhal.device()


def test_several_results_come_back_as_a_list():
    x = np.array([1, 2, 3, 4], np.int32)
    y = np.array([5, 6, 7, 8], np.int32)
    results = polyhal.compile(SUM_AND_PRODUCT_HLO)(x, y)
    assert isinstance(results, list)
    assert_close(results[0], x + y)
    assert_close(results[1], x * y)


def test_a_wrong_dtype_is_refused_naming_the_parameter():
    add = polyhal.compile(ADD_HLO)
    x = np.ones((2, 3), np.float32)
    with pytest.raises(polyhal.Error,
                       match=r"parameter 1 is f32\[2,3\] but argument 1 is "
                             r"f64\[2,3\]"):
        add(x, x.astype(np.float64))


def test_a_wrong_shape_is_refused_naming_the_parameter():
    add = polyhal.compile(ADD_HLO)
    with pytest.raises(polyhal.Error,
                       match=r"parameter 0 is f32\[2,3\] but argument 0 is "
                             r"f32\[3,2\]"):
        add(np.ones((3, 2), np.float32), np.ones((2, 3), np.float32))


def test_a_wrong_argument_count_is_refused_listing_the_parameters():
    with pytest.raises(polyhal.Error, match=r"takes 2 argument\(s\) "
                                            r"\(f32\[2,3\], f32\[2,3\]\), not 1"):
        polyhal.compile(ADD_HLO)(np.ones((2, 3), np.float32))


def test_python_lists_and_scalars_take_the_parameters_type():
    add = polyhal.compile(ADD_HLO)
    result = add([[1, 2, 3], [4, 5, 6]], np.zeros((2, 3), np.float32))
    assert_close(result, np.array([[1, 2, 3], [4, 5, 6]], np.float32))


@pytest.mark.parametrize("name", ELEMENT_TYPES)
def test_every_element_type_goes_through_an_executable(name, plugin):
    if name not in polyhal.device(plugin).element_types:
        pytest.skip(f"the {plugin} device has no {name}")
    dtype = numpy_dtype(name)
    transpose = polyhal.compile(
        f"HloModule transpose_{name}\n"
        f"ENTRY main {{\n"
        f"  p = {name}[2,3] parameter(0)\n"
        f"  ROOT t = {name}[3,2] transpose(p), dimensions={{1,0}}\n"
        f"}}\n", plugin)
    array = sample_array(dtype)
    result = transpose(array)
    assert result.dtype == dtype
    np.testing.assert_array_equal(result, array.T)


@pytest.mark.parametrize("name", ELEMENT_TYPES)
def test_every_element_type_round_trips_through_a_buffer(name):
    array = sample_array(numpy_dtype(name), (4, 1, 3))
    buffer = polyhal.put(array)
    assert buffer.shape == (4, 1, 3)
    assert buffer.dtype == array.dtype
    assert buffer.element_type == name
    assert buffer.nbytes == array.nbytes
    np.testing.assert_array_equal(buffer.numpy(), array)


def test_scalars_and_empty_arrays_round_trip():
    np.testing.assert_array_equal(polyhal.put(np.float32(2.5)).numpy(),
                                  np.float32(2.5))
    empty = polyhal.put(np.zeros((0, 3), np.int64)).numpy()
    assert empty.shape == (0, 3)


def test_a_dtype_polyhal_lacks_is_refused():
    with pytest.raises(polyhal.Error, match="no Polyhal element type"):
        polyhal.put(np.array(["text"]))


def test_buffers_stay_on_the_device_between_calls(plugin):
    device = polyhal.device(plugin)
    add = polyhal.compile(ADD_HLO, device)
    x = polyhal.put(np.ones((2, 3), np.float32), device)
    assert x.device == device
    (once,) = add.execute(x, x)
    (twice,) = add.execute(once, once)
    assert isinstance(twice, polyhal.Buffer)
    assert twice.device == device
    assert_close(twice.numpy(), np.full((2, 3), 4, np.float32))


def test_a_buffer_on_another_device_is_copied_over():
    add = polyhal.compile(ADD_HLO, "cpu")
    x = polyhal.put(np.ones((2, 3), np.float32), "template")
    assert_close(add(x, x), np.full((2, 3), 2, np.float32))


def test_a_buffer_of_the_wrong_shape_is_refused():
    add = polyhal.compile(ADD_HLO)
    x = polyhal.put(np.ones((6,), np.float32))
    with pytest.raises(polyhal.Error, match=r"parameter 0 is f32\[2,3\] but "
                                            r"argument 0 is a buffer of f32\[6\]"):
        add(x, x)


def test_reference_runs_text_and_returns_several_results_as_a_list():
    x = np.array([1, 2, 3, 4], np.int32)
    results = polyhal.reference(SUM_AND_PRODUCT_HLO, x, x)
    assert_close(results[0], 2 * x)
    assert_close(results[1], x * x)
    x = np.ones((2, 3), np.float32)
    assert_close(polyhal.reference(ADD_STABLEHLO, x, x), 2 * x)


def test_reference_errors_say_what_is_wrong():
    with pytest.raises(polyhal.Error, match="parameter 1"):
        polyhal.reference(ADD_HLO, np.ones((2, 3), np.float32),
                          np.ones((2, 3), np.float64))


def test_reference_reads_bf16():
    dtype = numpy_dtype("bf16")
    x = sample_array(dtype)
    text = ADD_HLO.replace("f32", "bf16")
    assert_close(polyhal.reference(text, x, x), x + x)
    assert_close(polyhal.compile(text)(x, x), x + x)


def test_the_package_finds_the_polyhal_command_beside_its_library():
    command = polyhal._cli.command_path()
    library = polyhal._polyhal.library_path()
    assert os.path.dirname(os.path.dirname(command)) == \
        os.path.dirname(os.path.dirname(os.path.realpath(library)))
    assert polyhal.__version__
    assert polyhal.abi_version.startswith("1.")
