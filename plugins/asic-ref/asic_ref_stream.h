// Streams: in-order queues of work. The template runs each operation before
// the call that queues it returns, which is a valid in-order queue (work
// finishes in the order it was queued) and needs no thread; the stream
// keeps the first error until the next synchronize, as plugin.h requires.
// TODO(vendor): map a stream to your hardware queue (a CUDA stream, a
// Vulkan queue, a command list) and queue work there instead; the cpu
// plugin's cpu_stream.h is a worker-thread queue to learn from.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_

#include <functional>
#include <mutex>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Thread-safe: work queued from several threads runs one item at a time.
class Stream {
 public:
  // Runs `work` now, in queue order with every other item of this stream. A
  // non-OK result becomes the stream's error if it has none yet; later work
  // still runs (the ABI reports errors, it does not cancel work).
  void Run(const std::function<Status()>& work);
  // Returns and clears the first error since the previous Synchronize.
  Status Synchronize();
  // The error Synchronize would return, left in place.
  Status PendingError() const;

 private:
  mutable std::mutex mutex_;
  Status first_error_;
};

}  // namespace phal::asic_ref

struct phal_plugin_stream final : phal::asic_ref::Stream {};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
