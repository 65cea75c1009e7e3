// Reading and writing arrays in NumPy's .npy format
// (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html).
//
// Element types map to dtype descriptors as follows: pred '|b1', s8..s64
// 'i1'..'i8', u8..u64 'u1'..'u8', f16 'f2', f32 'f4', f64 'f8', c64 'c8',
// c128 'c16'. NumPy has no bfloat16; ml_dtypes (the package JAX uses) saves
// its bfloat16 arrays with the descriptor '<V2', an anonymous 2-byte void, so
// bf16 is written as '<V2' and any 2-byte void ('<V2', '|V2') reads as bf16.
//
// Reading accepts format versions 1.0, 2.0 and 3.0, little-, big- and
// native-endian descriptors, and C or Fortran order (Fortran-order data is
// transposed into the row-major order literals use). Writing always produces
// version 1.0 (2.0 when the header does not fit in 64 KiB), little-endian, C
// order, with the header padded to a multiple of 64 bytes as NumPy does.
// Every error message names the file (or the in-memory source) and what is
// wrong with it.
#ifndef POLYHAL_CORE_IO_NPY_H_
#define POLYHAL_CORE_IO_NPY_H_

#include <string>
#include <string_view>

#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal {

// Reads the .npy file at `path` into an array literal.
StatusOr<Literal> ReadNpy(const std::string& path);

// Writes the array literal `literal` to `path`, replacing the file. Tuples
// are rejected.
Status WriteNpy(const std::string& path, const Literal& literal);

// In-memory variants: `bytes` holds a whole .npy file; `source_name` is what
// error messages call it.
StatusOr<Literal> DecodeNpy(std::string_view bytes,
                            std::string_view source_name = "<memory>");
StatusOr<std::string> EncodeNpy(const Literal& literal);

}  // namespace phal

#endif  // POLYHAL_CORE_IO_NPY_H_
