#include "plugins/cpu/cpu_event.h"
#include "plugins/cpu/cpu_device.h"
#include "plugins/cpu/cpu_plugin.h"

#include <memory>
#include <utility>

#include "plugins/cpu/cpu_stream.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::cpu {

uint64_t EventState::BeginRecord() {
  std::lock_guard lock(mutex_);
  return ++recorded_generation_;
}

void EventState::Complete(uint64_t generation, Status status) {
  {
    std::lock_guard lock(mutex_);
    if (generation <= completed_generation_) return;
    completed_generation_ = generation;
    completed_status_ = std::move(status);
  }
  fired_.notify_all();
}

uint64_t EventState::latest_generation() const {
  std::lock_guard lock(mutex_);
  return recorded_generation_;
}

Status EventState::Wait(uint64_t generation) const {
  std::unique_lock lock(mutex_);
  fired_.wait(lock, [&] { return completed_generation_ >= generation; });
  return completed_status_;
}

bool EventState::HasFired() const {
  std::lock_guard lock(mutex_);
  return completed_generation_ >= recorded_generation_;
}

PHAL_DEFINE_EVENT_HANDLE_SLOTS()

phal_status_t* StreamRecordEvent(phal_plugin_stream_t* stream,
                                 phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] {
    std::shared_ptr<EventState> state = event->state;
    const uint64_t generation = state->BeginRecord();
    Stream* queue = stream;
    try {
      // Runs after everything queued before it, so the stream's pending
      // error is exactly the first error of the work the event covers.
      queue->Enqueue([state, generation, queue] {
        state->Complete(generation, queue->PendingError());
        return OkStatus();
      });
    } catch (...) {
      // The signal could not be queued; fire the generation now so that no
      // waiter blocks forever on a record that never happened.
      state->Complete(generation,
                      Status(PHAL_RESOURCE_EXHAUSTED, "out of memory"));
      throw;
    }
    return OkStatus();
  });
}

phal_status_t* StreamWaitEvent(phal_plugin_stream_t* stream,
                               phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] {
    std::shared_ptr<EventState> state = event->state;
    const uint64_t generation = state->latest_generation();
    // The worker blocks until the event fires. Work after the wait consumes
    // what the recorded work produced, so the recorded work's error becomes
    // this stream's error too.
    stream->Enqueue([state, generation] { return state->Wait(generation); });
    return OkStatus();
  });
}

phal_status_t* EventSynchronize(phal_plugin_event_t* event) noexcept {
  return RunAtAbiBoundary([&] {
    const EventState& state = *event->state;
    return state.Wait(state.latest_generation());
  });
}

phal_status_t* EventQuery(phal_plugin_event_t* event, int* out_done) noexcept {
  return RunAtAbiBoundary([&] {
    *out_done = event->state->HasFired() ? 1 : 0;
    return OkStatus();
  });
}

}  // namespace phal::cpu
