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

// The INDEX vectors of the dimensions a loop body needs, where tiles start
// at multiples of `lanes`: a dimension whose period (the product of its own
// and the later extents) divides `lanes` has the same vector in every tile
// (`invariant`, computed once); a dimension whose stride divides `lanes`
// has the tile's first index plus a fixed vector (`offset`); the others
// are computed per tile.
struct IndexPlan {
  std::vector<bool> used;
  std::vector<uint32_t> invariant;  // per dimension, or kNoSlot
  std::vector<uint32_t> offset;     // per dimension, or kNoSlot
  std::vector<int64_t> stride;
};

Status EmitTile(const KernelContext& context, const phal_kir_loop_t& loop,
                int64_t lanes, const IndexPlan& plan, SramAllocator& sram,
                ProgramBuilder& program) {
  VectorBody body(program, sram, context.buffers, lanes);
  TileLeaves leaves;
  leaves.linear_dims.assign(loop.dims, loop.dims + loop.rank);
  leaves.linear_start = kPosition;
  leaves.index.assign(loop.rank, kNoSlot);
  std::vector<bool> per_tile(loop.rank, false);
  bool any = false;
  for (uint32_t d = 0; d < loop.rank; ++d) {
    if (!plan.used[d]) continue;
    if (plan.invariant[d] != kNoSlot) {
      leaves.index[d] = plan.invariant[d];
    } else if (plan.offset[d] != kNoSlot) {
      // (first / stride + offset) % extent
      PHAL_ASSIGN_OR_RETURN(Slot index,
                            body.NewSlot(PHAL_ELEMENT_TYPE_S64, "an index"));
      program.Li(kOffset, plan.stride[d]);
      program.Alu(Opcode::kDiv, kOffset, kPosition, kOffset);
      program.Fill(PHAL_ELEMENT_TYPE_S64, index.offset, kOffset);
      body.Op(Opcode::kVAdd, index, index,
              Slot{plan.offset[d], PHAL_ELEMENT_TYPE_S64});
      if (d > 0) {
        PHAL_ASSIGN_OR_RETURN(Slot extent, body.IndexConstant(loop.dims[d]));
        body.Op(Opcode::kVRem, index, index, extent);
        body.Free(extent);
      }
      leaves.index[d] = index.offset;
    } else {
      per_tile[d] = true;
      any = true;
    }
  }
  if (any) {
    std::vector<uint32_t> computed;
    PHAL_ASSIGN_OR_RETURN(Slot linear,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "positions"));
    program.Iota(linear.offset, kPosition);
    PHAL_RETURN_IF_ERROR(
        body.Decompose(linear, std::span<const int64_t>(loop.dims, loop.rank),
                       per_tile, &computed));
    body.Free(linear);
    for (uint32_t d = 0; d < loop.rank; ++d) {
      if (per_tile[d]) leaves.index[d] = computed[d];
    }
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
  for (uint32_t d = 0; d < loop.rank; ++d) {
    if (leaves.index[d] != kNoSlot && plan.invariant[d] == kNoSlot) {
      sram.Free(leaves.index[d]);
    }
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
  // A READ of the iteration space's own shape at its own coordinates is a
  // box and needs no INDEX vectors.
  IndexPlan plan;
  plan.used = UsedIndexDims(loop.body, context.buffers, loop.rank,
                            std::span<const int64_t>(loop.dims, loop.rank));
  plan.invariant.assign(loop.rank, kNoSlot);
  plan.offset.assign(loop.rank, kNoSlot);
  plan.stride.assign(loop.rank, 1);
  for (uint32_t d = loop.rank; d-- > 1;) {
    plan.stride[d - 1] = plan.stride[d] * loop.dims[d];
  }
  SramAllocator fixed(context.sram_begin, context.sram_end);
  program.Comment("loop over " + std::to_string(total) +
                  " points in tiles of " + std::to_string(lanes));
  {
    VectorBody body(program, fixed, context.buffers, lanes);
    program.Li(reg::kLanes, lanes);
    for (uint32_t d = 0; d < loop.rank; ++d) {
      if (!plan.used[d] || lanes % plan.stride[d] != 0) continue;
      const bool invariant =
          d > 0 && lanes % (plan.stride[d] * loop.dims[d]) == 0;
      PHAL_ASSIGN_OR_RETURN(
          Slot vector, body.NewSlot(PHAL_ELEMENT_TYPE_S64, "an index vector"));
      program.Comment(std::string(invariant ? "index " : "index offsets ") +
                      std::to_string(d) + " of every tile");
      program.Iota(vector.offset, reg::kZero);
      if (plan.stride[d] > 1) {
        PHAL_ASSIGN_OR_RETURN(Slot stride, body.IndexConstant(plan.stride[d]));
        body.Op(Opcode::kVDiv, vector, vector, stride);
        body.Free(stride);
      }
      if (invariant) {
        PHAL_ASSIGN_OR_RETURN(Slot extent, body.IndexConstant(loop.dims[d]));
        body.Op(Opcode::kVRem, vector, vector, extent);
        body.Free(extent);
        plan.invariant[d] = vector.offset;
      } else {
        plan.offset[d] = vector.offset;
      }
    }
  }
  const uint32_t begin =
      context.sram_begin + static_cast<uint32_t>(fixed.peak());
  const uint32_t half = (context.sram_end - begin) / 2 / 64 * 64;
  SramAllocator bank_a(begin, begin + half);
  SramAllocator bank_b(begin + half, begin + 2 * half);
  program.Li(kTotal, total);
  program.Li(kPosition, 0);
  const Label top = program.NewLabel();
  const Label done = program.NewLabel();
  program.Bind(top);
  for (int bank = 0; bank < (total > lanes ? 2 : 1); ++bank) {
    program.Comment(bank == 0 ? "tile in bank A" : "tile in bank B");
    EmitTileCount(program, reg::kLanes, kTotal, kPosition, lanes);
    PHAL_RETURN_IF_ERROR(EmitTile(context, loop, lanes, plan,
                                  bank == 0 ? bank_a : bank_b, program));
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
