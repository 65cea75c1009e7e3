// PJRT buffers: Polyhal buffers in the dense row-major layout, filled from
// host memory of any byte strides and read back whole.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sdk/pjrt/pjrt_entry_points.h"
#include "sdk/pjrt/pjrt_error.h"

namespace phal::pjrt {
namespace {

// Row-major byte strides of `dims` for elements of `element_size` bytes.
std::vector<int64_t> DenseStrides(const std::vector<int64_t>& dims,
                                  int64_t element_size) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = element_size;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

// Copies a strided host array into dense row-major `out`.
void Gather(const char* source, const std::vector<int64_t>& dims,
            const std::vector<int64_t>& strides, size_t axis,
            int64_t element_size, char** out) {
  if (axis == dims.size()) {
    std::memcpy(*out, source, static_cast<size_t>(element_size));
    *out += element_size;
    return;
  }
  for (int64_t i = 0; i < dims[axis]; ++i) {
    Gather(source + i * strides[axis], dims, strides, axis + 1, element_size,
           out);
  }
}

// Null when `layout` is absent or the dense row-major one.
PJRT_Error* CheckRowMajor(const PJRT_Buffer_MemoryLayout* layout, size_t rank,
                          int64_t element_size,
                          const std::vector<int64_t>& dims, const char* what) {
  if (layout == nullptr) return nullptr;
  bool row_major = false;
  if (layout->type == PJRT_Buffer_MemoryLayout_Type_Tiled) {
    const PJRT_Buffer_MemoryLayout_Tiled& tiled = layout->tiled;
    row_major = tiled.num_tiles == 0 && tiled.minor_to_major_size == rank;
    for (size_t i = 0; row_major && i < rank; ++i) {
      row_major = tiled.minor_to_major[i] == static_cast<int64_t>(rank - 1 - i);
    }
  } else {
    const PJRT_Buffer_MemoryLayout_Strides& strides = layout->strides;
    row_major = strides.num_byte_strides == rank &&
                std::vector<int64_t>(strides.byte_strides,
                                     strides.byte_strides + rank) ==
                    DenseStrides(dims, element_size);
  }
  if (row_major) return nullptr;
  return MakeError(PJRT_Error_Code_UNIMPLEMENTED,
                   std::string(what) +
                       ": Polyhal's buffers are dense row-major; another "
                       "layout was asked for");
}

// A new PJRT buffer of `dims` on `device`, uninitialised.
PJRT_Error* NewBuffer(PJRT_Client* client, PJRT_Device* device,
                      PJRT_Buffer_Type type, const int64_t* dims, size_t rank,
                      std::unique_ptr<PJRT_Buffer>* out) {
  const phal_element_type_t element = ToPolyhalType(type);
  if (element == PHAL_ELEMENT_TYPE_INVALID) {
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED,
                     std::string("Polyhal has no buffers of element type ") +
                         PjrtTypeName(type) + " (PJRT type " +
                         std::to_string(static_cast<int>(type)) + ")");
  }
  auto buffer = std::make_unique<PJRT_Buffer>();
  client->Retain();
  buffer->client = client;
  buffer->device = device;
  buffer->type = type;
  buffer->dims.assign(dims, dims + rank);
  for (size_t i = 0; i < rank; ++i) {
    buffer->minor_to_major.push_back(static_cast<int64_t>(rank - 1 - i));
  }
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.element_type = element;
  desc.rank = static_cast<uint32_t>(rank);
  desc.dims = rank == 0 ? nullptr : buffer->dims.data();
  if (PJRT_Error* error = FromStatus(
          phal_buffer_allocate(device->device, &desc, &buffer->buffer))) {
    return error;
  }
  if (PJRT_Error* error = FromStatus(
          phal_buffer_get_byte_size(buffer->buffer, &buffer->byte_size))) {
    return error;
  }
  device->CountAllocation(static_cast<int64_t>(buffer->byte_size));
  *out = std::move(buffer);
  return nullptr;
}

PJRT_Error* Deleted(const char* what) {
  return MakeError(PJRT_Error_Code_FAILED_PRECONDITION,
                   std::string(what) + ": the buffer has been deleted");
}

PJRT_Device* DeviceOf(PJRT_Device* device, PJRT_Memory* memory) {
  if (device != nullptr) return device;
  if (memory != nullptr && !memory->devices.empty()) return memory->devices[0];
  return nullptr;
}

PJRT_Error* CopyBuffer(PJRT_Buffer* source, PJRT_Device* destination,
                       PJRT_Buffer** out) {
  std::unique_ptr<PJRT_Buffer> copy;
  if (PJRT_Error* error =
          NewBuffer(source->client, destination, source->type,
                    source->dims.data(), source->dims.size(), &copy)) {
    return error;
  }
  std::lock_guard<std::mutex> lock(source->mutex);
  if (source->buffer == nullptr) return Deleted("PJRT_Buffer_CopyToDevice");
  if (PJRT_Error* error = FromStatus(phal_buffer_copy(
          source->buffer, 0, copy->buffer, 0, source->byte_size))) {
    return error;
  }
  *out = copy.release();
  return nullptr;
}

}  // namespace

PJRT_Error* Client_BufferFromHostBuffer(
    PJRT_Client_BufferFromHostBuffer_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
  PJRT_Device* device = DeviceOf(args->device, args->memory);
  if (device == nullptr) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Client_BufferFromHostBuffer: neither a device nor "
                     "a memory was given");
  }
  std::unique_ptr<PJRT_Buffer> buffer;
  if (PJRT_Error* error = NewBuffer(args->client, device, args->type,
                                    args->dims, args->num_dims, &buffer)) {
    return error;
  }
  const int64_t element_size = static_cast<int64_t>(
      phal_element_type_byte_size(ToPolyhalType(args->type)));
  if (PJRT_Error* error =
          CheckRowMajor(args->device_layout, args->num_dims, element_size,
                        buffer->dims, "PJRT_Client_BufferFromHostBuffer")) {
    return error;
  }
  const std::vector<int64_t> dense = DenseStrides(buffer->dims, element_size);
  const bool strided =
      args->byte_strides != nullptr && args->num_byte_strides > 0 &&
      std::vector<int64_t>(args->byte_strides,
                           args->byte_strides + args->num_byte_strides) !=
          dense;
  if (strided && args->num_byte_strides != args->num_dims) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Client_BufferFromHostBuffer: " +
                         std::to_string(args->num_byte_strides) +
                         " byte strides for " + std::to_string(args->num_dims) +
                         " dimensions");
  }
  const void* source = args->data;
  std::vector<char> gathered;
  if (strided && buffer->byte_size > 0) {
    gathered.resize(buffer->byte_size);
    char* out = gathered.data();
    Gather(static_cast<const char*>(args->data), buffer->dims,
           std::vector<int64_t>(args->byte_strides,
                                args->byte_strides + args->num_byte_strides),
           0, element_size, &out);
    source = gathered.data();
  }
  if (PJRT_Error* error = FromStatus(phal_buffer_copy_from_host(
          buffer->buffer, 0, source, buffer->byte_size))) {
    return error;
  }
  // The host data has been copied: the caller may reuse it at once.
  args->done_with_host_buffer = MakeEvent(nullptr);
  args->buffer = buffer.release();
  return nullptr;
}

PJRT_Error* Client_CreateUninitializedBuffer(
    PJRT_Client_CreateUninitializedBuffer_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_CreateUninitializedBuffer_Args, args);
  PJRT_Device* device = DeviceOf(args->device, args->memory);
  if (device == nullptr) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Client_CreateUninitializedBuffer: neither a device "
                     "nor a memory was given");
  }
  std::unique_ptr<PJRT_Buffer> buffer;
  if (PJRT_Error* error =
          NewBuffer(args->client, device, args->shape_element_type,
                    args->shape_dims, args->shape_num_dims, &buffer)) {
    return error;
  }
  args->buffer = buffer.release();
  return nullptr;
}

PJRT_Error* Buffer_Destroy(PJRT_Buffer_Destroy_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_Destroy_Args, args);
  delete args->buffer;
  return nullptr;
}

PJRT_Error* Buffer_ElementType(PJRT_Buffer_ElementType_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_ElementType_Args, args);
  args->type = args->buffer->type;
  return nullptr;
}

PJRT_Error* Buffer_Dimensions(PJRT_Buffer_Dimensions_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_Dimensions_Args, args);
  args->dims = args->buffer->dims.data();
  args->num_dims = args->buffer->dims.size();
  return nullptr;
}

PJRT_Error* Buffer_UnpaddedDimensions(
    PJRT_Buffer_UnpaddedDimensions_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_UnpaddedDimensions_Args, args);
  args->unpadded_dims = args->buffer->dims.data();
  args->num_dims = args->buffer->dims.size();
  return nullptr;
}

PJRT_Error* Buffer_DynamicDimensionIndices(
    PJRT_Buffer_DynamicDimensionIndices_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, args);
  args->dynamic_dim_indices = nullptr;
  args->num_dynamic_dims = 0;
  return nullptr;
}

PJRT_Error* Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_GetMemoryLayout_Args, args);
  PJRT_Buffer_MemoryLayout& layout = args->layout;
  layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  layout.extension_start = nullptr;
  layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  layout.tiled.extension_start = nullptr;
  layout.tiled.minor_to_major = args->buffer->minor_to_major.data();
  layout.tiled.minor_to_major_size = args->buffer->minor_to_major.size();
  layout.tiled.tile_dims = nullptr;
  layout.tiled.tile_dim_sizes = nullptr;
  layout.tiled.num_tiles = 0;
  return nullptr;
}

PJRT_Error* Buffer_OnDeviceSizeInBytes(
    PJRT_Buffer_OnDeviceSizeInBytes_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, args);
  args->on_device_size_in_bytes = args->buffer->byte_size;
  return nullptr;
}

PJRT_Error* Buffer_Device(PJRT_Buffer_Device_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_Device_Args, args);
  args->device = args->buffer->device;
  return nullptr;
}

PJRT_Error* Buffer_Memory(PJRT_Buffer_Memory_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_Memory_Args, args);
  args->memory = &args->buffer->device->memory;
  return nullptr;
}

PJRT_Error* Buffer_Delete(PJRT_Buffer_Delete_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_Delete_Args, args);
  args->buffer->Release();
  return nullptr;
}

PJRT_Error* Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_IsDeleted_Args, args);
  std::lock_guard<std::mutex> lock(args->buffer->mutex);
  args->is_deleted = args->buffer->buffer == nullptr;
  return nullptr;
}

PJRT_Error* Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_IsOnCpu_Args, args);
  // Polyhal gives no host pointer into a buffer, whatever the device.
  args->is_on_cpu = false;
  return nullptr;
}

PJRT_Error* Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_ReadyEvent_Args, args);
  args->event = MakeEvent(nullptr);
  return nullptr;
}

PJRT_Error* Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_ToHostBuffer_Args, args);
  PJRT_Buffer* buffer = args->src;
  const int64_t element_size = static_cast<int64_t>(
      phal_element_type_byte_size(ToPolyhalType(buffer->type)));
  if (PJRT_Error* error =
          CheckRowMajor(args->host_layout, buffer->dims.size(), element_size,
                        buffer->dims, "PJRT_Buffer_ToHostBuffer")) {
    return error;
  }
  if (args->dst == nullptr) {
    args->dst_size = buffer->byte_size;
    return nullptr;
  }
  if (args->dst_size < buffer->byte_size) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Buffer_ToHostBuffer: dst holds " +
                         std::to_string(args->dst_size) +
                         " bytes; the buffer " +
                         std::to_string(buffer->byte_size));
  }
  std::lock_guard<std::mutex> lock(buffer->mutex);
  if (buffer->buffer == nullptr) return Deleted("PJRT_Buffer_ToHostBuffer");
  if (PJRT_Error* error = FromStatus(phal_buffer_copy_to_host(
          buffer->buffer, 0, args->dst, buffer->byte_size))) {
    return error;
  }
  args->event = MakeEvent(nullptr);
  return nullptr;
}

PJRT_Error* Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_CopyToDevice_Args, args);
  return CopyBuffer(args->buffer, args->dst_device, &args->dst_buffer);
}

PJRT_Error* Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Buffer_CopyToMemory_Args, args);
  PJRT_Device* device = DeviceOf(nullptr, args->dst_memory);
  if (device == nullptr) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Buffer_CopyToMemory: no destination memory");
  }
  return CopyBuffer(args->buffer, device, &args->dst_buffer);
}

}  // namespace phal::pjrt
