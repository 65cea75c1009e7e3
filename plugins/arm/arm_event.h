// Events: points in a stream's queue. A record runs the stream's batch and
// waits for it on the stream's fence (arm_stream.h), so an event has fired
// when its record returns, carrying the error of the work before it.
#ifndef POLYHAL_PLUGINS_ARM_ARM_EVENT_H_
#define POLYHAL_PLUGINS_ARM_ARM_EVENT_H_

#include <mutex>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::arm {

// Thread-safe.
class Event {
 public:
  void Fire(Status status);
  Status carried_status() const;

 private:
  mutable std::mutex mutex_;
  Status status_;
};

}  // namespace phal::arm

struct phal_plugin_event final : phal::arm::Event {};

#endif  // POLYHAL_PLUGINS_ARM_ARM_EVENT_H_
