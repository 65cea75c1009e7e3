# Regenerates the int8-quantized MLP of core/frontend/testdata/stablehlo in
# its two forms, with the inputs and the outputs XLA:CPU computes:
#   quantized_mlp.mlir   StableHLO with !quant.uniform types (written here)
#   jax_int8_mlp.mlir    the same model as JAX lowers it: plain integer ops
#   jax_int8_mlp.hlo     and as XLA HLO text (s8 x s8 -> s32 dot)
# The JAX function spells out the StableHLO specification's quantize,
# dequantize and requantize formulas, so XLA's outputs are the expected
# values of both forms. Every scale is a power of two: then each scaling is
# exact and the expected values do not depend on how XLA orders its float
# operations. A development tool only: building and testing Polyhal never
# runs it.
#   build/python-venv/bin/python scripts/export_quantized_model.py
import os
import numpy as np
import jax
import jax.numpy as jnp

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core",
                   "frontend", "testdata", "stablehlo")
rng = np.random.default_rng(17)

S_X = 2.0 ** -5                                              # input, zero point 0
S_W1 = np.array([2.0 ** -(6 + j % 3) for j in range(16)])    # per output column
S_ACC = S_X * S_W1                                           # i32 accumulator
S_H, ZP_H = 2.0 ** -4, -10                                   # hidden activations
S_W2 = 2.0 ** -6
S_O, ZP_O = 2.0 ** -2, 5                                     # output
I8, I32 = (-128, 127), (-2.0 ** 31, 2.0 ** 31 - 1)


def quantize(v, scale, zero_point, bounds, dtype):
    t = v / jnp.asarray(scale, jnp.float32)
    if zero_point:
        t = t + jnp.float32(zero_point)
    t = jnp.clip(t, jnp.float32(bounds[0]), jnp.float32(bounds[1]))
    return jnp.round(t).astype(dtype)


def dequantize(q, scale, zero_point):
    t = q.astype(jnp.int32)
    if zero_point:
        t = t - jnp.int32(zero_point)
    return t.astype(jnp.float32) * jnp.asarray(scale, jnp.float32)


def int_dot(a, b):
    return jax.lax.dot_general(a, b, (((1,), (0,)), ((), ())),
                               preferred_element_type=jnp.int32)


def int8_mlp(x, w1, b1, w2):
    qx = quantize(x, S_X, 0, I8, jnp.int8)
    acc = int_dot(qx, w1)                                    # s8 x s8 -> s32
    acc = quantize(dequantize(acc, S_ACC, 0), S_ACC, 0, I32, jnp.int32)
    total = dequantize(acc, S_ACC, 0) + dequantize(b1, S_ACC, 0)
    acc = quantize(total, S_ACC, 0, I32, jnp.int32)
    h = quantize(dequantize(acc, S_ACC, 0), S_H, ZP_H, I8, jnp.int8)
    h = quantize(jnp.maximum(dequantize(h, S_H, ZP_H), 0.0), S_H, ZP_H, I8,
                 jnp.int8)
    acc2 = int_dot(h.astype(jnp.int32) - ZP_H, w2.astype(jnp.int32))
    o = quantize(dequantize(acc2, S_H * S_W2, 0), S_O, ZP_O, I8, jnp.int8)
    return dequantize(o, S_O, ZP_O)


def per_axis(storage, dimension, scales):
    return (f"!quant.uniform<{storage}:f32:{dimension}, {{"
            + ", ".join(repr(float(s)) for s in scales) + "}>")


def quantized_program():
    x_t = f"!quant.uniform<i8:f32, {S_X!r}>"
    w1_t = per_axis("i8", 1, S_W1)
    acc_t = per_axis("i32", 1, S_ACC)
    bias_t = per_axis("i32", 0, S_ACC)
    h_t = f"!quant.uniform<i8:f32, {S_H!r}:{ZP_H}>"
    w2_t = f"!quant.uniform<i8:f32, {S_W2!r}>"
    o_t = f"!quant.uniform<i8:f32, {S_O!r}:{ZP_O}>"
    return f"""// An int8-quantized MLP with StableHLO's quantized types, the model of
// jax_int8_mlp.mlir (written by scripts/export_quantized_model.py).
func.func @main(%x: tensor<8x32xf32>, %w1: tensor<32x16x{w1_t}>, %b1: tensor<16x{bias_t}>, %w2: tensor<16x10x{w2_t}>) -> tensor<8x10xf32> {{
  %qx = stablehlo.uniform_quantize %x : (tensor<8x32xf32>) -> tensor<8x32x{x_t}>
  %acc = stablehlo.dot_general %qx, %w1, contracting_dims = [1] x [0] : (tensor<8x32x{x_t}>, tensor<32x16x{w1_t}>) -> tensor<8x16x{acc_t}>
  %bias = stablehlo.broadcast_in_dim %b1, dims = [1] : (tensor<16x{bias_t}>) -> tensor<8x16x{acc_t}>
  %sum = stablehlo.add %acc, %bias : (tensor<8x16x{acc_t}>, tensor<8x16x{acc_t}>) -> tensor<8x16x{acc_t}>
  %h = stablehlo.uniform_quantize %sum : (tensor<8x16x{acc_t}>) -> tensor<8x16x{h_t}>
  %zero_storage = stablehlo.constant dense<{ZP_H}> : tensor<8x16xi8>
  %zero = stablehlo.bitcast_convert %zero_storage : (tensor<8x16xi8>) -> tensor<8x16x{h_t}>
  %relu = stablehlo.maximum %h, %zero : (tensor<8x16x{h_t}>, tensor<8x16x{h_t}>) -> tensor<8x16x{h_t}>
  %o = stablehlo.dot_general %relu, %w2, contracting_dims = [1] x [0] : (tensor<8x16x{h_t}>, tensor<16x10x{w2_t}>) -> tensor<8x10x{o_t}>
  %y = stablehlo.uniform_dequantize %o : (tensor<8x10x{o_t}>) -> tensor<8x10xf32>
  func.return %y : tensor<8x10xf32>
}}
"""


args = (rng.standard_normal((8, 32)).astype(np.float32) * 1.5,
        rng.integers(-127, 128, (32, 16)).astype(np.int8),
        rng.integers(-3000, 3000, (16,)).astype(np.int32),
        rng.integers(-127, 128, (16, 10)).astype(np.int8))
lowered = jax.jit(int8_mlp).lower(*args)
open(f"{out}/jax_int8_mlp.mlir", "w").write(lowered.as_text())
open(f"{out}/jax_int8_mlp.hlo", "w").write(lowered.as_text(dialect="hlo"))
open(f"{out}/quantized_mlp.mlir", "w").write(quantized_program())
result = np.asarray(jax.jit(int8_mlp)(*args))
for name in ("jax_int8_mlp", "quantized_mlp"):
    for i, a in enumerate(args):
        np.save(f"{out}/{name}.input_{i}.npy", a)
    np.save(f"{out}/{name}.expected_0.npy", result)
print("outputs:", result.shape, "distinct values:", len(np.unique(result)),
      "saturated at the storage range:",
      int(np.sum((result == (127 - ZP_O) * S_O) | (result == (-128 - ZP_O) * S_O))))
