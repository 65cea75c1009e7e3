// Streams: a driver stream each (never waiting for the default stream),
// with the first error of the work queued on it kept until the next
// synchronize, as plugin.h asks. On a GPU the work runs behind the caller;
// the emulator's driver runs it before each call returns, which is also an
// in-order queue.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_STREAM_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_STREAM_H_

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_device.h"
#include "sdk/gpu_plugin/gpu_memory.h"

namespace phal::gpu_plugin {

// A kernel launch: the function, its grid, and its arguments in order.
struct LaunchRequest {
  GpuFunction function = nullptr;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  std::vector<GpuAddress> arguments;
};

// Thread-safe: every method takes the stream's lock.
class Stream {
 public:
  explicit Stream(const Device& device) : device_(device) {}
  // Waits for the queued work, then destroys the driver's stream.
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Status Init();

  const Device& device() const { return device_; }
  GpuStream handle() const { return stream_; }

  Status CopyFromHost(const void* source, const Buffer& buffer, uint64_t offset,
                      uint64_t byte_size);
  Status CopyToHost(const Buffer& buffer, uint64_t offset, void* destination,
                    uint64_t byte_size);
  // Between buffers of one device, of two devices of one driver (peer
  // copies), or of two drivers (through host memory, synchronously).
  Status CopyBuffer(const Buffer& source, uint64_t source_offset,
                    const Buffer& destination, uint64_t destination_offset,
                    uint64_t byte_size);
  // Queues `request`; `scratch` (may be null) is kept until the stream has
  // been synchronized, since the launch may still use it until then.
  Status Launch(const LaunchRequest& request, std::unique_ptr<Buffer> scratch);
  // Calls queue(the driver's stream) with the stream's device current, for
  // work a library queues on the stream itself (a collective).
  Status QueueWith(const std::function<Status(GpuStream)>& queue);

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
  // Copies through host memory between devices of two drivers, once this
  // stream's earlier work has finished; the lock held.
  Status CopyThroughHostLocked(const Buffer& source, uint64_t source_offset,
                               const Buffer& destination,
                               uint64_t destination_offset, uint64_t bytes);

  const Device& device_;
  GpuStream stream_ = nullptr;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Buffer>> scratch_;
  Status first_error_;
};

}  // namespace phal::gpu_plugin

struct phal_plugin_stream final : phal::gpu_plugin::Stream {
  using Stream::Stream;
};

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_STREAM_H_
