/*
 * Polyhal ABI 1.11 (1.10-1.11) -- the host transports libpolyhal provides
 * for a client in a job of several processes (phal_client_options_t::
 * transport, runtime.h "jobs of several processes"; docs/distributed.md),
 * and the reductions a transport may run itself (ABI 1.11).
 *
 * TCP: processes that no MPI launcher started (a scheduler, a script,
 * polyhal.distributed.initialize in Python) are each told the job's size,
 * their own index and a coordinator address; process 0 listens there, the
 * others connect to it, and once every process has joined each pair of
 * processes holds one connection. A process whose connection closes fails
 * the exchanges waiting for it at once, naming it.
 *
 * MPI: the job of the mpirun that started the process. libpolyhal links no
 * MPI: it loads libpolyhal_mpi (built where MPI is found, installed beside
 * libpolyhal) the first time a program asks for it.
 */
#ifndef POLYHAL_TRANSPORT_H_
#define POLYHAL_TRANSPORT_H_

#include "polyhal/extension.h"
#include "polyhal/plugin.h"
#include "polyhal/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct phal_tcp_job_options {
  uint32_t struct_size;
  const void* next;
  /* "HOST:PORT" (a name or an IPv4 address): where process 0 listens and
   * the others connect. */
  const char* coordinator;
  uint32_t process_index; /* this process, 0 <= process_index < count */
  uint32_t process_count;
  /* How long the processes wait for each other while the job forms, in
   * milliseconds; 0: 60000. */
  uint64_t timeout_ms;
} phal_tcp_job_options_t;

/* Joins the job of `options->process_count` processes over TCP and returns
 * this process's transport once every process has joined, owned by the
 * caller (phal_tcp_transport_destroy). PHAL_INVALID_ARGUMENT for a bad
 * address, index or count; PHAL_DEADLINE_EXCEEDED naming the processes
 * that did not join within the timeout; PHAL_FAILED_PRECONDITION when the
 * processes disagree on the count or two claim one index. */
PHAL_API phal_status_t* phal_tcp_transport_create(
    const phal_tcp_job_options_t* options,
    phal_host_transport_t** out_transport);

/* Closes this process's connections, after every client that uses the
 * transport is destroyed. NULL is ignored. */
PHAL_API void phal_tcp_transport_destroy(phal_host_transport_t* transport);

/* Closes this process's connections at once, without waiting for the
 * peers, so that peers waiting on this process fail now, naming it (what a
 * process does after a failure); the transport fails every exchange from
 * then on and is still destroyed with phal_tcp_transport_destroy. */
PHAL_API void phal_tcp_transport_abandon(phal_host_transport_t* transport);

/* The transport of the MPI job this process belongs to (MPI initialised on
 * the first call, finalised when the process exits), owned by libpolyhal
 * and valid for the process's life. PHAL_UNAVAILABLE when libpolyhal_mpi
 * is not installed beside libpolyhal or MPI cannot start (not launched by
 * mpirun, no singleton support). */
PHAL_API phal_status_t* phal_mpi_transport_get(
    const phal_host_transport_t** out_transport);

/* ---- reductions a transport runs itself (ABI 1.11) ----------------------
 *
 * A transport whose job has a reduction engine of its own chains one
 * phal_host_reductions_t on phal_host_transport_t::next (extension.h).
 * Where an all-reduce's group spans processes and its reduction is one of
 * those the transport runs, each process's part (reduced over the
 * process's own members first) is all-reduced by the transport in place,
 * instead of every process sending its part to every other. Both of
 * libpolyhal's transports carry one: MPI's (MPI_Iallreduce on a
 * communicator per group) and TCP's (a ring). */
typedef struct phal_host_reductions {
  uint32_t struct_size; /* sizeof(phal_host_reductions_t) */
  uint32_t type;        /* PHAL_EXTENSION_TYPE_HOST_REDUCTIONS */
  const phal_extension_base_t* next;
  void* user_data;
  /* Non-zero when all_reduce runs `reduction` (a phal_reduction_t) on
   * `element_type` (a phal_element_type_t) over `rank_count` ranks, giving
   * every rank the same bits and the same bits on every run of the same
   * job. Integer sums and products wrap as two's complement. */
  int32_t (*supports)(void* user_data, uint32_t element_type,
                      uint32_t reduction, uint32_t rank_count);
  /* Makes a group of the `rank_count` (at least 2) ranks `ranks`,
   * ascending, this rank among them, and returns its handle. Every rank of
   * the group calls it, the groups of a job in the same order on every
   * rank, while no other call of this transport's is in flight. Two calls
   * make two groups, even over the same ranks. A group lives as long as
   * the transport. PHAL_DEADLINE_EXCEEDED naming the ranks that did not
   * arrive within `timeout_ms`. */
  phal_status_code_t (*group_create)(void* user_data, const int32_t* ranks,
                                     size_t rank_count, int64_t timeout_ms,
                                     uint64_t* out_group, char* error,
                                     size_t error_capacity);
  /* Reduces the `count` elements at `data` with every other rank of
   * `group`'s, element by element, leaving the result at `data` on every
   * rank, within `timeout_ms`. The all-reduces of one group are issued in
   * the same order on every rank, one at a time; those of distinct groups
   * may run at once from several threads. `what` names the operation for
   * messages. */
  phal_status_code_t (*all_reduce)(void* user_data, uint64_t group, void* data,
                                   size_t count, uint32_t element_type,
                                   uint32_t reduction, int64_t timeout_ms,
                                   const char* what, char* error,
                                   size_t error_capacity);
} phal_host_reductions_t;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_TRANSPORT_H_ */
