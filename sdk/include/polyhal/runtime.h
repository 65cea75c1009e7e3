/*
 * Polyhal ABI 1.14 (1.0-1.14) -- the application interface of libpolyhal.
 *
 * A framework creates a client, which discovers and loads plugins (see
 * docs/plugins.md for the search order), lists their devices, allocates
 * buffers on them, moves data with synchronous copies or on streams, and
 * waits on events.
 *
 * Conventions for every function below:
 *   - A function returning phal_status_t* returns NULL on success. A non-NULL
 *     status is owned by the caller, who frees it with phal_status_free().
 *   - `out_` parameters are written only on success.
 *   - Objects are created by `*_create`/`*_allocate` and released by the
 *     matching `*_destroy`/`*_free`, which accept NULL. Devices are owned by
 *     their client and are never freed by the application.
 *   - Strings returned by the library are owned by the object they came from
 *     and stay valid until that object is destroyed.
 *   - All functions are thread-safe: one client, its devices, buffers,
 *     streams and events may be used from many threads at once. Operations
 *     enqueued on one stream run in the order they were enqueued.
 *   - No function aborts on bad input: invalid handles (NULL), sizes or
 *     ranges are answered with PHAL_INVALID_ARGUMENT or PHAL_OUT_OF_RANGE.
 */
#ifndef POLYHAL_RUNTIME_H_
#define POLYHAL_RUNTIME_H_

#include "polyhal/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct phal_client phal_client_t;
typedef struct phal_device phal_device_t;
typedef struct phal_buffer phal_buffer_t;
typedef struct phal_stream phal_stream_t;
typedef struct phal_event phal_event_t;

/* ---- library and statuses ------------------------------------------------ */

/* The ABI version this libpolyhal implements (PHAL_MAKE_VERSION form). An
 * application built against older headers keeps working with a newer library
 * of the same major version. */
PHAL_API uint32_t phal_get_abi_version(void);
/* The release of libpolyhal, e.g. "0.1.0". Static storage. */
PHAL_API const char* phal_get_version_string(void);

/* The code of `status`; PHAL_OK for NULL. */
PHAL_API phal_status_code_t phal_status_get_code(const phal_status_t* status);
/* The message of `status`, owned by the status; "" for NULL. */
PHAL_API const char* phal_status_get_message(const phal_status_t* status);
/* Frees a status; NULL is accepted. */
PHAL_API void phal_status_free(phal_status_t* status);
/* "INVALID_ARGUMENT", ...; static storage; "UNKNOWN_CODE" when out of range. */
PHAL_API const char* phal_status_code_name(phal_status_code_t code);

/* "f32", "bf16", ...; static storage; "invalid" when out of range. */
PHAL_API const char* phal_element_type_name(phal_element_type_t type);
/* Bytes per element; 0 for PHAL_ELEMENT_TYPE_INVALID or an unknown value. */
PHAL_API size_t phal_element_type_byte_size(phal_element_type_t type);

/* ---- client ------------------------------------------------------------ */

/* Receives log messages instead of stderr. Called from any thread; must not
 * call back into libpolyhal. `message` is valid during the call only. */
typedef void (*phal_log_callback_fn)(void* user_data, phal_log_level_t level,
                                     const char* message);

/* Options for phal_client_create. Every pointer member may be NULL. */
typedef struct phal_client_options {
  uint32_t struct_size;
  const void* next;
  /* Replaces the plugin search path, with the syntax of PHAL_PLUGIN_PATH:
   * ':'-separated directories (holding *.json manifests) or manifest files.
   * NULL: the PHAL_PLUGIN_PATH environment variable, else the default path.
   * Copied. */
  const char* plugin_path;
  /* Comma-separated plugin names to keep, like PHAL_PLUGINS. NULL: that
   * environment variable, else every plugin. Copied. */
  const char* plugin_filter;
  /* Log sink and the data passed to it; NULL logs to stderr. */
  phal_log_callback_fn log_callback;
  void* log_user_data;
  /* ABI 1.9: makes the client one process of a job of several (see "jobs
   * of several processes" below); NULL: a job of this process alone. Not
   * copied: it must outlive the client. */
  const struct phal_host_transport* transport;
} phal_client_options_t;

/* Creates a client: searches manifests, loads and negotiates with every
 * plugin found, and opens their devices; with options->transport, it then
 * gathers every process's devices into the job's global device table
 * (every process of the job creates its client at about the same time;
 * PHAL_DEADLINE_EXCEEDED naming the processes that did not within the
 * collective timeout). A plugin that cannot be used is
 * skipped and listed with its reason (phal_client_get_plugin_info); it never
 * makes this function fail. `options` may be NULL. */
PHAL_API phal_status_t* phal_client_create(const phal_client_options_t* options,
                                           phal_client_t** out_client);
/* Waits for all work queued by the client's streams, frees what the
 * application leaked (and logs it as a warning), closes devices and unloads
 * plugins. Every handle obtained from the client becomes invalid. */
PHAL_API void phal_client_destroy(phal_client_t* client);

/* ---- plugins ----------------------------------------------------------- */

typedef enum phal_plugin_state {
  PHAL_PLUGIN_STATE_LOADED = 0, /* loaded and negotiated */
  PHAL_PLUGIN_STATE_SKIPPED = 1 /* not usable; see `reason` */
} phal_plugin_state_t;

/* One manifest the client found. Strings are owned by the client; members
 * the manifest did not give are "". */
typedef struct phal_plugin_info {
  uint32_t struct_size;
  const void* next;
  const char* name;
  const char* description;
  const char* version;       /* the plugin's own release */
  const char* manifest_path; /* absolute path of the JSON manifest */
  const char* library_path;  /* absolute path of the shared library */
  phal_plugin_state_t state;
  uint32_t abi_version;  /* negotiated ABI; 0 when skipped */
  uint32_t device_count; /* devices opened; 0 when skipped */
  /* Why the plugin was skipped, or why a loaded plugin has no device;
   * "" otherwise. */
  const char* reason;
} phal_plugin_info_t;

/* Number of manifests found, loaded or skipped, in search order. */
PHAL_API phal_status_t* phal_client_get_plugin_count(
    const phal_client_t* client, size_t* out_count);
/* Describes manifest `index`; fills `out` up to out->struct_size, which the
 * caller sets. */
PHAL_API phal_status_t* phal_client_get_plugin_info(const phal_client_t* client,
                                                    size_t index,
                                                    phal_plugin_info_t* out);

/* ---- devices ------------------------------------------------------------ */

/* Number of devices over all loaded plugins, in plugin search order. */
PHAL_API phal_status_t* phal_client_get_device_count(
    const phal_client_t* client, size_t* out_count);
/* Device `index`; owned by the client. */
PHAL_API phal_status_t* phal_client_get_device(const phal_client_t* client,
                                               size_t index,
                                               phal_device_t** out_device);
/* Fills `out` up to out->struct_size, which the caller sets. */
PHAL_API phal_status_t* phal_device_get_properties(
    const phal_device_t* device, phal_device_properties_t* out);
/* Describes memory space `index` (< memory_space_count). */
PHAL_API phal_status_t* phal_device_get_memory_space(
    const phal_device_t* device, uint32_t index, phal_memory_space_info_t* out);
/* Index, in phal_client_get_plugin_info order, of the device's plugin. */
PHAL_API phal_status_t* phal_device_get_plugin_index(
    const phal_device_t* device, size_t* out_index);

/* ---- performance counters (ABI 1.5) -------------------------------------- */

/* A snapshot of `device`'s performance counters (types.h,
 * phal_device_counter_t): its totals (kernel "") and per-kernel sums, of
 * the work that has finished on the device since the client opened it or
 * since phal_device_reset_counters. Synchronize the streams (or let
 * phal_executable_execute return) before reading to count all of a run.
 * On success *out_counters points at *out_count counters in one block,
 * strings included, allocated by libpolyhal and owned by the caller, who
 * releases it with phal_free. A device whose plugin counts nothing (every
 * plugin of ABI 1.4 or older), and a compile-only device, has none:
 * *out_count is 0 and *out_counters NULL. Thread-safe. */
PHAL_API phal_status_t* phal_device_get_counters(
    const phal_device_t* device, phal_device_counter_t** out_counters,
    size_t* out_count);
/* Sets `device`'s counters to zero and forgets its per-kernel counters.
 * Work running meanwhile may be counted on either side of the reset;
 * synchronize first for a sharp line. Succeeds, doing nothing, on a device
 * without counters. Thread-safe. */
PHAL_API phal_status_t* phal_device_reset_counters(phal_device_t* device);

/* ---- compile-only devices (ABI 1.4) -------------------------------------- */

/* The targets loaded plugin `plugin_index` compiles for without a device
 * ("sm_80", "host"): *out_names points at *out_count client-owned names,
 * valid until the client is destroyed, the plugin's default target first.
 * A plugin that compiles only for devices it has opened (or predates ABI
 * 1.4) has none: *out_count is 0 and *out_names NULL. A skipped plugin
 * fails with PHAL_FAILED_PRECONDITION naming its reason. */
PHAL_API phal_status_t* phal_client_get_plugin_targets(
    const phal_client_t* client, size_t plugin_index,
    const char* const** out_names, size_t* out_count);
/* A compile-only device of the loaded plugin named `plugin_name` for
 * `target` (NULL or "": the plugin's default target), for which no hardware
 * need be present. phal_executable_compile and phal_executable_serialize
 * work on it; its properties have PHAL_DEVICE_FLAG_COMPILE_ONLY set; it
 * holds no memory and runs nothing: phal_buffer_allocate,
 * phal_stream_create, phal_event_create and phal_executable_execute fail on
 * it with PHAL_FAILED_PRECONDITION. The device is owned by the client, is
 * opened once per plugin and target (a later call returns the same
 * device), and is not counted by phal_client_get_device_count. Fails with
 * PHAL_NOT_FOUND for a plugin not loaded or a target the plugin does not
 * compile for (the message lists its targets), and with PHAL_UNIMPLEMENTED
 * for a plugin that compiles for no target. */
PHAL_API phal_status_t* phal_client_open_target_device(
    phal_client_t* client, const char* plugin_name, const char* target,
    phal_device_t** out_device);

/* ---- buffers ------------------------------------------------------------ */

/* Shape and placement of a buffer: a dense row-major array. */
typedef struct phal_buffer_desc {
  uint32_t struct_size;
  const void* next;
  phal_element_type_t element_type;
  uint32_t rank;
  const int64_t* dims;   /* `rank` sizes, each >= 0; NULL when rank is 0 */
  uint32_t memory_space; /* index into the device's memory spaces; 0 default */
} phal_buffer_desc_t;

/* Allocates an uninitialised buffer. The dims are copied. Fails with
 * PHAL_RESOURCE_EXHAUSTED when the device is out of memory, and with
 * PHAL_INVALID_ARGUMENT for a bad type, negative dim or size overflow. */
PHAL_API phal_status_t* phal_buffer_allocate(phal_device_t* device,
                                             const phal_buffer_desc_t* desc,
                                             phal_buffer_t** out_buffer);
/* Frees a buffer. Work already queued on streams that uses it is waited for
 * first. NULL is accepted. */
PHAL_API void phal_buffer_free(phal_buffer_t* buffer);
/* The buffer's description; out->dims points at buffer-owned storage. */
PHAL_API phal_status_t* phal_buffer_get_desc(const phal_buffer_t* buffer,
                                             phal_buffer_desc_t* out);
/* Size in bytes (element count times element size). */
PHAL_API phal_status_t* phal_buffer_get_byte_size(const phal_buffer_t* buffer,
                                                  uint64_t* out_byte_size);
/* The device the buffer lives on. */
PHAL_API phal_status_t* phal_buffer_get_device(const phal_buffer_t* buffer,
                                               phal_device_t** out_device);

/* Copies `byte_size` bytes of host memory into the buffer at `offset`, and
 * returns when the data is in place. `source` may be NULL if byte_size is 0.
 * The range must lie within the buffer (PHAL_OUT_OF_RANGE otherwise). */
PHAL_API phal_status_t* phal_buffer_copy_from_host(phal_buffer_t* buffer,
                                                   uint64_t offset,
                                                   const void* source,
                                                   uint64_t byte_size);
/* Copies `byte_size` bytes from the buffer at `offset` into host memory and
 * returns when they have arrived. */
PHAL_API phal_status_t* phal_buffer_copy_to_host(const phal_buffer_t* buffer,
                                                 uint64_t offset,
                                                 void* destination,
                                                 uint64_t byte_size);
/* Copies between two buffers, on the same device, on two devices of one
 * plugin, or across plugins (staged through host memory); returns when done.
 * Ranges in one buffer may not overlap. */
PHAL_API phal_status_t* phal_buffer_copy(const phal_buffer_t* source,
                                         uint64_t source_offset,
                                         phal_buffer_t* destination,
                                         uint64_t destination_offset,
                                         uint64_t byte_size);

/* ---- streams ------------------------------------------------------------ */

/* Creates an in-order queue of work on `device`. */
PHAL_API phal_status_t* phal_stream_create(phal_device_t* device,
                                           phal_stream_t** out_stream);
/* Waits for the queued work, then destroys the stream. NULL is accepted. */
PHAL_API void phal_stream_destroy(phal_stream_t* stream);
/* Blocks until all work queued so far has finished; returns the first error
 * that work met, if any. */
PHAL_API phal_status_t* phal_stream_synchronize(phal_stream_t* stream);

/* Enqueues a host-to-buffer copy. `source` must stay valid and unchanged
 * until the copy finishes (synchronize the stream or an event recorded
 * after it). The buffer must be on the stream's device. */
PHAL_API phal_status_t* phal_stream_copy_from_host(phal_stream_t* stream,
                                                   const void* source,
                                                   phal_buffer_t* buffer,
                                                   uint64_t offset,
                                                   uint64_t byte_size);
/* Enqueues a buffer-to-host copy; `destination` must stay valid until it
 * finishes. */
PHAL_API phal_status_t* phal_stream_copy_to_host(phal_stream_t* stream,
                                                 const phal_buffer_t* buffer,
                                                 uint64_t offset,
                                                 void* destination,
                                                 uint64_t byte_size);
/* Enqueues a copy between two buffers of the stream's plugin. For buffers of
 * different plugins use phal_buffer_copy. */
PHAL_API phal_status_t* phal_stream_copy_buffer(phal_stream_t* stream,
                                                const phal_buffer_t* source,
                                                uint64_t source_offset,
                                                phal_buffer_t* destination,
                                                uint64_t destination_offset,
                                                uint64_t byte_size);

/* ---- events ------------------------------------------------------------- */

/* Creates an event on `device`, initially signalled. */
PHAL_API phal_status_t* phal_event_create(phal_device_t* device,
                                          phal_event_t** out_event);
/* Destroys an event; a pending record is dropped safely. NULL is accepted.
 * ABI 1.3: named as phal_stream_destroy is, the pair of phal_event_create. */
PHAL_API void phal_event_destroy(phal_event_t* event);
/* The ABI 1.0 name of phal_event_destroy: the same function, which stays for
 * applications that must also run on a libpolyhal older than 1.3. */
PHAL_API void phal_event_free(phal_event_t* event);
/* Unsignals `event` and signals it once all work queued on `stream` so far
 * has finished. Event and stream must belong to one plugin. */
PHAL_API phal_status_t* phal_stream_record_event(phal_stream_t* stream,
                                                 phal_event_t* event);
/* Makes work queued on `stream` after this call wait for `event`. */
PHAL_API phal_status_t* phal_stream_wait_event(phal_stream_t* stream,
                                               phal_event_t* event);
/* Blocks until `event` is signalled; returns the first error met by the work
 * it waited for, if any. */
PHAL_API phal_status_t* phal_event_synchronize(phal_event_t* event);
/* Sets *out_signalled to 1 when `event` is signalled, else 0. Never blocks. */
PHAL_API phal_status_t* phal_event_query(phal_event_t* event,
                                         int* out_signalled);

/* ---- executables (ABI 1.1) --------------------------------------------- */

typedef struct phal_executable phal_executable_t;

/* The text formats a program may be given in. */
typedef enum phal_program_format {
  PHAL_PROGRAM_FORMAT_HLO_TEXT = 1,      /* XLA HLO text */
  PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT = 2 /* StableHLO MLIR text */
} phal_program_format_t;

/* Options for phal_executable_compile. */
typedef struct phal_compile_options {
  uint32_t struct_size;
  const void* next;
  phal_program_format_t format;
  uint32_t optimization_level; /* 0 to 3; 0 is read as the default, 3 */
  /* Name used in error messages (file:line:column); NULL: "<program>".
   * Copied. */
  const char* source_name;
  /* ABI 1.4. NULL or "": none. Otherwise an existing directory where the
   * device's plugin writes each kernel's device code in its text form (PTX,
   * LLVM IR, assembly, ...), one file per kernel and form, named after the
   * kernel (plugin.h, phal_kernel_options_t::dump_directory). Read during
   * the call only. */
  const char* dump_directory;
} phal_compile_options_t;

/* Parses, verifies and compiles `program` (`program_size` bytes of text,
 * not necessarily NUL-terminated) for `device` (since ABI 1.4 possibly a
 * compile-only device, whose executables serialize but do not execute):
 * the core optimises it,
 * partitions it into kernels (kernel.h) and has the device's plugin emit
 * them. A program the device cannot run fails with PHAL_UNIMPLEMENTED naming
 * what is missing (kernel kind, operation, element type); a malformed one
 * with PHAL_INVALID_ARGUMENT and file:line:column. The executable is owned
 * by the caller and must be freed before its client is destroyed. */
PHAL_API phal_status_t* phal_executable_compile(
    phal_device_t* device, const char* program, size_t program_size,
    const phal_compile_options_t* options, phal_executable_t** out_executable);
/* Frees an executable; NULL is accepted. Waits for executions in flight. */
PHAL_API void phal_executable_free(phal_executable_t* executable);

/* Number of parameters and of results, counted in arrays: the leaves of the
 * entry computation's parameters and of its root, tuples flattened
 * depth-first in order. A parameter of shape (f32[2], (s32[], f32[3])) is
 * passed as three buffers, f32[2], s32[] and f32[3]. */
PHAL_API phal_status_t* phal_executable_get_parameter_count(
    const phal_executable_t* executable, size_t* out_count);
PHAL_API phal_status_t* phal_executable_get_result_count(
    const phal_executable_t* executable, size_t* out_count);
/* Shape of parameter or result `index`; out->dims points at
 * executable-owned storage valid until the executable is freed. */
PHAL_API phal_status_t* phal_executable_get_parameter_desc(
    const phal_executable_t* executable, size_t index, phal_buffer_desc_t* out);
PHAL_API phal_status_t* phal_executable_get_result_desc(
    const phal_executable_t* executable, size_t index, phal_buffer_desc_t* out);

/* Runs the executable once and returns when its results are ready.
 * `arguments` are `argument_count` buffers on the executable's device, one
 * per parameter, of the parameter's type and dims (checked). On success
 * `out_results` (an array of `result_count` pointers supplied by the caller)
 * receives newly allocated buffers owned by the caller. Argument buffers are
 * only read. Thread-safe: one executable may run on many threads at once. */
PHAL_API phal_status_t* phal_executable_execute(phal_executable_t* executable,
                                                phal_buffer_t* const* arguments,
                                                size_t argument_count,
                                                phal_buffer_t** out_results,
                                                size_t result_count);

/* ---- executables on several devices (ABI 1.7) ----------------------------
 *
 * A program for several processes -- replica_count=R, num_partitions=P in
 * HLO text, mhlo.num_replicas / mhlo.num_partitions in StableHLO -- runs as
 * R x P processes, each on its own device with its own arguments, meeting
 * at every collective. Process k is replica k / P, partition k % P. */

/* Compiles `program` for a device assignment: devices[k] (an array of
 * `device_count` devices, each at most once) runs process k of the
 * program's grid, so `device_count` must be R x P (PHAL_INVALID_ARGUMENT
 * naming the grid otherwise; a program without a grid is 1 x 1). The
 * devices may belong to different plugins; each plugin compiles the program
 * once. Collectives, replica-id and partition-id are staged through host
 * memory with the reference semantics. Compile-only devices are refused.
 * Otherwise as phal_executable_compile, whose functions all accept the
 * result: parameter and result descs are those of one device's program, and
 * phal_executable_execute refuses an executable of several devices. */
PHAL_API phal_status_t* phal_executable_compile_for_devices(
    phal_device_t* const* devices, size_t device_count, const char* program,
    size_t program_size, const phal_compile_options_t* options,
    phal_executable_t** out_executable);
/* The number of devices the executable runs on: 1 for one compiled by
 * phal_executable_compile or deserialized. */
PHAL_API phal_status_t* phal_executable_get_device_count(
    const phal_executable_t* executable, size_t* out_count);
/* Device `index` of the executable's assignment (the device of process
 * `index`); owned by the client. */
PHAL_API phal_status_t* phal_executable_get_device(
    const phal_executable_t* executable, size_t index,
    phal_device_t** out_device);
/* Runs the executable on all of its devices at once and returns when every
 * device's results are ready. arguments[d] points at `argument_count`
 * buffers on device d (as phal_executable_execute takes them), for each of
 * the executable's devices; out_results[d] points at `result_count` slots
 * that receive device d's results, owned by the caller. `device_count`
 * must be the executable's. A collective whose peers do not all arrive
 * within the timeout (PHAL_COLLECTIVE_TIMEOUT seconds, default 60) fails
 * with PHAL_DEADLINE_EXCEEDED naming the collective, its group and the
 * missing processes; when one device fails, the others stop at their next
 * collective and the call returns the first error, naming its process.
 * On failure no result is written. Thread-safe. */
PHAL_API phal_status_t* phal_executable_execute_on_devices(
    phal_executable_t* executable, size_t device_count,
    phal_buffer_t* const* const* arguments, size_t argument_count,
    phal_buffer_t** const* out_results, size_t result_count);

/* ---- jobs of several processes (ABI 1.9) ---------------------------------
 *
 * One program can run over the devices of several processes -- one process
 * per host or per GPU, started by mpirun or an application's own launcher --
 * with one client in each. The processes talk through a host transport:
 * the application's own, or one of transport.h's (ABI 1.10: TCP with a
 * coordinator, or MPI, which libpolyhal loads from libpolyhal_mpi only when
 * asked); see docs/distributed.md. Every process's
 * client numbers the job's devices alike: process 0's devices first, in its
 * client's order, then process 1's, and so on. */

/* One message of phal_host_transport_t::exchange: `size` bytes at `data`,
 * sent to rank `peer` or received from it (into `data`, which has room for
 * exactly `size` bytes), tagged `tag` (1 to 32767). */
typedef struct phal_host_message {
  int32_t peer;
  int32_t tag;
  void* data;
  size_t size;
} phal_host_message_t;

/* How the processes (ranks) of a job send each other bytes. */
typedef struct phal_host_transport {
  uint32_t struct_size;
  const void* next;
  /* This process's rank (0 <= rank < size) and the number of ranks. */
  int32_t rank;
  int32_t size;
  void* user_data;
  /* Sends every message of `sends` and receives every one of `receives`,
   * all at once, within `timeout_ms` milliseconds; messages between two
   * ranks with one tag arrive in the order they were sent. Returns PHAL_OK,
   * or a code with a NUL-terminated message of at most `error_capacity`
   * bytes in `error`: PHAL_DEADLINE_EXCEEDED naming the ranks that did not
   * arrive, PHAL_FAILED_PRECONDITION when a message has another length
   * than expected. `what` names the operation for messages. Called from
   * several threads at once, with distinct tags. */
  phal_status_code_t (*exchange)(
      void* user_data, const phal_host_message_t* sends, size_t send_count,
      const phal_host_message_t* receives, size_t receive_count,
      int64_t timeout_ms, const char* what, char* error, size_t error_capacity);
} phal_host_transport_t;

/* This process's index in its client's job and the job's process count
 * (0 and 1 for a client without a transport). */
PHAL_API phal_status_t* phal_client_get_process_index(
    const phal_client_t* client, uint32_t* out_index, uint32_t* out_count);

/* One device of the job, as phal_client_get_global_device describes it.
 * Strings are owned by the client. */
typedef struct phal_global_device {
  uint32_t struct_size;
  const void* next;
  uint32_t process_index; /* the process whose client has it */
  /* The device, when this process has it; NULL on another process. */
  phal_device_t* device;
  const char* plugin_name;
  const char* device_name; /* phal_device_properties_t::name */
} phal_global_device_t;

/* The number of devices of the job: phal_client_get_device_count's for a
 * client without a transport. */
PHAL_API phal_status_t* phal_client_get_global_device_count(
    const phal_client_t* client, size_t* out_count);
/* Describes global device `index`; fills `out` up to out->struct_size,
 * which the caller sets. */
PHAL_API phal_status_t* phal_client_get_global_device(
    const phal_client_t* client, size_t index, phal_global_device_t* out);

/* Compiles `program` for a device assignment over the job: global device
 * global_devices[k] (each at most once) runs process k of the program's
 * grid, so `device_count` must be R x P, as for
 * phal_executable_compile_for_devices. Every process of the job calls it
 * with the same program and assignment, in the same order as its other
 * compiles of this kind; the processes first check that they agree
 * (PHAL_FAILED_PRECONDITION naming the processes that differ from process
 * 0) and that this process has at least one device of the assignment. The
 * executable's devices (phal_executable_get_device_count,
 * phal_executable_get_device) are this process's devices of the assignment,
 * in process order; phal_executable_execute_on_devices runs them, and every
 * process of the job executes the executable at once. Collectives within
 * one process are staged through host memory; those whose groups span
 * processes go through the transport, the members of each process
 * meeting first: all-reduce is reduced within each process, then across
 * processes in process order, so every run gives the same bits. A process
 * that does not arrive at a collective within the collective timeout
 * fails its peers with PHAL_DEADLINE_EXCEEDED naming the collective and
 * the missing ranks. One execution of such an executable at a time per
 * client. */
PHAL_API phal_status_t* phal_executable_compile_global(
    phal_client_t* client, const size_t* global_devices, size_t device_count,
    const char* program, size_t program_size,
    const phal_compile_options_t* options, phal_executable_t** out_executable);

/* ---- serialized executables (ABI 1.4) ------------------------------------ */

/* The first 8 bytes of every serialized executable, for tools that tell a
 * serialized executable from program text. */
#define PHAL_SERIALIZED_EXECUTABLE_MAGIC "PHALEXEC"

/* Serializes `executable` into bytes phal_executable_deserialize loads
 * later, in this process or another: the core's plan (its steps, buffer
 * sizes, constants, parameter and result shapes) and every kernel as its
 * plugin's kernel_serialize wrote it, behind a header naming the format
 * version, the plugin, its release and the target. The executable may have
 * been compiled for a real device or a compile-only one. On success
 * *out_data points at *out_size bytes allocated by libpolyhal and owned by
 * the caller, who releases them with phal_free. A plugin without
 * kernel_serialize fails with PHAL_UNIMPLEMENTED. Thread-safe; may run
 * while the executable executes. */
PHAL_API phal_status_t* phal_executable_serialize(
    const phal_executable_t* executable, void** out_data, size_t* out_size);
/* Frees memory libpolyhal allocated for the caller (phal_executable_serialize's
 * bytes, phal_device_get_counters's array). NULL is accepted. */
PHAL_API void phal_free(void* data);
/* Loads an executable from phal_executable_serialize's `size` bytes at
 * `data` (read during the call only) onto `device`, which must belong to
 * the plugin that compiled it (PHAL_FAILED_PRECONDITION naming both
 * plugins otherwise), and compile for the target it was compiled for: the
 * plugin's kernel_deserialize refuses kernels of another target or plugin
 * build with PHAL_FAILED_PRECONDITION, which is returned with the
 * executable's plugin, release and target in the message. Bytes of another
 * format version fail with PHAL_FAILED_PRECONDITION; bytes that are not a
 * serialized executable, truncated or corrupt, with PHAL_INVALID_ARGUMENT
 * or PHAL_DATA_LOSS, never a crash. The executable is owned by the caller,
 * as phal_executable_compile's is. */
PHAL_API phal_status_t* phal_executable_deserialize(
    phal_device_t* device, const void* data, size_t size,
    phal_executable_t** out_executable);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_RUNTIME_H_ */
