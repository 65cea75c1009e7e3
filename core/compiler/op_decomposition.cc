#include "core/compiler/decompositions.h"
#include "core/compiler/passes.h"

namespace phal {
namespace {

// XLA's compiled HLO uses bitcast to reinterpret an element type as
// another of the same width (bitcast.2 = s32[] bitcast(f32[] x)): that is
// a bitcast-convert, then a reshape when the dimensions change too.
StatusOr<HloInstruction*> RetypingBitcastAsBitcastConvert(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    RewriteContext& context) {
  HloInstruction* x = operands[0];
  const ElementType from = x->shape().element_type();
  const ElementType to = source.shape().element_type();
  if (!source.shape().IsArray() || from == to) return nullptr;
  if (ElementTypeBitWidth(from) != ElementTypeBitWidth(to)) {
    return Unimplemented("bitcast from " + x->shape().ToString() + " to " +
                         source.shape().ToString() + " (instruction %" +
                         source.name() + ") changes the element width");
  }
  HloInstruction* converted = context.AddNew(HloOpcode::kBitcastConvert,
                                             Shape(to, x->shape().dims()), {x});
  if (x->shape().dims() == source.shape().dims()) return converted;
  return context.AddNew(HloOpcode::kReshape, source.shape(), {converted});
}

StatusOr<HloInstruction*> DecomposeOp(
    const HloInstruction& source, const std::vector<HloInstruction*>& operands,
    const std::vector<HloComputation*>& called, RewriteContext& context,
    bool fft_kernels) {
  switch (source.opcode()) {
    case HloOpcode::kTopK:
      return DecomposeTopK(source, operands, context);
    case HloOpcode::kBitcastConvert:
      return DecomposeBitcastConvert(source, operands, context);
    case HloOpcode::kErfc:
      return DecomposeErfc(source, operands, context);
    case HloOpcode::kLgamma:
    case HloOpcode::kDigamma:
    case HloOpcode::kZeta:
    case HloOpcode::kPolygamma:
      return DecomposeGammaFamily(source, operands, context);
    case HloOpcode::kAsin:
    case HloOpcode::kAcos:
    case HloOpcode::kAtan:
    case HloOpcode::kSinh:
    case HloOpcode::kCosh:
    case HloOpcode::kAsinh:
    case HloOpcode::kAcosh:
    case HloOpcode::kAtanh:
      return DecomposeInverseOrHyperbolic(source, operands, context);
    case HloOpcode::kBesselI1e:
      return DecomposeBesselI1e(source, operands, context);
    case HloOpcode::kNextAfter:
      return DecomposeNextAfter(source, operands, context);
    case HloOpcode::kFft:
      if (fft_kernels) return nullptr;
      return DecomposeFft(source, operands, context);
    case HloOpcode::kBitcast:
      return RetypingBitcastAsBitcastConvert(source, operands, context);
    case HloOpcode::kSelectAndScatter:
      return DecomposeSelectAndScatter(source, operands, called, context);
    case HloOpcode::kScatter:
      return SplitVariadicScatter(source, operands, called, context);
    case HloOpcode::kReduceWindow:
      return DecomposeCumulativeReduceWindow(source, operands, called, context);
    default:
      return nullptr;
  }
}

}  // namespace

std::unique_ptr<HloPass> MakeOpDecompositionPass(bool fft_kernels) {
  return MakeRewritePass(
      "decompose-ops",
      [fft_kernels](const HloInstruction& source,
                    const std::vector<HloInstruction*>& operands,
                    const std::vector<HloComputation*>& called,
                    RewriteContext& context) {
        return DecomposeOp(source, operands, called, context, fft_kernels);
      });
}

}  // namespace phal
