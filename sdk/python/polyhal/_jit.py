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


def _key_data(jax, leaf):
    """A leaf as a numpy array: a typed PRNG key (jax.random.key) as the
    uint32 words jax lowers it to."""
    dtype = getattr(leaf, "dtype", None)
    if dtype is not None and jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        return np.asarray(jax.random.key_data(leaf))
    return np.asarray(leaf)


class Jitted:
    """A JAX function compiled by Polyhal for one device, once per input
    signature (the tree of the dynamic arguments, each leaf's shape and
    dtype, and the values of the static arguments)."""

    def __init__(self, function, device, static_argnums=(),
                 static_argnames=(), donate_argnums=()):
        self._jax = _import_jax()
        self._function = function
        self._device = _runtime._resolve_device(device)
        self._static_argnums = _as_tuple(static_argnums)
        self._static_argnames = _as_tuple(static_argnames)
        self._donate_argnums = _as_tuple(donate_argnums)
        self._cache = {}
        self._lock = threading.Lock()
        functools.update_wrapper(self, function)

    @property
    def device(self):
        return self._device

    def _jax_jit(self):
        return self._jax.jit(self._function, keep_unused=True,
                             static_argnums=self._static_argnums,
                             static_argnames=self._static_argnames,
                             donate_argnums=self._donate_argnums)

    def lower(self, *arguments, **keywords):
        """The StableHLO text jax.jit lowers the function to for these
        arguments."""
        return self._jax_jit().lower(*arguments, **keywords)

    def _split(self, arguments, keywords):
        """The dynamic arguments (positional, keyword) and the static ones,
        as jax.jit tells them apart."""
        count = len(arguments)
        static_positions = {i % count for i in self._static_argnums
                            if -count <= i < count}
        dynamic = tuple(a for i, a in enumerate(arguments)
                        if i not in static_positions)
        static = tuple((i, arguments[i]) for i in sorted(static_positions))
        dynamic_keywords = {k: v for k, v in keywords.items()
                            if k not in self._static_argnames}
        static_keywords = tuple(sorted(
            (k, v) for k, v in keywords.items() if k in self._static_argnames))
        return (dynamic, dynamic_keywords), (static, static_keywords)

    def _compiled(self, arguments, keywords, leaves, tree, static):
        # A leaf's kind (a typed key, a Python scalar, a dtype) is part of
        # it: jax lowers a key to its words and a Python scalar weakly.
        kinds = tuple((np.shape(leaf),
                       str(getattr(leaf, "dtype", type(leaf).__name__)))
                      for leaf in leaves)
        try:
            signature = (tree, kinds, static)
            hash(signature)
        except TypeError as error:
            raise Error("INVALID_ARGUMENT",
                        "a static argument of polyhal.jit must be hashable, "
                        f"as jax.jit requires: {error}") from error
        with self._lock:
            entry = self._cache.get(signature)
        if entry is None:
            lowered = self.lower(*arguments, **keywords)
            executable = _runtime.compile(lowered.as_text(), self._device,
                                          format="stablehlo")
            out_keys = [self._jax.dtypes.issubdtype(info.dtype,
                                                    self._jax.dtypes.prng_key)
                        for info in self._jax.tree_util.tree_leaves(
                            lowered.out_info)]
            entry = (executable, lowered.out_tree, out_keys, lowered.out_info)
            with self._lock:
                entry = self._cache.setdefault(signature, entry)
        return entry

    def __call__(self, *arguments, **keywords):
        jax = self._jax
        tree_util = jax.tree_util
        dynamic, static = self._split(arguments, keywords)
        leaves, tree = tree_util.tree_flatten(dynamic)
        host = [_key_data(jax, leaf) for leaf in leaves]
        executable, out_tree, out_keys, out_info = self._compiled(
            arguments, keywords, leaves, tree, static)
        # jax may narrow a leaf's type (f64 to f32 without jax_enable_x64);
        # the arguments follow the parameters it lowered.
        host = [leaf.astype(dtype, copy=False)
                for leaf, (dtype, _) in zip(host, executable.parameters)]
        results = [buffer.numpy() for buffer in executable.execute(*host)]
        if any(out_keys):
            # Typed PRNG keys come back as their uint32 words.
            impls = [getattr(info.dtype, "_impl", None)
                     for info in tree_util.tree_leaves(out_info)]
            results = [jax.random.wrap_key_data(r, impl=impl) if is_key
                       else r
                       for r, is_key, impl in zip(results, out_keys, impls)]
        return tree_util.tree_unflatten(out_tree, results)

    def cache_size(self):
        """How many input signatures have been compiled."""
        with self._lock:
            return len(self._cache)


def _as_tuple(value):
    if value is None:
        return ()
    if isinstance(value, (int, str)):
        return (value,)
    return tuple(value)


def jit(function, device=None, static_argnums=(), static_argnames=(),
        donate_argnums=()):
    """Wraps a JAX function so that calling it lowers it with
    jax.jit(function, ...).lower(*arguments) to StableHLO text, compiles
    that on Polyhal for `device` (a Device or plugin name; by default the
    default device), caches the executable per input signature, and runs
    it: polyhal.jit(f)(x) gives what jax.jit(f)(x) gives, as numpy arrays
    in the same tree. Arguments are what jax.jit takes: arrays of any rank
    (0-d included), NumPy and Python scalars, JAX arrays, PRNG keys (typed
    keys come back typed), pytrees of them, and keyword arguments;
    `static_argnums`, `static_argnames` and `donate_argnums` mean what they
    mean to jax.jit (donation is accepted: Polyhal copies the arguments to
    the device, so the caller's arrays are never overwritten). Raises
    polyhal.Error when jax is not installed."""
    return Jitted(function, device, static_argnums, static_argnames,
                  donate_argnums)
