#include "host_array.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "polyhal/runtime.h"

/* numpy writes headers of a few hundred bytes; a larger length means the
 * file is not what it claims to be. */
#define MAX_HEADER_BYTES 65536

/* The dtypes (numpy's `descr`) that have a Polyhal element type. */
static const struct {
  const char* descr;
  phal_element_type_t element_type;
} kDtypes[] = {
    {"<f4", PHAL_ELEMENT_TYPE_F32},  {"<f8", PHAL_ELEMENT_TYPE_F64},
    {"|b1", PHAL_ELEMENT_TYPE_PRED}, {"|i1", PHAL_ELEMENT_TYPE_S8},
    {"<i2", PHAL_ELEMENT_TYPE_S16},  {"<i4", PHAL_ELEMENT_TYPE_S32},
    {"<i8", PHAL_ELEMENT_TYPE_S64},  {"|u1", PHAL_ELEMENT_TYPE_U8},
    {"<u2", PHAL_ELEMENT_TYPE_U16},  {"<u4", PHAL_ELEMENT_TYPE_U32},
    {"<u8", PHAL_ELEMENT_TYPE_U64},
};
#define DTYPE_COUNT (sizeof(kDtypes) / sizeof(kDtypes[0]))

/* Writes "PATH: message" into `error` and returns 0. */
static int Fail(char* error, size_t error_size, const char* path,
                const char* format, ...) {
  if (error_size == 0) return 0;
  int written = snprintf(error, error_size, "%s: ", path);
  if (written < 0 || (size_t)written >= error_size) return 0;
  va_list arguments;
  va_start(arguments, format);
  vsnprintf(error + written, error_size - (size_t)written, format, arguments);
  va_end(arguments);
  return 0;
}

/* Buffers hold elements in host byte order, and .npy files here are
 * little-endian, so the bytes are copied unchanged only on such a host. */
static int HostIsLittleEndian(void) {
  const uint16_t one = 1;
  unsigned char first_byte = 0;
  memcpy(&first_byte, &one, 1);
  return first_byte == 1;
}

static uint32_t LittleEndian(const unsigned char* bytes, size_t count) {
  uint32_t value = 0;
  for (size_t i = count; i > 0; --i) value = (value << 8) | bytes[i - 1];
  return value;
}

/* Reads the magic, version and header of a .npy file into a NUL-terminated
 * string the caller frees. */
static int ReadHeader(FILE* file, const char* path, char** out_header,
                      char* error, size_t error_size) {
  unsigned char prefix[8];
  if (fread(prefix, 1, sizeof(prefix), file) != sizeof(prefix) ||
      memcmp(prefix, "\x93NUMPY", 6) != 0) {
    return Fail(error, error_size, path,
                "not a .npy file (it does not start with \\x93NUMPY)");
  }
  if (prefix[6] != 1 && prefix[6] != 2) {
    return Fail(error, error_size, path,
                ".npy format version %u.%u is not read (1.0 and 2.0 are)",
                prefix[6], prefix[7]);
  }
  unsigned char length_bytes[4];
  size_t length_size = prefix[6] == 1 ? 2 : 4;
  if (fread(length_bytes, 1, length_size, file) != length_size) {
    return Fail(error, error_size, path, "the header length is cut short");
  }
  uint32_t length = LittleEndian(length_bytes, length_size);
  if (length == 0 || length > MAX_HEADER_BYTES) {
    return Fail(error, error_size, path,
                "a header of %lu bytes is not a numpy header",
                (unsigned long)length);
  }
  char* header = malloc((size_t)length + 1);
  if (header == NULL) return Fail(error, error_size, path, "out of memory");
  if (fread(header, 1, length, file) != length) {
    free(header);
    return Fail(error, error_size, path, "the header is cut short");
  }
  header[length] = '\0';
  *out_header = header;
  return 1;
}

static const char* SkipSpaces(const char* text) {
  while (*text == ' ' || *text == '\t' || *text == '\n') ++text;
  return text;
}

/* The text after "'key':" in the header dictionary, or NULL. */
static const char* FindValue(const char* header, const char* key) {
  char quoted[32];
  snprintf(quoted, sizeof(quoted), "'%s'", key);
  const char* found = strstr(header, quoted);
  if (found == NULL) return NULL;
  const char* colon = SkipSpaces(found + strlen(quoted));
  return *colon == ':' ? SkipSpaces(colon + 1) : NULL;
}

static int ParseDescr(const char* header, const char* path, host_array_t* out,
                      char* error, size_t error_size) {
  const char* value = FindValue(header, "descr");
  const char* end =
      value != NULL && *value == '\'' ? strchr(value + 1, '\'') : NULL;
  char descr[16];
  size_t length = end != NULL ? (size_t)(end - value - 1) : 0;
  if (length == 0 || length >= sizeof(descr)) {
    return Fail(error, error_size, path, "the header has no readable 'descr'");
  }
  memcpy(descr, value + 1, length);
  descr[length] = '\0';
  for (size_t i = 0; i < DTYPE_COUNT; ++i) {
    if (strcmp(descr, kDtypes[i].descr) == 0) {
      out->element_type = kDtypes[i].element_type;
      return 1;
    }
  }
  return Fail(error, error_size, path,
              "dtype '%s' is not read; the samples read little-endian "
              "f32, f64, bool and 8- to 64-bit integers",
              descr);
}

static int ParseFortranOrder(const char* header, const char* path, char* error,
                             size_t error_size) {
  const char* value = FindValue(header, "fortran_order");
  if (value != NULL && strncmp(value, "False", 5) == 0) return 1;
  if (value != NULL && strncmp(value, "True", 4) == 0) {
    return Fail(error, error_size, path,
                "the array is in Fortran order; save "
                "numpy.ascontiguousarray(a) instead");
  }
  return Fail(error, error_size, path,
              "the header has no readable 'fortran_order'");
}

/* Reads one non-negative decimal dimension, refusing overflow. */
static const char* ParseDim(const char* text, int64_t* out_dim) {
  int64_t dim = 0;
  const char* start = text;
  for (; *text >= '0' && *text <= '9'; ++text) {
    int digit = *text - '0';
    if (dim > (INT64_MAX - digit) / 10) return NULL;
    dim = dim * 10 + digit;
  }
  if (text == start) return NULL;
  *out_dim = dim;
  return text;
}

/* Reads a Python tuple of dims: "()", "(5,)", "(8, 32)". */
static int ParseShape(const char* header, const char* path, host_array_t* out,
                      char* error, size_t error_size) {
  const char* text = FindValue(header, "shape");
  if (text == NULL || *text != '(') {
    return Fail(error, error_size, path, "the header has no readable 'shape'");
  }
  text = SkipSpaces(text + 1);
  while (*text != ')') {
    if (out->rank == HOST_ARRAY_MAX_RANK) {
      return Fail(error, error_size, path, "rank above %d is not read",
                  HOST_ARRAY_MAX_RANK);
    }
    text = ParseDim(text, &out->dims[out->rank]);
    if (text == NULL) {
      return Fail(error, error_size, path,
                  "the 'shape' is not a tuple of sizes");
    }
    ++out->rank;
    text = SkipSpaces(text);
    if (*text == ',') {
      text = SkipSpaces(text + 1);
    } else if (*text != ')') {
      return Fail(error, error_size, path,
                  "the 'shape' is not a tuple of sizes");
    }
  }
  return 1;
}

/* The bytes left in `file` after the current position, or -1. */
static long RemainingBytes(FILE* file) {
  long here = ftell(file);
  if (here < 0 || fseek(file, 0, SEEK_END) != 0) return -1;
  long end = ftell(file);
  if (end < 0 || fseek(file, here, SEEK_SET) != 0) return -1;
  return end - here;
}

/* Checks that the data is exactly as large as the shape says before
 * allocating, so a corrupt header cannot ask for terabytes. */
static int ReadData(FILE* file, const char* path, host_array_t* out,
                    char* error, size_t error_size) {
  size_t element_size = phal_element_type_byte_size(out->element_type);
  size_t byte_size = element_size;
  for (uint32_t i = 0; i < out->rank; ++i) {
    uint64_t dim = (uint64_t)out->dims[i];
    if (dim != 0 && byte_size > SIZE_MAX / dim) {
      return Fail(error, error_size, path, "the shape is too large");
    }
    byte_size *= (size_t)dim;
  }
  char shape[128];
  host_array_format_shape(out->element_type, out->rank, out->dims, shape,
                          sizeof(shape));
  long remaining = RemainingBytes(file);
  if (remaining < 0) {
    return Fail(error, error_size, path, "cannot tell its size: %s",
                strerror(errno));
  }
  if ((uint64_t)remaining != (uint64_t)byte_size) {
    return Fail(error, error_size, path,
                "holds %ld bytes of data but its shape %s takes %zu", remaining,
                shape, byte_size);
  }
  out->data = malloc(byte_size > 0 ? byte_size : 1);
  if (out->data == NULL) {
    return Fail(error, error_size, path, "out of memory for %s", shape);
  }
  out->byte_size = byte_size;
  if (fread(out->data, 1, byte_size, file) != byte_size) {
    return Fail(error, error_size, path, "read error: %s", strerror(errno));
  }
  return 1;
}

int host_array_read_npy(const char* path, host_array_t* out, char* error,
                        size_t error_size) {
  memset(out, 0, sizeof(*out));
  if (!HostIsLittleEndian()) {
    return Fail(error, error_size, path, "big-endian hosts are not supported");
  }
  FILE* file = fopen(path, "rb");
  if (file == NULL) {
    return Fail(error, error_size, path, "cannot open: %s", strerror(errno));
  }
  char* header = NULL;
  int ok = ReadHeader(file, path, &header, error, error_size) &&
           ParseDescr(header, path, out, error, error_size) &&
           ParseFortranOrder(header, path, error, error_size) &&
           ParseShape(header, path, out, error, error_size) &&
           ReadData(file, path, out, error, error_size);
  free(header);
  fclose(file);
  if (!ok) host_array_free(out);
  return ok;
}

void host_array_free(host_array_t* array) {
  free(array->data);
  memset(array, 0, sizeof(*array));
}

size_t host_array_element_count(const host_array_t* array) {
  size_t count = 1;
  for (uint32_t i = 0; i < array->rank; ++i) count *= (size_t)array->dims[i];
  return count;
}

int host_array_has_shape(const host_array_t* array,
                         phal_element_type_t element_type, uint32_t rank,
                         const int64_t* dims) {
  if (array->element_type != element_type || array->rank != rank) return 0;
  for (uint32_t i = 0; i < rank; ++i) {
    if (array->dims[i] != dims[i]) return 0;
  }
  return 1;
}

/* Appends to `text` at *used, keeping it NUL-terminated. */
static void Append(char* text, size_t text_size, size_t* used,
                   const char* format, ...) {
  if (*used >= text_size) return;
  va_list arguments;
  va_start(arguments, format);
  int written = vsnprintf(text + *used, text_size - *used, format, arguments);
  va_end(arguments);
  if (written > 0) *used += (size_t)written;
}

void host_array_format_shape(phal_element_type_t element_type, uint32_t rank,
                             const int64_t* dims, char* text,
                             size_t text_size) {
  size_t used = 0;
  Append(text, text_size, &used, "%s[", phal_element_type_name(element_type));
  for (uint32_t i = 0; i < rank; ++i) {
    Append(text, text_size, &used, "%s%lld", i > 0 ? "," : "",
           (long long)dims[i]);
  }
  Append(text, text_size, &used, "]");
}

int host_array_value(phal_element_type_t element_type, const void* data,
                     size_t index, double* out_value) {
  switch (element_type) {
    case PHAL_ELEMENT_TYPE_PRED:
    case PHAL_ELEMENT_TYPE_U8:
      *out_value = ((const uint8_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_S8:
      *out_value = ((const int8_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_S16:
      *out_value = ((const int16_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_S32:
      *out_value = ((const int32_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_S64:
      *out_value = (double)((const int64_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_U16:
      *out_value = ((const uint16_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_U32:
      *out_value = ((const uint32_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_U64:
      *out_value = (double)((const uint64_t*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_F32:
      *out_value = ((const float*)data)[index];
      return 1;
    case PHAL_ELEMENT_TYPE_F64:
      *out_value = ((const double*)data)[index];
      return 1;
    default:
      return 0;
  }
}

/* Stores `value` as element `index`; returns 0 for the types without a
 * conversion, as host_array_value. */
static int StoreValue(phal_element_type_t element_type, void* data,
                      size_t index, double value) {
  switch (element_type) {
    case PHAL_ELEMENT_TYPE_PRED:
    case PHAL_ELEMENT_TYPE_U8:
      ((uint8_t*)data)[index] = (uint8_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_S8:
      ((int8_t*)data)[index] = (int8_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_S16:
      ((int16_t*)data)[index] = (int16_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_S32:
      ((int32_t*)data)[index] = (int32_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_S64:
      ((int64_t*)data)[index] = (int64_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_U16:
      ((uint16_t*)data)[index] = (uint16_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_U32:
      ((uint32_t*)data)[index] = (uint32_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_U64:
      ((uint64_t*)data)[index] = (uint64_t)value;
      return 1;
    case PHAL_ELEMENT_TYPE_F32:
      ((float*)data)[index] = (float)value;
      return 1;
    case PHAL_ELEMENT_TYPE_F64:
      ((double*)data)[index] = value;
      return 1;
    default:
      return 0;
  }
}

/* Element `index` of the pattern host_array_fill_pattern writes. */
static double PatternValue(phal_element_type_t element_type, size_t index) {
  double step = (double)(index * 7 % 17) - 8;
  switch (element_type) {
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_F64:
      return step / 8;
    case PHAL_ELEMENT_TYPE_PRED:
      return (double)(index % 2);
    case PHAL_ELEMENT_TYPE_U8:
    case PHAL_ELEMENT_TYPE_U16:
    case PHAL_ELEMENT_TYPE_U32:
    case PHAL_ELEMENT_TYPE_U64:
      return step + 8;
    default:
      return step;
  }
}

void host_array_fill_pattern(phal_element_type_t element_type, void* data,
                             size_t count) {
  memset(data, 0, count * phal_element_type_byte_size(element_type));
  for (size_t i = 0; i < count; ++i) {
    if (!StoreValue(element_type, data, i, PatternValue(element_type, i))) {
      return;
    }
  }
}
