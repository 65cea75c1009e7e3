// Waiting for the work queued on a plugin stream, with a deadline when
// PHAL_EXECUTE_TIMEOUT asks for one. The ABI's stream_synchronize blocks
// until the work is done, however long a hung kernel takes; event_query is
// the one call the ABI promises never blocks, so a bounded wait records an
// event behind the work and polls it.
#ifndef POLYHAL_CORE_ABI_STREAM_WAIT_H_
#define POLYHAL_CORE_ABI_STREAM_WAIT_H_

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

// Seconds from PHAL_EXECUTE_TIMEOUT (a positive number); 0, meaning wait
// as long as the work takes, when it is unset or not a positive number.
double ExecuteTimeoutFromEnv();

enum class StreamWaitOutcome {
  kFinished,  // the work finished; the status is its first error, if any
  kTimedOut,  // the work is still running: the stream must not be
              // synchronized, destroyed or reused, nor the buffers its work
              // uses freed
};

struct StreamWaitResult {
  StreamWaitOutcome outcome = StreamWaitOutcome::kFinished;
  Status status;
};

// Waits for the work queued on `stream` so far. With `timeout_seconds` 0,
// or when the plugin has no events, this is stream_synchronize.
StreamWaitResult WaitForStream(const phal_plugin_api_t* api,
                               phal_plugin_device_t* device,
                               phal_plugin_stream_t* stream,
                               double timeout_seconds);

}  // namespace phal

#endif  // POLYHAL_CORE_ABI_STREAM_WAIT_H_
