#include "compiler/asic_compiler.h"

#include <algorithm>
#include <string>

#include "compiler/kernels.h"
#include "compiler/program_builder.h"
#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/kir_interpreter.h"

namespace phal::asic_ref {
namespace {

// The most lanes a tile gets: 8192 f32 lanes keep the vector unit's
// pipeline latency under 7% of an operation.
constexpr int64_t kMaxLanes = 8192;

Status EmitKind(const KernelContext& context, const phal_kernel_desc_t& desc,
                int64_t lanes, ProgramBuilder& program) {
  switch (desc.kind) {
    case PHAL_KERNEL_KIND_LOOP:
      return EmitLoop(context, *desc.u.loop, lanes, program);
    case PHAL_KERNEL_KIND_REDUCE:
      return EmitReduce(context, *desc.u.reduce, lanes, program);
    case PHAL_KERNEL_KIND_DOT:
      return EmitDot(context, *desc.u.dot, lanes, program);
    case PHAL_KERNEL_KIND_CONV:
      return EmitConv(context, *desc.u.conv, lanes, program);
    case PHAL_KERNEL_KIND_GATHER:
      return EmitGather(context, *desc.u.gather, lanes, program);
    case PHAL_KERNEL_KIND_SCATTER:
      return EmitScatter(context, *desc.u.scatter, lanes, program);
    case PHAL_KERNEL_KIND_SORT:
      return EmitSort(context, *desc.u.sort, lanes, program);
    case PHAL_KERNEL_KIND_COPY:
      return EmitCopy(context, *desc.u.copy, lanes, program);
    case PHAL_KERNEL_KIND_FFT:
    case PHAL_KERNEL_KIND_LINALG:
      break;
  }
  return Unimplemented("asic-ref: kernel kind " + std::to_string(desc.kind));
}

}  // namespace

StatusOr<Program> CompileKernel(const ArchConfig& config,
                                const phal_kernel_desc_t& kernel,
                                uint64_t sram_limit) {
  // The SDK's validation: malformed KIR is refused here, with the node at
  // fault, before the compiler relies on it.
  PHAL_ASSIGN_OR_RETURN(kir_interpreter::Kernel validated,
                        kir_interpreter::Kernel::Create(kernel));
  const phal_kernel_desc_t& desc = validated.desc();
  const std::string name = desc.name != nullptr ? desc.name : "kernel";
  for (uint32_t b = 0; b < desc.buffer_count; ++b) {
    if (!IsMachineType(desc.buffers[b].element_type)) {
      return Unimplemented(std::string("asic-ref: ") +
                           ElementTypeName(desc.buffers[b].element_type) +
                           " is not a type of this machine (buffer " +
                           std::to_string(b) + " of kernel " + name + ")");
    }
  }
  KernelContext context{
      config, name,
      std::span<const phal_kir_buffer_t>(desc.buffers, desc.buffer_count)};
  context.sram_begin = (desc.buffer_count * 8 + 63) / 64 * 64;
  const uint64_t limit =
      sram_limit == 0 ? config.sram_bytes
                      : std::min<uint64_t>(sram_limit, config.sram_bytes);
  context.sram_end = static_cast<uint32_t>(
      std::min<uint64_t>(limit, uint64_t{kMaxOffset} + 1) / 64 * 64);
  Status last = OkStatus();
  for (int64_t lanes = kMaxLanes; lanes >= 1; lanes /= 2) {
    ProgramBuilder program(name);
    last = EmitKind(context, desc, lanes, program);
    if (last.ok()) return program.Finish();
    if (last.code() != PHAL_RESOURCE_EXHAUSTED) return last;
  }
  return last;
}

}  // namespace phal::asic_ref
