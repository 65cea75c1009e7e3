"""polyhal.jit: a JAX function lowered to StableHLO text and run on Polyhal."""
import functools
import threading

import numpy as np

from . import _runtime
from ._errors import Error


def _import_jax():
    try:
        import jax
    except ImportError as error:
        raise Error("UNIMPLEMENTED",
                    "polyhal.jit needs jax, which is not installed "
                    "(pip install jax)") from error
    return jax


class Jitted:
    """A JAX function compiled by Polyhal for one device, once per input
    signature (the tree of the arguments and each leaf's shape and dtype)."""

    def __init__(self, function, device):
        self._jax = _import_jax()
        self._function = function
        self._device = _runtime._resolve_device(device)
        self._cache = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, function)

    @property
    def device(self):
        return self._device

    def lower(self, *arguments):
        """The StableHLO text jax.jit lowers the function to for these
        arguments."""
        jitted = self._jax.jit(self._function, keep_unused=True)
        return jitted.lower(*arguments)

    def _compiled(self, arguments, leaves, tree):
        signature = (tree, tuple((leaf.shape, leaf.dtype) for leaf in leaves))
        with self._lock:
            entry = self._cache.get(signature)
        if entry is None:
            lowered = self.lower(*arguments)
            executable = _runtime.compile(lowered.as_text(), self._device,
                                          format="stablehlo")
            entry = (executable, lowered.out_tree)
            with self._lock:
                entry = self._cache.setdefault(signature, entry)
        return entry

    def __call__(self, *arguments):
        tree_util = self._jax.tree_util
        leaves, tree = tree_util.tree_flatten(arguments)
        leaves = [np.asarray(leaf) for leaf in leaves]
        executable, out_tree = self._compiled(arguments, leaves, tree)
        # jax may narrow a leaf's type (f64 to f32 without jax_enable_x64);
        # the arguments follow the parameters it lowered.
        leaves = [leaf.astype(dtype, copy=False)
                  for leaf, (dtype, _) in zip(leaves, executable.parameters)]
        results = [buffer.numpy() for buffer in executable.execute(*leaves)]
        return tree_util.tree_unflatten(out_tree, results)

    def cache_size(self):
        """How many input signatures have been compiled."""
        with self._lock:
            return len(self._cache)


def jit(function, device=None):
    """Wraps a JAX function so that calling it lowers it with
    jax.jit(function).lower(*arguments) to StableHLO text, compiles that on
    Polyhal for `device` (a Device or plugin name; by default the default
    device), caches the executable per input signature, and runs it:
    polyhal.jit(f)(x) gives what jax.jit(f)(x) gives, as numpy arrays in
    the same tree. Raises polyhal.Error when jax is not installed."""
    return Jitted(function, device)
