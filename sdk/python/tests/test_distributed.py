"""polyhal.distributed: processes that join a job over TCP (a coordinator,
a count and an index) or under mpirun run JAX's sharded models over every
process's devices and give every process XLA's results; the job's devices
are numbered alike on every process; a process that never joins is named;
initialize() refuses what it cannot do. Every process is started here, in
subprocesses of its own, bounded."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import polyhal
from conftest import JAX_MODELS, check_model_outputs

# What each process runs: joins the job, compiles `model` for every device
# of the job's plugin (cpu, or WORKER_PLUGIN), runs it on the global inputs and saves the global
# results (every process has them) to OUT.PROCESS.npz, and what it saw of
# the job to OUT.PROCESS.txt.
WORKER = r"""
import os, sys
import numpy as np
import polyhal.distributed as dist
coordinator, count, index, model, out = sys.argv[1:6]
plugin = os.environ.get("WORKER_PLUGIN", "cpu")
if coordinator == "mpi":
    dist.initialize()
else:
    dist.initialize(coordinator, int(count), int(index), timeout=60)
inputs = []
while os.path.exists(f"{model}.input_{len(inputs)}.npy"):
    inputs.append(np.load(f"{model}.input_{len(inputs)}.npy"))
step = dist.compile(model + ".hlo", plugin=plugin)
outputs = step(*inputs)
outputs = outputs if isinstance(outputs, list) else [outputs]
cpu = dist.global_devices(plugin)
assert [d.id for d in cpu] == sorted(d.id for d in cpu)
table = [(d.process_index, d.plugin, d.device is not None) for d in cpu]
with open(f"{out}.{dist.process_index()}.txt", "w") as file:
    print("process", dist.process_index(), "of", dist.process_count(),
          "runs", step.local_processes, "devices", table, file=file)
np.savez(f"{out}.{dist.process_index()}.npz", *outputs)
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def environment(devices, extra=None):
    env = dict(os.environ)
    env.update(extra or {})
    env["PHAL_VIRTUAL_DEVICES"] = str(devices)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(polyhal.__file__))] +
        [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def report(out, process):
    with open(f"{out}.{process}.txt", encoding="utf-8") as file:
        return file.read()


def check_every_process(out, processes, name):
    for k in range(processes):
        with np.load(f"{out}.{k}.npz") as saved:
            outputs = [saved[f"arr_{i}"] for i in range(len(saved.files))]
        check_model_outputs(outputs if len(outputs) > 1 else outputs[0], name)


def run_over_tcp(work, processes, devices, name, indices=None, extra=None):
    coordinator = f"127.0.0.1:{free_port()}"
    script = os.path.join(work, "worker.py")
    with open(script, "w", encoding="utf-8") as file:
        file.write(WORKER)
    out = os.path.join(work, "out")
    launched = [subprocess.Popen(
        [sys.executable, script, coordinator, str(processes), str(k),
         os.path.join(JAX_MODELS, name), out],
        env=environment(devices, extra), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
        for k in (range(processes) if indices is None else indices)]
    results = []
    for process in launched:
        try:
            text, _ = process.communicate(timeout=180)
        except subprocess.TimeoutExpired:
            process.kill()
            text, _ = process.communicate()
        results.append((process.returncode, text))
    return out, results


def test_two_processes_of_two_devices_over_tcp_match_xla():
    name = "sharded_transformer_step"
    with tempfile.TemporaryDirectory() as work:
        out, results = run_over_tcp(work, 2, 2, name)
        for code, text in results:
            assert code == 0, text
        # Both processes number the four devices alike; each runs its two.
        first, second = report(out, 0), report(out, 1)
        assert "process 0 of 2 runs [0, 1]" in first, first
        assert "process 1 of 2 runs [2, 3]" in second, second
        table = ("devices [(0, 'cpu', {a}), (0, 'cpu', {a}), "
                 "(1, 'cpu', {b}), (1, 'cpu', {b})]")
        assert table.format(a=True, b=False) in first, first
        assert table.format(a=False, b=True) in second, second
        check_every_process(out, 2, name)


def test_emulated_nvidia_devices_join_nccl_communicators_over_processes():
    # Two processes of two emulated nvidia devices: the groups within a
    # process run on its devices' NCCL communicators, those across the two
    # on communicators the plugin joins over them (ABI 1.12), the NCCL id
    # handed over the job's transport.
    name = "sharded_transformer_step"
    extra = {"WORKER_PLUGIN": "nvidia", "PHAL_GPU_EMULATION": "1",
             "PHAL_LOG": "debug"}
    with tempfile.TemporaryDirectory() as work:
        out, results = run_over_tcp(work, 2, 2, name, extra=extra)
        for code, text in results:
            assert code == 0, text
            assert "communicators joined over several processes" in text, text
            assert "(0 communicators joined" not in text, text
        check_every_process(out, 2, name)


def test_a_process_that_never_joins_is_named():
    with tempfile.TemporaryDirectory() as work:
        # Process 0 of a job of 3 waits a second for processes 1 and 2,
        # which never start.
        coordinator = f"127.0.0.1:{free_port()}"
        code = ("import polyhal.distributed as dist\n"
                f"dist.initialize('{coordinator}', 3, 0, timeout=1)\n")
        done = subprocess.run([sys.executable, "-c", code], env=environment(1),
                              capture_output=True, text=True, timeout=120)
        assert done.returncode != 0
        assert "processes {1, 2} did not join within 1000 ms" in done.stderr, \
            done.stderr


def test_initialize_refuses_what_it_cannot_do():
    code = r"""
import os
import polyhal, polyhal.distributed as dist
for variable in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                 "PHAL_COORDINATOR", "PHAL_NUM_PROCESSES", "PHAL_PROCESS_ID"):
    os.environ.pop(variable, None)
def error_of(call):
    try:
        call()
    except polyhal.Error as error:
        return str(error)
    return "no error"
print(error_of(lambda: dist.initialize()))
print(error_of(lambda: dist.initialize("127.0.0.1:1", 2)))
print(error_of(lambda: dist.initialize("127.0.0.1:1", 2, 5)))
print(error_of(lambda: dist.compile("x.hlo")))
print(dist.process_index(), dist.process_count(), dist.is_initialized())
polyhal.devices()
print(error_of(lambda: dist.initialize("127.0.0.1:1", 1, 0)))
"""
    done = subprocess.run([sys.executable, "-c", code], env=environment(1),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "not started by mpirun" in lines[0]
    assert "missing: process_id" in lines[1]
    assert "process_id 5 of 2 processes" in lines[2]
    assert "call polyhal.distributed.initialize() first" in lines[3]
    assert lines[4] == "0 1 False"
    assert "must come before the first polyhal call" in lines[5]


def test_a_job_of_one_process_runs_on_its_own_devices():
    code = r"""
import polyhal.distributed as dist
dist.initialize("127.0.0.1:1", 1, 0)
print(dist.process_index(), dist.process_count(), len(dist.global_devices("cpu")))
"""
    done = subprocess.run([sys.executable, "-c", code], env=environment(3),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1", "3"]


def mpi_module_present():
    library = polyhal._polyhal.library_path()
    return os.path.exists(
        os.path.join(os.path.dirname(library), "libpolyhal_mpi.so"))


@pytest.mark.skipif(shutil.which("mpirun") is None,
                    reason="mpirun is not installed (scripts/install-deps.sh "
                           "installs Open MPI)")
def test_two_processes_under_mpirun_match_xla():
    if not mpi_module_present():
        pytest.skip("libpolyhal_mpi.so is not built (no MPI headers)")
    name = "sharded_transformer_step"
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "worker.py")
        with open(script, "w", encoding="utf-8") as file:
            file.write(WORKER)
        out = os.path.join(work, "out")
        env = environment(2)
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        done = subprocess.run(
            ["timeout", "180", "mpirun", "-np", "2", sys.executable, script,
             "mpi", "0", "0", os.path.join(JAX_MODELS, name), out],
            env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "process 1 of 2 runs [2, 3]" in report(out, 1)
        check_every_process(out, 2, name)
