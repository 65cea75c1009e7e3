// Streams: in-order queues of work on the device. The simulator runs a
// kernel before the launch that queues it returns, which is a valid
// in-order queue (work finishes in the order it was queued) and needs no
// thread; the stream keeps the first error until the next synchronize, as
// plugin.h requires.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_

#include <functional>
#include <mutex>

#include "asic_ref_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Thread-safe: work queued from several threads runs one item at a time.
class Stream {
 public:
  // A stream of `device`, which outlives it.
  explicit Stream(Device& device) : device_(device) {}

  Device& device() const { return device_; }

  // Runs `work` now, in queue order with every other item of this stream. A
  // non-OK result becomes the stream's error if it has none yet; later work
  // still runs (the ABI reports errors, it does not cancel work).
  void Run(const std::function<Status()>& work);
  // Returns and clears the first error since the previous Synchronize.
  Status Synchronize();
  // The error Synchronize would return, left in place.
  Status PendingError() const;

 private:
  Device& device_;
  mutable std::mutex mutex_;
  Status first_error_;
};

}  // namespace phal::asic_ref

struct phal_plugin_stream final : phal::asic_ref::Stream {
  using Stream::Stream;
};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_STREAM_H_
