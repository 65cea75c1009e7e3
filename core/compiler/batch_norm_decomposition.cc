#include "core/compiler/hlo_rewriter.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// Builds y = scale * (x - mean) / sqrt(variance + epsilon) + offset, the
// reference interpreter's formula, from per-feature vectors.
class BatchNormBuilder {
 public:
  BatchNormBuilder(const HloInstruction& source, RewriteContext& context,
                   HloInstruction* x)
      : source_(source),
        context_(context),
        x_(x),
        type_(x->shape().element_type()),
        dims_(x->shape().dims()) {}

  HloInstruction* Binary(HloOpcode opcode, HloInstruction* a,
                         HloInstruction* b) {
    return context_.AddNew(opcode, a->shape(), {a, b});
  }

  // A per-feature vector broadcast along the operand.
  HloInstruction* Spread(HloInstruction* feature_vector) {
    return context_.AddNew(HloOpcode::kBroadcast, Shape(type_, dims_),
                           {feature_vector}, [&](HloInstruction& b) {
                             b.set_dimensions({source_.feature_index()});
                           });
  }

  HloInstruction* Scalar(double value, const Shape& like) {
    HloInstruction* constant = context_.AddNew(
        HloOpcode::kConstant, Shape(type_, {}), {}, [&](HloInstruction& c) {
          c.set_literal(Literal::Scalar(type_, value));
        });
    return context_.AddNew(HloOpcode::kBroadcast, like, {constant});
  }

  // Per-feature sum over every other dimension.
  HloInstruction* FeatureSum(HloInstruction* value) {
    std::vector<int64_t> reduced;
    for (int64_t d = 0; d < static_cast<int64_t>(dims_.size()); ++d) {
      if (d != source_.feature_index()) reduced.push_back(d);
    }
    HloComputation* add =
        context_.AddBinaryComputation(HloOpcode::kAdd, type_, "batch_norm_add");
    HloInstruction* zero = context_.AddNew(
        HloOpcode::kConstant, Shape(type_, {}), {},
        [&](HloInstruction& c) { c.set_literal(Literal::Scalar(type_, 0.0)); });
    return context_.AddNew(HloOpcode::kReduce, FeatureShape(), {value, zero},
                           [&](HloInstruction& r) {
                             r.set_dimensions(reduced);
                             r.AppendCalledComputation(add);
                           });
  }

  // Per-feature mean over every other dimension.
  HloInstruction* FeatureMean(HloInstruction* value) {
    return Binary(HloOpcode::kDivide, FeatureSum(value),
                  Scalar(ElementsPerFeature(), FeatureShape()));
  }

  // The reference's gradients: grad_offset = sum(dy), grad_scale =
  // sum(dy * (x - mean)) / sqrt(variance + epsilon), and grad_operand =
  // scale / sqrt(variance + epsilon) / n * (dy * n - grad_offset -
  // sum(dy * (x - mean)) * (x - mean) / (variance + epsilon)), n the
  // elements per feature.
  HloInstruction* Gradients(HloInstruction* scale, HloInstruction* mean,
                            HloInstruction* variance, HloInstruction* dy) {
    const Shape& shape = x_->shape();
    HloInstruction* grad_offset = FeatureSum(dy);
    HloInstruction* centered = Centered(mean);
    HloInstruction* weighted =
        FeatureSum(Binary(HloOpcode::kMultiply, dy, centered));
    HloInstruction* shifted_variance = Binary(
        HloOpcode::kAdd, variance, Scalar(source_.epsilon(), FeatureShape()));
    HloInstruction* stddev =
        context_.AddNew(HloOpcode::kSqrt, FeatureShape(), {shifted_variance});
    HloInstruction* grad_scale = Binary(HloOpcode::kDivide, weighted, stddev);
    HloInstruction* n = Scalar(ElementsPerFeature(), shape);
    HloInstruction* correction =
        Binary(HloOpcode::kDivide,
               Binary(HloOpcode::kMultiply, Spread(weighted), centered),
               Spread(shifted_variance));
    HloInstruction* i6 =
        Binary(HloOpcode::kSubtract,
               Binary(HloOpcode::kSubtract, Binary(HloOpcode::kMultiply, dy, n),
                      Spread(grad_offset)),
               correction);
    HloInstruction* factor =
        Binary(HloOpcode::kDivide,
               Binary(HloOpcode::kDivide, Spread(scale), Spread(stddev)), n);
    HloInstruction* grad_operand = Binary(HloOpcode::kMultiply, factor, i6);
    return context_.AddNew(HloOpcode::kTuple, source_.shape(),
                           {grad_operand, grad_scale, grad_offset});
  }

  HloInstruction* Normalize(HloInstruction* scale, HloInstruction* offset,
                            HloInstruction* mean, HloInstruction* variance) {
    HloInstruction* centered = Binary(HloOpcode::kSubtract, x_, Spread(mean));
    HloInstruction* stddev =
        context_.AddNew(HloOpcode::kSqrt, x_->shape(),
                        {Binary(HloOpcode::kAdd, Spread(variance),
                                Scalar(source_.epsilon(), x_->shape()))});
    HloInstruction* scaled =
        Binary(HloOpcode::kDivide,
               Binary(HloOpcode::kMultiply, Spread(scale), centered), stddev);
    return Binary(HloOpcode::kAdd, scaled, Spread(offset));
  }

  HloInstruction* Centered(HloInstruction* mean) {
    return Binary(HloOpcode::kSubtract, x_, Spread(mean));
  }

 private:
  Shape FeatureShape() const {
    return Shape(type_,
                 {dims_[static_cast<std::size_t>(source_.feature_index())]});
  }

  double ElementsPerFeature() const {
    const int64_t features =
        dims_[static_cast<std::size_t>(source_.feature_index())];
    return static_cast<double>(x_->shape().ElementCount()) /
           static_cast<double>(features == 0 ? 1 : features);
  }

  const HloInstruction& source_;
  RewriteContext& context_;
  HloInstruction* x_;
  ElementType type_;
  std::vector<int64_t> dims_;
};

StatusOr<HloInstruction*> DecomposeBatchNorm(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& /*called*/, RewriteContext& context) {
  if (source.opcode() == HloOpcode::kBatchNormInference) {
    BatchNormBuilder builder(source, context, operands[0]);
    return builder.Normalize(operands[1], operands[2], operands[3],
                             operands[4]);
  }
  if (source.opcode() == HloOpcode::kBatchNormGrad) {
    BatchNormBuilder builder(source, context, operands[0]);
    return builder.Gradients(operands[1], operands[2], operands[3],
                             operands[4]);
  }
  if (source.opcode() != HloOpcode::kBatchNormTraining) return nullptr;
  BatchNormBuilder builder(source, context, operands[0]);
  HloInstruction* mean = builder.FeatureMean(operands[0]);
  HloInstruction* centered = builder.Centered(mean);
  HloInstruction* variance = builder.FeatureMean(
      builder.Binary(HloOpcode::kMultiply, centered, centered));
  HloInstruction* y =
      builder.Normalize(operands[1], operands[2], mean, variance);
  return context.AddNew(HloOpcode::kTuple, source.shape(), {y, mean, variance});
}

}  // namespace

std::unique_ptr<HloPass> MakeBatchNormDecompositionPass() {
  return MakeRewritePass("decompose-batch-norm", DecomposeBatchNorm);
}

}  // namespace phal
