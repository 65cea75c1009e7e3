// Hand-built KIR for plugin tests: a body builder and one holder per kernel
// kind, each owning the arrays its phal_kernel_desc_t points into.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_H_
#define POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_H_

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "polyhal/kernel.h"

namespace phal::plugin_testing {

class KirBody {
 public:
  uint32_t Node(phal_kir_op_t op, phal_element_type_t type,
                std::vector<uint32_t> operands = {},
                std::array<int64_t, 4> attributes = {}) {
    phal_kir_node_t node{};
    node.op = op;
    node.type = type;
    node.operand_begin = static_cast<uint32_t>(operands_.size());
    node.operand_count = static_cast<uint32_t>(operands.size());
    for (size_t i = 0; i < 4; ++i) node.attributes[i] = attributes[i];
    operands_.insert(operands_.end(), operands.begin(), operands.end());
    nodes_.push_back(node);
    return static_cast<uint32_t>(nodes_.size() - 1);
  }
  uint32_t Constant(phal_element_type_t type, uint64_t low, uint64_t high = 0) {
    const uint32_t index = Node(PHAL_KIR_OP_CONSTANT, type);
    nodes_[index].constant[0] = low;
    nodes_[index].constant[1] = high;
    return index;
  }
  uint32_t S64(int64_t value) {
    return Constant(PHAL_ELEMENT_TYPE_S64, static_cast<uint64_t>(value));
  }
  uint32_t Index(int64_t dimension) {
    return Node(PHAL_KIR_OP_INDEX, PHAL_ELEMENT_TYPE_S64, {}, {dimension});
  }
  uint32_t Read(uint32_t buffer, phal_element_type_t type,
                std::vector<uint32_t> indices) {
    return Node(PHAL_KIR_OP_READ, type, std::move(indices), {buffer});
  }
  uint32_t Parameter(phal_element_type_t type, uint32_t index) {
    parameter_count_ = std::max(parameter_count_, index + 1);
    return Node(PHAL_KIR_OP_PARAMETER, type, {}, {index});
  }
  uint32_t Compare(phal_kir_comparison_direction_t direction,
                   phal_kir_comparison_type_t comparison, uint32_t x,
                   uint32_t y) {
    return Node(PHAL_KIR_OP_COMPARE, PHAL_ELEMENT_TYPE_PRED, {x, y},
                {direction, comparison});
  }
  void Result(uint32_t node) { results_.push_back(node); }

  phal_kir_body_t View() const {
    phal_kir_body_t body{};
    body.nodes = nodes_.data();
    body.node_count = static_cast<uint32_t>(nodes_.size());
    body.operands = operands_.data();
    body.operand_count = static_cast<uint32_t>(operands_.size());
    body.results = results_.data();
    body.result_count = static_cast<uint32_t>(results_.size());
    body.parameter_count = parameter_count_;
    return body;
  }

 private:
  std::vector<phal_kir_node_t> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<uint32_t> results_;
  uint32_t parameter_count_ = 0;
};

// The buffers of a kernel; every kind's holder derives from it.
class KirKernel {
 public:
  uint32_t AddBuffer(phal_element_type_t type, std::vector<int64_t> dims,
                     phal_kir_access_t access = PHAL_KIR_ACCESS_READ) {
    dims_.push_back(std::move(dims));
    phal_kir_buffer_t buffer{};
    buffer.element_type = type;
    buffer.access = access;
    buffer.rank = static_cast<uint32_t>(dims_.back().size());
    buffer.dims = dims_.back().data();
    buffers_.push_back(buffer);
    return static_cast<uint32_t>(buffers_.size() - 1);
  }
  const phal_kir_buffer_t& buffer(uint32_t index) const {
    return buffers_[index];
  }
  size_t buffer_count() const { return buffers_.size(); }

 protected:
  phal_kernel_desc_t Describe(phal_kernel_kind_t kind) const {
    phal_kernel_desc_t desc{};
    desc.struct_size = sizeof(desc);
    desc.name = name.c_str();
    desc.kind = kind;
    desc.buffer_count = static_cast<uint32_t>(buffers_.size());
    desc.buffers = buffers_.data();
    return desc;
  }

 public:
  std::string name = "test_kernel";

 private:
  std::deque<std::vector<int64_t>> dims_;  // stable addresses
  std::vector<phal_kir_buffer_t> buffers_;
};

class LoopKernel : public KirKernel {
 public:
  std::vector<int64_t> dims;
  std::vector<uint32_t> outputs;
  KirBody body;

  // Valid while this holder lives and is not changed.
  const phal_kernel_desc_t& Desc() {
    loop_.rank = static_cast<uint32_t>(dims.size());
    loop_.dims = dims.data();
    loop_.output_count = static_cast<uint32_t>(outputs.size());
    loop_.outputs = outputs.data();
    loop_.body = body.View();
    desc_ = Describe(PHAL_KERNEL_KIND_LOOP);
    desc_.u.loop = &loop_;
    return desc_;
  }

 private:
  phal_kir_loop_t loop_{};
  phal_kernel_desc_t desc_{};
};

class ReduceKernel : public KirKernel {
 public:
  std::vector<int64_t> dims;
  std::vector<int64_t> reduced_dims;
  uint32_t accumulator_count = 1;
  std::vector<uint32_t> outputs;
  KirBody init, values, reducer, epilogue;

  const phal_kernel_desc_t& Desc() {
    reduce_.rank = static_cast<uint32_t>(dims.size());
    reduce_.dims = dims.data();
    reduce_.reduced_count = static_cast<uint32_t>(reduced_dims.size());
    reduce_.reduced_dims = reduced_dims.data();
    reduce_.accumulator_count = accumulator_count;
    reduce_.output_count = static_cast<uint32_t>(outputs.size());
    reduce_.outputs = outputs.data();
    reduce_.init = init.View();
    reduce_.values = values.View();
    reduce_.reducer = reducer.View();
    reduce_.epilogue = epilogue.View();
    desc_ = Describe(PHAL_KERNEL_KIND_REDUCE);
    desc_.u.reduce = &reduce_;
    return desc_;
  }

 private:
  phal_kir_reduce_t reduce_{};
  phal_kernel_desc_t desc_{};
};

class DotKernel : public KirKernel {
 public:
  phal_kir_dot_t dot{};
  KirBody epilogue;

  const phal_kernel_desc_t& Desc() {
    dot.epilogue = epilogue.View();
    desc_ = Describe(PHAL_KERNEL_KIND_DOT);
    desc_.u.dot = &dot;
    return desc_;
  }

 private:
  phal_kernel_desc_t desc_{};
};

class SortKernel : public KirKernel {
 public:
  std::vector<uint32_t> operands;
  std::vector<uint32_t> outputs;
  int64_t dimension = 0;
  bool stable = false;
  KirBody comparator;

  const phal_kernel_desc_t& Desc() {
    sort_.operand_count = static_cast<uint32_t>(operands.size());
    sort_.is_stable = stable ? 1 : 0;
    sort_.operands = operands.data();
    sort_.outputs = outputs.data();
    sort_.dimension = dimension;
    sort_.comparator = comparator.View();
    desc_ = Describe(PHAL_KERNEL_KIND_SORT);
    desc_.u.sort = &sort_;
    return desc_;
  }

 private:
  phal_kir_sort_t sort_{};
  phal_kernel_desc_t desc_{};
};

class GatherKernel : public KirKernel {
 public:
  phal_kir_gather_t gather{};
  std::vector<int64_t> offset_dims, collapsed_slice_dims, start_index_map,
      operand_batching_dims, start_indices_batching_dims, slice_sizes;

  const phal_kernel_desc_t& Desc() {
    gather.offset_dims_count = static_cast<uint32_t>(offset_dims.size());
    gather.offset_dims = offset_dims.data();
    gather.collapsed_slice_dims_count =
        static_cast<uint32_t>(collapsed_slice_dims.size());
    gather.collapsed_slice_dims = collapsed_slice_dims.data();
    gather.start_index_map_count =
        static_cast<uint32_t>(start_index_map.size());
    gather.start_index_map = start_index_map.data();
    gather.operand_batching_dims_count =
        static_cast<uint32_t>(operand_batching_dims.size());
    gather.operand_batching_dims = operand_batching_dims.data();
    gather.start_indices_batching_dims_count =
        static_cast<uint32_t>(start_indices_batching_dims.size());
    gather.start_indices_batching_dims = start_indices_batching_dims.data();
    gather.slice_sizes = slice_sizes.data();
    desc_ = Describe(PHAL_KERNEL_KIND_GATHER);
    desc_.u.gather = &gather;
    return desc_;
  }

 private:
  phal_kernel_desc_t desc_{};
};

class ScatterKernel : public KirKernel {
 public:
  phal_kir_scatter_t scatter{};
  std::vector<int64_t> update_window_dims, inserted_window_dims,
      scatter_dims_to_operand_dims, input_batching_dims,
      scatter_indices_batching_dims;
  KirBody combiner;

  const phal_kernel_desc_t& Desc() {
    scatter.update_window_dims_count =
        static_cast<uint32_t>(update_window_dims.size());
    scatter.update_window_dims = update_window_dims.data();
    scatter.inserted_window_dims_count =
        static_cast<uint32_t>(inserted_window_dims.size());
    scatter.inserted_window_dims = inserted_window_dims.data();
    scatter.scatter_dims_to_operand_dims_count =
        static_cast<uint32_t>(scatter_dims_to_operand_dims.size());
    scatter.scatter_dims_to_operand_dims = scatter_dims_to_operand_dims.data();
    scatter.input_batching_dims_count =
        static_cast<uint32_t>(input_batching_dims.size());
    scatter.input_batching_dims = input_batching_dims.data();
    scatter.scatter_indices_batching_dims_count =
        static_cast<uint32_t>(scatter_indices_batching_dims.size());
    scatter.scatter_indices_batching_dims =
        scatter_indices_batching_dims.data();
    scatter.combiner = combiner.View();
    desc_ = Describe(PHAL_KERNEL_KIND_SCATTER);
    desc_.u.scatter = &scatter;
    return desc_;
  }

 private:
  phal_kernel_desc_t desc_{};
};

class ConvKernel : public KirKernel {
 public:
  phal_kir_conv_t conv{};
  std::vector<int64_t> input_spatial, kernel_spatial, output_spatial, strides,
      padding, lhs_dilation, rhs_dilation;
  std::vector<uint8_t> reversal;
  KirBody epilogue;

  const phal_kernel_desc_t& Desc() {
    conv.spatial_count = static_cast<uint32_t>(input_spatial.size());
    conv.input_spatial_dimensions = input_spatial.data();
    conv.kernel_spatial_dimensions = kernel_spatial.data();
    conv.output_spatial_dimensions = output_spatial.data();
    conv.window_strides = strides.data();
    conv.padding = padding.data();
    conv.lhs_dilation = lhs_dilation.data();
    conv.rhs_dilation = rhs_dilation.data();
    conv.window_reversal = reversal.data();
    conv.epilogue = epilogue.View();
    desc_ = Describe(PHAL_KERNEL_KIND_CONV);
    desc_.u.conv = &conv;
    return desc_;
  }

 private:
  phal_kernel_desc_t desc_{};
};

class CopyKernel : public KirKernel {
 public:
  phal_kir_copy_t copy{};

  const phal_kernel_desc_t& Desc() {
    desc_ = Describe(PHAL_KERNEL_KIND_COPY);
    desc_.u.copy = &copy;
    return desc_;
  }

 private:
  phal_kernel_desc_t desc_{};
};

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_KIR_BUILDER_H_
