// CONV on the matrix unit for channels-innermost layouts (input b01f or
// b0f, kernel 01io or 0io, output b01f or b0f; no groups, no lhs
// dilation): a direct convolution. For each output row (batch, y) and each
// tile of output columns, every kernel tap (ky, kx) and chunk of input
// channels adds A x B to the C tile, where A is a box of the input (the
// tap's input pixels of those columns, channels contiguous) and B the tap's
// slice of the kernel, which stays in SRAM for the whole kernel. Taps that
// fall on a padded input row are skipped by the scalar core; the columns
// they cover only in part are zero-filled around the box. No element is
// gathered.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/kernels.h"
#include "compiler/sram_allocator.h"
#include "compiler/vector_body.h"
#include "sdk/base/element_types.h"

namespace phal::asic_ref {
namespace {

constexpr uint8_t kBatch = 2, kRowOut = 3, kRowIn = 4;
constexpr uint8_t kBatchEnd = 10, kRowsOut = 11, kRowsIn = 12;
constexpr uint8_t kMt = 13, kKt = 14, kNt = 15;
constexpr uint8_t kAddress = reg::kFirstTemp + 8;
constexpr uint8_t kCount = reg::kFirstTemp + 9;
constexpr uint8_t kColumnCount = reg::kFirstTemp + 10;
constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;

// The geometry in a 2-D form (a 1-D convolution has H = KH = Ho = 1).
struct Geometry {
  int64_t n, h, w, c;  // input
  int64_t kh, kw, co;  // kernel (KH, KW, C, CO)
  int64_t ho, wo;      // output
  int64_t sh, sw, ph, pw, dh, dw;
  bool rh, rw;  // window reversal
};

bool Sequential(const int64_t* dims, uint32_t count, int64_t first) {
  for (uint32_t i = 0; i < count; ++i) {
    if (dims[i] != first + i) return false;
  }
  return true;
}

}  // namespace

bool ConvIsDirect(const KernelContext& context, const phal_kir_conv_t& c) {
  const phal_kir_buffer_t& input = context.buffers[c.input];
  const phal_kir_buffer_t& kernel = context.buffers[c.kernel];
  const phal_kir_buffer_t& output = context.buffers[c.output];
  const uint32_t s = c.spatial_count;
  if (s < 1 || s > 2 || c.feature_group_count != 1 ||
      c.batch_group_count != 1) {
    return false;
  }
  for (uint32_t i = 0; i < s; ++i) {
    if (c.lhs_dilation[i] != 1) return false;
  }
  const bool types = (c.accumulation_type == PHAL_ELEMENT_TYPE_F32 &&
                      IsMatrixInput(input.element_type) &&
                      IsMatrixInput(kernel.element_type)) ||
                     (c.accumulation_type == PHAL_ELEMENT_TYPE_S32 &&
                      input.element_type == PHAL_ELEMENT_TYPE_S8 &&
                      kernel.element_type == PHAL_ELEMENT_TYPE_S8);
  return types && c.input_batch_dimension == 0 &&
         Sequential(c.input_spatial_dimensions, s, 1) &&
         c.input_feature_dimension == s + 1 &&
         Sequential(c.kernel_spatial_dimensions, s, 0) &&
         c.kernel_input_feature_dimension == s &&
         c.kernel_output_feature_dimension == s + 1 &&
         c.output_batch_dimension == 0 &&
         Sequential(c.output_spatial_dimensions, s, 1) &&
         c.output_feature_dimension == s + 1 && input.rank == s + 2 &&
         kernel.rank == s + 2 && output.rank == s + 2;
}

Status EmitConvDirect(const KernelContext& context, const phal_kir_conv_t& conv,
                      int64_t lanes, ProgramBuilder& program) {
  const phal_kir_buffer_t& input = context.buffers[conv.input];
  const phal_kir_buffer_t& kernel = context.buffers[conv.kernel];
  const phal_kir_buffer_t& out = context.buffers[conv.output];
  const bool two = conv.spatial_count == 2;
  Geometry g{};
  g.n = input.dims[0];
  g.h = two ? input.dims[1] : 1;
  g.w = input.dims[two ? 2 : 1];
  g.c = input.dims[two ? 3 : 2];
  g.kh = two ? kernel.dims[0] : 1;
  g.kw = kernel.dims[two ? 1 : 0];
  g.co = kernel.dims[two ? 3 : 2];
  g.ho = two ? out.dims[1] : 1;
  g.wo = out.dims[two ? 2 : 1];
  const int x = two ? 1 : 0;  // the spatial index of w
  g.sh = two ? conv.window_strides[0] : 1;
  g.sw = conv.window_strides[x];
  g.ph = two ? conv.padding[0] : 0;
  g.pw = conv.padding[2 * x];
  g.dh = two ? conv.rhs_dilation[0] : 1;
  g.dw = conv.rhs_dilation[x];
  g.rh = two && conv.window_reversal[0] != 0;
  g.rw = conv.window_reversal[x] != 0;
  if (ElementCount({out.dims, out.rank}) == 0) {
    program.Halt();
    return OkStatus();
  }
  const int64_t array = context.config.array_size;
  const int64_t mt = std::min<int64_t>(g.wo, 256);
  const int64_t kt = std::min<int64_t>(RoundUp(g.c, array), 256);
  const int64_t nt = std::min<int64_t>(RoundUp(g.co, array), 128);
  const int64_t x_tiles = (g.wo + mt - 1) / mt;
  const int64_t c_chunks = (g.c + kt - 1) / kt;
  const int64_t o_chunks = (g.co + nt - 1) / nt;
  const int64_t taps = g.kh * g.kw;
  if (x_tiles * o_chunks * taps * c_chunks > 512 || mt * nt > 4 * lanes) {
    return ResourceExhausted("asic-ref compiler: direct convolution " +
                             context.name + " unrolls too far");
  }
  const phal_element_type_t a_type = input.element_type;
  const phal_element_type_t b_type = kernel.element_type;
  const phal_element_type_t acc_type = conv.accumulation_type;
  const int64_t a_size = static_cast<int64_t>(ElementTypeByteSize(a_type));
  const int64_t b_size = static_cast<int64_t>(ElementTypeByteSize(b_type));
  const int64_t o_size =
      static_cast<int64_t>(ElementTypeByteSize(out.element_type));

  // SRAM: the kernel (one Kt x Nt tile per tap, channel chunk and output
  // chunk), two A banks, two C banks, then the epilogue's scratch.
  SramAllocator fixed(context.sram_begin, context.sram_end);
  std::vector<uint32_t> b_tiles(taps * c_chunks * o_chunks);
  for (uint32_t& tile : b_tiles) {
    PHAL_ASSIGN_OR_RETURN(tile,
                          fixed.Allocate(kt * nt * b_size, "a kernel tile"));
  }
  uint32_t a[2], acc[2];
  for (int bank = 0; bank < 2; ++bank) {
    PHAL_ASSIGN_OR_RETURN(a[bank],
                          fixed.Allocate(mt * kt * a_size, "an input tile"));
    PHAL_ASSIGN_OR_RETURN(acc[bank],
                          fixed.Allocate(mt * nt * 4, "an output tile"));
  }
  SramAllocator sram(context.sram_begin + static_cast<uint32_t>(fixed.peak()),
                     context.sram_end);
  VectorBody body(program, sram, context.buffers, mt * nt);

  program.Comment("direct convolution: " + std::to_string(g.kh) + "x" +
                  std::to_string(g.kw) + " taps, " + std::to_string(g.c) +
                  " -> " + std::to_string(g.co) + " channels, output rows of " +
                  std::to_string(g.wo) + " in tiles of " + std::to_string(mt));
  program.Li(kMt, mt);
  program.Li(kKt, kt);
  program.Li(kNt, nt);
  // The kernel, once: tap (ky, kx), channels [c0, c0 + Kt), outputs
  // [o0, o0 + Nt), zero-filled where the chunk is short.
  program.Comment("the kernel's taps into SRAM");
  const uint16_t kernel_box = program.Descriptor({{g.co, 1, 0}, {nt, 1, 0}});
  for (int64_t tap = 0; tap < taps; ++tap) {
    for (int64_t cc = 0; cc < c_chunks; ++cc) {
      for (int64_t oc = 0; oc < o_chunks; ++oc) {
        const uint32_t tile = b_tiles[(tap * c_chunks + cc) * o_chunks + oc];
        const int64_t rows = std::min(kt, g.c - cc * kt);
        const int64_t cols = std::min(nt, g.co - oc * nt);
        if (rows < kt || cols < nt) {
          program.Li(reg::kLanes, kt * nt);
          program.Fill(b_type, tile, reg::kZero);
        }
        program.LoadBufferAddress(kAddress, conv.kernel);
        program.Addi(kAddress, kAddress,
                     ((tap * g.c + cc * kt) * g.co + oc * nt) * b_size);
        program.Li(kCount, rows);
        program.Li(kColumnCount, cols);
        program.DmaBox(Opcode::kDmaLoad, b_type, tile, kAddress, kCount,
                       kColumnCount, reg::kZero, kernel_box);
      }
    }
  }
  // The input tiles' channel padding stays zero: boxes write only the
  // first C columns.
  program.Li(reg::kLanes, mt * kt);
  program.Fill(a_type, a[0], reg::kZero);
  program.Fill(a_type, a[1], reg::kZero);

  program.Li(kBatchEnd, g.n);
  program.Li(kRowsOut, g.ho);
  program.Li(kRowsIn, g.h);
  program.Li(kBatch, 0);
  const Label batch_top = program.NewLabel();
  program.Bind(batch_top);
  program.Li(kRowOut, 0);
  const Label row_top = program.NewLabel();
  program.Bind(row_top);
  int64_t use = 0;  // A banks alternate over every tap of the row
  const uint16_t input_box =
      program.Descriptor({{g.sw * g.c, 1, 0}, {kt, 1, 0}});
  for (int64_t xt = 0; xt < x_tiles; ++xt) {
    const int64_t x0 = xt * mt;
    const int64_t xm = std::min(mt, g.wo - x0);
    for (int64_t oc = 0; oc < o_chunks; ++oc) {
      const int v = static_cast<int>((xt * o_chunks + oc) % 2);
      const int64_t cols = std::min(nt, g.co - oc * nt);
      program.Comment("output columns " + std::to_string(x0) + ".." +
                      std::to_string(x0 + xm) + ", channels " +
                      std::to_string(oc * nt) + ".." +
                      std::to_string(oc * nt + cols));
      program.Li(reg::kLanes, mt * nt);
      program.Fill(acc_type, acc[v], reg::kZero);
      for (int64_t ky = 0; ky < g.kh; ++ky) {
        const Label skip = program.NewLabel();
        // The input row of this tap; the tap is skipped on padding.
        program.Muli(kRowIn, kRowOut, g.sh);
        program.Addi(kRowIn, kRowIn, ky * g.dh - g.ph);
        const int64_t tap_y = g.rh ? g.kh - 1 - ky : ky;
        program.Branch(Opcode::kBlt, kRowIn, reg::kZero, skip);
        program.Branch(Opcode::kBge, kRowIn, kRowsIn, skip);
        for (int64_t kx = 0; kx < g.kw; ++kx) {
          const int64_t tap_x = g.rw ? g.kw - 1 - kx : kx;
          // Output columns x whose input column x * sw - pw + kx * dw is
          // inside: [first, last).
          int64_t first = x0, last = x0 + xm;
          while (first < last && first * g.sw - g.pw + kx * g.dw < 0) ++first;
          while (last > first && (last - 1) * g.sw - g.pw + kx * g.dw >= g.w) {
            --last;
          }
          if (first >= last) continue;
          for (int64_t cc = 0; cc < c_chunks; ++cc) {
            const int bank = static_cast<int>(use++ % 2);
            const int64_t channels = std::min(kt, g.c - cc * kt);
            // Columns outside [first, last) read padding; a short last
            // channel chunk must not meet an earlier chunk's channels.
            if (first > x0 || last < x0 + xm ||
                (channels < kt && c_chunks > 1)) {
              program.Li(reg::kLanes, mt * kt);
              program.Fill(a_type, a[bank], reg::kZero);
            }
            // input[b, row_in, first * sw - pw + kx * dw, cc * kt]
            program.Muli(kAddress, kBatch, g.h);
            program.Alu(Opcode::kAdd, kAddress, kAddress, kRowIn);
            program.Muli(kAddress, kAddress, g.w * g.c * a_size);
            program.LoadBufferAddress(kCount, conv.input);
            program.Alu(Opcode::kAdd, kAddress, kAddress, kCount);
            program.Addi(
                kAddress, kAddress,
                ((first * g.sw - g.pw + kx * g.dw) * g.c + cc * kt) * a_size);
            program.Li(kCount, last - first);
            program.Li(kColumnCount, channels);
            program.DmaBox(
                Opcode::kDmaLoad, a_type,
                static_cast<uint32_t>(a[bank] + (first - x0) * kt * a_size),
                kAddress, kCount, kColumnCount, reg::kZero, input_box);
            const uint32_t tile =
                b_tiles[((tap_y * g.kw + tap_x) * c_chunks + cc) * o_chunks +
                        oc];
            program.MatMul(a_type, b_type, acc[v], a[bank], tile, kMt, kKt, kNt,
                           false);
          }
        }
        program.Bind(skip);
      }
      // Epilogue over the C tile; lanes past the row's end or the channels
      // are clamped, computed and not stored.
      const phal_kir_body_t& e = conv.epilogue;
      uint32_t result = acc[v];
      Slot owned;
      const bool identity = e.result_count == 1 &&
                            e.nodes[e.results[0]].op == PHAL_KIR_OP_PARAMETER &&
                            e.nodes[e.results[0]].type == out.element_type;
      if (!identity) {
        program.Li(reg::kLanes, mt * nt);
        const std::vector<bool> used =
            UsedIndexDims(e, context.buffers, out.rank, {});
        TileLeaves leaves;
        leaves.index.assign(out.rank, kNoSlot);
        leaves.parameters = {Slot{acc[v], acc_type}};
        if (used[0]) {
          PHAL_ASSIGN_OR_RETURN(Slot s, body.Broadcast(kBatch));
          leaves.index[0] = s.offset;
        }
        if (two && used[1]) {
          PHAL_ASSIGN_OR_RETURN(Slot s, body.Broadcast(kRowOut));
          leaves.index[1] = s.offset;
        }
        const size_t xd = two ? 2 : 1, fd = two ? 3 : 2;
        if (used[xd] || used[fd]) {
          PHAL_ASSIGN_OR_RETURN(Slot lane, body.NewSlot(kS64, "lanes"));
          program.Iota(lane.offset, reg::kZero);
          PHAL_ASSIGN_OR_RETURN(Slot width, body.IndexConstant(nt));
          if (used[xd]) {
            PHAL_ASSIGN_OR_RETURN(Slot col, body.NewSlot(kS64, "columns"));
            PHAL_ASSIGN_OR_RETURN(Slot start, body.IndexConstant(x0));
            PHAL_ASSIGN_OR_RETURN(Slot end, body.IndexConstant(g.wo - 1));
            body.Op(Opcode::kVDiv, col, lane, width);
            body.Op(Opcode::kVAdd, col, col, start);
            body.Op(Opcode::kVMin, col, col, end);
            body.Free(start);
            body.Free(end);
            leaves.index[xd] = col.offset;
          }
          if (used[fd]) {
            PHAL_ASSIGN_OR_RETURN(Slot ch, body.NewSlot(kS64, "channels"));
            PHAL_ASSIGN_OR_RETURN(Slot start, body.IndexConstant(oc * nt));
            PHAL_ASSIGN_OR_RETURN(Slot end, body.IndexConstant(g.co - 1));
            body.Op(Opcode::kVRem, ch, lane, width);
            body.Op(Opcode::kVAdd, ch, ch, start);
            body.Op(Opcode::kVMin, ch, ch, end);
            body.Free(start);
            body.Free(end);
            leaves.index[fd] = ch.offset;
          }
          body.Free(width);
          body.Free(lane);
        }
        PHAL_ASSIGN_OR_RETURN(
            std::vector<Slot> results,
            body.Emit(e, leaves, "epilogue of convolution " + context.name));
        for (uint32_t slot : leaves.index) {
          if (slot != kNoSlot) sram.Free(slot);
        }
        if (results.size() != 1 || results[0].type != out.element_type) {
          return InvalidArgument("asic-ref: the epilogue of convolution " +
                                 context.name +
                                 " does not produce its output's type");
        }
        owned = results[0];
        result = owned.offset;
      }
      // output[b, y, x0, oc * nt]: xm rows of `cols` channels.
      program.Muli(kAddress, kBatch, g.ho);
      program.Alu(Opcode::kAdd, kAddress, kAddress, kRowOut);
      program.Muli(kAddress, kAddress, g.wo * g.co * o_size);
      program.LoadBufferAddress(kCount, conv.output);
      program.Alu(Opcode::kAdd, kAddress, kAddress, kCount);
      program.Addi(kAddress, kAddress, (x0 * g.co + oc * nt) * o_size);
      program.Li(kCount, xm);
      program.Li(kColumnCount, cols);
      program.DmaBox(Opcode::kDmaStore, out.element_type, result, kAddress,
                     kCount, kColumnCount, reg::kZero,
                     program.Descriptor({{g.co, 1, 0}, {nt, 1, 0}}));
      if (owned.offset != kNoSlot) body.Free(owned);
    }
  }
  program.Addi(kRowOut, kRowOut, 1);
  program.Branch(Opcode::kBlt, kRowOut, kRowsOut, row_top);
  program.Addi(kBatch, kBatch, 1);
  program.Branch(Opcode::kBlt, kBatch, kBatchEnd, batch_top);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
