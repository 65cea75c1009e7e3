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
#   embedding bag, an MLP training step, row statistics, cumulative ops) and
#   its wider families (WIDE_SUITE: convolutions of every rank, layout,
#   stride and dilation, pooling, scans, transformer variants at training
#   and decode shapes, MoE, scatter, sort and top-k, large-vocabulary
#   losses, normalisations, bf16, f16 and int8, integer hashing, FFT,
#   optimizer steps) and linear algebra (LINALG_SUITE: Cholesky, LU, QR,
#   eigh and SVD from 64 to 1024, single and batched), written as StableHLO
#   text (`.mlir`), the text
#   `scripts/bench_vs_xla.py` gives both Polyhal and XLA:CPU.
# Every weight and input is an entry parameter, never a literal, so the files
# stay small; `inputs(name)` gives a module's inputs from a fixed seed, and
# --inputs DIR writes them as `NAME.input_K.npy` for `polyhal bench --input`.
#   python3 scripts/export_benchmark_models.py [--time] [--inputs DIR] [MODULE...]
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


# The model suite's wider families: convolutions of other ranks, layouts,
# strides and dilations, pooling, scans, transformer variants at training
# and decode shapes, MoE, scatter, sorting and selection, losses,
# normalisations, reduced precision, integers, FFT, optimizers.

NHWC = ("NHWC", "HWIO", "NHWC")
NWC = ("NWC", "WIO", "NWC")


def conv1d_stack(x, k1, k2, k3):
    """Three 1-D convolutions of width 9 with ReLU (audio and sequence
    models), channels 64 -> 128 -> 128 -> 64."""
    for k in (k1, k2, k3):
        x = jax.nn.relu(jax.lax.conv_general_dilated(x, k, (1,), "SAME", dimension_numbers=NWC))
    return x


def wavenet_stack(x, kf, kg, kr):
    """WaveNet's dilated causal 1-D convolutions (dilations 1, 2, 4, 8),
    each a gated tanh * sigmoid unit with a 1x1 residual projection."""
    for d in range(4):
        padded = jnp.pad(x, ((0, 0), (2 ** d, 0), (0, 0)))
        f = jax.lax.conv_general_dilated(padded, kf[d], (1,), "VALID", rhs_dilation=(2 ** d,),
                                         dimension_numbers=NWC)
        g = jax.lax.conv_general_dilated(padded, kg[d], (1,), "VALID", rhs_dilation=(2 ** d,),
                                         dimension_numbers=NWC)
        x = x + jnp.tanh(f) * jax.nn.sigmoid(g) @ kr[d]
    return x


def conv3d_block(x, k1, k2):
    """Two 3x3x3 convolutions over video frames or volumes (NDHWC)."""
    dn = ("NDHWC", "DHWIO", "NDHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1, 1), "SAME", dimension_numbers=dn))
    return jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (1, 1, 1), "SAME", dimension_numbers=dn))


def unet_block(x, k_down, k_up, k_out):
    """A U-Net level: 2x2 max pool, 3x3 convolution, 2x2 transposed
    convolution of stride 2 back up, concatenation with the skip, 3x3
    convolution."""
    y = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    y = jax.nn.relu(jax.lax.conv_general_dilated(y, k_down, (1, 1), "SAME", dimension_numbers=NHWC))
    y = jax.lax.conv_transpose(y, k_up, (2, 2), "SAME", dimension_numbers=NHWC)
    y = jnp.concatenate([x, jax.nn.relu(y)], axis=-1)
    return jax.nn.relu(jax.lax.conv_general_dilated(y, k_out, (1, 1), "SAME", dimension_numbers=NHWC))


def conv_nchw(x, k1, b1, k2, b2):
    """Two 3x3 convolutions with bias in PyTorch's layout (NCHW, OIHW)."""
    dn = ("NCHW", "OIHW", "NCHW")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn)
                    + b1[:, None, None])
    return jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=dn)
                       + b2[:, None, None])


def resnet_stem(x, k, s, t):
    """ResNet's stem: a 7x7 convolution of stride 2, batch norm, ReLU, a 3x3
    max pool of stride 2 (overlapping windows), and an average pool."""
    y = jax.lax.conv_general_dilated(x, k, (2, 2), ((3, 3), (3, 3)), dimension_numbers=NHWC)
    y = jax.nn.relu(y * s + t)
    y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1),
                              ((0, 0), (1, 1), (1, 1), (0, 0)))
    pooled = jax.lax.reduce_window(y, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    return y, pooled * np.float32(0.25)


def dilated_conv(x, k1, k2):
    """Atrous 3x3 convolutions (DeepLab), dilations 2 and 4."""
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", rhs_dilation=(2, 2),
                                                 dimension_numbers=NHWC))
    return jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", rhs_dilation=(4, 4),
                                                    dimension_numbers=NHWC))


def vit_patch_embed(x, k, b, pos, g, beta):
    """A ViT's patch embedding: a 16x16 convolution of stride 16, position
    embeddings and a layer norm."""
    y = jax.lax.conv_general_dilated(x, k, (16, 16), "VALID", dimension_numbers=NHWC) + b
    y = y.reshape(y.shape[0], -1, y.shape[-1]) + pos
    return layer_norm(y, g, beta)


def conformer_conv(x, w_in, k_dw, s, t, w_out):
    """A Conformer convolution module: pointwise expansion, GLU, a depthwise
    1-D convolution of width 31, batch norm, swish, pointwise projection."""
    a, b = jnp.split(x @ w_in, 2, axis=-1)
    y = a * jax.nn.sigmoid(b)
    y = jax.lax.conv_general_dilated(y, k_dw, (1,), "SAME", dimension_numbers=NWC,
                                     feature_group_count=y.shape[-1])
    y = jax.nn.swish(y * s + t)
    return x + y @ w_out


def gru_scan(xs, h0, w_x, w_h, b):
    """A GRU layer over a sequence with lax.scan."""

    def step(h, x):
        gx = x @ w_x + b
        gh = h @ w_h
        rx, zx, nx = jnp.split(gx, 3, axis=-1)
        rh, zh, nh = jnp.split(gh, 3, axis=-1)
        r = jax.nn.sigmoid(rx + rh)
        z = jax.nn.sigmoid(zx + zh)
        n = jnp.tanh(nx + r * nh)
        h = (1 - z) * n + z * h
        return h, h

    return jax.lax.scan(step, h0, xs)


def rnn_long_scan(xs, h0, w_x, w_h):
    """An Elman RNN over 1024 short steps: the scan's per-step cost."""

    def step(h, x):
        h = jnp.tanh(x @ w_x + h @ w_h)
        return h, h

    return jax.lax.scan(step, h0, xs)


def bert_layer(x, mask, w_qkv, b_qkv, w_o, b_o, g1, b1, w_1, b_1, w_2, b_2, g2, b2,
               heads=12, approximate_gelu=False):
    """A BERT-base encoder layer: bidirectional attention with a padding
    mask, post-norm, exact GELU (or its tanh approximation)."""
    batch, seq, dim = x.shape
    hd = dim // heads
    q, k, v = (t.reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)
               for t in jnp.split(x @ w_qkv + b_qkv, 3, axis=-1))
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(hd))
    s = jnp.where(mask[:, None, None, :] > 0, s, np.float32(-1e9))
    a = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)
    x = layer_norm(x + a.transpose(0, 2, 1, 3).reshape(batch, seq, dim) @ w_o + b_o, g1, b1)
    m = jax.nn.gelu(x @ w_1 + b_1, approximate=approximate_gelu) @ w_2 + b_2
    return layer_norm(x + m, g2, b2)


def kv_cache_decode(x, k_cache, v_cache, pos, w_qkv, w_o, w_1, w_2):
    """One decoder step at batch 8 with a KV cache of 1024 positions: the
    new token's keys and values written into the cache
    (dynamic_update_slice), attention over the filled part, the MLP."""
    batch, dim = x.shape
    heads, hd = 12, dim // 12
    q, k, v = (t.reshape(batch, 1, heads, hd) for t in jnp.split(x @ w_qkv, 3, axis=-1))
    k_cache = jax.lax.dynamic_update_slice(k_cache, k, (0, pos, 0, 0))
    v_cache = jax.lax.dynamic_update_slice(v_cache, v, (0, pos, 0, 0))
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k_cache) / np.float32(np.sqrt(hd))
    valid = jnp.arange(k_cache.shape[1]) <= pos
    s = jnp.where(valid[None, None, None, :], s, np.float32(-1e9))
    a = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, -1), v_cache).reshape(batch, dim)
    x = x + a @ w_o
    return x + jax.nn.gelu(x @ w_1) @ w_2, k_cache, v_cache


def gqa_attention(q, k, v):
    """Causal grouped-query attention: 16 query heads over 4 key and value
    heads (Llama's layout, batch, sequence, heads, head dimension)."""
    batch, seq, heads, hd = q.shape
    groups = heads // k.shape[2]
    q = q.reshape(batch, seq, k.shape[2], groups, hd)
    s = jnp.einsum("bqkgd,bskd->bkgqs", q, k) / np.float32(np.sqrt(hd))
    s = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, np.float32(-1e30))
    a = jnp.einsum("bkgqs,bskd->bqkgd", jax.nn.softmax(s, -1), v)
    return a.reshape(batch, seq, heads, hd)


def moe_top2(x, w_router, w_in, w_out):
    """A top-2 mixture-of-experts layer over 8 experts with dense dispatch:
    router softmax, top_k, combine weights, every expert's FFN."""
    probs = jax.nn.softmax(x @ w_router, -1)
    top, idx = jax.lax.top_k(probs, 2)
    top = top / top.sum(-1, keepdims=True)
    combine = (jax.nn.one_hot(idx, w_router.shape[1]) * top[..., None]).sum(1)
    h = jax.nn.gelu(jnp.einsum("td,edf->tef", x, w_in))
    y = jnp.einsum("tef,efd->ted", h, w_out)
    return jnp.einsum("ted,te->td", y, combine)


def embedding_grad(table, ids, grad_rows):
    """An embedding's backward pass and SGD update: the rows' gradients
    scattered onto the table (a scatter-add with many duplicate ids)."""
    grad = jnp.zeros_like(table).at[ids].add(grad_rows)
    return table - np.float32(0.01) * grad


def sort_rows(x):
    """Sorted rows and the permutation that sorts them (jnp.sort,
    jnp.argsort)."""
    return jnp.sort(x, axis=-1), jnp.argsort(x, axis=-1).astype(jnp.int32)


def top_k_rows(x):
    """The 8 largest logits of each row of a large vocabulary and their
    indices (lax.top_k, as samplers and beam search use it)."""
    return jax.lax.top_k(x, 8)


def top_p_sampling(logits, u):
    """Nucleus sampling: softmax, sort descending, cumulative sum, the
    smallest prefix of mass 0.9, the sampled token."""
    probs = jax.nn.softmax(logits, -1)
    order = jnp.argsort(-probs, axis=-1)
    sorted_probs = jnp.take_along_axis(probs, order, -1)
    cumulative = jnp.cumsum(sorted_probs, -1)
    kept = jnp.where(cumulative - sorted_probs < 0.9, sorted_probs, 0.0)
    choice = jnp.argmax(jnp.cumsum(kept, -1) >= u[:, None] * kept.sum(-1, keepdims=True), -1)
    return jnp.take_along_axis(order, choice[:, None], -1)[:, 0].astype(jnp.int32)


def cross_entropy_large_vocab(logits, labels):
    """Softmax cross-entropy over a 32,000-token vocabulary, with its
    gradient with respect to the logits."""

    def loss(z):
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(z), labels[:, None], -1))

    return jax.value_and_grad(loss)(logits)


def lm_head_loss(h, w, labels):
    """A language model's output layer: the projection to a 16,384-token
    vocabulary and the mean cross-entropy."""
    logits = h @ w
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], -1))


def group_rms_norm(x, g, b, r):
    """Group norm (32 groups) followed by RMS norm, on NHWC activations."""
    n, h, w, c = x.shape
    y = x.reshape(n, h, w, 32, c // 32)
    m = y.mean((1, 2, 4), keepdims=True)
    v = ((y - m) ** 2).mean((1, 2, 4), keepdims=True)
    y = ((y - m) / jnp.sqrt(v + 1e-5)).reshape(n, h, w, c) * g + b
    return y * jax.lax.rsqrt((y * y).mean(-1, keepdims=True) + 1e-6) * r


def batch_norm_train(x, g, b, running_mean, running_var):
    """Batch norm in training: batch statistics, normalisation, and the
    running statistics' update."""
    m = x.mean((0, 1, 2))
    v = x.var((0, 1, 2))
    y = (x - m) / jnp.sqrt(v + 1e-5) * g + b
    return (jax.nn.relu(y), np.float32(0.9) * running_mean + np.float32(0.1) * m,
            np.float32(0.9) * running_var + np.float32(0.1) * v)


def bf16_matmul(a, b):
    """A bf16 matrix product accumulated in f32 (mixed-precision training's
    matmul)."""
    return jnp.matmul(a, b, preferred_element_type=jnp.float32)


def f16_mlp(x, w1, b1, w2, b2):
    """A two-layer MLP entirely in f16 (inference at half precision)."""
    return jax.nn.relu(x @ w1 + b1) @ w2 + b2


def bf16_conv(x, k):
    """A 3x3 convolution in bf16 with f32 accumulation and a bf16 result."""
    y = jax.lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=NHWC,
                                     preferred_element_type=jnp.float32)
    return jax.nn.relu(y).astype(jnp.bfloat16)


def int8_matmul(x, w, x_scale, w_scale):
    """A quantized linear layer: int8 operands, int32 accumulation, then
    dequantisation by per-tensor and per-channel scales and a requantised
    int8 output."""
    acc = jax.lax.dot(x, w, preferred_element_type=jnp.int32)
    y = acc.astype(jnp.float32) * x_scale * w_scale
    return y, jnp.clip(jnp.round(y * np.float32(8.0)), -128, 127).astype(jnp.int8)


def int_hashing(keys):
    """Integer arithmetic as hashing and bucketing write it: multiply,
    xor, shifts, remainders and a histogram by scatter-add."""
    h = keys.astype(jnp.uint32) * np.uint32(2654435761)
    h = h ^ (h >> 15)
    h = h * np.uint32(2246822519)
    h = h ^ (h >> 13)
    buckets = (h % np.uint32(4096)).astype(jnp.int32)
    return h, jnp.zeros(4096, jnp.int32).at[buckets.reshape(-1)].add(1)


def fft_spectrum(x):
    """A power spectrum and its inverse transform (jnp.fft.rfft, irfft)."""
    spectrum = jnp.fft.rfft(x, axis=-1)
    power = jnp.abs(spectrum) ** 2
    return power, jnp.fft.irfft(spectrum * (power > 1.0), n=x.shape[-1], axis=-1)


def cnn_adam_step(k1, k2, w, m1, m2, mw, v1, v2, vw, x, labels):
    """One Adam step of a small CNN classifier (two 3x3 convolutions, a
    dense layer): forward, cross-entropy, backward through the
    convolutions, and the Adam update of every parameter."""

    def loss(params):
        k1, k2, w = params
        y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=NHWC))
        y = jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (2, 2), "SAME", dimension_numbers=NHWC))
        logits = y.mean((1, 2)) @ w
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(labels, 10), -1))

    params, ms, vs = (k1, k2, w), (m1, m2, mw), (v1, v2, vw)
    value, grads = jax.value_and_grad(loss)(params)
    ms = tuple(np.float32(0.9) * m + np.float32(0.1) * g for m, g in zip(ms, grads))
    vs = tuple(np.float32(0.999) * v + np.float32(0.001) * g * g for v, g in zip(vs, grads))
    params = tuple(p - np.float32(1e-3) * m / (jnp.sqrt(v) + 1e-8)
                   for p, m, v in zip(params, ms, vs))
    return params + ms + vs + (value,)


def transformer_train_step(x, targets, w_qkv, w_o, w_1, w_2):
    """One SGD step of a small causal transformer layer (4 heads of 64,
    MLP 4x): forward, mean squared error, backward, update."""

    def loss(params):
        w_qkv, w_o, w_1, w_2 = params
        batch, seq, dim = x.shape
        q, k, v = (t.reshape(batch, seq, 4, dim // 4).transpose(0, 2, 1, 3)
                   for t in jnp.split(x @ w_qkv, 3, axis=-1))
        s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(8.0)
        s = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, np.float32(-1e9))
        a = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)
        h = x + a.transpose(0, 2, 1, 3).reshape(batch, seq, dim) @ w_o
        h = h + jax.nn.gelu(h @ w_1) @ w_2
        return jnp.mean((h - targets) ** 2)

    params = (w_qkv, w_o, w_1, w_2)
    value, grads = jax.value_and_grad(loss)(params)
    return tuple(p - np.float32(0.01) * g for p, g in zip(params, grads)) + (value,)


def cumulative_logsumexp(x):
    """Running log-sum-exp and running minimum along rows (jax.lax's
    cumlogsumexp and cummin)."""
    return jax.lax.cumlogsumexp(x, axis=1), jax.lax.cummin(x, axis=1)


def scale(shape_in):
    return float(np.sqrt(2.0 / shape_in))


def bf16(array):
    return jnp.asarray(array, jnp.bfloat16)


def f16(array):
    return np.asarray(array, np.float16)


WIDE_SUITE = [
    ("conv1d_stack_8x4096x64", conv1d_stack,
     lambda r: [normal(r, 8, 4096, 64), normal(r, 9, 64, 128, scale=scale(576)),
                normal(r, 9, 128, 128, scale=scale(1152)), normal(r, 9, 128, 64, scale=scale(1152))]),
    ("wavenet_stack_4x8192x64", wavenet_stack,
     lambda r: [normal(r, 4, 8192, 64), normal(r, 4, 2, 64, 64, scale=0.1),
                normal(r, 4, 2, 64, 64, scale=0.1), normal(r, 4, 64, 64, scale=0.1)]),
    ("conv3d_block_2x16x32x32x16", conv3d_block,
     lambda r: [normal(r, 2, 16, 32, 32, 16), normal(r, 3, 3, 3, 16, 32, scale=scale(432)),
                normal(r, 3, 3, 3, 32, 32, scale=scale(864))]),
    ("unet_block_4x64x64x32", unet_block,
     lambda r: [normal(r, 4, 64, 64, 32), normal(r, 3, 3, 32, 64, scale=scale(288)),
                normal(r, 2, 2, 64, 32, scale=scale(256)), normal(r, 3, 3, 64, 32, scale=scale(576))]),
    ("conv_nchw_8x64x56x56", conv_nchw,
     lambda r: [normal(r, 8, 64, 56, 56), normal(r, 64, 64, 3, 3, scale=scale(576)), normal(r, 64),
                normal(r, 64, 64, 3, 3, scale=scale(576)), normal(r, 64)]),
    ("resnet_stem_8x224x224x3", resnet_stem,
     lambda r: [normal(r, 8, 224, 224, 3), normal(r, 7, 7, 3, 64, scale=scale(147))] + bn(r, 64)),
    ("dilated_conv_4x64x64x64", dilated_conv,
     lambda r: [normal(r, 4, 64, 64, 64), normal(r, 3, 3, 64, 64, scale=scale(576)),
                normal(r, 3, 3, 64, 64, scale=scale(576))]),
    ("vit_patch_embed_8x224x224x3", vit_patch_embed,
     lambda r: [normal(r, 8, 224, 224, 3), normal(r, 16, 16, 3, 768, scale=scale(768)),
                normal(r, 768), normal(r, 196, 768, scale=0.02)] + bn(r, 768)),
    ("conformer_conv_8x512x256", conformer_conv,
     lambda r: [normal(r, 8, 512, 256), normal(r, 256, 512, scale=0.06),
                normal(r, 31, 1, 256, scale=0.18)] + bn(r, 256) + [normal(r, 256, 256, scale=0.06)]),
    ("gru_scan_64x32x256", gru_scan,
     lambda r: [normal(r, 64, 32, 256), normal(r, 32, 256), normal(r, 256, 768, scale=0.06),
                normal(r, 256, 768, scale=0.06), normal(r, 768, scale=0.1)]),
    ("rnn_long_scan_1024x8x64", rnn_long_scan,
     lambda r: [normal(r, 1024, 8, 64), normal(r, 8, 64), normal(r, 64, 64, scale=0.12),
                normal(r, 64, 64, scale=0.12)]),
    ("bert_layer_8x128x768", bert_layer,
     lambda r: [normal(r, 8, 128, 768), (r.random((8, 128)) < 0.9).astype(np.float32),
                normal(r, 768, 2304, scale=0.02), normal(r, 2304, scale=0.02),
                normal(r, 768, 768, scale=0.02), normal(r, 768, scale=0.02)] + bn(r, 768)
     + [normal(r, 768, 3072, scale=0.02), normal(r, 3072, scale=0.02),
        normal(r, 3072, 768, scale=0.02), normal(r, 768, scale=0.02)] + bn(r, 768)),
    ("kv_cache_decode_8x1024x768", kv_cache_decode,
     lambda r: [normal(r, 8, 768), normal(r, 8, 1024, 12, 64), normal(r, 8, 1024, 12, 64),
                np.int32(700), normal(r, 768, 2304, scale=0.02), normal(r, 768, 768, scale=0.02),
                normal(r, 768, 3072, scale=0.02), normal(r, 3072, 768, scale=0.02)]),
    ("gqa_attention_2x512x16x64", gqa_attention,
     lambda r: [normal(r, 2, 512, 16, 64), normal(r, 2, 512, 4, 64), normal(r, 2, 512, 4, 64)]),
    ("moe_top2_512x512x8", moe_top2,
     lambda r: [normal(r, 512, 512), normal(r, 512, 8, scale=0.05),
                normal(r, 8, 512, 1024, scale=0.04), normal(r, 8, 1024, 512, scale=0.03)]),
    ("embedding_grad_50000x128", embedding_grad,
     lambda r: [normal(r, 50000, 128), r.zipf(1.3, 65536).astype(np.int32) % 50000,
                normal(r, 65536, 128)]),
    ("sort_rows_32x8192", sort_rows, lambda r: [normal(r, 32, 8192)]),
    ("top_k_64x32768", top_k_rows, lambda r: [normal(r, 64, 32768)]),
    ("top_p_sampling_8x32000", top_p_sampling,
     lambda r: [normal(r, 8, 32000, scale=3.0), r.random(8, np.float32)]),
    ("cross_entropy_512x32000", cross_entropy_large_vocab,
     lambda r: [normal(r, 512, 32000, scale=2.0), r.integers(0, 32000, 512, dtype=np.int32)]),
    ("lm_head_loss_256x512x16384", lm_head_loss,
     lambda r: [normal(r, 256, 512), normal(r, 512, 16384, scale=0.04),
                r.integers(0, 16384, 256, dtype=np.int32)]),
    ("group_rms_norm_8x56x56x128", group_rms_norm,
     lambda r: [normal(r, 8, 56, 56, 128)] + bn(r, 128) + [1 + normal(r, 128, scale=0.1)]),
    ("batch_norm_train_32x28x28x128", batch_norm_train,
     lambda r: [normal(r, 32, 28, 28, 128)] + bn(r, 128) + [normal(r, 128), 1 + r.random(128, np.float32)]),
    ("bf16_matmul_512x1024x1024", bf16_matmul,
     lambda r: [bf16(normal(r, 512, 1024)), bf16(normal(r, 1024, 1024, scale=0.03))]),
    ("f16_mlp_256x1024", f16_mlp,
     lambda r: [f16(normal(r, 256, 1024)), f16(normal(r, 1024, 2048, scale=0.03)),
                f16(normal(r, 2048, scale=0.1)), f16(normal(r, 2048, 1024, scale=0.02)),
                f16(normal(r, 1024, scale=0.1))]),
    ("bf16_conv_8x56x56x64", bf16_conv,
     lambda r: [bf16(normal(r, 8, 56, 56, 64)), bf16(normal(r, 3, 3, 64, 64, scale=scale(576)))]),
    ("int8_matmul_512x2048x1024", int8_matmul,
     lambda r: [r.integers(-127, 128, (512, 2048), dtype=np.int8),
                r.integers(-127, 128, (2048, 1024), dtype=np.int8),
                np.float32(0.02), (r.random(1024, np.float32) + 0.5) * np.float32(1e-3)]),
    ("int_hashing_1024x1024", int_hashing,
     lambda r: [r.integers(0, 1 << 30, (1024, 1024), dtype=np.int32)]),
    ("fft_spectrum_64x4096", fft_spectrum, lambda r: [normal(r, 64, 4096)]),
    ("cnn_adam_step_32x28x28", cnn_adam_step,
     lambda r: [normal(r, 3, 3, 1, 32, scale=0.47), normal(r, 3, 3, 32, 64, scale=0.08),
                normal(r, 64, 10, scale=0.18)]
     + [np.zeros(s, np.float32) for s in ((3, 3, 1, 32), (3, 3, 32, 64), (64, 10))] * 2
     + [r.random((32, 28, 28, 1), np.float32), r.integers(0, 10, 32, dtype=np.int32)]),
    ("transformer_train_step_4x256x256", transformer_train_step,
     lambda r: [normal(r, 4, 256, 256), normal(r, 4, 256, 256),
                normal(r, 256, 768, scale=0.06), normal(r, 256, 256, scale=0.06),
                normal(r, 256, 1024, scale=0.06), normal(r, 1024, 256, scale=0.03)]),
    ("cumulative_logsumexp_128x2048", cumulative_logsumexp, lambda r: [normal(r, 128, 2048)]),
]

# Linear algebra (XLA:CPU calls LAPACK for these; Polyhal runs the loops
# its compiler expands them into), from 64 to 1024, single and batched.


def spd(r, *shape):
    """Symmetric positive-definite matrices: a a^T / n + I."""
    a = r.standard_normal(shape)
    n = shape[-1]
    return (a @ np.swapaxes(a, -1, -2) / n + np.eye(n)).astype(np.float32)


def general(r, *shape):
    return (r.standard_normal(shape) + 2 * np.eye(shape[-1])).astype(np.float32)


def cholesky_solve(a, b):
    """A Gaussian process's posterior mean: Cholesky, then two triangular
    solves."""
    return jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a), b)


def eigh_rebuilt(a):
    """Eigenvalues, and the matrix rebuilt from the eigenvectors (which are
    unique only up to sign, so the two sides compare what they imply)."""
    w, v = jnp.linalg.eigh(a)
    return w, (v * w) @ v.T


def svd_rebuilt(a):
    """Singular values, and the matrix rebuilt from the thin SVD."""
    u, s, vt = jnp.linalg.svd(a, full_matrices=False)
    return s, (u * s) @ vt


LINALG_SUITE = [
    ("cholesky_solve_1024x16", cholesky_solve,
     lambda r: [spd(r, 1024, 1024), normal(r, 1024, 16)]),
    ("cholesky_batch_256x64x64", jnp.linalg.cholesky,
     lambda r: [spd(r, 256, 64, 64)]),
    ("lu_solve_512x512", jnp.linalg.solve,
     lambda r: [general(r, 512, 512), normal(r, 512, 512)]),
    ("inverse_batch_128x32x32", jnp.linalg.inv,
     lambda r: [general(r, 128, 32, 32)]),
    ("slogdet_256", lambda a: jnp.linalg.slogdet(a),
     lambda r: [general(r, 256, 256)]),
    ("qr_512x256", lambda a: jnp.linalg.qr(a), lambda r: [normal(r, 512, 256)]),
    ("eigh_128", eigh_rebuilt, lambda r: [spd(r, 128, 128)]),
    ("svd_128x64", svd_rebuilt, lambda r: [normal(r, 128, 64)]),
]

MODELS = {name: (fn, make_inputs, ".hlo") for name, fn, make_inputs in KERNELS}
MODELS.update({name: (fn, make_inputs, ".mlir")
               for name, fn, make_inputs in SUITE + WIDE_SUITE + LINALG_SUITE})


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


def export_module(name, fn, data, path, inputs_dir=None, time_it=False):
    """Writes `fn` lowered on `data` to `path` (XLA HLO text for a `.hlo`
    path, StableHLO text otherwise); with `inputs_dir`, the inputs as
    `NAME.input_K.npy`; with `time_it`, prints XLA:CPU's median time."""
    lowered = jax.jit(fn).lower(*data)
    text = lowered.as_text(dialect="hlo" if path.endswith(".hlo") else "stablehlo")
    with open(path, "w") as f:
        f.write(text)
    if inputs_dir:
        os.makedirs(inputs_dir, exist_ok=True)
        for k, value in enumerate(data):
            np.save(os.path.join(inputs_dir, f"{name}.input_{k}.npy"), np.asarray(value))
    if time_it:
        seconds = median_seconds(jax.jit(fn), [jnp.asarray(a) for a in data])
        print(f"{name}: XLA:CPU median {seconds * 1e3:.3f} ms")


def main():
    parser = argparse.ArgumentParser(
        description="Regenerates benchmarks/models from JAX.")
    parser.add_argument("--time", action="store_true",
                        help="print XLA:CPU's median run time of each module (jax.jit)")
    parser.add_argument("--inputs", metavar="DIR",
                        help="also write each module's inputs as DIR/NAME.input_K.npy")
    parser.add_argument("names", nargs="*", metavar="MODULE",
                        help="the modules to export (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in MODELS]
    if unknown:
        parser.error(f"no such module: {', '.join(unknown)}")
    os.makedirs(MODELS_DIR, exist_ok=True)
    for name, (fn, _, suffix) in MODELS.items():
        if args.names and name not in args.names:
            continue
        export_module(name, fn, inputs(name), os.path.join(MODELS_DIR, name + suffix),
                      args.inputs, args.time)


if __name__ == "__main__":
    main()
