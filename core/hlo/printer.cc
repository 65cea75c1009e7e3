#include "core/hlo/printer.h"

#include <cctype>
#include <charconv>
#include <cstring>

#include "core/hlo/computation.h"
#include "core/hlo/process_groups.h"
#include "sdk/base/float16.h"

namespace phal {
namespace {

template <typename Float>
std::string ShortestFloatText(Float value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

template <typename T>
T Load(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

std::string ScalarToText(ElementType type, const uint8_t* bytes) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return bytes[0] != 0 ? "true" : "false";
    case PHAL_ELEMENT_TYPE_S8:
      return std::to_string(Load<int8_t>(bytes));
    case PHAL_ELEMENT_TYPE_S16:
      return std::to_string(Load<int16_t>(bytes));
    case PHAL_ELEMENT_TYPE_S32:
      return std::to_string(Load<int32_t>(bytes));
    case PHAL_ELEMENT_TYPE_S64:
      return std::to_string(Load<int64_t>(bytes));
    case PHAL_ELEMENT_TYPE_U8:
      return std::to_string(Load<uint8_t>(bytes));
    case PHAL_ELEMENT_TYPE_U16:
      return std::to_string(Load<uint16_t>(bytes));
    case PHAL_ELEMENT_TYPE_U32:
      return std::to_string(Load<uint32_t>(bytes));
    case PHAL_ELEMENT_TYPE_U64:
      return std::to_string(Load<uint64_t>(bytes));
    case PHAL_ELEMENT_TYPE_F16:
      return ShortestFloatText(HalfToFloat(Load<uint16_t>(bytes)));
    case PHAL_ELEMENT_TYPE_BF16:
      return ShortestFloatText(BFloat16ToFloat(Load<uint16_t>(bytes)));
    case PHAL_ELEMENT_TYPE_F32:
      return ShortestFloatText(Load<float>(bytes));
    case PHAL_ELEMENT_TYPE_F64:
      return ShortestFloatText(Load<double>(bytes));
    case PHAL_ELEMENT_TYPE_C64:
      return "(" + ShortestFloatText(Load<float>(bytes)) + ", " +
             ShortestFloatText(Load<float>(bytes + sizeof(float))) + ")";
    case PHAL_ELEMENT_TYPE_C128:
      return "(" + ShortestFloatText(Load<double>(bytes)) + ", " +
             ShortestFloatText(Load<double>(bytes + sizeof(double))) + ")";
    default:
      return "?";
  }
}

// Elements of dimensions [dimension, rank) starting at element `*index`.
void AppendArrayText(const Literal& literal, std::size_t dimension,
                     int64_t* index, std::string* out) {
  const Shape& shape = literal.shape();
  const std::size_t element_size = ElementTypeByteSize(shape.element_type());
  if (dimension == shape.dims().size()) {
    *out += ScalarToText(
        shape.element_type(),
        literal.data() + *index * static_cast<int64_t>(element_size));
    ++*index;
    return;
  }
  const bool innermost = dimension + 1 == shape.dims().size();
  *out += innermost ? "{" : "{ ";
  for (int64_t i = 0; i < shape.dims()[dimension]; ++i) {
    if (i > 0) *out += ", ";
    AppendArrayText(literal, dimension + 1, index, out);
  }
  *out += innermost ? "}" : " }";
}

std::string ComputationRef(const HloComputation* computation) {
  return "%" + computation->name();
}

class AttributeWriter {
 public:
  void Add(const std::string& name, const std::string& value) {
    text_ += ", " + name + "=" + value;
  }
  void AddInts(const std::string& name, const std::vector<int64_t>& values) {
    Add(name, IntListToText(values));
  }
  void AddIntsIfAny(const std::string& name,
                    const std::vector<int64_t>& values) {
    if (!values.empty()) AddInts(name, values);
  }
  void AddFlagIfSet(const std::string& name, bool value) {
    if (value) Add(name, "true");
  }
  // A missing callee (possible only in an unverified module) is left out
  // rather than dereferenced.
  void AddComputation(const std::string& name,
                      const HloComputation* computation) {
    if (computation != nullptr) Add(name, ComputationRef(computation));
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

void AddSliceAttribute(const HloInstruction& instruction,
                       AttributeWriter* writer) {
  std::string text = "{";
  for (std::size_t i = 0; i < instruction.slice_starts().size(); ++i) {
    if (i > 0) text += ", ";
    text += "[" + std::to_string(instruction.slice_starts()[i]) + ":" +
            std::to_string(instruction.slice_limits()[i]);
    if (instruction.slice_strides()[i] != 1) {
      text += ":" + std::to_string(instruction.slice_strides()[i]);
    }
    text += "]";
  }
  writer->Add("slice", text + "}");
}

void AddGatherAttributes(const HloInstruction& instruction,
                         AttributeWriter* writer) {
  const GatherDimensionNumbers& numbers =
      instruction.gather_dimension_numbers();
  writer->AddInts("offset_dims", numbers.offset_dims);
  writer->AddInts("collapsed_slice_dims", numbers.collapsed_slice_dims);
  writer->AddInts("start_index_map", numbers.start_index_map);
  writer->AddIntsIfAny("operand_batching_dims", numbers.operand_batching_dims);
  writer->AddIntsIfAny("start_indices_batching_dims",
                       numbers.start_indices_batching_dims);
  writer->Add("index_vector_dim", std::to_string(numbers.index_vector_dim));
  writer->AddInts("slice_sizes", instruction.gather_slice_sizes());
  writer->AddFlagIfSet("indices_are_sorted", instruction.indices_are_sorted());
}

void AddScatterAttributes(const HloInstruction& instruction,
                          AttributeWriter* writer) {
  const ScatterDimensionNumbers& numbers =
      instruction.scatter_dimension_numbers();
  writer->AddInts("update_window_dims", numbers.update_window_dims);
  writer->AddInts("inserted_window_dims", numbers.inserted_window_dims);
  writer->AddInts("scatter_dims_to_operand_dims",
                  numbers.scatter_dims_to_operand_dims);
  writer->AddIntsIfAny("input_batching_dims", numbers.input_batching_dims);
  writer->AddIntsIfAny("scatter_indices_batching_dims",
                       numbers.scatter_indices_batching_dims);
  writer->Add("index_vector_dim", std::to_string(numbers.index_vector_dim));
  writer->AddFlagIfSet("indices_are_sorted", instruction.indices_are_sorted());
  writer->AddFlagIfSet("unique_indices", instruction.unique_indices());
}

void AddDotAttributes(const HloInstruction& instruction,
                      AttributeWriter* writer) {
  const DotDimensionNumbers& numbers = instruction.dot_dimension_numbers();
  writer->AddIntsIfAny("lhs_batch_dims", numbers.lhs_batch_dimensions);
  writer->AddIntsIfAny("lhs_contracting_dims",
                       numbers.lhs_contracting_dimensions);
  writer->AddIntsIfAny("rhs_batch_dims", numbers.rhs_batch_dimensions);
  writer->AddIntsIfAny("rhs_contracting_dims",
                       numbers.rhs_contracting_dimensions);
}

void AddConvolutionAttributes(const HloInstruction& instruction,
                              AttributeWriter* writer) {
  if (!instruction.window().dimensions.empty()) {
    writer->Add("window", "{" + WindowToString(instruction.window()) + "}");
  }
  writer->Add("dim_labels", ConvolutionDimensionNumbersToString(
                                instruction.convolution_dimension_numbers()));
  if (instruction.feature_group_count() != 1) {
    writer->Add("feature_group_count",
                std::to_string(instruction.feature_group_count()));
  }
  if (instruction.batch_group_count() != 1) {
    writer->Add("batch_group_count",
                std::to_string(instruction.batch_group_count()));
  }
}

void AddCalledComputations(const HloInstruction& instruction,
                           AttributeWriter* writer) {
  switch (instruction.opcode()) {
    case HloOpcode::kWhile:
      writer->AddComputation("condition", instruction.while_condition());
      writer->AddComputation("body", instruction.while_body());
      return;
    case HloOpcode::kSelectAndScatter:
      writer->AddComputation("select", instruction.select());
      writer->AddComputation("scatter", instruction.scatter());
      return;
    case HloOpcode::kFusion:
      writer->AddComputation("calls", instruction.to_apply());
      return;
    case HloOpcode::kConditional: {
      const bool pred_selector =
          instruction.operand_count() > 0 &&
          instruction.operand(0)->shape().IsArray() &&
          instruction.operand(0)->shape().element_type() ==
              PHAL_ELEMENT_TYPE_PRED &&
          instruction.branch_computations().size() == 2;
      if (pred_selector) {
        writer->AddComputation("true_computation",
                               instruction.true_computation());
        writer->AddComputation("false_computation",
                               instruction.false_computation());
        return;
      }
      std::string list = "{";
      for (const HloComputation* branch : instruction.branch_computations()) {
        if (branch == nullptr) continue;
        if (list.size() > 1) list += ", ";
        list += ComputationRef(branch);
      }
      writer->Add("branch_computations", list + "}");
      return;
    }
    default:
      writer->AddComputation("to_apply", instruction.to_apply());
      return;
  }
}

// channel_id, replica_groups (or source_target_pairs), dimensions and
// use_global_device_ids, in the order XLA prints them.
void AddCollectiveAttributes(const HloInstruction& instruction,
                             AttributeWriter* writer) {
  if (instruction.channel_id().has_value()) {
    writer->Add("channel_id", std::to_string(*instruction.channel_id()));
  }
  if (instruction.opcode() == HloOpcode::kCollectivePermute) {
    std::vector<std::vector<int64_t>> pairs;
    for (const auto& [source, target] : instruction.source_target_pairs()) {
      pairs.push_back({source, target});
    }
    writer->Add("source_target_pairs", IntGroupsToString(pairs));
    return;
  }
  writer->Add("replica_groups", instruction.replica_groups().ToString());
  writer->AddIntsIfAny("dimensions", instruction.dimensions());
  writer->AddFlagIfSet("use_global_device_ids",
                       instruction.use_global_device_ids());
}

void AddOpcodeAttributes(const HloInstruction& instruction,
                         AttributeWriter* writer) {
  if (IsCollective(instruction.opcode())) {
    AddCollectiveAttributes(instruction, writer);
    return;
  }
  switch (instruction.opcode()) {
    case HloOpcode::kBroadcast:
    case HloOpcode::kConcatenate:
    case HloOpcode::kMap:
    case HloOpcode::kReduce:
    case HloOpcode::kReverse:
    case HloOpcode::kTranspose:
      writer->AddInts("dimensions", instruction.dimensions());
      return;
    case HloOpcode::kSort:
      writer->AddInts("dimensions", instruction.dimensions());
      writer->AddFlagIfSet("is_stable", instruction.is_stable());
      return;
    case HloOpcode::kGetTupleElement:
      writer->Add("index", std::to_string(instruction.tuple_index()));
      return;
    case HloOpcode::kTopK:
      writer->Add("k", std::to_string(instruction.top_k()));
      writer->Add("largest", instruction.largest() ? "true" : "false");
      return;
    case HloOpcode::kSvd:
      writer->Add("full_matrices", instruction.linear_algebra().full_matrices
                                       ? "true"
                                       : "false");
      return;
    case HloOpcode::kEigh:
    case HloOpcode::kCholesky:
      writer->Add("lower",
                  instruction.linear_algebra().lower ? "true" : "false");
      return;
    case HloOpcode::kTriangularSolve: {
      const LinearAlgebraOptions& options = instruction.linear_algebra();
      writer->Add("left_side", options.left_side ? "true" : "false");
      writer->Add("lower", options.lower ? "true" : "false");
      writer->Add("unit_diagonal", options.unit_diagonal ? "true" : "false");
      writer->Add(
          "transpose_a",
          std::string(TriangularSolveTransposeName(options.transpose_a)));
      return;
    }
    case HloOpcode::kFft:
      writer->Add("fft_type", std::string(FftTypeName(instruction.fft_type())));
      writer->AddInts("fft_length", instruction.fft_length());
      return;
    case HloOpcode::kIota:
      writer->Add("iota_dimension",
                  std::to_string(instruction.iota_dimension()));
      return;
    case HloOpcode::kSlice:
      AddSliceAttribute(instruction, writer);
      return;
    case HloOpcode::kDynamicSlice:
      writer->AddInts("dynamic_slice_sizes", instruction.dynamic_slice_sizes());
      return;
    case HloOpcode::kPad:
      writer->Add("padding",
                  PaddingConfigToString(instruction.padding_config()));
      return;
    case HloOpcode::kReduceWindow:
    case HloOpcode::kSelectAndScatter:
      writer->Add("window", "{" + WindowToString(instruction.window()) + "}");
      return;
    case HloOpcode::kConvolution:
      AddConvolutionAttributes(instruction, writer);
      return;
    case HloOpcode::kDot:
      AddDotAttributes(instruction, writer);
      return;
    case HloOpcode::kGather:
      AddGatherAttributes(instruction, writer);
      return;
    case HloOpcode::kScatter:
      AddScatterAttributes(instruction, writer);
      return;
    case HloOpcode::kCompare:
      writer->Add("direction", std::string(ComparisonDirectionName(
                                   instruction.comparison_direction())));
      if (instruction.comparison_type() != ComparisonType::kDefault) {
        writer->Add(
            "type",
            std::string(ComparisonTypeName(instruction.comparison_type())));
      }
      return;
    case HloOpcode::kReducePrecision:
      writer->Add("exponent_bits", std::to_string(instruction.exponent_bits()));
      writer->Add("mantissa_bits", std::to_string(instruction.mantissa_bits()));
      return;
    case HloOpcode::kBatchNormGrad:
    case HloOpcode::kBatchNormInference:
    case HloOpcode::kBatchNormTraining:
      writer->Add("epsilon", ShortestFloatText(instruction.epsilon()));
      writer->Add("feature_index", std::to_string(instruction.feature_index()));
      return;
    case HloOpcode::kFusion:
      if (!instruction.fusion_kind().empty()) {
        writer->Add("kind", instruction.fusion_kind());
      }
      return;
    default:
      return;
  }
}

std::string OperandsToText(const HloInstruction& instruction) {
  switch (instruction.opcode()) {
    case HloOpcode::kConstant:
      return LiteralToText(instruction.literal());
    case HloOpcode::kParameter:
      return std::to_string(instruction.parameter_number());
    default:
      break;
  }
  std::string text;
  for (int64_t i = 0; i < instruction.operand_count(); ++i) {
    if (i > 0) text += ", ";
    text += "%" + instruction.operand(i)->name();
  }
  return text;
}

}  // namespace

std::string LiteralToText(const Literal& literal) {
  if (literal.IsTuple()) {
    std::string text = "(";
    for (std::size_t i = 0; i < literal.tuple_elements().size(); ++i) {
      text += i > 0 ? ", " : " ";
      text += LiteralToText(literal.tuple_elements()[i]);
    }
    return text + " )";
  }
  std::string text;
  int64_t index = 0;
  AppendArrayText(literal, 0, &index, &text);
  return text;
}

std::string HloInstructionToText(const HloInstruction& instruction) {
  AttributeWriter writer;
  AddOpcodeAttributes(instruction, &writer);
  AddCalledComputations(instruction, &writer);
  if (instruction.sharding().has_value()) {
    writer.Add("sharding", instruction.sharding()->ToString());
  }
  return "%" + instruction.name() + " = " + instruction.shape().ToString() +
         " " + std::string(HloOpcodeName(instruction.opcode())) + "(" +
         OperandsToText(instruction) + ")" + writer.text();
}

std::string HloComputationToText(const HloComputation& computation) {
  const bool is_entry =
      computation.parent() != nullptr &&
      computation.parent()->entry_computation() == &computation;
  std::string text = is_entry ? "ENTRY %" : "%";
  text += computation.name() + " (";
  bool first = true;
  for (const HloInstruction* parameter : computation.parameter_instructions()) {
    if (parameter == nullptr) continue;
    text += first ? "" : ", ";
    // A name that starts with a digit is read back only after its '%'.
    const std::string& name = parameter->name();
    const bool digit_first =
        !name.empty() && std::isdigit(static_cast<unsigned char>(name[0]));
    text +=
        (digit_first ? "%" : "") + name + ": " + parameter->shape().ToString();
    first = false;
  }
  const HloInstruction* root = computation.root_instruction();
  text +=
      ") -> " + (root != nullptr ? root->shape().ToString() : "()") + " {\n";
  for (const HloInstruction* instruction : computation.instructions()) {
    text += instruction == computation.root_instruction() ? "  ROOT " : "  ";
    text += HloInstructionToText(*instruction) + "\n";
  }
  return text + "}\n";
}

std::string HloModuleToText(const HloModule& module) {
  std::string text = "HloModule " + module.name();
  if (module.replica_count() != 1) {
    text += ", replica_count=" + std::to_string(module.replica_count());
  }
  // A global program's device count is its shardings' (as jax.jit lowers
  // it); num_partitions marks a per-device program.
  if (module.num_partitions() != 1 && !module.spmd_global()) {
    text += ", num_partitions=" + std::to_string(module.num_partitions());
  }
  text += "\n";
  for (const HloComputation* computation : module.computations()) {
    text += "\n" + HloComputationToText(*computation);
  }
  return text;
}

}  // namespace phal
