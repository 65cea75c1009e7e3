// Quantized types in the StableHLO lowering: the helpers of
// quantized_lowering.h and StableHloLowering's quantized ops.
#include "core/frontend/quantized_lowering.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "core/frontend/stablehlo_lowering_context.h"

namespace phal {
namespace {

const QuantizedType* QuantizedTypeOf(
    const std::map<const HloInstruction*, EmulatedType>& emulated,
    const HloInstruction* value) {
  const auto found = emulated.find(value);
  return found == emulated.end() ? nullptr : found->second.quantized.get();
}

const QuantizedType* ResultQuantizedType(const MlirOperation& op,
                                         std::size_t index) {
  return index < op.result_emulated.size()
             ? op.result_emulated[index].quantized.get()
             : nullptr;
}

std::vector<double> ZeroPointsAsDoubles(const QuantizedType& type) {
  return std::vector<double>(type.zero_points.begin(), type.zero_points.end());
}

bool HasZeroPoints(const QuantizedType& type) {
  return std::any_of(type.zero_points.begin(), type.zero_points.end(),
                     [](int64_t zero_point) { return zero_point != 0; });
}

// The largest |storage - zero_point| of the type.
int64_t LargestOffset(const QuantizedType& type) {
  int64_t largest = 0;
  for (int64_t zero_point : type.zero_points) {
    largest = std::max({largest, std::abs(type.storage_min - zero_point),
                        std::abs(type.storage_max - zero_point)});
  }
  return largest;
}

// Ops that only move, select or carry values: on quantized operands whose
// parameters agree with the result's they move the storage values.
bool MovesValues(const std::string& name) {
  static const std::set<std::string> kOps = {"constant",
                                             "bitcast_convert",
                                             "broadcast_in_dim",
                                             "broadcast",
                                             "reshape",
                                             "dynamic_reshape",
                                             "transpose",
                                             "reverse",
                                             "slice",
                                             "dynamic_slice",
                                             "dynamic_update_slice",
                                             "pad",
                                             "concatenate",
                                             "gather",
                                             "select"};
  return kOps.count(name) > 0;
}

// Ops that carry values of any types through unchanged.
bool CarriesValues(const std::string& name) {
  static const std::set<std::string> kOps = {"tuple",
                                             "get_tuple_element",
                                             "optimization_barrier",
                                             "while",
                                             "if",
                                             "case",
                                             "func.call",
                                             "call"};
  return kOps.count(name) > 0;
}

// Whether the op's regions take quantized block arguments of its quantized
// operands' parameters, so that the op runs on storage values and each op
// of its regions is itself a quantized op. Regions that take a promoted
// type (an i8 reduction into an i32 accumulator) or plain values do not.
bool RegionsTakeOperandTypes(
    const std::map<const HloInstruction*, EmulatedType>& emulated,
    const MlirOperation& op, const Values& operands) {
  std::vector<const QuantizedType*> types;
  for (const HloInstruction* operand : operands) {
    if (const QuantizedType* type = QuantizedTypeOf(emulated, operand))
      types.push_back(type);
  }
  std::vector<const QuantizedType*> taken;
  for (const MlirRegion& region : op.regions) {
    const std::size_t before = taken.size();
    for (const MlirBlockArgument& argument : region.arguments) {
      if (argument.emulated.quantized != nullptr)
        taken.push_back(argument.emulated.quantized.get());
    }
    if (taken.size() == before) return false;
  }
  // Each quantized operand meets a block argument of its parameters, and
  // each quantized block argument an operand of its.
  const auto all_met = [](const std::vector<const QuantizedType*>& these,
                          const std::vector<const QuantizedType*>& those) {
    return std::all_of(these.begin(), these.end(), [&](const auto* type) {
      return std::any_of(those.begin(), those.end(), [&](const auto* other) {
        return other->SameParameters(*type);
      });
    });
  };
  return all_met(types, taken) && all_met(taken, types);
}

}  // namespace

StatusOr<HloInstruction*> QuantizationParameterTensor(
    HloBuilder& builder, const std::vector<double>& values,
    ElementType element_type, const std::vector<int64_t>& dims,
    int64_t dimension) {
  if (dimension < 0) {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * scalar,
        builder.ScalarConstant(element_type, values.empty() ? 0 : values[0]));
    return builder.Broadcast(scalar, dims, {});
  }
  Literal literal(Shape(element_type, {static_cast<int64_t>(values.size())}));
  for (std::size_t i = 0; i < values.size(); ++i)
    literal.SetFromDouble(static_cast<int64_t>(i), values[i]);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * vector,
                        builder.Constant(std::move(literal)));
  return builder.Broadcast(vector, dims, {dimension});
}

StatusOr<HloInstruction*> DequantizeValues(HloBuilder& builder,
                                           HloInstruction* storage,
                                           const QuantizedType& type) {
  const std::vector<int64_t> dims = storage->shape().dims();
  HloInstruction* offset = storage;
  if (HasZeroPoints(type)) {
    const ElementType wide =
        type.storage_bits < 32 ? PHAL_ELEMENT_TYPE_S32 : PHAL_ELEMENT_TYPE_S64;
    PHAL_ASSIGN_OR_RETURN(HloInstruction * widened,
                          builder.Convert(storage, wide));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * zero_points,
        QuantizationParameterTensor(builder, ZeroPointsAsDoubles(type), wide,
                                    dims, type.quantization_dimension));
    PHAL_ASSIGN_OR_RETURN(
        offset, builder.Binary(HloOpcode::kSubtract, widened, zero_points));
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * expressed,
                        builder.Convert(offset, type.expressed));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * scales,
      QuantizationParameterTensor(builder, type.scales, type.expressed, dims,
                                  type.quantization_dimension));
  return builder.Binary(HloOpcode::kMultiply, expressed, scales);
}

StatusOr<HloInstruction*> QuantizeValues(HloBuilder& builder,
                                         HloInstruction* value,
                                         const QuantizedType& type) {
  const std::vector<int64_t> dims = value->shape().dims();
  if (!IsFloat(value->shape().element_type())) {
    return InvalidArgument("only floating-point values can be quantized to " +
                           type.ToString() + ", got " +
                           ElementTypeName(value->shape().element_type()));
  }
  if (value->shape().element_type() != type.expressed) {
    PHAL_ASSIGN_OR_RETURN(value, builder.Convert(value, type.expressed));
  }
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * scales,
      QuantizationParameterTensor(builder, type.scales, type.expressed, dims,
                                  type.quantization_dimension));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * scaled,
                        builder.Binary(HloOpcode::kDivide, value, scales));
  if (HasZeroPoints(type)) {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * zero_points,
        QuantizationParameterTensor(builder, ZeroPointsAsDoubles(type),
                                    type.expressed, dims,
                                    type.quantization_dimension));
    PHAL_ASSIGN_OR_RETURN(scaled,
                          builder.Binary(HloOpcode::kAdd, scaled, zero_points));
  }
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * lowest,
      builder.FullLike(scaled, static_cast<double>(type.storage_min)));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * highest,
      builder.FullLike(scaled, static_cast<double>(type.storage_max)));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * clamped,
                        builder.Add(builder.Create(HloOpcode::kClamp, Shape(),
                                                   {lowest, scaled, highest})));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * rounded,
                        builder.Unary(HloOpcode::kRoundNearestEven, clamped));
  return builder.Convert(rounded, type.storage);
}

bool StableHloLowering::InvolvesQuantizedType(const MlirOperation& op,
                                              const Values& operands) const {
  for (std::size_t i = 0; i < op.result_emulated.size(); ++i) {
    if (ResultQuantizedType(op, i) != nullptr) return true;
  }
  return std::any_of(operands.begin(), operands.end(),
                     [&](const HloInstruction* operand) {
                       return QuantizedTypeOf(emulated_, operand) != nullptr;
                     });
}

StatusOr<Values> StableHloLowering::LowerQuantizedOp(const MlirOperation& op,
                                                     LoweringScope& scope,
                                                     const Values& operands) {
  HloBuilder& b = *scope.builder;
  const std::string prefix = "stablehlo.";
  const std::string name =
      op.name.rfind(prefix, 0) == 0 ? op.name.substr(prefix.size()) : op.name;
  if (CarriesValues(name)) {
    if (name == "func.call" || name == "call") {
      const MlirAttribute* callee = op.Attribute("callee");
      if (callee == nullptr) return InvalidArgument("missing the callee");
      return LowerCall(op, scope, operands, callee->text);
    }
    return LowerStableHloOp(name, op, scope, operands);
  }
  const QuantizedType* operand_type =
      operands.empty() ? nullptr : QuantizedTypeOf(emulated_, operands[0]);
  const QuantizedType* result_type = ResultQuantizedType(op, 0);
  if (name == "uniform_quantize") {
    if (operands.size() != 1) return InvalidArgument("expects one operand");
    if (result_type == nullptr)
      return InvalidArgument("the result type must be quantized");
    HloInstruction* value = operands[0];
    if (operand_type != nullptr) {
      PHAL_ASSIGN_OR_RETURN(value, DequantizeValues(b, value, *operand_type));
    }
    PHAL_ASSIGN_OR_RETURN(HloInstruction * quantized,
                          QuantizeValues(b, value, *result_type));
    return Values{quantized};
  }
  if (name == "uniform_dequantize") {
    if (operands.size() != 1) return InvalidArgument("expects one operand");
    if (operand_type == nullptr)
      return InvalidArgument("the operand must be quantized");
    PHAL_ASSIGN_OR_RETURN(HloInstruction * value,
                          DequantizeValues(b, operands[0], *operand_type));
    return Values{value};
  }
  if (!op.regions.empty()) {
    if (RegionsTakeOperandTypes(emulated_, op, operands))
      return LowerStableHloOp(name, op, scope, operands);
    return Unimplemented(
        "the regions of an op with quantized operands must take the "
        "operands' quantized types (promoted or plain types are not "
        "supported)");
  }
  if (MovesValues(name)) {
    // bitcast_convert reinterprets storage values; the other ops move them
    // when every quantized operand and result has the same parameters.
    bool same = true;
    const QuantizedType* first = result_type;
    for (const HloInstruction* operand : operands) {
      const QuantizedType* type = QuantizedTypeOf(emulated_, operand);
      if (type == nullptr) continue;
      if (first == nullptr) first = type;
      same = same && type->SameParameters(*first);
    }
    if (name == "bitcast_convert" || (same && result_type != nullptr))
      return LowerStableHloOp(name, op, scope, operands);
  }
  if (name == "dot" || name == "dot_general" || name == "convolution") {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * result,
        LowerIntegerDotOrConvolution(name, op, scope, operands));
    if (result != nullptr) return Values{result};
  }
  return LowerDequantizeOpQuantize(name, op, scope, operands);
}

StatusOr<HloInstruction*> StableHloLowering::LowerIntegerDotOrConvolution(
    const std::string& name, const MlirOperation& op, LoweringScope& scope,
    const Values& operands) {
  HloBuilder& b = *scope.builder;
  if (operands.size() != 2) return InvalidArgument("expects two operands");
  const QuantizedType* lhs = QuantizedTypeOf(emulated_, operands[0]);
  const QuantizedType* rhs = QuantizedTypeOf(emulated_, operands[1]);
  const QuantizedType* result = ResultQuantizedType(op, 0);
  if (lhs == nullptr || rhs == nullptr || lhs->IsPerAxis() ||
      lhs->expressed != rhs->expressed ||
      (result != nullptr && result->expressed != lhs->expressed) ||
      op.result_types.empty()) {
    return nullptr;
  }
  // The integer operands: storage values less their zero points, in s32
  // unless both are zero-point-free values of one storage type, which the
  // dot or convolution then reads as they are (s8 x s8 -> s32).
  const bool direct = !HasZeroPoints(*lhs) && !HasZeroPoints(*rhs) &&
                      lhs->storage == rhs->storage && lhs->storage_bits < 32;
  Values integers = operands;
  if (!direct) {
    const QuantizedType* types[2] = {lhs, rhs};
    for (int i = 0; i < 2; ++i) {
      const ElementType wide = types[i]->storage_bits < 32
                                   ? PHAL_ELEMENT_TYPE_S32
                                   : PHAL_ELEMENT_TYPE_S64;
      PHAL_ASSIGN_OR_RETURN(integers[i], b.Convert(operands[i], wide));
      if (!HasZeroPoints(*types[i])) continue;
      PHAL_ASSIGN_OR_RETURN(
          HloInstruction * zero_points,
          QuantizationParameterTensor(b, ZeroPointsAsDoubles(*types[i]), wide,
                                      operands[i]->shape().dims(),
                                      types[i]->quantization_dimension));
      PHAL_ASSIGN_OR_RETURN(integers[i], b.Binary(HloOpcode::kSubtract,
                                                  integers[i], zero_points));
    }
    if (integers[0]->shape().element_type() !=
        integers[1]->shape().element_type()) {
      for (HloInstruction*& integer : integers) {
        PHAL_ASSIGN_OR_RETURN(integer,
                              b.Convert(integer, PHAL_ELEMENT_TYPE_S64));
      }
    }
  }
  MlirOperation integer_op = op;
  const std::vector<int64_t> result_dims = op.result_types[0].dims();
  integer_op.result_types[0] = Shape(PHAL_ELEMENT_TYPE_S32, result_dims);
  integer_op.result_emulated.clear();
  PHAL_ASSIGN_OR_RETURN(Values accumulated,
                        LowerStableHloOp(name, integer_op, scope, integers));
  HloInstruction* sum = accumulated[0];
  // The terms each output element adds, and the result dimension a
  // per-axis rhs's scales apply along.
  int64_t terms = 1;
  int64_t scale_dimension = -1;
  const Shape& rhs_shape = operands[1]->shape();
  if (sum->opcode() == HloOpcode::kDot) {
    const DotDimensionNumbers& numbers = sum->dot_dimension_numbers();
    for (int64_t d : numbers.rhs_contracting_dimensions)
      terms *= rhs_shape.dim(d);
    if (rhs->IsPerAxis()) {
      const int64_t axis = rhs->quantization_dimension;
      const auto& batch = numbers.rhs_batch_dimensions;
      const auto& contracting = numbers.rhs_contracting_dimensions;
      const auto in = [](const std::vector<int64_t>& list, int64_t d) {
        return std::find(list.begin(), list.end(), d) != list.end();
      };
      if (in(contracting, axis)) return nullptr;
      const auto batch_position = std::find(batch.begin(), batch.end(), axis);
      if (batch_position != batch.end()) {
        scale_dimension = batch_position - batch.begin();
      } else {
        const int64_t lhs_free =
            operands[0]->shape().rank() -
            static_cast<int64_t>(batch.size() +
                                 numbers.lhs_contracting_dimensions.size());
        int64_t before = 0;
        for (int64_t d = 0; d < axis; ++d)
          before += in(batch, d) || in(contracting, d) ? 0 : 1;
        scale_dimension =
            static_cast<int64_t>(batch.size()) + lhs_free + before;
      }
    }
  } else if (sum->opcode() == HloOpcode::kConvolution) {
    const ConvolutionDimensionNumbers& numbers =
        sum->convolution_dimension_numbers();
    terms = rhs_shape.ElementCount() /
            std::max<int64_t>(
                1, rhs_shape.dim(numbers.kernel_output_feature_dimension));
    if (rhs->IsPerAxis()) {
      if (rhs->quantization_dimension !=
          numbers.kernel_output_feature_dimension) {
        return nullptr;
      }
      scale_dimension = numbers.output_feature_dimension;
    }
  } else {
    return nullptr;
  }
  if (result != nullptr && result->IsPerAxis() &&
      result->quantization_dimension != scale_dimension) {
    return nullptr;
  }
  // Exact in s32 while no sum can reach 2^31; s64 beyond.
  const double bound = static_cast<double>(terms) *
                       static_cast<double>(LargestOffset(*lhs)) *
                       static_cast<double>(LargestOffset(*rhs));
  if (bound > static_cast<double>(std::numeric_limits<int32_t>::max())) {
    sum->mutable_shape() = Shape(PHAL_ELEMENT_TYPE_S64, result_dims);
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * expressed,
                        b.Convert(sum, lhs->expressed));
  std::vector<double> scales;
  for (double scale : rhs->scales) scales.push_back(lhs->scales[0] * scale);
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * scale_tensor,
      QuantizationParameterTensor(b, scales, lhs->expressed, result_dims,
                                  scale_dimension));
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * value,
      b.Binary(HloOpcode::kMultiply, expressed, scale_tensor));
  if (result == nullptr) return value;
  return QuantizeValues(b, value, *result);
}

StatusOr<Values> StableHloLowering::LowerDequantizeOpQuantize(
    const std::string& name, const MlirOperation& op, LoweringScope& scope,
    const Values& operands) {
  HloBuilder& b = *scope.builder;
  Values expressed = operands;
  MlirOperation float_op = op;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const QuantizedType* type = QuantizedTypeOf(emulated_, operands[i]);
    if (type == nullptr) continue;
    PHAL_ASSIGN_OR_RETURN(expressed[i],
                          DequantizeValues(b, operands[i], *type));
    if (i < float_op.operand_types.size()) {
      float_op.operand_types[i] =
          Shape(type->expressed, float_op.operand_types[i].dims());
    }
  }
  for (std::size_t i = 0; i < float_op.result_types.size(); ++i) {
    const QuantizedType* type = ResultQuantizedType(op, i);
    if (type == nullptr) continue;
    float_op.result_types[i] =
        Shape(type->expressed, float_op.result_types[i].dims());
  }
  float_op.result_emulated.clear();
  StatusOr<Values> results =
      name.rfind("chlo.", 0) == 0
          ? LowerChlo(float_op, scope, expressed)
          : LowerStableHloOp(name, float_op, scope, expressed);
  if (!results.ok()) return results.status();
  for (std::size_t i = 0; i < results->size(); ++i) {
    const QuantizedType* type = ResultQuantizedType(op, i);
    if (type == nullptr) continue;
    PHAL_ASSIGN_OR_RETURN((*results)[i],
                          QuantizeValues(b, (*results)[i], *type));
  }
  return results;
}

}  // namespace phal
