#include "sdk/kir_interpreter/compiled_kernel.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "sdk/base/element_types.h"
#include "sdk/kir/facts.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

Status CheckBuffer(const phal_kernel_desc_t& kernel, uint32_t index) {
  const phal_kir_buffer_t& buffer = kernel.buffers[index];
  const std::string what = "buf" + std::to_string(index);
  PHAL_RETURN_IF_ERROR(
      CheckElementType(kernel, buffer.element_type, what + " element type"));
  const uint32_t access = EnumValue(buffer.access);
  if (access < PHAL_KIR_ACCESS_READ || access > PHAL_KIR_ACCESS_READ_WRITE) {
    return KernelError(kernel,
                       what + " has invalid access " + std::to_string(access));
  }
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, BufferDims(buffer), what + " dims"));
  const int64_t elements = ElementCount(BufferDims(buffer));
  if (elements > std::numeric_limits<int64_t>::max() / 16) {
    return KernelError(kernel, what + " " + DimsText(BufferDims(buffer)) +
                                   " has too many bytes to address");
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileKernel(
    const phal_kernel_desc_t& kernel) {
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    PHAL_RETURN_IF_ERROR(CheckBuffer(kernel, i));
  }
  switch (EnumValue(kernel.kind)) {
    case PHAL_KERNEL_KIND_LOOP:
      return CompileLoopKernel(kernel);
    case PHAL_KERNEL_KIND_REDUCE:
      return CompileReduceKernel(kernel);
    case PHAL_KERNEL_KIND_DOT:
      return CompileDotKernel(kernel);
    case PHAL_KERNEL_KIND_CONV:
      return CompileConvKernel(kernel);
    case PHAL_KERNEL_KIND_GATHER:
      return CompileGatherKernel(kernel);
    case PHAL_KERNEL_KIND_SCATTER:
      return CompileScatterKernel(kernel);
    case PHAL_KERNEL_KIND_SORT:
      return CompileSortKernel(kernel);
    case PHAL_KERNEL_KIND_COPY:
      return CompileCopyKernel(kernel);
    default:
      return Unimplemented(
          KernelError(kernel, "kernel kind " +
                                  std::to_string(EnumValue(kernel.kind)) +
                                  " is unknown")
              .message());
  }
}

Status CheckElementType(const phal_kernel_desc_t& kernel,
                        const phal_element_type_t& type,
                        const std::string& what) {
  const uint32_t value = EnumValue(type);
  if (value > PHAL_ELEMENT_TYPE_INVALID && value < PHAL_ELEMENT_TYPE_COUNT) {
    return OkStatus();
  }
  return KernelError(
      kernel, what + " " + std::to_string(value) + " is not an element type");
}

Status CheckBufferIndex(const phal_kernel_desc_t& kernel, uint64_t index,
                        const std::string& role) {
  if (index < kernel.buffer_count) return OkStatus();
  return KernelError(kernel, role + " buffer " + std::to_string(index) +
                                 " does not exist (the kernel has " +
                                 std::to_string(kernel.buffer_count) +
                                 " buffers)");
}

Status CheckOutputBuffer(const phal_kernel_desc_t& kernel, uint32_t index,
                         const std::string& role,
                         std::optional<std::span<const int64_t>> dims) {
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, index, role));
  const phal_kir_buffer_t& buffer = kernel.buffers[index];
  if ((EnumValue(buffer.access) & PHAL_KIR_ACCESS_WRITE) == 0) {
    return KernelError(kernel,
                       role + " buf" + std::to_string(index) + " is read-only");
  }
  const std::span<const int64_t> actual = BufferDims(buffer);
  if (dims &&
      !std::equal(actual.begin(), actual.end(), dims->begin(), dims->end())) {
    return KernelError(kernel, role + " buf" + std::to_string(index) + " is " +
                                   DimsText(actual) + ", not " +
                                   DimsText(*dims));
  }
  return OkStatus();
}

Status CheckDims(const phal_kernel_desc_t& kernel,
                 std::span<const int64_t> dims, const std::string& what) {
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      return KernelError(
          kernel, what + " " + DimsText(dims) + " has a negative dimension");
    }
    if (d != 0 && product > std::numeric_limits<int64_t>::max() / d) {
      return KernelError(
          kernel, what + " " + DimsText(dims) + " has too many elements");
    }
    product *= d;
  }
  return OkStatus();
}

Status CheckDimensionNumbers(const phal_kernel_desc_t& kernel,
                             std::span<const int64_t> values, int64_t rank,
                             bool distinct, const std::string& what) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0 || values[i] >= rank) {
      return KernelError(kernel, what + " " + DimsText(values) +
                                     " names a dimension outside rank " +
                                     std::to_string(rank));
    }
    if (distinct &&
        std::find(values.begin(), values.begin() + static_cast<int64_t>(i),
                  values[i]) != values.begin() + static_cast<int64_t>(i)) {
      return KernelError(kernel, what + " " + DimsText(values) +
                                     " names dimension " +
                                     std::to_string(values[i]) + " twice");
    }
  }
  return OkStatus();
}

OutputTargets::OutputTargets(const phal_kernel_desc_t& kernel,
                             std::span<uint8_t* const> buffers,
                             std::span<const uint32_t> outputs,
                             std::span<const uint32_t> inputs,
                             bool stage_in_place)
    : buffers_(buffers), targets_(buffers.begin(), buffers.end()) {
  // Addresses as integers: distinct allocations are ordered that way.
  auto range = [&](uint32_t index) {
    const auto begin = reinterpret_cast<uintptr_t>(buffers[index]);
    return std::make_pair(begin, begin + BufferByteSize(kernel.buffers[index]));
  };
  for (uint32_t output : outputs) {
    const auto [begin, end] = range(output);
    const bool overlaps =
        std::any_of(inputs.begin(), inputs.end(),
                    [&, begin = begin, end = end](uint32_t input) {
                      if (input == output) return stage_in_place;
                      const auto [input_begin, input_end] = range(input);
                      return begin < input_end && input_begin < end;
                    });
    const bool already = std::any_of(
        staged_.begin(), staged_.end(),
        [&](const Staged& staged) { return staged.buffer == output; });
    if (!overlaps || already) continue;
    staged_.push_back(
        {output, std::vector<uint8_t>(static_cast<std::size_t>(end - begin))});
    targets_[output] = staged_.back().bytes.data();
  }
}

void OutputTargets::Commit() {
  for (const Staged& staged : staged_) {
    if (!staged.bytes.empty()) {
      std::memcpy(buffers_[staged.buffer], staged.bytes.data(),
                  staged.bytes.size());
    }
  }
}

}  // namespace phal::kir_interpreter
