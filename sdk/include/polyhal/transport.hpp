// Polyhal ABI 1.10 -- the C++ face of polyhal/transport.h: this process's
// place in a job of several processes, for a Client that joins it
// (docs/distributed.md). Header-only, errors as values, as polyhal.hpp.
//
//   phal::Result<phal::JobTransport> job = phal::JobTransport::Initialize();
//   phal_client_options_t options{sizeof(options)};
//   options.transport = job->get();     // the transport outlives the client
//   phal::Result<phal::Client> client = phal::Client::Create(&options);
#ifndef POLYHAL_TRANSPORT_HPP_
#define POLYHAL_TRANSPORT_HPP_

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "polyhal/polyhal.hpp"
#include "polyhal/transport.h"

namespace phal {

// A TCP job this object owns, or the MPI job's transport (owned by
// libpolyhal). Movable, not copyable.
class JobTransport {
 public:
  JobTransport() = default;
  ~JobTransport() {
    if (owned_) phal_tcp_transport_destroy(tcp_);
  }
  JobTransport(JobTransport&& other) noexcept
      : transport_(std::exchange(other.transport_, nullptr)),
        tcp_(std::exchange(other.tcp_, nullptr)),
        owned_(std::exchange(other.owned_, false)) {}
  JobTransport& operator=(JobTransport&& other) noexcept {
    if (this != &other) {
      if (owned_) phal_tcp_transport_destroy(tcp_);
      transport_ = std::exchange(other.transport_, nullptr);
      tcp_ = std::exchange(other.tcp_, nullptr);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  JobTransport(const JobTransport&) = delete;
  JobTransport& operator=(const JobTransport&) = delete;

  // Process `process_index` of `process_count` over TCP, process 0
  // listening at `coordinator` ("HOST:PORT"); returns once every process
  // has joined (phal_tcp_transport_create).
  static Result<JobTransport> Tcp(
      const std::string& coordinator, uint32_t process_index,
      uint32_t process_count,
      std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) {
    phal_tcp_job_options_t options{};
    options.struct_size = sizeof(options);
    options.coordinator = coordinator.c_str();
    options.process_index = process_index;
    options.process_count = process_count;
    options.timeout_ms = static_cast<uint64_t>(timeout.count());
    phal_host_transport_t* transport = nullptr;
    Error error(phal_tcp_transport_create(&options, &transport));
    if (!error.ok()) return error;
    JobTransport job;
    job.transport_ = transport;
    job.tcp_ = transport;
    job.owned_ = true;
    return job;
  }

  // The MPI job of the mpirun that started this process
  // (phal_mpi_transport_get: libpolyhal loads libpolyhal_mpi).
  static Result<JobTransport> Mpi() {
    const phal_host_transport_t* transport = nullptr;
    Error error(phal_mpi_transport_get(&transport));
    if (!error.ok()) return error;
    JobTransport job;
    job.transport_ = transport;
    return job;
  }

  // The job the environment describes: the MPI job when an MPI launcher
  // started the process (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK set),
  // else TCP from PHAL_COORDINATOR, PHAL_NUM_PROCESSES and PHAL_PROCESS_ID;
  // PHAL_INVALID_ARGUMENT naming what is missing.
  static Result<JobTransport> Initialize(
      std::chrono::milliseconds timeout = std::chrono::milliseconds(60000)) {
    const char* coordinator = std::getenv("PHAL_COORDINATOR");
    const char* count = std::getenv("PHAL_NUM_PROCESSES");
    const char* index = std::getenv("PHAL_PROCESS_ID");
    if (coordinator == nullptr && count == nullptr && index == nullptr) {
      for (const char* variable :
           {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"}) {
        if (std::getenv(variable) != nullptr) return Mpi();
      }
      return Error(PHAL_INVALID_ARGUMENT,
                   "not started by mpirun, and PHAL_COORDINATOR, "
                   "PHAL_NUM_PROCESSES and PHAL_PROCESS_ID are not set");
    }
    if (coordinator == nullptr || count == nullptr || index == nullptr) {
      return Error(PHAL_INVALID_ARGUMENT,
                   "a job over TCP needs PHAL_COORDINATOR, "
                   "PHAL_NUM_PROCESSES and PHAL_PROCESS_ID all set");
    }
    char* end_count = nullptr;
    char* end_index = nullptr;
    const unsigned long processes = std::strtoul(count, &end_count, 10);
    const unsigned long process = std::strtoul(index, &end_index, 10);
    if (*count == '\0' || *end_count != '\0' || *index == '\0' ||
        *end_index != '\0' || processes == 0 || processes > UINT32_MAX ||
        process >= processes) {
      return Error(PHAL_INVALID_ARGUMENT,
                   std::string("PHAL_PROCESS_ID='") + index +
                       "' of PHAL_NUM_PROCESSES='" + count +
                       "' is not a process index in [0, count)");
    }
    return Tcp(coordinator, static_cast<uint32_t>(process),
               static_cast<uint32_t>(processes), timeout);
  }

  // For phal_client_options_t::transport; valid while this object lives.
  const phal_host_transport_t* get() const { return transport_; }
  int rank() const { return transport_ != nullptr ? transport_->rank : 0; }
  int size() const { return transport_ != nullptr ? transport_->size : 1; }

  // After a failure: the peers waiting on this process fail now, naming it
  // (TCP; an MPI job ends with MPI_Abort, which the application calls).
  void Abandon() {
    if (owned_) phal_tcp_transport_abandon(tcp_);
  }

 private:
  const phal_host_transport_t* transport_ = nullptr;
  phal_host_transport_t* tcp_ = nullptr;
  bool owned_ = false;
};

}  // namespace phal

#endif  // POLYHAL_TRANSPORT_HPP_
