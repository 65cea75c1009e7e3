"""The reference interpreter and the conformance suite, through the polyhal
command: the C API reaches plugins only, and the command is how Polyhal
ships both (docs/cli.md)."""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _polyhal, _runtime, _types
from ._errors import Error


def command_path():
    """The polyhal command beside the libpolyhal this package uses
    (<prefix>/lib/libpolyhal.so -> <prefix>/bin/polyhal), else the one on
    PATH."""
    library = _polyhal.library_path()
    if library:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(library)))
        beside = os.path.join(prefix, "bin", "polyhal")
        if os.access(beside, os.X_OK):
            return beside
    on_path = shutil.which("polyhal")
    if on_path:
        return on_path
    raise Error("NOT_FOUND",
                "the polyhal command was found neither beside "
                f"{library or 'libpolyhal'} nor on PATH")


def _run(arguments):
    return subprocess.run([command_path(), *arguments], capture_output=True,
                          text=True, check=False)


def _load_output(path):
    array = np.load(path, allow_pickle=False)
    if array.dtype == np.dtype("V2"):
        array = array.view(_types.dtype_of(_types.BF16))
    return array


def reference(module, *arrays):
    """Runs `module` (HLO or StableHLO text, or a path) on the reference
    interpreter, the oracle that follows the StableHLO specification, and
    returns its results as compile(module)(*arrays) does."""
    text, format_code, _ = _runtime.load_module(module)
    with tempfile.TemporaryDirectory(prefix="polyhal-reference-") as work:
        suffix = ".mlir" if format_code == _runtime.STABLEHLO else ".hlo"
        path = os.path.join(work, "module" + suffix)
        with open(path, "wb") as file:
            file.write(text if isinstance(text, bytes) else text.encode())
        arguments = ["run", path, "--plugin", "reference"]
        for i, array in enumerate(arrays):
            input_path = os.path.join(work, f"input_{i}.npy")
            np.save(input_path, np.asarray(array), allow_pickle=False)
            arguments += ["--input", input_path]
        output_dir = os.path.join(work, "outputs")
        arguments += ["--output-dir", output_dir]
        done = _run(arguments)
        if done.returncode != 0:
            message = (done.stderr.strip().replace(path, "<module>")
                       .replace(work + os.sep, ""))
            raise Error("INVALID_ARGUMENT" if done.returncode == 1 else
                        "INTERNAL", message or f"polyhal run exited "
                        f"{done.returncode}")
        count = len([name for name in os.listdir(output_dir)
                     if name.startswith("output_")])
        results = [_load_output(os.path.join(output_dir, f"output_{i}.npy"))
                   for i in range(count)]
    return results[0] if len(results) == 1 else results


def conformance(plugin, tier=3, filter=None, jobs=1, isolate=False,
                timeout=None, report_dir=None):
    """Certifies `plugin` (a name or a manifest path) at `tier` and returns
    the report, as `polyhal conformance` writes it to report.json
    (docs/conformance.md): settings, results per case, verdict.

    `filter` is a glob or a list of globs over case names; `report_dir`,
    when given, keeps report.json and report.html there."""
    arguments = ["conformance", "--plugin", str(plugin), "--tier", str(tier),
                 "--jobs", str(jobs)]
    if filter:
        globs = [filter] if isinstance(filter, str) else list(filter)
        arguments += ["--filter", ",".join(globs)]
    if isolate:
        arguments.append("--isolate")
    if timeout is not None:
        arguments += ["--timeout", str(timeout)]
    with tempfile.TemporaryDirectory(prefix="polyhal-conformance-") as work:
        directory = report_dir or work
        done = _run(arguments + ["--report", os.fspath(directory)])
        report_path = os.path.join(directory, "report.json")
        if not os.path.exists(report_path):
            # Exit 2 is a usage error (a bad tier or filter); 1 without a
            # report, a plugin that could not be opened.
            raise Error("INVALID_ARGUMENT" if done.returncode == 2 else
                        "FAILED_PRECONDITION",
                        done.stderr.strip() or
                        f"polyhal conformance exited {done.returncode} "
                        "without a report")
        with open(report_path, encoding="utf-8") as file:
            return json.load(file)
