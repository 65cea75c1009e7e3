#include "sdk/kir/kernel.h"

#include <utility>

namespace phal {

KirKernel::KirKernel(std::string name, phal_kernel_kind_t kind)
    : name_(std::move(name)), kind_(kind) {}

uint32_t KirKernel::AddBuffer(phal_element_type_t type,
                              std::vector<int64_t> dims,
                              phal_kir_access_t access) {
  buffers_.push_back(KirBuffer{type, access, std::move(dims)});
  return static_cast<uint32_t>(buffers_.size() - 1);
}

namespace {

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
      conv.input_spatial_dimensions = DataOrNull(arrays[0]);
      conv.kernel_spatial_dimensions = DataOrNull(arrays[1]);
      conv.output_spatial_dimensions = DataOrNull(arrays[2]);
      conv.window_strides = DataOrNull(arrays[3]);
      conv.padding = DataOrNull(arrays[4]);
      conv.lhs_dilation = DataOrNull(arrays[5]);
      conv.rhs_dilation = DataOrNull(arrays[6]);
      conv.window_reversal =
          window_reversal.empty() ? nullptr : window_reversal.data();
      conv.epilogue = body.View();
      desc_.u.conv = &conv;
      break;
    case PHAL_KERNEL_KIND_GATHER:
      gather.offset_dims = DataOrNull(arrays[0]);
      gather.collapsed_slice_dims = DataOrNull(arrays[1]);
      gather.start_index_map = DataOrNull(arrays[2]);
      gather.operand_batching_dims = DataOrNull(arrays[3]);
      gather.start_indices_batching_dims = DataOrNull(arrays[4]);
      gather.slice_sizes = DataOrNull(arrays[5]);
      desc_.u.gather = &gather;
      break;
    case PHAL_KERNEL_KIND_SCATTER:
      scatter.update_window_dims = DataOrNull(arrays[0]);
      scatter.inserted_window_dims = DataOrNull(arrays[1]);
      scatter.scatter_dims_to_operand_dims = DataOrNull(arrays[2]);
      scatter.input_batching_dims = DataOrNull(arrays[3]);
      scatter.scatter_indices_batching_dims = DataOrNull(arrays[4]);
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
  }
  return desc_;
}

}  // namespace phal
