// Streams: a HIP stream each (non-blocking, so streams never wait for the
// null stream), with the first error of the work queued on it kept until
// the next synchronize, as plugin.h asks. On a GPU the work runs behind
// the caller; the emulator's runtime runs it before each call returns,
// which is also an in-order queue.
#ifndef POLYHAL_PLUGINS_AMD_AMD_STREAM_H_
#define POLYHAL_PLUGINS_AMD_AMD_STREAM_H_

#include <memory>
#include <mutex>
#include <vector>

#include "plugins/amd/amd_device.h"
#include "plugins/amd/amd_memory.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::amd {

// A kernel launch: the function, its grid, and its arguments in order.
struct LaunchRequest {
  hipFunction_t function = nullptr;
  unsigned int grid[3] = {1, 1, 1};
  unsigned int block[3] = {1, 1, 1};
  std::vector<void*> arguments;
};

// Thread-safe: every method takes the stream's lock.
class Stream {
 public:
  explicit Stream(const Device& device) : device_(device) {}
  // Waits for the queued work, then destroys the HIP stream.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Status Init();

  const Device& device() const { return device_; }
  hipStream_t handle() const { return stream_; }

  Status CopyFromHost(const void* source, const Buffer& buffer, uint64_t offset,
                      uint64_t byte_size);
  Status CopyToHost(const Buffer& buffer, uint64_t offset, void* destination,
                    uint64_t byte_size);
  // Between buffers of one device, of two devices of one runtime (peer
  // copies), or of two runtimes (through host memory, synchronously).
  Status CopyBuffer(const Buffer& source, uint64_t source_offset,
                    const Buffer& destination, uint64_t destination_offset,
                    uint64_t byte_size);
  // Queues `request`; `scratch` (may be null) is kept until the stream has
  // been synchronized, since the launch may still use it until then.
  Status Launch(const LaunchRequest& request, std::unique_ptr<Buffer> scratch);

  // Waits for the queued work; returns and clears the first error since
  // the previous Synchronize.
  Status Synchronize();
  // The error Synchronize would return for the work queued so far, without
  // waiting for work still running, left in place.
  Status PendingError() const;
  // Waits for the queued work; the error Synchronize would return, left in
  // place.
  Status Drain();
  // Makes `status` the stream's error if it has none.
  void AddError(Status status);

 private:
  // Waits for the queued work and frees the scratch buffers; the lock held.
  Status WaitLocked();
  void Keep(Status status);
  // Copies through host memory between devices of two runtimes, once this
  // stream's earlier work has finished; the lock held.
  Status CopyThroughHostLocked(const Buffer& source, uint64_t source_offset,
                               const Buffer& destination,
                               uint64_t destination_offset, uint64_t bytes);

  const Device& device_;
  hipStream_t stream_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Buffer>> scratch_;
  Status first_error_;
};

}  // namespace phal::amd

struct phal_plugin_stream final : phal::amd::Stream {
  using Stream::Stream;
};

#endif  // POLYHAL_PLUGINS_AMD_AMD_STREAM_H_
