"""polyhal.jit gives what jax.jit gives, on every plugin that executes
programs. Skipped, saying why, when jax is not installed (scripts/test.sh
installs it into build/python-venv with scripts/python-venv.sh)."""
import subprocess
import sys

import numpy as np
import pytest

import polyhal
from conftest import assert_close

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    jax = jnp = None

requires_jax = pytest.mark.skipif(
    jax is None, reason="jax is not installed: scripts/python-venv.sh "
                        "installs it into build/python-venv, where "
                        "scripts/test.sh runs these tests")

rng = np.random.default_rng(5)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def mlp(x, w1, b1, w2, b2):
    hidden = jax.nn.gelu(x @ w1 + b1)
    return jax.nn.softmax(hidden @ w2 + b2, axis=-1)


def attention(q, k, v):
    scores = jnp.einsum("hqd,hkd->hqk", q, k) / np.sqrt(q.shape[-1])
    return jnp.einsum("hqk,hkd->hqd", jax.nn.softmax(scores, axis=-1), v)


def cumulative_scan(xs, w):
    def step(carry, x):
        carry = jnp.tanh(carry @ w + x)
        return carry, carry.sum()
    final, sums = jax.lax.scan(step, jnp.zeros(xs.shape[1:], xs.dtype), xs)
    return final, sums


CASES = {
    "mlp": (mlp, lambda: (f32(4, 16), f32(16, 32), f32(32), f32(32, 8),
                          f32(8))),
    "attention": (attention, lambda: (f32(2, 6, 8), f32(2, 6, 8),
                                      f32(2, 6, 8))),
    "scan": (cumulative_scan, lambda: (f32(5, 3, 4), f32(4, 4))),
}


@requires_jax
@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_matches_jax_jit(name, plugin):
    function, make_arguments = CASES[name]
    arguments = make_arguments()
    expected = jax.jit(function)(*arguments)
    actual = polyhal.jit(function, plugin)(*arguments)
    expected_leaves = jax.tree_util.tree_leaves(expected)
    actual_leaves = jax.tree_util.tree_leaves(actual)
    assert jax.tree_util.tree_structure(actual) == \
        jax.tree_util.tree_structure(expected)
    for got, wanted in zip(actual_leaves, expected_leaves):
        assert_close(got, np.asarray(wanted), rtol=1e-4, atol=1e-5)


@requires_jax
def test_jit_compiles_once_per_input_signature():
    jitted = polyhal.jit(lambda x, y: x * y + 1)
    jitted(np.ones(3, np.float32), np.ones(3, np.float32))
    jitted(np.zeros(3, np.float32), np.ones(3, np.float32))
    assert jitted.cache_size() == 1
    assert_close(jitted(np.ones(4, np.float32), np.ones(4, np.float32)),
                 np.full(4, 2, np.float32))
    assert jitted.cache_size() == 2
    jitted(np.ones(4, np.int32), np.ones(4, np.int32))
    assert jitted.cache_size() == 3


@requires_jax
def test_jit_takes_and_returns_trees():
    def function(params, x):
        return {"y": x @ params["w"] + params["b"], "norm": jnp.sum(x * x)}
    params = {"w": f32(3, 2), "b": f32(2)}
    x = f32(4, 3)
    expected = jax.jit(function)(params, x)
    actual = polyhal.jit(function)(params, x)
    assert sorted(actual) == ["norm", "y"]
    assert_close(actual["y"], np.asarray(expected["y"]), rtol=1e-5)
    assert_close(actual["norm"], np.asarray(expected["norm"]), rtol=1e-5)


@requires_jax
def test_jit_keeps_unused_arguments():
    jitted = polyhal.jit(lambda x, unused: x + 1)
    assert_close(jitted(np.ones(2, np.float32), np.ones(7, np.int8)),
                 np.full(2, 2, np.float32))


@requires_jax
def test_jit_follows_jax_in_narrowing_f64_to_f32():
    result = polyhal.jit(lambda x: x * 2)(np.ones(3, np.float64))
    assert_close(result, np.asarray(jax.jit(lambda x: x * 2)(np.ones(3))))


def test_jit_without_jax_raises_saying_so():
    # jax blocked from importing, whether or not it is installed.
    program = (
        "import sys; sys.modules['jax'] = None\n"
        "import polyhal\n"
        "try:\n"
        "    polyhal.jit(lambda x: x)\n"
        "except polyhal.Error as error:\n"
        "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True,
                          text=True, check=True)
    assert "polyhal.jit needs jax, which is not installed" in done.stdout


@requires_jax
def test_zero_d_arrays_and_scalars_are_arguments_of_their_rank(plugin):
    def scale_at(x, position, factor):
        return jax.lax.dynamic_index_in_dim(x, position, keepdims=False) * factor

    x = f32(6, 3)
    for position, factor in [(np.int32(2), np.float32(0.5)),
                             (np.array(4, dtype=np.int32), 3.0),
                             (1, np.array(2.0, dtype=np.float32)),
                             (jnp.int32(5), jnp.asarray(0.25))]:
        got = polyhal.jit(scale_at, device=plugin)(x, position, factor)
        assert got.shape == (3,)
        assert_close(got, np.asarray(jax.jit(scale_at)(x, position, factor)))


@requires_jax
def test_a_compiled_executable_takes_a_zero_d_argument(plugin):
    def shift(x, offset):
        return x + offset

    lowered = jax.jit(shift).lower(f32(4), np.float32(0))
    executable = polyhal.compile(lowered.as_text(), plugin, format="stablehlo")
    x = f32(4)
    offset = np.array(1.5, dtype=np.float32)
    assert executable.parameters[1] == (np.dtype(np.float32), ())
    assert_close(executable(x, offset), x + 1.5)


@requires_jax
def test_static_arguments_keywords_and_donation_are_what_jax_jit_takes(plugin):
    def power_sum(x, exponent, axis=0, scale=1.0):
        return jnp.sum(x ** exponent, axis=axis) * scale

    jitted = polyhal.jit(power_sum, device=plugin, static_argnums=(1,),
                         static_argnames=("axis",), donate_argnums=(0,))
    x = np.abs(f32(3, 5)) + 0.5
    kept = x.copy()
    for exponent, axis in [(2, 0), (3, 1), (2, 1)]:
        got = jitted(x, exponent, axis=axis, scale=np.float32(2.0))
        assert_close(got, np.sum(x ** exponent, axis=axis) * 2.0, rtol=1e-5)
    assert jitted.cache_size() == 3
    np.testing.assert_array_equal(x, kept)  # donated, yet the caller's array


@requires_jax
def test_prng_keys_and_the_random_functions_that_take_them(plugin):
    def draw(key, logits):
        first, second = jax.random.split(key)
        return (jax.random.categorical(first, logits),
                jax.random.permutation(second, 8), second)

    logits = f32(4, 10)
    for key in [jax.random.PRNGKey(3), jax.random.key(3)]:
        got = polyhal.jit(draw, device=plugin)(key, logits)
        want = jax.jit(draw)(key, logits)
        np.testing.assert_array_equal(got[0], np.asarray(want[0]))
        np.testing.assert_array_equal(got[1], np.asarray(want[1]))
        if jax.dtypes.issubdtype(want[2].dtype, jax.dtypes.prng_key):
            assert jax.dtypes.issubdtype(got[2].dtype, jax.dtypes.prng_key)
            np.testing.assert_array_equal(jax.random.key_data(got[2]),
                                          jax.random.key_data(want[2]))
        else:
            np.testing.assert_array_equal(got[2], np.asarray(want[2]))


@requires_jax
def test_switch_on_a_scalar_index(plugin):
    def pick(index, x):
        return jax.lax.switch(index, [jnp.sin, jnp.cos, jnp.tanh], x)

    x = f32(5)
    for index in [0, 1, 2, np.int32(1)]:
        assert_close(polyhal.jit(pick, device=plugin)(index, x),
                     np.asarray(jax.jit(pick)(index, x)), rtol=1e-5)
