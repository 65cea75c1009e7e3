"""Polyhal element types and their numpy dtypes."""
import numpy as np

from . import _polyhal
from ._errors import Error

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

# Element type codes of polyhal/types.h.
PRED, S8, S16, S32, S64, U8, U16, U32, U64 = range(1, 10)
F16, BF16, F32, F64, C64, C128 = range(10, 16)

_DTYPES = {
    PRED: np.dtype(np.bool_),
    S8: np.dtype(np.int8),
    S16: np.dtype(np.int16),
    S32: np.dtype(np.int32),
    S64: np.dtype(np.int64),
    U8: np.dtype(np.uint8),
    U16: np.dtype(np.uint16),
    U32: np.dtype(np.uint32),
    U64: np.dtype(np.uint64),
    F16: np.dtype(np.float16),
    F32: np.dtype(np.float32),
    F64: np.dtype(np.float64),
    C64: np.dtype(np.complex64),
    C128: np.dtype(np.complex128),
}
if ml_dtypes is not None:
    _DTYPES[BF16] = np.dtype(ml_dtypes.bfloat16)

_CODES = {dtype: code for code, dtype in _DTYPES.items()}


def type_name(code):
    """The Polyhal name of an element type code: "f32", "bf16", ..."""
    return _polyhal.element_type_name(code)


def shape_text(code, dims):
    """A shape as Polyhal's messages write it: f32[2,3]."""
    return f"{type_name(code)}[{','.join(str(d) for d in dims)}]"


def describe(array):
    """An array's dtype and shape as Polyhal writes shapes, f64[2,3], or
    with numpy's dtype name when Polyhal has no such type."""
    code = _CODES.get(array.dtype)
    if code is None:
        return f"{array.dtype}[{','.join(str(d) for d in array.shape)}]"
    return shape_text(code, array.shape)


def dtype_of(code):
    """The numpy dtype of an element type code."""
    dtype = _DTYPES.get(code)
    if dtype is None:
        if code == BF16:
            raise Error("UNIMPLEMENTED",
                        "bf16 arrays need the ml_dtypes package "
                        "(pip install ml_dtypes)")
        raise Error("INVALID_ARGUMENT", f"unknown element type code {code}")
    return dtype


def code_of(dtype):
    """The element type code of a numpy dtype."""
    dtype = np.dtype(dtype)
    code = _CODES.get(dtype)
    if code is None:
        raise Error("INVALID_ARGUMENT",
                    f"numpy dtype {dtype} has no Polyhal element type")
    return code
