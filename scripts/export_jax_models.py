# Regenerates samples/models/jax: small real models exported from JAX as HLO
# and StableHLO text, with their inputs and the outputs XLA:CPU computes, as
# .npy files. A development tool only: building and testing Polyhal never
# runs it. Run with XLA_FLAGS=--xla_allow_excess_precision=false so XLA
# rounds bf16/f16 intermediates as the StableHLO semantics require:
#   XLA_FLAGS=--xla_allow_excess_precision=false python3 scripts/export_jax_models.py
import os, numpy as np, jax, jax.numpy as jnp
jax.config.update("jax_enable_x64", True)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "models", "jax")
rng = np.random.default_rng(7)

def save(name, f, *args):
    lowered = jax.jit(f).lower(*args)
    open(f"{out}/{name}.hlo", "w").write(lowered.as_text(dialect="hlo"))
    open(f"{out}/{name}.mlir", "w").write(lowered.as_text())
    res = jax.jit(f)(*args)
    leaves = jax.tree_util.tree_leaves(res)
    for i, a in enumerate(args):
        np.save(f"{out}/{name}.input_{i}.npy", np.asarray(a))
    for i, r in enumerate(leaves):
        np.save(f"{out}/{name}.output_{i}.npy", np.asarray(r))

def f32(*shape): return rng.standard_normal(shape).astype(np.float32)

def mlp(x, w1, b1, w2, b2):
    h = jax.nn.gelu(x @ w1 + b1)
    return jax.nn.softmax(h @ w2 + b2, axis=-1)
save("mlp", mlp, f32(8, 32), f32(32, 64), f32(64), f32(64, 10), f32(10))

def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True); v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g + b

def transformer_block(x, wq, wk, wv, wo, g, b):
    q, k, v = x @ wq, x @ wk, x @ wv
    s = jnp.einsum("tqd,tkd->tqk", q.reshape(1, 6, 16), k.reshape(1, 6, 16)) / 4.0
    mask = jnp.tril(jnp.ones((6, 6), bool))
    s = jnp.where(mask, s, -1e9)
    a = jnp.einsum("tqk,tkd->tqd", jax.nn.softmax(s, -1), v.reshape(1, 6, 16)).reshape(6, 16)
    return layer_norm(x + a @ wo, g, b)
save("transformer_block", transformer_block, f32(6, 16), f32(16, 16), f32(16, 16), f32(16, 16), f32(16, 16), f32(16), f32(16))

def convnet(x, k1, k2):
    y = jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    y = jax.nn.relu(y)
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = jax.lax.conv_general_dilated(y, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y.mean(axis=(1, 2))
save("convnet", convnet, f32(2, 8, 8, 3), f32(3, 3, 3, 4), f32(3, 3, 4, 5))

def loop(x):
    return jax.lax.fori_loop(0, 1000, lambda i, c: c * 0.999 + jnp.sin(c) * 0.001 + i.astype(jnp.float32) * 1e-6, x)
save("while_loop", loop, f32(16))

def sorting(x, idx):
    vals, pos = jax.lax.top_k(x, 3)
    return jnp.sort(x, axis=-1), vals, pos, x[idx]
save("sort_gather", sorting, f32(4, 10), np.array([3, 0, 2], np.int32))

def ints(a, b):
    return (a // b, a % b, a << 3, a >> 2, jnp.maximum(a, b), (a * b).astype(jnp.int8), a.astype(jnp.uint16))
save("integer_ops", ints, rng.integers(-1000, 1000, (5, 7)).astype(np.int32), rng.integers(1, 50, (5, 7)).astype(np.int32))

def f64_ops(x):
    return jnp.tanh(x) * jnp.exp(-x * x) + jnp.log1p(jnp.abs(x)), jnp.cumsum(x)
save("f64_ops", f64_ops, rng.standard_normal(12))

def mixed(x):
    return (x.astype(jnp.bfloat16) * 3).astype(jnp.float32), x.astype(jnp.float16) + 1
save("mixed_precision", mixed, f32(9))

# Seeded again so that the fft model's inputs do not depend on the models above.
rng = np.random.default_rng(7)

def fft_ops(x, c, z, w):
    spectrum = jnp.fft.rfft(x)
    return (spectrum, jnp.fft.irfft(spectrum, n=x.shape[-1]), jnp.fft.fft2(c),
            jnp.fft.ifftn(z), jnp.fft.rfft2(w), jnp.fft.irfft2(jnp.fft.rfft2(w), s=w.shape))
save("fft_ops", fft_ops, f32(3, 10),
     (f32(6, 5) + 1j * f32(6, 5)).astype(np.complex64),
     rng.standard_normal((2, 3, 4)) + 1j * rng.standard_normal((2, 3, 4)),
     rng.standard_normal((5, 7)))
