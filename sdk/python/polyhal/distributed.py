"""One program over the devices of several processes: one process per host
or per GPU, each with its own client, numbering the job's devices alike
(docs/distributed.md).

    import polyhal, polyhal.distributed as dist
    dist.initialize()                        # under mpirun: MPI
    dist.initialize("10.0.0.1:4321", 2, 0)   # or: coordinator, count, index
    step = dist.compile("model.hlo")         # over every process's devices
    outputs = step(*global_inputs)           # every process, same arrays

initialize() comes before the first polyhal call that uses a device: it
makes the process's client, which then belongs to the job. Every process
calls compile() and each executable's __call__ with the same arguments, in
the same order.
"""
import dataclasses
import os

import numpy as np

from . import _multi_device, _polyhal, _runtime, _types
from ._errors import Error

_job = None

# How long a process waits for its peers while results are gathered.
_GATHER_TIMEOUT = 600.0

# Where an MPI launcher (Open MPI, MPICH, Slurm's PMI) started the process.
_MPI_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK")


@dataclasses.dataclass(frozen=True)
class GlobalDevice:
    """A device of the job: `id` its global number, `device` the
    polyhal.Device on this process and None on another."""

    id: int
    process_index: int
    plugin: str
    name: str
    device: object


def initialize(coordinator=None, num_processes=None, process_id=None, *,
               timeout=60.0):
    """Joins this process to its job and makes its client.

    With no arguments, under mpirun (Open MPI or another MPI launcher): the
    MPI job, through libpolyhal_mpi. Otherwise over TCP: `coordinator`
    ("HOST:PORT", where process 0 listens), `num_processes` and this
    process's `process_id`, each taken from PHAL_COORDINATOR,
    PHAL_NUM_PROCESSES and PHAL_PROCESS_ID where not given. Waits up to
    `timeout` seconds for every process to join."""
    global _job
    explicit = {"coordinator": coordinator, "num_processes": num_processes,
                "process_id": process_id}
    environment = {"coordinator": "PHAL_COORDINATOR",
                   "num_processes": "PHAL_NUM_PROCESSES",
                   "process_id": "PHAL_PROCESS_ID"}
    for key, variable in environment.items():
        if explicit[key] is None and variable in os.environ:
            explicit[key] = os.environ[variable]
    given = [key for key, value in explicit.items() if value is not None]
    with _runtime._session_lock:
        if _job is not None:
            raise Error("FAILED_PRECONDITION",
                        "polyhal.distributed.initialize() was called "
                        "already; shutdown() ends the job")
        if _runtime._session is not None:
            raise Error("FAILED_PRECONDITION",
                        "polyhal.distributed.initialize() must come before "
                        "the first polyhal call that uses a device: this "
                        "process's client exists already")
        if not given:
            if not any(variable in os.environ for variable in _MPI_VARIABLES):
                raise Error("INVALID_ARGUMENT",
                            "not started by mpirun: pass coordinator=, "
                            "num_processes= and process_id= (or set "
                            "PHAL_COORDINATOR, PHAL_NUM_PROCESSES and "
                            "PHAL_PROCESS_ID)")
            job = _polyhal.Job.mpi()
        else:
            missing = [key for key in explicit if explicit[key] is None]
            if missing:
                raise Error("INVALID_ARGUMENT",
                            "a job over TCP needs coordinator, num_processes "
                            "and process_id; missing: " + ", ".join(missing))
            try:
                count = int(explicit["num_processes"])
                index = int(explicit["process_id"])
            except ValueError:
                raise Error("INVALID_ARGUMENT",
                            "num_processes and process_id must be integers, "
                            f"not {explicit['num_processes']!r} and "
                            f"{explicit['process_id']!r}") from None
            if count < 1 or not 0 <= index < count:
                raise Error("INVALID_ARGUMENT",
                            f"process_id {index} of {count} processes: it "
                            f"must be in [0, {count})")
            job = _polyhal.Job.tcp(str(explicit["coordinator"]), index, count,
                                   float(timeout))
        _runtime._session = _polyhal.Session(job)
        _job = job


def shutdown():
    """Leaves the job: the next polyhal call makes a client of its own.
    Executables and buffers made in the job keep its client alive."""
    global _job
    with _runtime._session_lock:
        _job = None
        _runtime._session = None


def is_initialized():
    return _job is not None


def _require_job():
    if _job is None:
        raise Error("FAILED_PRECONDITION",
                    "call polyhal.distributed.initialize() first")
    return _job


def process_index():
    """This process's index in the job (0 without a job)."""
    return 0 if _job is None else _job.rank


def process_count():
    """The number of processes of the job (1 without a job)."""
    return 1 if _job is None else _job.size


def global_devices(plugin=None):
    """The job's devices, process 0's first, each process's in its client's
    order; those of `plugin` only when it is given."""
    session = _runtime._default_session()
    found = [GlobalDevice(i, process, name, device_name, device)
             for i, (process, name, device_name, device)
             in enumerate(session.global_devices())]
    if plugin is None:
        return found
    return [device for device in found if device.plugin == plugin]


def compile(module, devices=None, plugin=None, format=None):
    """`module` compiled for the job: global device devices[k] runs process
    k of its grid. `devices` is a list of GlobalDevices, a count (the first
    N of `plugin`'s, in global order) or None (all of them); `plugin`
    defaults to the plugin of this process's default device. Every process
    calls it with the same module and devices."""
    job = _require_job()
    if plugin is None:
        plugin = _runtime.device().plugin
    if devices is None or isinstance(devices, int):
        candidates = global_devices(plugin)
        count = len(candidates) if devices is None else devices
        if count < 1 or count > len(candidates):
            raise Error("INVALID_ARGUMENT",
                        f"{count} devices of plugin '{plugin}' were asked "
                        f"for; the job's {job.size} processes have "
                        f"{len(candidates)}")
        chosen = candidates[:count]
    else:
        chosen = list(devices)
        for candidate in chosen:
            if not isinstance(candidate, GlobalDevice):
                raise TypeError("devices must be GlobalDevices (from "
                                "global_devices()), a count or None, not "
                                f"{type(candidate).__name__}")
    text, format_code, source_name = _runtime.load_module(module, format)
    native = _polyhal.Executable.compile_global(
        _runtime._default_session(), [device.id for device in chosen], text,
        format_code, source_name)
    return DistributedExecutable(native, text, format_code, chosen, job)


class DistributedExecutable(_multi_device.MultiDeviceExecutable):
    """A module compiled for devices of several processes (compile()).

    Calling it takes and returns GLOBAL arrays on every process: each
    process passes the same arguments, runs its own devices' pieces, and
    receives every process's results to assemble the global ones.
    execute_on_devices() takes this process's devices' arguments and
    returns their results only."""

    def __init__(self, native, text, format_code, devices, job):
        super().__init__(native, text, format_code)
        # Splitting and assembling go over every process of the grid.
        self._devices = list(devices)
        self._job = job
        self._local = [k for k, device in enumerate(devices)
                       if device.process_index == job.rank]

    @property
    def local_devices(self):
        """This process's devices, in process order."""
        return list(self._native.devices)

    @property
    def local_processes(self):
        """The grid's processes this process runs, ascending."""
        return list(self._local)

    def execute_on_devices(self, per_device_arguments):
        """Runs once on this process's devices (while the others run
        theirs) and returns each one's results as Buffers:
        per_device_arguments[i] is local_devices[i]'s arguments."""
        return self._execute(self.local_devices, per_device_arguments)

    def __call__(self, *arrays):
        per_process = self.split_arguments(*arrays)
        mine = self.execute_on_devices([per_process[k] for k in self._local])
        payload = b"".join(np.ascontiguousarray(buffer.numpy()).tobytes()
                           for results in mine for buffer in results)
        gathered = self._job.all_gather(payload, _GATHER_TIMEOUT)
        shapes = [(np.dtype(_types.dtype_of(code)), tuple(dims))
                  for code, dims in self._native.results]
        offsets = [0] * self._job.size
        per_process_results = []
        for device in self._devices:
            rank = device.process_index
            results = []
            for dtype, shape in shapes:
                size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                start = offsets[rank]
                results.append(np.frombuffer(
                    gathered[rank][start:start + size],
                    dtype=dtype).reshape(shape))
                offsets[rank] += size
            per_process_results.append(results)
        globals_ = self.assemble_results(per_process_results)
        return globals_[0] if len(globals_) == 1 else globals_

    def __repr__(self):
        return (f"<polyhal.distributed.DistributedExecutable on "
                f"{len(self._devices)} devices of {self._job.size} processes"
                f", {len(self._local)} here>")
