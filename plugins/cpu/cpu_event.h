// Events: points in a stream's queue that other streams and the host can
// wait for.
#ifndef POLYHAL_PLUGINS_CPU_CPU_EVENT_H_
#define POLYHAL_PLUGINS_CPU_CPU_EVENT_H_

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// The state of an event, shared by its handle and by every queued task that
// signals or waits for it, so destroying the handle while a record is still
// queued is safe: the task keeps the state alive.
//
// Each record gets the next generation number. The event has fired once the
// latest record's signal (or any later one) has run; a signal from an older
// record that runs late changes nothing. A waiter names the generation it
// waits for, so waiting on a re-recorded event waits for the record that was
// latest when the wait was issued.
class EventState {
 public:
  // Starts a record: the event is unsignalled until Complete(generation).
  uint64_t BeginRecord();
  // Signals `generation`, carrying the error of the work it waited for.
  void Complete(uint64_t generation, Status status);
  // The latest record's generation; 0 when never recorded (an event is
  // created signalled).
  uint64_t latest_generation() const;
  // Blocks until `generation` has fired; returns the error it carried.
  Status Wait(uint64_t generation) const;
  // True when the latest record has fired; never blocks for long (it only
  // takes the state's mutex).
  bool HasFired() const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable fired_;
  uint64_t recorded_generation_ = 0;
  uint64_t completed_generation_ = 0;
  Status completed_status_;
};

}  // namespace phal::cpu

struct phal_plugin_event final {
  std::shared_ptr<phal::cpu::EventState> state =
      std::make_shared<phal::cpu::EventState>();
};

#endif  // POLYHAL_PLUGINS_CPU_CPU_EVENT_H_
