// SORT: whole slices in a tile, one slice's elements on consecutive lanes;
// odd-even transposition sort: in round p every lane compares with its
// neighbour (vperm brings the neighbour's values) through the comparator,
// and a pair swaps when its upper element sorts strictly before its lower
// one, so equal elements never pass each other (the sort is stable). n
// rounds sort a slice of n.
#include <string>
#include <vector>

#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr uint8_t kSlice = reg::kFirstLoop;  // first slice of tile
constexpr uint8_t kRound = reg::kFirstLoop + 1;
constexpr uint8_t kSlices = reg::kBound;
constexpr uint8_t kRounds = reg::kBound + 1;
constexpr uint8_t kAddress = reg::kFirstTemp + 8;
constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;
constexpr phal_element_type_t kPred = PHAL_ELEMENT_TYPE_PRED;

uint8_t Flags(phal_kir_comparison_direction_t d) {
  return static_cast<uint8_t>(d | (PHAL_KIR_COMPARISON_SIGNED << 3));
}

}  // namespace

Status EmitSort(const KernelContext& context, const phal_kir_sort_t& sort,
                int64_t lanes, ProgramBuilder& program) {
  const phal_kir_buffer_t& first = context.buffers[sort.operands[0]];
  const int64_t total = ElementCount({first.dims, first.rank});
  const int64_t n = first.dims[sort.dimension];
  const std::string what = "sort kernel " + context.name;
  if (total == 0) {
    program.Halt();
    return OkStatus();
  }
  if (n > lanes) {
    return ResourceExhausted("asic-ref compiler: a slice of " +
                             std::to_string(n) + " elements to sort (" + what +
                             ") in a tile of " + std::to_string(lanes) +
                             " lanes");
  }
  int64_t inner = 1;
  for (uint32_t d = static_cast<uint32_t>(sort.dimension) + 1; d < first.rank;
       ++d) {
    inner *= first.dims[d];
  }
  const int64_t slices = total / n;
  const int64_t per_tile = std::min<int64_t>(slices, lanes / n);
  SramAllocator sram(context.sram_begin, context.sram_end);
  VectorBody body(program, sram, context.buffers, per_tile * n);
  program.Comment("sort " + std::to_string(slices) + " slices of " +
                  std::to_string(n) + ", " + std::to_string(per_tile) +
                  " per tile");
  // Neighbours and lower-lane masks of both rounds, for a full tile.
  program.Li(reg::kLanes, per_tile * n);
  PHAL_ASSIGN_OR_RETURN(Slot lane, body.NewSlot(kS64, "lanes"));
  program.Iota(lane.offset, reg::kZero);
  PHAL_ASSIGN_OR_RETURN(Slot length, body.IndexConstant(n));
  PHAL_ASSIGN_OR_RETURN(Slot position, body.NewSlot(kS64, "positions"));
  body.Op(Opcode::kVRem, position, lane, length);
  PHAL_ASSIGN_OR_RETURN(Slot one, body.IndexConstant(1));
  PHAL_ASSIGN_OR_RETURN(Slot two, body.IndexConstant(2));
  PHAL_ASSIGN_OR_RETURN(Slot zero, body.IndexConstant(0));
  Slot partner[2], low[2];
  for (int p = 0; p < 2; ++p) {
    PHAL_ASSIGN_OR_RETURN(partner[p], body.NewSlot(kS64, "neighbours"));
    PHAL_ASSIGN_OR_RETURN(low[p], body.NewSlot(kPred, "lower lanes"));
    PHAL_ASSIGN_OR_RETURN(Slot a, body.NewSlot(kS64, "round positions"));
    PHAL_ASSIGN_OR_RETURN(Slot t, body.NewSlot(kS64, "a temporary"));
    PHAL_ASSIGN_OR_RETURN(Slot c, body.NewSlot(kPred, "a temporary"));
    PHAL_ASSIGN_OR_RETURN(Slot high, body.NewSlot(kPred, "upper lanes"));
    PHAL_ASSIGN_OR_RETURN(Slot pc, body.IndexConstant(p));
    body.Op(Opcode::kVSub, a, position, pc);
    body.Op(Opcode::kVRem, t, a, two);
    // lower: a >= 0, a even, position + 1 < n
    body.Op(Opcode::kVCmp, low[p], t, zero, {}, Flags(PHAL_KIR_COMPARE_EQ));
    body.Op(Opcode::kVCmp, c, a, zero, {}, Flags(PHAL_KIR_COMPARE_GE));
    body.Op(Opcode::kVAnd, low[p], low[p], c);
    body.Op(Opcode::kVAdd, t, position, one);
    body.Op(Opcode::kVCmp, c, t, length, {}, Flags(PHAL_KIR_COMPARE_LT));
    body.Op(Opcode::kVAnd, low[p], low[p], c);
    // upper: a >= 1, a odd
    body.Op(Opcode::kVRem, t, a, two);
    body.Op(Opcode::kVCmp, high, t, one, {}, Flags(PHAL_KIR_COMPARE_EQ));
    body.Op(Opcode::kVCmp, c, a, one, {}, Flags(PHAL_KIR_COMPARE_GE));
    body.Op(Opcode::kVAnd, high, high, c);
    body.Op(Opcode::kVSub, t, lane, one);
    body.Op(Opcode::kVSel, partner[p], high, t, lane);
    body.Op(Opcode::kVAdd, t, lane, one);
    body.Op(Opcode::kVSel, partner[p], low[p], t, partner[p]);
    for (const Slot& s : {a, t, pc}) body.Free(s);
    body.Free(c);
    body.Free(high);
  }
  body.Free(zero);

  program.Li(kSlices, slices);
  program.Li(kRounds, (n + 1) / 2);
  program.Li(kSlice, 0);
  const Label tile = program.NewLabel();
  program.Bind(tile);
  // Live lanes: whole slices left, at most per_tile.
  EmitTileCount(program, reg::kLanes, kSlices, kSlice, per_tile);
  program.Muli(reg::kLanes, reg::kLanes, n);
  // Offsets: slice s, position i -> (s / inner) * n * inner + i * inner +
  // s % inner.
  PHAL_ASSIGN_OR_RETURN(Slot offsets, body.NewSlot(kS64, "offsets"));
  {
    PHAL_ASSIGN_OR_RETURN(Slot slice, body.NewSlot(kS64, "slices"));
    PHAL_ASSIGN_OR_RETURN(Slot t, body.NewSlot(kS64, "a temporary"));
    PHAL_ASSIGN_OR_RETURN(Slot base, body.Broadcast(kSlice));
    body.Op(Opcode::kVDiv, slice, lane, length);
    body.Op(Opcode::kVAdd, slice, slice, base);
    PHAL_ASSIGN_OR_RETURN(Slot in, body.IndexConstant(inner));
    PHAL_ASSIGN_OR_RETURN(Slot row, body.IndexConstant(n * inner));
    body.Op(Opcode::kVDiv, t, slice, in);
    body.Op(Opcode::kVMul, offsets, t, row);
    body.Op(Opcode::kVRem, t, slice, in);
    body.Op(Opcode::kVAdd, offsets, offsets, t);
    body.Op(Opcode::kVMul, t, position, in);
    body.Op(Opcode::kVAdd, offsets, offsets, t);
    for (const Slot& s : {slice, t, base, in, row}) body.Free(s);
  }
  std::vector<Slot> values, neighbours;
  for (uint32_t k = 0; k < sort.operand_count; ++k) {
    const phal_element_type_t type =
        context.buffers[sort.operands[k]].element_type;
    PHAL_ASSIGN_OR_RETURN(Slot v, body.NewSlot(type, "values"));
    PHAL_ASSIGN_OR_RETURN(Slot q, body.NewSlot(type, "neighbour values"));
    program.LoadBufferAddress(kAddress, sort.operands[k]);
    program.DmaIndirect(Opcode::kDmaGather, type, v.offset, kAddress,
                        offsets.offset, reg::kLanes);
    values.push_back(v);
    neighbours.push_back(q);
  }
  program.Li(kRound, 0);
  const Label round = program.NewLabel();
  program.Bind(round);
  for (int p = 0; p < 2; ++p) {
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      body.Op(Opcode::kVPerm, neighbours[k], values[k], partner[p]);
    }
    // before_self: the neighbour sorts before this lane's element;
    // self_before: this lane's element sorts before the neighbour.
    TileLeaves neighbour_first, self_first;
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      neighbour_first.parameters.push_back(neighbours[k]);
      neighbour_first.parameters.push_back(values[k]);
      self_first.parameters.push_back(values[k]);
      self_first.parameters.push_back(neighbours[k]);
    }
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> before_self,
        body.Emit(sort.comparator, neighbour_first, "comparator of " + what));
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> self_before,
        body.Emit(sort.comparator, self_first, "comparator of " + what));
    body.Op(Opcode::kVSel, before_self[0], low[p], before_self[0],
            self_before[0]);
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      body.Op(Opcode::kVSel, values[k], before_self[0], neighbours[k],
              values[k]);
    }
    body.Free(before_self[0]);
    body.Free(self_before[0]);
  }
  program.Addi(kRound, kRound, 1);
  program.Branch(Opcode::kBlt, kRound, kRounds, round);
  for (uint32_t k = 0; k < sort.operand_count; ++k) {
    const phal_element_type_t type =
        context.buffers[sort.outputs[k]].element_type;
    program.LoadBufferAddress(kAddress, sort.outputs[k]);
    program.DmaIndirect(Opcode::kDmaScatter, type, values[k].offset, kAddress,
                        offsets.offset, reg::kLanes);
    body.Free(values[k]);
    body.Free(neighbours[k]);
  }
  body.Free(offsets);
  program.Fence();
  program.Addi(kSlice, kSlice, per_tile);
  program.Branch(Opcode::kBlt, kSlice, kSlices, tile);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
