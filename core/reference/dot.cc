#include "core/reference/dot.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/reference/accumulation.h"
#include "core/reference/strided_copy.h"
#include "sdk/element_semantics/accumulation.h"

namespace phal::reference {
namespace {

// An operand rearranged as a dense [batch, free, contracting] (lhs) or
// [batch, contracting, free] (rhs) array.
struct PackedOperand {
  Literal literal;
  std::vector<int64_t> free_dims;
  int64_t batch = 1, free = 1, contracting = 1;
};

StatusOr<PackedOperand> Pack(const Literal& operand,
                             const std::vector<int64_t>& batch_dims,
                             const std::vector<int64_t>& contracting_dims,
                             bool contracting_before_free) {
  const std::vector<int64_t>& dims = operand.shape().dims();
  PackedOperand packed;
  std::vector<int64_t> free_dims;
  for (int64_t d = 0; d < operand.shape().rank(); ++d) {
    const bool is_batch = std::count(batch_dims.begin(), batch_dims.end(), d);
    const bool is_contracting =
        std::count(contracting_dims.begin(), contracting_dims.end(), d);
    if (!is_batch && !is_contracting) free_dims.push_back(d);
  }
  std::vector<int64_t> order = batch_dims;
  const std::vector<int64_t>& middle =
      contracting_before_free ? contracting_dims : free_dims;
  const std::vector<int64_t>& last =
      contracting_before_free ? free_dims : contracting_dims;
  order.insert(order.end(), middle.begin(), middle.end());
  order.insert(order.end(), last.begin(), last.end());
  if (order.size() != dims.size()) {
    return InvalidArgument(
        "dot dimension numbers name a dimension twice or "
        "out of range for " +
        operand.shape().ToString());
  }
  const StridedView source_layout = RowMajorView(dims);
  std::vector<int64_t> packed_dims;
  StridedView source;
  for (int64_t d : order) {
    if (d < 0 || d >= operand.shape().rank()) {
      return InvalidArgument("dot dimension " + std::to_string(d) +
                             " is out of range for " +
                             operand.shape().ToString());
    }
    packed_dims.push_back(dims[static_cast<std::size_t>(d)]);
    source.strides.push_back(
        source_layout.strides[static_cast<std::size_t>(d)]);
  }
  packed.literal = Literal(Shape(operand.element_type(), packed_dims));
  StridedCopy(packed_dims, ElementTypeByteSize(operand.element_type()),
              operand.data(), source, packed.literal.data(),
              RowMajorView(packed_dims));
  for (int64_t d : batch_dims)
    packed.batch *= dims[static_cast<std::size_t>(d)];
  for (int64_t d : contracting_dims) {
    packed.contracting *= dims[static_cast<std::size_t>(d)];
  }
  for (int64_t d : free_dims) {
    packed.free *= dims[static_cast<std::size_t>(d)];
    packed.free_dims.push_back(dims[static_cast<std::size_t>(d)]);
  }
  return packed;
}

// C[b, m, n] = sum_k A[b, m, k] * B[b, k, n] in domain D.
template <typename D>
Status MultiplyPacked(const PackedOperand& lhs, const PackedOperand& rhs,
                      Literal* result) {
  std::vector<D> a, b;
  PHAL_RETURN_IF_ERROR(LoadInto(lhs.literal, &a));
  PHAL_RETURN_IF_ERROR(LoadInto(rhs.literal, &b));
  return StoreFrom(element_semantics::MultiplyBatched<D>(
                       a, b, lhs.batch, lhs.free, lhs.contracting, rhs.free),
                   result);
}

}  // namespace

StatusOr<Literal> EvaluateDot(const HloInstruction& instruction,
                              const Literal& lhs, const Literal& rhs) {
  const DotDimensionNumbers& numbers = instruction.dot_dimension_numbers();
  if (numbers.lhs_batch_dimensions.size() !=
          numbers.rhs_batch_dimensions.size() ||
      numbers.lhs_contracting_dimensions.size() !=
          numbers.rhs_contracting_dimensions.size()) {
    return InvalidArgument(
        "dot needs as many batch and contracting "
        "dimensions on the lhs as on the rhs");
  }
  PHAL_ASSIGN_OR_RETURN(PackedOperand packed_lhs,
                        Pack(lhs, numbers.lhs_batch_dimensions,
                             numbers.lhs_contracting_dimensions, false));
  PHAL_ASSIGN_OR_RETURN(PackedOperand packed_rhs,
                        Pack(rhs, numbers.rhs_batch_dimensions,
                             numbers.rhs_contracting_dimensions, true));
  for (std::size_t i = 0; i < numbers.lhs_contracting_dimensions.size(); ++i) {
    if (lhs.shape().dim(numbers.lhs_contracting_dimensions[i]) !=
        rhs.shape().dim(numbers.rhs_contracting_dimensions[i])) {
      return InvalidArgument("dot contracting dimensions differ in size: " +
                             lhs.shape().ToString() + " and " +
                             rhs.shape().ToString());
    }
  }
  for (std::size_t i = 0; i < numbers.lhs_batch_dimensions.size(); ++i) {
    if (lhs.shape().dim(numbers.lhs_batch_dimensions[i]) !=
        rhs.shape().dim(numbers.rhs_batch_dimensions[i])) {
      return InvalidArgument(
          "dot batch dimensions differ in size: " + lhs.shape().ToString() +
          " and " + rhs.shape().ToString());
    }
  }
  Literal result(instruction.shape());
  if (result.ElementCount() !=
      packed_lhs.batch * packed_lhs.free * packed_rhs.free) {
    return InvalidArgument("dot result shape " + result.shape().ToString() +
                           " does not match the operands " +
                           lhs.shape().ToString() + " and " +
                           rhs.shape().ToString());
  }
  PHAL_RETURN_IF_ERROR(
      DispatchSummationDomain(result.element_type(), [&](auto domain) {
        return MultiplyPacked<decltype(domain)>(packed_lhs, packed_rhs,
                                                &result);
      }));
  return result;
}

}  // namespace phal::reference
