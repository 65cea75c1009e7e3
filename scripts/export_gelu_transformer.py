# Regenerates the transformer block with exact GELU of
# core/frontend/testdata/stablehlo: pre-norm causal self-attention with two
# heads and an MLP whose activation is jax.nn.gelu(approximate=False) (the
# erf form), written as JAX lowers it for the CPU in both texts,
#   jax_gelu_transformer.mlir  StableHLO (chlo.erf among its ops)
#   jax_gelu_transformer.hlo   XLA's HLO text of the same lowering
# with its inputs and the outputs XLA:CPU computes. A development tool
# only: building and testing Polyhal never runs it.
#   build/python-venv/bin/python scripts/export_gelu_transformer.py
import os
import numpy as np
import jax
import jax.numpy as jnp

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core",
                   "frontend", "testdata", "stablehlo")
rng = np.random.default_rng(31)
TOKENS, MODEL, HEADS, HIDDEN = 8, 16, 2, 64


def layer_norm(x, gain, bias):
    mean = x.mean(-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(variance + 1e-5) * gain + bias


def attention(x, w_qkv, w_out):
    q, k, v = jnp.split(x @ w_qkv, 3, axis=-1)
    heads = lambda t: t.reshape(TOKENS, HEADS, MODEL // HEADS).transpose(1, 0, 2)
    q, k, v = heads(q), heads(k), heads(v)
    scores = q @ k.transpose(0, 2, 1) / np.sqrt(MODEL // HEADS)
    causal = jnp.tril(jnp.ones((TOKENS, TOKENS), bool))
    scores = jnp.where(causal, scores, -jnp.inf)
    mixed = jax.nn.softmax(scores, axis=-1) @ v
    return mixed.transpose(1, 0, 2).reshape(TOKENS, MODEL) @ w_out


def block(x, norms, w_qkv, w_out, w_in, b_in, w_down):
    x = x + attention(layer_norm(x, norms[0], norms[1]), w_qkv, w_out)
    h = jax.nn.gelu(layer_norm(x, norms[2], norms[3]) @ w_in + b_in,
                    approximate=False)
    return x + h @ w_down


def f32(*shape, scale=1.0):
    return (scale * rng.standard_normal(shape)).astype(np.float32)


norms = np.stack([1 + f32(MODEL, scale=0.1), f32(MODEL, scale=0.1),
                  1 + f32(MODEL, scale=0.1), f32(MODEL, scale=0.1)])
args = (f32(TOKENS, MODEL), norms, f32(MODEL, 3 * MODEL, scale=0.25),
        f32(MODEL, MODEL, scale=0.25), f32(MODEL, HIDDEN, scale=0.25),
        f32(HIDDEN, scale=0.1), f32(HIDDEN, MODEL, scale=0.125))
lowered = jax.jit(block).lower(*args)
name = f"{out}/jax_gelu_transformer"
open(f"{name}.mlir", "w").write(lowered.as_text())
open(f"{name}.hlo", "w").write(lowered.as_text(dialect="hlo"))
for i, a in enumerate(args):
    np.save(f"{name}.input_{i}.npy", a)
np.save(f"{name}.expected_0.npy", np.asarray(jax.jit(block)(*args)))
