// The per-op part of the StableHLO lowering: what each stablehlo, chlo and
// func op becomes in HLO.
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/frontend/chlo_decompositions.h"
#include "core/frontend/dense_elements.h"
#include "core/frontend/narrow_integers.h"
#include "core/frontend/ragged_dot.h"
#include "core/frontend/stablehlo_lowering_context.h"

namespace phal {
namespace {

using AK = MlirAttribute::Kind;
using IntList = std::vector<int64_t>;

const std::map<std::string, HloOpcode>& ElementwiseOps() {
  static const auto* ops = new std::map<std::string, HloOpcode>{
      {"abs", HloOpcode::kAbs},
      {"cbrt", HloOpcode::kCbrt},
      {"ceil", HloOpcode::kCeil},
      {"count_leading_zeros", HloOpcode::kClz},
      {"cosine", HloOpcode::kCos},
      {"exponential", HloOpcode::kExp},
      {"exponential_minus_one", HloOpcode::kExpm1},
      {"floor", HloOpcode::kFloor},
      {"imag", HloOpcode::kImag},
      {"is_finite", HloOpcode::kIsFinite},
      {"log", HloOpcode::kLog},
      {"log_plus_one", HloOpcode::kLog1p},
      {"logistic", HloOpcode::kLogistic},
      {"negate", HloOpcode::kNegate},
      {"not", HloOpcode::kNot},
      {"popcnt", HloOpcode::kPopulationCount},
      {"real", HloOpcode::kReal},
      {"round_nearest_afz", HloOpcode::kRoundNearestAfz},
      {"round_nearest_even", HloOpcode::kRoundNearestEven},
      {"rsqrt", HloOpcode::kRsqrt},
      {"sign", HloOpcode::kSign},
      {"sine", HloOpcode::kSin},
      {"sqrt", HloOpcode::kSqrt},
      {"tan", HloOpcode::kTan},
      {"tanh", HloOpcode::kTanh},
      {"add", HloOpcode::kAdd},
      {"and", HloOpcode::kAnd},
      {"atan2", HloOpcode::kAtan2},
      {"complex", HloOpcode::kComplex},
      {"divide", HloOpcode::kDivide},
      {"maximum", HloOpcode::kMaximum},
      {"minimum", HloOpcode::kMinimum},
      {"multiply", HloOpcode::kMultiply},
      {"or", HloOpcode::kOr},
      {"power", HloOpcode::kPower},
      {"remainder", HloOpcode::kRemainder},
      {"shift_left", HloOpcode::kShiftLeft},
      {"shift_right_arithmetic", HloOpcode::kShiftRightArithmetic},
      {"shift_right_logical", HloOpcode::kShiftRightLogical},
      {"subtract", HloOpcode::kSubtract},
      {"xor", HloOpcode::kXor},
      {"select", HloOpcode::kSelect},
      {"clamp", HloOpcode::kClamp},
  };
  return *ops;
}

// Ops that exist in StableHLO but have no counterpart in the HLO IR, with
// the reason shown to the user.
const std::map<std::string, std::string>& UnsupportedOps() {
  static const auto* ops = new std::map<std::string, std::string>{
      {"send", "host transfers need the queues of interpreter.run_parallel"},
      {"recv", "host transfers need the queues of interpreter.run_parallel"},
      {"infeed", "host transfers need the queues of interpreter.run_parallel"},
      {"outfeed", "host transfers need the queues of interpreter.run_parallel"},
      {"rng", "random number generation is not supported"},
      {"rng_bit_generator", "random number generation is not supported"},
  };
  return *ops;
}

bool IsCollectiveOpName(const std::string& name) {
  static const auto* names = new std::set<std::string>{
      "all_gather",           "all_reduce",         "all_to_all",
      "collective_broadcast", "collective_permute", "partition_id",
      "reduce_scatter",       "replica_id"};
  return names->count(name) > 0;
}

void FlattenDenseIntegers(const DenseElements& elements, IntList* out) {
  switch (elements.kind) {
    case DenseElements::Kind::kList:
      for (const DenseElements& element : elements.elements)
        FlattenDenseIntegers(element, out);
      return;
    case DenseElements::Kind::kBool:
      out->push_back(elements.boolean ? 1 : 0);
      return;
    case DenseElements::Kind::kInteger:
      out->push_back(
          SignedFromMagnitude(elements.integer_bits, elements.negative));
      return;
    default:
      return;
  }
}

// The integers of an array-like attribute: array<i64: ...>, [1, 2],
// [true, false] or dense<[...]> (a splat dense gives one value).
std::optional<IntList> AsInts(const MlirAttribute& attribute) {
  IntList ints;
  switch (attribute.kind) {
    case AK::kDenseArray:
      return attribute.integers;
    case AK::kArray:
      for (const MlirAttribute& element : attribute.elements) {
        if (element.kind == AK::kArray) {
          std::optional<IntList> nested = AsInts(element);
          if (!nested.has_value()) return std::nullopt;
          ints.insert(ints.end(), nested->begin(), nested->end());
        } else if (element.kind == AK::kInteger || element.kind == AK::kBool) {
          ints.push_back(element.integer);
        } else {
          return std::nullopt;
        }
      }
      return ints;
    case AK::kDenseElements:
      FlattenDenseIntegers(attribute.dense, &ints);
      if (attribute.has_type &&
          attribute.dense.kind != DenseElements::Kind::kList &&
          attribute.type.ElementCount() > 1 && ints.size() == 1) {
        ints.assign(static_cast<std::size_t>(attribute.type.ElementCount()),
                    ints[0]);
      }
      return ints;
    case AK::kInteger:
    case AK::kBool:
      return IntList{attribute.integer};
    default:
      return std::nullopt;
  }
}

const MlirAttribute* Find(const MlirOperation& op,
                          std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (const MlirAttribute* attribute = op.Attribute(name)) return attribute;
  }
  return nullptr;
}

StatusOr<IntList> Ints(const MlirOperation& op,
                       std::initializer_list<const char*> names) {
  const MlirAttribute* attribute = Find(op, names);
  if (attribute == nullptr)
    return InvalidArgument(std::string("missing attribute ") + *names.begin());
  std::optional<IntList> ints = AsInts(*attribute);
  if (!ints.has_value()) {
    return InvalidArgument(std::string("attribute ") + *names.begin() +
                           " must be a list of integers");
  }
  return *ints;
}

IntList IntsOr(const MlirOperation& op,
               std::initializer_list<const char*> names, IntList fallback) {
  const MlirAttribute* attribute = Find(op, names);
  if (attribute == nullptr) return fallback;
  std::optional<IntList> ints = AsInts(*attribute);
  return ints.has_value() ? *ints : fallback;
}

int64_t IntOr(const MlirOperation& op, std::initializer_list<const char*> names,
              int64_t fallback) {
  const MlirAttribute* attribute = Find(op, names);
  if (attribute == nullptr) return fallback;
  if (attribute->kind == AK::kInteger || attribute->kind == AK::kBool)
    return attribute->integer;
  std::optional<IntList> ints = AsInts(*attribute);
  return ints.has_value() && ints->size() == 1 ? (*ints)[0] : fallback;
}

bool BoolOr(const MlirOperation& op, const char* name, bool fallback) {
  const MlirAttribute* attribute = op.Attribute(name);
  if (attribute == nullptr) return fallback;
  return attribute->kind == AK::kUnit || attribute->integer != 0;
}

// The word of an enum attribute: LT in "LT", #stablehlo<comparison_direction
// LT> or #stablehlo.comparison_direction<LT>.
std::string EnumWord(const MlirAttribute& attribute) {
  if (attribute.kind == AK::kKeyword) return attribute.text;
  if (attribute.kind == AK::kDialect && !attribute.elements.empty()) {
    return EnumWord(attribute.elements.back());
  }
  return "";
}

// Pairs (low, high) per dimension from a dense<[[l, h], ...]> or
// [[l, h], ...] padding attribute; `rank` zero pairs when absent.
StatusOr<std::vector<std::pair<int64_t, int64_t>>> Padding(
    const MlirAttribute* attribute, std::size_t rank) {
  std::vector<std::pair<int64_t, int64_t>> pairs(rank, {0, 0});
  if (attribute == nullptr) return pairs;
  std::optional<IntList> ints = AsInts(*attribute);
  if (!ints.has_value() || ints->size() != 2 * rank) {
    return InvalidArgument("padding must hold a (low, high) pair for each of " +
                           std::to_string(rank) + " dimensions");
  }
  for (std::size_t i = 0; i < rank; ++i)
    pairs[i] = {(*ints)[2 * i], (*ints)[2 * i + 1]};
  return pairs;
}

IntList FieldInts(const MlirAttribute& dialect, const char* name) {
  const MlirAttribute* field = dialect.Field(name);
  if (field == nullptr) return {};
  std::optional<IntList> ints = AsInts(*field);
  return ints.has_value() ? *ints : IntList{};
}

RaggedDotDimensionNumbers RaggedDotNumbers(const MlirAttribute& dialect) {
  RaggedDotDimensionNumbers numbers;
  numbers.dot.lhs_batch_dimensions =
      FieldInts(dialect, "lhs_batching_dimensions");
  numbers.dot.rhs_batch_dimensions =
      FieldInts(dialect, "rhs_batching_dimensions");
  numbers.dot.lhs_contracting_dimensions =
      FieldInts(dialect, "lhs_contracting_dimensions");
  numbers.dot.rhs_contracting_dimensions =
      FieldInts(dialect, "rhs_contracting_dimensions");
  numbers.lhs_ragged_dimensions = FieldInts(dialect, "lhs_ragged_dimensions");
  numbers.rhs_group_dimensions = FieldInts(dialect, "rhs_group_dimensions");
  return numbers;
}

int64_t FieldInt(const MlirAttribute& dialect, const char* name) {
  const MlirAttribute* field = dialect.Field(name);
  return field == nullptr ? 0 : field->integer;
}

StatusOr<ComparisonDirection> Direction(const MlirOperation& op) {
  std::string word = op.keywords.empty() ? "" : op.keywords[0];
  if (const MlirAttribute* attribute = Find(op, {"comparison_direction"}))
    word = EnumWord(*attribute);
  std::optional<ComparisonDirection> direction =
      ComparisonDirectionFromName(word);
  if (!direction.has_value())
    return InvalidArgument("unknown comparison direction '" + word + "'");
  return *direction;
}

StatusOr<ComparisonType> CompareType(const MlirOperation& op) {
  std::string word = op.keywords.size() > 1 ? op.keywords[1] : "";
  if (const MlirAttribute* attribute =
          Find(op, {"compare_type", "comparison_type"})) {
    word = EnumWord(*attribute);
  }
  if (word.empty() || word == "NOTYPE") return ComparisonType::kDefault;
  std::optional<ComparisonType> type = ComparisonTypeFromName(word);
  if (!type.has_value())
    return InvalidArgument("unknown comparison type '" + word + "'");
  return *type;
}

StatusOr<IntList> ConstantInts(const HloInstruction* value, const char* what) {
  if (value->opcode() != HloOpcode::kConstant) {
    return InvalidArgument(
        std::string("the ") + what +
        " operand must be a constant: only static shapes are supported");
  }
  IntList ints;
  for (int64_t i = 0; i < value->literal().ElementCount(); ++i) {
    ints.push_back(value->literal().GetAsInt64(i));
  }
  return ints;
}

StatusOr<ConvolutionDimensionNumbers> ConvolutionNumbers(
    const MlirAttribute& attribute) {
  ConvolutionDimensionNumbers numbers;
  const MlirAttribute* labels = nullptr;
  if (attribute.kind == AK::kConvDimensions) labels = &attribute;
  if (attribute.kind == AK::kDialect && !attribute.elements.empty() &&
      attribute.elements[0].kind == AK::kConvDimensions) {
    labels = &attribute.elements[0];
  }
  if (labels == nullptr) {
    numbers.input_batch_dimension =
        FieldInt(attribute, "input_batch_dimension");
    numbers.input_feature_dimension =
        FieldInt(attribute, "input_feature_dimension");
    numbers.input_spatial_dimensions =
        FieldInts(attribute, "input_spatial_dimensions");
    numbers.kernel_input_feature_dimension =
        FieldInt(attribute, "kernel_input_feature_dimension");
    numbers.kernel_output_feature_dimension =
        FieldInt(attribute, "kernel_output_feature_dimension");
    numbers.kernel_spatial_dimensions =
        FieldInts(attribute, "kernel_spatial_dimensions");
    numbers.output_batch_dimension =
        FieldInt(attribute, "output_batch_dimension");
    numbers.output_feature_dimension =
        FieldInt(attribute, "output_feature_dimension");
    numbers.output_spatial_dimensions =
        FieldInts(attribute, "output_spatial_dimensions");
    return numbers;
  }
  if (labels->elements.size() != 3)
    return InvalidArgument("malformed convolution dimension numbers");
  struct Roles {
    int64_t* first;
    const char* first_label;
    int64_t* second;
    const char* second_label;
    IntList* spatial;
  };
  const Roles roles[3] = {
      {&numbers.input_batch_dimension, "b", &numbers.input_feature_dimension,
       "f", &numbers.input_spatial_dimensions},
      {&numbers.kernel_input_feature_dimension, "i",
       &numbers.kernel_output_feature_dimension, "o",
       &numbers.kernel_spatial_dimensions},
      {&numbers.output_batch_dimension, "b", &numbers.output_feature_dimension,
       "f", &numbers.output_spatial_dimensions},
  };
  for (int part = 0; part < 3; ++part) {
    const MlirAttribute& list =
        labels->elements[static_cast<std::size_t>(part)];
    const Roles& role = roles[part];
    role.spatial->assign(
        list.elements.size() >= 2 ? list.elements.size() - 2 : 0, -1);
    for (std::size_t position = 0; position < list.elements.size();
         ++position) {
      const MlirAttribute& label = list.elements[position];
      const auto index = static_cast<int64_t>(position);
      if (label.kind == AK::kKeyword && label.text == role.first_label) {
        *role.first = index;
      } else if (label.kind == AK::kKeyword &&
                 label.text == role.second_label) {
        *role.second = index;
      } else if (label.kind == AK::kInteger && label.integer >= 0 &&
                 label.integer < static_cast<int64_t>(role.spatial->size())) {
        (*role.spatial)[static_cast<std::size_t>(label.integer)] = index;
      } else {
        return InvalidArgument(
            "unexpected label in convolution dimension numbers");
      }
    }
  }
  return numbers;
}

StatusOr<Values> One(StatusOr<HloInstruction*> value) {
  if (!value.ok()) return value.status();
  return Values{*value};
}

Status OperandCount(const Values& operands, std::size_t count) {
  if (operands.size() == count) return OkStatus();
  return InvalidArgument("expects " + std::to_string(count) +
                         " operands, got " + std::to_string(operands.size()));
}

// For ops whose dynamic_ forms add shape operands after the first.
Status HasOperand(const Values& operands) {
  if (!operands.empty()) return OkStatus();
  return InvalidArgument("expects an operand, got none");
}

}  // namespace

StatusOr<Shape> StableHloLowering::ResultType(const MlirOperation& op,
                                              std::size_t index) const {
  if (index >= op.result_types.size()) {
    return InvalidArgument(
        "the result type is missing from the op's signature");
  }
  return op.result_types[index];
}

StatusOr<Literal> StableHloLowering::AttributeLiteral(
    const MlirAttribute& attribute, const Shape& type) const {
  if (attribute.kind != AK::kDenseElements) {
    return InvalidArgument("expected a dense<...> value");
  }
  return DenseElementsToLiteral(attribute.dense,
                                attribute.has_type ? attribute.type : type,
                                source_, attribute.emulated.minifloat);
}

StatusOr<Values> StableHloLowering::LowerValueOp(const MlirOperation& op,
                                                 LoweringScope& scope) {
  PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
  if (InvolvesQuantizedType(op, operands))
    return LowerQuantizedOp(op, scope, operands);
  if (op.name == "chlo.scan") return LowerScan(op, scope, operands);
  if (op.name.rfind("chlo.", 0) == 0) return LowerChlo(op, scope, operands);
  if (op.name == "interpreter.run_parallel")
    return LowerRunParallel(op, scope, operands);
  if (op.name == "func.call" || op.name == "call") {
    const MlirAttribute* callee = op.Attribute("callee");
    if (callee == nullptr) return InvalidArgument("missing the callee");
    return LowerCall(op, scope, operands, callee->text);
  }
  const std::string prefix = "stablehlo.";
  if (op.name.rfind(prefix, 0) != 0)
    return Unimplemented("unsupported operation " + op.name);
  const std::string name = op.name.substr(prefix.size());
  if (IsCollectiveOpName(name)) {
    return LowerCollectiveOp(name, op, scope, operands);
  }
  const auto unsupported = UnsupportedOps().find(name);
  if (unsupported != UnsupportedOps().end()) {
    return Unimplemented("unsupported operation " + op.name + ": " +
                         unsupported->second);
  }
  return LowerStableHloOp(name, op, scope, operands);
}

// One function per StableHLO op of a fixed HLO form, found by name.
struct StableHloLowering::OpLowerings {
  using Lowering = StatusOr<Values> (*)(StableHloLowering& lowering,
                                        const std::string& name,
                                        const MlirOperation& op,
                                        LoweringScope& scope,
                                        const Values& operands);

  static const std::map<std::string, Lowering>& Table() {
    static const auto* table = new std::map<std::string, Lowering>{
        {"constant", &Constant},
        {"compare", &Compare},
        {"convert", &Convert},
        {"bitcast_convert", &ReshapeOrBitcastConvert},
        {"reshape", &ReshapeOrBitcastConvert},
        {"dynamic_reshape", &ReshapeOrBitcastConvert},
        {"reduce_precision", &ReducePrecision},
        {"broadcast_in_dim", &BroadcastInDim},
        {"dynamic_broadcast_in_dim", &BroadcastInDim},
        {"broadcast", &Broadcast},
        {"transpose", &TransposeOrReverse},
        {"reverse", &TransposeOrReverse},
        {"slice", &Slice},
        {"dynamic_slice", &DynamicSlice},
        {"dynamic_update_slice", &DynamicUpdateSlice},
        {"pad", &Pad},
        {"concatenate", &Concatenate},
        {"iota", &Iota},
        {"dynamic_iota", &Iota},
        {"tuple", &Tuple},
        {"after_all", &Token},
        {"create_token", &Token},
        {"get_tuple_element", &GetTupleElement},
        {"optimization_barrier", &OptimizationBarrier},
        {"dot", &Dot},
        {"dot_general", &Dot},
        {"convolution", &Convolution},
        {"gather", &Gather},
        {"batch_norm_inference", &BatchNorm},
        {"batch_norm_training", &BatchNorm},
        {"batch_norm_grad", &BatchNorm},
        {"get_dimension_size", &GetDimensionSize},
        {"composite", &Composite},
        {"triangular_solve", &TriangularSolve},
        {"cholesky", &Cholesky},
        {"fft", &Fft},
        {"while", &While},
        {"if", &IfOrCase},
        {"case", &IfOrCase},
    };
    return *table;
  }

  static StatusOr<Values> Constant(StableHloLowering& lowering,
                                   const std::string&, const MlirOperation& op,
                                   LoweringScope& scope, const Values&) {
    HloBuilder& b = *scope.builder;
    const MlirAttribute* value = op.Attribute("value");
    if (value == nullptr) return InvalidArgument("missing the value");
    const Shape type = op.result_types.empty() ? Shape() : op.result_types[0];
    PHAL_ASSIGN_OR_RETURN(Literal literal,
                          lowering.AttributeLiteral(*value, type));
    return One(b.Constant(std::move(literal)));
  }

  static StatusOr<Values> Compare(StableHloLowering&, const std::string&,
                                  const MlirOperation& op, LoweringScope& scope,
                                  const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    PHAL_ASSIGN_OR_RETURN(ComparisonDirection direction, Direction(op));
    PHAL_ASSIGN_OR_RETURN(ComparisonType type, CompareType(op));
    return One(b.Compare(direction, operands[0], operands[1], type));
  }

  static StatusOr<Values> Convert(StableHloLowering& lowering,
                                  const std::string&, const MlirOperation& op,
                                  LoweringScope& scope,
                                  const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    PHAL_ASSIGN_OR_RETURN(Shape type, lowering.ResultType(op, 0));
    HloInstruction* value = operands[0];
    // StableHLO's convert from complex to a real type keeps the real part.
    if (IsComplex(value->shape().element_type()) &&
        !IsComplex(type.element_type())) {
      PHAL_ASSIGN_OR_RETURN(value, b.Unary(HloOpcode::kReal, value));
    }
    return One(b.Add(b.Create(HloOpcode::kConvert,
                              Shape(type.element_type(), value->shape().dims()),
                              {value})));
  }

  static StatusOr<Values> ReshapeOrBitcastConvert(StableHloLowering& lowering,
                                                  const std::string& name,
                                                  const MlirOperation& op,
                                                  LoweringScope& scope,
                                                  const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(HasOperand(operands));
    PHAL_ASSIGN_OR_RETURN(Shape type, lowering.ResultType(op, 0));
    if (name == "bitcast_convert" &&
        (operands[0]->shape().element_type() == PHAL_ELEMENT_TYPE_PRED ||
         type.element_type() == PHAL_ELEMENT_TYPE_PRED)) {
      return One(lowering.LowerBitcastConvertOfI1(operands[0], type, scope));
    }
    const HloOpcode opcode = name == "bitcast_convert"
                                 ? HloOpcode::kBitcastConvert
                                 : HloOpcode::kReshape;
    return One(b.Add(b.Create(opcode, type, {operands[0]})));
  }

  static StatusOr<Values> ReducePrecision(StableHloLowering&,
                                          const std::string&,
                                          const MlirOperation& op,
                                          LoweringScope& scope,
                                          const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    auto reduce = b.Create(HloOpcode::kReducePrecision, Shape(), operands);
    int64_t exponent = IntOr(op, {"exponent_bits"}, -1);
    int64_t mantissa = IntOr(op, {"mantissa_bits"}, -1);
    if (const MlirAttribute* format = op.Attribute("format")) {
      // "e5m10": exponent and mantissa bits.
      const std::string& text = format->text;
      const std::size_t m = text.find('m');
      if (text.size() < 4 || text[0] != 'e' || m == std::string::npos) {
        return InvalidArgument("format must look like e5m10, got '" + text +
                               "'");
      }
      exponent = std::atoll(text.substr(1, m - 1).c_str());
      mantissa = std::atoll(text.substr(m + 1).c_str());
    }
    reduce->set_exponent_bits(exponent);
    reduce->set_mantissa_bits(mantissa);
    return One(b.Add(std::move(reduce)));
  }

  static StatusOr<Values> BroadcastInDim(StableHloLowering& lowering,
                                         const std::string&,
                                         const MlirOperation& op,
                                         LoweringScope& scope,
                                         const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(HasOperand(operands));
    PHAL_ASSIGN_OR_RETURN(Shape type, lowering.ResultType(op, 0));
    PHAL_ASSIGN_OR_RETURN(IntList dims,
                          Ints(op, {"broadcast_dimensions", "dims"}));
    return One(b.Broadcast(operands[0], type.dims(), dims));
  }

  static StatusOr<Values> Broadcast(StableHloLowering&, const std::string&,
                                    const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(HasOperand(operands));
    PHAL_ASSIGN_OR_RETURN(IntList sizes,
                          Ints(op, {"broadcast_sizes", "sizes"}));
    const Shape& shape = operands[0]->shape();
    IntList dims = sizes;
    IntList mapping;
    for (int64_t i = 0; i < shape.rank(); ++i) {
      dims.push_back(shape.dim(i));
      mapping.push_back(static_cast<int64_t>(sizes.size()) + i);
    }
    return One(b.Broadcast(operands[0], dims, mapping));
  }

  static StatusOr<Values> TransposeOrReverse(StableHloLowering&,
                                             const std::string& name,
                                             const MlirOperation& op,
                                             LoweringScope& scope,
                                             const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    PHAL_ASSIGN_OR_RETURN(IntList dims,
                          Ints(op, {"permutation", "dimensions", "dims"}));
    auto instruction = b.Create(
        name == "transpose" ? HloOpcode::kTranspose : HloOpcode::kReverse,
        Shape(), operands);
    instruction->set_dimensions(dims);
    return One(b.Add(std::move(instruction)));
  }

  static StatusOr<Values> Slice(StableHloLowering&, const std::string&,
                                const MlirOperation& op, LoweringScope& scope,
                                const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    PHAL_ASSIGN_OR_RETURN(IntList starts, Ints(op, {"start_indices"}));
    PHAL_ASSIGN_OR_RETURN(IntList limits, Ints(op, {"limit_indices"}));
    IntList strides = IntsOr(op, {"strides"}, IntList(starts.size(), 1));
    auto slice = b.Create(HloOpcode::kSlice, Shape(), operands);
    slice->set_slice(std::move(starts), std::move(limits), std::move(strides));
    return One(b.Add(std::move(slice)));
  }

  static StatusOr<Values> DynamicSlice(StableHloLowering&, const std::string&,
                                       const MlirOperation& op,
                                       LoweringScope& scope,
                                       const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_ASSIGN_OR_RETURN(IntList sizes, Ints(op, {"slice_sizes", "sizes"}));
    auto slice = b.Create(HloOpcode::kDynamicSlice, Shape(), operands);
    slice->set_dynamic_slice_sizes(std::move(sizes));
    return One(b.Add(std::move(slice)));
  }

  static StatusOr<Values> DynamicUpdateSlice(StableHloLowering&,
                                             const std::string&,
                                             const MlirOperation&,
                                             LoweringScope& scope,
                                             const Values& operands) {
    HloBuilder& b = *scope.builder;
    return One(
        b.Add(b.Create(HloOpcode::kDynamicUpdateSlice, Shape(), operands)));
  }

  static StatusOr<Values> Pad(StableHloLowering&, const std::string&,
                              const MlirOperation& op, LoweringScope& scope,
                              const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    PHAL_ASSIGN_OR_RETURN(IntList low, Ints(op, {"edge_padding_low", "low"}));
    PHAL_ASSIGN_OR_RETURN(IntList high,
                          Ints(op, {"edge_padding_high", "high"}));
    PHAL_ASSIGN_OR_RETURN(IntList interior,
                          Ints(op, {"interior_padding", "interior"}));
    if (low.size() != high.size() || low.size() != interior.size()) {
      return InvalidArgument("low, high and interior padding differ in length");
    }
    PaddingConfig config;
    for (std::size_t i = 0; i < low.size(); ++i)
      config.dimensions.push_back({low[i], high[i], interior[i]});
    auto pad = b.Create(HloOpcode::kPad, Shape(), operands);
    pad->set_padding_config(std::move(config));
    return One(b.Add(std::move(pad)));
  }

  static StatusOr<Values> Concatenate(StableHloLowering&, const std::string&,
                                      const MlirOperation& op,
                                      LoweringScope& scope,
                                      const Values& operands) {
    HloBuilder& b = *scope.builder;
    auto concatenate = b.Create(HloOpcode::kConcatenate, Shape(), operands);
    concatenate->set_dimensions({IntOr(op, {"dimension", "dim"}, 0)});
    return One(b.Add(std::move(concatenate)));
  }

  static StatusOr<Values> Iota(StableHloLowering& lowering, const std::string&,
                               const MlirOperation& op, LoweringScope& scope,
                               const Values&) {
    HloBuilder& b = *scope.builder;
    PHAL_ASSIGN_OR_RETURN(Shape type, lowering.ResultType(op, 0));
    return One(b.Iota(type, IntOr(op, {"iota_dimension", "dim"}, 0)));
  }

  static StatusOr<Values> Tuple(StableHloLowering&, const std::string&,
                                const MlirOperation&, LoweringScope& scope,
                                const Values& operands) {
    HloBuilder& b = *scope.builder;
    return One(b.Tuple(operands));
  }

  static StatusOr<Values> Token(StableHloLowering&, const std::string&,
                                const MlirOperation&, LoweringScope& scope,
                                const Values&) {
    HloBuilder& b = *scope.builder;
    return One(b.Tuple({}));
  }

  static StatusOr<Values> GetTupleElement(StableHloLowering&,
                                          const std::string&,
                                          const MlirOperation& op,
                                          LoweringScope& scope,
                                          const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    return One(b.GetTupleElement(operands[0], IntOr(op, {"index"}, 0)));
  }

  static StatusOr<Values> OptimizationBarrier(StableHloLowering&,
                                              const std::string&,
                                              const MlirOperation&,
                                              LoweringScope& scope,
                                              const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_ASSIGN_OR_RETURN(HloInstruction * tuple, b.Tuple(operands));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * barrier,
        b.Add(b.Create(HloOpcode::kOptimizationBarrier, Shape(), {tuple})));
    return b.Untuple(barrier);
  }

  static StatusOr<Values> Dot(StableHloLowering&, const std::string& name,
                              const MlirOperation& op, LoweringScope& scope,
                              const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    DotDimensionNumbers numbers;
    if (name == "dot") {
      numbers.lhs_contracting_dimensions = {operands[0]->shape().rank() - 1};
      numbers.rhs_contracting_dimensions = {0};
    } else if (const MlirAttribute* dialect =
                   op.Attribute("dot_dimension_numbers")) {
      numbers.lhs_batch_dimensions =
          FieldInts(*dialect, "lhs_batching_dimensions");
      numbers.rhs_batch_dimensions =
          FieldInts(*dialect, "rhs_batching_dimensions");
      numbers.lhs_contracting_dimensions =
          FieldInts(*dialect, "lhs_contracting_dimensions");
      numbers.rhs_contracting_dimensions =
          FieldInts(*dialect, "rhs_contracting_dimensions");
    } else {
      for (auto [key, lhs, rhs] :
           {std::tuple{"batching_dims", &numbers.lhs_batch_dimensions,
                       &numbers.rhs_batch_dimensions},
            std::tuple{"contracting_dims", &numbers.lhs_contracting_dimensions,
                       &numbers.rhs_contracting_dimensions}}) {
        const MlirAttribute* pair = op.Attribute(key);
        if (pair == nullptr) continue;
        if (pair->kind != AK::kArray || pair->elements.size() != 2) {
          return InvalidArgument(std::string(key) +
                                 " must be written [..] x [..]");
        }
        *lhs = AsInts(pair->elements[0]).value_or(IntList{});
        *rhs = AsInts(pair->elements[1]).value_or(IntList{});
      }
    }
    const ElementType type = op.result_types.empty()
                                 ? operands[0]->shape().element_type()
                                 : op.result_types[0].element_type();
    auto dot = b.Create(HloOpcode::kDot, Shape(type, {}), operands);
    dot->set_dot_dimension_numbers(std::move(numbers));
    return One(b.Add(std::move(dot)));
  }

  static StatusOr<Values> Convolution(StableHloLowering& lowering,
                                      const std::string&,
                                      const MlirOperation& op,
                                      LoweringScope& scope,
                                      const Values& operands) {
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    return One(lowering.LowerConvolution(op, scope, operands, std::nullopt));
  }

  static StatusOr<Values> Gather(StableHloLowering& lowering,
                                 const std::string&, const MlirOperation& op,
                                 LoweringScope& scope, const Values& operands) {
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    PHAL_ASSIGN_OR_RETURN(IntList sizes, Ints(op, {"slice_sizes"}));
    return One(lowering.LowerGather(op, scope, operands, sizes));
  }

  static StatusOr<Values> BatchNorm(StableHloLowering&, const std::string& name,
                                    const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands) {
    HloBuilder& b = *scope.builder;
    const HloOpcode opcode =
        name == "batch_norm_inference"  ? HloOpcode::kBatchNormInference
        : name == "batch_norm_training" ? HloOpcode::kBatchNormTraining
                                        : HloOpcode::kBatchNormGrad;
    auto norm = b.Create(opcode, Shape(), operands);
    const MlirAttribute* epsilon = op.Attribute("epsilon");
    norm->set_epsilon(epsilon == nullptr ? 0.0f
                                         : static_cast<float>(epsilon->number));
    norm->set_feature_index(IntOr(op, {"feature_index"}, 0));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(norm)));
    return b.Untuple(result);
  }

  static StatusOr<Values> GetDimensionSize(StableHloLowering&,
                                           const std::string&,
                                           const MlirOperation& op,
                                           LoweringScope& scope,
                                           const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    const int64_t dimension = IntOr(op, {"dimension", "dim"}, 0);
    const Shape& shape = operands[0]->shape();
    if (dimension < 0 || dimension >= shape.rank())
      return InvalidArgument("dimension out of range");
    return One(b.Constant(
        Literal::Scalar(PHAL_ELEMENT_TYPE_S32, shape.dim(dimension))));
  }

  static StatusOr<Values> Composite(StableHloLowering& lowering,
                                    const std::string&, const MlirOperation& op,
                                    LoweringScope& scope,
                                    const Values& operands) {
    const MlirAttribute* decomposition = op.Attribute("decomposition");
    if (decomposition == nullptr)
      return InvalidArgument("missing the decomposition function");
    return lowering.LowerCall(op, scope, operands, decomposition->text);
  }

  static StatusOr<Values> TriangularSolve(StableHloLowering&,
                                          const std::string&,
                                          const MlirOperation& op,
                                          LoweringScope& scope,
                                          const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 2));
    LinearAlgebraOptions options;
    options.left_side = BoolOr(op, "left_side", true);
    options.lower = BoolOr(op, "lower", true);
    options.unit_diagonal = BoolOr(op, "unit_diagonal", false);
    const MlirAttribute* transpose = op.Attribute("transpose_a");
    const std::string word =
        transpose == nullptr ? "NO_TRANSPOSE" : EnumWord(*transpose);
    const auto value = TriangularSolveTransposeFromName(word);
    if (!value.has_value()) {
      return InvalidArgument("unknown transpose_a '" + word +
                             "' (expected NO_TRANSPOSE, TRANSPOSE or ADJOINT)");
    }
    options.transpose_a = *value;
    return One(b.TriangularSolve(operands[0], operands[1], options));
  }

  static StatusOr<Values> Cholesky(StableHloLowering&, const std::string&,
                                   const MlirOperation& op,
                                   LoweringScope& scope,
                                   const Values& operands) {
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    return One(
        scope.builder->Cholesky(operands[0], BoolOr(op, "lower", false)));
  }

  static StatusOr<Values> Fft(StableHloLowering&, const std::string&,
                              const MlirOperation& op, LoweringScope& scope,
                              const Values& operands) {
    HloBuilder& b = *scope.builder;
    PHAL_RETURN_IF_ERROR(OperandCount(operands, 1));
    const MlirAttribute* kind = Find(op, {"fft_type", "type"});
    const std::string word = kind == nullptr ? "" : EnumWord(*kind);
    const std::optional<FftType> type = FftTypeFromName(word);
    if (!type.has_value()) {
      return InvalidArgument("unknown fft_type '" + word +
                             "' (expected FFT, IFFT, RFFT or IRFFT)");
    }
    PHAL_ASSIGN_OR_RETURN(IntList lengths, Ints(op, {"fft_length", "length"}));
    auto fft = b.Create(HloOpcode::kFft, Shape(), operands);
    fft->set_fft_type(*type);
    fft->set_fft_length(std::move(lengths));
    return One(b.Add(std::move(fft)));
  }

  static StatusOr<Values> While(StableHloLowering& lowering, const std::string&,
                                const MlirOperation& op, LoweringScope& scope,
                                const Values& operands) {
    return lowering.LowerWhile(op, scope, operands);
  }

  static StatusOr<Values> IfOrCase(StableHloLowering& lowering,
                                   const std::string&, const MlirOperation& op,
                                   LoweringScope& scope,
                                   const Values& operands) {
    return lowering.LowerConditional(op, scope, operands);
  }
};

StatusOr<Values> StableHloLowering::LowerStableHloOp(const std::string& name,
                                                     const MlirOperation& op,
                                                     LoweringScope& scope,
                                                     const Values& operands) {
  HloBuilder& b = *scope.builder;
  const auto elementwise = ElementwiseOps().find(name);
  if (elementwise != ElementwiseOps().end()) {
    return LowerElementwise(elementwise->second, b, operands);
  }
  const auto lowering = OpLowerings::Table().find(name);
  if (lowering != OpLowerings::Table().end()) {
    return lowering->second(*this, name, op, scope, operands);
  }
  if (name.rfind("dynamic_", 0) == 0 || name == "real_dynamic_slice") {
    return LowerDynamicOp(name, op, scope, operands);
  }
  return LowerRegionOp(name, op, scope, operands);
}

StatusOr<Values> StableHloLowering::LowerElementwise(HloOpcode opcode,
                                                     HloBuilder& b,
                                                     Values operands) {
  // Ops that read the bits above a narrow integer's width see only its own
  // bits; count_leading_zeros then discounts the storage's extra bits.
  const bool reads_high_bits = opcode == HloOpcode::kShiftRightLogical ||
                               opcode == HloOpcode::kClz ||
                               opcode == HloOpcode::kPopulationCount;
  const auto emulated =
      emulated_.find(operands.empty() ? nullptr : operands[0]);
  const int bits = reads_high_bits && emulated != emulated_.end()
                       ? emulated->second.integer_bits
                       : 0;
  if (bits > 0) {
    PHAL_ASSIGN_OR_RETURN(operands[0],
                          NarrowIntegerBitsOf(b, operands[0], bits));
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        b.Add(b.Create(opcode, Shape(), operands)));
  if (bits > 0 && opcode == HloOpcode::kClz) {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * spare,
        b.FullLike(result,
                   ElementTypeBitWidth(result->shape().element_type()) - bits));
    PHAL_ASSIGN_OR_RETURN(result,
                          b.Binary(HloOpcode::kSubtract, result, spare));
  }
  return Values{result};
}

StatusOr<Values> StableHloLowering::LowerRegionOp(const std::string& name,
                                                  const MlirOperation& op,
                                                  LoweringScope& scope,
                                                  const Values& operands) {
  HloBuilder& b = *scope.builder;
  static const std::map<std::string, HloOpcode> kRegionOps = {
      {"reduce", HloOpcode::kReduce},
      {"reduce_window", HloOpcode::kReduceWindow},
      {"scatter", HloOpcode::kScatter},
      {"select_and_scatter", HloOpcode::kSelectAndScatter},
      {"sort", HloOpcode::kSort},
      {"map", HloOpcode::kMap},
  };
  const auto found = kRegionOps.find(name);
  if (found == kRegionOps.end())
    return Unimplemented("unsupported operation stablehlo." + name);
  const std::size_t region_count = name == "select_and_scatter" ? 2 : 1;
  if (op.regions.size() != region_count) {
    return InvalidArgument("expects " + std::to_string(region_count) +
                           " region(s)");
  }
  auto instruction = b.Create(found->second, Shape(), operands);
  const char* purposes[2] = {name == "sort"                 ? "comparator"
                             : name == "select_and_scatter" ? "select"
                                                            : "body",
                             "scatter"};
  for (std::size_t i = 0; i < region_count; ++i) {
    PHAL_ASSIGN_OR_RETURN(
        HloComputation * computation,
        LowerAppliedRegion(op.regions[i], scope, name + "_" + purposes[i]));
    instruction->AppendCalledComputation(computation);
  }
  if (name == "reduce" || name == "map") {
    instruction->set_dimensions(IntsOr(op, {"dimensions"}, {}));
  } else if (name == "sort") {
    int64_t dimension = IntOr(op, {"dimension"}, -1);
    if (dimension < 0 && !operands.empty())
      dimension += operands[0]->shape().rank();
    instruction->set_dimensions({dimension});
    instruction->set_is_stable(BoolOr(op, "is_stable", false));
  } else if (name == "scatter") {
    const MlirAttribute* dialect = op.Attribute("scatter_dimension_numbers");
    if (dialect == nullptr)
      return InvalidArgument("missing scatter_dimension_numbers");
    ScatterDimensionNumbers numbers;
    numbers.update_window_dims = FieldInts(*dialect, "update_window_dims");
    numbers.inserted_window_dims = FieldInts(*dialect, "inserted_window_dims");
    numbers.input_batching_dims = FieldInts(*dialect, "input_batching_dims");
    numbers.scatter_indices_batching_dims =
        FieldInts(*dialect, "scatter_indices_batching_dims");
    numbers.scatter_dims_to_operand_dims =
        FieldInts(*dialect, "scatter_dims_to_operand_dims");
    numbers.index_vector_dim = FieldInt(*dialect, "index_vector_dim");
    instruction->set_scatter_dimension_numbers(std::move(numbers));
    instruction->set_indices_are_sorted(
        BoolOr(op, "indices_are_sorted", false));
    instruction->set_unique_indices(BoolOr(op, "unique_indices", false));
  } else {
    PHAL_ASSIGN_OR_RETURN(IntList sizes, Ints(op, {"window_dimensions"}));
    const std::size_t rank = sizes.size();
    const IntList strides = IntsOr(op, {"window_strides"}, IntList(rank, 1));
    const IntList base = IntsOr(op, {"base_dilations"}, IntList(rank, 1));
    const IntList dilations =
        IntsOr(op, {"window_dilations"}, IntList(rank, 1));
    PHAL_ASSIGN_OR_RETURN(auto padding, Padding(op.Attribute("padding"), rank));
    if (strides.size() != rank || base.size() != rank ||
        dilations.size() != rank) {
      return InvalidArgument("window attributes differ in length");
    }
    Window window;
    for (std::size_t i = 0; i < rank; ++i) {
      WindowDimension dimension;
      dimension.size = sizes[i];
      dimension.stride = strides[i];
      dimension.padding_low = padding[i].first;
      dimension.padding_high = padding[i].second;
      dimension.base_dilation = base[i];
      dimension.window_dilation = dilations[i];
      window.dimensions.push_back(dimension);
    }
    instruction->set_window(std::move(window));
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(instruction)));
  return b.Untuple(result);
}

StatusOr<HloInstruction*> StableHloLowering::LowerBitcastConvertOfI1(
    HloInstruction* operand, const Shape& type, LoweringScope& scope) {
  HloBuilder& b = *scope.builder;
  const ElementType from = operand->shape().element_type();
  const ElementType to = type.element_type();
  if (from == to) {
    return b.Add(b.Create(HloOpcode::kBitcastConvert, type, {operand}));
  }
  const ElementType wide = from == PHAL_ELEMENT_TYPE_PRED ? to : from;
  if (IsComplex(wide)) {
    return Unimplemented(std::string("bitcast_convert between i1 and ") +
                         ElementTypeName(wide));
  }
  const int64_t bits = ElementTypeBitWidth(wide);
  const ElementType word = bits == 8    ? PHAL_ELEMENT_TYPE_U8
                           : bits == 16 ? PHAL_ELEMENT_TYPE_U16
                           : bits == 32 ? PHAL_ELEMENT_TYPE_U32
                                        : PHAL_ELEMENT_TYPE_U64;
  const auto reinterpret =
      [&](HloInstruction* value,
          ElementType element) -> StatusOr<HloInstruction*> {
    if (value->shape().element_type() == element) return value;
    return b.Add(b.Create(HloOpcode::kBitcastConvert,
                          Shape(element, value->shape().dims()), {value}));
  };
  // Bit j of a word is element j along the i1 side's last dimension, the
  // least significant bit first.
  const std::vector<int64_t> bit_dims =
      from == PHAL_ELEMENT_TYPE_PRED ? operand->shape().dims() : type.dims();
  if (bit_dims.empty() || bit_dims.back() != bits) {
    return InvalidArgument("bitcast_convert between " +
                           operand->shape().ToString() + " and " +
                           type.ToString() + " needs an i1 side of " +
                           std::to_string(bits) + " bits per element");
  }
  const int64_t last = static_cast<int64_t>(bit_dims.size()) - 1;
  PHAL_ASSIGN_OR_RETURN(HloInstruction * positions,
                        b.Iota(Shape(word, bit_dims), last));
  if (from != PHAL_ELEMENT_TYPE_PRED) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * words, reinterpret(operand, word));
    std::vector<int64_t> kept(static_cast<std::size_t>(last));
    for (int64_t d = 0; d < last; ++d) kept[static_cast<std::size_t>(d)] = d;
    PHAL_ASSIGN_OR_RETURN(HloInstruction * spread,
                          b.Broadcast(words, bit_dims, kept));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * shifted,
        b.Binary(HloOpcode::kShiftRightLogical, spread, positions));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * one, b.FullLike(shifted, 1));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * bit,
                          b.Binary(HloOpcode::kAnd, shifted, one));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b.FullLike(bit, 0));
    return b.Compare(ComparisonDirection::kNe, bit, zero);
  }
  PHAL_ASSIGN_OR_RETURN(HloInstruction * values, b.Convert(operand, word));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * shifted,
                        b.Binary(HloOpcode::kShiftLeft, values, positions));
  // The shifted bits are disjoint, so their sum is their concatenation.
  HloBuilder adder(UniqueName(scope.function_name + ".bitcast_join"));
  const Shape scalar(word, {});
  HloInstruction* lhs = adder.AddParameter(scalar);
  HloInstruction* rhs = adder.AddParameter(scalar);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * sum,
                        adder.Binary(HloOpcode::kAdd, lhs, rhs));
  HloComputation* add = AddComputation(adder.Build(sum));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b.ScalarConstant(word, 0));
  auto reduce =
      b.Create(HloOpcode::kReduce, Shape(word, type.dims()), {shifted, zero});
  reduce->set_dimensions({last});
  reduce->AppendCalledComputation(add);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * joined, b.Add(std::move(reduce)));
  return reinterpret(joined, to);
}

StatusOr<HloInstruction*> StableHloLowering::LowerConvolution(
    const MlirOperation& op, LoweringScope& scope, const Values& operands,
    const std::optional<IntList>& dynamic_padding) {
  const MlirAttribute* labels = Find(op, {"dimension_numbers", "dim_numbers"});
  if (labels == nullptr)
    return InvalidArgument("missing the dimension numbers");
  PHAL_ASSIGN_OR_RETURN(ConvolutionDimensionNumbers numbers,
                        ConvolutionNumbers(*labels));
  const std::size_t rank = numbers.kernel_spatial_dimensions.size();
  // The pretty form groups the window attributes: window = {stride = ...}.
  const MlirAttribute* window_group = op.Attribute("window");
  const auto window_ints = [&](const char* generic, const char* pretty,
                               int64_t fallback) {
    if (window_group != nullptr) {
      const MlirAttribute* field = window_group->Field(pretty);
      if (field != nullptr)
        return AsInts(*field).value_or(IntList(rank, fallback));
      return IntList(rank, fallback);
    }
    return IntsOr(op, {generic}, IntList(rank, fallback));
  };
  const IntList strides = window_ints("window_strides", "stride", 1);
  const IntList lhs_dilation = window_ints("lhs_dilation", "lhs_dilate", 1);
  const IntList rhs_dilation = window_ints("rhs_dilation", "rhs_dilate", 1);
  const IntList reversal = window_ints("window_reversal", "reverse", 0);
  const MlirAttribute* padding_attribute = window_group != nullptr
                                               ? window_group->Field("pad")
                                               : op.Attribute("padding");
  std::vector<std::pair<int64_t, int64_t>> padding(rank, {0, 0});
  if (dynamic_padding.has_value()) {
    if (dynamic_padding->size() != 2 * rank)
      return InvalidArgument("padding has the wrong size");
    for (std::size_t i = 0; i < rank; ++i)
      padding[i] = {(*dynamic_padding)[2 * i], (*dynamic_padding)[2 * i + 1]};
  } else {
    PHAL_ASSIGN_OR_RETURN(padding, Padding(padding_attribute, rank));
  }
  if (strides.size() != rank || lhs_dilation.size() != rank ||
      rhs_dilation.size() != rank || reversal.size() != rank) {
    return InvalidArgument(
        "window attributes must have one entry per spatial dimension");
  }
  const Shape& kernel = operands[1]->shape();
  Window window;
  for (std::size_t i = 0; i < rank; ++i) {
    const int64_t kernel_dimension = numbers.kernel_spatial_dimensions[i];
    if (kernel_dimension < 0 || kernel_dimension >= kernel.rank()) {
      return InvalidArgument("kernel spatial dimension out of range");
    }
    WindowDimension dimension;
    dimension.size = kernel.dim(kernel_dimension);
    dimension.stride = strides[i];
    dimension.padding_low = padding[i].first;
    dimension.padding_high = padding[i].second;
    dimension.base_dilation = lhs_dilation[i];
    dimension.window_dilation = rhs_dilation[i];
    dimension.window_reversal = reversal[i] != 0;
    window.dimensions.push_back(dimension);
  }
  const ElementType type = op.result_types.empty()
                               ? operands[0]->shape().element_type()
                               : op.result_types[0].element_type();
  auto convolution =
      scope.builder->Create(HloOpcode::kConvolution, Shape(type, {}), operands);
  convolution->set_window(std::move(window));
  convolution->set_convolution_dimension_numbers(std::move(numbers));
  convolution->set_feature_group_count(IntOr(op, {"feature_group_count"}, 1));
  convolution->set_batch_group_count(IntOr(op, {"batch_group_count"}, 1));
  return scope.builder->Add(std::move(convolution));
}

StatusOr<HloInstruction*> StableHloLowering::LowerGather(
    const MlirOperation& op, LoweringScope& scope, const Values& operands,
    const IntList& slice_sizes) {
  const MlirAttribute* dialect = op.Attribute("dimension_numbers");
  if (dialect == nullptr) return InvalidArgument("missing dimension_numbers");
  GatherDimensionNumbers numbers;
  numbers.offset_dims = FieldInts(*dialect, "offset_dims");
  numbers.collapsed_slice_dims = FieldInts(*dialect, "collapsed_slice_dims");
  numbers.operand_batching_dims = FieldInts(*dialect, "operand_batching_dims");
  numbers.start_indices_batching_dims =
      FieldInts(*dialect, "start_indices_batching_dims");
  numbers.start_index_map = FieldInts(*dialect, "start_index_map");
  numbers.index_vector_dim = FieldInt(*dialect, "index_vector_dim");
  auto gather = scope.builder->Create(HloOpcode::kGather, Shape(),
                                      {operands[0], operands[1]});
  gather->set_gather_dimension_numbers(std::move(numbers));
  gather->set_gather_slice_sizes(slice_sizes);
  gather->set_indices_are_sorted(BoolOr(op, "indices_are_sorted", false));
  return scope.builder->Add(std::move(gather));
}

StatusOr<Values> StableHloLowering::LowerDynamicOp(const std::string& name,
                                                   const MlirOperation& op,
                                                   LoweringScope& scope,
                                                   const Values& operands) {
  // Dynamic ops whose shape operands are constants are their static forms.
  HloBuilder& b = *scope.builder;
  if (name == "dynamic_pad") {
    if (operands.size() != 5) return InvalidArgument("expects 5 operands");
    PHAL_ASSIGN_OR_RETURN(IntList low,
                          ConstantInts(operands[2], "edge_padding_low"));
    PHAL_ASSIGN_OR_RETURN(IntList high,
                          ConstantInts(operands[3], "edge_padding_high"));
    PHAL_ASSIGN_OR_RETURN(IntList interior,
                          ConstantInts(operands[4], "interior_padding"));
    if (low.size() != high.size() || low.size() != interior.size()) {
      return InvalidArgument("padding operands differ in length");
    }
    PaddingConfig config;
    for (std::size_t i = 0; i < low.size(); ++i)
      config.dimensions.push_back({low[i], high[i], interior[i]});
    auto pad = b.Create(HloOpcode::kPad, Shape(), {operands[0], operands[1]});
    pad->set_padding_config(std::move(config));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(pad)));
    return Values{result};
  }
  if (name == "real_dynamic_slice") {
    if (operands.size() != 4) return InvalidArgument("expects 4 operands");
    PHAL_ASSIGN_OR_RETURN(IntList starts,
                          ConstantInts(operands[1], "start_indices"));
    PHAL_ASSIGN_OR_RETURN(IntList limits,
                          ConstantInts(operands[2], "limit_indices"));
    PHAL_ASSIGN_OR_RETURN(IntList strides,
                          ConstantInts(operands[3], "strides"));
    auto slice = b.Create(HloOpcode::kSlice, Shape(), {operands[0]});
    slice->set_slice(std::move(starts), std::move(limits), std::move(strides));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(slice)));
    return Values{result};
  }
  if (name == "dynamic_gather") {
    if (operands.size() != 3) return InvalidArgument("expects 3 operands");
    PHAL_ASSIGN_OR_RETURN(IntList sizes,
                          ConstantInts(operands[2], "slice_sizes"));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                          LowerGather(op, scope, operands, sizes));
    return Values{result};
  }
  if (name == "dynamic_conv") {
    if (operands.size() != 3) return InvalidArgument("expects 3 operands");
    PHAL_ASSIGN_OR_RETURN(IntList padding,
                          ConstantInts(operands[2], "padding"));
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * result,
        LowerConvolution(op, scope, {operands[0], operands[1]}, padding));
    return Values{result};
  }
  return Unimplemented("unsupported operation stablehlo." + name);
}

StatusOr<Values> StableHloLowering::LowerScan(const MlirOperation& op,
                                              LoweringScope& scope,
                                              const Values& operands) {
  // Unrolled over the scanned dimension: step t calls the body on the t-th
  // slices of the inputs and the carries; the outputs of the steps are
  // stacked back along the dimension.
  HloBuilder& b = *scope.builder;
  const auto input_count =
      static_cast<std::size_t>(IntOr(op, {"input_count"}, 0));
  if (op.regions.size() != 1 || input_count == 0 ||
      input_count > operands.size()) {
    return InvalidArgument("expects inputs, inits and a body region");
  }
  const Values inputs(
      operands.begin(),
      operands.begin() + static_cast<std::ptrdiff_t>(input_count));
  Values carries(operands.begin() + static_cast<std::ptrdiff_t>(input_count),
                 operands.end());
  const int64_t dimension = IntOr(op, {"dimension"}, 0);
  const Shape& shape = inputs[0]->shape();
  if (dimension < 0 || dimension >= shape.rank())
    return InvalidArgument("dimension out of range");
  const int64_t length = shape.dim(dimension);
  const auto output_count =
      static_cast<std::size_t>(op.ResultCount()) - carries.size();
  PHAL_ASSIGN_OR_RETURN(HloComputation * body,
                        LowerAppliedRegion(op.regions[0], scope, "scan_body"));
  std::vector<Values> steps(output_count,
                            Values(static_cast<std::size_t>(length)));
  const bool reverse = BoolOr(op, "is_reverse", false);
  for (int64_t step = 0; step < length; ++step) {
    const int64_t t = reverse ? length - 1 - step : step;
    Values arguments;
    for (HloInstruction* input : inputs) {
      std::vector<int64_t> starts(
          static_cast<std::size_t>(input->shape().rank()), 0);
      std::vector<int64_t> limits = input->shape().dims();
      starts[static_cast<std::size_t>(dimension)] = t;
      limits[static_cast<std::size_t>(dimension)] = t + 1;
      PHAL_ASSIGN_OR_RETURN(HloInstruction * slice,
                            b.Slice(input, starts, limits));
      std::vector<int64_t> dims = input->shape().dims();
      dims.erase(dims.begin() + dimension);
      PHAL_ASSIGN_OR_RETURN(HloInstruction * element, b.Reshape(slice, dims));
      arguments.push_back(element);
    }
    arguments.insert(arguments.end(), carries.begin(), carries.end());
    auto call = b.Create(HloOpcode::kCall, Shape(), arguments);
    call->AppendCalledComputation(body);
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result, b.Add(std::move(call)));
    PHAL_ASSIGN_OR_RETURN(Values produced, b.Untuple(result));
    if (produced.size() != output_count + carries.size()) {
      return InvalidArgument(
          "the body returns " + std::to_string(produced.size()) +
          " values, expected " + std::to_string(output_count + carries.size()));
    }
    for (std::size_t j = 0; j < output_count; ++j) {
      std::vector<int64_t> dims = produced[j]->shape().dims();
      dims.insert(dims.begin() + dimension, 1);
      PHAL_ASSIGN_OR_RETURN(steps[j][static_cast<std::size_t>(t)],
                            b.Reshape(produced[j], dims));
    }
    carries.assign(produced.begin() + static_cast<std::ptrdiff_t>(output_count),
                   produced.end());
  }
  Values results;
  for (const Values& pieces : steps) {
    auto concatenate = b.Create(HloOpcode::kConcatenate, Shape(), pieces);
    concatenate->set_dimensions({dimension});
    PHAL_ASSIGN_OR_RETURN(HloInstruction * stacked,
                          b.Add(std::move(concatenate)));
    results.push_back(stacked);
  }
  results.insert(results.end(), carries.begin(), carries.end());
  return results;
}

StatusOr<Values> StableHloLowering::LowerChlo(const MlirOperation& op,
                                              LoweringScope& scope,
                                              const Values& operands) {
  const ComputationSink sink = [this](std::unique_ptr<HloComputation> helper) {
    return AddComputation(std::move(helper));
  };
  if (op.name == "chlo.ragged_dot") {
    const MlirAttribute* numbers = op.Attribute("ragged_dot_dimension_numbers");
    if (numbers == nullptr || operands.size() != 3) {
      return InvalidArgument(
          "chlo.ragged_dot takes lhs, rhs and group_sizes and "
          "ragged_dot_dimension_numbers");
    }
    PHAL_ASSIGN_OR_RETURN(Shape type, ResultType(op, 0));
    const RaggedDot dot{.lhs = operands[0],
                        .rhs = operands[1],
                        .group_sizes = operands[2],
                        .numbers = RaggedDotNumbers(*numbers),
                        .result_type = type.element_type(),
                        .helper_computation_name =
                            UniqueName(scope.function_name + ".ragged_dot")};
    PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                          LowerRaggedDot(dot, *scope.builder, sink));
    return Values{result};
  }
  if (!IsDecomposableChloOp(op.name))
    return Unimplemented("unsupported operation " + op.name);
  ChloOp chlo;
  chlo.name = op.name;
  chlo.operands = operands;
  chlo.result_types = op.result_types;
  if (const MlirAttribute* dims = op.Attribute("broadcast_dimensions")) {
    chlo.broadcast_dimensions = AsInts(*dims);
  }
  if (op.name == "chlo.broadcast_compare") {
    PHAL_ASSIGN_OR_RETURN(chlo.comparison_direction, Direction(op));
    PHAL_ASSIGN_OR_RETURN(chlo.comparison_type, CompareType(op));
  }
  chlo.k = IntOr(op, {"k"}, 0);
  if (const MlirAttribute* value = op.Attribute("value"))
    chlo.value = value->number;
  chlo.helper_computation_name =
      UniqueName(scope.function_name + ".top_k_comparator");
  return DecomposeChloOp(chlo, *scope.builder, sink);
}

StatusOr<Values> StableHloLowering::LowerCall(const MlirOperation& op,
                                              LoweringScope& scope,
                                              const Values& operands,
                                              const std::string& callee) {
  if (IsGlobalProgram(callee) && !IsGlobalProgram(scope.function_name)) {
    return Unimplemented(
        "@" + callee +
        " works on global arrays through a manual computation; it may be "
        "called only at the top level of the entry function, on its "
        "arguments");
  }
  PHAL_ASSIGN_OR_RETURN(const StableHloFunction* function,
                        LowerFunction(callee, op.offset));
  if (!function->checks.empty()) {
    return InvalidArgument(
        "@" + callee + " holds checks; only functions that are not called may");
  }
  callees_[scope.function_name].push_back(callee);
  auto call = scope.builder->Create(HloOpcode::kCall, Shape(), operands);
  call->AppendCalledComputation(function->computation);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        scope.builder->Add(std::move(call)));
  if (!function->returns_tuple) return Values{result};
  return scope.builder->Untuple(result);
}

StatusOr<Values> StableHloLowering::LowerWhile(const MlirOperation& op,
                                               LoweringScope& scope,
                                               const Values& operands) {
  if (op.regions.size() != 2)
    return InvalidArgument("expects a condition and a body region");
  std::vector<std::string> captures = FreeValues(op.regions[0]);
  for (const std::string& key : FreeValues(op.regions[1])) {
    if (std::find(captures.begin(), captures.end(), key) == captures.end())
      captures.push_back(key);
  }
  PHAL_ASSIGN_OR_RETURN(Values captured, LookUp(captures, scope, op.offset));
  std::vector<Shape> leading;
  for (const HloInstruction* value : operands)
    leading.push_back(value->shape());
  PHAL_ASSIGN_OR_RETURN(
      HloComputation * condition,
      LowerTupleRegion(op.regions[0], scope, "while_condition", leading,
                       captures, TupleRegionRole::kCondition));
  PHAL_ASSIGN_OR_RETURN(
      HloComputation * body,
      LowerTupleRegion(op.regions[1], scope, "while_body", leading, captures,
                       TupleRegionRole::kBody));
  Values state = operands;
  state.insert(state.end(), captured.begin(), captured.end());
  PHAL_ASSIGN_OR_RETURN(HloInstruction * initial, scope.builder->Tuple(state));
  auto loop = scope.builder->Create(HloOpcode::kWhile, Shape(), {initial});
  loop->AppendCalledComputation(condition);
  loop->AppendCalledComputation(body);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        scope.builder->Add(std::move(loop)));
  Values results;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * element,
        scope.builder->GetTupleElement(result, static_cast<int64_t>(i)));
    results.push_back(element);
  }
  return results;
}

StatusOr<Values> StableHloLowering::LowerConditional(const MlirOperation& op,
                                                     LoweringScope& scope,
                                                     const Values& operands) {
  if (operands.size() != 1)
    return InvalidArgument("expects one selector operand");
  const bool is_if = op.name == "stablehlo.if";
  if (is_if && op.regions.size() != 2)
    return InvalidArgument("expects two regions");
  if (op.regions.empty()) return InvalidArgument("expects at least one branch");
  Values branch_operands = {operands[0]};
  std::vector<HloComputation*> branches;
  for (std::size_t i = 0; i < op.regions.size(); ++i) {
    const std::vector<std::string> captures = FreeValues(op.regions[i]);
    PHAL_ASSIGN_OR_RETURN(Values captured, LookUp(captures, scope, op.offset));
    PHAL_ASSIGN_OR_RETURN(HloInstruction * state,
                          scope.builder->Tuple(captured));
    branch_operands.push_back(state);
    PHAL_ASSIGN_OR_RETURN(
        HloComputation * branch,
        LowerTupleRegion(op.regions[i], scope, "branch_" + std::to_string(i),
                         {}, captures, TupleRegionRole::kBranch));
    branches.push_back(branch);
  }
  auto conditional =
      scope.builder->Create(HloOpcode::kConditional, Shape(), branch_operands);
  for (HloComputation* branch : branches)
    conditional->AppendCalledComputation(branch);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * result,
                        scope.builder->Add(std::move(conditional)));
  return scope.builder->Untuple(result);
}

}  // namespace phal
