// CONV on the matrix unit, as an implicit GEMM per group: C[p, f] =
// sum_kd A[p, kd] * B[kd, f], p the output positions (batch and spatial),
// kd the kernel taps (window and input feature), f the group's output
// features. The vector unit computes, per tile, where each A element comes
// from in the input (-1 on padding, lhs-dilation holes and past the ends,
// which the DMA gather turns into zeros) and where each B element comes
// from in the kernel; the array multiplies; the epilogue runs over the C
// tile and a scatter stores it. Convolutions the array does not take run
// on the vector unit (synthesized_kernels.cc).
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

constexpr uint8_t kGroup = 2, kPosition = 3, kFeature = 4, kDepth = 5;
constexpr uint8_t kGroups = 10, kPositions = 11, kFeatures = 12, kDepthEnd = 13,
                  kKt = 14, kNt = 15;
constexpr uint8_t kMt = 6, kAddress = reg::kFirstTemp + 8;
constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;

std::vector<int64_t> RowMajorStrides(const phal_kir_buffer_t& buffer) {
  std::vector<int64_t> strides(buffer.rank, 1);
  for (uint32_t d = buffer.rank; d-- > 1;) {
    strides[d - 1] = strides[d] * buffer.dims[d];
  }
  return strides;
}

// The convolution's sizes, as a GEMM per group.
struct Shape {
  int64_t out_batch = 0, positions = 0, depth = 0, features = 0, groups = 1;
  int64_t kernel_in = 0;
  std::vector<int64_t> out_spatial, window;
};

Shape ShapeOf(const KernelContext& context, const phal_kir_conv_t& c) {
  const phal_kir_buffer_t& out = context.buffers[c.output];
  const phal_kir_buffer_t& kernel = context.buffers[c.kernel];
  Shape s;
  s.out_batch = out.dims[c.output_batch_dimension];
  s.positions = s.out_batch;
  s.kernel_in = kernel.dims[c.kernel_input_feature_dimension];
  s.depth = s.kernel_in;
  for (uint32_t i = 0; i < c.spatial_count; ++i) {
    s.out_spatial.push_back(out.dims[c.output_spatial_dimensions[i]]);
    s.window.push_back(kernel.dims[c.kernel_spatial_dimensions[i]]);
    s.positions *= s.out_spatial.back();
    s.depth *= s.window.back();
  }
  s.groups = c.feature_group_count * c.batch_group_count;
  s.features = out.dims[c.output_feature_dimension] / s.groups;
  return s;
}

// Splits `value` (row-major over `dims`) into its coordinates.
std::vector<Node> Split(KirBody& v, Node value,
                        const std::vector<int64_t>& dims) {
  std::vector<Node> parts(dims.size());
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    Node part = stride == 1 ? value : v.DivideIndex(value, stride);
    if (d > 0) part = v.RemainderIndex(part, dims[d]);
    parts[d] = part;
    stride *= dims[d];
  }
  return parts;
}

// INDEX 0 = p, 1 = kd, 2 = group: the input element A[p, kd] reads, -1
// where it reads padding.
void BuildInputOffsets(const KernelContext& context, const phal_kir_conv_t& c,
                       const Shape& s, KirBody& v) {
  const phal_kir_buffer_t& input = context.buffers[c.input];
  const std::vector<int64_t> strides = RowMajorStrides(input);
  const Node p = v.Index(0), kd = v.Index(1), q = v.Index(2);
  Node inside =
      v.And(v.CompareIndex(PHAL_KIR_COMPARE_LT, p, v.Index64(s.positions)),
            v.CompareIndex(PHAL_KIR_COMPARE_LT, kd, v.Index64(s.depth)));
  std::vector<int64_t> p_dims = {s.out_batch};
  p_dims.insert(p_dims.end(), s.out_spatial.begin(), s.out_spatial.end());
  std::vector<int64_t> kd_dims = s.window;
  kd_dims.push_back(s.kernel_in);
  const std::vector<Node> pp =
      Split(v, ClampToExtent(v, p, s.positions), p_dims);
  const std::vector<Node> kk = Split(v, ClampToExtent(v, kd, s.depth), kd_dims);
  // Feature groups offset the input feature, batch groups the batch.
  const Node batch = c.batch_group_count > 1
                         ? v.AddIndex(v.MultiplyIndex(q, s.out_batch), pp[0])
                         : pp[0];
  const Node feature =
      c.feature_group_count > 1
          ? v.AddIndex(v.MultiplyIndex(q, s.kernel_in), kk.back())
          : kk.back();
  Node offset =
      v.AddIndex(v.MultiplyIndex(batch, strides[c.input_batch_dimension]),
                 v.MultiplyIndex(feature, strides[c.input_feature_dimension]));
  for (uint32_t i = 0; i < c.spatial_count; ++i) {
    const int64_t extent = input.dims[c.input_spatial_dimensions[i]];
    const Node dilated = v.AddIndex(
        v.SubtractIndex(v.MultiplyIndex(pp[1 + i], c.window_strides[i]),
                        v.Index64(c.padding[2 * i])),
        v.MultiplyIndex(kk[i], c.rhs_dilation[i]));
    inside = v.And(inside,
                   v.CompareIndex(PHAL_KIR_COMPARE_GE, dilated, v.Index64(0)));
    Node source = dilated;
    if (c.lhs_dilation[i] != 1) {
      inside = v.And(
          inside, v.CompareIndex(PHAL_KIR_COMPARE_EQ,
                                 v.RemainderIndex(dilated, c.lhs_dilation[i]),
                                 v.Index64(0)));
      source = v.DivideIndex(dilated, c.lhs_dilation[i]);
    }
    inside = v.And(
        inside, v.CompareIndex(PHAL_KIR_COMPARE_LT, source, v.Index64(extent)));
    offset = v.AddIndex(
        offset,
        v.MultiplyIndex(source, strides[c.input_spatial_dimensions[i]]));
  }
  v.AddResult(v.Select(inside, offset, v.Index64(-1)));
}

// INDEX 0 = kd, 1 = f, 2 = group: the kernel element B[kd, f] reads.
void BuildKernelOffsets(const KernelContext& context, const phal_kir_conv_t& c,
                        const Shape& s, KirBody& v) {
  const phal_kir_buffer_t& kernel = context.buffers[c.kernel];
  const std::vector<int64_t> strides = RowMajorStrides(kernel);
  const Node kd = v.Index(0), f = v.Index(1), q = v.Index(2);
  const Node inside =
      v.And(v.CompareIndex(PHAL_KIR_COMPARE_LT, kd, v.Index64(s.depth)),
            v.CompareIndex(PHAL_KIR_COMPARE_LT, f, v.Index64(s.features)));
  std::vector<int64_t> kd_dims = s.window;
  kd_dims.push_back(s.kernel_in);
  const std::vector<Node> kk = Split(v, ClampToExtent(v, kd, s.depth), kd_dims);
  const Node feature = v.AddIndex(v.MultiplyIndex(q, s.features),
                                  ClampToExtent(v, f, s.features));
  Node offset = v.AddIndex(
      v.MultiplyIndex(kk.back(), strides[c.kernel_input_feature_dimension]),
      v.MultiplyIndex(feature, strides[c.kernel_output_feature_dimension]));
  for (uint32_t i = 0; i < c.spatial_count; ++i) {
    const Node w = c.window_reversal[i]
                       ? v.SubtractIndex(v.Index64(s.window[i] - 1), kk[i])
                       : kk[i];
    offset = v.AddIndex(
        offset, v.MultiplyIndex(w, strides[c.kernel_spatial_dimensions[i]]));
  }
  v.AddResult(v.Select(inside, offset, v.Index64(-1)));
}

// Slots p (or kd) = first_reg + lane / columns and the second coordinate
// = second_reg + lane % columns, and the group broadcast: a tile's INDEX
// vectors.
Status TileIndices(VectorBody& body, int64_t columns, uint8_t first_reg,
                   uint8_t second_reg, std::vector<uint32_t>* index) {
  PHAL_ASSIGN_OR_RETURN(Slot lane, body.NewSlot(kS64, "lanes"));
  body.program().Iota(lane.offset, reg::kZero);
  PHAL_ASSIGN_OR_RETURN(Slot width, body.IndexConstant(columns));
  PHAL_ASSIGN_OR_RETURN(Slot row, body.NewSlot(kS64, "rows"));
  PHAL_ASSIGN_OR_RETURN(Slot column, body.NewSlot(kS64, "columns"));
  body.Op(Opcode::kVDiv, row, lane, width);
  body.Op(Opcode::kVRem, column, lane, width);
  PHAL_ASSIGN_OR_RETURN(Slot first, body.Broadcast(first_reg));
  body.Op(Opcode::kVAdd, row, row, first);
  body.Free(first);
  PHAL_ASSIGN_OR_RETURN(Slot second, body.Broadcast(second_reg));
  body.Op(Opcode::kVAdd, column, column, second);
  body.Free(second);
  PHAL_ASSIGN_OR_RETURN(Slot group, body.Broadcast(kGroup));
  body.Free(width);
  body.Free(lane);
  *index = {row.offset, column.offset, group.offset};
  return OkStatus();
}

// Computes a tile's offsets with `offsets_body` and gathers `buffer` into
// `tile` (lanes held by reg::kLanes).
Status GatherTile(VectorBody& body, const KernelContext& context,
                  const phal_kir_body_t& offsets_body, int64_t columns,
                  uint8_t first_reg, uint8_t second_reg, uint32_t buffer,
                  uint32_t tile, const std::string& what) {
  TileLeaves leaves;
  PHAL_RETURN_IF_ERROR(
      TileIndices(body, columns, first_reg, second_reg, &leaves.index));
  PHAL_ASSIGN_OR_RETURN(std::vector<Slot> offsets,
                        body.Emit(offsets_body, leaves, what));
  for (uint32_t slot : leaves.index) body.Free(Slot{slot, kS64});
  ProgramBuilder& program = body.program();
  program.LoadBufferAddress(kAddress, buffer);
  program.DmaIndirect(Opcode::kDmaGather, context.buffers[buffer].element_type,
                      tile, kAddress, offsets[0].offset, reg::kLanes);
  body.Free(offsets[0]);
  return OkStatus();
}

}  // namespace

bool ConvOnMatrixUnit(const KernelContext& context,
                      const phal_kir_conv_t& conv) {
  const phal_element_type_t input = context.buffers[conv.input].element_type;
  const phal_element_type_t kernel = context.buffers[conv.kernel].element_type;
  return (conv.accumulation_type == PHAL_ELEMENT_TYPE_F32 &&
          IsMatrixInput(input) && IsMatrixInput(kernel)) ||
         (conv.accumulation_type == PHAL_ELEMENT_TYPE_S32 &&
          input == PHAL_ELEMENT_TYPE_S8 && kernel == PHAL_ELEMENT_TYPE_S8);
}

Status EmitConvOnMatrixUnit(const KernelContext& context,
                            const phal_kir_conv_t& conv, int64_t lanes,
                            ProgramBuilder& program) {
  const Shape s = ShapeOf(context, conv);
  const phal_kir_buffer_t& out = context.buffers[conv.output];
  if (ElementCount({out.dims, out.rank}) == 0) {
    program.Halt();
    return OkStatus();
  }
  const std::string what = "convolution " + context.name;
  const int64_t array = context.config.array_size;
  const int64_t kt =
      std::min<int64_t>(RoundUp(std::max<int64_t>(s.depth, 1), array),
                        std::max<int64_t>(array, 64));
  const int64_t nt =
      std::min<int64_t>(RoundUp(std::max<int64_t>(s.features, 1), array),
                        std::max<int64_t>(array, 128));
  const int64_t mt = std::max<int64_t>(
      1, std::min<int64_t>(s.positions, lanes / std::max(kt, nt)));
  const phal_element_type_t a_type = context.buffers[conv.input].element_type;
  const phal_element_type_t b_type = context.buffers[conv.kernel].element_type;
  const phal_element_type_t acc_type = conv.accumulation_type;
  SramAllocator fixed(context.sram_begin, context.sram_end);
  uint32_t a[2], b[2];
  for (int bank = 0; bank < 2; ++bank) {
    PHAL_ASSIGN_OR_RETURN(
        a[bank],
        fixed.Allocate(mt * kt * ElementTypeByteSize(a_type), "an A tile"));
    PHAL_ASSIGN_OR_RETURN(
        b[bank],
        fixed.Allocate(kt * nt * ElementTypeByteSize(b_type), "a B tile"));
  }
  PHAL_ASSIGN_OR_RETURN(uint32_t acc, fixed.Allocate(mt * nt * 4, "a C tile"));
  SramAllocator sram(context.sram_begin + static_cast<uint32_t>(fixed.peak()),
                     context.sram_end);
  VectorBody body(program, sram, context.buffers,
                  std::max({mt * kt, kt * nt, mt * nt}));
  KirBody input_offsets, kernel_offsets;
  BuildInputOffsets(context, conv, s, input_offsets);
  BuildKernelOffsets(context, conv, s, kernel_offsets);

  program.Comment(
      "convolution as " + std::to_string(s.groups) + " GEMM(s) of " +
      std::to_string(s.positions) + " positions x " + std::to_string(s.depth) +
      " taps x " + std::to_string(s.features) + " features, tiles " +
      std::to_string(mt) + "x" + std::to_string(kt) + "x" + std::to_string(nt));
  program.Li(kGroups, s.groups);
  program.Li(kPositions, s.positions);
  program.Li(kFeatures, s.features);
  program.Li(kKt, kt);
  program.Li(kNt, nt);
  program.Li(kMt, mt);
  const int64_t depth_tiles = (s.depth + kt - 1) / kt;
  program.Li(kDepthEnd, depth_tiles * kt);
  program.Li(kGroup, 0);
  const Label group_top = program.NewLabel();
  program.Bind(group_top);
  program.Li(kPosition, 0);
  const Label position_top = program.NewLabel();
  program.Bind(position_top);
  program.Li(kFeature, 0);
  const Label feature_top = program.NewLabel();
  program.Bind(feature_top);
  program.Comment("C tile = 0");
  program.Li(reg::kLanes, mt * nt);
  program.Fill(acc_type, acc, reg::kZero);
  program.Li(kDepth, 0);
  if (depth_tiles > 0) {
    const Label top = program.NewLabel();
    const Label after = program.NewLabel();
    program.Bind(top);
    for (int bank = 0; bank < (depth_tiles > 1 ? 2 : 1); ++bank) {
      program.Comment(bank == 0 ? "patches and taps, bank A"
                                : "patches and taps, bank B");
      program.Li(reg::kLanes, mt * kt);
      PHAL_RETURN_IF_ERROR(GatherTile(body, context, input_offsets.View(), kt,
                                      kPosition, kDepth, conv.input, a[bank],
                                      "input offsets of " + what));
      program.Li(reg::kLanes, kt * nt);
      PHAL_RETURN_IF_ERROR(GatherTile(body, context, kernel_offsets.View(), nt,
                                      kDepth, kFeature, conv.kernel, b[bank],
                                      "kernel offsets of " + what));
      program.MatMul(a_type, b_type, acc, a[bank], b[bank], kMt, kKt, kNt,
                     false);
      program.Addi(kDepth, kDepth, kt);
      program.Branch(bank == 0 ? Opcode::kBge : Opcode::kBlt, kDepth, kDepthEnd,
                     bank == 0 ? after : top);
    }
    program.Bind(after);
  }
  // Epilogue over the C tile: output coordinates from (p, f), clamped so
  // lanes past the ends read in bounds; they are not stored.
  program.Comment("epilogue and scatter");
  program.Li(reg::kLanes, mt * nt);
  {
    KirBody coords;
    const Node p = coords.Index(0), f = coords.Index(1), q = coords.Index(2);
    std::vector<int64_t> p_dims = {s.out_batch};
    p_dims.insert(p_dims.end(), s.out_spatial.begin(), s.out_spatial.end());
    const std::vector<Node> pp =
        Split(coords, ClampToExtent(coords, p, s.positions), p_dims);
    const Node feature = coords.AddIndex(coords.MultiplyIndex(q, s.features),
                                         ClampToExtent(coords, f, s.features));
    std::vector<Node> out_index(out.rank);
    out_index[conv.output_batch_dimension] = pp[0];
    out_index[conv.output_feature_dimension] = feature;
    for (uint32_t i = 0; i < conv.spatial_count; ++i) {
      out_index[conv.output_spatial_dimensions[i]] = pp[1 + i];
    }
    const std::vector<int64_t> strides = RowMajorStrides(out);
    Node offset = coords.Index64(0);
    for (uint32_t d = 0; d < out.rank; ++d) {
      offset = coords.AddIndex(offset,
                               coords.MultiplyIndex(out_index[d], strides[d]));
    }
    const Node inside =
        coords.And(coords.CompareIndex(PHAL_KIR_COMPARE_LT, p,
                                       coords.Index64(s.positions)),
                   coords.CompareIndex(PHAL_KIR_COMPARE_LT, f,
                                       coords.Index64(s.features)));
    for (uint32_t d = 0; d < out.rank; ++d) coords.AddResult(out_index[d]);
    coords.AddResult(coords.Select(inside, offset, coords.Index64(-1)));
    TileLeaves leaves;
    PHAL_RETURN_IF_ERROR(
        TileIndices(body, nt, kPosition, kFeature, &leaves.index));
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> coordinates,
        body.Emit(coords.View(), leaves, "output coordinates of " + what));
    for (uint32_t slot : leaves.index) body.Free(Slot{slot, kS64});
    TileLeaves epilogue;
    for (uint32_t d = 0; d < out.rank; ++d) {
      epilogue.index.push_back(coordinates[d].offset);
    }
    epilogue.parameters = {Slot{acc, acc_type}};
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Slot> results,
        body.Emit(conv.epilogue, epilogue, "epilogue of " + what));
    if (results.size() != 1 || results[0].type != out.element_type) {
      return InvalidArgument("asic-ref: the epilogue of " + what +
                             " does not produce its output's type");
    }
    program.LoadBufferAddress(kAddress, conv.output);
    program.DmaIndirect(Opcode::kDmaScatter, out.element_type,
                        results[0].offset, kAddress,
                        coordinates[out.rank].offset, reg::kLanes);
    body.Free(results[0]);
    for (const Slot& slot : coordinates) body.Free(slot);
  }
  program.Alu(Opcode::kAdd, kFeature, kFeature, kNt);
  program.Branch(Opcode::kBlt, kFeature, kFeatures, feature_top);
  program.Alu(Opcode::kAdd, kPosition, kPosition, kMt);
  program.Branch(Opcode::kBlt, kPosition, kPositions, position_top);
  program.Addi(kGroup, kGroup, 1);
  program.Branch(Opcode::kBlt, kGroup, kGroups, group_top);
  program.Halt();
  return OkStatus();
}

}  // namespace phal::asic_ref
