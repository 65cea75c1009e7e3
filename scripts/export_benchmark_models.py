# Regenerates benchmarks/models: the modules `scripts/bench.sh` times, exported
# from JAX. A development tool only: building, testing and benchmarking
# Polyhal never run it.
#
# Two sets of modules:
# - the kernel-level modules (elementwise chain, softmax, layer norm, a small
#   MLP, transformer block and convnet), written as XLA HLO text (`.hlo`);
#   the end-to-end tests run each of these against the reference
#   interpreter on every plugin, so they stay small;
# - the model suite at realistic sizes (SUITE: a GPT-2-small decoder block,
#   a ResNet stage, a MobileNet block, an LSTM scan, attention at T=512, an
#   embedding bag, an MLP training step, row statistics), written as
#   StableHLO text (`.mlir`), the text `scripts/bench_vs_xla.py` gives both
#   Polyhal and XLA:CPU.
# Every weight and input is an entry parameter, never a literal, so the files
# stay small; `inputs(name)` gives a module's inputs from a fixed seed, and
# --inputs DIR writes them as `NAME.input_K.npy` for `polyhal bench --input`.
#   python3 scripts/export_benchmark_models.py [--time] [--inputs DIR]
import argparse
import os
import time

import jax
import jax.numpy as jnp
import numpy as np

MODELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                          "benchmarks", "models")
SEED = 11


def normal(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def layer_norm(x, g, b):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / jnp.sqrt(v + 1e-5) * g + b


# The kernel-level modules (HLO text).


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


KERNELS = [
    ("add_scalars", add_scalars, lambda r: [np.float32(1.5), np.float32(2.25)]),
    ("elementwise_chain_16m", elementwise_chain, lambda r: [normal(r, 1 << 24)]),
    ("softmax_4096x1024", softmax, lambda r: [normal(r, 4096, 1024)]),
    ("layer_norm_4096x1024", layer_norm,
     lambda r: [normal(r, 4096, 1024), normal(r, 1024), normal(r, 1024)]),
    ("mlp_256x784", mlp,
     lambda r: [normal(r, 256, 784), normal(r, 784, 512, scale=0.05), normal(r, 512),
                normal(r, 512, 10, scale=0.05), normal(r, 10)]),
    ("transformer_block_128x256", transformer_block,
     lambda r: [normal(r, 128, 256)] + [normal(r, 256, 256, scale=0.06) for _ in range(4)]
     + [normal(r, 256), normal(r, 256), normal(r, 256, 1024, scale=0.06),
        normal(r, 1024, 256, scale=0.03), normal(r, 256), normal(r, 256)]),
    ("convnet_8x32x32", convnet,
     lambda r: [normal(r, 8, 32, 32, 3), normal(r, 3, 3, 3, 16, scale=0.2),
                normal(r, 3, 3, 16, 32, scale=0.1), normal(r, 32, 10)]),
]

# The model suite (StableHLO text).


def gpt2_block(x, g1, b1, w_qkv, b_qkv, w_o, b_o, g2, b2, w_fc, b_fc, w_proj, b_proj):
    """A GPT-2-small decoder block: pre-norm causal self-attention with 12
    heads of 64, then a 4x MLP with exact GELU, each with a residual."""
    seq, dim, heads = x.shape[0], x.shape[1], 12
    hd = dim // heads
    h = layer_norm(x, g1, b1) @ w_qkv + b_qkv
    q, k, v = (t.reshape(seq, heads, hd).transpose(1, 0, 2) for t in jnp.split(h, 3, axis=-1))
    s = jnp.einsum("hqd,hkd->hqk", q, k) / np.float32(np.sqrt(hd))
    s = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, np.float32(-1e9))
    a = jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(s, -1), v).transpose(1, 0, 2).reshape(seq, dim)
    x = x + a @ w_o + b_o
    m = jax.nn.gelu(layer_norm(x, g2, b2) @ w_fc + b_fc, approximate=False)
    return x + m @ w_proj + b_proj


def resnet_stage(x, k1, s1, t1, k2, s2, t2, k3, s3, t3, k4, s4, t4):
    """conv2_x of ResNet-18: two basic blocks of two 3x3 convolutions, 64
    channels, batch norm folded into a scale and shift per channel."""
    dn = ("NHWC", "HWIO", "NHWC")

    def conv_bn(y, k, s, t):
        return jax.lax.conv_general_dilated(y, k, (1, 1), "SAME", dimension_numbers=dn) * s + t

    for ka, sa, ta, kb, sb, tb in ((k1, s1, t1, k2, s2, t2), (k3, s3, t3, k4, s4, t4)):
        y = jax.nn.relu(conv_bn(x, ka, sa, ta))
        x = jax.nn.relu(x + conv_bn(y, kb, sb, tb))
    return x


def mobilenet_block(x, w_expand, s1, t1, k_dw, s2, t2, w_project, s3, t3):
    """A MobileNetV2 inverted residual block: 1x1 expansion by 6 with ReLU6,
    3x3 depthwise convolution with ReLU6, 1x1 projection, residual."""
    dn = ("NHWC", "HWIO", "NHWC")
    channels = w_expand.shape[1]
    y = jax.nn.relu6(jnp.einsum("nhwc,cd->nhwd", x, w_expand) * s1 + t1)
    y = jax.lax.conv_general_dilated(y, k_dw, (1, 1), "SAME", dimension_numbers=dn,
                                     feature_group_count=channels)
    y = jax.nn.relu6(y * s2 + t2)
    return x + jnp.einsum("nhwd,dc->nhwc", y, w_project) * s3 + t3


def lstm_scan(xs, h0, c0, w_x, w_h, b):
    """An LSTM layer over a sequence with lax.scan: the final state and
    every step's output."""

    def step(carry, x):
        h, c = carry
        i, f, g, o = jnp.split(x @ w_x + h @ w_h + b, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    (h, c), hs = jax.lax.scan(step, (h0, c0), xs)
    return h, c, hs


def attention(x, w_q, w_k, w_v, w_o):
    """Multi-head self-attention with its projections, 8 heads of 64."""
    batch, seq, dim = x.shape
    heads, hd = 8, dim // 8

    def split(t):
        return t.reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(hd))
    a = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)
    return a.transpose(0, 2, 1, 3).reshape(batch, seq, dim) @ w_o


def embedding_bag(table, ids, weights, bags):
    """Rows of an embedding table gathered per token, weighted and summed
    into their bag (segment sum, a scatter-add)."""
    rows = jnp.take(table, ids, axis=0) * weights[:, None]
    return jax.ops.segment_sum(rows, bags, num_segments=EMBEDDING_BAGS)


def mlp_train_step(w1, b1, w2, b2, x, labels):
    """One SGD step of a 784-512-10 classifier: forward, cross-entropy,
    backward, update; the new parameters and the loss."""

    def loss(params):
        w1, b1, w2, b2 = params
        logits = jax.nn.relu(x @ w1 + b1) @ w2 + b2
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(labels, 10), -1))

    params = (w1, b1, w2, b2)
    value, grads = jax.value_and_grad(loss)(params)
    return tuple(p - np.float32(0.1) * g for p, g in zip(params, grads)) + (value,)


def row_stats(x):
    """Per-row mean, variance, maximum, argmax and log-sum-exp."""
    return (x.mean(-1), x.var(-1), x.max(-1), jnp.argmax(x, -1).astype(jnp.int32),
            jax.nn.logsumexp(x, -1))


def cumulative_ops(x):
    """Running sums, maxima and products along rows and columns, as scans,
    losses and samplers write them (jnp.cumsum, lax.cummax, jnp.cumprod:
    reduce_window over the whole axis)."""
    return (jnp.cumsum(x, axis=-1), jax.lax.cummax(x, axis=1),
            jnp.cumprod(1 + x * np.float32(0.01), axis=0))


EMBEDDING_ROWS, EMBEDDING_TOKENS, EMBEDDING_BAGS = 50000, 32768, 512


def bn(r, channels):
    """A folded batch norm's scale (near 1) and shift."""
    return [1 + normal(r, channels, scale=0.1), normal(r, channels, scale=0.1)]


def resnet_inputs(r):
    inputs = [normal(r, 8, 56, 56, 64)]
    for _ in range(4):
        inputs += [normal(r, 3, 3, 64, 64, scale=np.sqrt(2 / 576))] + bn(r, 64)
    return inputs


def embedding_inputs(r):
    ids = r.integers(0, EMBEDDING_ROWS, EMBEDDING_TOKENS, dtype=np.int32)
    bags = np.sort(r.integers(0, EMBEDDING_BAGS, EMBEDDING_TOKENS, dtype=np.int32))
    return [normal(r, EMBEDDING_ROWS, 64), ids, r.random(EMBEDDING_TOKENS, np.float32), bags]


SUITE = [
    ("gpt2_block_128x768", gpt2_block,
     lambda r: [normal(r, 128, 768)] + bn(r, 768)
     + [normal(r, 768, 2304, scale=0.02), normal(r, 2304, scale=0.02),
        normal(r, 768, 768, scale=0.02), normal(r, 768, scale=0.02)] + bn(r, 768)
     + [normal(r, 768, 3072, scale=0.02), normal(r, 3072, scale=0.02),
        normal(r, 3072, 768, scale=0.02), normal(r, 768, scale=0.02)]),
    ("resnet_stage_8x56x56x64", resnet_stage, resnet_inputs),
    ("mobilenet_block_8x112x112x16", mobilenet_block,
     lambda r: [normal(r, 8, 112, 112, 16), normal(r, 16, 96, scale=0.25)] + bn(r, 96)
     + [normal(r, 3, 3, 1, 96, scale=0.33)] + bn(r, 96)
     + [normal(r, 96, 16, scale=0.1)] + bn(r, 16)),
    ("lstm_scan_32x32x256", lstm_scan,
     lambda r: [normal(r, 32, 32, 256), normal(r, 32, 256), normal(r, 32, 256),
                normal(r, 256, 1024, scale=0.06), normal(r, 256, 1024, scale=0.06),
                normal(r, 1024, scale=0.1)]),
    ("attention_4x512x8x64", attention,
     lambda r: [normal(r, 4, 512, 512)] + [normal(r, 512, 512, scale=0.044) for _ in range(4)]),
    ("embedding_bag_50000x64", embedding_bag, embedding_inputs),
    ("mlp_train_step_128x784", mlp_train_step,
     lambda r: [normal(r, 784, 512, scale=0.05), np.zeros(512, np.float32),
                normal(r, 512, 10, scale=0.05), np.zeros(10, np.float32),
                r.random((128, 784), np.float32), r.integers(0, 10, 128, dtype=np.int32)]),
    ("row_stats_2048x2048", row_stats, lambda r: [normal(r, 2048, 2048)]),
    ("cumulative_ops_512x2048", cumulative_ops, lambda r: [normal(r, 512, 2048)]),
]

MODELS = {name: (fn, make_inputs, ".hlo") for name, fn, make_inputs in KERNELS}
MODELS.update({name: (fn, make_inputs, ".mlir") for name, fn, make_inputs in SUITE})


def inputs(name):
    """The inputs of a module, the same on every call (each module has its
    own generator, so adding a module changes no other's data)."""
    return MODELS[name][1](np.random.default_rng(SEED))


def median_seconds(fn, args, repeat=20):
    fn(*args)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(
        description="Regenerates benchmarks/models from JAX.")
    parser.add_argument("--time", action="store_true",
                        help="print XLA:CPU's median run time of each module (jax.jit)")
    parser.add_argument("--inputs", metavar="DIR",
                        help="also write each module's inputs as DIR/NAME.input_K.npy")
    args = parser.parse_args()
    os.makedirs(MODELS_DIR, exist_ok=True)
    for name, (fn, _, suffix) in MODELS.items():
        data = inputs(name)
        lowered = jax.jit(fn).lower(*data)
        text = lowered.as_text(dialect="hlo" if suffix == ".hlo" else "stablehlo")
        with open(os.path.join(MODELS_DIR, name + suffix), "w") as f:
            f.write(text)
        if args.inputs:
            os.makedirs(args.inputs, exist_ok=True)
            for k, value in enumerate(data):
                np.save(os.path.join(args.inputs, f"{name}.input_{k}.npy"), np.asarray(value))
        if args.time:
            seconds = median_seconds(jax.jit(fn), [jnp.asarray(a) for a in data])
            print(f"{name}: XLA:CPU median {seconds * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
