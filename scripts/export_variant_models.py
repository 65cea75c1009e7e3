# Exports the variant models: a second, independent set of StableHLO
# modules from the same families as the model suite of benchmarks/models
# (scans, 1-D, 2-D and 3-D convolutions, attention, recurrent cells, MoE,
# losses, sorting and selection, scatter and gather, FFT, reduced precision
# and integers, optimizer steps), at other shapes and in other variants, so
# that a plugin's speed can be checked on models the suite does not contain.
# A development tool only: building, testing and benchmarking Polyhal never
# run it, and it never writes into benchmarks/models.
#
# It reuses export_benchmark_models.py's helpers (normal, layer_norm, bn, ...)
# and exports the same way: every weight and input an entry parameter,
# lowered by jax.jit and written as StableHLO text (`NAME.mlir`). VARIANTS
# (aliased as MODELS) maps a name to (function, inputs maker), and
# `inputs(name)` gives a module's inputs from a fixed seed, so
# `scripts/bench_vs_xla.py --models-dir DIR --models-module export_variant_models`
# times the exported modules against XLA:CPU with the same data. Each model
# is sized for an XLA:CPU run of about 1 to 60 ms on two cores.
#   build/python-venv/bin/python scripts/export_variant_models.py [--out DIR]
#       [--inputs DIR] [--time] [MODULE...]
import argparse
import os

import jax
import jax.numpy as jnp
import numpy as np

import export_benchmark_models
from export_benchmark_models import (NHWC, NWC, SEED, bf16, bn, export_module, f16,
                                     layer_norm, normal, scale)

OUT_DIR = "/tmp/variant-models"


# Scans.


def cumsum_cummax(x):
    """A running sum down the columns (axis 0) and a running maximum along
    the rows (jnp.cumsum, lax.cummax)."""
    return jnp.cumsum(x, axis=0), jax.lax.cummax(x, axis=1)


# Convolutions.


def conv1d_stride2(x, k1, b1, k2, b2, k3, b3):
    """A downsampling 1-D convolution stack (a speech or audio encoder's
    front end): three convolutions of width 3 and stride 2 with bias and
    ReLU, 128 channels, each halving the length."""
    for k, b in ((k1, b1), (k2, b2), (k3, b3)):
        x = jax.nn.relu(jax.lax.conv_general_dilated(x, k, (2,), "SAME", dimension_numbers=NWC) + b)
    return x


def causal_dilated_conv(x, kf, kg, w_res, w_skip):
    """One WaveNet layer at dilation 16: a causal 1-D convolution of width 3
    (the input padded on the left only), a gated tanh * sigmoid unit, and
    1x1 residual and skip projections."""
    width, dilation = kf.shape[0], 16
    padded = jnp.pad(x, ((0, 0), ((width - 1) * dilation, 0), (0, 0)))
    f = jax.lax.conv_general_dilated(padded, kf, (1,), "VALID", rhs_dilation=(dilation,),
                                     dimension_numbers=NWC)
    g = jax.lax.conv_general_dilated(padded, kg, (1,), "VALID", rhs_dilation=(dilation,),
                                     dimension_numbers=NWC)
    z = jnp.tanh(f) * jax.nn.sigmoid(g)
    return x + z @ w_res, z @ w_skip


def unet_up(x, skip, k_up, b_up, k1, s1, t1, k2, s2, t2):
    """A U-Net decoder level: a 3x3 transposed convolution of stride 2 from
    32x32x64 to 64x64x32, concatenation with the encoder's skip, two 3x3
    convolutions with folded batch norm and ReLU."""
    y = jax.nn.relu(jax.lax.conv_transpose(x, k_up, (2, 2), "SAME", dimension_numbers=NHWC) + b_up)
    y = jnp.concatenate([skip, y], axis=-1)
    y = jax.lax.conv_general_dilated(y, k1, (1, 1), "SAME", dimension_numbers=NHWC)
    y = jax.nn.relu(y * s1 + t1)
    y = jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=NHWC)
    return jax.nn.relu(y * s2 + t2)


def resnet_bottleneck(x, k1, s1, t1, k2, s2, t2, k3, s3, t3):
    """A ResNet-50-style bottleneck block: 1x1 from 256 to 64 channels, 3x3
    at 64, 1x1 back to 256, batch norm folded into a scale and shift, the
    identity residual."""
    y = jax.nn.relu(jnp.einsum("nhwc,cd->nhwd", x, k1) * s1 + t1)
    y = jax.lax.conv_general_dilated(y, k2, (1, 1), "SAME", dimension_numbers=NHWC)
    y = jax.nn.relu(y * s2 + t2)
    return jax.nn.relu(x + jnp.einsum("nhwd,dc->nhwc", y, k3) * s3 + t3)


def depthwise_separable(x, k_dw, s1, t1, w_pw, s2, t2):
    """A depthwise separable convolution (MobileNet, EfficientNet): a 5x5
    depthwise convolution with batch norm and ReLU6, then a pointwise
    (1x1) convolution from 96 to 128 channels with batch norm."""
    y = jax.lax.conv_general_dilated(x, k_dw, (1, 1), "SAME", dimension_numbers=NHWC,
                                     feature_group_count=x.shape[-1])
    y = jax.nn.relu6(y * s1 + t1)
    y = jax.lax.conv_general_dilated(y, w_pw, (1, 1), "VALID", dimension_numbers=NHWC)
    return y * s2 + t2


def conv3d_stride2(x, k1, b1, k2, b2):
    """A video or volume encoder's downsampling: two 3x3x3 convolutions of
    stride 2 (NDHWC), 8 -> 32 -> 64 channels, with bias and ReLU."""
    dn = ("NDHWC", "DHWIO", "NDHWC")
    y = jax.nn.relu(jax.lax.conv_general_dilated(x, k1, (2, 2, 2), "SAME", dimension_numbers=dn) + b1)
    return jax.nn.relu(jax.lax.conv_general_dilated(y, k2, (2, 2, 2), "SAME", dimension_numbers=dn) + b2)


def avg_pool(x):
    """Average pooling of 3x3 windows at stride 1 with SAME padding, each
    sum divided by the count of its window's elements inside the image
    (count_include_pad=False): two reduce_windows of add."""
    window, strides = (1, 3, 3, 1), (1, 1, 1, 1)
    sums = jax.lax.reduce_window(x, 0.0, jax.lax.add, window, strides, "SAME")
    counts = jax.lax.reduce_window(jnp.ones(x.shape[1:3], x.dtype)[None, :, :, None], 0.0,
                                   jax.lax.add, window, strides, "SAME")
    return sums / counts


def vit_patch14_embed(x, k, b, cls, pos, g, beta):
    """A ViT-S/14 patch embedding: a 14x14 convolution of stride 14 (256
    patches of 384), a class token prepended, position embeddings, a layer
    norm."""
    y = jax.lax.conv_general_dilated(x, k, (14, 14), "VALID", dimension_numbers=NHWC) + b
    y = y.reshape(y.shape[0], -1, y.shape[-1])
    tokens = jnp.broadcast_to(cls, (y.shape[0], 1, y.shape[-1]))
    return layer_norm(jnp.concatenate([tokens, y], axis=1) + pos, g, beta)


# Reduced precision and integers.


def bf16_batched_matmul(a, b):
    """A batched bf16 matrix product accumulated in f32 (batched
    projections in mixed precision)."""
    return jnp.matmul(a, b, preferred_element_type=jnp.float32)


def f16_attention(x, w_q, w_k, w_v, w_o, g, b):
    """A causal self-attention block entirely in f16: projections, 8 heads
    of 64, softmax, output projection, residual and layer norm."""
    batch, seq, dim = x.shape
    heads, hd = 8, dim // 8

    def split(t):
        return t.reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) * np.float16(1 / np.sqrt(hd))
    s = jnp.where(jnp.tril(jnp.ones((seq, seq), bool)), s, np.float16(-6e4))
    a = jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, -1), v)
    return layer_norm(x + a.transpose(0, 2, 1, 3).reshape(batch, seq, dim) @ w_o, g, b)


def int8_linear(x, w, x_scale, x_zero, w_scale, bias):
    """A quantized linear layer with asymmetric u8 activations and
    symmetric s8 weights: the integer product accumulated in s32 (JAX's
    lowering widens both operands to s32 for the CPU), the activations'
    zero point subtracted through the weights' column sums, dequantised
    by a per-tensor and a per-channel scale, plus a float bias."""
    acc = jax.lax.dot(x, w, preferred_element_type=jnp.int32)
    acc = acc - x_zero * w.astype(jnp.int32).sum(0)
    return acc.astype(jnp.float32) * (x_scale * w_scale) + bias


# Recurrent cells.


def gru_scan(xs, h0, w_x, b_x, w_h, b_h):
    """A GRU layer over a sequence with lax.scan, in the original (Cho et
    al.) form: the reset gate scales the state before its candidate
    product, a second matmul that waits on the gates."""
    hidden = h0.shape[-1]

    def step(h, x):
        gx = x @ w_x + b_x
        rz = jax.nn.sigmoid(gx[:, :2 * hidden] + h @ w_h[:, :2 * hidden] + b_h[:2 * hidden])
        r, z = rz[:, :hidden], rz[:, hidden:]
        n = jnp.tanh(gx[:, 2 * hidden:] + (r * h) @ w_h[:, 2 * hidden:] + b_h[2 * hidden:])
        h = (1 - z) * n + z * h
        return h, h

    return jax.lax.scan(step, h0, xs)


def lstm_scan(xs, h0, c0, w, b):
    """An LSTM layer over a sequence with lax.scan, Keras' fused form: one
    matmul of the concatenated input and state, and a forget-gate bias of
    1."""

    def step(carry, x):
        h, c = carry
        i, f, g, o = jnp.split(jnp.concatenate([x, h], -1) @ w + b, 4, axis=-1)
        c = jax.nn.sigmoid(f + 1) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h

    (h, c), hs = jax.lax.scan(step, (h0, c0), xs)
    return h, c, hs


# Transformers.


def bert_layer(*args):
    """A BERT-like encoder layer at d=512: the suite's layer with 8 heads of
    64 and the tanh approximation of GELU."""
    return export_benchmark_models.bert_layer(*args, heads=8, approximate_gelu=True)


def kv_cache_decode(x, k_cache, v_cache, pos, g1, b1, w_qkv, w_o, g2, b2, w_1, w_2):
    """One pre-norm decoder step at batch 1 (latency-bound generation) with
    a cache of 2048 positions and 16 heads of 64: the new keys and values
    written into the cache (dynamic_update_slice), attention over the
    filled part, the tanh-GELU MLP; a matrix-vector product per weight."""
    batch, dim = x.shape
    heads, hd = k_cache.shape[2], k_cache.shape[3]
    h = layer_norm(x, g1, b1)
    q, k, v = (t.reshape(batch, 1, heads, hd) for t in jnp.split(h @ w_qkv, 3, axis=-1))
    k_cache = jax.lax.dynamic_update_slice(k_cache, k, (0, pos, 0, 0))
    v_cache = jax.lax.dynamic_update_slice(v_cache, v, (0, pos, 0, 0))
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k_cache) / np.float32(np.sqrt(hd))
    valid = jnp.arange(k_cache.shape[1]) <= pos
    s = jnp.where(valid[None, None, None, :], s, np.float32(-1e9))
    a = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, -1), v_cache).reshape(batch, dim)
    x = x + a @ w_o
    x = x + jax.nn.gelu(layer_norm(x, g2, b2) @ w_1, approximate=True) @ w_2
    return x, k_cache, v_cache


def moe_top1(x, w_router, w_in, w_out):
    """A Switch-style top-1 mixture of 16 experts with a capacity factor of
    1.25 (80 tokens per expert): router softmax, argmax, each token's slot
    in its expert (a cumulative sum), the tokens scattered into per-expert
    buffers (those past the capacity dropped), every expert's FFN as a
    batched matmul, the results gathered back and scaled by the router's
    probability."""
    tokens, experts = x.shape[0], w_router.shape[1]
    capacity = tokens * 5 // (4 * experts)
    probs = jax.nn.softmax(x @ w_router, -1)
    expert = jnp.argmax(probs, -1)
    gate = jnp.max(probs, -1)
    one_hot = jax.nn.one_hot(expert, experts, dtype=jnp.int32)
    slot = jnp.sum(jnp.cumsum(one_hot, 0) * one_hot, -1) - 1
    buffers = jnp.zeros((experts, capacity, x.shape[1]), x.dtype).at[expert, slot].set(
        x, mode="drop")
    h = jax.nn.gelu(jnp.einsum("ecd,edf->ecf", buffers, w_in))
    y = jnp.einsum("ecf,efd->ecd", h, w_out)
    out = y.at[expert, slot].get(mode="fill", fill_value=0.0)
    return out * gate[:, None]


# Losses, selection, sorting, scatter and gather.


def cross_entropy(logits, labels):
    """Softmax cross-entropy over GPT-2's 50,257-token vocabulary with label
    smoothing of 0.1, and its gradient with respect to the logits."""

    def loss(z):
        log_p = jax.nn.log_softmax(z)
        nll = -jnp.take_along_axis(log_p, labels[:, None], -1)[:, 0]
        smooth = -log_p.mean(-1)
        return jnp.mean(np.float32(0.9) * nll + np.float32(0.1) * smooth)

    return jax.value_and_grad(loss)(logits)


def top_k40(logits):
    """Top-k sampling's candidates: the 40 largest logits of each row over
    GPT-2's vocabulary and their indices (lax.top_k)."""
    return jax.lax.top_k(logits, 40)


def argsort_1d(x):
    """The permutation that sorts a million values (jnp.argsort of one long
    row: a sort of values and indices)."""
    return jnp.argsort(x).astype(jnp.int32)


def segment_sum(data, ids):
    """Rows summed into 1000 segments by unsorted ids, about 200 rows each
    (jax.ops.segment_sum: a scatter-add with many duplicate indices, as
    graph networks' message aggregation writes it)."""
    return jax.ops.segment_sum(data, ids, num_segments=SEGMENTS)


def take_along_axis(x, idx, parents):
    """Gathers by jnp.take_along_axis, as sparse attention and beam search
    write them: 1024 chosen columns of each of 512 rows, and every row
    replaced by its parent row (beam search's reordering)."""
    picked = jnp.take_along_axis(x, idx, axis=1)
    reordered = jnp.take_along_axis(x, parents[:, None], axis=0)
    return picked, reordered


def rfft2_filter(x):
    """A 2-D real FFT of 16 images (jnp.fft.rfft2), their power spectrum,
    and the inverse transform of a low-pass filtered spectrum (irfft2)."""
    spectrum = jnp.fft.rfft2(x)
    rows = jnp.fft.fftfreq(x.shape[-2])[:, None]
    cols = jnp.fft.rfftfreq(x.shape[-1])[None, :]
    keep = (rows ** 2 + cols ** 2) < np.float32(0.25 ** 2)
    return jnp.abs(spectrum) ** 2, jnp.fft.irfft2(spectrum * keep, s=x.shape[-2:])


# Optimizers.


def adam_step(step, p1, p2, p3, p4, g1, g2, g3, g4, m1, m2, m3, m4, v1, v2, v3, v4):
    """One Adam step with bias correction and decoupled weight decay (AdamW)
    over four parameter arrays of about a million elements: purely
    memory-bound elementwise work, the new parameters and moments."""
    b1, b2, lr, eps, decay = (np.float32(0.9), np.float32(0.999), np.float32(1e-3),
                              np.float32(1e-8), np.float32(0.01))
    correction1 = 1 - b1 ** step
    correction2 = 1 - b2 ** step
    params, moments, variances = [], [], []
    for p, g, m, v in zip((p1, p2, p3, p4), (g1, g2, g3, g4), (m1, m2, m3, m4), (v1, v2, v3, v4)):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        update = (m / correction1) / (jnp.sqrt(v / correction2) + eps)
        params.append(p - lr * (update + decay * p))
        moments.append(m)
        variances.append(v)
    return tuple(params + moments + variances)


SEGMENTS = 1000
ADAM_SHAPES = ((1024, 1024), (256, 4096), (1 << 20,), (64, 128, 128))


def resnet_bottleneck_inputs(r):
    return ([normal(r, 4, 28, 28, 256), normal(r, 256, 64, scale=scale(256))] + bn(r, 64)
            + [normal(r, 3, 3, 64, 64, scale=scale(576))] + bn(r, 64)
            + [normal(r, 64, 256, scale=scale(64) * 0.2)] + bn(r, 256))


def adam_inputs(r):
    params = [normal(r, *shape, scale=0.05) for shape in ADAM_SHAPES]
    grads = [normal(r, *shape, scale=1e-3) for shape in ADAM_SHAPES]
    moments = [normal(r, *shape, scale=1e-4) for shape in ADAM_SHAPES]
    variances = [r.random(shape, np.float32) * np.float32(1e-6) for shape in ADAM_SHAPES]
    return [np.float32(100)] + params + grads + moments + variances


VARIANTS = {
    "cumsum_cummax_2048x512": (cumsum_cummax, lambda r: [normal(r, 2048, 512)]),
    "conv1d_stride2_4x4096x128": (
        conv1d_stride2,
        lambda r: [normal(r, 4, 4096, 128)]
        + [t for _ in range(3) for t in (normal(r, 3, 128, 128, scale=scale(384)),
                                        normal(r, 128, scale=0.1))]),
    "causal_dilated_conv_4x16384x32": (
        causal_dilated_conv,
        lambda r: [normal(r, 4, 16384, 32), normal(r, 3, 32, 32, scale=scale(96)),
                   normal(r, 3, 32, 32, scale=scale(96)), normal(r, 32, 32, scale=0.15),
                   normal(r, 32, 32, scale=0.15)]),
    "unet_up_4x32x32x64": (
        unet_up,
        lambda r: [normal(r, 4, 32, 32, 64), normal(r, 4, 64, 64, 32),
                   normal(r, 3, 3, 64, 32, scale=scale(576)), normal(r, 32, scale=0.1),
                   normal(r, 3, 3, 64, 32, scale=scale(576))] + bn(r, 32)
        + [normal(r, 3, 3, 32, 32, scale=scale(288))] + bn(r, 32)),
    "resnet_bottleneck_4x28x28x256": (resnet_bottleneck, resnet_bottleneck_inputs),
    "depthwise_separable_4x56x56x96": (
        depthwise_separable,
        lambda r: [normal(r, 4, 56, 56, 96), normal(r, 5, 5, 1, 96, scale=0.2)] + bn(r, 96)
        + [normal(r, 1, 1, 96, 128, scale=scale(96))] + bn(r, 128)),
    "conv3d_stride2_2x32x64x64x8": (
        conv3d_stride2,
        lambda r: [normal(r, 2, 32, 64, 64, 8), normal(r, 3, 3, 3, 8, 32, scale=scale(216)),
                   normal(r, 32, scale=0.1), normal(r, 3, 3, 3, 32, 64, scale=scale(864)),
                   normal(r, 64, scale=0.1)]),
    "avg_pool_8x56x56x64": (avg_pool, lambda r: [normal(r, 8, 56, 56, 64)]),
    "vit_patch14_embed_4x224x224x3": (
        vit_patch14_embed,
        lambda r: [normal(r, 4, 224, 224, 3), normal(r, 14, 14, 3, 384, scale=scale(588)),
                   normal(r, 384, scale=0.02), normal(r, 384, scale=0.02),
                   normal(r, 257, 384, scale=0.02)] + bn(r, 384)),
    "bf16_batched_matmul_8x256x512x512": (
        bf16_batched_matmul,
        lambda r: [bf16(normal(r, 8, 256, 512)), bf16(normal(r, 8, 512, 512, scale=0.044))]),
    "f16_attention_2x256x512": (
        f16_attention,
        lambda r: [f16(normal(r, 2, 256, 512))]
        + [f16(normal(r, 512, 512, scale=0.044)) for _ in range(4)]
        + [f16(a) for a in bn(r, 512)]),
    "int8_linear_256x4096x1024": (
        int8_linear,
        lambda r: [r.integers(0, 256, (256, 4096), dtype=np.uint8),
                   r.integers(-127, 128, (4096, 1024), dtype=np.int8),
                   np.float32(0.02), np.int32(128),
                   (r.random(1024, np.float32) + 0.5) * np.float32(1e-3),
                   normal(r, 1024, scale=0.1)]),
    "gru_scan_16x16x512": (
        gru_scan,
        lambda r: [normal(r, 16, 16, 512), normal(r, 16, 512),
                   normal(r, 512, 1536, scale=0.044), normal(r, 1536, scale=0.1),
                   normal(r, 512, 1536, scale=0.044), normal(r, 1536, scale=0.1)]),
    "lstm_scan_16x16x512": (
        lstm_scan,
        lambda r: [normal(r, 16, 16, 512), normal(r, 16, 512), normal(r, 16, 512),
                   normal(r, 1024, 2048, scale=0.031), normal(r, 2048, scale=0.1)]),
    "bert_layer_4x256x512": (
        bert_layer,
        lambda r: [normal(r, 4, 256, 512), (r.random((4, 256)) < 0.9).astype(np.float32),
                   normal(r, 512, 1536, scale=0.02), normal(r, 1536, scale=0.02),
                   normal(r, 512, 512, scale=0.02), normal(r, 512, scale=0.02)] + bn(r, 512)
        + [normal(r, 512, 2048, scale=0.02), normal(r, 2048, scale=0.02),
           normal(r, 2048, 512, scale=0.02), normal(r, 512, scale=0.02)] + bn(r, 512)),
    "kv_cache_decode_1x2048x1024": (
        kv_cache_decode,
        lambda r: [normal(r, 1, 1024), normal(r, 1, 2048, 16, 64), normal(r, 1, 2048, 16, 64),
                   np.int32(1500)] + bn(r, 1024)
        + [normal(r, 1024, 3072, scale=0.02), normal(r, 1024, 1024, scale=0.02)] + bn(r, 1024)
        + [normal(r, 1024, 4096, scale=0.02), normal(r, 4096, 1024, scale=0.02)]),
    "moe_top1_1024x256x16": (
        moe_top1,
        lambda r: [normal(r, 1024, 256), normal(r, 256, 16, scale=0.06),
                   normal(r, 16, 256, 1024, scale=0.06), normal(r, 16, 1024, 256, scale=0.03)]),
    "cross_entropy_64x50257": (
        cross_entropy,
        lambda r: [normal(r, 64, 50257, scale=2.0), r.integers(0, 50257, 64, dtype=np.int32)]),
    "top_k40_32x50257": (top_k40, lambda r: [normal(r, 32, 50257, scale=3.0)]),
    "argsort_1000000": (argsort_1d, lambda r: [normal(r, 1000000)]),
    "segment_sum_200000x64x1000": (
        segment_sum,
        lambda r: [normal(r, 200000, 64), r.integers(0, SEGMENTS, 200000, dtype=np.int32)]),
    "take_along_axis_512x4096x1024": (
        take_along_axis,
        lambda r: [normal(r, 512, 4096), r.integers(0, 4096, (512, 1024), dtype=np.int32),
                   r.integers(0, 512, 512, dtype=np.int32)]),
    "rfft2_16x256x256": (rfft2_filter, lambda r: [normal(r, 16, 256, 256)]),
    "adam_step_4x1048576": (adam_step, adam_inputs),
}

MODELS = VARIANTS


def inputs(name):
    """The inputs of a module, the same on every call (each module has its
    own generator, so adding a module changes no other's data)."""
    return VARIANTS[name][1](np.random.default_rng(SEED))


def main():
    parser = argparse.ArgumentParser(
        description="Exports the variant models from JAX as StableHLO text.")
    parser.add_argument("--out", metavar="DIR", default=OUT_DIR,
                        help=f"the directory of the .mlir files (default: {OUT_DIR})")
    parser.add_argument("--inputs", metavar="DIR",
                        help="also write each module's inputs as DIR/NAME.input_K.npy")
    parser.add_argument("--time", action="store_true",
                        help="print XLA:CPU's median run time of each module (jax.jit)")
    parser.add_argument("names", nargs="*", metavar="MODULE",
                        help="the modules to export (default: all)")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in VARIANTS]
    if unknown:
        parser.error(f"no such module: {', '.join(unknown)}")
    models_dir = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                               "benchmarks", "models"))
    if os.path.realpath(args.out) == models_dir:
        parser.error("the variants never go into benchmarks/models")
    os.makedirs(args.out, exist_ok=True)
    for name, (fn, _) in VARIANTS.items():
        if args.names and name not in args.names:
            continue
        export_module(name, fn, inputs(name), os.path.join(args.out, name + ".mlir"),
                      args.inputs, args.time)


if __name__ == "__main__":
    main()
