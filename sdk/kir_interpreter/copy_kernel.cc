// COPY: the bytes of one buffer into another of the same byte size.
#include <cstring>

#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

class CopyKernel final : public CompiledKernel {
 public:
  explicit CopyKernel(const phal_kernel_desc_t& kernel)
      : kernel_(kernel), copy_(*kernel.u.copy) {}

  Status Run(std::span<uint8_t* const> buffers) const override {
    const uint64_t bytes = BufferByteSize(kernel_.buffers[copy_.source]);
    if (bytes > 0) {
      std::memmove(buffers[copy_.destination], buffers[copy_.source], bytes);
    }
    return OkStatus();
  }

 private:
  const phal_kernel_desc_t& kernel_;
  const phal_kir_copy_t& copy_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileCopyKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_copy_t& copy = *kernel.u.copy;
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, copy.source, "copy source"));
  PHAL_RETURN_IF_ERROR(
      CheckOutputBuffer(kernel, copy.destination, "copy destination"));
  const uint64_t source = BufferByteSize(kernel.buffers[copy.source]);
  const uint64_t destination = BufferByteSize(kernel.buffers[copy.destination]);
  if (source != destination) {
    return KernelError(kernel, "copy source buf" + std::to_string(copy.source) +
                                   " has " + std::to_string(source) +
                                   " bytes, destination buf" +
                                   std::to_string(copy.destination) + " " +
                                   std::to_string(destination));
  }
  return std::unique_ptr<CompiledKernel>(new CopyKernel(kernel));
}

}  // namespace phal::kir_interpreter
