"""A sweep of everyday JAX functions -- the numpy API, jax.nn, jax.random,
jax.scipy.special, jnp.fft, control flow and autodiff -- through
polyhal.jit on cpu and template, against jax.jit on XLA:CPU. Each that
Polyhal refuses is listed in KNOWN_REFUSALS with the reason (and in
docs/python.md). Skipped, saying why, when jax is not installed."""
import numpy as np
import pytest

import polyhal

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    jax = jnp = None

pytestmark = pytest.mark.skipif(
    jax is None, reason="jax is not installed: scripts/python-venv.sh "
                        "installs it into build/python-venv, where "
                        "scripts/test.sh runs these tests")

# What Polyhal refuses, with the reason (none at present; docs/python.md
# lists what the package does not run).
KNOWN_REFUSALS = {}


def _cases():
    rng = np.random.default_rng(0)

    def f32(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    x, y, v, m = f32(4, 6), f32(4, 6), f32(16), f32(6, 6)
    positive = np.abs(f32(4, 6)) + 0.1
    unit = np.clip(np.abs(f32(4, 6)), 0.01, 0.99)
    ints = rng.integers(0, 5, (4, 6)).astype(np.int32)
    key = jax.random.PRNGKey(0)
    lax, nn, special = jax.lax, jax.nn, jax.scipy.special
    return {
        # numpy API
        "sum": (jnp.sum, (x,)),
        "mean_axis": (lambda a: jnp.mean(a, axis=1), (x,)),
        "var": (jnp.var, (x,)),
        "std": (jnp.std, (x,)),
        "prod": (lambda a: jnp.prod(a, axis=0), (positive,)),
        "max_min": (lambda a: jnp.max(a, 1) - jnp.min(a, 0).sum(), (x,)),
        "any_all": (lambda a: jnp.any(a > 1, 1) & jnp.all(a > -3, 1), (x,)),
        "argmax": (lambda a: jnp.argmax(a, axis=1), (x,)),
        "argsort": (jnp.argsort, (v,)),
        "sort": (jnp.sort, (v,)),
        "lexsort": (lambda a, b: jnp.lexsort((a, b)), (v, np.round(v))),
        "cumsum": (jnp.cumsum, (v,)),
        "cumprod": (jnp.cumprod, (v,)),
        "diff": (lambda a: jnp.diff(a, axis=1), (x,)),
        "where": (lambda a, b: jnp.where(a > 0, a, b), (x, y)),
        "clip": (lambda a: jnp.clip(a, -0.5, 0.5), (x,)),
        "einsum": (lambda a, b: jnp.einsum("ij,kj->ik", a, b), (x, y)),
        "matmul": (jnp.matmul, (x, m)),
        "tensordot": (lambda a, b: jnp.tensordot(a, b, axes=([1], [1])),
                      (x, y)),
        "outer": (jnp.outer, (v, v)),
        "kron": (lambda a: jnp.kron(a[:2, :2], a[:3, :3]), (m,)),
        "cross": (lambda a, b: jnp.cross(a[:, :3], b[:, :3]), (x, y)),
        "convolve": (lambda a: jnp.convolve(a, a[:5]), (v,)),
        "concatenate": (lambda a, b: jnp.concatenate([a, b], 0), (x, y)),
        "stack": (lambda a, b: jnp.stack([a, b]), (x, y)),
        "split": (lambda a: jnp.split(a, 3, axis=1)[1], (x,)),
        "repeat_tile": (lambda a: jnp.tile(jnp.repeat(a, 2, 0), (1, 2)), (x,)),
        "transpose": (jnp.transpose, (x,)),
        "flip": (jnp.flip, (x,)),
        "roll": (lambda a: jnp.roll(a, 2, 1), (x,)),
        "tril": (jnp.tril, (m,)),
        "diag": (jnp.diag, (m,)),
        "trace": (jnp.trace, (m,)),
        "pad": (lambda a: jnp.pad(a, 2), (x,)),
        "pad_reflect": (lambda a: jnp.pad(a, 2, mode="reflect"), (x,)),
        "take": (lambda a, i: jnp.take(a, i[0]), (x, ints)),
        "take_along_axis": (lambda a: jnp.take_along_axis(
            a, jnp.argsort(a, 1), 1), (x,)),
        "unique_sized": (lambda a: jnp.unique(a, size=5), (ints,)),
        "bincount": (lambda a: jnp.bincount(a.ravel(), length=5), (ints,)),
        "histogram": (lambda a: jnp.histogram(a, bins=5, range=(-2, 2))[0],
                      (v,)),
        "searchsorted": (lambda a: jnp.searchsorted(jnp.sort(a), 0.0), (v,)),
        "interp": (lambda a: jnp.interp(a, jnp.linspace(-2, 2, 5),
                                        jnp.arange(5.0)), (v,)),
        "polyval": (lambda a: jnp.polyval(jnp.array([1.0, 2.0, 3.0]), a),
                    (v,)),
        "median": (lambda a: jnp.median(a, axis=1), (x,)),
        "percentile": (lambda a: jnp.percentile(a, 30.0), (v,)),
        "cov": (jnp.cov, (x,)),
        "corrcoef": (jnp.corrcoef, (x,)),
        "nanmean": (lambda a: jnp.nanmean(jnp.log(a)), (x,)),
        "logaddexp": (jnp.logaddexp, (x, y)),
        "arctan2_hypot": (lambda a, b: jnp.arctan2(a, b) + jnp.hypot(a, b),
                          (x, y)),
        "sign_heaviside": (lambda a: jnp.sign(a) + jnp.heaviside(a, 0.5),
                           (x,)),
        "round": (lambda a: jnp.round(a * 3), (x,)),
        "isnan": (lambda a: jnp.isnan(jnp.log(a)), (x,)),
        "nan_to_num": (lambda a: jnp.nan_to_num(jnp.log(a)), (x,)),
        "int_arithmetic": (lambda a: (a * 3 // 2) % 4, (ints,)),
        "bitwise": (lambda a: (a << 2) ^ (a >> 1), (ints,)),
        "argwhere_sized": (lambda a: jnp.argwhere(a > 0, size=3), (x,)),
        "nonzero_sized": (lambda a: jnp.nonzero(a > 0, size=4)[0], (v,)),
        "meshgrid": (lambda a: jnp.meshgrid(a, a)[0], (v[:4],)),
        "linspace": (lambda a: jnp.linspace(0, a.sum(), 5), (v,)),
        "at_set": (lambda a: a.at[1, 2].set(5.0), (x,)),
        "at_add": (lambda a, i: a.at[i[0]].add(1.0), (v[:5], ints)),
        "at_max": (lambda a, i: a.at[i[0]].max(0.5), (v[:5], ints)),
        "bf16_round_trip": (lambda a: (a.astype(jnp.bfloat16) * 2).astype(
            jnp.float32), (x,)),
        "f16_arithmetic": (lambda a: (a.astype(jnp.float16) + 1).astype(
            jnp.float32), (x,)),
        "complex": (lambda a: jnp.abs(jnp.exp(1j * a)), (x,)),
        "fft": (lambda a: jnp.abs(jnp.fft.fft(a)), (v,)),
        "rfft": (lambda a: jnp.abs(jnp.fft.rfft(a)), (v,)),
        "ifft2": (lambda a: jnp.real(jnp.fft.ifft2(a)), (m,)),
        "norm": (jnp.linalg.norm, (x,)),
        "linalg_inv": (jnp.linalg.inv, (m,)),
        "linalg_cholesky": (lambda a: jnp.linalg.cholesky(
            a @ a.T + 6 * jnp.eye(6)), (m,)),
        "linalg_det": (jnp.linalg.det, (m,)),
        "scipy_solve_triangular": (lambda a, b: jax.scipy.linalg.
                                   solve_triangular(jnp.tril(a) + 6 *
                                                    jnp.eye(6), b), (m, m)),
        "linalg_solve": (jnp.linalg.solve, (m, m)),
        "linalg_slogdet": (lambda a: jnp.linalg.slogdet(a), (m,)),
        "linalg_qr": (lambda a: jnp.linalg.qr(a), (m,)),
        "linalg_qr_tall_complete": (lambda a: jnp.linalg.qr(a.T, "complete"),
                                    (x,)),
        "linalg_inv_batched": (jnp.linalg.inv, (np.stack([m, m.T]),)),
        "linalg_matrix_power": (lambda a: jnp.linalg.matrix_power(a, -2),
                                (m,)),
        "linalg_eigh": (lambda a: jnp.linalg.eigh(a + a.T)[0], (m,)),
        "linalg_svd": (lambda a: jnp.linalg.svd(a)[1], (m,)),
        "linalg_lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0], (x, y)),
        "linalg_pinv": (jnp.linalg.pinv, (x,)),
        "linalg_cond": (jnp.linalg.cond, (m,)),
        "scipy_lu": (jax.scipy.linalg.lu, (m,)),
        "scipy_lu_factor": (lambda a: jax.scipy.linalg.lu_factor(a), (m,)),
        "scipy_cho_solve": (lambda a, b: jax.scipy.linalg.cho_solve(
            jax.scipy.linalg.cho_factor(a @ a.T + 6 * jnp.eye(6)), b),
                            (m, m)),
        "scipy_expm": (lambda a: jax.scipy.linalg.expm(0.3 * a), (m,)),
        "lax_triangular_solve": (lambda a, b: jax.lax.linalg.triangular_solve(
            jnp.triu(a) + 6 * jnp.eye(6), b, left_side=False, lower=False,
            transpose_a=True), (m, m)),
        # jax.nn
        "logsumexp": (nn.logsumexp, (x,)),
        "softmax": (nn.softmax, (x,)),
        "log_softmax": (nn.log_softmax, (x,)),
        "gelu": (nn.gelu, (x,)),
        "gelu_exact": (lambda a: nn.gelu(a, approximate=False), (x,)),
        "silu": (nn.silu, (x,)),
        "elu_celu": (lambda a: nn.elu(a) + nn.celu(a), (x,)),
        "softplus": (nn.softplus, (x,)),
        "relu6": (nn.relu6, (x,)),
        "sigmoid": (nn.sigmoid, (x,)),
        "one_hot": (lambda a: nn.one_hot(a, 5), (ints,)),
        "standardize": (lambda a: nn.standardize(a, axis=1), (x,)),
        "glu": (nn.glu, (x,)),
        # jax.scipy.special
        "erf": (special.erf, (x,)),
        "erfc_erfinv": (lambda a: special.erfc(a) + special.erfinv(a / 3),
                        (x,)),
        "gammaln": (special.gammaln, (positive,)),
        "digamma": (special.digamma, (positive,)),
        "betaln": (special.betaln, (positive, positive)),
        "xlogy": (special.xlogy, (positive, positive)),
        "logit_expit": (lambda a: special.logit(a) + special.expit(a),
                        (unit,)),
        "i0e_i1e": (lambda a: special.i0e(a) + special.i1e(a), (x,)),
        "ndtri": (special.ndtri, (unit,)),
        # control flow
        "fori_loop": (lambda a: lax.fori_loop(
            0, 5, lambda i, c: c * 0.9 + 1, a), (x,)),
        "while_loop": (lambda a: lax.while_loop(
            lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1),
            (0, a))[1], (x,)),
        "cond": (lambda a: lax.cond(a.sum() > 0, jnp.sin, jnp.cos, a), (x,)),
        "switch": (lambda i, a: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh],
                                           a), (np.int32(2), x)),
        "scan": (lambda a: lax.scan(lambda c, r: (c + r, c * r),
                                    jnp.zeros(6), a)[1], (x,)),
        "map": (lambda a: lax.map(lambda r: r @ r, a), (x,)),
        "associative_scan": (lambda a: lax.associative_scan(jnp.add, a),
                             (v,)),
        "top_k": (lambda a: lax.top_k(a, 3)[0], (x,)),
        "segment_sum": (lambda a: jax.ops.segment_sum(
            a, jnp.array([0, 0, 1, 2]), 3), (x,)),
        "conv": (lambda a: lax.conv(a[None, None], jnp.ones((1, 1, 3, 3)),
                                    (1, 1), "SAME")[0, 0], (m,)),
        "reduce_window": (lambda a: lax.reduce_window(
            a, -jnp.inf, lax.max, (2, 2), (1, 1), "VALID"), (m,)),
        # autodiff
        "grad": (jax.grad(lambda a: jnp.sum(jnp.tanh(a) ** 2)), (x,)),
        "value_and_grad": (jax.value_and_grad(
            lambda a, b: jnp.sum((a @ b.T) ** 2)), (x, y)),
        "vmap": (jax.vmap(lambda a: a @ a), (x,)),
        "jvp": (lambda a: jax.jvp(jnp.sin, (a,), (a,))[1], (x,)),
        "vjp": (lambda a: jax.vjp(jnp.tanh, a)[1](a)[0], (x,)),
        "hessian": (jax.hessian(lambda a: jnp.sum(a ** 3)), (v[:4],)),
        "checkpoint": (jax.grad(jax.checkpoint(
            lambda a: jnp.sum(jnp.sin(a) * a))), (x,)),
        # jax.random
        "random_normal": (lambda k: jax.random.normal(k, (4,)), (key,)),
        "random_uniform": (lambda k: jax.random.uniform(k, (4,)), (key,)),
        "random_bernoulli": (lambda k: jax.random.bernoulli(k, 0.5, (8,)),
                             (key,)),
        "random_choice": (lambda k: jax.random.choice(k, 10, (3,),
                                                      replace=False), (key,)),
        "random_gumbel": (lambda k: jax.random.gumbel(k, (4,)), (key,)),
        "random_categorical": (lambda k, a: jax.random.categorical(k, a),
                               (key, x)),
        "random_permutation": (lambda k: jax.random.permutation(k, 8),
                               (key,)),
        "random_randint": (lambda k: jax.random.randint(k, (5,), 0, 9),
                           (key,)),
        "random_truncated_normal": (lambda k: jax.random.truncated_normal(
            k, -1.0, 1.0, (4,)), (key,)),
    }


CASES = _cases() if jax is not None else {}


@pytest.mark.parametrize("device", ["cpu", "template"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax_jit(name, device):
    function, arguments = CASES[name]
    if name in KNOWN_REFUSALS:
        with pytest.raises(polyhal.Error):
            polyhal.jit(function, device=device)(*arguments)
        pytest.skip(f"refused, as documented: {KNOWN_REFUSALS[name]}")
    want = jax.jit(function)(*arguments)
    got = polyhal.jit(function, device=device)(*arguments)
    wanted = jax.tree_util.tree_leaves(want)
    gotten = jax.tree_util.tree_leaves(got)
    assert len(gotten) == len(wanted)
    for actual, expected in zip(gotten, wanted):
        actual, expected = np.asarray(actual), np.asarray(expected)
        assert actual.shape == expected.shape
        assert actual.dtype == expected.dtype
        if np.issubdtype(expected.dtype, np.inexact):
            np.testing.assert_allclose(actual, expected, rtol=2e-3,
                                       atol=2e-3)
        else:
            np.testing.assert_array_equal(actual, expected)


def test_the_sweep_holds_a_hundred_functions():
    assert len(CASES) >= 100
