// libpolyhal_mpi: the MPI job's transport (mpi_job.h) behind one C
// function, which libpolyhal looks up when an application asks for it
// (phal_mpi_transport_get, polyhal/transport.h), so that libpolyhal itself
// never links MPI.
#include "core/distributed/mpi_job.h"
#include "polyhal/types.h"

extern "C" PHAL_EXPORT phal_status_code_t
phal_mpi_module_transport(const phal_host_transport_t** out_transport,
                          char* error, size_t error_capacity) {
  phal::StatusOr<phal::MpiJob*> job = phal::MpiJob::Get();
  if (job.ok()) *out_transport = (*job)->c_transport();
  return phal::StatusToCError(job.status(), error, error_capacity);
}
