#!/usr/bin/env python3
"""Fetches the PJRT C API header into DEST/xla/pjrt/c/pjrt_c_api.h.

    python3 scripts/fetch_pjrt_header.py DEST

The header is not part of Polyhal's tree: it comes from the pinned PyPI
wheel that ships it (xla-cpu-pjrt), taken from that wheel when this
interpreter has it installed (pip's isolated build of `pip install .`),
else downloaded with pip and unpacked, and checked against its SHA-256. CMake runs this when the header is missing
(sdk/pjrt/CMakeLists.txt); without network or pip it says why and exits 0,
and the PJRT plugin is skipped.
"""
import hashlib
import pathlib
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "xla-cpu-pjrt==0.0.1"
MEMBER = "xla_plugins/xla_cpu_pjrt/include/pjrt_c_api.h"
SHA256 = "c85bb95cb1743c2a353a555b3ab35f065e5f17007c7f182ad68d23754950235c"


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    target = pathlib.Path(sys.argv[1]) / "xla" / "pjrt" / "c" / "pjrt_c_api.h"
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == SHA256:
        return 0
    header = installed_header()
    if header is None:
        header = downloaded_header()
    if header is None:
        return 0
    digest = hashlib.sha256(header).hexdigest()
    if digest != SHA256:
        print("fetch_pjrt_header: %s of %s has SHA-256 %s, not the pinned %s; "
              "the PJRT plugin is skipped" % (MEMBER, WHEEL, digest, SHA256),
              file=sys.stderr)
        return 0
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(header)
    print("fetch_pjrt_header: %s from %s" % (target, WHEEL))
    return 0


def installed_header():
    """The header of the wheel installed in this interpreter (pip's build
    environment has it: pyproject.toml lists it as a build requirement)."""
    try:
        import xla_plugins.xla_cpu_pjrt as package
    except ImportError:
        return None
    path = pathlib.Path(package.__file__).parent / "include" / "pjrt_c_api.h"
    return path.read_bytes() if path.exists() else None


def downloaded_header():
    """The header of the wheel, downloaded with pip and unpacked."""
    with tempfile.TemporaryDirectory() as scratch:
        command = [sys.executable, "-m", "pip", "download", "--quiet",
                   "--disable-pip-version-check", "--no-deps",
                   "--only-binary=:all:", "--dest", scratch, WHEEL]
        result = subprocess.run(command, capture_output=True, text=True)
        wheels = list(pathlib.Path(scratch).glob("*.whl"))
        if result.returncode != 0 or not wheels:
            print("fetch_pjrt_header: could not download %s with pip (%s); "
                  "the PJRT plugin is skipped" %
                  (WHEEL, (result.stderr.strip().splitlines() or ["no wheel"])[-1]),
                  file=sys.stderr)
            return None
        return zipfile.ZipFile(wheels[0]).read(MEMBER)


if __name__ == "__main__":
    sys.exit(main())
