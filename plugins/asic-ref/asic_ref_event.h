// Events: points in a stream's queue that other streams and the host wait
// for. Work on the device's streams has finished when it is queued
// (asic_ref_stream.h), so a record fires at once, carrying the error of the
// work before it.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_

#include <mutex>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Thread-safe.
class Event {
 public:
  // The event fires carrying `status` (the error of the work it waited for).
  void Fire(Status status);
  // The error the latest record carried; OK for an event never recorded.
  Status carried_status() const;

 private:
  mutable std::mutex mutex_;
  Status status_;
};

}  // namespace phal::asic_ref

struct phal_plugin_event final : phal::asic_ref::Event {};

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_EVENT_H_
