/*
 * Polyhal ABI 1.14 (1.0-1.14) -- the interface a backend plugin implements.
 *
 * A plugin is a shared library with exactly one exported symbol,
 * `phal_plugin_entry` (see phal_plugin_entry_fn). libpolyhal calls it once,
 * after dlopen, with the range of ABI versions the core speaks and a table of
 * host services; the plugin answers with its own version range and, if the
 * ranges meet, a function table (phal_plugin_api_t) for one version in both.
 *
 * Handles. The plugin defines the opaque structs phal_plugin_device,
 * phal_plugin_buffer, phal_plugin_stream and phal_plugin_event; the core only
 * passes them back. The core never passes a handle after destroying it and
 * never passes a handle of one plugin to another.
 *
 * Statuses. Every function returning phal_status_t* returns NULL on success;
 * on failure it returns a status made with host->status_create(), whose
 * ownership passes to the core. A plugin must never abort, throw or longjmp
 * out of these functions.
 *
 * Missing slots. A plugin may leave any slot NULL; a slot beyond the table's
 * struct_size counts as NULL. The core answers such slots itself with
 * PHAL_UNIMPLEMENTED and never calls them.
 *
 * Threads. Unless written otherwise, the core may call any function from any
 * thread and from several threads at once; plugins synchronise internally.
 */
#ifndef POLYHAL_PLUGIN_H_
#define POLYHAL_PLUGIN_H_

#include "polyhal/kernel.h"
#include "polyhal/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct phal_plugin_device phal_plugin_device_t;
typedef struct phal_plugin_buffer phal_plugin_buffer_t;
typedef struct phal_plugin_stream phal_plugin_stream_t;
typedef struct phal_plugin_event phal_plugin_event_t;
typedef struct phal_plugin_kernel phal_plugin_kernel_t;
typedef struct phal_plugin_communicator phal_plugin_communicator_t;

/* Options of kernel_emit (ABI 1.1). The core sets struct_size to the size it
 * knows; a member beyond it is absent (zero), and a plugin reads no member
 * beyond it. */
typedef struct phal_kernel_options {
  uint32_t struct_size;
  const void* next;
  uint32_t optimization_level; /* 0 (fastest compile) to 3 (default) */
  /* ABI 1.4. NULL or "": write nothing. Otherwise an existing directory
   * where kernel_emit writes the kernel's device code in its text form (PTX,
   * LLVM IR, assembly, the KIR an interpreter runs), one file per form,
   * named after phal_kernel_desc_t::name with an extension naming the form
   * ("fusion.3.ptx", "fusion.3.ll"); an existing file is replaced. Owned by
   * the core, valid during the call. A file that cannot be written fails
   * the emit with a status naming it. */
  const char* dump_directory;
} phal_kernel_options_t;

/* ---- collectives (ABI 1.8) -----------------------------------------------
 *
 * A communicator joins `n` devices of one plugin as ranks 0..n-1; the core
 * holds one handle per rank. A collective is queued on every rank's stream
 * with the same description; rank r's part reads `send` and writes `recv`
 * on rank r's device. The k-th collective queued on one rank's handle
 * meets the k-th of every other rank of its communicator.
 *
 * Layouts, with n ranks, O = outer_count and B = block_count elements (an
 * array of O x ... is O blocks of row-major elements):
 *   ALL_REDUCE      send O*B, recv O*B: recv[i] = send_0[i] op send_1[i] op
 *                   ... op send_{n-1}[i], combined in rank order from the
 *                   left, each step rounded to the element type.
 *   ALL_GATHER      send O*B, recv O*n*B: recv[o][q][b] = send_q[o][b].
 *   REDUCE_SCATTER  send O*n*B, recv O*B: recv_r[o][b] = the rank-order
 *                   reduction over q of send_q[o][r][b].
 *   ALL_TO_ALL      send O*n*B, recv O*n*B: recv_r[o][q][b] = send_q[o][r][b].
 *   PERMUTE         send O*B, recv O*B: for each pair, recv_target =
 *                   send_source; a rank that is no pair's target receives
 *                   zeros (all bits zero).
 *   BROADCAST       send O*B, recv O*B: recv_r = send_root for every r.
 * The reductions are StableHLO's add, multiply, minimum (NaN propagates,
 * -0 < +0), maximum, and and or of the element type: integers wrap, pred
 * is one byte of 0 or 1, floating types round to nearest even. */
typedef enum phal_collective_kind {
  PHAL_COLLECTIVE_ALL_REDUCE = 0,
  PHAL_COLLECTIVE_ALL_GATHER = 1,
  PHAL_COLLECTIVE_REDUCE_SCATTER = 2,
  PHAL_COLLECTIVE_ALL_TO_ALL = 3,
  PHAL_COLLECTIVE_PERMUTE = 4,
  PHAL_COLLECTIVE_BROADCAST = 5,
  PHAL_COLLECTIVE_KIND_COUNT = 6 /* one past the last; grows */
} phal_collective_kind_t;

typedef enum phal_reduction {
  PHAL_REDUCTION_NONE = 0, /* every kind but ALL_REDUCE and REDUCE_SCATTER */
  PHAL_REDUCTION_SUM = 1,
  PHAL_REDUCTION_PRODUCT = 2,
  PHAL_REDUCTION_MIN = 3,
  PHAL_REDUCTION_MAX = 4,
  PHAL_REDUCTION_AND = 5, /* integers and pred */
  PHAL_REDUCTION_OR = 6,  /* integers and pred */
  PHAL_REDUCTION_COUNT = 7
} phal_reduction_t;

/* PERMUTE: rank `source` sends to rank `target`. */
typedef struct phal_collective_pair {
  uint32_t source;
  uint32_t target;
} phal_collective_pair_t;

/* One collective. The core sets struct_size to the size it knows; a plugin
 * reads no member beyond it. Everything it points at is valid during the
 * call only (a plugin that runs the collective later copies what it
 * needs). */
typedef struct phal_collective_desc {
  uint32_t struct_size;
  const void* next;
  uint32_t kind;         /* phal_collective_kind_t */
  uint32_t element_type; /* phal_element_type_t */
  uint32_t reduction;    /* phal_reduction_t */
  uint32_t root;         /* BROADCAST: the rank every rank receives from */
  uint64_t outer_count;  /* O above, at least 1 */
  uint64_t block_count;  /* B above, in elements; 0 moves nothing */
  /* PERMUTE: `pair_count` pairs, sources distinct, targets distinct. */
  const phal_collective_pair_t* pairs;
  uint32_t pair_count;
  /* How long a rank waits for its peers, in milliseconds (0: forever). A
   * rank whose peers have not all arrived by then fails its part with
   * PHAL_DEADLINE_EXCEEDED naming the ranks missing. */
  uint64_t timeout_ms;
} phal_collective_desc_t;

/* The identifier of a communicator over devices of several processes
 * (ABI 1.12): bytes the plugin gives meaning to (NCCL's unique id fits),
 * copied between processes as they are. */
#define PHAL_COMMUNICATOR_ID_SIZE 128
typedef struct phal_communicator_id {
  uint8_t bytes[PHAL_COMMUNICATOR_ID_SIZE];
} phal_communicator_id_t;

/* ---- whole programs (ABI 1.13) -------------------------------------------
 *
 * The forms in which the core offers a plugin a program or part of one
 * (program_compile). A plugin declares those it reads with
 * program_get_formats, as PHAL_PLUGIN_PROGRAM_FORMAT_BIT bits.
 *   HLO_TEXT   XLA HLO text: a module printed by the core after its front
 *              end and its target-independent passes, whose entry
 *              computation is the offered part (parameters and a root of
 *              the results, a tuple when there are several). `data` and
 *              `size`.
 *   STABLEHLO  the caller's own program as it was given (StableHLO text,
 *              or the bytes of a StableHLO portable artifact, told apart
 *              by the artifact's magic "ML\xEFR"); offered only for a whole
 *              program compiled from StableHLO. `data` and `size`.
 *   KIR_GRAPH  the kernels the core made of the part (kernel.h) in the
 *              order it would launch them, and the values between them
 *              (phal_kir_graph_t): for a compiler that takes the core's
 *              kernels but plans memory and transfers over all of them.
 * The first two have the values of phal_program_format_t (runtime.h). */
typedef enum phal_plugin_program_format {
  PHAL_PLUGIN_PROGRAM_HLO_TEXT = 1,
  PHAL_PLUGIN_PROGRAM_STABLEHLO = 2,
  PHAL_PLUGIN_PROGRAM_KIR_GRAPH = 3
} phal_plugin_program_format_t;

#define PHAL_PLUGIN_PROGRAM_FORMAT_BIT(format) \
  ((uint32_t)1 << (uint32_t)(format))

/* One operation of a program, as program_accepts_op is asked about it.
 * Everything it points at is owned by the core and valid during the call
 * only. */
typedef struct phal_program_op {
  uint32_t struct_size;
  const void* next;
  /* The HLO opcode: "add", "dot", "reduce", "while", "custom-call". */
  const char* opcode;
  /* The instruction as one line of XLA HLO text, with its attributes and
   * its operands' shapes ("%d = f32[2,3]{1,0} dot(f32[2,4]{1,0} %a, ...),
   * lhs_contracting_dims={1}, rhs_contracting_dims={0}"). */
  const char* text;
  /* The element type of every array the operation reads (its operands'
   * leaves, tuples flattened depth-first) and of every array it makes. */
  uint32_t operand_count;
  const phal_element_type_t* operand_types;
  uint32_t result_count;
  const phal_element_type_t* result_types;
} phal_program_op_t;

/* Where a value of a KIR graph lives. */
typedef enum phal_program_value_kind {
  /* Parameter `parameter` of the launch: the buffer passed at that
   * position. Read only, unless a kernel binds it READ_WRITE or WRITE (the
   * core then passes a buffer the launch may overwrite). */
  PHAL_PROGRAM_VALUE_PARAMETER = 1,
  /* A constant: `byte_size` bytes at `data`, row-major. */
  PHAL_PROGRAM_VALUE_CONSTANT = 2,
  /* Storage of `byte_size` bytes the plugin provides for one run (on chip
   * or in device memory, as it likes); undefined when the run starts. */
  PHAL_PROGRAM_VALUE_TEMPORARY = 3
} phal_program_value_kind_t;

typedef struct phal_program_value {
  uint32_t kind;      /* phal_program_value_kind_t */
  uint32_t parameter; /* PARAMETER: the parameter's position */
  uint64_t byte_size;
  const void* data; /* CONSTANT: byte_size bytes */
} phal_program_value_t;

/* One kernel of a KIR graph: buffer i of `kernel` is bound to the value
 * values[i]. Several kernels may bind one TEMPORARY value: the core reuses
 * storage whose contents are no longer needed, and a kernel that updates
 * its input in place binds one value READ_WRITE. */
typedef struct phal_program_step {
  const phal_kernel_desc_t* kernel;
  const uint32_t* values; /* kernel->buffer_count value indices */
} phal_program_step_t;

/* The kernels of an offered part and the values between them. Running the
 * steps in order, then copying value results[i] into result buffer i for
 * every i, is the part's meaning; a plugin may run it any way that gives
 * the same results (keep values on chip, overlap steps whose values do not
 * conflict, fuse kernels). */
typedef struct phal_kir_graph {
  uint32_t struct_size;
  const void* next;
  uint32_t value_count;
  const phal_program_value_t* values;
  uint32_t step_count;
  const phal_program_step_t* steps;
  /* One value index per result of phal_program_desc_t. */
  const uint32_t* results;
} phal_kir_graph_t;

/* A program, or a part of one, offered to program_compile. Everything it
 * points at is owned by the core and valid during the call only. */
typedef struct phal_program_desc {
  uint32_t struct_size;
  const void* next;
  /* Unique within the core's program ("main", "main.offload.2"); the name of
   * the kernel the plugin answers, for logs, dumps and counters. */
  const char* name;
  uint32_t format; /* phal_plugin_program_format_t, one the plugin declared */
  /* HLO_TEXT and STABLEHLO: the program's bytes. */
  const void* data;
  uint64_t size;
  /* KIR_GRAPH: the graph. */
  const phal_kir_graph_t* graph;
  /* The buffers of a launch of the answered kernel (stream_launch): the
   * parameters (READ, or READ_WRITE where the graph writes one), then the
   * results (WRITE), in the order of the program's parameters and results,
   * tuples flattened depth-first. */
  uint32_t parameter_count;
  uint32_t result_count;
  const phal_kir_buffer_t* buffers; /* parameter_count + result_count */
  /* The process grid of the program the part belongs to (replicas x
   * partitions; 1 x 1 for a program of one device). A part never holds a
   * collective or an operation that depends on its process, so every
   * process runs the same part. */
  uint32_t replica_count;
  uint32_t partition_count;
} phal_program_desc_t;

/*
 * Services the core offers a plugin. The table is owned by the core and
 * stays valid until the plugin's shutdown slot has returned. Every function
 * is thread-safe.
 */
typedef struct phal_host_services {
  uint32_t struct_size;
  const void* next;
  /* Creates a status the plugin returns to the core. `message` is copied;
   * NULL is read as "". Never returns NULL (allocation failure yields a
   * shared static out-of-memory status, which phal_status_free accepts). */
  phal_status_t* (*status_create)(phal_status_code_t code, const char* message);
  /* Writes a message to the core's log, tagged with the plugin's name. The
   * message is copied. Messages above the configured level are dropped. */
  void (*log)(phal_log_level_t level, const char* message);
  /* Host memory from the core's allocator: `alignment` is a power of two;
   * returns NULL when out of memory. Free with host_free only. */
  void* (*host_allocate)(size_t byte_size, size_t alignment);
  void (*host_free)(void* pointer);
  /* Frees a status the plugin created but will not return (for example an
   * error of queued work nobody collected before the stream was destroyed).
   * NULL is accepted. */
  void (*status_free)(phal_status_t* status);
} phal_host_services_t;

/*
 * The plugin's function table for one ABI version. The table is owned by the
 * plugin and must stay valid until the library is unloaded.
 */
typedef struct phal_plugin_api {
  uint32_t
      struct_size; /* sizeof(phal_plugin_api_t) the plugin was built with */
  const void* next;
  uint32_t abi_version; /* the version this table implements */
  const char* name;     /* plugin name, e.g. "cpu"; plugin-owned, static */
  const char* version;  /* plugin release, e.g. "1.2.0"; plugin-owned, static */

  /* Releases every global resource. Called once, last; every device, buffer,
   * stream and event has been destroyed before. May be NULL. */
  void (*shutdown)(void);

  /* ---- devices ---------------------------------------------------------- */

  /* Number of devices this plugin drives on this machine. When it is zero,
   * *out_reason may point at a plugin-owned, static-lifetime sentence saying
   * why (e.g. "libcuda.so.1 not found"); otherwise it is set to NULL. Not
   * finding any device is not an error. */
  phal_status_t* (*device_count)(size_t* out_count, const char** out_reason);
  /* Opens device `ordinal` (0 <= ordinal < count). The core opens each
   * device at most once and closes it with device_close. */
  phal_status_t* (*device_open)(size_t ordinal,
                                phal_plugin_device_t** out_device);
  void (*device_close)(phal_plugin_device_t* device);
  /* Fills `out` up to out->struct_size (set by the core). Strings stay valid
   * until device_close. */
  phal_status_t* (*device_get_properties)(phal_plugin_device_t* device,
                                          phal_device_properties_t* out);
  /* Describes memory space `index` (< memory_space_count); same rules. */
  phal_status_t* (*device_get_memory_space)(phal_plugin_device_t* device,
                                            uint32_t index,
                                            phal_memory_space_info_t* out);

  /* ---- memory ----------------------------------------------------------- */

  /* Allocates `byte_size` bytes (0 is valid and yields a distinct buffer) in
   * memory space `memory_space`, aligned to at least min_alignment. Contents
   * are undefined. Fails with PHAL_RESOURCE_EXHAUSTED when out of memory. */
  phal_status_t* (*buffer_allocate)(phal_plugin_device_t* device,
                                    uint32_t memory_space, uint64_t byte_size,
                                    phal_plugin_buffer_t** out_buffer);
  /* Frees a buffer. The core guarantees no queued work still uses it. */
  void (*buffer_free)(phal_plugin_buffer_t* buffer);

  /* ---- streams and events -------------------------------------------------
   */

  /* Creates an in-order queue of work on `device`. */
  phal_status_t* (*stream_create)(phal_plugin_device_t* device,
                                  phal_plugin_stream_t** out_stream);
  /* Waits for queued work to finish, then destroys the stream. */
  void (*stream_destroy)(phal_plugin_stream_t* stream);
  /* Blocks until every operation queued so far has finished. Returns the
   * first error any of them met since the last synchronize, if any. */
  phal_status_t* (*stream_synchronize)(phal_plugin_stream_t* stream);

  /* Enqueues a copy of `byte_size` bytes from host memory `source` into
   * `buffer` at `offset`. The core has checked the range; `source` stays
   * valid until the copy has finished (the core synchronises or waits on an
   * event before releasing it). */
  phal_status_t* (*stream_copy_from_host)(phal_plugin_stream_t* stream,
                                          const void* source,
                                          phal_plugin_buffer_t* buffer,
                                          uint64_t offset, uint64_t byte_size);
  /* Enqueues a copy from `buffer` at `offset` into host memory
   * `destination`; same rules. */
  phal_status_t* (*stream_copy_to_host)(phal_plugin_stream_t* stream,
                                        phal_plugin_buffer_t* buffer,
                                        uint64_t offset, void* destination,
                                        uint64_t byte_size);
  /* Enqueues a copy between two buffers of this plugin (on the same or on
   * different devices). Ranges are checked by the core and may not overlap
   * when both name the same buffer. */
  phal_status_t* (*stream_copy_buffer)(phal_plugin_stream_t* stream,
                                       phal_plugin_buffer_t* source,
                                       uint64_t source_offset,
                                       phal_plugin_buffer_t* destination,
                                       uint64_t destination_offset,
                                       uint64_t byte_size);

  /* Creates an event on `device`, initially signalled. */
  phal_status_t* (*event_create)(phal_plugin_device_t* device,
                                 phal_plugin_event_t** out_event);
  /* Destroys an event; pending records are dropped safely. */
  void (*event_destroy)(phal_plugin_event_t* event);
  /* Resets `event` to unsignalled and enqueues its signal on `stream`: it
   * fires once every operation queued before it has finished. */
  phal_status_t* (*stream_record_event)(phal_plugin_stream_t* stream,
                                        phal_plugin_event_t* event);
  /* Makes later work on `stream` wait until `event` fires. The event may
   * come from another stream or device of this plugin. The wait targets the
   * record made most recently before this call (a later re-record does not
   * move it); an event never recorded counts as fired. Work waiting on an
   * event inherits the error of the work the event waited for, so the
   * waiting stream's synchronize reports it too. */
  phal_status_t* (*stream_wait_event)(phal_plugin_stream_t* stream,
                                      phal_plugin_event_t* event);
  /* Blocks the calling thread until `event` fires. Returns the first error
   * met by the work the event waited for, if any. */
  phal_status_t* (*event_synchronize)(phal_plugin_event_t* event);
  /* Sets *out_done to 1 if `event` has fired, else 0; never blocks. */
  phal_status_t* (*event_query)(phal_plugin_event_t* event, int* out_done);

  /* ---- kernels (ABI 1.1) ---------------------------------------------------
   */

  /* Compiles `kernel` (kernel.h) into device code for `device`. Everything
   * `kernel` points at is valid during the call only. A kernel the device
   * cannot run (kind, node or element type) fails with PHAL_UNIMPLEMENTED and
   * a message naming what is missing. `options` may be NULL. The core hands
   * a kernel only kinds the device reports in kernel_kinds, and kinds and
   * node ops of the ABI version the plugin negotiated or an older one (an
   * FFT kernel, ABI 1.6, never reaches a plugin that negotiated 1.5; a
   * LINALG kernel, ABI 1.14, none that negotiated 1.13). */
  phal_status_t* (*kernel_emit)(phal_plugin_device_t* device,
                                const phal_kernel_desc_t* kernel,
                                const phal_kernel_options_t* options,
                                phal_plugin_kernel_t** out_kernel);
  /* Destroys a kernel; the core guarantees no queued launch still uses it. */
  void (*kernel_destroy)(phal_plugin_kernel_t* kernel);
  /* Serialises a kernel for a cache or an ahead-of-time build. *out_data is
   * allocated with host->host_allocate and owned by the core afterwards. */
  phal_status_t* (*kernel_serialize)(phal_plugin_kernel_t* kernel,
                                     void** out_data, uint64_t* out_size);
  /* Rebuilds a kernel from kernel_serialize's bytes on `device`, which may
   * be a compile-only device (ABI 1.4) of the target the bytes were made
   * for, or a real device of it. Bytes from another plugin version or
   * target fail with PHAL_FAILED_PRECONDITION, bytes that are not a kernel
   * (truncated, corrupt) with PHAL_INVALID_ARGUMENT or PHAL_DATA_LOSS;
   * never a crash. `data` is valid during the call only. */
  phal_status_t* (*kernel_deserialize)(phal_plugin_device_t* device,
                                       const void* data, uint64_t size,
                                       phal_plugin_kernel_t** out_kernel);
  /* Enqueues one run of `kernel` on `stream`. buffers[i] binds the kernel's
   * phal_kernel_desc_t::buffers[i]; the core has checked their sizes and
   * keeps them alive until the run has finished. */
  phal_status_t* (*stream_launch)(phal_plugin_stream_t* stream,
                                  phal_plugin_kernel_t* kernel,
                                  phal_plugin_buffer_t* const* buffers,
                                  uint32_t buffer_count);

  /* ---- ahead-of-time compilation (ABI 1.4) ---------------------------------
   *
   * A target is what a plugin's kernels are compiled for ("sm_80", "host"):
   * a plugin may compile for a target with no device of it present, and
   * the bytes kernel_serialize returns for that target load later, with
   * kernel_deserialize, on a real device of the same target. A plugin
   * leaves both slots NULL when it compiles only for devices it has
   * opened; the core then answers that it compiles for no target.
   */

  /* Sets *out_names to an array of *out_count plugin-owned, static-lifetime
   * target names, the plugin's default target first. Names are non-empty
   * and contain no ','. */
  phal_status_t* (*target_get_names)(const char* const** out_names,
                                     size_t* out_count);
  /* Opens a compile-only device for target `target`, one of
   * target_get_names's names (NULL or "": the default target); it needs no
   * hardware. An unknown target fails with PHAL_NOT_FOUND and a message
   * listing the targets. The device answers device_get_properties (with
   * PHAL_DEVICE_FLAG_COMPILE_ONLY in flags, the kernel kinds and element
   * types of the target, and at least one memory space) and
   * device_get_memory_space, kernel_emit (with dump_directory), and
   * kernel_serialize and kernel_destroy on its kernels; buffer_allocate,
   * stream_create and event_create on it fail with
   * PHAL_FAILED_PRECONDITION. Closed with device_close. The core may open
   * several at once, of one target or of several. */
  phal_status_t* (*target_device_open)(const char* target,
                                       phal_plugin_device_t** out_device);

  /* ---- performance counters (ABI 1.5) --------------------------------------
   *
   * A device that counts what its work does (cycles, busy cycles per unit,
   * bytes moved; phal_device_counter_t in types.h) reports it here. A
   * plugin that counts nothing leaves both slots NULL; the core then
   * reports no counters for its devices. The core calls neither slot on a
   * compile-only device.
   */

  /* A snapshot of `device`'s counters: its totals (kernel "") and, per
   * kernel name, the sums over that kernel's launches, of the work that
   * has finished since device_open or the last device_reset_counters. On
   * success *out_counters points at *out_count counters in one block
   * allocated with host->host_allocate that also holds every string they
   * point at; the block is owned by the core, which frees it with
   * host->host_free. A device with nothing to report sets *out_counters to
   * NULL and *out_count to 0. Counters of one name and kernel appear once.
   * May run while work is queued: work that has not finished is not
   * counted yet. */
  phal_status_t* (*device_get_counters)(phal_plugin_device_t* device,
                                        phal_device_counter_t** out_counters,
                                        size_t* out_count);
  /* Sets every counter of `device` to zero and forgets its per-kernel
   * counters. Work running during the reset may be counted on either side
   * of it: a caller that needs a sharp line synchronises first. */
  phal_status_t* (*device_reset_counters)(phal_plugin_device_t* device);

  /* ---- collectives (ABI 1.8) -----------------------------------------------
   *
   * A plugin whose devices exchange data themselves fills all five slots;
   * one that leaves them NULL still runs every program for several devices:
   * the core then stages each collective through host memory. The core
   * calls the slots only on devices that are not compile-only.
   */

  /* Sets *out_supported to 1 when communicators of `device` run `desc`
   * (its kind, element type and reduction; counts, root and pairs do not
   * change the answer), else 0. The core queues only collectives a device
   * supports. */
  phal_status_t* (*device_supports_collective)(
      phal_plugin_device_t* device, const phal_collective_desc_t* desc,
      int* out_supported);
  /* Creates one communicator over `count` (at least 1) distinct devices of
   * this plugin: out_communicators[i] (an array of `count` the core owns)
   * receives rank i's handle, on devices[i]. On failure no handle is
   * made. */
  phal_status_t* (*communicator_create)(
      phal_plugin_device_t* const* devices, uint32_t count,
      phal_plugin_communicator_t** out_communicators);
  /* Destroys one rank's handle. The core destroys every rank's handle of a
   * communicator, after the streams its collectives were queued on have
   * been synchronised. */
  void (*communicator_destroy)(phal_plugin_communicator_t* communicator);
  /* Makes every collective of the communicator (all ranks) that waits for
   * a peer, and every one queued later, fail with PHAL_ABORTED; the core
   * calls it, on any rank's handle, when a peer will never arrive (its
   * process failed). Never blocks on a collective. */
  phal_status_t* (*communicator_abort)(
      phal_plugin_communicator_t* communicator);
  /* Queues this rank's part of `desc` on `stream`, which belongs to the
   * rank's device: it starts after the work queued before it and the work
   * queued after it starts after it, like a kernel; events recorded after
   * it fire once it has finished. `send` from `send_offset` and `recv` from
   * `recv_offset` hold the rank's elements (the layouts above; the core has
   * checked the ranges, and the offsets are multiples of the element
   * size); `send` and `recv` may be the same buffer only when their ranges
   * do not overlap. The core queues each rank's part from a thread of its
   * own, so a plugin whose streams run work in the caller may block in this
   * call until the peers have arrived. Descriptions that differ between ranks
   * (kind, element type, reduction, counts, root, pairs) fail every rank's
   * part with PHAL_FAILED_PRECONDITION. Errors of the collective are the
   * stream's, reported by its synchronize. */
  phal_status_t* (*stream_collective)(
      phal_plugin_stream_t* stream, phal_plugin_communicator_t* communicator,
      const phal_collective_desc_t* desc, phal_plugin_buffer_t* send,
      uint64_t send_offset, phal_plugin_buffer_t* recv, uint64_t recv_offset);

  /* ---- communicators over several processes (ABI 1.12) -------------------
   *
   * A communicator may also join devices of several processes (the ranks
   * of a job: one process per host or per GPU). One process makes an
   * identifier on one of its devices; the core hands its bytes to every
   * process of the communicator over the job's transport, and each joins
   * its own devices with their ranks. The handles it receives are used
   * like communicator_create's: stream_collective (each rank's part on its
   * own device, the layouts above over all rank_count ranks),
   * communicator_abort (every rank of this process), communicator_destroy.
   * The core meets the processes over the transport before each collective
   * it queues on such a communicator, so a missing process is named there.
   * A plugin fills all three slots or none; without them the core moves
   * the collectives of such groups between processes itself, through host
   * memory.
   */

  /* Sets *out_supported to 1 when a communicator of `rank_count` ranks made
   * by communicator_join runs `desc` with the layouts' bits on `device`,
   * else 0. The answer depends only on the description, rank_count and the
   * kind of device, so that every process decides alike. The core queues
   * on a joined communicator only collectives this accepts. */
  phal_status_t* (*device_supports_joined_collective)(
      phal_plugin_device_t* device, const phal_collective_desc_t* desc,
      uint32_t rank_count, int* out_supported);
  /* Makes the identifier of a new communicator over several processes, on
   * `device`'s behalf (the device of its rank 0), into *out_id. */
  phal_status_t* (*communicator_make_id)(phal_plugin_device_t* device,
                                         phal_communicator_id_t* out_id);
  /* Joins the communicator `id` of `rank_count` ranks: devices[i] (distinct
   * devices of this plugin) becomes rank ranks[i], whose handle
   * out_communicators[i] (an array of `count` the core owns) receives.
   * Every process holding ranks of the communicator calls it once with the
   * same id and rank_count, together covering every rank once, in the same
   * order relative to its other joins. Returns when every rank has joined;
   * DEADLINE_EXCEEDED when they have not all joined within timeout_ms (0:
   * no limit), where the plugin's library can tell. On failure no handle
   * is made. */
  phal_status_t* (*communicator_join)(
      const phal_communicator_id_t* id, uint32_t rank_count,
      phal_plugin_device_t* const* devices, const uint32_t* ranks,
      uint32_t count, uint64_t timeout_ms,
      phal_plugin_communicator_t** out_communicators);

  /* ---- whole programs (ABI 1.13) -------------------------------------------
   *
   * A plugin whose own compiler wants more than one kernel at a time (a
   * graph compiler that keeps intermediates on chip, schedules transfers
   * over the whole program, picks its own fusion) fills all three slots, or
   * none. The core then asks, operation by operation, what the plugin takes
   * (program_accepts_op), gathers the largest parts of every computation it
   * runs on the host (the entry and the bodies of while, conditional and
   * call) made only of accepted operations (the whole program when the
   * plugin takes every operation), and offers each part to program_compile
   * in a format the plugin reads. The kernel it answers stands for the part:
   * it is launched, serialized, rebuilt and destroyed with the kernel slots
   * (stream_launch with the buffers of phal_program_desc_t), so
   * executables, caches and counters treat it as any kernel. The rest of the
   * program runs as the core's kernels, and the values crossing a part's
   * boundary are ordinary buffers of the plugin's memory slots. A part the
   * plugin declines runs as kernels too. The core never offers collectives,
   * operations that depend on the process (replica-id, partition-id) or
   * host control flow in a KIR graph.
   */

  /* Sets *out_formats to the PHAL_PLUGIN_PROGRAM_FORMAT_BIT bits of the
   * formats `device` reads (0: none; the core then offers nothing). May be
   * called on a compile-only device. */
  phal_status_t* (*program_get_formats)(phal_plugin_device_t* device,
                                        uint32_t* out_formats);
  /* Sets *out_accepted to 1 when `device` takes `op` as part of a program,
   * else 0. The answer may depend on anything `op` says, and must not
   * change between calls. Parameters, constants, tuples and
   * get-tuple-element are never asked about: they join the parts that use
   * them. */
  phal_status_t* (*program_accepts_op)(phal_plugin_device_t* device,
                                       const phal_program_op_t* op,
                                       int* out_accepted);
  /* Compiles `program` (a whole program or a part, in a format the device
   * declared) into a kernel in *out_kernel. A plugin that cannot compile
   * it after all declines with PHAL_UNIMPLEMENTED and a message saying
   * why; the core then runs the part as kernels and logs the message. Any
   * other error fails the compile. `options` as in kernel_emit (may be
   * NULL; dump_directory receives the plugin's text forms). The kernel is
   * destroyed with kernel_destroy and serialized with kernel_serialize;
   * kernel_deserialize rebuilds it from those bytes. */
  phal_status_t* (*program_compile)(phal_plugin_device_t* device,
                                    const phal_program_desc_t* program,
                                    const phal_kernel_options_t* options,
                                    phal_plugin_kernel_t** out_kernel);
} phal_plugin_api_t;

/* The smallest table the core accepts: the header up to and including
 * `version`. Every slot after it may be absent (struct_size smaller). */
#define PHAL_PLUGIN_API_MIN_STRUCT_SIZE offsetof(phal_plugin_api_t, shutdown)

/* The struct_size of a complete table of each ABI version: where that
 * version's last slot ends. A plugin that negotiated an older version
 * returns a table of that version's size, so the core never calls a slot
 * the version did not have. A minor version that appends no slot has the
 * size of the version before it. Append-only: one line per version. */
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_0 offsetof(phal_plugin_api_t, kernel_emit)
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_1         \
  (offsetof(phal_plugin_api_t, stream_launch) + \
   sizeof(((phal_plugin_api_t*)0)->stream_launch))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_2 PHAL_PLUGIN_API_STRUCT_SIZE_1_1
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_3 PHAL_PLUGIN_API_STRUCT_SIZE_1_2
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_4              \
  (offsetof(phal_plugin_api_t, target_device_open) + \
   sizeof(((phal_plugin_api_t*)0)->target_device_open))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_5                 \
  (offsetof(phal_plugin_api_t, device_reset_counters) + \
   sizeof(((phal_plugin_api_t*)0)->device_reset_counters))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_6 PHAL_PLUGIN_API_STRUCT_SIZE_1_5
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_7 PHAL_PLUGIN_API_STRUCT_SIZE_1_6
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_8             \
  (offsetof(phal_plugin_api_t, stream_collective) + \
   sizeof(((phal_plugin_api_t*)0)->stream_collective))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_9 PHAL_PLUGIN_API_STRUCT_SIZE_1_8
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_10 PHAL_PLUGIN_API_STRUCT_SIZE_1_9
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_11 PHAL_PLUGIN_API_STRUCT_SIZE_1_10
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_12            \
  (offsetof(phal_plugin_api_t, communicator_join) + \
   sizeof(((phal_plugin_api_t*)0)->communicator_join))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_13          \
  (offsetof(phal_plugin_api_t, program_compile) + \
   sizeof(((phal_plugin_api_t*)0)->program_compile))
#define PHAL_PLUGIN_API_STRUCT_SIZE_1_14 PHAL_PLUGIN_API_STRUCT_SIZE_1_13

/*
 * The negotiation record passed to phal_plugin_entry. The core fills the
 * first block; the plugin fills its version range whether or not the ranges
 * meet, so the core can report both. The record and host table are owned by
 * the core; `host` stays valid until shutdown.
 */
typedef struct phal_plugin_negotiation {
  uint32_t struct_size;
  const void* next;
  uint32_t core_min_version; /* oldest ABI the core speaks */
  uint32_t core_max_version; /* newest ABI the core speaks */
  const phal_host_services_t* host;
  uint32_t plugin_min_version; /* out: oldest ABI the plugin speaks */
  uint32_t plugin_max_version; /* out: newest ABI the plugin speaks */
} phal_plugin_negotiation_t;

/*
 * The one symbol a plugin exports, under the name "phal_plugin_entry".
 * Returns the table for a version within both ranges, or NULL when the ranges
 * do not meet. Called once per load, before any other function.
 */
typedef const phal_plugin_api_t* (*phal_plugin_entry_fn)(
    phal_plugin_negotiation_t* negotiation);

#define PHAL_PLUGIN_ENTRY_SYMBOL "phal_plugin_entry"

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_PLUGIN_H_ */
