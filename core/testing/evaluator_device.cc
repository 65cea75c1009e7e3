#include "core/testing/evaluator_device.h"

#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "core/abi/c_status.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

struct phal_plugin_buffer {
  std::vector<uint8_t> bytes;
};
struct phal_plugin_stream {
  int unused = 0;
};
struct phal_plugin_kernel {
  // Immutable once emitted: launches from many threads only run it.
  phal::kir_interpreter::Kernel kernel;
};
struct phal_plugin_device {
  int unused = 0;
};

namespace phal::testing {
namespace {

std::atomic<int64_t> live_buffers{0};
std::atomic<int64_t> allocations{0};
std::atomic<int64_t> live_kernels{0};

phal_status_t* BufferAllocate(phal_plugin_device_t*, uint32_t,
                              uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) {
  *out_buffer = new phal_plugin_buffer{std::vector<uint8_t>(byte_size)};
  ++live_buffers;
  ++allocations;
  return nullptr;
}

void BufferFree(phal_plugin_buffer_t* buffer) {
  --live_buffers;
  delete buffer;
}

phal_status_t* StreamCreate(phal_plugin_device_t*,
                            phal_plugin_stream_t** out_stream) {
  *out_stream = new phal_plugin_stream;
  return nullptr;
}

void StreamDestroy(phal_plugin_stream_t* stream) { delete stream; }

phal_status_t* StreamSynchronize(phal_plugin_stream_t*) { return nullptr; }

phal_status_t* CopyFromHost(phal_plugin_stream_t*, const void* source,
                            phal_plugin_buffer_t* buffer, uint64_t offset,
                            uint64_t byte_size) {
  if (byte_size > 0)
    std::memcpy(buffer->bytes.data() + offset, source, byte_size);
  return nullptr;
}

phal_status_t* CopyToHost(phal_plugin_stream_t*, phal_plugin_buffer_t* buffer,
                          uint64_t offset, void* destination,
                          uint64_t byte_size) {
  if (byte_size > 0) {
    std::memcpy(destination, buffer->bytes.data() + offset, byte_size);
  }
  return nullptr;
}

phal_status_t* CopyBuffer(phal_plugin_stream_t*, phal_plugin_buffer_t* source,
                          uint64_t source_offset,
                          phal_plugin_buffer_t* destination,
                          uint64_t destination_offset, uint64_t byte_size) {
  if (byte_size > 0) {
    std::memcpy(destination->bytes.data() + destination_offset,
                source->bytes.data() + source_offset, byte_size);
  }
  return nullptr;
}

phal_status_t* KernelEmit(phal_plugin_device_t*,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t*,
                          phal_plugin_kernel_t** out_kernel) {
  StatusOr<kir_interpreter::Kernel> emitted =
      kir_interpreter::Kernel::Create(*kernel);
  if (!emitted.ok()) return ToCStatus(emitted.status());
  *out_kernel = new phal_plugin_kernel{std::move(emitted).value()};
  ++live_kernels;
  return nullptr;
}

void KernelDestroy(phal_plugin_kernel_t* kernel) {
  --live_kernels;
  delete kernel;
}

phal_status_t* Launch(phal_plugin_stream_t*, phal_plugin_kernel_t* kernel,
                      phal_plugin_buffer_t* const* buffers,
                      uint32_t buffer_count) {
  std::vector<uint8_t*> data;
  for (uint32_t i = 0; i < buffer_count; ++i) {
    if (buffers[i]->bytes.size() != kernel->kernel.BufferByteSize(i)) {
      return MakeCStatus(PHAL_INVALID_ARGUMENT, "buffer size mismatch");
    }
    data.push_back(buffers[i]->bytes.data());
  }
  return ToCStatus(kernel->kernel.Run(data));
}

phal_plugin_api_t MakeApi() {
  phal_plugin_api_t api{};
  api.struct_size = sizeof(api);
  api.abi_version = PHAL_ABI_VERSION;
  api.name = "evaluator";
  api.version = "test";
  api.buffer_allocate = BufferAllocate;
  api.buffer_free = BufferFree;
  api.stream_create = StreamCreate;
  api.stream_destroy = StreamDestroy;
  api.stream_synchronize = StreamSynchronize;
  api.stream_copy_from_host = CopyFromHost;
  api.stream_copy_to_host = CopyToHost;
  api.stream_copy_buffer = CopyBuffer;
  api.kernel_emit = KernelEmit;
  api.kernel_destroy = KernelDestroy;
  api.stream_launch = Launch;
  return api;
}

}  // namespace

const phal_plugin_api_t* EvaluatorPluginApi() {
  static const phal_plugin_api_t api = MakeApi();
  return &api;
}

phal_plugin_device_t* EvaluatorDevice() {
  static phal_plugin_device device;
  return &device;
}

int64_t LiveEvaluatorBuffers() { return live_buffers.load(); }
int64_t EvaluatorAllocations() { return allocations.load(); }
int64_t LiveEvaluatorKernels() { return live_kernels.load(); }

}  // namespace phal::testing
