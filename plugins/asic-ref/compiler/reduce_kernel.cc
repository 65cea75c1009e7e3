// REDUCE: outputs in blocks of `ob`, the reduced points in tiles of `rb`.
// A tile's lanes are reduced-major (lane = r * ob + o), so folding the
// tile's upper half onto its lower half is one elementwise application of
// the reducer over contiguous vectors; log2(rb) folds leave one partial
// value per output, combined into the block's accumulators. Tiles alternate
// between two halves of the scratchpad so DMA overlaps compute.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr uint8_t kOutput = reg::kFirstLoop;        // first output of block
constexpr uint8_t kReduced = reg::kFirstLoop + 1;   // first reduced point
constexpr uint8_t kValid = reg::kFirstLoop + 2;     // outputs in the block
constexpr uint8_t kRowCount = reg::kFirstLoop + 3;  // points in the tile
constexpr uint8_t kOutputs = reg::kBound;           // O
constexpr uint8_t kFullEnd = reg::kBound + 1;       // end of full tiles
constexpr uint8_t kAddress = reg::kFirstTemp + 4;
constexpr uint8_t kOffset = reg::kFirstTemp + 5;

// Tiles of at most this many reduced points are summed in order.
constexpr int64_t kSequentialRows = 32;

struct Plan {
  std::vector<int64_t> kept;     // iteration dims kept, in order
  std::vector<int64_t> reduced;  // iteration dims reduced
  std::vector<int64_t> kept_dims, reduced_dims;
  int64_t outputs = 0, points = 0;  // O, R
  int64_t ob = 1, rb = 1;
};

// Applies the reducer to (acc[k] over `count` lanes, value[k]) and moves
// the results into acc[k].
Status ApplyReducer(VectorBody& body, const phal_kir_reduce_t& reduce,
                    const std::vector<Slot>& acc,
                    const std::vector<Slot>& values, int64_t count,
                    const std::string& what) {
  body.program().Li(reg::kLanes, count);
  TileLeaves leaves;
  leaves.parameters = acc;
  leaves.parameters.insert(leaves.parameters.end(), values.begin(),
                           values.end());
  PHAL_ASSIGN_OR_RETURN(std::vector<Slot> results,
                        body.Emit(reduce.reducer, leaves, what));
  for (size_t k = 0; k < acc.size(); ++k) {
    body.Op(Opcode::kVMov, acc[k], results[k]);
    body.Free(results[k]);
  }
  return OkStatus();
}

Status EmitTile(const KernelContext& context, const phal_kir_reduce_t& reduce,
                const Plan& plan, int64_t rn, uint32_t transpose,
                const std::vector<Slot>& acc, int64_t lanes,
                SramAllocator& sram, ProgramBuilder& program) {
  VectorBody body(program, sram, context.buffers, lanes);
  const std::string what = "reduce kernel " + context.name;
  program.Li(reg::kLanes, rn * plan.ob);
  // Reduced dimensions all after the kept ones, or all before: a read of
  // the iteration space's own shape is a box of rn x ob, which needs no
  // INDEX vectors.
  const bool trailing = plan.kept.empty() || plan.reduced.empty() ||
                        plan.kept.back() < plan.reduced.front();
  const bool leading = !plan.kept.empty() && !plan.reduced.empty() &&
                       plan.reduced.back() < plan.kept.front();
  const std::span<const int64_t> box_dims =
      trailing || leading ? std::span<const int64_t>(reduce.dims, reduce.rank)
                          : std::span<const int64_t>();
  const std::vector<bool> used =
      UsedIndexDims(reduce.values, context.buffers, reduce.rank, box_dims);
  std::vector<bool> kept_used, reduced_used;
  for (int64_t d : plan.kept) kept_used.push_back(used[d]);
  for (int64_t d : plan.reduced) reduced_used.push_back(used[d]);
  TileLeaves leaves;
  leaves.index.assign(reduce.rank, kNoSlot);
  const bool any_kept =
      std::find(kept_used.begin(), kept_used.end(), true) != kept_used.end();
  const bool any_reduced = std::find(reduced_used.begin(), reduced_used.end(),
                                     true) != reduced_used.end();
  if (any_kept || any_reduced) {
    std::vector<uint32_t> parts;
    PHAL_ASSIGN_OR_RETURN(Slot lane,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "lanes"));
    program.Iota(lane.offset, reg::kZero);
    PHAL_ASSIGN_OR_RETURN(Slot ob, body.IndexConstant(plan.ob));
    PHAL_ASSIGN_OR_RETURN(Slot position,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "positions"));
    // Output o = min(first + lane % ob, O - 1): a short last block repeats
    // its last output, whose lanes are not stored.
    if (any_kept) {
      body.Op(Opcode::kVRem, position, lane, ob);
      PHAL_ASSIGN_OR_RETURN(Slot first, body.Broadcast(kOutput));
      body.Op(Opcode::kVAdd, position, position, first);
      body.Free(first);
      PHAL_ASSIGN_OR_RETURN(Slot last, body.IndexConstant(plan.outputs - 1));
      body.Op(Opcode::kVMin, position, position, last);
      body.Free(last);
      PHAL_RETURN_IF_ERROR(
          body.Decompose(position, plan.kept_dims, kept_used, &parts));
      for (size_t i = 0; i < plan.kept.size(); ++i) {
        leaves.index[plan.kept[i]] = parts[i];
      }
    }
    if (any_reduced) {
      body.Op(Opcode::kVDiv, position, lane, ob);
      PHAL_ASSIGN_OR_RETURN(Slot first, body.Broadcast(kReduced));
      body.Op(Opcode::kVAdd, position, position, first);
      body.Free(first);
      PHAL_RETURN_IF_ERROR(
          body.Decompose(position, plan.reduced_dims, reduced_used, &parts));
      for (size_t i = 0; i < plan.reduced.size(); ++i) {
        leaves.index[plan.reduced[i]] = parts[i];
      }
    }
    body.Free(position);
    body.Free(ob);
    body.Free(lane);
  }
  if (!box_dims.empty()) {
    leaves.box.dims.assign(reduce.dims, reduce.dims + reduce.rank);
    leaves.box.columns = plan.ob;
    leaves.box.c_stride = trailing ? plan.points : 1;
    leaves.box.r_stride = trailing ? 1 : plan.outputs;
    leaves.box.c_start = kOutput;
    leaves.box.r_start = kReduced;
    leaves.box.c_count = kValid;
    leaves.box.r_count = kRowCount;
    leaves.box.transpose = trailing ? transpose : kNoSlot;
    leaves.box.rows = rn;
    program.Li(kRowCount, rn);
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<Slot> values,
                        body.Emit(reduce.values, leaves, "values of " + what));
  for (uint32_t slot : leaves.index) {
    if (slot != kNoSlot) sram.Free(slot);
  }
  // Short tiles: the rows into the accumulators one after another, in the
  // order of the reduced points (the order the reference sums in, which
  // decides the result when large terms cancel).
  if (rn <= kSequentialRows) {
    for (int64_t r = 0; r < rn; ++r) {
      std::vector<Slot> row;
      for (const Slot& v : values) {
        row.push_back(Slot{static_cast<uint32_t>(
                               v.offset + r * plan.ob *
                                              static_cast<int64_t>(
                                                  ElementTypeByteSize(v.type))),
                           v.type});
      }
      PHAL_RETURN_IF_ERROR(
          ApplyReducer(body, reduce, acc, row, plan.ob, "reducer of " + what));
    }
    for (const Slot& v : values) body.Free(v);
    return OkStatus();
  }
  // Longer ones: fold the tile's upper half onto its lower half until one
  // row is left.
  for (int64_t rows = rn; rows > 1;) {
    const int64_t half = (rows + 1) / 2;
    std::vector<Slot> upper;
    for (const Slot& v : values) {
      upper.push_back(Slot{
          static_cast<uint32_t>(
              v.offset + half * plan.ob *
                             static_cast<int64_t>(ElementTypeByteSize(v.type))),
          v.type});
    }
    PHAL_RETURN_IF_ERROR(ApplyReducer(body, reduce, values, upper,
                                      (rows - half) * plan.ob,
                                      "reducer of " + what));
    rows = half;
  }
  PHAL_RETURN_IF_ERROR(
      ApplyReducer(body, reduce, acc, values, plan.ob, "reducer of " + what));
  for (const Slot& v : values) body.Free(v);
  return OkStatus();
}

}  // namespace

Status EmitReduce(const KernelContext& context, const phal_kir_reduce_t& reduce,
                  int64_t lanes, ProgramBuilder& program) {
  Plan plan;
  for (uint32_t d = 0; d < reduce.rank; ++d) {
    const bool reduced =
        std::find(reduce.reduced_dims,
                  reduce.reduced_dims + reduce.reduced_count,
                  int64_t{d}) != reduce.reduced_dims + reduce.reduced_count;
    (reduced ? plan.reduced : plan.kept).push_back(d);
    (reduced ? plan.reduced_dims : plan.kept_dims).push_back(reduce.dims[d]);
  }
  plan.outputs = ElementCount(plan.kept_dims);
  plan.points = ElementCount(plan.reduced_dims);
  if (plan.outputs == 0) {
    program.Halt();
    return OkStatus();
  }
  plan.rb = std::max<int64_t>(1, std::min(plan.points, lanes));
  plan.ob = std::max<int64_t>(1, std::min(plan.outputs, lanes / plan.rb));
  const std::string what = "reduce kernel " + context.name;

  // Accumulators: one vector of ob lanes per reduction, for the kernel.
  SramAllocator fixed(context.sram_begin, context.sram_end);
  std::vector<Slot> acc;
  for (uint32_t k = 0; k < reduce.accumulator_count; ++k) {
    const phal_kir_node_t& init = reduce.init.nodes[reduce.init.results[k]];
    PHAL_ASSIGN_OR_RETURN(
        uint32_t offset,
        fixed.Allocate(plan.ob * ElementTypeByteSize(init.type),
                       "the accumulators"));
    acc.push_back(Slot{offset, init.type});
  }
  // Reductions over trailing dimensions with more than one output per
  // block read rows: column-major boxes that one vperm per tile transposes
  // into the tile's reduced-major lanes, by permutations (lane l reads
  // element (l % ob) * rn + l / ob) computed once per tile shape.
  const bool trailing = plan.kept.empty() || plan.reduced.empty() ||
                        plan.kept.back() < plan.reduced.front();
  const int64_t shapes[2] = {plan.rb, plan.points % plan.rb};
  uint32_t transpose[2] = {kNoSlot, kNoSlot};
  if (trailing && plan.ob > 1 && plan.points > 0) {
    for (int t = 0; t < 2; ++t) {
      if (shapes[t] == 0) continue;
      PHAL_ASSIGN_OR_RETURN(
          transpose[t],
          fixed.Allocate(shapes[t] * plan.ob * 8, "a transposing permutation"));
    }
  }
  const uint32_t begin =
      context.sram_begin + static_cast<uint32_t>(fixed.peak());
  const uint32_t half = (context.sram_end - begin) / 2 / 64 * 64;
  SramAllocator bank_a(begin, begin + half);
  SramAllocator bank_b(begin + half, begin + 2 * half);
  for (int t = 0; t < 2; ++t) {
    if (transpose[t] == kNoSlot) continue;
    const int64_t rn = shapes[t];
    program.Comment("permutation transposing rows of " + std::to_string(rn));
    program.Li(reg::kLanes, rn * plan.ob);
    VectorBody body(program, bank_a, context.buffers, rn * plan.ob);
    PHAL_ASSIGN_OR_RETURN(Slot lane,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "lanes"));
    program.Iota(lane.offset, reg::kZero);
    PHAL_ASSIGN_OR_RETURN(Slot ob, body.IndexConstant(plan.ob));
    PHAL_ASSIGN_OR_RETURN(Slot rows, body.IndexConstant(rn));
    const Slot out{transpose[t], PHAL_ELEMENT_TYPE_S64};
    PHAL_ASSIGN_OR_RETURN(Slot column,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "columns"));
    body.Op(Opcode::kVRem, column, lane, ob);
    body.Op(Opcode::kVMul, column, column, rows);
    body.Op(Opcode::kVDiv, out, lane, ob);
    body.Op(Opcode::kVAdd, out, out, column);
    for (const Slot& slot : {lane, ob, rows, column}) body.Free(slot);
  }

  program.Comment("reduce " + std::to_string(plan.points) + " points into " +
                  std::to_string(plan.outputs) + " outputs, blocks of " +
                  std::to_string(plan.ob) + " outputs x " +
                  std::to_string(plan.rb) + " points");
  program.Li(kOutputs, plan.outputs);
  program.Li(kOutput, 0);
  const Label block = program.NewLabel();
  program.Bind(block);
  EmitTileCount(program, kValid, kOutputs, kOutput, plan.ob);
  {
    program.Comment("initial values");
    program.Li(reg::kLanes, plan.ob);
    VectorBody body(program, bank_a, context.buffers, plan.ob);
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> init,
        body.Emit(reduce.init, TileLeaves{}, "init of " + what));
    for (size_t k = 0; k < acc.size(); ++k) {
      body.Op(Opcode::kVMov, acc[k], init[k]);
      body.Free(init[k]);
    }
  }
  const int64_t full = plan.points / plan.rb;
  const int64_t tail = plan.points % plan.rb;
  program.Li(kReduced, 0);
  if (full > 0) {
    program.Li(kFullEnd, full * plan.rb);
    const Label top = program.NewLabel();
    const Label after = program.NewLabel();
    program.Bind(top);
    for (int bank = 0; bank < (full > 1 ? 2 : 1); ++bank) {
      program.Comment(bank == 0 ? "tile in bank A" : "tile in bank B");
      PHAL_RETURN_IF_ERROR(EmitTile(context, reduce, plan, plan.rb,
                                    transpose[0], acc, lanes,
                                    bank == 0 ? bank_a : bank_b, program));
      program.Addi(kReduced, kReduced, plan.rb);
      if (bank == 0) {
        program.Branch(Opcode::kBge, kReduced, kFullEnd, after);
      } else {
        program.Branch(Opcode::kBlt, kReduced, kFullEnd, top);
      }
    }
    program.Bind(after);
  }
  if (tail > 0) {
    program.Comment("last tile");
    PHAL_RETURN_IF_ERROR(EmitTile(context, reduce, plan, tail, transpose[1],
                                  acc, lanes, full % 2 == 0 ? bank_a : bank_b,
                                  program));
  }
  {
    program.Comment("epilogue");
    program.Li(reg::kLanes, plan.ob);
    VectorBody body(program, bank_a, context.buffers, plan.ob);
    const std::vector<bool> used =
        UsedIndexDims(reduce.epilogue, context.buffers,
                      static_cast<uint32_t>(plan.kept.size()), {});
    TileLeaves leaves;
    leaves.parameters = acc;
    leaves.index.assign(plan.kept.size(), kNoSlot);
    if (std::find(used.begin(), used.end(), true) != used.end()) {
      PHAL_ASSIGN_OR_RETURN(Slot position,
                            body.NewSlot(PHAL_ELEMENT_TYPE_S64, "outputs"));
      program.Iota(position.offset, kOutput);
      PHAL_ASSIGN_OR_RETURN(Slot last, body.IndexConstant(plan.outputs - 1));
      body.Op(Opcode::kVMin, position, position, last);
      body.Free(last);
      PHAL_RETURN_IF_ERROR(
          body.Decompose(position, plan.kept_dims, used, &leaves.index));
      body.Free(position);
    }
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> results,
        body.Emit(reduce.epilogue, leaves, "epilogue of " + what));
    const uint16_t row = program.Descriptor({{1, 0, 0}, {1, 0, 0}});
    for (uint32_t r = 0; r < reduce.output_count; ++r) {
      const phal_kir_buffer_t& out = context.buffers[reduce.outputs[r]];
      if (results[r].type != out.element_type) {
        return InvalidArgument("asic-ref: output " + std::to_string(r) +
                               " of " + what + " has the wrong type");
      }
      program.LoadBufferAddress(kAddress, reduce.outputs[r]);
      program.Muli(kOffset, kOutput,
                   static_cast<int64_t>(ElementTypeByteSize(out.element_type)));
      program.Alu(Opcode::kAdd, kAddress, kAddress, kOffset);
      program.DmaBox(Opcode::kDmaStore, out.element_type, results[r].offset,
                     kAddress, kValid, reg::kZero, reg::kZero, row);
      body.Free(results[r]);
    }
    for (uint32_t slot : leaves.index) {
      if (slot != kNoSlot) bank_a.Free(slot);
    }
  }
  program.Addi(kOutput, kOutput, plan.ob);
  program.Branch(Opcode::kBlt, kOutput, kOutputs, block);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
