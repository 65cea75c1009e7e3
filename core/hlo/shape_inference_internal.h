// The parts of shape inference shared between the files of its op families
// (shape_inference_*.cc): the checks every family uses and the rule of each
// op that InferShape dispatches to. Internal to core/hlo.
#ifndef POLYHAL_CORE_HLO_SHAPE_INFERENCE_INTERNAL_H_
#define POLYHAL_CORE_HLO_SHAPE_INFERENCE_INTERNAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/computation.h"
#include "core/hlo/instruction.h"
#include "core/hlo/shape.h"
#include "core/hlo/shape_inference.h"
#include "sdk/base/status.h"

namespace phal::shape_inference_internal {

// Checks shared by every family, and of called computations
// (shape_inference_checks.cc).
Status Fail(std::string message);
std::string TypeName(ElementType type);
Status ExpectArray(const Shape& shape, const std::string& what);
Status ExpectScalar(const Shape& shape, const std::string& what);
Status ExpectOperandCount(const HloInstruction& instruction, int64_t count);
Status ExpectSameElementType(const Shape& a, const Shape& b,
                             const std::string& what);
Status ExpectDimensionList(const std::vector<int64_t>& dims, int64_t bound,
                           const std::string& what, bool sorted = false);
bool AddOverflows(int64_t a, int64_t b, int64_t* out);
bool MultiplyOverflows(int64_t a, int64_t b, int64_t* out);
bool Contains(const std::vector<int64_t>& values, int64_t value);
Status ExpectDisjoint(const std::vector<int64_t>& a, const std::string& a_name,
                      const std::vector<int64_t>& b, const std::string& b_name);
std::vector<Shape> OperandShapes(const HloInstruction& instruction);
Status ExpectCallee(const HloComputation* callee, const std::string& role);
Status ExpectSignature(const HloComputation* callee, const std::string& role,
                       const std::vector<Shape>& parameters,
                       const Shape* result);
Status ExpectReducer(const HloComputation* callee, const std::string& role,
                     const std::vector<ElementType>& types);
Status ExpectInputsAndInits(const HloInstruction& instruction,
                            std::vector<Shape>* inputs,
                            std::vector<Shape>* inits);
Shape ArrayOrTuple(std::vector<Shape> shapes);
std::vector<ElementType> ElementTypes(const std::vector<Shape>& shapes);

// Elementwise ops (shape_inference_elementwise.cc).
bool IsNumeric(ElementType type);
StatusOr<Shape> InferUnaryShape(HloOpcode opcode, const Shape& operand);
Status CheckComparison(const HloInstruction& compare);
StatusOr<Shape> InferSelectShape(const Shape& predicate, const Shape& on_true,
                                 const Shape& on_false);
StatusOr<Shape> InferClampShape(const Shape& min, const Shape& operand,
                                const Shape& max);
StatusOr<Shape> InferConvertShape(const Shape& operand, const Shape& stated);
StatusOr<Shape> InferBitcastConvertShape(const Shape& operand,
                                         const Shape& stated);
StatusOr<Shape> InferReducePrecisionShape(const HloInstruction& instruction);

// Data movement (shape_inference_data_movement.cc).
StatusOr<Shape> InferBroadcastShape(const Shape& operand, const Shape& stated,
                                    const std::vector<int64_t>& dimensions);
StatusOr<Shape> InferReshapeShape(const Shape& operand, const Shape& stated);
StatusOr<Shape> InferBitcastShape(const Shape& operand, const Shape& stated);
StatusOr<Shape> InferDynamicSliceShape(const std::vector<Shape>& operands,
                                       const std::vector<int64_t>& sizes);
StatusOr<Shape> InferDynamicUpdateSliceShape(
    const std::vector<Shape>& operands);
StatusOr<Shape> InferReverseShape(const Shape& operand,
                                  const std::vector<int64_t>& dimensions);
StatusOr<Shape> InferGetTupleElementShape(const Shape& operand, int64_t index);
StatusOr<Shape> InferIotaShape(const Shape& stated, int64_t dimension);

// Gather and scatter (shape_inference_gather_scatter.cc).
StatusOr<Shape> InferScatterShape(const HloInstruction& scatter);

// Reductions (shape_inference_reduce.cc).
StatusOr<Shape> InferReduceShape(const HloInstruction& reduce);
StatusOr<Shape> InferReduceWindowShape(const HloInstruction& reduce_window);
StatusOr<Shape> InferSelectAndScatterShape(const HloInstruction& instruction);

// Sort and top-k (shape_inference_sort.cc).
StatusOr<Shape> InferTopKShape(const HloInstruction& topk);
StatusOr<Shape> InferSortShape(const HloInstruction& sort);

// FFT (shape_inference_fft.cc).
StatusOr<Shape> InferFftShape(const HloInstruction& fft);
StatusOr<Shape> InferLinearAlgebraShape(const HloInstruction& instruction);

// Control flow and calls (shape_inference_control_flow.cc).
StatusOr<Shape> InferWhileShape(const HloInstruction& loop);
StatusOr<Shape> InferConditionalShape(const HloInstruction& conditional);
StatusOr<Shape> InferCallShape(const HloInstruction& call);
StatusOr<Shape> InferMapShape(const HloInstruction& map);

// Batch normalization (shape_inference_batch_norm.cc).
StatusOr<Shape> InferBatchNormShape(const HloInstruction& batch_norm);

}  // namespace phal::shape_inference_internal

#endif  // POLYHAL_CORE_HLO_SHAPE_INFERENCE_INTERNAL_H_
