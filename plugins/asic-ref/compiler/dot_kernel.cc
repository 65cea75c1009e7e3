// DOT on the matrix unit: C tiles of Mt x Nt in SRAM accumulate A (Mt x Kt)
// times B (Kt x Nt) tiles that the DMA brings in by strided boxes, two
// banks alternating so the next tiles load while the array multiplies;
// the epilogue runs on the vector unit over the finished C tile. Dots the
// array does not take (integer types but s8, other accumulation types) run
// on the vector unit as a reduction.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr uint8_t kBatch = 2, kRow = 3, kColumn = 4, kRows = 5, kColumns = 6,
                  kDepth = 7, kKt = 8, kNt = 9;
constexpr uint8_t kBatchEnd = 10, kM = 11, kN = 12, kFullEnd = 13,
                  kTailDepth = 14, kMt = 15;
constexpr uint8_t kA = reg::kFirstTemp + 8, kB = reg::kFirstTemp + 9;

struct Tiles {
  int64_t mt, nt, kt;
  int64_t depth_tiles;      // KT = ceil(k / kt)
  bool resident;            // A's row block stays in SRAM across the C tiles
  std::vector<uint32_t> a;  // KT tiles when resident, else two banks
  uint32_t b[2], acc[2];
  // The C tile's lane -> row and lane -> column (s64), computed once when
  // the epilogue reads its indices.
  uint32_t lane_row = kNoSlot, lane_column = kNoSlot;
};

// One operand's box for a depth tile into `tile`: A (lhs, Mt x Kt, rows
// from register kRow) or B (rhs, Kt x Nt, columns from register kColumn),
// zero-filled first when it is the short last depth tile. `depth` is the
// tile's first k when known here, -1 when register kDepth holds it;
// `depth_reg` holds the tile's depth.
void EmitLoad(const KernelContext& context, const phal_kir_dot_t& dot,
              const Tiles& t, bool lhs, uint32_t tile, bool last,
              uint8_t depth_reg, int64_t depth, ProgramBuilder& program) {
  const uint32_t buffer = lhs ? dot.lhs : dot.rhs;
  const phal_element_type_t type = context.buffers[buffer].element_type;
  const int64_t* strides = lhs ? dot.lhs_strides : dot.rhs_strides;
  // lhs: (batch, m, k); rhs: (batch, k, n).
  const int64_t depth_stride = lhs ? strides[2] : strides[1];
  if (last && dot.k % t.kt != 0) {
    program.Li(reg::kLanes, lhs ? t.mt * t.kt : t.kt * t.nt);
    program.Fill(type, tile, reg::kZero);
  }
  const std::pair<uint8_t, int64_t> terms[] = {
      {dot.batch > 1 ? kBatch : reg::kZero, strides[0]},
      {depth < 0 ? kDepth : reg::kZero, depth_stride},
      {lhs ? kRow : kColumn, lhs ? strides[1] : strides[2]}};
  const uint8_t address = lhs ? kA : kB;
  EmitElementAddress(program, address, buffer, terms,
                     static_cast<int64_t>(ElementTypeByteSize(type)),
                     depth < 0 ? 0 : depth * depth_stride);
  program.DmaBox(Opcode::kDmaLoad, type, tile, address, lhs ? kRows : depth_reg,
                 lhs ? depth_reg : kColumns, reg::kZero,
                 program.Descriptor(
                     {{strides[1], strides[2], 0}, {lhs ? t.kt : t.nt, 1, 0}}));
}

Status EmitEpilogue(const KernelContext& context, const phal_kir_dot_t& dot,
                    const Tiles& t, uint32_t acc, SramAllocator& sram,
                    ProgramBuilder& program) {
  const phal_kir_buffer_t& out = context.buffers[dot.output];
  const phal_element_type_t acc_type =
      dot.accumulation_type == PHAL_ELEMENT_TYPE_S32 ? PHAL_ELEMENT_TYPE_S32
                                                     : PHAL_ELEMENT_TYPE_F32;
  const phal_kir_body_t& e = dot.epilogue;
  const bool identity = e.result_count == 1 &&
                        e.nodes[e.results[0]].op == PHAL_KIR_OP_PARAMETER &&
                        e.nodes[e.results[0]].type == out.element_type;
  uint32_t result = acc;
  Slot owned;
  VectorBody body(program, sram, context.buffers, t.mt * t.nt);
  std::vector<uint32_t> index_slots;
  if (!identity) {
    program.Alu(Opcode::kMul, reg::kLanes, kRows, kNt);
    const std::vector<bool> used = UsedIndexDims(e, context.buffers, 3, {});
    TileLeaves leaves;
    leaves.index.assign(3, kNoSlot);
    leaves.parameters = {Slot{acc, acc_type}};
    // Reads of the output's shape (a residual), of [m, n] or of [n] (a
    // bias) are boxes of the C tile's rows and columns.
    leaves.box.dims = {dot.batch, dot.m, dot.n};
    leaves.box.columns = t.nt;
    leaves.box.c_stride = 1;
    leaves.box.r_stride = dot.n;
    leaves.box.b_stride = dot.m * dot.n;
    leaves.box.c_start = kColumn;
    leaves.box.r_start = kRow;
    leaves.box.b_start = dot.batch > 1 ? kBatch : reg::kZero;
    leaves.box.c_count = kColumns;
    leaves.box.r_count = kRows;
    leaves.box.trailing = true;
    if (used[0]) {
      PHAL_ASSIGN_OR_RETURN(Slot s, body.Broadcast(kBatch));
      leaves.index[0] = s.offset;
    }
    const Slot lane_row{t.lane_row, PHAL_ELEMENT_TYPE_S64};
    const Slot lane_column{t.lane_column, PHAL_ELEMENT_TYPE_S64};
    if (used[1]) {
      PHAL_ASSIGN_OR_RETURN(Slot row, body.Broadcast(kRow));
      body.Op(Opcode::kVAdd, row, row, lane_row);
      leaves.index[1] = row.offset;
    }
    if (used[2]) {
      // Columns past the tile's last are clamped to n - 1: computed, never
      // stored.
      PHAL_ASSIGN_OR_RETURN(Slot column, body.Broadcast(kColumn));
      body.Op(Opcode::kVAdd, column, column, lane_column);
      PHAL_ASSIGN_OR_RETURN(Slot last, body.IndexConstant(dot.n - 1));
      body.Op(Opcode::kVMin, column, column, last);
      body.Free(last);
      leaves.index[2] = column.offset;
    }
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> results,
        body.Emit(e, leaves, "epilogue of dot " + context.name));
    for (uint32_t s : leaves.index) {
      if (s != kNoSlot) sram.Free(s);
    }
    if (results.size() != 1 || results[0].type != out.element_type) {
      return InvalidArgument("asic-ref: the epilogue of dot " + context.name +
                             " does not produce its output's type");
    }
    owned = results[0];
    result = owned.offset;
  }
  const std::pair<uint8_t, int64_t> terms[] = {
      {dot.batch > 1 ? kBatch : reg::kZero, dot.m * dot.n},
      {kRow, dot.n},
      {kColumn, 1}};
  EmitElementAddress(
      program, kA, dot.output, terms,
      static_cast<int64_t>(ElementTypeByteSize(out.element_type)), 0);
  program.DmaBox(Opcode::kDmaStore, out.element_type, result, kA, kRows,
                 kColumns, reg::kZero,
                 program.Descriptor({{dot.n, 1, 0}, {t.nt, 1, 0}}));
  if (owned.offset != kNoSlot) body.Free(owned);
  return OkStatus();
}

}  // namespace

void EmitElementAddress(ProgramBuilder& program, uint8_t dst, uint32_t buffer,
                        std::span<const std::pair<uint8_t, int64_t>> terms,
                        int64_t element_size, int64_t constant) {
  const uint8_t product = reg::kFirstTemp + 7;
  program.LoadBufferAddress(dst, buffer);
  for (const auto& [r, stride] : terms) {
    if (stride == 0 || r == reg::kZero) continue;
    program.Muli(product, r, stride * element_size);
    program.Alu(Opcode::kAdd, dst, dst, product);
  }
  if (constant != 0) program.Addi(dst, dst, constant * element_size);
}

Status EmitDot(const KernelContext& context, const phal_kir_dot_t& dot,
               int64_t lanes, ProgramBuilder& program) {
  const phal_element_type_t lhs = context.buffers[dot.lhs].element_type;
  const phal_element_type_t rhs = context.buffers[dot.rhs].element_type;
  const bool float_array = dot.accumulation_type == PHAL_ELEMENT_TYPE_F32 &&
                           IsMatrixInput(lhs) && IsMatrixInput(rhs);
  const bool int8_array = dot.accumulation_type == PHAL_ELEMENT_TYPE_S32 &&
                          lhs == PHAL_ELEMENT_TYPE_S8 &&
                          rhs == PHAL_ELEMENT_TYPE_S8;
  if (!float_array && !int8_array) {
    return EmitDotOnVectorUnit(context, dot, lanes, program);
  }
  if (dot.batch == 0 || dot.m == 0 || dot.n == 0) {
    program.Halt();
    return OkStatus();
  }
  const phal_element_type_t acc_type =
      int8_array ? PHAL_ELEMENT_TYPE_S32 : PHAL_ELEMENT_TYPE_F32;
  const int64_t array = context.config.array_size;
  Tiles t{};
  t.nt =
      std::min<int64_t>(RoundUp(dot.n, array), std::max<int64_t>(array, 128));
  t.mt = std::max<int64_t>(1, std::min<int64_t>(dot.m, 4 * lanes / t.nt));
  t.kt = std::min<int64_t>(RoundUp(std::max<int64_t>(dot.k, 1), array),
                           std::max<int64_t>(array, 256));
  t.depth_tiles = (dot.k + t.kt - 1) / t.kt;
  const uint64_t a_tile = t.mt * t.kt * ElementTypeByteSize(lhs);
  const uint64_t b_tile = t.kt * t.nt * ElementTypeByteSize(rhs);
  // Depth tiles unrolled (at most 16) let A's whole row block stay in SRAM
  // while the C tiles of that row go by, when it takes at most a quarter of
  // the scratchpad.
  const bool unrolled = t.depth_tiles <= 16;
  t.resident =
      unrolled && t.depth_tiles > 0 &&
      a_tile * t.depth_tiles <= (context.sram_end - context.sram_begin) / 4;
  SramAllocator fixed(context.sram_begin, context.sram_end);
  const int64_t a_count = t.resident ? t.depth_tiles : 2;
  for (int64_t i = 0; i < a_count; ++i) {
    PHAL_ASSIGN_OR_RETURN(uint32_t offset, fixed.Allocate(a_tile, "an A tile"));
    t.a.push_back(offset);
  }
  for (int bank = 0; bank < 2; ++bank) {
    PHAL_ASSIGN_OR_RETURN(t.b[bank], fixed.Allocate(b_tile, "a B tile"));
    PHAL_ASSIGN_OR_RETURN(t.acc[bank],
                          fixed.Allocate(t.mt * t.nt * 4, "a C tile"));
  }
  const phal_kir_body_t& e = dot.epilogue;
  const std::vector<bool> used = UsedIndexDims(e, context.buffers, 3, {});
  if (used[1] || used[2]) {
    PHAL_ASSIGN_OR_RETURN(t.lane_row,
                          fixed.Allocate(t.mt * t.nt * 8, "C tile rows"));
    PHAL_ASSIGN_OR_RETURN(t.lane_column,
                          fixed.Allocate(t.mt * t.nt * 8, "C tile columns"));
  }
  SramAllocator sram(context.sram_begin + static_cast<uint32_t>(fixed.peak()),
                     context.sram_end);
  if (t.lane_row != kNoSlot) {
    program.Comment("C tile lanes: rows and columns");
    program.Li(reg::kLanes, t.mt * t.nt);
    VectorBody body(program, sram, context.buffers, t.mt * t.nt);
    PHAL_ASSIGN_OR_RETURN(Slot lane,
                          body.NewSlot(PHAL_ELEMENT_TYPE_S64, "lanes"));
    program.Iota(lane.offset, reg::kZero);
    PHAL_ASSIGN_OR_RETURN(Slot nt, body.IndexConstant(t.nt));
    body.Op(Opcode::kVDiv, Slot{t.lane_row, PHAL_ELEMENT_TYPE_S64}, lane, nt);
    body.Op(Opcode::kVRem, Slot{t.lane_column, PHAL_ELEMENT_TYPE_S64}, lane,
            nt);
    body.Free(nt);
    body.Free(lane);
  }

  program.Comment("dot [" + std::to_string(dot.batch) + "] " +
                  std::to_string(dot.m) + "x" + std::to_string(dot.k) + " by " +
                  std::to_string(dot.k) + "x" + std::to_string(dot.n) +
                  " on the matrix unit: C tiles " + std::to_string(t.mt) + "x" +
                  std::to_string(t.nt) + " in two banks, depth tiles of " +
                  std::to_string(t.kt) +
                  (t.resident ? ", A's row block resident" : ""));
  program.Li(kBatchEnd, dot.batch);
  program.Li(kM, dot.m);
  program.Li(kN, dot.n);
  program.Li(kKt, t.kt);
  program.Li(kNt, t.nt);
  program.Li(kMt, t.mt);
  const int64_t full = dot.k / t.kt;
  program.Li(kFullEnd, full * t.kt);
  program.Li(kTailDepth, dot.k % t.kt);
  // The depth count register of depth tile i.
  auto depth_of = [&](int64_t i) {
    return i == t.depth_tiles - 1 && dot.k % t.kt != 0 ? kTailDepth : kKt;
  };
  // One C tile in C bank v: its depth tiles, the epilogue, the store.
  auto c_tile = [&](int v) -> Status {
    const uint32_t acc = t.acc[v];
    if (t.depth_tiles == 0 || !unrolled) {
      program.Li(reg::kLanes, t.mt * t.nt);
      program.Fill(acc_type, acc, reg::kZero);
    }
    if (unrolled) {
      for (int64_t i = 0; i < t.depth_tiles; ++i) {
        const int bank = static_cast<int>((v * t.depth_tiles + i) % 2);
        const bool last = i == t.depth_tiles - 1;
        if (!t.resident) {
          EmitLoad(context, dot, t, true, t.a[bank], last, depth_of(i),
                   i * t.kt, program);
        }
        EmitLoad(context, dot, t, false, t.b[bank], last, depth_of(i), i * t.kt,
                 program);
        program.MatMul(lhs, rhs, acc, t.resident ? t.a[i] : t.a[bank],
                       t.b[bank], kRows, kKt, kNt, i == 0);
      }
    } else {
      // Many depth tiles: a loop over the full ones, two banks alternating,
      // then the short last one.
      program.Li(kDepth, 0);
      const Label top = program.NewLabel();
      const Label after = program.NewLabel();
      program.Bind(top);
      for (int bank = 0; bank < 2; ++bank) {
        EmitLoad(context, dot, t, true, t.a[bank], false, kKt, -1, program);
        EmitLoad(context, dot, t, false, t.b[bank], false, kKt, -1, program);
        program.MatMul(lhs, rhs, acc, t.a[bank], t.b[bank], kRows, kKt, kNt,
                       false);
        program.Addi(kDepth, kDepth, t.kt);
        program.Branch(bank == 0 ? Opcode::kBge : Opcode::kBlt, kDepth,
                       kFullEnd, bank == 0 ? after : top);
      }
      program.Bind(after);
      if (dot.k % t.kt != 0) {
        const int bank = static_cast<int>(full % 2);
        EmitLoad(context, dot, t, true, t.a[bank], true, kTailDepth, -1,
                 program);
        EmitLoad(context, dot, t, false, t.b[bank], true, kTailDepth, -1,
                 program);
        program.MatMul(lhs, rhs, acc, t.a[bank], t.b[bank], kRows, kKt, kNt,
                       false);
      }
    }
    program.Comment("epilogue and store");
    return EmitEpilogue(context, dot, t, acc, sram, program);
  };

  program.Li(kBatch, 0);
  const Label batch_top = program.NewLabel();
  program.Bind(batch_top);
  program.Li(kRow, 0);
  const Label row_top = program.NewLabel();
  program.Bind(row_top);
  EmitTileCount(program, kRows, kM, kRow, t.mt);
  if (t.resident) {
    program.Comment("A's row block");
    for (int64_t i = 0; i < t.depth_tiles; ++i) {
      EmitLoad(context, dot, t, true, t.a[i], i == t.depth_tiles - 1,
               depth_of(i), i * t.kt, program);
    }
  }
  program.Li(kColumn, 0);
  const Label column_top = program.NewLabel();
  const Label row_done = program.NewLabel();
  program.Bind(column_top);
  for (int v = 0; v < 2; ++v) {
    program.Comment(v == 0 ? "C tile in bank A" : "C tile in bank B");
    EmitTileCount(program, kColumns, kN, kColumn, t.nt);
    PHAL_RETURN_IF_ERROR(c_tile(v));
    program.Alu(Opcode::kAdd, kColumn, kColumn, kNt);
    program.Branch(v == 0 ? Opcode::kBge : Opcode::kBlt, kColumn, kN,
                   v == 0 ? row_done : column_top);
  }
  program.Bind(row_done);
  program.Alu(Opcode::kAdd, kRow, kRow, kMt);
  program.Branch(Opcode::kBlt, kRow, kM, row_top);
  program.Addi(kBatch, kBatch, 1);
  program.Branch(Opcode::kBlt, kBatch, kBatchEnd, batch_top);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
