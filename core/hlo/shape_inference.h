// Shape inference: the shape an HLO op produces from its operands' shapes,
// its attributes and its called computations, with every constraint of the
// StableHLO spec and XLA's shape inference that the shapes alone can check.
// Errors say what is wrong without naming the instruction; the verifier
// prefixes the name.
#ifndef POLYHAL_CORE_HLO_SHAPE_INFERENCE_H_
#define POLYHAL_CORE_HLO_SHAPE_INFERENCE_H_

#include <vector>

#include "core/hlo/dimension_numbers.h"
#include "core/hlo/instruction.h"
#include "core/hlo/process_groups.h"
#include "core/hlo/shape.h"
#include "core/hlo/window.h"
#include "sdk/base/status.h"

namespace phal {

// The shape `instruction` must have. Where the text's shape is the only
// source of some information (the result dimensions of broadcast and
// reshape, the target type of convert, the result element type of dot and
// convolution) that part is taken from instruction.shape() after checking it
// is consistent with the operands.
StatusOr<Shape> InferShape(const HloInstruction& instruction);

// The shape of a collective (all-reduce, all-gather, reduce-scatter,
// all-to-all, collective-permute, collective-broadcast) or of replica-id
// and partition-id when the program runs on `grid`, with its process
// groups checked (process_groups.h). InferShape() uses the grid of the
// instruction's module; a front end that has not built the module yet
// passes the grid it read.
StatusOr<Shape> InferCollectiveShape(const HloInstruction& instruction,
                                     ProcessGrid grid);

// Building blocks, usable on shapes alone (by passes that create
// instructions). Each checks its op's constraints.

// Elementwise binary op: both operands have the same dimensions and element
// type; compare gives pred, complex gives c64/c128.
StatusOr<Shape> InferElementwiseBinaryShape(HloOpcode opcode, const Shape& lhs,
                                            const Shape& rhs);
StatusOr<Shape> InferTransposeShape(const Shape& operand,
                                    const std::vector<int64_t>& permutation);
StatusOr<Shape> InferSliceShape(const Shape& operand,
                                const std::vector<int64_t>& starts,
                                const std::vector<int64_t>& limits,
                                const std::vector<int64_t>& strides);
StatusOr<Shape> InferPadShape(const Shape& operand, const Shape& padding_value,
                              const PaddingConfig& config);
StatusOr<Shape> InferConcatenateShape(const std::vector<Shape>& operands,
                                      int64_t dimension);
// The dimensions a window of `window` produces over `base` dimensions
// (reduce-window, select-and-scatter and convolution spatial dimensions).
StatusOr<std::vector<int64_t>> InferWindowOutputDimensions(
    const std::vector<int64_t>& base, const Window& window);
// `result_type` is the element type of the result (the text's choice).
StatusOr<Shape> InferDotShape(const Shape& lhs, const Shape& rhs,
                              const DotDimensionNumbers& numbers,
                              ElementType result_type);
StatusOr<Shape> InferConvolutionShape(
    const Shape& input, const Shape& kernel, const Window& window,
    const ConvolutionDimensionNumbers& numbers, int64_t feature_group_count,
    int64_t batch_group_count, ElementType result_type);
StatusOr<Shape> InferGatherShape(const Shape& operand,
                                 const Shape& start_indices,
                                 const GatherDimensionNumbers& numbers,
                                 const std::vector<int64_t>& slice_sizes);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_SHAPE_INFERENCE_H_
