// A client's job (ABI 1.9, runtime.h "jobs of several processes"): the
// application's host transport, wrapped for the executor, and the job's
// global device table, gathered from every process when the client is
// created.
#ifndef POLYHAL_CORE_RUNTIME_JOB_H_
#define POLYHAL_CORE_RUNTIME_JOB_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/executor/host_transport.h"
#include "polyhal/runtime.h"
#include "sdk/base/status.h"

namespace phal {

// Transport tags of the client's own exchanges (the collectives use those
// below kFirstFreeTransportTag).
inline constexpr int kDeviceTableTag = 30001;
inline constexpr int kCompileAgreementTag = 30003;

// An application's phal_host_transport_t as a HostTransport, with the
// reductions chained on its `next` (phal_host_reductions_t) where it has
// them.
class CHostTransport final : public HostTransport {
 public:
  explicit CHostTransport(const phal_host_transport_t& transport);
  int rank() const override { return transport_.rank; }
  int size() const override { return transport_.size; }
  Status Exchange(std::vector<Message>& sends, std::vector<Message>& receives,
                  int tag, std::chrono::milliseconds timeout,
                  const std::string& what) override;
  HostReductions* reductions() override { return reductions_.get(); }

 private:
  const phal_host_transport_t& transport_;
  std::unique_ptr<CHostReductions> reductions_;
};

struct GlobalDevice {
  uint32_t process = 0;
  phal_device_t* device = nullptr;  // null on another process
  std::string plugin;
  std::string name;
};

struct ClientJob {
  std::unique_ptr<HostTransport> transport;  // null: a job of one process
  std::vector<GlobalDevice> devices;
  // Compiles and executions over the job, one at a time, so that every
  // process's exchanges meet in the same order.
  std::mutex mutex;
  int rank() const { return transport ? transport->rank() : 0; }
  int size() const { return transport ? transport->size() : 1; }
};

// Fills client->job: without a transport, this process's devices; with
// one, every process's, in rank order (exchanged within the collective
// timeout).
Status JoinJob(phal_client_t* client, const phal_host_transport_t* transport);

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_JOB_H_
