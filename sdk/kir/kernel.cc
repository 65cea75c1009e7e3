#include "sdk/kir/kernel.h"

#include <utility>

namespace phal {

KirKernel::KirKernel(std::string name, phal_kernel_kind_t kind)
    : name_(std::move(name)), kind_(kind) {
  switch (kind) {
    case PHAL_KERNEL_KIND_CONV:
      arrays.resize(kConvArrayCount);
      break;
    case PHAL_KERNEL_KIND_GATHER:
      arrays.resize(kGatherArrayCount);
      break;
    case PHAL_KERNEL_KIND_SCATTER:
      arrays.resize(kScatterArrayCount);
      break;
    case PHAL_KERNEL_KIND_FFT:
      arrays.resize(kFftArrayCount);
      break;
    case PHAL_KERNEL_KIND_REDUCE:
      accumulator_count = 1;
      break;
    default:
      break;
  }
}

uint32_t KirKernel::AddBuffer(phal_element_type_t type,
                              std::vector<int64_t> dims,
                              phal_kir_access_t access) {
  buffers_.push_back(KirBuffer{type, access, std::move(dims)});
  return static_cast<uint32_t>(buffers_.size() - 1);
}

namespace {

uint32_t Count(const std::vector<int64_t>& values) {
  return static_cast<uint32_t>(values.size());
}

const int64_t* DataOrNull(const std::vector<int64_t>& values) {
  return values.empty() ? nullptr : values.data();
}

}  // namespace

void KirKernel::AliasOutputToInput(uint32_t output, uint32_t input) {
  const uint32_t dropped = outputs[output];
  outputs[output] = input;
  buffers_[input].access = PHAL_KIR_ACCESS_READ_WRITE;
  buffers_.erase(buffers_.begin() + dropped);
  for (uint32_t& o : outputs) {
    if (o > dropped) --o;
  }
}

const phal_kernel_desc_t& KirKernel::Desc() {
  buffer_views_.clear();
  for (const KirBuffer& b : buffers_) {
    phal_kir_buffer_t view{};
    view.element_type = b.element_type;
    view.access = b.access;
    view.rank = static_cast<uint32_t>(b.dims.size());
    view.dims = DataOrNull(b.dims);
    buffer_views_.push_back(view);
  }
  desc_ = phal_kernel_desc_t{};
  desc_.struct_size = sizeof(phal_kernel_desc_t);
  desc_.name = name_.c_str();
  desc_.kind = kind_;
  desc_.buffer_count = static_cast<uint32_t>(buffer_views_.size());
  desc_.buffers = buffer_views_.data();
  switch (kind_) {
    case PHAL_KERNEL_KIND_LOOP:
      loop_.rank = static_cast<uint32_t>(dims.size());
      loop_.dims = DataOrNull(dims);
      loop_.output_count = static_cast<uint32_t>(outputs.size());
      loop_.outputs = outputs.data();
      loop_.body = body.View();
      desc_.u.loop = &loop_;
      break;
    case PHAL_KERNEL_KIND_REDUCE:
      reduce_.rank = static_cast<uint32_t>(dims.size());
      reduce_.dims = DataOrNull(dims);
      reduce_.reduced_count = static_cast<uint32_t>(reduced_dims.size());
      reduce_.reduced_dims = DataOrNull(reduced_dims);
      reduce_.accumulator_count = accumulator_count;
      reduce_.output_count = static_cast<uint32_t>(outputs.size());
      reduce_.outputs = outputs.data();
      reduce_.init = init.View();
      reduce_.values = body.View();
      reduce_.reducer = reducer.View();
      reduce_.epilogue = epilogue.View();
      desc_.u.reduce = &reduce_;
      break;
    case PHAL_KERNEL_KIND_DOT:
      dot.epilogue = body.View();
      desc_.u.dot = &dot;
      break;
    case PHAL_KERNEL_KIND_CONV:
      conv.spatial_count = Count(arrays[kConvInputSpatialDimensions]);
      conv.input_spatial_dimensions =
          DataOrNull(arrays[kConvInputSpatialDimensions]);
      conv.kernel_spatial_dimensions =
          DataOrNull(arrays[kConvKernelSpatialDimensions]);
      conv.output_spatial_dimensions =
          DataOrNull(arrays[kConvOutputSpatialDimensions]);
      conv.window_strides = DataOrNull(arrays[kConvWindowStrides]);
      conv.padding = DataOrNull(arrays[kConvPadding]);
      conv.lhs_dilation = DataOrNull(arrays[kConvLhsDilation]);
      conv.rhs_dilation = DataOrNull(arrays[kConvRhsDilation]);
      conv.window_reversal =
          window_reversal.empty() ? nullptr : window_reversal.data();
      conv.epilogue = body.View();
      desc_.u.conv = &conv;
      break;
    case PHAL_KERNEL_KIND_GATHER:
      gather.offset_dims_count = Count(arrays[kGatherOffsetDims]);
      gather.collapsed_slice_dims_count =
          Count(arrays[kGatherCollapsedSliceDims]);
      gather.start_index_map_count = Count(arrays[kGatherStartIndexMap]);
      gather.operand_batching_dims_count =
          Count(arrays[kGatherOperandBatchingDims]);
      gather.start_indices_batching_dims_count =
          Count(arrays[kGatherStartIndicesBatchingDims]);
      gather.offset_dims = DataOrNull(arrays[kGatherOffsetDims]);
      gather.collapsed_slice_dims =
          DataOrNull(arrays[kGatherCollapsedSliceDims]);
      gather.start_index_map = DataOrNull(arrays[kGatherStartIndexMap]);
      gather.operand_batching_dims =
          DataOrNull(arrays[kGatherOperandBatchingDims]);
      gather.start_indices_batching_dims =
          DataOrNull(arrays[kGatherStartIndicesBatchingDims]);
      gather.slice_sizes = DataOrNull(arrays[kGatherSliceSizes]);
      desc_.u.gather = &gather;
      break;
    case PHAL_KERNEL_KIND_SCATTER:
      scatter.update_window_dims_count =
          Count(arrays[kScatterUpdateWindowDims]);
      scatter.inserted_window_dims_count =
          Count(arrays[kScatterInsertedWindowDims]);
      scatter.scatter_dims_to_operand_dims_count =
          Count(arrays[kScatterScatterDimsToOperandDims]);
      scatter.input_batching_dims_count =
          Count(arrays[kScatterInputBatchingDims]);
      scatter.scatter_indices_batching_dims_count =
          Count(arrays[kScatterScatterIndicesBatchingDims]);
      scatter.update_window_dims = DataOrNull(arrays[kScatterUpdateWindowDims]);
      scatter.inserted_window_dims =
          DataOrNull(arrays[kScatterInsertedWindowDims]);
      scatter.scatter_dims_to_operand_dims =
          DataOrNull(arrays[kScatterScatterDimsToOperandDims]);
      scatter.input_batching_dims =
          DataOrNull(arrays[kScatterInputBatchingDims]);
      scatter.scatter_indices_batching_dims =
          DataOrNull(arrays[kScatterScatterIndicesBatchingDims]);
      scatter.combiner = reducer.View();
      desc_.u.scatter = &scatter;
      break;
    case PHAL_KERNEL_KIND_SORT:
      sort.operand_count = static_cast<uint32_t>(operands.size());
      sort.operands = operands.data();
      sort.outputs = outputs.data();
      sort.comparator = reducer.View();
      desc_.u.sort = &sort;
      break;
    case PHAL_KERNEL_KIND_COPY:
      desc_.u.copy = &copy;
      break;
    case PHAL_KERNEL_KIND_FFT:
      fft.fft_rank = Count(arrays[kFftLength]);
      fft.fft_length = DataOrNull(arrays[kFftLength]);
      desc_.u.fft = &fft;
      break;
    case PHAL_KERNEL_KIND_LINALG:
      desc_.u.linalg = &linalg;
      break;
  }
  return desc_;
}

}  // namespace phal
