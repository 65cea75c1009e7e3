// transport.h: the TCP transport (core/distributed/tcp_job.h) and the MPI
// transport, which lives in libpolyhal_mpi (core/distributed/mpi_module.cc)
// and is loaded from beside libpolyhal on the first request.
#include "polyhal/transport.h"

#include <dlfcn.h>

#include <memory>
#include <mutex>
#include <string>

#include "core/distributed/tcp_job.h"
#include "core/runtime/api_guard.h"

namespace phal {
namespace {

constexpr std::chrono::milliseconds kDefaultJoinTimeout{60000};

// The function libpolyhal_mpi exports.
using MpiModuleTransport =
    phal_status_code_t (*)(const phal_host_transport_t** out_transport,
                           char* error, size_t error_capacity);

// The directory libpolyhal was loaded from, with its '/'; "" when unknown.
std::string LibraryDirectory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&phal_mpi_transport_get), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  const std::string path = info.dli_fname;
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

StatusOr<const phal_host_transport_t*> LoadMpiTransport() {
  // Open MPI loads components of its own that need its symbols: the module
  // and what it links are loaded for the whole process.
  const std::string beside = LibraryDirectory() + "libpolyhal_mpi.so";
  void* module = dlopen(beside.c_str(), RTLD_NOW | RTLD_GLOBAL);
  std::string error = module == nullptr ? dlerror() : "";
  if (module == nullptr) {
    module = dlopen("libpolyhal_mpi.so", RTLD_NOW | RTLD_GLOBAL);
  }
  if (module == nullptr) {
    return Unavailable(
        "MPI support is not installed: " + beside + " cannot be opened (" +
        error +
        "); it is built where MPI is found (libopenmpi-dev, which "
        "scripts/install-deps.sh installs)");
  }
  auto transport = reinterpret_cast<MpiModuleTransport>(
      dlsym(module, "phal_mpi_module_transport"));
  if (transport == nullptr) {
    return Unavailable(beside + " is not Polyhal's MPI module");
  }
  const phal_host_transport_t* out = nullptr;
  char message[512] = {};
  const phal_status_code_t code = transport(&out, message, sizeof(message));
  if (code != PHAL_OK) return Status(code, message);
  return out;
}

}  // namespace
}  // namespace phal

PHAL_API phal_status_t* phal_tcp_transport_create(
    const phal_tcp_job_options_t* options,
    phal_host_transport_t** out_transport) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (options == nullptr) return phal::NullArgument("options");
    if (out_transport == nullptr) return phal::NullArgument("out_transport");
    if (options->struct_size <
        PHAL_STRUCT_SIZE(phal_tcp_job_options_t, timeout_ms)) {
      return phal::InvalidArgument(
          "options->struct_size is too small; set it to "
          "sizeof(phal_tcp_job_options_t)");
    }
    if (options->coordinator == nullptr) {
      return phal::NullArgument("options->coordinator");
    }
    phal::TcpJobOptions join;
    join.coordinator = options->coordinator;
    join.rank = static_cast<int>(options->process_index);
    join.size = static_cast<int>(options->process_count);
    join.timeout = options->timeout_ms == 0
                       ? phal::kDefaultJoinTimeout
                       : std::chrono::milliseconds(options->timeout_ms);
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal::TcpJob> job,
                          phal::TcpJob::Connect(join));
    // The transport is the job's own; its user_data is the job.
    *out_transport = const_cast<phal_host_transport_t*>(job->c_transport());
    job.release();
    return phal::OkStatus();
  });
}

PHAL_API void phal_tcp_transport_destroy(phal_host_transport_t* transport) {
  if (transport == nullptr) return;
  delete static_cast<phal::TcpJob*>(transport->user_data);
}

PHAL_API void phal_tcp_transport_abandon(phal_host_transport_t* transport) {
  if (transport == nullptr) return;
  static_cast<phal::TcpJob*>(transport->user_data)->Abandon();
}

PHAL_API phal_status_t* phal_mpi_transport_get(
    const phal_host_transport_t** out_transport) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (out_transport == nullptr) return phal::NullArgument("out_transport");
    static std::once_flag once;
    static phal::StatusOr<const phal_host_transport_t*>* loaded = nullptr;
    std::call_once(once, [] {
      loaded = new phal::StatusOr<const phal_host_transport_t*>(
          phal::LoadMpiTransport());
    });
    PHAL_ASSIGN_OR_RETURN(*out_transport, *loaded);
    return phal::OkStatus();
  });
}
