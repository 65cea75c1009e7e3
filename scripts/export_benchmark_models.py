# Regenerates benchmarks/models: the modules `scripts/bench.sh` times, exported
# from JAX as XLA HLO text at realistic sizes. A development tool only:
# building, testing and benchmarking Polyhal never run it. With --time it
# also prints XLA:CPU's median run time of each module on this machine, the
# outside baseline docs/performance.md quotes.
#   python3 scripts/export_benchmark_models.py [--time]
import os, sys, time, numpy as np, jax, jax.numpy as jnp

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks", "models")
rng = np.random.default_rng(11)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g + b


def add_scalars(a, b):
    return a + b


def elementwise_chain(x):
    return jnp.maximum(x * 1.5 + 0.25, 0.0) * x - 2.0


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def mlp(x, w1, b1, w2, b2):
    return jax.nn.softmax(jax.nn.relu(x @ w1 + b1) @ w2 + b2, axis=-1)


def transformer_block(x, wq, wk, wv, wo, g1, b1, w1, w2, g2, b2):
    seq, dim, heads = x.shape[0], x.shape[1], 4
    hd = dim // heads

    def split(t):
        return t.reshape(seq, heads, hd).transpose(1, 0, 2)

    q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
    s = jnp.einsum("hqd,hkd->hqk", q, k) / np.sqrt(hd).astype(np.float32)
    mask = jnp.tril(jnp.ones((seq, seq), bool))
    s = jnp.where(mask, s, -1e9)
    a = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, -1), v)
    a = a.transpose(1, 0, 2).reshape(seq, dim)
    h = layer_norm(x + a @ wo, g1, b1)
    return layer_norm(h + jax.nn.gelu(h @ w1) @ w2, g2, b2)


def convnet(x, k1, k2, w):
    dn = ("NHWC", "HWIO", "NHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn))
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=dn))
    return y.mean(axis=(1, 2)) @ w


MODULES = [
    ("add_scalars", add_scalars, [np.float32(1.5), np.float32(2.25)]),
    ("elementwise_chain_16m", elementwise_chain, [f32(1 << 24)]),
    ("softmax_4096x1024", softmax, [f32(4096, 1024)]),
    ("layer_norm_4096x1024", layer_norm, [f32(4096, 1024), f32(1024), f32(1024)]),
    ("mlp_256x784", mlp, [f32(256, 784), f32(784, 512) * 0.05, f32(512), f32(512, 10) * 0.05, f32(10)]),
    ("transformer_block_128x256", transformer_block,
     [f32(128, 256)] + [f32(256, 256) * 0.06 for _ in range(4)] + [f32(256), f32(256),
      f32(256, 1024) * 0.06, f32(1024, 256) * 0.03, f32(256), f32(256)]),
    ("convnet_8x32x32", convnet, [f32(8, 32, 32, 3), f32(3, 3, 3, 16) * 0.2, f32(3, 3, 16, 32) * 0.1, f32(32, 10)]),
]


def median_seconds(fn, args, repeat=20):
    fn(*args).block_until_ready()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args).block_until_ready()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


os.makedirs(out, exist_ok=True)
for name, fn, args in MODULES:
    lowered = jax.jit(fn).lower(*args)
    with open(f"{out}/{name}.hlo", "w") as f:
        f.write(lowered.as_text(dialect="hlo"))
    if "--time" in sys.argv:
        seconds = median_seconds(jax.jit(fn), [jnp.asarray(a) for a in args])
        print(f"{name}: XLA:CPU median {seconds * 1e3:.3f} ms")
