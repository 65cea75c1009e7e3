// Streams: in-order OpenCL command queues. Copies, kernels, markers and
// barriers are enqueued without waiting; synchronize is clFinish.
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_STREAM_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_STREAM_H_

#include "plugins/intel/intel_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::intel {

// OpenCL command queues are thread-safe, so every method may run on many
// threads at once.
class Stream {
 public:
  Stream(const Device* device, cl_command_queue queue)
      : device_(device), queue_(queue) {}
  // Waits for the queued work, then releases the queue.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  const Device* device() const { return device_; }
  cl_command_queue queue() const { return queue_; }
  // Waits until every command queued so far has finished; an error of any
  // of them is reported.
  Status Synchronize() const;

 private:
  const Device* device_;
  cl_command_queue queue_;
};

}  // namespace phal::intel

struct phal_plugin_stream final : phal::intel::Stream {
  using Stream::Stream;
};

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_STREAM_H_
