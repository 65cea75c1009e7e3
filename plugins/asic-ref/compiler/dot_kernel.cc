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

bool IsMatrixInput(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_BF16 ||
         type == PHAL_ELEMENT_TYPE_F16;
}

int64_t RoundUp(int64_t value, int64_t step) {
  return (value + step - 1) / step * step;
}

struct Tiles {
  int64_t mt, nt, kt;
  uint32_t a[2], b[2], acc;
};

// One k tile into bank `bank`: the boxes of A and B, then the product.
void EmitDepthTile(const KernelContext& context, const phal_kir_dot_t& dot,
                   const Tiles& t, int bank, uint8_t depth_reg,
                   bool zero_padding, ProgramBuilder& program) {
  const phal_kir_buffer_t& lhs = context.buffers[dot.lhs];
  const phal_kir_buffer_t& rhs = context.buffers[dot.rhs];
  const int64_t a_size =
      static_cast<int64_t>(ElementTypeByteSize(lhs.element_type));
  const int64_t b_size =
      static_cast<int64_t>(ElementTypeByteSize(rhs.element_type));
  if (zero_padding) {
    program.Li(reg::kLanes, t.mt * t.kt);
    program.Fill(lhs.element_type, t.a[bank], reg::kZero);
    program.Li(reg::kLanes, t.kt * t.nt);
    program.Fill(rhs.element_type, t.b[bank], reg::kZero);
  }
  const std::pair<uint8_t, int64_t> a_terms[] = {{kBatch, dot.lhs_strides[0]},
                                                 {kRow, dot.lhs_strides[1]},
                                                 {kDepth, dot.lhs_strides[2]}};
  EmitElementAddress(program, kA, dot.lhs, a_terms, a_size);
  program.DmaBox(
      Opcode::kDmaLoad, lhs.element_type, t.a[bank], kA, kRows, depth_reg,
      reg::kZero,
      program.Descriptor(
          {{dot.lhs_strides[1], dot.lhs_strides[2], 0}, {t.kt, 1, 0}}));
  const std::pair<uint8_t, int64_t> b_terms[] = {{kBatch, dot.rhs_strides[0]},
                                                 {kDepth, dot.rhs_strides[1]},
                                                 {kColumn, dot.rhs_strides[2]}};
  EmitElementAddress(program, kB, dot.rhs, b_terms, b_size);
  program.DmaBox(
      Opcode::kDmaLoad, rhs.element_type, t.b[bank], kB, depth_reg, kColumns,
      reg::kZero,
      program.Descriptor(
          {{dot.rhs_strides[1], dot.rhs_strides[2], 0}, {t.nt, 1, 0}}));
  program.MatMul(lhs.element_type, rhs.element_type, t.acc, t.a[bank],
                 t.b[bank], kRows, kKt, kNt, false);
}

Status EmitEpilogue(const KernelContext& context, const phal_kir_dot_t& dot,
                    const Tiles& t, SramAllocator& sram,
                    ProgramBuilder& program) {
  const phal_kir_buffer_t& out = context.buffers[dot.output];
  const phal_element_type_t acc_type =
      dot.accumulation_type == PHAL_ELEMENT_TYPE_S32 ? PHAL_ELEMENT_TYPE_S32
                                                     : PHAL_ELEMENT_TYPE_F32;
  const phal_kir_body_t& e = dot.epilogue;
  const bool identity = e.result_count == 1 &&
                        e.nodes[e.results[0]].op == PHAL_KIR_OP_PARAMETER &&
                        e.nodes[e.results[0]].type == out.element_type;
  uint32_t result = t.acc;
  Slot owned;
  VectorBody body(program, sram, context.buffers, t.mt * t.nt);
  std::vector<uint32_t> index_slots;
  if (!identity) {
    program.Alu(Opcode::kMul, reg::kLanes, kRows, kNt);
    bool used[3] = {false, false, false};
    for (uint32_t i = 0; i < e.node_count; ++i) {
      if (e.nodes[i].op == PHAL_KIR_OP_INDEX && e.nodes[i].attributes[0] >= 0 &&
          e.nodes[i].attributes[0] < 3) {
        used[e.nodes[i].attributes[0]] = true;
      }
    }
    TileLeaves leaves;
    leaves.index.assign(3, kNoSlot);
    leaves.parameters = {Slot{t.acc, acc_type}};
    if (used[0]) {
      PHAL_ASSIGN_OR_RETURN(Slot s, body.Broadcast(kBatch));
      leaves.index[0] = s.offset;
    }
    if (used[1] || used[2]) {
      PHAL_ASSIGN_OR_RETURN(Slot lane,
                            body.NewSlot(PHAL_ELEMENT_TYPE_S64, "lanes"));
      program.Iota(lane.offset, reg::kZero);
      PHAL_ASSIGN_OR_RETURN(Slot nt, body.IndexConstant(t.nt));
      if (used[1]) {
        PHAL_ASSIGN_OR_RETURN(Slot row,
                              body.NewSlot(PHAL_ELEMENT_TYPE_S64, "rows"));
        body.Op(Opcode::kVDiv, row, lane, nt);
        PHAL_ASSIGN_OR_RETURN(Slot first, body.Broadcast(kRow));
        body.Op(Opcode::kVAdd, row, row, first);
        body.Free(first);
        leaves.index[1] = row.offset;
      }
      if (used[2]) {
        // Columns past the tile's last are clamped to n - 1: computed, never
        // stored.
        PHAL_ASSIGN_OR_RETURN(Slot col,
                              body.NewSlot(PHAL_ELEMENT_TYPE_S64, "columns"));
        body.Op(Opcode::kVRem, col, lane, nt);
        PHAL_ASSIGN_OR_RETURN(Slot first, body.Broadcast(kColumn));
        body.Op(Opcode::kVAdd, col, col, first);
        body.Free(first);
        PHAL_ASSIGN_OR_RETURN(Slot last, body.IndexConstant(dot.n - 1));
        body.Op(Opcode::kVMin, col, col, last);
        body.Free(last);
        leaves.index[2] = col.offset;
      }
      body.Free(nt);
      body.Free(lane);
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
      {kBatch, dot.m * dot.n}, {kRow, dot.n}, {kColumn, 1}};
  EmitElementAddress(
      program, kA, dot.output, terms,
      static_cast<int64_t>(ElementTypeByteSize(out.element_type)));
  program.DmaBox(Opcode::kDmaStore, out.element_type, result, kA, kRows,
                 kColumns, reg::kZero,
                 program.Descriptor({{dot.n, 1, 0}, {t.nt, 1, 0}}));
  if (owned.offset != kNoSlot) body.Free(owned);
  return OkStatus();
}

}  // namespace

void EmitElementAddress(ProgramBuilder& program, uint8_t dst, uint32_t buffer,
                        std::span<const std::pair<uint8_t, int64_t>> terms,
                        int64_t element_size) {
  const uint8_t sum = reg::kFirstTemp + 6, product = reg::kFirstTemp + 7;
  program.Li(sum, 0);
  for (const auto& [r, stride] : terms) {
    if (stride == 0) continue;
    program.Muli(product, r, stride * element_size);
    program.Alu(Opcode::kAdd, sum, sum, product);
  }
  program.LoadBufferAddress(dst, buffer);
  program.Alu(Opcode::kAdd, dst, dst, sum);
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
  const int64_t array = context.config.array_size;
  Tiles t{};
  t.nt =
      std::min<int64_t>(RoundUp(dot.n, array), std::max<int64_t>(array, 128));
  t.mt = std::max<int64_t>(1, std::min<int64_t>(dot.m, 4 * lanes / t.nt));
  // At least two depth tiles where k allows, so the next tile's boxes load
  // into the other bank while the array works on this one.
  t.kt =
      std::min<int64_t>(RoundUp(std::max<int64_t>((dot.k + 1) / 2, 1), array),
                        std::max<int64_t>(array, 256));
  SramAllocator sram(context.sram_begin, context.sram_end);
  const uint64_t a_bytes = t.mt * t.kt * ElementTypeByteSize(lhs);
  const uint64_t b_bytes = t.kt * t.nt * ElementTypeByteSize(rhs);
  for (int bank = 0; bank < 2; ++bank) {
    PHAL_ASSIGN_OR_RETURN(t.a[bank], sram.Allocate(a_bytes, "an A tile"));
    PHAL_ASSIGN_OR_RETURN(t.b[bank], sram.Allocate(b_bytes, "a B tile"));
  }
  PHAL_ASSIGN_OR_RETURN(t.acc, sram.Allocate(t.mt * t.nt * 4, "a C tile"));

  program.Comment("dot [" + std::to_string(dot.batch) + "] " +
                  std::to_string(dot.m) + "x" + std::to_string(dot.k) + " by " +
                  std::to_string(dot.k) + "x" + std::to_string(dot.n) +
                  " on the matrix unit, C tiles " + std::to_string(t.mt) + "x" +
                  std::to_string(t.nt) + ", depth tiles of " +
                  std::to_string(t.kt));
  program.Li(kBatchEnd, dot.batch);
  program.Li(kM, dot.m);
  program.Li(kN, dot.n);
  program.Li(kKt, t.kt);
  program.Li(kNt, t.nt);
  program.Li(kMt, t.mt);
  const int64_t full = dot.k / t.kt;
  const int64_t tail = dot.k % t.kt;
  program.Li(kFullEnd, full * t.kt);
  program.Li(kTailDepth, tail);
  program.Li(kBatch, 0);
  const Label batch_top = program.NewLabel();
  program.Bind(batch_top);
  program.Li(kRow, 0);
  const Label row_top = program.NewLabel();
  program.Bind(row_top);
  EmitTileCount(program, kRows, kM, kRow, t.mt);
  program.Li(kColumn, 0);
  const Label column_top = program.NewLabel();
  program.Bind(column_top);
  EmitTileCount(program, kColumns, kN, kColumn, t.nt);
  program.Comment("C tile = 0");
  program.Li(reg::kLanes, t.mt * t.nt);
  program.Fill(dot.accumulation_type == PHAL_ELEMENT_TYPE_S32
                   ? PHAL_ELEMENT_TYPE_S32
                   : PHAL_ELEMENT_TYPE_F32,
               t.acc, reg::kZero);
  program.Li(kDepth, 0);
  if (full > 0) {
    const Label top = program.NewLabel();
    const Label after = program.NewLabel();
    program.Bind(top);
    for (int bank = 0; bank < (full > 1 ? 2 : 1); ++bank) {
      program.Comment(bank == 0 ? "depth tile, bank A" : "depth tile, bank B");
      EmitDepthTile(context, dot, t, bank, kKt, false, program);
      program.Addi(kDepth, kDepth, t.kt);
      program.Branch(bank == 0 ? Opcode::kBge : Opcode::kBlt, kDepth, kFullEnd,
                     bank == 0 ? after : top);
    }
    program.Bind(after);
  }
  if (tail > 0) {
    program.Comment("last depth tile, zero-padded");
    EmitDepthTile(context, dot, t, static_cast<int>(full % 2), kTailDepth, true,
                  program);
  }
  program.Comment("epilogue and store");
  PHAL_RETURN_IF_ERROR(EmitEpilogue(context, dot, t, sram, program));
  program.Alu(Opcode::kAdd, kColumn, kColumn, kNt);
  program.Branch(Opcode::kBlt, kColumn, kN, column_top);
  program.Alu(Opcode::kAdd, kRow, kRow, kMt);
  program.Branch(Opcode::kBlt, kRow, kM, row_top);
  program.Addi(kBatch, kBatch, 1);
  program.Branch(Opcode::kBlt, kBatch, kBatchEnd, batch_top);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
