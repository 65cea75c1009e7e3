// phal_stream: an application stream. Its plugin handle lives in shared
// state so that buffers can find, and wait for, the streams that used them.
#ifndef POLYHAL_CORE_RUNTIME_STREAM_H_
#define POLYHAL_CORE_RUNTIME_STREAM_H_

#include <memory>
#include <mutex>

#include "core/runtime/device.h"

namespace phal {

struct StreamState {
  std::mutex mutex;
  phal_device* device = nullptr;
  phal_plugin_stream_t* handle = nullptr;  // NULL once destroyed

  // Blocks until the work queued on the stream so far has finished,
  // without consuming the stream's pending error.
  void WaitForQueuedWork();
};

}  // namespace phal

struct phal_stream {
  phal_device* device = nullptr;
  std::shared_ptr<phal::StreamState> state;
};

namespace phal {
// Destroys a stream's plugin handle after its work has finished.
void DestroyStream(phal_stream* stream);
}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_STREAM_H_
