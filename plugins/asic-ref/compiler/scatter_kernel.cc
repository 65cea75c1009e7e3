// SCATTER: the output starts as a copy of the operand; then, tile by tile
// of update elements, the vector unit computes each update's target offset
// in the output (-1 when its index falls outside, so it is skipped). With
// unique indices the tile's targets are gathered, combined with the
// updates and scattered back at once; otherwise the scalar core applies
// the updates one by one, in order, each reading what the one before wrote.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/index_arithmetic.h"
#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

using Node = uint32_t;

constexpr uint8_t kPosition = reg::kFirstLoop;  // first update of tile
constexpr uint8_t kLane = reg::kFirstLoop + 1;  // update within tile
constexpr uint8_t kTileLanes = reg::kFirstLoop + 2;
constexpr uint8_t kTotal = reg::kBound;
constexpr uint8_t kTarget = reg::kFirstTemp + 8;
constexpr uint8_t kUpdate = reg::kFirstTemp + 9;
constexpr uint8_t kScratch = reg::kFirstTemp + 10;

bool Contains(const int64_t* values, uint32_t count, int64_t value) {
  return std::find(values, values + count, value) != values + count;
}

// The loop body giving each update element's target offset in the output,
// or -1 when the target is outside it.
void BuildTargets(const KernelContext& context, const phal_kir_scatter_t& s,
                  KirKernel& loop) {
  const phal_kir_buffer_t& operand = context.buffers[s.operand];
  const phal_kir_buffer_t& indices = context.buffers[s.scatter_indices];
  const phal_kir_buffer_t& updates = context.buffers[s.updates];
  loop.dims.assign(updates.dims, updates.dims + updates.rank);
  KirBody& v = loop.body;
  std::vector<Node> scatter, window;
  for (uint32_t d = 0; d < updates.rank; ++d) {
    (Contains(s.update_window_dims, s.update_window_dims_count, d) ? window
                                                                   : scatter)
        .push_back(v.Index(d));
  }
  const SliceDims dims{
      s.scatter_indices,
      &indices,
      s.index_vector_dim,
      {s.scatter_dims_to_operand_dims, s.scatter_dims_to_operand_dims_count},
      {s.inserted_window_dims, s.inserted_window_dims_count},
      {s.input_batching_dims, s.input_batching_dims_count},
      {s.scatter_indices_batching_dims, s.scatter_indices_batching_dims_count}};
  // Starts as they are: an update whose index falls outside is skipped.
  const std::vector<Node> index =
      SliceIndex(v, dims, operand.rank, scatter, window,
                 [](int64_t, Node start) { return start; });
  Node inside = v.Constant(PHAL_ELEMENT_TYPE_PRED, 1);
  Node offset = v.Index64(0);
  int64_t stride = 1;
  for (uint32_t d = operand.rank; d-- > 0;) {
    inside = v.And(inside,
                   v.CompareIndex(PHAL_KIR_COMPARE_GE, index[d], v.Index64(0)));
    inside = v.And(inside, v.CompareIndex(PHAL_KIR_COMPARE_LT, index[d],
                                          v.Index64(operand.dims[d])));
    offset = v.AddIndex(offset, v.MultiplyIndex(index[d], stride));
    stride *= operand.dims[d];
  }
  v.AddResult(v.Select(inside, offset, v.Index64(-1)));
}

}  // namespace

Status EmitScatter(const KernelContext& context,
                   const phal_kir_scatter_t& scatter, int64_t lanes,
                   ProgramBuilder& program) {
  const phal_kir_buffer_t& output = context.buffers[scatter.output];
  const phal_kir_buffer_t& updates = context.buffers[scatter.updates];
  const phal_element_type_t type = output.element_type;
  const int64_t size = static_cast<int64_t>(ElementTypeByteSize(type));
  const std::string what = "scatter kernel " + context.name;
  if (scatter.operand != scatter.output) {
    phal_kir_copy_t copy{scatter.operand, scatter.output};
    ProgramBuilder part(context.name);
    PHAL_RETURN_IF_ERROR(EmitCopy(context, copy, lanes, part));
    PHAL_ASSIGN_OR_RETURN(Program copied, part.Finish());
    // The copy, without its halt, branches re-targeted to this program.
    const uint32_t base = program.size();
    for (size_t i = 0; i + 1 < copied.instructions.size(); ++i) {
      Instruction instruction = copied.instructions[i];
      switch (instruction.op) {
        case Opcode::kBeq:
        case Opcode::kBne:
        case Opcode::kBlt:
        case Opcode::kBge:
        case Opcode::kJmp:
          instruction.imm += base;
          break;
        default:
          break;
      }
      if (instruction.op == Opcode::kDmaLoad ||
          instruction.op == Opcode::kDmaStore) {
        instruction.descriptor =
            program.Descriptor(copied.descriptors[instruction.descriptor]);
      }
      program.Raw(instruction);
    }
    program.Fence();
  }
  const int64_t total = ElementCount({updates.dims, updates.rank});
  if (total == 0 || ElementCount({output.dims, output.rank}) == 0) {
    program.Halt();
    return OkStatus();
  }
  KirKernel targets(context.name, PHAL_KERNEL_KIND_LOOP);
  BuildTargets(context, scatter, targets);
  SramAllocator sram(context.sram_begin, context.sram_end);
  VectorBody body(program, sram, context.buffers, lanes);
  const phal_kir_loop_t loop = *targets.Desc().u.loop;
  program.Comment("scatter " + std::to_string(total) + " updates in tiles of " +
                  std::to_string(lanes) +
                  (scatter.unique_indices ? ", unique indices" : ", in order"));
  program.Li(kTotal, total);
  program.Li(kPosition, 0);
  const Label top = program.NewLabel();
  program.Bind(top);
  EmitTileCount(program, kTileLanes, kTotal, kPosition, lanes);
  program.Alu(Opcode::kAdd, reg::kLanes, kTileLanes, reg::kZero);
  TileLeaves leaves;
  leaves.linear_dims = targets.dims;
  leaves.linear_start = kPosition;
  PHAL_ASSIGN_OR_RETURN(Slot linear,
                        body.NewSlot(PHAL_ELEMENT_TYPE_S64, "positions"));
  program.Iota(linear.offset, kPosition);
  PHAL_RETURN_IF_ERROR(body.Decompose(
      linear, targets.dims, std::vector<bool>(targets.dims.size(), true),
      &leaves.index));
  body.Free(linear);
  PHAL_ASSIGN_OR_RETURN(std::vector<Slot> offsets,
                        body.Emit(loop.body, leaves, "targets of " + what));
  for (uint32_t slot : leaves.index) sram.Free(slot);
  const uint16_t one = program.Descriptor({{1, 0, 0}, {1, 0, 0}});
  if (scatter.unique_indices) {
    PHAL_ASSIGN_OR_RETURN(Slot current, body.NewSlot(type, "current values"));
    PHAL_ASSIGN_OR_RETURN(Slot update,
                          body.NewSlot(updates.element_type, "updates"));
    program.LoadBufferAddress(kTarget, scatter.output);
    program.DmaIndirect(Opcode::kDmaGather, type, current.offset, kTarget,
                        offsets[0].offset, reg::kLanes);
    program.LoadBufferAddress(kUpdate, scatter.updates);
    program.Muli(kScratch, kPosition, size);
    program.Alu(Opcode::kAdd, kUpdate, kUpdate, kScratch);
    program.DmaBox(Opcode::kDmaLoad, updates.element_type, update.offset,
                   kUpdate, reg::kLanes, reg::kZero, reg::kZero, one);
    TileLeaves params;
    params.parameters = {current, update};
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> combined,
        body.Emit(scatter.combiner, params, "combiner of " + what));
    program.DmaIndirect(Opcode::kDmaScatter, type, combined[0].offset, kTarget,
                        offsets[0].offset, reg::kLanes);
    body.Free(combined[0]);
    body.Free(update);
    body.Free(current);
  } else {
    // One update at a time: its target read, combined, written, and the
    // write finished (fence) before the next update reads.
    PHAL_ASSIGN_OR_RETURN(Slot current, body.NewSlot(type, "current value"));
    PHAL_ASSIGN_OR_RETURN(Slot update,
                          body.NewSlot(updates.element_type, "update"));
    program.Li(kLane, 0);
    const Label next = program.NewLabel();
    const Label skip = program.NewLabel();
    program.Bind(next);
    program.Muli(kScratch, kLane, 8);
    program.Lde(PHAL_ELEMENT_TYPE_S64, kTarget, offsets[0].offset, kScratch);
    program.Branch(Opcode::kBlt, kTarget, reg::kZero, skip);
    program.Muli(kTarget, kTarget, size);
    program.LoadBufferAddress(kScratch, scatter.output);
    program.Alu(Opcode::kAdd, kTarget, kTarget, kScratch);
    program.Alu(Opcode::kAdd, kUpdate, kPosition, kLane);
    program.Muli(kUpdate, kUpdate, size);
    program.LoadBufferAddress(kScratch, scatter.updates);
    program.Alu(Opcode::kAdd, kUpdate, kUpdate, kScratch);
    program.DmaBox(Opcode::kDmaLoad, type, current.offset, kTarget, reg::kZero,
                   reg::kZero, reg::kZero, one);
    program.DmaBox(Opcode::kDmaLoad, updates.element_type, update.offset,
                   kUpdate, reg::kZero, reg::kZero, reg::kZero, one);
    program.Li(reg::kLanes, 1);
    TileLeaves params;
    params.parameters = {current, update};
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> combined,
        body.Emit(scatter.combiner, params, "combiner of " + what));
    program.DmaBox(Opcode::kDmaStore, type, combined[0].offset, kTarget,
                   reg::kZero, reg::kZero, reg::kZero, one);
    program.Fence();
    body.Free(combined[0]);
    program.Bind(skip);
    program.Addi(kLane, kLane, 1);
    program.Branch(Opcode::kBlt, kLane, kTileLanes, next);
    body.Free(update);
    body.Free(current);
  }
  body.Free(offsets[0]);
  program.Fence();
  program.Addi(kPosition, kPosition, lanes);
  program.Branch(Opcode::kBlt, kPosition, kTotal, top);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
