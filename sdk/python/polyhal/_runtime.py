"""Plugins, devices, buffers and executables over the C API."""
import dataclasses
import os
import threading

import numpy as np

from . import _polyhal, _types
from ._errors import Error

DEFAULT_PLUGIN = "cpu"

_session = None
_session_lock = threading.Lock()


def _default_session():
    """The process's client, created on first use from the environment
    (PHAL_PLUGIN_PATH, PHAL_PLUGINS; docs/plugins.md)."""
    global _session
    with _session_lock:
        if _session is None:
            _session = _polyhal.Session()
        return _session


@dataclasses.dataclass(frozen=True)
class Plugin:
    """One plugin manifest the client found, as `polyhal plugins` lists it."""

    name: str
    state: str  # "loaded" or "skipped"
    reason: str  # why it was skipped or has no device; "" otherwise
    version: str
    description: str
    abi_version: str  # negotiated, e.g. "1.3"; "" when skipped
    device_count: int
    manifest_path: str
    library_path: str


Device = _polyhal.Device


def plugins():
    """Every plugin manifest found, loaded or skipped, in search order."""
    return [Plugin(**info) for info in _default_session().plugins()]


def devices(plugin=None):
    """The devices of every loaded plugin, or of the plugin named `plugin`."""
    found = _default_session().devices()
    if plugin is None:
        return found
    return [device for device in found if device.plugin == plugin]


def device(plugin=None):
    """The first device of `plugin` (a name), by default of the default
    plugin, cpu, or of the first plugin with a device when cpu has none."""
    every = _default_session().devices()
    name = DEFAULT_PLUGIN if plugin is None else plugin
    for candidate in every:
        if candidate.plugin == name:
            return candidate
    if plugin is None and every:
        return every[0]
    for info in plugins():
        if info.name == name:
            reason = f": {info.reason}" if info.reason else ""
            raise Error("NOT_FOUND", f"plugin '{name}' has no device{reason}")
    raise Error("NOT_FOUND",
                f"no plugin named '{name}' was found; polyhal.plugins() "
                "lists those that were and why others were skipped")


def _resolve_device(where):
    if where is None or isinstance(where, str):
        return device(where)
    if isinstance(where, Device):
        return where
    raise TypeError(f"device must be a polyhal.Device or a plugin name, "
                    f"not {type(where).__name__}")


class _OnDevice:
    """An object of the native module that lives on one device."""

    def __init__(self, native):
        self._native = native

    @property
    def device(self):
        return self._native.device


class Buffer(_OnDevice):
    """An array on a device: made by put(), returned by Executable.execute()."""

    @property
    def shape(self):
        return tuple(self._native.dims)

    @property
    def dtype(self):
        return _types.dtype_of(self._native.element_type)

    @property
    def element_type(self):
        """The Polyhal element type name: "f32", "bf16", ..."""
        return _types.type_name(self._native.element_type)

    @property
    def nbytes(self):
        return self._native.nbytes

    def numpy(self):
        """A new numpy array holding the buffer's contents."""
        array = np.empty(self.shape, dtype=self.dtype)
        self._native.copy_to_host(array.reshape(-1).view(np.uint8))
        return array

    def __repr__(self):
        shape = _types.shape_text(self._native.element_type, self.shape)
        return f"<polyhal.Buffer {shape} on {self.device!r}>"


def put(array, device=None):
    """Copies `array` (anything numpy.asarray takes) to a new buffer on
    `device` (a Device or a plugin name; by default the default device)."""
    where = _resolve_device(device)
    # order="C", not ascontiguousarray: a 0-d array stays 0-d.
    array = np.asarray(array, order="C")
    code = _types.code_of(array.dtype)
    native = _polyhal.Buffer.put(where, array.reshape(-1).view(np.uint8),
                                 code, list(array.shape))
    return Buffer(native)


HLO = 1
STABLEHLO = 2
_FORMATS = {"hlo": HLO, "stablehlo": STABLEHLO}


def _strip_leading_comments(text):
    lines = text.lstrip().splitlines()
    while lines and (not lines[0].strip() or lines[0].lstrip().startswith("//")):
        lines.pop(0)
    return "\n".join(lines).lstrip()


def _detect_format(text):
    """HLO text begins with `HloModule`; StableHLO text with `module` or a
    `func.func`. Anything else is parsed as HLO, whose parser then says
    where it went wrong."""
    head = _strip_leading_comments(text)
    if head.startswith("HloModule"):
        return HLO
    if head.startswith("module") or head.startswith("func.func"):
        return STABLEHLO
    return HLO


def _is_path(module):
    """A path-like object, or one line of text that does not begin as HLO
    or StableHLO text does."""
    if isinstance(module, os.PathLike):
        return True
    return (isinstance(module, str) and "\n" not in module.strip()
            and not module.lstrip().startswith(("HloModule", "module",
                                                "func.func")))


# StableHLO portable artifacts (MLIR bytecode of VHLO, as jax.export
# serializes) begin with MLIR bytecode's magic number.
BYTECODE_MAGIC = b"ML\xefR"


def load_module(module, format=None):
    """The program, format code and source name of `module`: a path (a
    `.mlir` file is StableHLO, a portable artifact is told by its magic
    number, anything else is HLO, as `polyhal run` reads them), the text
    itself (HLO or StableHLO, told apart by how it begins) or the bytes of a
    StableHLO portable artifact (returned as bytes)."""
    if format is not None and format not in _FORMATS:
        raise ValueError(f"format must be 'hlo' or 'stablehlo', not {format!r}")
    if _is_path(module):
        path = os.fspath(module)
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            raise Error("NOT_FOUND",
                        f"cannot read the module {path}: "
                        f"{error.strerror}") from error
        source_name = path
        if data.startswith(BYTECODE_MAGIC):
            return data, STABLEHLO, source_name
        text = data.decode("utf-8", errors="replace")
        detected = STABLEHLO if path.endswith(".mlir") else HLO
    elif isinstance(module, (bytes, bytearray)) and bytes(module).startswith(
            BYTECODE_MAGIC):
        return bytes(module), STABLEHLO, ""
    else:
        text = module.decode() if isinstance(module, bytes) else module
        if not isinstance(text, str):
            raise TypeError("module must be HLO or StableHLO text, a "
                            "portable artifact's bytes or a path, not "
                            f"{type(module).__name__}")
        detected = _detect_format(text)
        source_name = ""
    return text, _FORMATS[format] if format else detected, source_name


def argument_buffer(parameters, index, value, device):
    """Argument `index` (a numpy array or a Buffer) as a Buffer on `device`,
    checked against `parameters` (the native executable's codes and dims)."""
    code, dims = parameters[index]
    expected = _types.shape_text(code, dims)
    if isinstance(value, Buffer):
        given = _types.shape_text(value._native.element_type, value.shape)
        if given != expected:
            raise Error("INVALID_ARGUMENT",
                        f"parameter {index} is {expected} but argument "
                        f"{index} is a buffer of {given}")
        if value.device == device:
            return value
        value = value.numpy()
    if not isinstance(value, (np.ndarray, np.generic)):
        value = np.asarray(value, dtype=_types.dtype_of(code))
    if value.dtype != _types.dtype_of(code) or value.shape != tuple(dims):
        raise Error("INVALID_ARGUMENT",
                    f"parameter {index} is {expected} but argument "
                    f"{index} is {_types.describe(value)}")
    return put(value, device)


class _Signature:
    """The parameters and results of a native executable (`_native`): one
    device's, for an executable of several."""

    @property
    def parameters(self):
        """(dtype, shape) of each parameter, tuples flattened."""
        return [(_types.dtype_of(code), tuple(dims))
                for code, dims in self._native.parameters]

    @property
    def results(self):
        """(dtype, shape) of each result, tuples flattened."""
        return [(_types.dtype_of(code), tuple(dims))
                for code, dims in self._native.results]


class Executable(_Signature, _OnDevice):
    """A module compiled for one device. Calling it with numpy arrays runs
    it and returns numpy arrays: one array, or a list for several results.
    Thread-safe: one executable may run on many threads at once."""

    def execute(self, *arguments):
        """Runs once and returns the results as Buffers, left on the device.
        Arguments are numpy arrays (copied to the device) or Buffers."""
        count = len(self._native.parameters)
        if len(arguments) != count:
            raise Error("INVALID_ARGUMENT",
                        f"the executable takes {count} argument(s) "
                        f"({self._describe_parameters()}), not "
                        f"{len(arguments)}")
        buffers = [argument_buffer(self._native.parameters, i, value,
                                   self.device)._native
                   for i, value in enumerate(arguments)]
        return [Buffer(native) for native in self._native.execute(buffers)]

    def __call__(self, *arguments):
        results = [buffer.numpy() for buffer in self.execute(*arguments)]
        return results[0] if len(results) == 1 else results

    def _describe_parameters(self):
        return ", ".join(_types.shape_text(code, dims)
                         for code, dims in self._native.parameters)

    def __repr__(self):
        return (f"<polyhal.Executable ({self._describe_parameters()}) on "
                f"{self.device!r}>")


def compile(module, device=None, format=None, devices=None):
    """Compiles `module` for `device` and returns an Executable.

    `module` is HLO text, StableHLO text, the bytes of a StableHLO portable
    artifact (jax.export's `mlir_module_serialized`) or a path to any of
    them (see load_module); `device` a Device or a plugin name, by default the
    default plugin's first device; `format` ("hlo" or "stablehlo")
    overrides the detection. A malformed module raises Error naming the
    file, line and column; one the device cannot run, what is missing.

    With `devices` (a list of Devices, of any plugins, or a count N for the
    first N devices of `device`'s plugin), compiles a program for several
    processes, devices[k] running process k, and returns a
    MultiDeviceExecutable; the count must be the program's replicas x
    partitions (docs/multi-device.md)."""
    if devices is not None:
        # Imported here: the module builds on this one's Buffer and put.
        from . import _multi_device
        return _multi_device.compile_for_devices(module, devices, device,
                                                 format)
    text, format_code, source_name = load_module(module, format)
    native = _polyhal.Executable.compile(_resolve_device(device), text,
                                         format_code, source_name)
    return Executable(native)
