#include "core/abi/stream_wait.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/abi/c_status.h"
#include "sdk/base/log.h"

namespace phal {
namespace {

using Clock = std::chrono::steady_clock;

StreamWaitResult Finished(Status status) {
  return {StreamWaitOutcome::kFinished, std::move(status)};
}

}  // namespace

double ExecuteTimeoutFromEnv() {
  const std::string text = GetEnv("PHAL_EXECUTE_TIMEOUT");
  if (text.empty()) return 0;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !(seconds > 0)) return 0;
  return seconds;
}

StreamWaitResult WaitForStream(const phal_plugin_api_t* api,
                               phal_plugin_device_t* device,
                               phal_plugin_stream_t* stream,
                               double timeout_seconds) {
  if (timeout_seconds <= 0) {
    return Finished(TakeCStatus(api->stream_synchronize(stream)));
  }
  phal_plugin_event_t* event = nullptr;
  if (!TakeCStatus(api->event_create(device, &event)).ok()) {
    return Finished(TakeCStatus(api->stream_synchronize(stream)));
  }
  if (!TakeCStatus(api->stream_record_event(stream, event)).ok()) {
    api->event_destroy(event);
    return Finished(TakeCStatus(api->stream_synchronize(stream)));
  }
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(timeout_seconds));
  auto pause = std::chrono::microseconds(20);
  while (true) {
    int done = 0;
    Status queried = TakeCStatus(api->event_query(event, &done));
    if (!queried.ok() || done != 0) break;
    if (Clock::now() >= deadline) {
      // The event stays recorded behind work that may never finish: it is
      // left to the stream, as the stream is.
      return {StreamWaitOutcome::kTimedOut, Status(PHAL_DEADLINE_EXCEEDED, "")};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  api->event_destroy(event);
  // The work has finished: this returns at once, with its first error.
  return Finished(TakeCStatus(api->stream_synchronize(stream)));
}

}  // namespace phal
