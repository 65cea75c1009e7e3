// Events: OpenCL marker events. Recording enqueues a marker on the stream's
// queue and keeps its cl_event; waiting enqueues a barrier on it (or, for a
// stream of another device, whose context cannot see the event, waits on
// the host).
#ifndef POLYHAL_PLUGINS_INTEL_INTEL_EVENT_H_
#define POLYHAL_PLUGINS_INTEL_INTEL_EVENT_H_

#include <mutex>

#include "plugins/intel/intel_device.h"
#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::intel {

// Thread-safe: the latest record is swapped under a mutex, and every user
// takes its own reference to the cl_event.
class Event {
 public:
  explicit Event(const Device* device) : device_(device) {}
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  const Device* device() const { return device_; }
  // Makes `marker` (whose reference the event takes) the latest record.
  void Record(cl_event marker);
  // The latest record with a reference for the caller, or NULL when the
  // event was never recorded (it counts as fired).
  cl_event Latest() const;

 private:
  const Device* device_;
  mutable std::mutex mutex_;
  cl_event latest_ = nullptr;
};

}  // namespace phal::intel

struct phal_plugin_event final : phal::intel::Event {
  using Event::Event;
};

#endif  // POLYHAL_PLUGINS_INTEL_INTEL_EVENT_H_
