# Writes, beside each StableHLO program of core/frontend/testdata/stablehlo
# named on the command line, the HLO text XLA converts it to (NAME.hlo), as
# jax's Lowered.as_text(dialect="hlo") does: for programs exported without
# their JAX source, so both front ends run the same program on the same
# inputs and outputs. A development tool only: building and testing
# Polyhal never runs it.
#   build/python-venv/bin/python scripts/export_hlo_text.py jax_scipy_special
import os
import sys

from jax._src.lib import _jax

testdata = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "core", "frontend", "testdata", "stablehlo")
for name in sys.argv[1:]:
    with open(os.path.join(testdata, name + ".mlir")) as file:
        computation = _jax.mlir.mlir_module_to_xla_computation(
            file.read(), use_tuple_args=False, return_tuple=False)
    with open(os.path.join(testdata, name + ".hlo"), "w") as file:
        file.write(computation.as_hlo_text())
