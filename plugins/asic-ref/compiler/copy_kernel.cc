// COPY: the bytes through the scratchpad in chunks, two banks alternating
// so that the load of one chunk overlaps the store of the other.
#include <string>

#include "compiler/kernels.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {

Status EmitCopy(const KernelContext& context, const phal_kir_copy_t& copy,
                int64_t lanes, ProgramBuilder& program) {
  const phal_kir_buffer_t& source = context.buffers[copy.source];
  const int64_t bytes =
      ElementCount({source.dims, source.rank}) *
      static_cast<int64_t>(ElementTypeByteSize(source.element_type));
  if (bytes == 0 || copy.source == copy.destination) {
    program.Halt();
    return OkStatus();
  }
  const int64_t chunk = lanes * 16;
  const uint32_t bank[2] = {context.sram_begin,
                            static_cast<uint32_t>(context.sram_begin + chunk)};
  if (context.sram_begin + 2 * chunk > context.sram_end) {
    return ResourceExhausted("asic-ref compiler: two copy chunks of " +
                             std::to_string(chunk) + " bytes");
  }
  constexpr uint8_t kPosition = reg::kFirstLoop, kTotal = reg::kBound;
  constexpr uint8_t kFrom = reg::kFirstTemp + 4, kTo = reg::kFirstTemp + 5;
  const uint16_t row = program.Descriptor({{1, 0, 0}, {1, 0, 0}});
  program.Comment("copy " + std::to_string(bytes) + " bytes in chunks of " +
                  std::to_string(chunk));
  program.Li(kTotal, bytes);
  program.Li(kPosition, 0);
  const Label top = program.NewLabel();
  const Label done = program.NewLabel();
  program.Bind(top);
  for (int b = 0; b < (bytes > chunk ? 2 : 1); ++b) {
    EmitTileCount(program, reg::kLanes, kTotal, kPosition, chunk);
    program.LoadBufferAddress(kFrom, copy.source);
    program.Alu(Opcode::kAdd, kFrom, kFrom, kPosition);
    program.LoadBufferAddress(kTo, copy.destination);
    program.Alu(Opcode::kAdd, kTo, kTo, kPosition);
    program.DmaBox(Opcode::kDmaLoad, PHAL_ELEMENT_TYPE_U8, bank[b], kFrom,
                   reg::kLanes, reg::kZero, reg::kZero, row);
    program.DmaBox(Opcode::kDmaStore, PHAL_ELEMENT_TYPE_U8, bank[b], kTo,
                   reg::kLanes, reg::kZero, reg::kZero, row);
    program.Addi(kPosition, kPosition, chunk);
    program.Branch(b == 0 ? Opcode::kBge : Opcode::kBlt, kPosition, kTotal,
                   b == 0 ? done : top);
  }
  program.Bind(done);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
