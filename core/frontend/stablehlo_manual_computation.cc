// Global programs whose work is one per-device body, as JAX lowers
// shard_map: the entry function takes and returns global arrays and hands
// them to a computation that is manual over every device, either Shardy's
//   %r = sdy.manual_computation(%a) in_shardings=[...] out_shardings=[...]
//        manual_axes={...} (%piece: ...) { ... sdy.return ... }
// or GSPMD's boundary around a call of the body:
//   %s = custom_call @Sharding(%a) {mhlo.sharding = "..."}
//   %p = custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = "{manual}"}
//   ... ops on pieces ...
//   %g = custom_call @SPMDShardToFullShape(%q) {mhlo.sharding = "..."}
// Such a function becomes the per-device program: its parameters and
// results are the pieces, carrying the shardings that split the global
// arrays into them. Ops on the global arrays themselves would need the SPMD
// partitioner and are refused. A function that calls such a function on its
// global arguments (a jitted shard_map inside jax.jit) is one too.
#include <algorithm>
#include <optional>

#include "core/frontend/sdy_sharding.h"
#include "core/frontend/stablehlo_lowering_context.h"
#include "core/hlo/sharded_array.h"

namespace phal {
namespace {

using AK = MlirAttribute::Kind;

constexpr char kManualComputation[] = "sdy.manual_computation";
constexpr char kShardingTarget[] = "Sharding";
constexpr char kFullToShardTarget[] = "SPMDFullToShardShape";
constexpr char kShardToFullTarget[] = "SPMDShardToFullShape";

// The target of a custom_call, or "" for any other op.
std::string CustomCallTarget(const MlirOperation& op) {
  if (op.name != "stablehlo.custom_call") return "";
  const MlirAttribute* target = op.Attribute("callee");
  if (target == nullptr) target = op.Attribute("call_target_name");
  return target == nullptr ? "" : target->text;
}

bool IsFunctionReturn(const MlirOperation& op) {
  return op.name == "func.return" || op.name == "return";
}

const MlirNamedAttribute* FindAttribute(
    const std::vector<MlirNamedAttribute>& attributes,
    const std::string& name) {
  const auto found = std::find_if(
      attributes.begin(), attributes.end(),
      [&](const MlirNamedAttribute& named) { return named.name == name; });
  return found == attributes.end() ? nullptr : &*found;
}

// The keys of every result of `op`, in order.
std::vector<std::string> ResultKeys(const MlirOperation& op) {
  std::vector<std::string> keys;
  for (const MlirResultGroup& group : op.results) {
    for (int64_t i = 0; i < group.count; ++i) {
      keys.push_back(ValueKey(group.name, i));
    }
  }
  return keys;
}

}  // namespace

bool StableHloLowering::IsGlobalProgram(const std::string& name) {
  const auto known = global_programs_.find(name);
  if (known != global_programs_.end()) return known->second;
  const auto found = functions_.find(name);
  if (found == functions_.end()) return false;
  // A recursive call is refused where it is lowered; meanwhile it does not
  // make its caller global.
  global_programs_[name] = false;
  bool global = false;
  for (const MlirOperation& op : found->second->body.operations) {
    const std::string target = CustomCallTarget(op);
    global = global || op.name == kManualComputation ||
             target == kFullToShardTarget || target == kShardToFullTarget ||
             !GlobalCallee(op).empty();
  }
  global_programs_[name] = global;
  return global;
}

std::string StableHloLowering::GlobalCallee(const MlirOperation& op) {
  if (op.name != "func.call" && op.name != "call") return "";
  const MlirAttribute* callee = op.Attribute("callee");
  if (callee == nullptr || !IsGlobalProgram(callee->text)) return "";
  return callee->text;
}

Status StableHloLowering::ReadMeshes() {
  for (const MlirMesh& mesh : mlir_.meshes) {
    PHAL_ASSIGN_OR_RETURN(DeviceMesh parsed,
                          ParseSdyMesh(source_, mesh.begin, mesh.end));
    if (!meshes_.emplace(mesh.name, std::move(parsed)).second) {
      return source_.ErrorAt(mesh.offset,
                             "sdy.mesh @" + mesh.name + " is defined twice");
    }
  }
  return OkStatus();
}

StatusOr<const DeviceMesh*> StableHloLowering::MeshOfGrid(
    const std::string& name, std::size_t offset) const {
  const auto found = meshes_.find(name);
  if (found == meshes_.end()) {
    return source_.ErrorAt(offset, "no sdy.mesh @" + name + " is defined");
  }
  const DeviceMesh& mesh = found->second;
  if (grid_.replicas != 1 || mesh.device_count() != grid_.partitions) {
    return source_.ErrorAt(
        offset,
        "the mesh @" + name + " has " + std::to_string(mesh.device_count()) +
            " devices, the module runs on " + std::to_string(grid_.replicas) +
            " replicas x " + std::to_string(grid_.partitions) +
            " partitions (mhlo.num_replicas must be 1 and "
            "mhlo.num_partitions the mesh's device count)");
  }
  return &mesh;
}

StatusOr<HloSharding> StableHloLowering::SdyAttributeToHlo(
    const SdyTensorSharding& sharding, int64_t rank) const {
  PHAL_ASSIGN_OR_RETURN(const DeviceMesh* mesh,
                        MeshOfGrid(sharding.mesh_name, sharding.offset));
  return SdyShardingToHlo(sharding, *mesh, rank, source_);
}

StatusOr<std::optional<HloSharding>> StableHloLowering::ValueSharding(
    const std::vector<MlirNamedAttribute>& attributes, const Shape& type) {
  std::optional<HloSharding> sharding;
  const MlirNamedAttribute* sdy = FindAttribute(attributes, "sdy.sharding");
  const MlirNamedAttribute* mhlo = FindAttribute(attributes, "mhlo.sharding");
  if (sdy != nullptr && sdy->value.kind == AK::kSdy) {
    PHAL_ASSIGN_OR_RETURN(SdyTensorSharding parsed,
                          ParseSdyTensorSharding(source_, sdy->value.raw_begin,
                                                 sdy->value.raw_end));
    bool splits = !parsed.unreduced.empty();
    for (const SdyDimensionSharding& dimension : parsed.dimensions) {
      splits |= !dimension.axes.empty();
    }
    if (!splits) return sharding;
    PHAL_ASSIGN_OR_RETURN(sharding, SdyAttributeToHlo(parsed, type.rank()));
  } else if (mhlo != nullptr) {
    PHAL_ASSIGN_OR_RETURN(sharding, MhloShardingOf(mhlo->value));
    const Status fits = CheckShardingFitsShape(*sharding, type);
    if (!fits.ok()) {
      return source_.ErrorAt(mhlo->value.offset, std::string(fits.message()));
    }
  }
  if (sharding.has_value()) NoteSharding(*sharding);
  return sharding;
}

void StableHloLowering::NoteSharding(const HloSharding& sharding) {
  if (sharding.kind() == HloSharding::Kind::kTiled) splits_values_ = true;
  for (const HloSharding& element : sharding.tuple_elements()) {
    NoteSharding(element);
  }
}

StatusOr<StableHloLowering::ManualComputation>
StableHloLowering::ReadManualComputation(const MlirOperation& op) {
  const MlirAttribute* in = op.Attribute("in_shardings");
  const MlirAttribute* out = op.Attribute("out_shardings");
  const MlirAttribute* axes = op.Attribute("manual_axes");
  if (in == nullptr || out == nullptr || axes == nullptr ||
      in->kind != AK::kSdy || out->kind != AK::kSdy || axes->kind != AK::kSdy ||
      op.regions.size() != 1) {
    return source_.ErrorAt(op.offset,
                           "sdy.manual_computation needs in_shardings, "
                           "out_shardings, manual_axes and a body");
  }
  const MlirRegion& body = op.regions[0];
  PHAL_ASSIGN_OR_RETURN(
      std::vector<SdyTensorSharding> in_shardings,
      ParseSdyTensorShardings(source_, in->raw_begin, in->raw_end));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<SdyTensorSharding> out_shardings,
      ParseSdyTensorShardings(source_, out->raw_begin, out->raw_end));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<SdyAxis> manual,
      ParseSdyAxisSet(source_, axes->raw_begin, axes->raw_end));
  if (in_shardings.size() != op.operands.size() ||
      body.arguments.size() != op.operands.size() ||
      out_shardings.size() != static_cast<std::size_t>(op.ResultCount()) ||
      op.result_types.size() != out_shardings.size()) {
    return source_.ErrorAt(
        op.offset,
        "sdy.manual_computation needs one in_sharding and one "
        "body argument per operand, and one out_sharding and one "
        "type per result");
  }
  ManualComputation computation;
  std::string mesh_name;
  for (std::size_t i = 0; i < in_shardings.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(
        HloSharding sharding,
        SdyAttributeToHlo(in_shardings[i], body.arguments[i].type.rank()));
    computation.in.push_back(std::move(sharding));
    mesh_name = in_shardings[i].mesh_name;
  }
  for (std::size_t i = 0; i < out_shardings.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(
        HloSharding sharding,
        SdyAttributeToHlo(out_shardings[i], op.result_types[i].rank()));
    computation.out.push_back(std::move(sharding));
    mesh_name = out_shardings[i].mesh_name;
  }
  if (mesh_name.empty()) return computation;
  const DeviceMesh& mesh = meshes_.at(mesh_name);
  for (const MeshAxis& axis : mesh.axes()) {
    const bool is_manual =
        std::any_of(manual.begin(), manual.end(),
                    [&](const SdyAxis& m) { return m.name == axis.name; });
    if (!is_manual && axis.size > 1) {
      return source_.ErrorAt(
          axes->offset,
          "the computation is manual over some axes of the mesh " +
              mesh.ToString() + " but not \"" + axis.name +
              "\"; a partially manual computation needs the SPMD "
              "partitioner, which is not implemented",
          PHAL_UNIMPLEMENTED);
    }
  }
  return computation;
}

StatusOr<HloSharding> StableHloLowering::BoundarySharding(
    const MlirOperation& op) const {
  const MlirAttribute* attribute = op.Attribute("mhlo.sharding");
  if (attribute == nullptr) {
    return source_.ErrorAt(op.offset, "custom_call @" + CustomCallTarget(op) +
                                          " needs mhlo.sharding = \"{...}\"");
  }
  return MhloShardingOf(*attribute);
}

StatusOr<StableHloLowering::GlobalSignature>
StableHloLowering::ReadGlobalSignature(const MlirFunction& function) {
  // Which global array each value holds: the index of the argument it
  // is (through @Sharding), or for a value assembled from pieces, -1 and
  // the sharding that assembles it.
  struct GlobalValue {
    int64_t argument = -1;
    std::optional<HloSharding> sharding;
  };
  std::map<std::string, GlobalValue> global;
  for (std::size_t j = 0; j < function.arguments.size(); ++j) {
    global[ValueKey(function.arguments[j].name, 0)].argument =
        static_cast<int64_t>(j);
  }
  GlobalSignature signature;
  signature.pieces.resize(function.arguments.size());
  signature.piece_shardings.resize(function.arguments.size());
  const auto global_operand = [&](const MlirValueUse& use) -> GlobalValue* {
    const auto found = global.find(ValueKey(use.name, use.index));
    return found == global.end() ? nullptr : &found->second;
  };
  const auto record = [&](const GlobalValue* value, const Shape& piece,
                          const HloSharding& sharding,
                          std::size_t offset) -> Status {
    if (value == nullptr || value->argument < 0) {
      return source_.ErrorAt(offset,
                             "only arguments of @" + function.name +
                                 " may enter the manual computation",
                             PHAL_UNIMPLEMENTED);
    }
    const auto j = static_cast<std::size_t>(value->argument);
    if (signature.pieces[j].has_value() &&
        (!signature.pieces[j]->Compatible(piece) ||
         signature.piece_shardings[j] != sharding)) {
      return source_.ErrorAt(offset,
                             "argument %" + function.arguments[j].name +
                                 " enters the manual computation "
                                 "split in two different ways",
                             PHAL_UNIMPLEMENTED);
    }
    signature.pieces[j] = piece;
    signature.piece_shardings[j] = sharding;
    return OkStatus();
  };
  for (const MlirOperation& op : function.body.operations) {
    const std::string target = CustomCallTarget(op);
    const std::vector<std::string> results = ResultKeys(op);
    if (op.name == kManualComputation) {
      PHAL_ASSIGN_OR_RETURN(ManualComputation computation,
                            ReadManualComputation(op));
      for (std::size_t i = 0; i < op.operands.size(); ++i) {
        PHAL_RETURN_IF_ERROR(record(global_operand(op.operands[i]),
                                    op.regions[0].arguments[i].type,
                                    computation.in[i], op.operands[i].offset));
      }
      for (std::size_t k = 0; k < results.size(); ++k) {
        global[results[k]].sharding = computation.out[k];
      }
    } else if (const std::string callee = GlobalCallee(op); !callee.empty()) {
      PHAL_ASSIGN_OR_RETURN(GlobalSignature inner,
                            ReadGlobalSignature(*functions_.at(callee)));
      if (inner.pieces.size() != op.operands.size() ||
          inner.result_shardings.size() != results.size()) {
        return source_.ErrorAt(op.offset, "the call of @" + callee +
                                              " does not match its signature");
      }
      for (std::size_t i = 0; i < op.operands.size(); ++i) {
        PHAL_RETURN_IF_ERROR(record(global_operand(op.operands[i]),
                                    *inner.pieces[i], inner.piece_shardings[i],
                                    op.operands[i].offset));
      }
      for (std::size_t k = 0; k < results.size(); ++k) {
        global[results[k]].sharding = inner.result_shardings[k];
      }
    } else if (target == kShardingTarget && !op.operands.empty() &&
               global_operand(op.operands[0]) != nullptr &&
               results.size() == 1) {
      GlobalValue value = *global_operand(op.operands[0]);
      PHAL_ASSIGN_OR_RETURN(value.sharding, BoundarySharding(op));
      global[results[0]] = value;
    } else if (target == kFullToShardTarget && op.operands.size() == 1 &&
               op.result_types.size() == 1) {
      const GlobalValue* value = global_operand(op.operands[0]);
      if (value != nullptr && !value->sharding.has_value()) {
        return source_.ErrorAt(op.offset,
                               "the operand of @SPMDFullToShardShape needs a "
                               "custom_call @Sharding saying how it is split");
      }
      PHAL_RETURN_IF_ERROR(record(
          value, op.result_types[0],
          value == nullptr ? HloSharding() : *value->sharding, op.offset));
    } else if (target == kShardToFullTarget && results.size() == 1) {
      PHAL_ASSIGN_OR_RETURN(global[results[0]].sharding, BoundarySharding(op));
    } else if (IsFunctionReturn(op)) {
      for (const MlirValueUse& use : op.operands) {
        const GlobalValue* value = global_operand(use);
        if (value == nullptr || value->argument >= 0 ||
            !value->sharding.has_value()) {
          return source_.ErrorAt(use.offset,
                                 "@" + function.name +
                                     " may return only results of the manual "
                                     "computation",
                                 PHAL_UNIMPLEMENTED);
        }
        signature.result_shardings.push_back(*value->sharding);
      }
    } else {
      for (const MlirValueUse& use : op.operands) {
        if (global_operand(use) == nullptr) continue;
        return source_.ErrorAt(
            op.offset,
            op.name + " works on the global array %" + use.name +
                " outside the manual computation; that needs the SPMD "
                "partitioner, which is not implemented",
            PHAL_UNIMPLEMENTED);
      }
    }
  }
  for (std::size_t j = 0; j < function.arguments.size(); ++j) {
    const MlirBlockArgument& argument = function.arguments[j];
    if (!signature.pieces[j].has_value()) {
      return source_.ErrorAt(argument.offset,
                             "argument %" + argument.name +
                                 " does not enter the manual computation",
                             PHAL_UNIMPLEMENTED);
    }
    PHAL_RETURN_IF_ERROR(CheckPieceOf(*signature.pieces[j],
                                      signature.piece_shardings[j],
                                      argument.type, argument.offset));
  }
  return signature;
}

Status StableHloLowering::CheckPieceOf(const Shape& piece,
                                       const HloSharding& sharding,
                                       const Shape& global,
                                       std::size_t offset) const {
  StatusOr<Shape> whole = GlobalShapeOf(piece, sharding);
  if (!whole.ok()) {
    return source_.ErrorAt(offset, std::string(whole.status().message()));
  }
  if (!whole->Compatible(global)) {
    return source_.ErrorAt(offset, "pieces of " + piece.ToString() +
                                       " split by " + sharding.ToString() +
                                       " make " + whole->ToString() + ", not " +
                                       global.ToString());
  }
  return OkStatus();
}

StatusOr<const StableHloFunction*> StableHloLowering::LowerGlobalProgram(
    const MlirFunction& function) {
  PHAL_ASSIGN_OR_RETURN(GlobalSignature signature,
                        ReadGlobalSignature(function));
  HloBuilder builder(UniqueName(function.name));
  builder.set_process_grid(grid_);
  LoweringScope scope;
  scope.builder = &builder;
  scope.function_name = function.name;
  for (std::size_t j = 0; j < function.arguments.size(); ++j) {
    const MlirBlockArgument& argument = function.arguments[j];
    HloInstruction* parameter =
        builder.AddParameter(*signature.pieces[j], argument.name);
    parameter->set_sharding(signature.piece_shardings[j]);
    scope.values[ValueKey(argument.name, 0)] = parameter;
  }
  Values returned;
  for (const MlirOperation& op : function.body.operations) {
    const std::string target = CustomCallTarget(op);
    if (target == kShardingTarget || target == kFullToShardTarget ||
        target == kShardToFullTarget) {
      // The boundary only relabels a value: the piece stays the piece.
      PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
      const std::vector<std::string> keys = ResultKeys(op);
      if (operands.size() != 1 || keys.size() != 1) {
        return source_.ErrorAt(op.offset, "custom_call @" + target +
                                              " takes and returns one value");
      }
      scope.values[keys[0]] = operands[0];
    } else if (op.name == kManualComputation) {
      PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
      LoweringScope body;
      body.builder = &builder;
      body.function_name = function.name;
      const MlirRegion& region = op.regions[0];
      for (std::size_t i = 0; i < operands.size(); ++i) {
        body.values[ValueKey(region.arguments[i].name, 0)] = operands[i];
      }
      Values pieces;
      PHAL_RETURN_IF_ERROR(LowerOperations(region, body, &pieces));
      const std::vector<std::string> keys = ResultKeys(op);
      if (keys.size() != pieces.size()) {
        return source_.ErrorAt(
            op.offset, "the body returns " + std::to_string(pieces.size()) +
                           " values for " + std::to_string(keys.size()) +
                           " results");
      }
      for (std::size_t k = 0; k < keys.size(); ++k) {
        scope.values[keys[k]] = pieces[k];
      }
    } else if (const std::string callee = GlobalCallee(op); !callee.empty()) {
      // A global program called on the global arguments: its per-device
      // program called on their pieces.
      PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
      PHAL_ASSIGN_OR_RETURN(Values pieces,
                            LowerCall(op, scope, operands, callee));
      const std::vector<std::string> keys = ResultKeys(op);
      if (keys.size() != pieces.size()) {
        return source_.ErrorAt(op.offset, "the call of @" + callee +
                                              " does not match its signature");
      }
      for (std::size_t k = 0; k < keys.size(); ++k) {
        scope.values[keys[k]] = pieces[k];
      }
    } else if (IsFunctionReturn(op)) {
      PHAL_ASSIGN_OR_RETURN(returned, LookUpOperands(op, scope));
    } else {
      PHAL_RETURN_IF_ERROR(LowerOperation(op, scope, &returned));
    }
  }
  if (returned.size() != function.result_types.size()) {
    return source_.ErrorAt(function.offset,
                           "@" + function.name + " returns " +
                               std::to_string(returned.size()) +
                               " values but declares " +
                               std::to_string(function.result_types.size()));
  }
  for (std::size_t k = 0; k < returned.size(); ++k) {
    PHAL_RETURN_IF_ERROR(
        CheckPieceOf(returned[k]->shape(), signature.result_shardings[k],
                     function.result_types[k], function.offset));
  }
  StableHloFunction lowered;
  lowered.returns_tuple = returned.size() != 1;
  HloInstruction* root = nullptr;
  if (lowered.returns_tuple) {
    PHAL_ASSIGN_OR_RETURN(root, builder.Tuple(returned));
    root->set_sharding(HloSharding::Tuple(signature.result_shardings));
  } else {
    root = returned[0];
    // A result that is also a parameter keeps the parameter's sharding.
    if (root->opcode() == HloOpcode::kParameter) {
      PHAL_ASSIGN_OR_RETURN(root, builder.Unary(HloOpcode::kCopy, root));
    }
    root->set_sharding(signature.result_shardings[0]);
  }
  lowered.name = function.name;
  lowered.is_public = function.is_public;
  lowered.computation = AddComputation(builder.Build(root));
  lowered.parameter_count = static_cast<int64_t>(function.arguments.size());
  lowered.result_count = static_cast<int64_t>(returned.size());
  lowered.callees = callees_[function.name];
  return &lowered_.emplace(function.name, std::move(lowered)).first->second;
}

}  // namespace phal
