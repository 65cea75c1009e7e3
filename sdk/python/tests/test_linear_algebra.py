"""Linear algebra through polyhal.jit against jax.jit on XLA:CPU (which
calls LAPACK): the functions of jnp.linalg and jax.scipy.linalg that lower
to LAPACK's potrf, getrf, geqrf, orgqr, trsm, syevd and gesdd, batched and
unbatched, in
f32 and f64, on every plugin at hand (asic-ref in f32: it has no f64; the
nvidia plugin's emulated device where PHAL_GPU_EMULATION=1, as CTest sets).
Skipped, saying why, when jax is not installed."""
import numpy as np
import pytest

import polyhal

try:
    import jax
    import jax.numpy as jnp
    import jax.scipy.linalg as sl
    jax.config.update("jax_enable_x64", True)
except ImportError:
    jax = jnp = sl = None

pytestmark = pytest.mark.skipif(
    jax is None, reason="jax is not installed: scripts/python-venv.sh "
                        "installs it into build/python-venv, where "
                        "scripts/test.sh runs these tests")

PLUGINS = ["cpu", "intel", "asic-ref", "nvidia"]


def _matrices(dtype, batch, n=6, seed=0):
    rng = np.random.default_rng(seed)
    general = rng.standard_normal(batch + (n, n)) + 0.5 * np.eye(n)
    factor = rng.standard_normal(batch + (n, n))
    spd = factor @ np.swapaxes(factor, -1, -2) + n * np.eye(n)
    rhs = rng.standard_normal(batch + (n, 3))
    tall = rng.standard_normal(batch + (n + 3, n))
    return [m.astype(dtype) for m in (general, spd, rhs, tall)]


def _cases():
    return {
        "inv": (jnp.linalg.inv, lambda g, s, r, t: (g,)),
        "solve": (jnp.linalg.solve, lambda g, s, r, t: (g, r)),
        "cholesky": (jnp.linalg.cholesky, lambda g, s, r, t: (s,)),
        "qr": (lambda a: jnp.linalg.qr(a), lambda g, s, r, t: (g,)),
        "qr_tall": (lambda a: jnp.linalg.qr(a), lambda g, s, r, t: (t,)),
        "det": (jnp.linalg.det, lambda g, s, r, t: (g,)),
        "slogdet": (lambda a: jnp.linalg.slogdet(a), lambda g, s, r, t: (g,)),
        "solve_triangular": (
            lambda a, b: sl.solve_triangular(a, b, lower=True),
            lambda g, s, r, t: (s, r)),
        "solve_triangular_upper_transposed": (
            lambda a, b: sl.solve_triangular(a, b, lower=False, trans="T"),
            lambda g, s, r, t: (s, r)),
        "lu": (lambda a: jax.lax.linalg.lu(a), lambda g, s, r, t: (g,)),
        "scipy_lu": (sl.lu, lambda g, s, r, t: (g,)),
        "cho_solve": (lambda a, b: sl.cho_solve(sl.cho_factor(a), b),
                      lambda g, s, r, t: (s, r)),
        "expm": (lambda a: sl.expm(0.3 * a), lambda g, s, r, t: (g,)),
        "eigvalsh": (jnp.linalg.eigvalsh, lambda g, s, r, t: (s,)),
        "svd_values": (lambda a: jnp.linalg.svd(a, compute_uv=False),
                       lambda g, s, r, t: (t,)),
        "lstsq": (lambda a, b: jnp.linalg.lstsq(a, b)[0],
                  lambda g, s, r, t: (t, t[..., :3])),
        "pinv": (jnp.linalg.pinv, lambda g, s, r, t: (t,)),
        "matrix_rank": (jnp.linalg.matrix_rank, lambda g, s, r, t: (t,)),
        "norm_2": (lambda a: jnp.linalg.norm(a, ord=2, axis=(-2, -1)),
                   lambda g, s, r, t: (g,)),
    }


CASES = _cases() if jax is not None else {}


def _device(plugin):
    found = polyhal.devices(plugin)
    if not found:
        pytest.skip(f"plugin {plugin} has no device here")
    return found[0]


@pytest.mark.parametrize("batch", [(), (3,)], ids=["single", "batched"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64],
                         ids=["f32", "f64"])
@pytest.mark.parametrize("plugin", PLUGINS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax_jit(name, plugin, dtype, batch):
    if plugin == "asic-ref" and dtype == np.float64:
        pytest.skip("asic-ref has no f64")
    if name in ("lstsq", "scipy_lu") and batch:
        pytest.skip(f"jax's {name} takes one matrix")
    device = _device(plugin)
    function, pick = CASES[name]
    arguments = pick(*_matrices(dtype, batch))
    want = jax.jit(function)(*arguments)
    got = polyhal.jit(function, device=device)(*arguments)
    wanted = jax.tree_util.tree_leaves(want)
    gotten = jax.tree_util.tree_leaves(got)
    assert len(gotten) == len(wanted)
    # The matrices are well conditioned (condition numbers below 100), so
    # agreement within a few hundred ulps of the largest entry is expected.
    eps = np.finfo(dtype).eps
    for actual, expected in zip(gotten, wanted):
        actual, expected = np.asarray(actual), np.asarray(expected)
        assert actual.shape == expected.shape
        assert actual.dtype == expected.dtype
        if np.issubdtype(expected.dtype, np.inexact):
            scale = 1 + np.max(np.abs(expected))
            np.testing.assert_allclose(actual, expected, rtol=0,
                                       atol=500 * eps * scale)
        else:
            np.testing.assert_array_equal(actual, expected)


@pytest.mark.parametrize("plugin", ["cpu", "asic-ref"])
def test_not_positive_definite_gives_nan_as_lapack(plugin):
    device = _device(plugin)
    a = np.diag([1.0, -1.0, 2.0]).astype(np.float32)
    got = np.asarray(polyhal.jit(jnp.linalg.cholesky, device=device)(a))
    want = np.asarray(jax.jit(jnp.linalg.cholesky)(a))
    assert np.isnan(got[1:, 1]).all()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("plugin", ["cpu", "asic-ref"])
def test_singular_matrix_gives_a_zero_determinant(plugin):
    device = _device(plugin)
    a = np.array([[1, 2, 3], [2, 4, 6], [0, 1, 1]], np.float32)
    got = polyhal.jit(jnp.linalg.det, device=device)(a)
    assert float(got) == 0.0
    # lu's pivots and factors of a singular matrix, as LAPACK gives them.
    lu, pivots, permutation = polyhal.jit(jax.lax.linalg.lu,
                                          device=device)(a)
    want = jax.jit(jax.lax.linalg.lu)(a)
    np.testing.assert_allclose(lu, want[0], atol=1e-6)
    np.testing.assert_array_equal(pivots, want[1])
    np.testing.assert_array_equal(permutation, want[2])


@pytest.mark.parametrize("plugin", PLUGINS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64],
                         ids=["f32", "f64"])
def test_eigenvectors_and_singular_vectors_satisfy_their_definitions(
        plugin, dtype):
    # Vectors are unique only up to sign, so they are checked by what they
    # must satisfy, against tolerances of a few dozen ulps.
    if plugin == "asic-ref" and dtype == np.float64:
        pytest.skip("asic-ref has no f64")
    device = _device(plugin)
    eps = np.finfo(dtype).eps
    general, spd, _, tall = _matrices(dtype, (2,), seed=3)
    symmetric = general + np.swapaxes(general, -1, -2)
    values, vectors = polyhal.jit(jnp.linalg.eigh, device=device)(symmetric)
    scale = np.max(np.abs(symmetric))
    residual = symmetric @ vectors - vectors * values[..., None, :]
    assert np.max(np.abs(residual)) < 50 * eps * scale
    identity = np.eye(6)
    assert np.max(np.abs(np.swapaxes(vectors, -1, -2) @ vectors -
                         identity)) < 50 * eps
    for matrix in (tall, np.swapaxes(tall, -1, -2)):
        for full in (True, False):
            u, s, vt = polyhal.jit(
                lambda a: jnp.linalg.svd(a, full_matrices=full),
                device=device)(matrix)
            k = min(matrix.shape[-2:])
            rebuilt = (u[..., :, :k] * s[..., None, :]) @ vt[..., :k, :]
            assert np.max(np.abs(rebuilt - matrix)) < 50 * eps * np.max(
                np.abs(matrix))
            for q in (np.swapaxes(u, -1, -2) @ u,
                      vt @ np.swapaxes(vt, -1, -2)):
                assert np.max(np.abs(q - np.eye(q.shape[-1]))) < 50 * eps
            want = jax.jit(lambda a: jnp.linalg.svd(a, full_matrices=full))(
                matrix)
            assert u.shape == want[0].shape and vt.shape == want[2].shape


@pytest.mark.parametrize("plugin", ["cpu", "nvidia"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128],
                         ids=["c64", "c128"])
def test_hermitian_eigh(plugin, dtype):
    device = _device(plugin)
    eps = np.finfo(dtype).eps
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 6, 6)) + 1j * rng.standard_normal((2, 6, 6))
    a = (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)
    values, vectors = polyhal.jit(jnp.linalg.eigh, device=device)(a)
    assert values.dtype == np.finfo(dtype).dtype
    np.testing.assert_allclose(values, jax.jit(jnp.linalg.eigvalsh)(a),
                               rtol=0, atol=100 * eps * np.max(np.abs(a)))
    residual = a @ vectors - vectors * values[..., None, :]
    assert np.max(np.abs(residual)) < 50 * eps * np.max(np.abs(a))
    gram = np.conj(np.swapaxes(vectors, -1, -2)) @ vectors
    assert np.max(np.abs(gram - np.eye(6))) < 50 * eps


@pytest.mark.parametrize("plugin", ["cpu", "nvidia"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128],
                         ids=["c64", "c128"])
def test_complex_svd(plugin, dtype):
    device = _device(plugin)
    eps = np.finfo(dtype).eps
    rng = np.random.default_rng(6)
    for shape in ((2, 7, 4), (4, 7)):
        a = (rng.standard_normal(shape) +
             1j * rng.standard_normal(shape)).astype(dtype)
        for full in (True, False):
            u, s, vt = polyhal.jit(
                lambda x: jnp.linalg.svd(x, full_matrices=full),
                device=device)(a)
            want = jax.jit(lambda x: jnp.linalg.svd(x, full_matrices=full))(a)
            assert u.shape == want[0].shape and vt.shape == want[2].shape
            assert s.dtype == np.finfo(dtype).dtype
            np.testing.assert_allclose(s, want[1], rtol=0,
                                       atol=100 * eps * np.max(np.abs(a)))
            k = min(shape[-2:])
            rebuilt = (u[..., :, :k] * s[..., None, :]) @ vt[..., :k, :]
            assert np.max(np.abs(rebuilt - a)) < 50 * eps * np.max(np.abs(a))
            for q in (np.conj(np.swapaxes(u, -1, -2)) @ u,
                      vt @ np.conj(np.swapaxes(vt, -1, -2))):
                assert np.max(np.abs(q - np.eye(q.shape[-1]))) < 50 * eps


def test_a_lapack_routine_not_lowered_is_refused_with_its_name():
    with pytest.raises(polyhal.Error, match="geev is not lowered yet"):
        polyhal.jit(jnp.linalg.eig)(np.eye(3, dtype=np.float32))


GPU_CASES = {
    "inv": (jnp.linalg.inv, lambda g, s, r, t: (g,)),
    "cholesky": (jnp.linalg.cholesky, lambda g, s, r, t: (s,)),
    "qr": (lambda a: jnp.linalg.qr(a), lambda g, s, r, t: (t,)),
    "lu": (lambda a: jax.lax.linalg.lu(a), lambda g, s, r, t: (t,)),
    "solve_triangular": (lambda a, b: sl.solve_triangular(a, b, lower=True),
                         lambda g, s, r, t: (s, r)),
    "eigh": (lambda a: _rebuilt_eigh(a), lambda g, s, r, t: (s,)),
    "svd": (lambda a: _rebuilt_svd(a), lambda g, s, r, t: (t,)),
    "svd_wide": (lambda a: _rebuilt_svd(jnp.swapaxes(a, -1, -2)),
                 lambda g, s, r, t: (t,)),
}


def _rebuilt_eigh(a):
    w, v = jnp.linalg.eigh(a)
    return w, (v * w[..., None, :]) @ jnp.swapaxes(v, -1, -2)


def _rebuilt_svd(a):
    u, s, vt = jnp.linalg.svd(a, full_matrices=False)
    return s, (u * s[..., None, :]) @ vt


@pytest.mark.parametrize("batch", [(), (2,)], ids=["single", "batched"])
@pytest.mark.parametrize("platform", ["cuda", "rocm"])
@pytest.mark.parametrize("name", sorted(GPU_CASES))
def test_the_gpu_solver_calls_jax_writes(name, platform, batch):
    # What JAX writes for a GPU (cusolver_*/hipsolver_* custom calls and
    # the pivots' permutation), compiled by Polyhal for cpu, against XLA:CPU
    # running the CPU lowering of the same function.
    function, pick = GPU_CASES[name]
    arguments = pick(*_matrices(np.float32, batch))
    text = jax.jit(function).trace(*arguments).lower(
        lowering_platforms=(platform,)).as_text()
    assert "solver" in text or "triangular_solve" in text
    executable = polyhal.compile(text, device="cpu")
    got = executable(*arguments)
    got = got if isinstance(got, list) else [got]
    wanted = jax.tree_util.tree_leaves(jax.jit(function)(*arguments))
    assert len(got) == len(wanted)
    eps = np.finfo(np.float32).eps
    for actual, expected in zip(got, wanted):
        expected = np.asarray(expected)
        assert actual.shape == expected.shape
        if np.issubdtype(expected.dtype, np.inexact):
            np.testing.assert_allclose(
                actual, expected, rtol=0,
                atol=500 * eps * (1 + np.max(np.abs(expected))))
        else:
            np.testing.assert_array_equal(actual, expected)
