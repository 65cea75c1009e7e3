"""Polyhal from Python: compile HLO or StableHLO modules for any plugin's
device and run them on numpy arrays; JAX functions through polyhal.jit.

    import numpy as np, polyhal
    print(polyhal.devices())
    mlp = polyhal.compile("samples/models/jax/mlp.hlo")   # or the text itself
    outputs = mlp(*inputs)                                 # numpy in and out
    polyhal.jit(lambda x: x @ x.T, "intel")(x)             # a JAX function
    polyhal.distributed.initialize()                       # under mpirun

See docs/python.md.
"""
from . import _polyhal
from . import distributed
from ._cli import conformance, reference
from ._errors import Error
from ._jit import jit
from ._multi_device import MultiDeviceExecutable
from ._runtime import (Buffer, Device, Executable, Plugin, compile, device,
                       devices, plugins, put)

__version__ = _polyhal.library_version()
abi_version = _polyhal.abi_version()

__all__ = [
    "Buffer", "Device", "Error", "Executable", "MultiDeviceExecutable",
    "Plugin", "abi_version",
    "compile", "conformance", "device", "devices", "distributed", "jit",
    "plugins", "put",
    "reference",
]
