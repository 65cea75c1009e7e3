"""Programs for several processes (replicas x partitions), each on its own
device, run with global arrays or with each device's arguments
(docs/multi-device.md)."""
import os
import tempfile

import numpy as np

from . import _cli, _polyhal, _runtime, _sharding, _types
from ._errors import Error


def _hlo_text(text, format_code):
    """The per-device program as HLO text, in which the package reads its
    shardings: `polyhal convert --partition` runs the front end and, for a
    global program with shardings (jax.jit with in_shardings), the SPMD
    partitioner the C API compiles it with."""
    suffix = ".hlo" if format_code == _runtime.HLO else ".mlir"
    with tempfile.TemporaryDirectory(prefix="polyhal-convert-") as work:
        path = os.path.join(work, "module" + suffix)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        completed = _cli._run(["convert", path, "--to", "hlo", "--partition"])
    if completed.returncode != 0:
        raise Error("INVALID_ARGUMENT", "cannot read the program's shardings: "
                    + completed.stderr.strip())
    return completed.stdout


class MultiDeviceExecutable(_runtime._Signature):
    """A module compiled for several devices: devices[k] runs process k of
    the program's grid, replica k // partitions, partition k % partitions.

    Calling it with numpy arrays takes and returns GLOBAL arrays: each
    argument is split over the devices by its entry parameter's sharding
    (the whole array on every device where it has none), and each result
    assembled from replica 0's partitions by the root's sharding (process
    0's value where it has none). execute_on_devices() takes and returns
    each device's own arrays instead. Thread-safe."""

    def __init__(self, native, text, format_code):
        self._native = native
        self._devices = list(native.devices)
        try:
            self._shardings = _sharding.entry_shardings(
                _hlo_text(text, format_code), len(native.results))
            self._sharding_error = None
        except Error as error:
            # Per-device execution needs no shardings; global arrays do.
            self._shardings = None
            self._sharding_error = error

    @property
    def devices(self):
        """The device of each process, in process order."""
        return list(self._devices)

    @property
    def parameter_shardings(self):
        """Each parameter's sharding as HLO text writes it, None where it
        has none."""
        return [None if sharding is None else sharding.text
                for sharding in self._entry().parameters]

    @property
    def result_shardings(self):
        """Each result's sharding as HLO text writes it, None where it has
        none."""
        return [None if sharding is None else sharding.text
                for sharding in self._entry().results]

    def _entry(self):
        if self._sharding_error is not None:
            raise self._sharding_error
        return self._shardings

    def _parameter_shardings(self):
        entry = self._entry()
        count = len(self._native.parameters)
        if len(entry.parameters) != count or any(
                isinstance(sharding, list) for sharding in entry.parameters):
            raise Error("UNIMPLEMENTED",
                        "global arrays are taken for array parameters only; "
                        "pass each device's arguments to execute_on_devices")
        return entry.parameters

    def split_arguments(self, *arrays):
        """Each device's arguments, numpy arrays: the global `arrays` split
        by the entry parameters' shardings."""
        shardings = self._parameter_shardings()
        if len(arrays) != len(shardings):
            raise Error("INVALID_ARGUMENT",
                        f"the executable takes {len(shardings)} global "
                        f"argument(s), not {len(arrays)}")
        partitions = self._entry().partitions
        per_device = [[] for _ in self._devices]
        for i, (array, sharding) in enumerate(zip(arrays, shardings)):
            dtype, local = self.parameters[i]
            array = np.asarray(array)
            if array.dtype != dtype:
                raise Error("INVALID_ARGUMENT",
                            f"parameter {i} holds {dtype} but argument {i} "
                            f"is {_types.describe(array)}")
            if sharding is None:
                pieces = [array] * len(self._devices)
            else:
                if _sharding.piece_shape_of(array.shape, sharding) != local:
                    wanted = _sharding.global_shape_of(local, sharding)
                    raise Error("INVALID_ARGUMENT",
                                f"argument {i} is {_types.describe(array)} "
                                f"but parameter {i}, {list(local)} on each "
                                f"device under the sharding "
                                f"{{{sharding.text}}}, takes global arrays "
                                f"of {list(wanted)}")
                pieces = [_sharding.shard_of(array, sharding, k % partitions)
                          for k in range(len(self._devices))]
            for k, piece in enumerate(pieces):
                per_device[k].append(piece)
        return per_device

    def assemble_results(self, per_device_results):
        """The global results, numpy arrays, from each device's results
        (numpy arrays or Buffers), by the root's shardings."""
        entry = self._entry()
        globals_ = []
        for i, sharding in enumerate(entry.results):
            if sharding is None:
                globals_.append(_host(per_device_results[0][i]))
                continue
            pieces = [_host(per_device_results[p][i])
                      for p in range(entry.partitions)]
            global_shape = _sharding.global_shape_of(pieces[0].shape, sharding)
            globals_.append(_sharding.assemble(pieces, sharding, global_shape))
        return globals_

    def execute_on_devices(self, per_device_arguments):
        """Runs once on every device and returns each device's results as
        Buffers left on it: per_device_arguments[k] is the list of device
        k's arguments, numpy arrays (copied to it) or Buffers."""
        return self._execute(self._devices, per_device_arguments)

    def _execute(self, devices, per_device_arguments):
        """execute_on_devices on the native executable's `devices`."""
        if len(per_device_arguments) != len(devices):
            raise Error("INVALID_ARGUMENT",
                        f"the executable runs on {len(devices)} "
                        f"devices; arguments were given for "
                        f"{len(per_device_arguments)}")
        count = len(self._native.parameters)
        natives = []
        for k, (device, arguments) in enumerate(
                zip(devices, per_device_arguments)):
            if len(arguments) != count:
                raise Error("INVALID_ARGUMENT",
                            f"the executable takes {count} argument(s) per "
                            f"device, not {len(arguments)} (device {k})")
            natives.append([
                _runtime.argument_buffer(self._native.parameters, i, value,
                                         device)._native
                for i, value in enumerate(arguments)])
        return [[_runtime.Buffer(native) for native in results]
                for results in self._native.execute_on_devices(natives)]

    def __call__(self, *arrays):
        per_device = self.execute_on_devices(self.split_arguments(*arrays))
        results = self.assemble_results(per_device)
        return results[0] if len(results) == 1 else results

    def __repr__(self):
        shapes = ", ".join(_types.shape_text(code, dims)
                           for code, dims in self._native.parameters)
        devices = ", ".join(f"{device.plugin}:{device.ordinal}"
                            for device in self._devices)
        return f"<polyhal.MultiDeviceExecutable ({shapes}) on {devices}>"


def _host(value):
    return value.numpy() if isinstance(value, _runtime.Buffer) else value


def resolve_devices(devices, device):
    """A list of Devices: `devices` itself, or the first `devices` devices
    of `device`'s plugin (a Device or a plugin name; the default plugin)."""
    if isinstance(devices, int):
        first = _runtime._resolve_device(device)
        found = _runtime.devices(first.plugin)
        if devices < 1 or devices > len(found):
            raise Error("INVALID_ARGUMENT",
                        f"{devices} devices of plugin '{first.plugin}' were "
                        f"asked for; it has {len(found)} "
                        "(PHAL_VIRTUAL_DEVICES=N, set before the first "
                        "polyhal call, gives cpu, template and asic-ref N)")
        return found[:devices]
    devices = list(devices)
    for candidate in devices:
        if not isinstance(candidate, _runtime.Device):
            raise TypeError("devices must be polyhal.Device objects or a "
                            f"count, not {type(candidate).__name__}")
    return devices


def compile_for_devices(module, devices, device=None, format=None):
    """See polyhal.compile(..., devices=)."""
    text, format_code, source_name = _runtime.load_module(module, format)
    native = _polyhal.Executable.compile_for_devices(
        resolve_devices(devices, device), text, format_code, source_name)
    return MultiDeviceExecutable(native, text, format_code)
