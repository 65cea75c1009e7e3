// Shape inference of gather and scatter.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

namespace {

// Sizes of the index dimension and the batch dimensions of gather/scatter
// indices. An index_vector_dim equal to the rank means the indices are
// scalars (an implicit trailing dimension of size 1).
struct IndexLayout {
  int64_t index_vector_size = 1;
  std::vector<int64_t> batch_dims;
};

StatusOr<IndexLayout> AnalyzeIndices(const Shape& indices,
                                     int64_t index_vector_dim) {
  PHAL_RETURN_IF_ERROR(ExpectArray(indices, "the indices"));
  if (!IsIntegral(indices.element_type())) {
    return Fail("the indices must be integers, got " + indices.ToString());
  }
  if (index_vector_dim < 0 || index_vector_dim > indices.rank()) {
    return Fail("index_vector_dim " + std::to_string(index_vector_dim) +
                " is out of range for indices " + indices.ToString());
  }
  IndexLayout layout;
  for (int64_t d = 0; d < indices.rank(); ++d) {
    if (d == index_vector_dim) {
      layout.index_vector_size = indices.dim(d);
    } else {
      layout.batch_dims.push_back(indices.dim(d));
    }
  }
  return layout;
}

Status ExpectIndicesBatchingDims(const std::vector<int64_t>& dims,
                                 const Shape& indices, int64_t index_vector_dim,
                                 const std::string& what) {
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(dims, indices.rank(), what));
  if (Contains(dims, index_vector_dim)) {
    return Fail(what + " must not contain index_vector_dim");
  }
  return OkStatus();
}

}  // namespace

StatusOr<Shape> InferScatterShape(const HloInstruction& scatter) {
  const int64_t count = scatter.operand_count();
  if (count < 3 || count % 2 != 1) {
    return Fail("expects N inputs, the indices and N updates, got " +
                std::to_string(count) + " operands");
  }
  const std::vector<Shape> shapes = OperandShapes(scatter);
  const std::size_t n = static_cast<std::size_t>(count / 2);
  const std::vector<Shape> inputs(shapes.begin(), shapes.begin() + n);
  const Shape& indices_shape = shapes[n];
  const std::vector<Shape> updates(shapes.begin() + n + 1, shapes.end());
  const ScatterDimensionNumbers& numbers = scatter.scatter_dimension_numbers();
  for (std::size_t i = 0; i < n; ++i) {
    PHAL_RETURN_IF_ERROR(ExpectArray(inputs[i], "input " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectArray(updates[i], "update " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(ExpectSameElementType(
        inputs[i], updates[i], "input and update " + std::to_string(i)));
    if (inputs[i].dims() != inputs[0].dims() ||
        updates[i].dims() != updates[0].dims()) {
      return Fail("all inputs and all updates must have the same dimensions");
    }
  }
  const Shape& operand = inputs[0];
  const Shape& update = updates[0];
  PHAL_ASSIGN_OR_RETURN(
      IndexLayout indices,
      AnalyzeIndices(indices_shape, numbers.index_vector_dim));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(
      numbers.update_window_dims, update.rank(), "update_window_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.inserted_window_dims,
                                           operand.rank(),
                                           "inserted_window_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.input_batching_dims,
                                           operand.rank(),
                                           "input_batching_dims", true));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.inserted_window_dims, "inserted_window_dims",
                     numbers.input_batching_dims, "input_batching_dims"));
  PHAL_RETURN_IF_ERROR(ExpectIndicesBatchingDims(
      numbers.scatter_indices_batching_dims, indices_shape,
      numbers.index_vector_dim, "scatter_indices_batching_dims"));
  if (numbers.input_batching_dims.size() !=
      numbers.scatter_indices_batching_dims.size()) {
    return Fail(
        "input_batching_dims and scatter_indices_batching_dims must "
        "have the same size");
  }
  if (static_cast<int64_t>(numbers.scatter_dims_to_operand_dims.size()) !=
      indices.index_vector_size) {
    return Fail("scatter_dims_to_operand_dims " +
                IntListToText(numbers.scatter_dims_to_operand_dims) +
                " must have one entry per index vector element (" +
                std::to_string(indices.index_vector_size) + ")");
  }
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.scatter_dims_to_operand_dims,
                                           operand.rank(),
                                           "scatter_dims_to_operand_dims"));
  PHAL_RETURN_IF_ERROR(ExpectDisjoint(
      numbers.scatter_dims_to_operand_dims, "scatter_dims_to_operand_dims",
      numbers.input_batching_dims, "input_batching_dims"));
  const std::size_t window_rank = numbers.update_window_dims.size();
  if (static_cast<int64_t>(window_rank + numbers.inserted_window_dims.size() +
                           numbers.input_batching_dims.size()) !=
      operand.rank()) {
    return Fail(
        "update_window_dims, inserted_window_dims and "
        "input_batching_dims must together cover the operand's " +
        std::to_string(operand.rank()) + " dimensions");
  }
  if (static_cast<int64_t>(window_rank + indices.batch_dims.size()) !=
      update.rank()) {
    return Fail("updates " + update.ToString() + " must have rank " +
                std::to_string(window_rank + indices.batch_dims.size()) +
                " (window dims plus index batch dims)");
  }
  std::size_t next_window = 0;
  std::size_t next_batch = 0;
  std::vector<int64_t> operand_window_dims;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (!Contains(numbers.inserted_window_dims, d) &&
        !Contains(numbers.input_batching_dims, d)) {
      operand_window_dims.push_back(d);
    }
  }
  for (int64_t d = 0; d < update.rank(); ++d) {
    if (Contains(numbers.update_window_dims, d)) {
      const int64_t operand_dim = operand_window_dims[next_window++];
      if (update.dim(d) > operand.dim(operand_dim)) {
        return Fail("update window dimension " + std::to_string(d) +
                    " is larger than operand dimension " +
                    std::to_string(operand_dim));
      }
    } else if (update.dim(d) != indices.batch_dims[next_batch++]) {
      return Fail("update scatter dimension " + std::to_string(d) +
                  " must match the indices' batch dimensions");
    }
  }
  PHAL_RETURN_IF_ERROR(
      ExpectReducer(scatter.to_apply(), "to_apply", ElementTypes(inputs)));
  return ArrayOrTuple(inputs);
}

}  // namespace shape_inference_internal

using shape_inference_internal::AnalyzeIndices;
using shape_inference_internal::Contains;
using shape_inference_internal::ExpectArray;
using shape_inference_internal::ExpectDimensionList;
using shape_inference_internal::ExpectDisjoint;
using shape_inference_internal::ExpectIndicesBatchingDims;
using shape_inference_internal::Fail;
using shape_inference_internal::IndexLayout;

StatusOr<Shape> InferGatherShape(const Shape& operand,
                                 const Shape& start_indices,
                                 const GatherDimensionNumbers& numbers,
                                 const std::vector<int64_t>& slice_sizes) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_ASSIGN_OR_RETURN(
      IndexLayout indices,
      AnalyzeIndices(start_indices, numbers.index_vector_dim));
  const int64_t rank = operand.rank();
  if (static_cast<int64_t>(slice_sizes.size()) != rank) {
    return Fail("slice_sizes " + IntListToText(slice_sizes) +
                " must have one entry per operand dimension (" +
                std::to_string(rank) + ")");
  }
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t size = slice_sizes[static_cast<std::size_t>(d)];
    if (size < 0 || size > operand.dim(d)) {
      return Fail("slice size " + std::to_string(size) + " of dimension " +
                  std::to_string(d) + " exceeds the operand " +
                  operand.ToString());
    }
  }
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.collapsed_slice_dims, rank,
                                           "collapsed_slice_dims", true));
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.operand_batching_dims, rank,
                                           "operand_batching_dims", true));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.collapsed_slice_dims, "collapsed_slice_dims",
                     numbers.operand_batching_dims, "operand_batching_dims"));
  PHAL_RETURN_IF_ERROR(ExpectIndicesBatchingDims(
      numbers.start_indices_batching_dims, start_indices,
      numbers.index_vector_dim, "start_indices_batching_dims"));
  if (numbers.operand_batching_dims.size() !=
      numbers.start_indices_batching_dims.size()) {
    return Fail(
        "operand_batching_dims and start_indices_batching_dims must "
        "have the same size");
  }
  for (const auto* dims :
       {&numbers.collapsed_slice_dims, &numbers.operand_batching_dims}) {
    for (int64_t d : *dims) {
      if (slice_sizes[static_cast<std::size_t>(d)] > 1) {
        return Fail("slice size of collapsed or batching dimension " +
                    std::to_string(d) + " must be at most 1");
      }
    }
  }
  if (static_cast<int64_t>(numbers.start_index_map.size()) !=
      indices.index_vector_size) {
    return Fail("start_index_map " + IntListToText(numbers.start_index_map) +
                " must have one entry per index vector element (" +
                std::to_string(indices.index_vector_size) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(numbers.start_index_map, rank, "start_index_map"));
  PHAL_RETURN_IF_ERROR(
      ExpectDisjoint(numbers.start_index_map, "start_index_map",
                     numbers.operand_batching_dims, "operand_batching_dims"));
  std::vector<int64_t> offset_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(numbers.collapsed_slice_dims, d) &&
        !Contains(numbers.operand_batching_dims, d)) {
      offset_sizes.push_back(slice_sizes[static_cast<std::size_t>(d)]);
    }
  }
  if (numbers.offset_dims.size() != offset_sizes.size()) {
    return Fail("offset_dims " + IntListToText(numbers.offset_dims) +
                " must have " + std::to_string(offset_sizes.size()) +
                " entries (operand rank minus collapsed and batching dims)");
  }
  const auto output_rank =
      static_cast<int64_t>(offset_sizes.size() + indices.batch_dims.size());
  PHAL_RETURN_IF_ERROR(ExpectDimensionList(numbers.offset_dims, output_rank,
                                           "offset_dims", true));
  std::vector<int64_t> dims;
  std::size_t next_offset = 0;
  std::size_t next_batch = 0;
  for (int64_t d = 0; d < output_rank; ++d) {
    dims.push_back(Contains(numbers.offset_dims, d)
                       ? offset_sizes[next_offset++]
                       : indices.batch_dims[next_batch++]);
  }
  return Shape(operand.element_type(), std::move(dims));
}

}  // namespace phal
