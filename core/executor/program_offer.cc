#include "core/executor/program_offer.h"

#include <map>
#include <string>

#include "core/abi/c_status.h"
#include "core/hlo/printer.h"

namespace phal {
namespace {

bool Reads(uint32_t formats, phal_plugin_program_format_t format) {
  return (formats & PHAL_PLUGIN_PROGRAM_FORMAT_BIT(format)) != 0;
}

// The KIR graph of `plan`: one value per parameter leaf, constant and slot.
// False for a plan with a step other than a kernel.
bool FillGraph(const Program& program, const ComputationPlan& plan,
               ProgramOffer* offer) {
  for (const Step& step : plan.steps) {
    if (step.kind != StepKind::kKernel) return false;
  }
  const auto parameters = static_cast<std::size_t>(plan.parameter_leaf_count);
  std::vector<int> leaf_value(plan.leaf_shapes.size(), -1);
  for (std::size_t leaf = 0; leaf < parameters; ++leaf) {
    phal_program_value_t value{};
    value.kind = PHAL_PROGRAM_VALUE_PARAMETER;
    value.parameter = static_cast<uint32_t>(leaf);
    value.byte_size = static_cast<uint64_t>(plan.leaf_shapes[leaf].ByteSize());
    leaf_value[leaf] = static_cast<int>(offer->values.size());
    offer->values.push_back(value);
  }
  std::map<int, int> constant_value;
  std::map<int, int> slot_value;
  for (std::size_t leaf = parameters; leaf < plan.leaf_shapes.size(); ++leaf) {
    const int constant = plan.leaf_constant[leaf];
    const int slot = plan.leaf_slot[leaf];
    const int in_place =
        plan.leaf_parameter.empty() ? -1 : plan.leaf_parameter[leaf];
    if (constant >= 0) {
      auto [found, added] = constant_value.emplace(
          constant, static_cast<int>(offer->values.size()));
      if (added) {
        const Literal& literal =
            program.constants[static_cast<std::size_t>(constant)];
        phal_program_value_t value{};
        value.kind = PHAL_PROGRAM_VALUE_CONSTANT;
        value.byte_size = literal.byte_size();
        value.data = literal.data();
        offer->values.push_back(value);
      }
      leaf_value[leaf] = found->second;
    } else if (slot >= 0) {
      auto [found, added] =
          slot_value.emplace(slot, static_cast<int>(offer->values.size()));
      if (added) {
        phal_program_value_t value{};
        value.kind = PHAL_PROGRAM_VALUE_TEMPORARY;
        value.byte_size = static_cast<uint64_t>(
            plan.slot_bytes[static_cast<std::size_t>(slot)]);
        offer->values.push_back(value);
      }
      leaf_value[leaf] = found->second;
    } else if (in_place >= 0) {
      leaf_value[leaf] = leaf_value[static_cast<std::size_t>(in_place)];
    }
  }
  offer->writes_parameter.assign(parameters, false);
  for (const Step& step : plan.steps) {
    const KirKernel& kernel =
        *program.kernels[static_cast<std::size_t>(step.kernel)];
    std::vector<uint32_t>& bound = offer->step_values.emplace_back();
    for (std::size_t i = 0; i < step.buffers.size(); ++i) {
      const int value = leaf_value[static_cast<std::size_t>(step.buffers[i])];
      if (value < 0) return false;
      bound.push_back(static_cast<uint32_t>(value));
      if (kernel.buffers()[i].access != PHAL_KIR_ACCESS_READ &&
          static_cast<std::size_t>(value) < parameters) {
        offer->writes_parameter[static_cast<std::size_t>(value)] = true;
      }
    }
  }
  for (int leaf : plan.result_leaves) {
    const int value = leaf_value[static_cast<std::size_t>(leaf)];
    if (value < 0) return false;
    offer->results.push_back(static_cast<uint32_t>(value));
  }
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const KirKernel& kernel =
        *program.kernels[static_cast<std::size_t>(plan.steps[i].kernel)];
    offer->steps.push_back(
        {&kernel.built_desc(), offer->step_values[i].data()});
  }
  offer->graph.struct_size = sizeof(phal_kir_graph_t);
  offer->graph.value_count = static_cast<uint32_t>(offer->values.size());
  offer->graph.values = offer->values.data();
  offer->graph.step_count = static_cast<uint32_t>(offer->steps.size());
  offer->graph.steps = offer->steps.data();
  offer->graph.results = offer->results.data();
  return true;
}

// Appends the element type of every array of `shape`, depth-first.
void AppendLeafTypes(const Shape& shape,
                     std::vector<phal_element_type_t>* out) {
  if (!shape.IsTuple()) {
    out->push_back(shape.element_type());
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) {
    AppendLeafTypes(element, out);
  }
}

}  // namespace

Status SetOffloadRules(const phal_plugin_api_t* api,
                       phal_plugin_device_t* device,
                       const std::string& device_identity,
                       phal_program_format_t format, std::string_view text,
                       CompilerOptions* options) {
  if (api->abi_version < PHAL_MAKE_VERSION(1, 13) ||
      api->struct_size < PHAL_PLUGIN_API_STRUCT_SIZE_1_13 ||
      api->program_get_formats == nullptr ||
      api->program_accepts_op == nullptr) {
    return OkStatus();
  }
  uint32_t formats = 0;
  PHAL_RETURN_IF_ERROR(TakeCStatus(api->program_get_formats(device, &formats)));
  if (formats == 0) return OkStatus();
  constexpr uint32_t kTextFormats =
      PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_HLO_TEXT) |
      PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_STABLEHLO);
  options->offload.control_flow = (formats & kTextFormats) != 0;
  if (format == PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT &&
      (formats &
       PHAL_PLUGIN_PROGRAM_FORMAT_BIT(PHAL_PLUGIN_PROGRAM_STABLEHLO)) != 0) {
    options->offload.stablehlo_source = std::string(text);
  }
  phal_plugin_device_t* handle = device;
  options->offload.accepts =
      [api, handle](const HloInstruction& instruction) -> StatusOr<bool> {
    const std::string opcode(HloOpcodeName(instruction.opcode()));
    const std::string line = HloInstructionToText(instruction);
    std::vector<phal_element_type_t> operand_types;
    for (const HloInstruction* operand : instruction.operands()) {
      AppendLeafTypes(operand->shape(), &operand_types);
    }
    std::vector<phal_element_type_t> result_types;
    AppendLeafTypes(instruction.shape(), &result_types);
    phal_program_op_t op{};
    op.struct_size = sizeof(op);
    op.opcode = opcode.c_str();
    op.text = line.c_str();
    op.operand_count = static_cast<uint32_t>(operand_types.size());
    op.operand_types = operand_types.data();
    op.result_count = static_cast<uint32_t>(result_types.size());
    op.result_types = result_types.data();
    int accepted = 0;
    PHAL_RETURN_IF_ERROR(
        TakeCStatus(api->program_accepts_op(handle, &op, &accepted)));
    return accepted != 0;
  };
  options->offload_identity = device_identity + "\n" +
                              (api->version != nullptr ? api->version : "") +
                              "\n" + std::to_string(formats);
  return OkStatus();
}

bool MakeProgramOffer(const Program& program, const OffloadedPart& part,
                      uint32_t formats, ProgramOffer* offer) {
  const ComputationPlan& plan =
      program.computations[static_cast<std::size_t>(part.computation)];
  phal_program_desc_t& desc = offer->desc;
  desc.struct_size = sizeof(phal_program_desc_t);
  desc.name = part.name.c_str();
  if (!part.stablehlo.empty() &&
      Reads(formats, PHAL_PLUGIN_PROGRAM_STABLEHLO)) {
    desc.format = PHAL_PLUGIN_PROGRAM_STABLEHLO;
    desc.data = part.stablehlo.data();
    desc.size = part.stablehlo.size();
  } else if (!part.hlo_text.empty() &&
             Reads(formats, PHAL_PLUGIN_PROGRAM_HLO_TEXT)) {
    desc.format = PHAL_PLUGIN_PROGRAM_HLO_TEXT;
    desc.data = part.hlo_text.data();
    desc.size = part.hlo_text.size();
  } else if (Reads(formats, PHAL_PLUGIN_PROGRAM_KIR_GRAPH) &&
             FillGraph(program, plan, offer)) {
    desc.format = PHAL_PLUGIN_PROGRAM_KIR_GRAPH;
    desc.graph = &offer->graph;
  } else {
    return false;
  }
  const auto parameters = static_cast<std::size_t>(plan.parameter_leaf_count);
  if (offer->writes_parameter.size() != parameters) {
    offer->writes_parameter.assign(parameters, false);
  }
  std::vector<int> leaves;
  for (std::size_t leaf = 0; leaf < parameters; ++leaf) {
    leaves.push_back(static_cast<int>(leaf));
  }
  leaves.insert(leaves.end(), plan.result_leaves.begin(),
                plan.result_leaves.end());
  offer->dims.reserve(leaves.size());
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Shape& shape = plan.leaf_shapes[static_cast<std::size_t>(leaves[i])];
    const std::vector<int64_t>& dims = offer->dims.emplace_back(shape.dims());
    phal_kir_buffer_t buffer{};
    buffer.element_type = shape.element_type();
    buffer.rank = static_cast<uint32_t>(dims.size());
    buffer.dims = dims.empty() ? nullptr : dims.data();
    buffer.access = i >= parameters              ? PHAL_KIR_ACCESS_WRITE
                    : offer->writes_parameter[i] ? PHAL_KIR_ACCESS_READ_WRITE
                                                 : PHAL_KIR_ACCESS_READ;
    offer->buffers.push_back(buffer);
  }
  desc.parameter_count = static_cast<uint32_t>(parameters);
  desc.result_count = static_cast<uint32_t>(plan.result_leaves.size());
  desc.buffers = offer->buffers.data();
  desc.replica_count = static_cast<uint32_t>(program.replica_count);
  desc.partition_count = static_cast<uint32_t>(program.num_partitions);
  return true;
}

}  // namespace phal
