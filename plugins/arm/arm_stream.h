// Streams: in-order queues of work on the device's compute queue. Launches
// and buffer-to-buffer copies are recorded into a command buffer, a batch,
// with a memory barrier after each; the batch is submitted and waited for
// when it is full, when the host needs its results (host copies,
// synchronize, event records) or before the stream is destroyed. So work
// finishes in queue order and a batch costs one submission.
#ifndef POLYHAL_PLUGINS_ARM_ARM_STREAM_H_
#define POLYHAL_PLUGINS_ARM_ARM_STREAM_H_

#include <memory>
#include <mutex>
#include <vector>

#include "plugins/arm/arm_device.h"
#include "plugins/arm/arm_memory.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::arm {

struct CompiledKernel;

// Thread-safe: every method takes the stream's lock.
class Stream {
 public:
  explicit Stream(const Device& device) : device_(device) {}
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  Status Init();

  // Records `kernel` on `buffers` (and `scratch`, kept until the batch has
  // run) into the batch.
  Status Launch(const CompiledKernel& kernel,
                const std::vector<VkBuffer>& buffers,
                std::unique_ptr<Buffer> scratch);
  // Copies between buffers, through the batch.
  Status CopyBuffer(const Buffer& source, uint64_t source_offset,
                    const Buffer& destination, uint64_t destination_offset,
                    uint64_t byte_size);
  // Host copies: the batch runs first, then the bytes move (through a
  // staging buffer where the buffer is not host-visible).
  Status CopyFromHost(const void* source, const Buffer& buffer, uint64_t offset,
                      uint64_t byte_size);
  Status CopyToHost(const Buffer& buffer, uint64_t offset, void* destination,
                    uint64_t byte_size);

  // Runs the batch; returns and clears the first error since the previous
  // Synchronize.
  Status Synchronize();
  // Runs the batch; the error Synchronize would return, left in place.
  Status Drain();
  // Makes `status` the stream's error if it has none.
  void AddError(Status status);

 private:
  Status Begin();
  Status Flush();
  void Barrier();
  void Keep(Status status);

  const Device& device_;
  std::mutex mutex_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkDescriptorPool descriptors_ = VK_NULL_HANDLE;
  bool recording_ = false;
  uint32_t recorded_ = 0;
  std::vector<std::unique_ptr<Buffer>> keep_alive_;
  Status first_error_;
};

}  // namespace phal::arm

struct phal_plugin_stream final : phal::arm::Stream {
  using Stream::Stream;
};

#endif  // POLYHAL_PLUGINS_ARM_ARM_STREAM_H_
