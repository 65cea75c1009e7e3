// phal_buffer_* functions: allocation and synchronous copies.
#include "core/runtime/buffer.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>

#include "core/hlo/shape.h"
#include "core/runtime/api_guard.h"
#include "core/runtime/client.h"
#include "sdk/base/extensible_struct.h"

void phal_buffer::NoteStreamUse(
    const std::shared_ptr<phal::StreamState>& stream) {
  std::lock_guard<std::mutex> lock(users_mutex_);
  for (auto it = stream_users_.begin(); it != stream_users_.end();) {
    std::shared_ptr<phal::StreamState> user = it->lock();
    if (user == stream) return;
    it = user ? it + 1 : stream_users_.erase(it);
  }
  stream_users_.push_back(stream);
}

void phal_buffer::WaitForStreamUsers() {
  std::vector<std::weak_ptr<phal::StreamState>> users;
  {
    std::lock_guard<std::mutex> lock(users_mutex_);
    users.swap(stream_users_);
  }
  for (const auto& weak : users) {
    if (auto user = weak.lock()) user->WaitForQueuedWork();
  }
}

namespace phal {
namespace {

// Runs one operation on a pooled plugin stream of `device` and waits.
template <typename Enqueue>
Status RunSynchronously(phal_device* device, Enqueue&& enqueue) {
  phal_plugin_stream_t* stream = nullptr;
  PHAL_RETURN_IF_ERROR(device->AcquireSyncStream(&stream));
  Status status = device->Check(enqueue(stream));
  Status synced = device->Check(device->api->stream_synchronize(stream));
  device->ReleaseSyncStream(stream);
  return status.ok() ? synced : status;
}

StatusOr<uint64_t> ByteSizeOf(phal_element_type_t type, uint32_t rank,
                              const int64_t* dims) {
  size_t element_size = phal_element_type_byte_size(type);
  if (element_size == 0) {
    return InvalidArgument("element type " +
                           std::to_string(static_cast<int>(type)) +
                           " is not a phal_element_type_t");
  }
  if (rank > 0 && dims == nullptr) {
    return InvalidArgument("desc->dims is NULL but rank is " +
                           std::to_string(rank));
  }
  uint64_t bytes = element_size;
  constexpr uint64_t kLimit = std::numeric_limits<int64_t>::max();
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0) {
      return InvalidArgument("dimension " + std::to_string(i) + " is " +
                             std::to_string(dims[i]) + "; sizes must be >= 0");
    }
    uint64_t dim = static_cast<uint64_t>(dims[i]);
    if (dim != 0 && bytes > kLimit / dim) {
      return InvalidArgument("buffer size overflows 63 bits");
    }
    bytes *= dim;
  }
  return bytes;
}

}  // namespace

Status CheckRange(const phal_buffer* buffer, uint64_t offset,
                  uint64_t byte_size, const char* what) {
  if (offset > buffer->byte_size || byte_size > buffer->byte_size - offset) {
    return OutOfRange(std::string(what) + " range [" + std::to_string(offset) +
                      ", " + std::to_string(offset) + "+" +
                      std::to_string(byte_size) + ") exceeds the buffer's " +
                      std::to_string(buffer->byte_size) + " bytes");
  }
  return OkStatus();
}

void DestroyBuffer(phal_buffer* buffer) {
  buffer->WaitForStreamUsers();
  buffer->device->api->buffer_free(buffer->handle);
  delete buffer;
}

namespace {

Status Allocate(phal_device* device, const phal_buffer_desc_t* desc,
                phal_buffer_t** out_buffer) {
  if (device == nullptr) return NullArgument("device");
  if (desc == nullptr) return NullArgument("desc");
  if (out_buffer == nullptr) return NullArgument("out_buffer");
  PHAL_RETURN_IF_ERROR(device->CheckRunnable("allocate buffers"));
  if (desc->struct_size < PHAL_STRUCT_SIZE(phal_buffer_desc_t, memory_space)) {
    return InvalidArgument(
        "desc->struct_size is too small; set it to "
        "sizeof(phal_buffer_desc_t)");
  }
  // Read as a plain number: a value outside the enumeration is an error to
  // report, and loading it as the enum type would be undefined behaviour.
  uint32_t raw_type = 0;
  std::memcpy(&raw_type, &desc->element_type, sizeof(raw_type));
  if (raw_type <= PHAL_ELEMENT_TYPE_INVALID ||
      raw_type >= PHAL_ELEMENT_TYPE_COUNT) {
    return InvalidArgument("element type " + std::to_string(raw_type) +
                           " is not a phal_element_type_t");
  }
  PHAL_ASSIGN_OR_RETURN(uint64_t bytes,
                        ByteSizeOf(desc->element_type, desc->rank, desc->dims));
  if (desc->memory_space >= device->memory_spaces.size()) {
    return OutOfRange("memory space " + std::to_string(desc->memory_space) +
                      " does not exist on device '" + device->properties.name +
                      "'");
  }
  auto buffer = std::make_unique<phal_buffer>();
  buffer->device = device;
  buffer->element_type = desc->element_type;
  buffer->dims.assign(desc->dims, desc->dims + desc->rank);
  buffer->byte_size = bytes;
  buffer->memory_space = desc->memory_space;
  PHAL_RETURN_IF_ERROR(device->Check(device->api->buffer_allocate(
      device->handle, desc->memory_space, bytes, &buffer->handle)));
  device->client->Track(device->client->buffers, buffer.get());
  *out_buffer = buffer.release();
  return OkStatus();
}

// Copies between buffers of different plugins through host memory, in
// chunks so a large copy does not need a buffer-sized staging area.
Status CopyAcrossPlugins(const phal_buffer* source, uint64_t source_offset,
                         phal_buffer* destination, uint64_t destination_offset,
                         uint64_t byte_size) {
  constexpr uint64_t kChunk = uint64_t{64} << 20;
  std::vector<char> staging(std::min(byte_size, kChunk));
  for (uint64_t done = 0; done < byte_size;) {
    uint64_t chunk = std::min(kChunk, byte_size - done);
    PHAL_RETURN_IF_ERROR(
        RunSynchronously(source->device, [&](phal_plugin_stream_t* stream) {
          return source->device->api->stream_copy_to_host(
              stream, source->handle, source_offset + done, staging.data(),
              chunk);
        }));
    PHAL_RETURN_IF_ERROR(RunSynchronously(
        destination->device, [&](phal_plugin_stream_t* stream) {
          return destination->device->api->stream_copy_from_host(
              stream, staging.data(), destination->handle,
              destination_offset + done, chunk);
        }));
    done += chunk;
  }
  return OkStatus();
}

}  // namespace

Status CheckNoOverlap(const phal_buffer* source, uint64_t source_offset,
                      const phal_buffer* destination,
                      uint64_t destination_offset, uint64_t byte_size) {
  if (source != destination || byte_size == 0) return OkStatus();
  bool disjoint = source_offset + byte_size <= destination_offset ||
                  destination_offset + byte_size <= source_offset;
  if (disjoint) return OkStatus();
  return InvalidArgument(
      "source and destination ranges overlap in one "
      "buffer");
}

}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_buffer_allocate(phal_device_t* device,
                                             const phal_buffer_desc_t* desc,
                                             phal_buffer_t** out_buffer) {
  return phal::GuardedCall(
      [&] { return phal::Allocate(device, desc, out_buffer); });
}

PHAL_API void phal_buffer_free(phal_buffer_t* buffer) {
  phal::UntrackAndDestroy(buffer, &phal_client::buffers, phal::DestroyBuffer);
}

PHAL_API phal_status_t* phal_buffer_get_desc(const phal_buffer_t* buffer,
                                             phal_buffer_desc_t* out) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (buffer == nullptr) return phal::NullArgument("buffer");
    phal_buffer_desc_t desc{};
    desc.element_type = buffer->element_type;
    desc.rank = static_cast<uint32_t>(buffer->dims.size());
    desc.dims = buffer->dims.empty() ? nullptr : buffer->dims.data();
    desc.memory_space = buffer->memory_space;
    return phal::CopyFittingMembers(desc, out);
  });
}

PHAL_API phal_status_t* phal_buffer_get_byte_size(const phal_buffer_t* buffer,
                                                  uint64_t* out_byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (buffer == nullptr) return phal::NullArgument("buffer");
    if (out_byte_size == nullptr) return phal::NullArgument("out_byte_size");
    *out_byte_size = buffer->byte_size;
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_buffer_get_device(const phal_buffer_t* buffer,
                                               phal_device_t** out_device) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (buffer == nullptr) return phal::NullArgument("buffer");
    if (out_device == nullptr) return phal::NullArgument("out_device");
    *out_device = buffer->device;
    return phal::OkStatus();
  });
}

PHAL_API phal_status_t* phal_buffer_copy_from_host(phal_buffer_t* buffer,
                                                   uint64_t offset,
                                                   const void* source,
                                                   uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (buffer == nullptr) return phal::NullArgument("buffer");
    if (source == nullptr && byte_size != 0)
      return phal::NullArgument("source");
    PHAL_RETURN_IF_ERROR(phal::CheckRange(buffer, offset, byte_size, "copy"));
    if (byte_size == 0) return phal::OkStatus();
    return phal::RunSynchronously(
        buffer->device, [&](phal_plugin_stream_t* stream) {
          return buffer->device->api->stream_copy_from_host(
              stream, source, buffer->handle, offset, byte_size);
        });
  });
}

PHAL_API phal_status_t* phal_buffer_copy_to_host(const phal_buffer_t* buffer,
                                                 uint64_t offset,
                                                 void* destination,
                                                 uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (buffer == nullptr) return phal::NullArgument("buffer");
    if (destination == nullptr && byte_size != 0) {
      return phal::NullArgument("destination");
    }
    PHAL_RETURN_IF_ERROR(phal::CheckRange(buffer, offset, byte_size, "copy"));
    if (byte_size == 0) return phal::OkStatus();
    return phal::RunSynchronously(
        buffer->device, [&](phal_plugin_stream_t* stream) {
          return buffer->device->api->stream_copy_to_host(
              stream, buffer->handle, offset, destination, byte_size);
        });
  });
}

PHAL_API phal_status_t* phal_buffer_copy(const phal_buffer_t* source,
                                         uint64_t source_offset,
                                         phal_buffer_t* destination,
                                         uint64_t destination_offset,
                                         uint64_t byte_size) {
  return phal::GuardedCall([&]() -> phal::Status {
    if (source == nullptr) return phal::NullArgument("source");
    if (destination == nullptr) return phal::NullArgument("destination");
    PHAL_RETURN_IF_ERROR(
        phal::CheckRange(source, source_offset, byte_size, "source"));
    PHAL_RETURN_IF_ERROR(phal::CheckRange(destination, destination_offset,
                                          byte_size, "destination"));
    PHAL_RETURN_IF_ERROR(phal::CheckNoOverlap(
        source, source_offset, destination, destination_offset, byte_size));
    if (byte_size == 0) return phal::OkStatus();
    if (source->device->api != destination->device->api) {
      return phal::CopyAcrossPlugins(source, source_offset, destination,
                                     destination_offset, byte_size);
    }
    return phal::RunSynchronously(
        source->device, [&](phal_plugin_stream_t* stream) {
          return source->device->api->stream_copy_buffer(
              stream, source->handle, source_offset, destination->handle,
              destination_offset, byte_size);
        });
  });
}

}  // extern "C"
