"""Polyhal as a JAX backend: JAX loads this module through the `jax_plugins`
entry point of the polyhal package and calls initialize(), which registers
libpolyhal_pjrt (Polyhal's PJRT plugin) under the platform name "polyhal".

    POLYHAL_PJRT_PLUGIN=cpu python -c "import jax; print(jax.devices('polyhal'))"
    JAX_PLATFORMS=polyhal python my_model.py      # Polyhal as the default

The Polyhal plugin whose devices JAX sees is POLYHAL_PJRT_PLUGIN (default
"cpu"; any name `polyhal plugins` lists). Polyhal does not become JAX's
default backend unless JAX_PLATFORMS asks for it. See docs/jax.md.
"""
import os

PLATFORM = "polyhal"
LIBRARY = "libpolyhal_pjrt.so"
# Below the CPU backend's priority (0): jax.devices() keeps its default
# backend unless JAX_PLATFORMS names polyhal.
PRIORITY = -100


def library_path():
    """libpolyhal_pjrt beside the libpolyhal this package loads, or None."""
    from . import _polyhal
    library = _polyhal.library_path()
    if not library:
        return None
    candidate = os.path.join(os.path.dirname(os.path.realpath(library)),
                             LIBRARY)
    return candidate if os.path.exists(candidate) else None


def initialize():
    """Registers Polyhal's PJRT plugin with JAX (called by JAX itself)."""
    from jax._src import xla_bridge
    path = library_path()
    if path is None:
        raise RuntimeError(
            f"{LIBRARY} was not found beside libpolyhal: the package was "
            "built without the PJRT header (see docs/jax.md)")
    xla_bridge.register_plugin(PLATFORM, priority=PRIORITY,
                               library_path=path, options=None)
    _lower_linear_algebra_as_on_cpu()


def _lower_linear_algebra_as_on_cpu():
    """JAX lowers jnp.linalg only for platforms it knows (LAPACK custom calls
    on cpu, solver calls on GPUs). Polyhal reads the LAPACK calls and
    expands them for any device (docs/stablehlo.md, "LAPACK custom calls"),
    so the linear-algebra primitives lower for polyhal as they do for cpu.
    This uses JAX's lowering registry, which is not public API: a JAX
    without it leaves jnp.linalg unavailable on polyhal, nothing else."""
    try:
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg
        cpu = mlir._platform_specific_lowerings["cpu"]
        for value in vars(linalg).values():
            entry = cpu.get(value) if hasattr(value, "bind") else None
            if entry is not None:
                mlir.register_lowering(value, entry.rule, platform=PLATFORM,
                                       inline=entry.inline)
    except (ImportError, AttributeError, KeyError, TypeError):
        pass
