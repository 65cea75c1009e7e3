/*
 * Arrays in host memory for the samples: reading them from NumPy .npy files,
 * naming their shapes ("f32[8,32]") and reading their elements.
 *
 * The reader takes what numpy.save writes for numeric arrays: format
 * versions 1.0 and 2.0 (3.0 differs only for structured dtypes, which have
 * no element type), little-endian or single-byte dtypes, C order. Anything
 * else is refused with a message naming the file; nothing here aborts or
 * reads past the end of a file.
 */
#ifndef POLYHAL_SAMPLES_HOST_ARRAY_H_
#define POLYHAL_SAMPLES_HOST_ARRAY_H_

#include <stddef.h>
#include <stdint.h>

#include "polyhal/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deeper arrays are refused when read. */
#define HOST_ARRAY_MAX_RANK 8

/* A dense row-major array. An array filled with zeros is empty: it owns
 * nothing and may be freed. */
typedef struct host_array {
  phal_element_type_t element_type;
  uint32_t rank;
  int64_t dims[HOST_ARRAY_MAX_RANK];
  void* data; /* owned; byte_size bytes */
  size_t byte_size;
} host_array_t;

/* Reads the .npy file at `path` into `out`, which the caller frees with
 * host_array_free. Returns 1 on success. On failure returns 0, leaves `out`
 * empty and writes a message that starts with `path` into `error`
 * (`error_size` bytes, always NUL-terminated when error_size > 0). */
int host_array_read_npy(const char* path, host_array_t* out, char* error,
                        size_t error_size);

/* Frees the data of `array` and leaves it empty. */
void host_array_free(host_array_t* array);

/* The product of the dims: 1 for a scalar. */
size_t host_array_element_count(const host_array_t* array);

/* Whether `array` has exactly this element type and these dims. */
int host_array_has_shape(const host_array_t* array,
                         phal_element_type_t element_type, uint32_t rank,
                         const int64_t* dims);

/* Writes a shape the way HLO prints one, "f32[8,32]" or "s32[]", into
 * `text` (`text_size` bytes, NUL-terminated, cut short if too small). */
void host_array_format_shape(phal_element_type_t element_type, uint32_t rank,
                             const int64_t* dims, char* text, size_t text_size);

/* Reads element `index` of an array of `element_type` at `data`, which is
 * aligned for that type (as malloc'd memory is), as a double. Returns 0,
 * writing nothing, for the types the samples do not print: f16, bf16 and
 * the complex types. */
int host_array_value(phal_element_type_t element_type, const void* data,
                     size_t index, double* out_value);

/* Fills `count` elements of `element_type` at `data` (aligned for the type)
 * with a pattern that repeats every 17 elements, the same on every run and
 * small enough to keep a model's arithmetic finite: (i * 7 % 17 - 8) / 8
 * for floats, the integer i * 7 % 17 - 8 for signed types (plus 8 for
 * unsigned ones), i % 2 for pred; zero bytes for f16, bf16 and complex. */
void host_array_fill_pattern(phal_element_type_t element_type, void* data,
                             size_t count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_SAMPLES_HOST_ARRAY_H_ */
