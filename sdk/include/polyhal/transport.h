/*
 * Polyhal ABI 1.10 -- the host transports libpolyhal provides for a client
 * in a job of several processes (phal_client_options_t::transport,
 * runtime.h "jobs of several processes"; docs/distributed.md).
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POLYHAL_TRANSPORT_H_ */
