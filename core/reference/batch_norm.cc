#include "core/reference/batch_norm.h"

#include <array>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "core/reference/accumulation.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

// The feature of every element of the operand, and per-feature sizes.
struct FeatureLayout {
  int64_t features = 0;
  int64_t stride = 1;
  int64_t elements_per_feature = 0;

  int64_t FeatureOf(int64_t linear) const {
    return (linear / stride) % features;
  }
};

StatusOr<FeatureLayout> ResolveFeatures(const HloInstruction& instruction,
                                        const Literal& operand) {
  const int64_t index = instruction.feature_index();
  if (!IsFloat(operand.element_type())) {
    return Unimplemented(std::string(HloOpcodeName(instruction.opcode())) +
                         " needs a floating-point operand, got " +
                         operand.shape().ToString());
  }
  if (index < 0 || index >= operand.shape().rank()) {
    return InvalidArgument("feature_index " + std::to_string(index) +
                           " is out of range for " +
                           operand.shape().ToString());
  }
  FeatureLayout layout;
  layout.features = operand.shape().dim(index);
  layout.stride = RowMajorView(operand.shape().dims())
                      .strides[static_cast<std::size_t>(index)];
  layout.elements_per_feature =
      layout.features == 0 ? 0 : operand.ElementCount() / layout.features;
  return layout;
}

StatusOr<std::vector<double>> Load(const Literal& literal, int64_t count) {
  if (literal.IsTuple() || literal.ElementCount() != count) {
    return InvalidArgument("expected " + std::to_string(count) +
                           " elements, got " + literal.shape().ToString());
  }
  std::vector<double> values;
  PHAL_RETURN_IF_ERROR(LoadInto(literal, &values));
  return values;
}

// The values of `operands`, of `counts[i]` elements each.
template <std::size_t N>
StatusOr<std::array<std::vector<double>, N>> LoadOperands(
    std::span<const Literal* const> operands,
    const std::array<int64_t, N>& counts) {
  std::array<std::vector<double>, N> values;
  for (std::size_t i = 0; i < N; ++i) {
    PHAL_ASSIGN_OR_RETURN(values[i], Load(*operands[i], counts[i]));
  }
  return values;
}

StatusOr<Literal> Store(const std::vector<double>& values, const Shape& shape) {
  Literal literal(shape);
  PHAL_RETURN_IF_ERROR(StoreFrom(values, &literal));
  return literal;
}

// Per-feature mean and biased variance.
void Moments(const std::vector<double>& x, const FeatureLayout& layout,
             std::vector<double>* mean, std::vector<double>* variance) {
  const auto features = static_cast<std::size_t>(layout.features);
  mean->assign(features, 0.0);
  variance->assign(features, 0.0);
  const auto n = static_cast<double>(layout.elements_per_feature);
  for (std::size_t i = 0; i < x.size(); ++i) {
    (*mean)[static_cast<std::size_t>(
        layout.FeatureOf(static_cast<int64_t>(i)))] += x[i];
  }
  for (double& m : *mean) m /= n;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto f =
        static_cast<std::size_t>(layout.FeatureOf(static_cast<int64_t>(i)));
    const double centered = x[i] - (*mean)[f];
    (*variance)[f] += centered * centered;
  }
  for (double& v : *variance) v /= n;
}

std::vector<double> Normalize(const std::vector<double>& x,
                              const FeatureLayout& layout,
                              const std::vector<double>& scale,
                              const std::vector<double>& offset,
                              const std::vector<double>& mean,
                              const std::vector<double>& variance,
                              double epsilon) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto f =
        static_cast<std::size_t>(layout.FeatureOf(static_cast<int64_t>(i)));
    y[i] = scale[f] * (x[i] - mean[f]) / std::sqrt(variance[f] + epsilon) +
           offset[f];
  }
  return y;
}

StatusOr<Literal> Inference(const HloInstruction& instruction,
                            std::span<const Literal* const> operands,
                            const FeatureLayout& layout) {
  if (operands.size() != 5) {
    return InvalidArgument(
        "batch-norm-inference takes operand, scale, "
        "offset, mean and variance");
  }
  const int64_t f = layout.features;
  PHAL_ASSIGN_OR_RETURN(
      auto loaded,
      LoadOperands<5>(operands, {operands[0]->ElementCount(), f, f, f, f}));
  const auto& [x, scale, offset, mean, variance] = loaded;
  return Store(Normalize(x, layout, scale, offset, mean, variance,
                         instruction.epsilon()),
               instruction.shape());
}

StatusOr<Literal> Training(const HloInstruction& instruction,
                           std::span<const Literal* const> operands,
                           const FeatureLayout& layout) {
  if (operands.size() != 3 || !instruction.shape().IsTuple() ||
      instruction.shape().tuple_shapes().size() != 3) {
    return InvalidArgument(
        "batch-norm-training takes operand, scale and "
        "offset and returns a 3-tuple");
  }
  const int64_t f = layout.features;
  PHAL_ASSIGN_OR_RETURN(
      auto loaded,
      LoadOperands<3>(operands, {operands[0]->ElementCount(), f, f}));
  const auto& [x, scale, offset] = loaded;
  std::vector<double> mean, variance;
  Moments(x, layout, &mean, &variance);
  const auto& shapes = instruction.shape().tuple_shapes();
  std::vector<Literal> results;
  for (const auto& [values, shape] :
       {std::pair{Normalize(x, layout, scale, offset, mean, variance,
                            instruction.epsilon()),
                  shapes[0]},
        std::pair{mean, shapes[1]}, std::pair{variance, shapes[2]}}) {
    PHAL_ASSIGN_OR_RETURN(Literal literal, Store(values, shape));
    results.push_back(std::move(literal));
  }
  return Literal::Tuple(std::move(results));
}

StatusOr<Literal> Grad(const HloInstruction& instruction,
                       std::span<const Literal* const> operands,
                       const FeatureLayout& layout) {
  if (operands.size() != 5 || !instruction.shape().IsTuple() ||
      instruction.shape().tuple_shapes().size() != 3) {
    return InvalidArgument(
        "batch-norm-grad takes operand, scale, mean, "
        "variance and grad_output and returns a 3-tuple");
  }
  const int64_t count = operands[0]->ElementCount();
  const int64_t f = layout.features;
  PHAL_ASSIGN_OR_RETURN(auto loaded,
                        LoadOperands<5>(operands, {count, f, f, f, count}));
  const auto& [x, scale, mean, variance, grad_output] = loaded;
  const double epsilon = instruction.epsilon();
  const auto features = static_cast<std::size_t>(layout.features);
  const auto n = static_cast<double>(layout.elements_per_feature);
  // Per feature: sum(grad_output) and sum(grad_output * (x - mean)).
  std::vector<double> grad_offset(features, 0.0), weighted(features, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto f =
        static_cast<std::size_t>(layout.FeatureOf(static_cast<int64_t>(i)));
    grad_offset[f] += grad_output[i];
    weighted[f] += grad_output[i] * (x[i] - mean[f]);
  }
  std::vector<double> grad_operand(x.size()), grad_scale(features);
  for (std::size_t f = 0; f < features; ++f) {
    grad_scale[f] = weighted[f] / std::sqrt(variance[f] + epsilon);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto f =
        static_cast<std::size_t>(layout.FeatureOf(static_cast<int64_t>(i)));
    const double centered = x[i] - mean[f];
    const double stddev = std::sqrt(variance[f] + epsilon);
    const double i6 = grad_output[i] * n - grad_offset[f] -
                      weighted[f] * centered / (variance[f] + epsilon);
    grad_operand[i] = scale[f] / stddev / n * i6;
  }
  const auto& shapes = instruction.shape().tuple_shapes();
  std::vector<Literal> results;
  for (const auto& [values, shape] :
       {std::pair{grad_operand, shapes[0]}, std::pair{grad_scale, shapes[1]},
        std::pair{grad_offset, shapes[2]}}) {
    PHAL_ASSIGN_OR_RETURN(Literal literal, Store(values, shape));
    results.push_back(std::move(literal));
  }
  return Literal::Tuple(std::move(results));
}

}  // namespace

StatusOr<Literal> EvaluateBatchNorm(const HloInstruction& instruction,
                                    std::span<const Literal* const> operands) {
  if (operands.empty()) return InvalidArgument("batch norm needs an operand");
  PHAL_ASSIGN_OR_RETURN(FeatureLayout layout,
                        ResolveFeatures(instruction, *operands[0]));
  switch (instruction.opcode()) {
    case HloOpcode::kBatchNormInference:
      return Inference(instruction, operands, layout);
    case HloOpcode::kBatchNormTraining:
      return Training(instruction, operands, layout);
    default:
      return Grad(instruction, operands, layout);
  }
}

}  // namespace phal::reference
