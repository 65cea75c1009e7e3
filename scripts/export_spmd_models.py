# Regenerates the SPMD models of samples/models/jax: programs JAX runs on
# four host devices, with their global inputs and the global outputs XLA:CPU
# computes (.npy). A development tool only: building and testing Polyhal
# never runs it. It sets XLA_FLAGS itself (four host devices, and a dump of
# each module right after XLA's SPMD partitioning):
#   python3 scripts/export_spmd_models.py
#
# NAME.mlir is what jax.jit(...).lower(...).as_text() prints: for shard_map
# programs a global program around an sdy.manual_computation;
# NAME.gspmd.mlir the same with Shardy off (GSPMD's custom calls around a
# call of the body). NAME.hlo is
# XLA's module right after its spmd-partitioning pass: the per-device
# program, with sharding= on the entry parameters. XLA drops the root's
# sharding there, so the exporter writes the output shardings of the
# compiled executable onto the ROOT of the entry computation, and removes
# metadata={...} and the stack-frame tables to keep the files small.
import glob, os, re, shutil, tempfile

dump = tempfile.mkdtemp(prefix="spmd_dump_")
os.environ["XLA_FLAGS"] = ("--xla_force_host_platform_device_count=4 "
                           f"--xla_dump_to={dump} "
                           "--xla_dump_hlo_pass_re=spmd-partitioning")
import numpy as np, jax, jax.numpy as jnp
from jax import shard_map
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples", "models", "jax")
rng = np.random.default_rng(11)
mesh = Mesh(np.array(jax.devices()[:4]), ("x",))
grid = Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("x", "y"))


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def partitioned_hlo(name, compiled, arity):
    """The module after spmd-partitioning, its root annotated with the
    compiled executable's output shardings."""
    [path] = glob.glob(f"{dump}/*.jit_{name}.*after_spmd-partitioning*.txt")
    text = open(path).read()
    text = re.sub(r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n(.+\n)+", "\n", text)
    text = re.sub(r', metadata=\{[^{}]*\}', "", text)
    text = re.sub(r"\n\n\n+", "\n\n", text)
    shardings = [str(s._to_xla_hlo_sharding(len(a.shape))) for s, a in
                 zip(jax.tree_util.tree_leaves(compiled.output_shardings), arity)]
    root = shardings[0] if len(shardings) == 1 else "{" + ", ".join(shardings) + "}"
    entry = text.index("\nENTRY ")
    head, body = text[:entry], text[entry:]
    body, count = re.subn(r"(\n  ROOT [^\n]*?)(, sharding=\{.*\})?\n", rf"\1, sharding={root}\n", body, count=1)
    assert count == 1, "no ROOT in the entry computation"
    return head + body


def save(name, f, args, in_shardings=None, formats=("hlo", "mlir")):
    f.__name__ = name
    jitted = jax.jit(f) if in_shardings is None else jax.jit(f, in_shardings=in_shardings)
    lowered = jitted.lower(*args)
    compiled = lowered.compile()
    results = jax.tree_util.tree_leaves(compiled(*args))
    if "mlir" in formats:
        open(f"{out}/{name}.mlir", "w").write(lowered.as_text())
        jax.config.update("jax_use_shardy_partitioner", False)
        open(f"{out}/{name}.gspmd.mlir", "w").write(jitted.lower(*args).as_text())
        jax.config.update("jax_use_shardy_partitioner", True)
    if "hlo" in formats:
        open(f"{out}/{name}.hlo", "w").write(partitioned_hlo(name, compiled, results))
    for i, a in enumerate(args):
        np.save(f"{out}/{name}.input_{i}.npy", np.asarray(a))
    for i, r in enumerate(results):
        np.save(f"{out}/{name}.output_{i}.npy", np.asarray(r))


# psum, pmax, all_gather and axis_index over four devices.
def collectives(a, b):
    total = jax.lax.psum(a.sum(0), "x")
    peak = jax.lax.pmax(jnp.max(a, 0), "x")
    whole_b = jax.lax.all_gather(b, "x", axis=1, tiled=True)
    index = jax.lax.axis_index("x").astype(jnp.float32)
    return a @ whole_b + index, total, peak
save("spmd_collectives",
     shard_map(collectives, mesh=mesh, in_specs=(P("x"), P(None, "x")),
               out_specs=(P("x"), P(), P()), check_vma=False),
     (f32(16, 8), f32(8, 4)))


# psum_scatter, all_to_all and ppermute (on integers: exact) over four devices.
def exchange(x, y):
    scattered = jax.lax.psum_scatter(x, "x", scatter_dimension=0, tiled=True)
    swapped = jax.lax.all_to_all(x, "x", split_axis=0, concat_axis=1, tiled=True)
    shifted = jax.lax.ppermute(y, "x", perm=[(i, (i + 1) % 4) for i in range(4)])
    return scattered, swapped, shifted * 3
save("spmd_exchange",
     shard_map(exchange, mesh=mesh, in_specs=(P("x"), P("x")),
               out_specs=(P("x"), P("x"), P("x")), check_vma=False),
     (f32(16, 6), rng.integers(-100, 100, (32,)).astype(np.int32)))


# A 2 x 2 mesh: arrays split over one axis and replicated over the other,
# or split over both in transposed order; collectives within one axis.
def on_grid(a, b):
    y_index = jax.lax.axis_index("y").astype(jnp.float32)
    mixed = jax.lax.psum(a * (y_index + 1), "y")
    gathered = jax.lax.all_gather(b, "y", axis=0, tiled=True)
    return mixed, gathered + jax.lax.axis_index("x").astype(jnp.float32)
save("spmd_grid",
     shard_map(on_grid, mesh=grid, in_specs=(P("x"), P("y", "x")),
               out_specs=(P("x"), P(None, "x")), check_vma=False),
     (f32(8, 6), f32(4, 4)))


# Data parallel: one SGD step of a small MLP, the batch split over four
# devices and the parameters replicated; XLA's partitioner sums the
# gradients over the devices.
def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = jnp.tanh(x @ w1 + b1)
    return jnp.mean((h @ w2 + b2 - y) ** 2)

def data_parallel_step(w1, b1, w2, b2, x, y):
    loss, grads = jax.value_and_grad(mlp_loss)((w1, b1, w2, b2), x, y)
    return tuple(p - 0.1 * g for p, g in zip((w1, b1, w2, b2), grads)) + (loss,)
replicated = NamedSharding(mesh, P())
batch = NamedSharding(mesh, P("x"))
save("spmd_data_parallel", data_parallel_step,
     (f32(8, 16) * 0.3, f32(16) * 0.1, f32(16, 4) * 0.3, f32(4) * 0.1, f32(32, 8), f32(32, 4)),
     in_shardings=(replicated,) * 4 + (batch, batch), formats=("hlo",))


# Tensor parallel: an MLP whose first weight is split by columns and second
# by rows over four devices (Megatron style); the partitioner all-reduces
# the partial products of the second matmul.
def tensor_parallel_mlp(x, w1, b1, w2, b2):
    return jax.nn.relu(x @ w1 + b1) @ w2 + b2
save("spmd_tensor_parallel", tensor_parallel_mlp,
     (f32(8, 12), f32(12, 16) * 0.3, f32(16) * 0.1, f32(16, 6) * 0.3, f32(6) * 0.1),
     in_shardings=(replicated, NamedSharding(mesh, P(None, "x")), NamedSharding(mesh, P("x")),
                   NamedSharding(mesh, P("x", None)), replicated),
     formats=("hlo",))

# A data-parallel training loop: 20 SGD steps of the MLP above inside one
# program (a while loop whose body all-reduces the gradients), the batch
# split over four devices; returns the trained parameters and the loss.
def training_loop(w1, b1, w2, b2, x, y):
    def step(_, params):
        grads = jax.grad(mlp_loss)(params, x, y)
        return tuple(p - 0.1 * g for p, g in zip(params, grads))
    params = jax.lax.fori_loop(0, 20, step, (w1, b1, w2, b2))
    return params + (mlp_loss(params, x, y),)
save("spmd_training_loop", training_loop,
     (f32(8, 16) * 0.3, f32(16) * 0.1, f32(16, 4) * 0.3, f32(4) * 0.1, f32(64, 8), f32(64, 4)),
     in_shardings=(replicated,) * 4 + (batch, batch), formats=("hlo", "mlir"))

shutil.rmtree(dump)
