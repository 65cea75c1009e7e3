"""Long calls release the GIL, and one client, executable and its buffers
may be used from many threads at once."""
import os
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import polyhal
from conftest import JAX_MODELS, assert_close, jax_model_arrays

SPIN_HLO = """HloModule spin
cond {{
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({trips})
  ROOT lt = pred[] compare(i, n), direction=LT
}}
body {{
  s = (s32[], f32[256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[256] get-tuple-element(s), index=1
  y = f32[256] sine(x)
  ROOT t = (s32[], f32[256]) tuple(next, y)
}}
ENTRY main {{
  x = f32[256] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[256]) tuple(zero, x)
  w = (s32[], f32[256]) while(init), condition=cond, body=body
  ROOT r = f32[256] get-tuple-element(w), index=1
}}
"""


class Counter:
    """Counts in a Python thread for as long as it is allowed to run."""

    def __init__(self):
        self.count = 0
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop:
            self.count += 1

    def __enter__(self):
        self._thread.start()
        while self.count == 0:
            time.sleep(0.001)
        return self

    def __exit__(self, *exception):
        self._stop = True
        self._thread.join()


def slow_spin():
    """A module whose one run takes at least 50 ms on the default device."""
    x = np.linspace(0, 1, 256, dtype=np.float32)
    trips = 1000
    while True:
        spin = polyhal.compile(SPIN_HLO.format(trips=trips))
        start = time.perf_counter()
        spin(x)
        if time.perf_counter() - start >= 0.05 or trips >= 1 << 24:
            return spin, x
        trips *= 4


def counted_during(call):
    """How far a Python thread counted while `call` ran in this one. The
    switch interval is made longer than any call here, so the counter runs
    only when `call` gives the GIL up itself, not when the interpreter
    takes it from Python code."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.5)
    try:
        with Counter() as counter:
            before = counter.count
            call()
            return counter.count - before
    finally:
        sys.setswitchinterval(interval)


def releases_the_gil(call, tries=20):
    """Whether a Python thread ever ran during `call`. One that runs only a
    millisecond or two may give the GIL back before the waiting thread
    wakes, so a call gets several tries; one that holds the GIL never lets
    the counter move."""
    return any(counted_during(call) > 0 for _ in range(tries))


def test_the_counter_stays_still_while_c_code_holds_the_gil():
    # A loaded machine may stall this thread past the switch interval in
    # the Python code around the call, so the control gets a few tries too.
    text = "ab" * 2_000_000
    assert any(counted_during(lambda: re.fullmatch("(?:ab)*c?", text)) == 0
               for _ in range(3))


def test_execute_releases_the_gil():
    spin, x = slow_spin()
    assert releases_the_gil(lambda: spin(x))


def test_compile_releases_the_gil():
    path = os.path.join(JAX_MODELS, "transformer_block.hlo")
    with open(path) as file:
        text = file.read()

    def compile_afresh():
        # A fresh name each time, so that no cache answers the compile.
        renamed = text.replace("HloModule ", f"HloModule gil_{time.time_ns()}_",
                               1)
        polyhal.compile(renamed, "template")

    assert releases_the_gil(compile_afresh)


def test_buffer_copies_release_the_gil():
    big = np.ones((64, 1024, 1024), np.uint8)
    assert releases_the_gil(lambda: polyhal.put(big).numpy())


@pytest.mark.parametrize("name", ["mlp", "sort_gather"])
def test_one_executable_runs_on_many_threads_at_once(name, plugin):
    executable = polyhal.compile(os.path.join(JAX_MODELS, name + ".hlo"),
                                 plugin)
    inputs = jax_model_arrays(name, "input")
    expected = jax_model_arrays(name, "output")

    def run(_):
        outputs = executable(*inputs)
        return outputs if isinstance(outputs, list) else [outputs]

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, range(16)))
    for outputs in results:
        for actual, wanted in zip(outputs, expected):
            assert_close(actual, wanted, rtol=1e-4, atol=1e-4)


def test_threads_compile_put_and_run_on_one_client():
    text = """HloModule scale
ENTRY main {
  x = f32[128] parameter(0)
  k = f32[] constant(3)
  b = f32[128] broadcast(k), dimensions={}
  ROOT y = f32[128] multiply(x, b)
}
"""

    def work(seed):
        scale = polyhal.compile(text)
        x = np.random.default_rng(seed).standard_normal(128).astype(np.float32)
        buffer = polyhal.put(x)
        (result,) = scale.execute(buffer)
        return x, result.numpy()

    with ThreadPoolExecutor(max_workers=4) as pool:
        for x, y in pool.map(work, range(12)):
            assert_close(y, x * 3)
