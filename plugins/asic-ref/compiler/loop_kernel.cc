// LOOP: the iteration space in tiles of consecutive points, alternating
// between two halves of the scratchpad, so that the DMA of one tile runs
// while the vector unit computes the other.
#include <string>
#include <vector>

#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr uint8_t kPosition = reg::kFirstLoop;  // first point of the tile
constexpr uint8_t kTotal = reg::kBound;         // points in the space
constexpr uint8_t kAddress = reg::kFirstTemp + 4;
constexpr uint8_t kOffset = reg::kFirstTemp + 5;

Status EmitTile(const KernelContext& context, const phal_kir_loop_t& loop,
                int64_t lanes, SramAllocator& sram, ProgramBuilder& program) {
  VectorBody body(program, sram, context.buffers, lanes);
  // A READ of the iteration space's own shape at its own coordinates is a
  // box and needs no INDEX vectors.
  const std::vector<bool> used =
      UsedIndexDims(loop.body, context.buffers, loop.rank,
                    std::span<const int64_t>(loop.dims, loop.rank));
  TileLeaves leaves;
  leaves.linear_dims.assign(loop.dims, loop.dims + loop.rank);
  leaves.linear_start = kPosition;
  bool any = false;
  for (bool u : used) any |= u;
  if (any) {
    PHAL_ASSIGN_OR_RETURN(Slot linear,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "positions"));
    program.Iota(linear.offset, kPosition);
    PHAL_RETURN_IF_ERROR(
        body.Decompose(linear, std::span<const int64_t>(loop.dims, loop.rank),
                       used, &leaves.index));
    body.Free(linear);
  } else {
    leaves.index.assign(loop.rank, kNoSlot);
  }
  PHAL_ASSIGN_OR_RETURN(
      std::vector<Slot> results,
      body.Emit(loop.body, leaves, "loop body of kernel " + context.name));
  const uint16_t row = program.Descriptor({{1, 0, 0}, {1, 0, 0}});
  for (uint32_t r = 0; r < loop.output_count; ++r) {
    const phal_kir_buffer_t& out = context.buffers[loop.outputs[r]];
    if (results[r].type != out.element_type) {
      return InvalidArgument(
          "asic-ref: result " + std::to_string(r) + " of kernel " +
          context.name + " is " + ElementTypeName(results[r].type) +
          ", its buffer " + ElementTypeName(out.element_type));
    }
    program.LoadBufferAddress(kAddress, loop.outputs[r]);
    program.Muli(kOffset, kPosition,
                 static_cast<int64_t>(ElementTypeByteSize(out.element_type)));
    program.Alu(Opcode::kAdd, kAddress, kAddress, kOffset);
    program.DmaBox(Opcode::kDmaStore, out.element_type, results[r].offset,
                   kAddress, reg::kLanes, reg::kZero, reg::kZero, row);
  }
  for (const Slot& slot : results) body.Free(slot);
  for (uint32_t slot : leaves.index) {
    if (slot != kNoSlot) sram.Free(slot);
  }
  return OkStatus();
}

}  // namespace

int64_t ElementCount(std::span<const int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  return count;
}

void EmitTileCount(ProgramBuilder& program, uint8_t count_reg,
                   uint8_t bound_reg, uint8_t position_reg, int64_t step) {
  program.Alu(Opcode::kSub, count_reg, bound_reg, position_reg);
  program.Li(reg::kFirstTemp + 3, step);
  program.Alu(Opcode::kMin, count_reg, count_reg, reg::kFirstTemp + 3);
}

Status EmitLoop(const KernelContext& context, const phal_kir_loop_t& loop,
                int64_t lanes, ProgramBuilder& program) {
  const int64_t total =
      ElementCount(std::span<const int64_t>(loop.dims, loop.rank));
  if (total == 0) {
    program.Halt();
    return OkStatus();
  }
  const uint32_t half = (context.sram_end - context.sram_begin) / 2 / 64 * 64;
  SramAllocator bank_a(context.sram_begin, context.sram_begin + half);
  SramAllocator bank_b(context.sram_begin + half,
                       context.sram_begin + 2 * half);
  program.Comment("loop over " + std::to_string(total) +
                  " points in tiles of " + std::to_string(lanes));
  program.Li(kTotal, total);
  program.Li(kPosition, 0);
  const Label top = program.NewLabel();
  const Label done = program.NewLabel();
  program.Bind(top);
  for (int bank = 0; bank < (total > lanes ? 2 : 1); ++bank) {
    program.Comment(bank == 0 ? "tile in bank A" : "tile in bank B");
    EmitTileCount(program, reg::kLanes, kTotal, kPosition, lanes);
    PHAL_RETURN_IF_ERROR(
        EmitTile(context, loop, lanes, bank == 0 ? bank_a : bank_b, program));
    program.Addi(kPosition, kPosition, lanes);
    if (bank == 0) {
      program.Branch(Opcode::kBge, kPosition, kTotal, done);
    } else {
      program.Branch(Opcode::kBlt, kPosition, kTotal, top);
    }
  }
  program.Bind(done);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
