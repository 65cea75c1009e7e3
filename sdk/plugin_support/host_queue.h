// Streams, events and copies of a plugin whose work has finished when the
// call that queues it returns (the template, asic-ref's simulator): an
// in-order queue that needs no thread. Such a plugin writes its stream,
// event and copy slots with the macros of plugin_slots.h over these types:
//
//   struct phal_plugin_stream final : phal::HostStream<phal::acme::Device> {
//     using HostStream::HostStream;
//   };
//   struct phal_plugin_event final : phal::HostEvent {};
//
//   PHAL_DEFINE_STREAM_HANDLE_SLOTS()  // acme_stream.cc
//   PHAL_DEFINE_FIRED_EVENT_SLOTS()    // acme_event.cc
//   PHAL_DEFINE_STREAM_COPY_SLOTS()    // acme_copy.cc
//
// A plugin whose hardware runs work behind the caller keeps its own queue
// (the cpu plugin's worker thread, sdk/gpu_plugin's driver streams).
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_HOST_QUEUE_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_HOST_QUEUE_H_

#include <cstdint>
#include <functional>
#include <mutex>

#include "sdk/base/status.h"

namespace phal {

// Thread-safe: work queued from several threads runs one item at a time.
class HostQueue {
 public:
  // Runs `work` now, in queue order with every other item of this queue. A
  // non-OK result becomes the queue's error if it has none yet; later work
  // still runs (the ABI reports errors, it does not cancel work).
  void Run(const std::function<Status()>& work);
  // Returns and clears the first error since the previous Synchronize.
  Status Synchronize();
  // The error Synchronize would return, left in place. Nothing is ever
  // pending, so there is nothing to wait for first.
  Status Drain() const;
  // Makes `status` the queue's error if it has none, as work that failed
  // with it would.
  void AddError(Status status);

  // The copies of PHAL_DEFINE_STREAM_COPY_SLOTS (plugin_slots.h), each a
  // memcpy run on the queue, for memory backed by host bytes:
  //   std::byte* Memory::HostBytes(uint64_t offset, uint64_t size) const;
  // the bytes of [offset, offset + size), after the slot's range check.
  template <typename Memory>
  Status CopyFromHost(const void* source, const Memory& memory, uint64_t offset,
                      uint64_t byte_size) {
    QueueHostCopy(memory.HostBytes(offset, byte_size), source, byte_size);
    return OkStatus();
  }
  template <typename Memory>
  Status CopyToHost(const Memory& memory, uint64_t offset, void* destination,
                    uint64_t byte_size) {
    QueueHostCopy(destination, memory.HostBytes(offset, byte_size), byte_size);
    return OkStatus();
  }
  template <typename Memory>
  Status CopyBuffer(const Memory& source, uint64_t source_offset,
                    const Memory& destination, uint64_t destination_offset,
                    uint64_t byte_size) {
    QueueHostCopy(destination.HostBytes(destination_offset, byte_size),
                  source.HostBytes(source_offset, byte_size), byte_size);
    return OkStatus();
  }

 private:
  // Runs a memcpy of `byte_size` bytes; a zero-byte copy touches neither
  // pointer.
  void QueueHostCopy(void* destination, const void* source, uint64_t byte_size);

  mutable std::mutex mutex_;
  Status first_error_;
};

// A HostQueue of one device, which outlives it.
template <typename Device>
class HostStream : public HostQueue {
 public:
  explicit HostStream(Device& device) : device_(device) {}

  Device& device() const { return device_; }

 private:
  Device& device_;
};

// An event of a HostQueue: a record fires it at once, carrying the error
// of the work before it. Thread-safe.
class HostEvent {
 public:
  // The event fires carrying `status` (the error of the work it waited for).
  void Fire(Status status);
  // The error the latest record carried; OK for an event never recorded.
  Status carried_status() const;

 private:
  mutable std::mutex mutex_;
  Status status_;
};

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_HOST_QUEUE_H_
