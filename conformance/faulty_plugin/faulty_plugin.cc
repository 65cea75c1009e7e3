// A deliberately broken plugin, the suite's proof that it catches faults.
// It loads the cpu plugin and forwards every slot to it, except that:
//   - kernels computing tanh give a wrong first element     -> Fail
//   - sort kernels crash the process with SIGSEGV            -> Crash
//   - kernels computing cosine never return                  -> Timeout
//   - buffers of 1 MiB or more are never freed               -> Fail of
//     api.leaks.*
// Built into lib/polyhal-testing/ with its manifest beside it, outside the
// default search path; CTest points --plugin at that manifest.
#include <signal.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/plugin_support/wrapped_plugin.h"

namespace {

enum class Fault { kNone, kWrongResult, kCrash, kHang };

constexpr uint64_t kLeakedBufferBytes = uint64_t{1} << 20;

struct KernelFault {
  Fault fault = Fault::kNone;
  uint32_t output = 0;        // the buffer a wrong result is written to
  uint64_t output_bytes = 0;  // its first element's size, 0 when empty
};

const phal_plugin_api_t* wrapped = nullptr;
phal_plugin_api_t table{};
std::mutex mutex;
std::unordered_map<phal_plugin_kernel_t*, KernelFault> kernel_faults;
std::unordered_set<phal_plugin_buffer_t*> large_buffers;

bool BodyUses(const phal_kir_body_t& body, phal_kir_op_t op) {
  for (uint32_t i = 0; i < body.node_count; ++i) {
    if (body.nodes[i].op == op) return true;
  }
  return false;
}

KernelFault FaultOf(const phal_kernel_desc_t* kernel) {
  KernelFault fault;
  if (kernel->kind == PHAL_KERNEL_KIND_SORT) {
    fault.fault = Fault::kCrash;
    return fault;
  }
  if (kernel->kind != PHAL_KERNEL_KIND_LOOP) return fault;
  const phal_kir_loop_t& loop = *kernel->u.loop;
  if (BodyUses(loop.body, PHAL_KIR_OP_COS)) {
    fault.fault = Fault::kHang;
  } else if (BodyUses(loop.body, PHAL_KIR_OP_TANH) && loop.output_count > 0) {
    fault.fault = Fault::kWrongResult;
    fault.output = loop.outputs[0];
    const phal_kir_buffer_t& buffer = kernel->buffers[fault.output];
    uint64_t elements = 1;
    for (uint32_t d = 0; d < buffer.rank; ++d) {
      elements *= static_cast<uint64_t>(buffer.dims[d]);
    }
    fault.output_bytes =
        elements > 0 ? phal::ElementTypeByteSize(buffer.element_type) : 0;
  }
  return fault;
}

phal_status_t* KernelEmit(phal_plugin_device_t* device,
                          const phal_kernel_desc_t* kernel,
                          const phal_kernel_options_t* options,
                          phal_plugin_kernel_t** out_kernel) {
  phal_status_t* status =
      wrapped->kernel_emit(device, kernel, options, out_kernel);
  if (status != nullptr) return status;
  std::lock_guard<std::mutex> lock(mutex);
  kernel_faults[*out_kernel] = FaultOf(kernel);
  return nullptr;
}

void KernelDestroy(phal_plugin_kernel_t* kernel) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    kernel_faults.erase(kernel);
  }
  wrapped->kernel_destroy(kernel);
}

phal_status_t* Launch(phal_plugin_stream_t* stream,
                      phal_plugin_kernel_t* kernel,
                      phal_plugin_buffer_t* const* buffers,
                      uint32_t buffer_count) {
  KernelFault fault;
  {
    std::lock_guard<std::mutex> lock(mutex);
    fault = kernel_faults[kernel];
  }
  if (fault.fault == Fault::kCrash) raise(SIGSEGV);
  while (fault.fault == Fault::kHang) pause();
  phal_status_t* status =
      wrapped->stream_launch(stream, kernel, buffers, buffer_count);
  if (status != nullptr || fault.fault != Fault::kWrongResult ||
      fault.output_bytes == 0) {
    return status;
  }
  // Queued after the kernel, so it lands on the kernel's result.
  static const uint8_t garbage[16] = {0x7B, 0x7B, 0x7B, 0x7B, 0x7B, 0x7B,
                                      0x7B, 0x7B, 0x7B, 0x7B, 0x7B, 0x7B,
                                      0x7B, 0x7B, 0x7B, 0x7B};
  return wrapped->stream_copy_from_host(stream, garbage, buffers[fault.output],
                                        0, fault.output_bytes);
}

phal_status_t* BufferAllocate(phal_plugin_device_t* device,
                              uint32_t memory_space, uint64_t byte_size,
                              phal_plugin_buffer_t** out_buffer) {
  phal_status_t* status =
      wrapped->buffer_allocate(device, memory_space, byte_size, out_buffer);
  if (status == nullptr && byte_size >= kLeakedBufferBytes) {
    std::lock_guard<std::mutex> lock(mutex);
    large_buffers.insert(*out_buffer);
  }
  return status;
}

void BufferFree(phal_plugin_buffer_t* buffer) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (large_buffers.erase(buffer) > 0) return;
  }
  wrapped->buffer_free(buffer);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const phal_plugin_api_t*
phal_plugin_entry(phal_plugin_negotiation_t* negotiation) {
  wrapped =
      phal::OpenWrappedPlugin(PHAL_FAULTY_WRAPPED_PLUGIN, negotiation, &table);
  if (wrapped == nullptr) return nullptr;
  table.struct_size = static_cast<uint32_t>(sizeof(table));
  table.name = "faulty";
  table.version = "0.0.1";
  table.buffer_allocate = BufferAllocate;
  table.buffer_free = BufferFree;
  table.kernel_emit = KernelEmit;
  table.kernel_destroy = KernelDestroy;
  table.stream_launch = Launch;
  // Kernels must come through kernel_emit to carry their faults.
  table.kernel_serialize = nullptr;
  table.kernel_deserialize = nullptr;
  return &table;
}
