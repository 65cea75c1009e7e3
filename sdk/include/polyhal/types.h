/*
 * Polyhal ABI 1.14 (1.0-1.14) -- types shared by applications (runtime.h) and
 * plugins (plugin.h).
 *
 * Rules that hold for every declaration under sdk/include/polyhal:
 *   - Everything is plain C11; no C++ type, STL object or exception crosses
 *     the ABI.
 *   - Every extensible struct starts with `uint32_t struct_size`, set by
 *     whoever fills the struct in, and (where growth is expected) a
 *     `const void* next` extension chain: NULL, or typed extension structs
 *     built and walked as extension.h says (ABI 1.3; NULL before).
 *   - Structs and enums are append-only: a minor version adds members at the
 *     end; only a major version removes or reorders. docs/abi.md has the full
 *     compatibility rules.
 */
#ifndef POLYHAL_TYPES_H_
#define POLYHAL_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#include "polyhal/extension.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Versions are packed as (major << 16) | minor. */
#define PHAL_MAKE_VERSION(major, minor) \
  ((uint32_t)(((uint32_t)(major) << 16) | ((uint32_t)(minor)&0xFFFFu)))
#define PHAL_VERSION_MAJOR(version) ((uint32_t)(version) >> 16)
#define PHAL_VERSION_MINOR(version) ((uint32_t)(version)&0xFFFFu)

/* The ABI version these headers describe. */
#define PHAL_ABI_VERSION_MAJOR 1
#define PHAL_ABI_VERSION_MINOR 14
#define PHAL_ABI_VERSION \
  PHAL_MAKE_VERSION(PHAL_ABI_VERSION_MAJOR, PHAL_ABI_VERSION_MINOR)

/* The size of `type` up to and including `last_member`: the struct_size
 * of a caller built when `last_member` was the struct's last, and the
 * smallest struct_size a reader must see before it reads that member.
 *   if (options->struct_size < PHAL_STRUCT_SIZE(phal_compile_options_t,
 *                                               source_name)) ...
 * (ABI 1.5; a macro, so usable with the headers of any earlier version.) */
#define PHAL_STRUCT_SIZE(type, last_member) \
  (offsetof(type, last_member) + sizeof(((type*)0)->last_member))

/* Symbol visibility for libpolyhal and for plugin entry points. */
#if defined(_WIN32)
#define PHAL_EXPORT __declspec(dllexport)
#define PHAL_IMPORT __declspec(dllimport)
#else
#define PHAL_EXPORT __attribute__((visibility("default")))
#define PHAL_IMPORT
#endif

#if defined(PHAL_BUILDING_CORE)
#define PHAL_API PHAL_EXPORT
#else
#define PHAL_API PHAL_IMPORT
#endif

/*
 * Status codes, numbered as absl::StatusCode and gRPC codes are, so that a
 * framework can map them one to one.
 */
typedef enum phal_status_code {
  PHAL_OK = 0,
  PHAL_CANCELLED = 1,
  PHAL_UNKNOWN = 2,
  PHAL_INVALID_ARGUMENT = 3,
  PHAL_DEADLINE_EXCEEDED = 4,
  PHAL_NOT_FOUND = 5,
  PHAL_ALREADY_EXISTS = 6,
  PHAL_PERMISSION_DENIED = 7,
  PHAL_RESOURCE_EXHAUSTED = 8,
  PHAL_FAILED_PRECONDITION = 9,
  PHAL_ABORTED = 10,
  PHAL_OUT_OF_RANGE = 11,
  PHAL_UNIMPLEMENTED = 12,
  PHAL_INTERNAL = 13,
  PHAL_UNAVAILABLE = 14,
  PHAL_DATA_LOSS = 15,
  PHAL_UNAUTHENTICATED = 16
} phal_status_code_t;

/*
 * An error: a code and a message. NULL means success everywhere a
 * `phal_status_t*` is returned. Statuses are created by libpolyhal (plugins
 * create them through phal_host_services_t::status_create), so one function,
 * phal_status_free(), frees every status whoever made it. A function that
 * returns a non-NULL status transfers ownership of it to the caller.
 */
typedef struct phal_status phal_status_t;

/*
 * Element types. The numeric values are part of the ABI and never change.
 */
typedef enum phal_element_type {
  PHAL_ELEMENT_TYPE_INVALID = 0,
  PHAL_ELEMENT_TYPE_PRED = 1, /* bool stored in one byte, 0 or 1 */
  PHAL_ELEMENT_TYPE_S8 = 2,
  PHAL_ELEMENT_TYPE_S16 = 3,
  PHAL_ELEMENT_TYPE_S32 = 4,
  PHAL_ELEMENT_TYPE_S64 = 5,
  PHAL_ELEMENT_TYPE_U8 = 6,
  PHAL_ELEMENT_TYPE_U16 = 7,
  PHAL_ELEMENT_TYPE_U32 = 8,
  PHAL_ELEMENT_TYPE_U64 = 9,
  PHAL_ELEMENT_TYPE_F16 = 10,  /* IEEE 754 binary16 */
  PHAL_ELEMENT_TYPE_BF16 = 11, /* bfloat16: the upper half of a binary32 */
  PHAL_ELEMENT_TYPE_F32 = 12,
  PHAL_ELEMENT_TYPE_F64 = 13,
  PHAL_ELEMENT_TYPE_C64 = 14,  /* two f32: real, then imaginary */
  PHAL_ELEMENT_TYPE_C128 = 15, /* two f64: real, then imaginary */
  PHAL_ELEMENT_TYPE_COUNT = 16 /* one past the last; grows with new types */
} phal_element_type_t;

/* Bit for an element type in a 64-bit support mask. */
#define PHAL_ELEMENT_TYPE_BIT(type) ((uint64_t)1 << (uint32_t)(type))

/* What kind of hardware a device is. */
typedef enum phal_device_kind {
  PHAL_DEVICE_KIND_UNKNOWN = 0,
  PHAL_DEVICE_KIND_CPU = 1,
  PHAL_DEVICE_KIND_GPU = 2,
  PHAL_DEVICE_KIND_ACCELERATOR = 3
} phal_device_kind_t;

/* What kind of memory a memory space is. */
typedef enum phal_memory_kind {
  PHAL_MEMORY_KIND_DEVICE = 0,      /* device-local memory */
  PHAL_MEMORY_KIND_HOST_SHARED = 1, /* host memory the device reaches */
  PHAL_MEMORY_KIND_UNIFIED = 2      /* one address space for both */
} phal_memory_kind_t;

/* Device capability flags (phal_device_properties_t::flags). */
#define PHAL_DEVICE_FLAG_ASYNC_STREAMS ((uint64_t)1 << 0)
/* Device memory is directly addressable by the host. */
#define PHAL_DEVICE_FLAG_HOST_ADDRESSABLE ((uint64_t)1 << 1)
/* ABI 1.4: a compile-only device (phal_client_open_target_device): it
 * compiles and serializes executables for its target but holds no memory
 * and runs nothing. */
#define PHAL_DEVICE_FLAG_COMPILE_ONLY ((uint64_t)1 << 2)

/*
 * Properties of one device, filled in by phal_device_get_properties()
 * (applications) or phal_plugin_api_t::device_get_properties (plugins).
 *
 * The caller sets struct_size to sizeof(phal_device_properties_t) as it knows
 * it; the filler writes only members that fit in that size. String members
 * are owned by the device and valid until the device's owner (the client for
 * applications, the plugin for the core) is destroyed; they are UTF-8 and
 * never NULL (empty when unknown).
 */
typedef struct phal_device_properties {
  uint32_t struct_size;
  const void* next;
  const char* name;           /* marketing or model name */
  const char* vendor;         /* hardware vendor */
  const char* driver_version; /* version of the driver or runtime used */
  const char* features;       /* space-separated ISA or extension names */
  phal_device_kind_t kind;
  uint32_t ordinal;              /* index of the device within its plugin */
  uint32_t compute_units;        /* cores, SMs, CUs, ... */
  uint32_t memory_space_count;   /* memory spaces; index 0 is the default */
  uint64_t memory_bytes;         /* total memory of the default memory space */
  uint64_t max_allocation_bytes; /* largest single buffer */
  uint64_t min_alignment;        /* alignment of every buffer, in bytes */
  uint64_t element_types; /* PHAL_ELEMENT_TYPE_BIT mask of supported types */
  uint64_t flags;         /* PHAL_DEVICE_FLAG_* */
  uint8_t uuid[16];       /* stable identity; all zero when unknown */
  /* ABI 1.1: PHAL_KERNEL_KIND_BIT mask of the kernel kinds the device
   * compiles (kernel.h); 0 for a device that runs no kernels. */
  uint64_t kernel_kinds;
} phal_device_properties_t;

/*
 * One memory space of a device. Strings follow the ownership rule of
 * phal_device_properties_t.
 */
typedef struct phal_memory_space_info {
  uint32_t struct_size;
  const void* next;
  const char* name; /* e.g. "device", "host-pinned" */
  phal_memory_kind_t kind;
  uint64_t capacity_bytes;
} phal_memory_space_info_t;

/*
 * ABI 1.5: one performance counter of a device (phal_device_get_counters,
 * plugin.h's device_get_counters). Counters come in arrays, so this is a
 * fixed record, not an extensible struct: it has no struct_size and never
 * grows; what a later version adds are counter names, not members.
 *
 * A counter counts the work of the device that has finished since the
 * device was opened or its counters were last reset. Strings are UTF-8,
 * never NULL, and live in the same block as the array (see the functions
 * returning it).
 */
typedef struct phal_device_counter {
  /* What is counted, a dotted lower-case name: "cycles", "launches",
   * "busy.matrix", "utilization.matrix", "dram.bytes_read" (docs/abi.md
   * lists the names with a shared meaning; a plugin may add its own). */
  const char* name;
  /* "" for the device's totals; otherwise the name of the kernel
   * (phal_kernel_desc_t::name) whose launches the counter sums. */
  const char* kernel;
  /* The unit of `value`: "cycles", "bytes", "count" or "ratio" (a fraction
   * in [0, 1], which does not add up over runs). */
  const char* unit;
  double value;
} phal_device_counter_t;

/* Severity of a log message. */
typedef enum phal_log_level {
  PHAL_LOG_LEVEL_ERROR = 0,
  PHAL_LOG_LEVEL_WARNING = 1,
  PHAL_LOG_LEVEL_INFO = 2,
  PHAL_LOG_LEVEL_DEBUG = 3
} phal_log_level_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_TYPES_H_ */
