# Regenerates the sharded models of samples/models/jax: jax.jit programs
# with in_shardings / out_shardings over four host devices, as JAX lowers
# them *before* any partitioning, for Polyhal's SPMD partitioner. A
# development tool only: building and testing Polyhal never runs it. It sets
# XLA_FLAGS itself (four host devices, and a dump of each module right after
# XLA's SPMD partitioning):
#   build/python-venv/bin/python scripts/export_sharded_models.py
#
# For each model NAME:
#   NAME.mlir        jax.jit(...).lower(...).as_text(): StableHLO with
#                    Shardy's sdy.mesh / sdy.sharding (the global program)
#   NAME.gspmd.mlir  the same with Shardy off: mhlo.sharding attributes and
#                    custom_call @Sharding constraints
#   NAME.hlo         the same lowered as HLO text (as_text(dialect="hlo")):
#                    sharding= on parameters and root, Sharding and
#                    xla.sdy.FuncResultSharding custom calls
#   NAME.xla.hlo     XLA's module right after its spmd-partitioning pass,
#                    kept only to count what XLA's collectives send
#   NAME.input_K.npy / NAME.output_K.npy  global inputs, XLA:CPU's outputs
import glob, os, re, tempfile

dump = tempfile.mkdtemp(prefix="sharded_dump_")
os.environ["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=4 "
                           f"--xla_dump_to={dump} "
                           "--xla_dump_hlo_pass_re=spmd-partitioning")
import numpy as np, jax, jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "models", "jax")
rng = np.random.default_rng(23)
line = Mesh(np.array(jax.devices()[:4]), ("x",))
grid = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("data", "model"))


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def strip(text):
    text = re.sub(r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n(.+\n)+", "\n", text)
    text = re.sub(r', metadata=\{[^{}]*\}', "", text)
    text = re.sub(r"\n\n\n+", "\n\n", text)
    return text


def save(name, f, args, in_specs, out_specs, mesh):
    f.__name__ = name
    shard = lambda spec: NamedSharding(mesh, spec)
    jitted = jax.jit(f, in_shardings=tuple(shard(s) for s in in_specs),
                     out_shardings=jax.tree_util.tree_map(
                         shard, out_specs, is_leaf=lambda s: isinstance(s, P)))
    lowered = jitted.lower(*args)
    compiled = lowered.compile()
    results = jax.tree_util.tree_leaves(compiled(*args))
    open(f"{out}/{name}.mlir", "w").write(lowered.as_text())
    jax.config.update("jax_use_shardy_partitioner", False)
    open(f"{out}/{name}.gspmd.mlir", "w").write(jitted.lower(*args).as_text())
    jax.config.update("jax_use_shardy_partitioner", True)
    open(f"{out}/{name}.hlo", "w").write(strip(lowered.as_text(dialect="hlo")))
    [path] = glob.glob(f"{dump}/*.jit_{name}.*after_spmd-partitioning*.txt")
    open(f"{out}/{name}.xla.hlo", "w").write(strip(open(path).read()))
    for i, a in enumerate(args):
        np.save(f"{out}/{name}.input_{i}.npy", np.asarray(a))
    for i, r in enumerate(results):
        np.save(f"{out}/{name}.output_{i}.npy", np.asarray(r))


# Data parallel: an SGD step of an MLP, the batch split over four devices,
# the parameters replicated.
def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = jnp.tanh(x @ w1 + b1)
    return jnp.mean((h @ w2 + b2 - y) ** 2)

def sharded_data_parallel(w1, b1, w2, b2, x, y):
    loss, grads = jax.value_and_grad(mlp_loss)((w1, b1, w2, b2), x, y)
    return tuple(p - 0.1 * g for p, g in zip((w1, b1, w2, b2), grads)) + (loss,)
save("sharded_data_parallel", sharded_data_parallel,
     (f32(16, 32, scale=0.3), f32(32, scale=0.1), f32(32, 8, scale=0.3), f32(8, scale=0.1),
      f32(64, 16), f32(64, 8)),
     (P(), P(), P(), P(), P("x"), P("x")), (P(), P(), P(), P(), P()), line)


# Megatron-style tensor parallel MLP: first weight split by columns, second
# by rows; one all-reduce of the output.
def sharded_megatron_mlp(x, w1, b1, w2, b2):
    return jax.nn.gelu(x @ w1 + b1) @ w2 + b2
save("sharded_megatron_mlp", sharded_megatron_mlp,
     (f32(16, 32), f32(32, 128, scale=0.2), f32(128, scale=0.1), f32(128, 32, scale=0.1), f32(32)),
     (P(), P(None, "x"), P("x"), P("x", None), P()), P(), line)


# Attention with the batch over "data" and the heads over "model" on a 2x2
# mesh: projections split by heads, the output projection a partial sum.
def sharded_attention(x, wq, wk, wv, wo):
    q = jnp.einsum("bse,ehd->bhsd", x, wq)
    k = jnp.einsum("bse,ehd->bhsd", x, wk)
    v = jnp.einsum("bse,ehd->bhsd", x, wv)
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1]).astype(np.float32)
    p = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", p, v)
    return jnp.einsum("bhsd,hde->bse", o, wo)
save("sharded_attention", sharded_attention,
     (f32(4, 16, 32), f32(32, 4, 8, scale=0.2), f32(32, 4, 8, scale=0.2), f32(32, 4, 8, scale=0.2),
      f32(4, 8, 32, scale=0.2)),
     (P("data"), P(None, "model"), P(None, "model"), P(None, "model"), P("model")),
     P("data"), grid)


# Layer norm over a sequence split four ways, and a global mean over it.
def sharded_layer_norm(x, gamma, beta):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    y = (x - mean) / jnp.sqrt(var + 1e-5) * gamma + beta
    return y, jnp.mean(y * y)
save("sharded_layer_norm", sharded_layer_norm,
     (f32(64, 32), f32(32), f32(32)), (P("x"), P(), P()), (P("x"), P()), line)


# An embedding lookup from a table split by vocabulary rows.
def sharded_embedding(table, ids):
    return jnp.take(table, ids, axis=0).sum(1)
save("sharded_embedding", sharded_embedding,
     (f32(256, 32), rng.integers(0, 256, (16, 8)).astype(np.int32)),
     (P("x", None), P()), P(), line)


# FSDP: weights stored split on their first dimension, the batch split the
# same way; an SGD step whose new weights stay split.
def sharded_fsdp(w1, w2, x, y):
    def loss(ws):
        a, b = ws
        return jnp.mean((jax.nn.relu(x @ a) @ b - y) ** 2)
    l, (g1, g2) = jax.value_and_grad(loss)((w1, w2))
    return w1 - 0.1 * g1, w2 - 0.1 * g2, l
save("sharded_fsdp", sharded_fsdp,
     (f32(32, 64, scale=0.2), f32(64, 16, scale=0.2), f32(32, 32), f32(32, 16)),
     (P("x"), P("x"), P("x"), P("x")), (P("x"), P("x"), P()), line)


# Expert-parallel mixture of experts: top-1 routing as one-hot dispatch and
# combine einsums (GShard / Switch style), the experts split four ways.
def sharded_moe(tokens, gate, w_in, w_out):
    logits = tokens @ gate
    expert = jnp.argmax(logits, -1)
    weight = jax.nn.softmax(logits, -1).max(-1)
    dispatch = jax.nn.one_hot(expert, gate.shape[1], dtype=tokens.dtype)
    routed = jnp.einsum("tn,te->nte", dispatch, tokens)
    routed = jax.lax.with_sharding_constraint(routed, NamedSharding(line, P("x")))
    hidden = jax.nn.relu(jnp.einsum("nte,nef->ntf", routed, w_in))
    expert_out = jnp.einsum("ntf,nfe->nte", hidden, w_out)
    return jnp.einsum("nte,tn->te", expert_out, dispatch) * weight[:, None]
save("sharded_moe", sharded_moe,
     (f32(32, 16), f32(16, 4), f32(4, 16, 32, scale=0.2), f32(4, 32, 16, scale=0.2)),
     (P("x"), P(), P("x"), P("x")), P("x"), line)


# A scan over stacked layers (jax.lax.scan, a while loop): activations split
# by batch over "data", the stacked weights by output features over
# "model" on a 2x2 mesh.
def sharded_scan_layers(h, ws):
    def layer(carry, w):
        return jnp.tanh(carry @ w), None
    out, _ = jax.lax.scan(layer, h, ws)
    return out
save("sharded_scan_layers", sharded_scan_layers,
     (f32(16, 32), f32(4, 32, 32, scale=0.2)),
     (P("data"), P(None, None, "model")), P("data"), grid)


# A transformer block's training step on a 2x2 mesh: batch over "data",
# Megatron-style weights over "model" (attention heads and the MLP's hidden
# features), layer norms and an SGD update; XLA's partitioner and Polyhal's
# both have to find the collectives.
def block_loss(params, x, y):
    wq, wk, wv, wo, w1, w2, g1, g2 = params
    def norm(v, g):
        m = v.mean(-1, keepdims=True)
        s = ((v - m) ** 2).mean(-1, keepdims=True)
        return (v - m) / jnp.sqrt(s + 1e-5) * g
    h = norm(x, g1)
    q = jnp.einsum("bse,ehd->bhsd", h, wq)
    k = jnp.einsum("bse,ehd->bhsd", h, wk)
    v = jnp.einsum("bse,ehd->bhsd", h, wv)
    p = jax.nn.softmax(jnp.einsum("bhqd,bhkd->bhqk", q, k) / np.float32(np.sqrt(8)), -1)
    x = x + jnp.einsum("bhsd,hde->bse", jnp.einsum("bhqk,bhkd->bhqd", p, v), wo)
    x = x + jax.nn.gelu(norm(x, g2) @ w1) @ w2
    return jnp.mean((x - y) ** 2)

def sharded_transformer_step(wq, wk, wv, wo, w1, w2, g1, g2, x, y):
    params = (wq, wk, wv, wo, w1, w2, g1, g2)
    loss, grads = jax.value_and_grad(block_loss)(params, x, y)
    return tuple(p - 0.05 * g for p, g in zip(params, grads)) + (loss,)
heads_split = P(None, "model")
save("sharded_transformer_step", sharded_transformer_step,
     (f32(32, 4, 8, scale=0.2), f32(32, 4, 8, scale=0.2), f32(32, 4, 8, scale=0.2),
      f32(4, 8, 32, scale=0.2), f32(32, 64, scale=0.2), f32(64, 32, scale=0.2),
      1 + f32(32, scale=0.1), 1 + f32(32, scale=0.1), f32(4, 16, 32), f32(4, 16, 32)),
     (heads_split, heads_split, heads_split, P("model"), P(None, "model"), P("model"),
      P(), P(), P("data"), P("data")),
     (heads_split, heads_split, heads_split, P("model"), P(None, "model"), P("model"),
      P(), P(), P()), grid)
