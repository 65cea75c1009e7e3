// Events: a driver event each. A record on a stream of the event's own
// device is the driver's record; waits from streams of the same driver are
// the driver's stream wait (on any of its devices), from the other driver
// (GPU and emulator) a host wait first. The event also carries the error
// the recording stream had, so work that waits on it inherits that error.
#ifndef POLYHAL_SDK_GPU_PLUGIN_GPU_EVENT_H_
#define POLYHAL_SDK_GPU_PLUGIN_GPU_EVENT_H_

#include <mutex>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"
#include "sdk/gpu_plugin/gpu_device.h"
#include "sdk/gpu_plugin/gpu_stream.h"

namespace phal::gpu_plugin {

// Thread-safe.
class Event {
 public:
  explicit Event(const Device& device) : device_(device) {}
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  Status Init();

  // The event fires when the work queued on `stream` so far has finished.
  Status Record(Stream& stream);
  // Work queued on `stream` after this call waits for the latest record.
  Status MakeWait(Stream& stream);
  // Blocks until the event fires; the error of the work it waited for.
  Status Synchronize();
  // Whether the event has fired; never blocks.
  StatusOr<bool> Query();

 private:
  const Device& device_;
  GpuEvent event_ = nullptr;
  std::mutex mutex_;
  // The latest record went through the driver; false for an event never
  // recorded or recorded by a host wait.
  bool recorded_ = false;
  Status carried_;
};

}  // namespace phal::gpu_plugin

struct phal_plugin_event final : phal::gpu_plugin::Event {
  using Event::Event;
};

#endif  // POLYHAL_SDK_GPU_PLUGIN_GPU_EVENT_H_
