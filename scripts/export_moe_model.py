# Regenerates the mixture-of-experts layer of core/frontend/testdata/stablehlo
# with its inputs and the outputs XLA:CPU computes. A token router picks
# each token's expert (top-1 of a softmax), the tokens are sorted by
# expert, and two jax.lax.ragged_dot calls apply each expert's MLP to its
# group of rows. JAX lowers ragged_dot for GPUs and TPUs to chlo.ragged_dot;
# this writes the function lowered for CUDA in two forms:
#   jax_moe.mlir  the exported StableHLO, where chlo.ragged_dot is kept as a
#                 `stablehlo.composite "chlo.ragged_dot"`
#   jax_moe.hlo   the HLO text XLA converts the lowering to, with XLA's
#                 `ragged-dot` instruction
# (XLA:CPU computes the expected outputs from the same function). A
# development tool only: building and testing Polyhal never runs it.
#   build/python-venv/bin/python scripts/export_moe_model.py
import os
import numpy as np
import jax
import jax.numpy as jnp
from jax import export

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core",
                   "frontend", "testdata", "stablehlo")
rng = np.random.default_rng(23)
TOKENS, MODEL, HIDDEN, EXPERTS = 24, 16, 32, 4


def moe(x, router, w_in, w_out):
    probabilities = jax.nn.softmax(x @ router, axis=-1)
    weight, expert = jax.lax.top_k(probabilities, 1)
    expert = expert[:, 0]
    order = jnp.argsort(expert, stable=True)
    group_sizes = jnp.bincount(expert, length=EXPERTS).astype(jnp.int32)
    hidden = jax.nn.gelu(jax.lax.ragged_dot(x[order], w_in, group_sizes))
    y = jax.lax.ragged_dot(hidden, w_out, group_sizes)
    return jnp.zeros_like(y).at[order].set(y) * weight


def f32(*shape, scale=1.0):
    return (scale * rng.standard_normal(shape)).astype(np.float32)


args = (f32(TOKENS, MODEL), f32(MODEL, EXPERTS),
        f32(EXPERTS, MODEL, HIDDEN, scale=0.25),
        f32(EXPERTS, HIDDEN, MODEL, scale=0.25))
exported = export.export(jax.jit(moe), platforms=["cuda"])(*args)
open(f"{out}/jax_moe.mlir", "w").write(exported.mlir_module())
lowered = jax.jit(moe).trace(*args).lower(lowering_platforms=("cuda",))
open(f"{out}/jax_moe.hlo", "w").write(lowered.as_text(dialect="hlo"))
for i, a in enumerate(args):
    np.save(f"{out}/jax_moe.input_{i}.npy", a)
np.save(f"{out}/jax_moe.expected_0.npy", np.asarray(jax.jit(moe)(*args)))
