// Shape inference of data movement: broadcast, reshape, bitcast,
// transpose, slices, concatenate, pad, reverse, get-tuple-element and iota.
#include "core/hlo/shape_inference_internal.h"

#include <algorithm>
#include <string>

namespace phal {

namespace shape_inference_internal {

namespace {

Status ExpectScalarIndices(const std::vector<Shape>& indices, int64_t rank) {
  if (static_cast<int64_t>(indices.size()) != rank) {
    return Fail("expects one start index per operand dimension (" +
                std::to_string(rank) + "), got " +
                std::to_string(indices.size()));
  }
  for (std::size_t i = 0; i < indices.size(); ++i) {
    PHAL_RETURN_IF_ERROR(
        ExpectScalar(indices[i], "start index " + std::to_string(i)));
    if (!IsIntegral(indices[i].element_type())) {
      return Fail("start index " + std::to_string(i) +
                  " must be an integer, got " + indices[i].ToString());
    }
    if (indices[i].element_type() != indices[0].element_type()) {
      return Fail("start indices must all have the same type");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<Shape> InferBroadcastShape(const Shape& operand, const Shape& stated,
                                    const std::vector<int64_t>& dimensions) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (static_cast<int64_t>(dimensions.size()) != operand.rank()) {
    return Fail("dimensions " + IntListToText(dimensions) +
                " must have one entry "
                "per operand dimension (" +
                std::to_string(operand.rank()) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(dimensions, stated.rank(), "dimensions"));
  for (std::size_t i = 0; i < dimensions.size(); ++i) {
    const int64_t size = operand.dims()[i];
    if (size != 1 && size != stated.dim(dimensions[i])) {
      return Fail("operand dimension " + std::to_string(i) + " (size " +
                  std::to_string(size) +
                  ") cannot broadcast to result "
                  "dimension " +
                  std::to_string(dimensions[i]) + " (size " +
                  std::to_string(stated.dim(dimensions[i])) + ")");
    }
  }
  return Shape(operand.element_type(), stated.dims());
}

StatusOr<Shape> InferReshapeShape(const Shape& operand, const Shape& stated) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (operand.ElementCount() != stated.ElementCount()) {
    return Fail("cannot reshape " + operand.ToString() + " (" +
                std::to_string(operand.ElementCount()) + " elements) to " +
                stated.ToString() + " (" +
                std::to_string(stated.ElementCount()) + " elements)");
  }
  return Shape(operand.element_type(), stated.dims());
}

StatusOr<Shape> InferBitcastShape(const Shape& operand, const Shape& stated) {
  if (operand.ByteSize() != stated.ByteSize()) {
    return Fail("bitcast from " + operand.ToString() + " to " +
                stated.ToString() + " changes the size in bytes");
  }
  return stated;
}

StatusOr<Shape> InferDynamicSliceShape(const std::vector<Shape>& operands,
                                       const std::vector<int64_t>& sizes) {
  if (operands.empty()) return Fail("expects an operand and start indices");
  const Shape& operand = operands[0];
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectScalarIndices(
      std::vector<Shape>(operands.begin() + 1, operands.end()),
      operand.rank()));
  if (static_cast<int64_t>(sizes.size()) != operand.rank()) {
    return Fail("dynamic_slice_sizes " + IntListToText(sizes) +
                " must have one entry per operand dimension");
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || sizes[i] > operand.dims()[i]) {
      return Fail("slice size " + std::to_string(sizes[i]) +
                  " does not fit dimension " + std::to_string(i) + " of size " +
                  std::to_string(operand.dims()[i]));
    }
  }
  return Shape(operand.element_type(), sizes);
}

StatusOr<Shape> InferDynamicUpdateSliceShape(
    const std::vector<Shape>& operands) {
  if (operands.size() < 2)
    return Fail("expects an operand, an update and indices");
  const Shape& operand = operands[0];
  const Shape& update = operands[1];
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectArray(update, "the update"));
  PHAL_RETURN_IF_ERROR(
      ExpectSameElementType(operand, update, "the operand and the update"));
  PHAL_RETURN_IF_ERROR(ExpectScalarIndices(
      std::vector<Shape>(operands.begin() + 2, operands.end()),
      operand.rank()));
  if (update.rank() != operand.rank()) {
    return Fail("the update " + update.ToString() +
                " must have the operand's rank " + operand.ToString());
  }
  for (int64_t i = 0; i < operand.rank(); ++i) {
    if (update.dim(i) > operand.dim(i)) {
      return Fail("the update " + update.ToString() + " does not fit in " +
                  operand.ToString());
    }
  }
  return operand;
}

StatusOr<Shape> InferReverseShape(const Shape& operand,
                                  const std::vector<int64_t>& dimensions) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(dimensions, operand.rank(), "dimensions"));
  return operand;
}

StatusOr<Shape> InferGetTupleElementShape(const Shape& operand, int64_t index) {
  if (!operand.IsTuple()) {
    return Fail("the operand must be a tuple, got " + operand.ToString());
  }
  if (index < 0 ||
      index >= static_cast<int64_t>(operand.tuple_shapes().size())) {
    return Fail("index " + std::to_string(index) + " is out of range for " +
                operand.ToString());
  }
  return operand.tuple_shapes()[static_cast<std::size_t>(index)];
}

StatusOr<Shape> InferIotaShape(const Shape& stated, int64_t dimension) {
  PHAL_RETURN_IF_ERROR(ExpectArray(stated, "the result"));
  if (dimension < 0 || dimension >= stated.rank()) {
    return Fail("iota_dimension " + std::to_string(dimension) +
                " is out of range for " + stated.ToString());
  }
  if (!IsNumeric(stated.element_type())) {
    return Fail("iota cannot produce " + TypeName(stated.element_type()));
  }
  return Shape(stated.element_type(), stated.dims());
}

}  // namespace shape_inference_internal

using shape_inference_internal::AddOverflows;
using shape_inference_internal::ExpectArray;
using shape_inference_internal::ExpectDimensionList;
using shape_inference_internal::ExpectSameElementType;
using shape_inference_internal::ExpectScalar;
using shape_inference_internal::Fail;
using shape_inference_internal::MultiplyOverflows;

StatusOr<Shape> InferTransposeShape(const Shape& operand,
                                    const std::vector<int64_t>& permutation) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  if (static_cast<int64_t>(permutation.size()) != operand.rank()) {
    return Fail("dimensions " + IntListToText(permutation) +
                " is not a permutation of the operand's " +
                std::to_string(operand.rank()) + " dimensions");
  }
  PHAL_RETURN_IF_ERROR(
      ExpectDimensionList(permutation, operand.rank(), "dimensions"));
  std::vector<int64_t> dims;
  for (int64_t source : permutation) dims.push_back(operand.dim(source));
  return Shape(operand.element_type(), std::move(dims));
}

StatusOr<Shape> InferSliceShape(const Shape& operand,
                                const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& limits,
                                const std::vector<int64_t>& strides) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  const auto rank = static_cast<std::size_t>(operand.rank());
  if (starts.size() != rank || limits.size() != rank ||
      strides.size() != rank) {
    return Fail("slice must have one range per operand dimension (" +
                std::to_string(rank) + ")");
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < rank; ++i) {
    if (starts[i] < 0 || starts[i] > limits[i] ||
        limits[i] > operand.dims()[i] || strides[i] < 1) {
      return Fail("slice range [" + std::to_string(starts[i]) + ":" +
                  std::to_string(limits[i]) + ":" + std::to_string(strides[i]) +
                  "] is invalid for dimension " + std::to_string(i) +
                  " of size " + std::to_string(operand.dims()[i]));
    }
    const int64_t extent = limits[i] - starts[i];
    dims.push_back(extent / strides[i] + (extent % strides[i] != 0 ? 1 : 0));
  }
  return Shape(operand.element_type(), std::move(dims));
}

StatusOr<Shape> InferConcatenateShape(const std::vector<Shape>& operands,
                                      int64_t dimension) {
  if (operands.empty()) return Fail("expects at least one operand");
  const Shape& first = operands[0];
  PHAL_RETURN_IF_ERROR(ExpectArray(first, "operand 0"));
  if (dimension < 0 || dimension >= first.rank()) {
    return Fail("dimension " + std::to_string(dimension) +
                " is out of range for " + first.ToString());
  }
  std::vector<int64_t> dims = first.dims();
  for (std::size_t i = 1; i < operands.size(); ++i) {
    const Shape& operand = operands[i];
    PHAL_RETURN_IF_ERROR(ExpectArray(operand, "operand " + std::to_string(i)));
    PHAL_RETURN_IF_ERROR(
        ExpectSameElementType(first, operand, "concatenated operands"));
    bool compatible = operand.rank() == first.rank();
    for (int64_t d = 0; compatible && d < first.rank(); ++d) {
      compatible = d == dimension || operand.dim(d) == first.dim(d);
    }
    if (!compatible) {
      return Fail("operand " + operand.ToString() + " does not match " +
                  first.ToString() + " outside dimension " +
                  std::to_string(dimension));
    }
    dims[static_cast<std::size_t>(dimension)] += operand.dim(dimension);
  }
  return Shape(first.element_type(), std::move(dims));
}

StatusOr<Shape> InferPadShape(const Shape& operand, const Shape& padding_value,
                              const PaddingConfig& config) {
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  PHAL_RETURN_IF_ERROR(ExpectScalar(padding_value, "the padding value"));
  PHAL_RETURN_IF_ERROR(ExpectSameElementType(operand, padding_value,
                                             "the operand and padding value"));
  if (static_cast<int64_t>(config.dimensions.size()) != operand.rank()) {
    return Fail("padding has " + std::to_string(config.dimensions.size()) +
                " dimensions, the operand " + std::to_string(operand.rank()));
  }
  std::vector<int64_t> dims;
  for (std::size_t i = 0; i < config.dimensions.size(); ++i) {
    const PaddingDimension& pad = config.dimensions[i];
    const int64_t size = operand.dims()[i];
    if (pad.interior < 0) {
      return Fail("interior padding must not be negative");
    }
    int64_t interior_total = 0;
    int64_t padded = 0;
    if (MultiplyOverflows(std::max<int64_t>(size - 1, 0), pad.interior,
                          &interior_total) ||
        AddOverflows(size, interior_total, &padded) ||
        AddOverflows(padded, pad.low, &padded) ||
        AddOverflows(padded, pad.high, &padded)) {
      return Fail("padding dimension " + std::to_string(i) +
                  " overflows the size range");
    }
    if (padded < 0) {
      return Fail("padding dimension " + std::to_string(i) +
                  " to a negative size " + std::to_string(padded));
    }
    dims.push_back(padded);
  }
  return Shape(operand.element_type(), std::move(dims));
}

}  // namespace phal
