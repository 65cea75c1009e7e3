#include "core/frontend/stablehlo_lowering.h"

#include <algorithm>
#include <utility>

#include "core/frontend/dense_elements.h"
#include "core/frontend/lapack_custom_calls.h"
#include "core/frontend/minifloat_rounding.h"
#include "core/frontend/narrow_integers.h"
#include "core/frontend/sdy_sharding.h"
#include "core/frontend/stablehlo_lowering_context.h"
#include "core/hlo/process_groups.h"

namespace phal {
namespace {

bool IsReturn(const std::string& name) {
  return name == "func.return" || name == "return" ||
         name == "stablehlo.return" || name == "sdy.return";
}

// Which comparison a check dialect op or check custom_call target makes.
struct CheckShape {
  CheckKind kind;
  bool against_constant;
};

std::optional<CheckShape> ClassifyCheck(const std::string& kind) {
  if (kind == "check.expect_eq" || kind == "check.eq")
    return CheckShape{CheckKind::kEqual, false};
  if (kind == "check.expect_eq_const")
    return CheckShape{CheckKind::kEqual, true};
  if (kind == "check.expect_almost_eq")
    return CheckShape{CheckKind::kAlmostEqual, false};
  if (kind == "check.expect_almost_eq_const")
    return CheckShape{CheckKind::kAlmostEqual, true};
  if (kind == "check.expect_close") return CheckShape{CheckKind::kClose, false};
  if (kind == "check.expect_serialized_eq")
    return CheckShape{CheckKind::kSkipped, false};
  return std::nullopt;
}

}  // namespace

HloInstruction* LoweringScope::Find(const std::string& key) const {
  const auto it = values.find(key);
  return it == values.end() ? nullptr : it->second;
}

std::string ValueKey(const std::string& name, int64_t index) {
  return name + "#" + std::to_string(index);
}

StableHloLowering::StableHloLowering(const MlirModule& module,
                                     const SourceText& source)
    : mlir_(module), source_(source) {}

std::string StableHloLowering::UniqueName(const std::string& base) {
  std::string name = HloNameFrom(base);
  if (name.empty()) name = "computation";
  std::string candidate = name;
  for (int suffix = 1; used_names_.count(candidate) > 0; ++suffix) {
    candidate = name + "." + std::to_string(suffix);
  }
  used_names_.insert(candidate);
  return candidate;
}

HloComputation* StableHloLowering::AddComputation(
    std::unique_ptr<HloComputation> computation) {
  return module_->AddComputation(std::move(computation));
}

StatusOr<StableHloModule> StableHloLowering::Run() {
  module_ = std::make_unique<HloModule>(mlir_.name.empty() ? "stablehlo_module"
                                                           : mlir_.name);
  PHAL_RETURN_IF_ERROR(ReadProcessGrid());
  PHAL_RETURN_IF_ERROR(ReadMeshes());
  for (const MlirFunction& function : mlir_.functions) {
    if (!functions_.emplace(function.name, &function).second) {
      return source_.ErrorAt(
          function.offset, "function @" + function.name + " is defined twice");
    }
  }
  CollectParallelPrograms();
  for (const MlirFunction& function : mlir_.functions) {
    if (parallel_programs_.count(function.name) > 0) {
      StableHloFunction program;
      program.name = function.name;
      program.is_public = false;
      program.parameter_count = static_cast<int64_t>(function.arguments.size());
      program.result_count = static_cast<int64_t>(function.result_types.size());
      lowered_.emplace(function.name, std::move(program));
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(const StableHloFunction* lowered,
                          LowerFunction(function.name, function.offset));
    (void)lowered;
  }
  StableHloModule result;
  for (const MlirFunction& function : mlir_.functions) {
    result.functions.push_back(std::move(lowered_.at(function.name)));
  }
  const StableHloFunction* entry = nullptr;
  const StableHloFunction* only_public = nullptr;
  int public_count = 0;
  for (const StableHloFunction& function : result.functions) {
    if (function.name == "main") entry = &function;
    if (function.is_public) {
      ++public_count;
      only_public = &function;
    }
  }
  if (entry == nullptr && public_count == 1) entry = only_public;
  if (entry != nullptr) {
    module_->set_entry_computation(entry->computation);
    // Values split outside a manual computation make a global program
    // for the SPMD partitioner; a shard_map program is per-device already.
    // A program with collectives of its own is per-device whatever its
    // shardings say.
    bool has_collectives = false;
    for (const HloComputation* computation : module_->computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        has_collectives |= IsCollective(instruction->opcode());
      }
    }
    module_->set_spmd_global(splits_values_ && grid_.process_count() > 1 &&
                             !has_collectives && !IsGlobalProgram(entry->name));
  }
  result.module = std::move(module_);
  return result;
}

void StableHloLowering::CollectParallelPrograms() {
  const auto visit = [&](const MlirRegion& region, const auto& self) -> void {
    for (const MlirOperation& op : region.operations) {
      for (const MlirRegion& nested : op.regions) self(nested, self);
      const MlirAttribute* programs = op.Attribute("programs");
      if (op.name != "interpreter.run_parallel" || programs == nullptr)
        continue;
      for (const MlirAttribute& row : programs->elements) {
        for (const MlirAttribute& program : row.elements) {
          parallel_programs_.insert(program.text);
        }
      }
    }
  };
  for (const MlirFunction& function : mlir_.functions)
    visit(function.body, visit);
}

StatusOr<const StableHloFunction*> StableHloLowering::LowerFunction(
    const std::string& name, std::size_t use_offset) {
  const auto done = lowered_.find(name);
  if (done != lowered_.end()) return &done->second;
  const auto found = functions_.find(name);
  if (found == functions_.end()) {
    return source_.ErrorAt(use_offset, "call to undefined function @" + name);
  }
  if (in_progress_.count(name) > 0) {
    return source_.ErrorAt(use_offset,
                           "recursive call to @" + name + " is not supported");
  }
  const MlirFunction& function = *found->second;
  if (IsGlobalProgram(name)) return LowerGlobalProgram(function);
  in_progress_.insert(name);
  HloBuilder builder(UniqueName(name));
  builder.set_process_grid(grid_);
  std::vector<CheckSpec> checks;
  Values check_outputs;
  LoweringScope scope;
  scope.builder = &builder;
  scope.function_name = name;
  scope.checks = &checks;
  scope.check_outputs = &check_outputs;
  scope.result_count = static_cast<int64_t>(function.result_types.size());
  PHAL_RETURN_IF_ERROR(BindArgumentsAsParameters(function.arguments, scope));
  Values returned;
  PHAL_RETURN_IF_ERROR(LowerOperations(function.body, scope, &returned));
  if (returned.size() != function.result_types.size()) {
    return source_.ErrorAt(function.offset,
                           "@" + name + " returns " +
                               std::to_string(returned.size()) +
                               " values but declares " +
                               std::to_string(function.result_types.size()));
  }
  for (std::size_t i = 0; i < returned.size(); ++i) {
    if (!returned[i]->shape().Compatible(function.result_types[i])) {
      return source_.ErrorAt(
          function.offset, "@" + name + " returns " +
                               returned[i]->shape().ToString() + " as result " +
                               std::to_string(i) + " but declares " +
                               function.result_types[i].ToString());
    }
  }
  Values outputs = returned;
  outputs.insert(outputs.end(), check_outputs.begin(), check_outputs.end());
  StableHloFunction lowered;
  lowered.returns_tuple = outputs.size() != 1 || !checks.empty();
  HloInstruction* root =
      outputs.size() == 1 && !lowered.returns_tuple ? outputs[0] : nullptr;
  if (root == nullptr) {
    PHAL_ASSIGN_OR_RETURN(root, builder.Tuple(outputs));
  }
  PHAL_ASSIGN_OR_RETURN(
      root, ApplyResultShardings(function, builder, root, lowered.returns_tuple,
                                 outputs.size()));
  lowered.name = name;
  lowered.is_public = function.is_public;
  lowered.computation = AddComputation(builder.Build(root));
  lowered.parameter_count = static_cast<int64_t>(function.arguments.size());
  lowered.result_count = static_cast<int64_t>(returned.size());
  lowered.checks = std::move(checks);
  lowered.callees = callees_[name];
  in_progress_.erase(name);
  return &lowered_.emplace(name, std::move(lowered)).first->second;
}

Status StableHloLowering::BindArgumentsAsParameters(
    const std::vector<MlirBlockArgument>& arguments, LoweringScope& scope) {
  for (const MlirBlockArgument& argument : arguments) {
    HloInstruction* parameter =
        scope.builder->AddParameter(argument.type, argument.name);
    scope.values[ValueKey(argument.name, 0)] = parameter;
    if (argument.emulated.IsEmulated())
      emulated_[parameter] = argument.emulated;
    PHAL_ASSIGN_OR_RETURN(std::optional<HloSharding> sharding,
                          ValueSharding(argument.attributes, argument.type));
    if (sharding.has_value()) parameter->set_sharding(std::move(sharding));
  }
  return OkStatus();
}

StatusOr<HloInstruction*> StableHloLowering::ApplyResultShardings(
    const MlirFunction& function, HloBuilder& builder, HloInstruction* root,
    bool returns_tuple, std::size_t output_count) {
  std::vector<HloSharding> shardings(output_count);
  bool any = false;
  for (std::size_t i = 0; i < function.result_attributes.size() &&
                          i < function.result_types.size() && i < output_count;
       ++i) {
    PHAL_ASSIGN_OR_RETURN(
        std::optional<HloSharding> sharding,
        ValueSharding(function.result_attributes[i], function.result_types[i]));
    if (!sharding.has_value()) continue;
    shardings[i] = *std::move(sharding);
    any = true;
  }
  if (!any) return root;
  if (returns_tuple) {
    root->set_sharding(HloSharding::Tuple(std::move(shardings)));
    return root;
  }
  // The result's sharding goes on a copy: the value returned may be an
  // argument or a value used elsewhere, whose own sharding stays.
  PHAL_ASSIGN_OR_RETURN(
      HloInstruction * copy,
      builder.Add(builder.Create(HloOpcode::kCopy, root->shape(), {root})));
  copy->set_sharding(std::move(shardings[0]));
  return copy;
}

StatusOr<HloInstruction*> StableHloLowering::ShardingConstraint(
    HloInstruction* value, HloSharding sharding, LoweringScope& scope) {
  PHAL_ASSIGN_OR_RETURN(HloInstruction * copy,
                        scope.builder->Add(scope.builder->Create(
                            HloOpcode::kCopy, value->shape(), {value})));
  NoteSharding(sharding);
  copy->set_sharding(std::move(sharding));
  return copy;
}

Status StableHloLowering::LowerOperations(const MlirRegion& region,
                                          LoweringScope& scope,
                                          Values* returned) {
  bool saw_return = false;
  for (const MlirOperation& op : region.operations) {
    if (saw_return)
      return source_.ErrorAt(op.offset, "operation after the region's return");
    PHAL_RETURN_IF_ERROR(LowerOperation(op, scope, returned));
    saw_return = IsReturn(op.name);
  }
  if (!saw_return)
    return source_.ErrorAt(region.offset,
                           "the region does not end with a return");
  return OkStatus();
}

Status StableHloLowering::LowerOperation(const MlirOperation& op,
                                         LoweringScope& scope,
                                         Values* returned) {
  if (IsReturn(op.name)) {
    PHAL_ASSIGN_OR_RETURN(*returned, LookUpOperands(op, scope));
    return OkStatus();
  }
  if (op.name.rfind("check.", 0) == 0) return LowerCheck(op, op.name, scope);
  if (op.name == "sdy.sharding_constraint") {
    // A constraint that splits no dimension over any axis (what JAX writes
    // around a value it keeps replicated, `<@empty_mesh, [{}]>` in
    // jax.random's functions) changes nothing: the value passes through.
    // One that splits a dimension needs the SPMD partitioner.
    const MlirAttribute* sharding = op.Attribute("sharding");
    if (sharding != nullptr && sharding->kind == MlirAttribute::Kind::kSdy) {
      PHAL_ASSIGN_OR_RETURN(SdyTensorSharding constraint,
                            ParseSdyTensorSharding(source_, sharding->raw_begin,
                                                   sharding->raw_end));
      bool splits = !constraint.unreduced.empty();
      for (const SdyDimensionSharding& dimension : constraint.dimensions) {
        splits |= !dimension.axes.empty();
      }
      PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
      if (!splits || operands.size() != 1) {
        return BindResults(op, operands, scope);
      }
      // One that splits a dimension is a constraint for the SPMD
      // partitioner.
      PHAL_ASSIGN_OR_RETURN(
          HloSharding hlo,
          SdyAttributeToHlo(constraint, operands[0]->shape().rank()));
      PHAL_ASSIGN_OR_RETURN(HloInstruction * constrained,
                            ShardingConstraint(operands[0], hlo, scope));
      return BindResults(op, {constrained}, scope);
    }
  }
  if (op.name.rfind("sdy.", 0) == 0) {
    return source_.ErrorAt(op.offset,
                           op.name +
                               " is supported only as the manual computation "
                               "at the top level of the entry function",
                           PHAL_UNIMPLEMENTED);
  }
  if (op.name == "stablehlo.custom_call") {
    const MlirAttribute* target = op.Attribute("callee");
    if (target == nullptr) target = op.Attribute("call_target_name");
    const std::string name = target != nullptr ? target->text : "";
    if (name.rfind("check.", 0) == 0 && ClassifyCheck(name).has_value()) {
      return LowerCheck(op, name, scope);
    }
    const MlirAttribute* mhlo = op.Attribute("mhlo.sharding");
    if (name == "Sharding" && mhlo != nullptr && op.operands.size() == 1) {
      // GSPMD's sharding constraint (with_sharding_constraint with Shardy
      // off).
      PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
      PHAL_ASSIGN_OR_RETURN(HloSharding sharding, MhloShardingOf(*mhlo));
      const Status fits =
          CheckShardingFitsShape(sharding, operands[0]->shape());
      if (!fits.ok()) {
        return source_.ErrorAt(mhlo->offset, std::string(fits.message()));
      }
      PHAL_ASSIGN_OR_RETURN(
          HloInstruction * constrained,
          ShardingConstraint(operands[0], std::move(sharding), scope));
      return BindResults(op, {constrained}, scope);
    }
    if (IsLapackTarget(name)) return LowerLapackCall(op, name, scope);
    return source_.ErrorAt(op.offset, "unsupported custom_call @" + name);
  }
  StatusOr<Values> results = LowerValueOp(op, scope);
  if (!results.ok()) {
    const std::string& message = results.status().message();
    if (message.rfind(source_.file_name() + ":", 0) == 0)
      return results.status();
    return source_.ErrorAt(op.offset, op.name + ": " + message);
  }
  PHAL_RETURN_IF_ERROR(WrapEmulatedResults(op, *results, scope));
  PHAL_RETURN_IF_ERROR(ApplyMhloSharding(op.attributes, *results));
  return BindResults(op, *results, scope);
}

Status StableHloLowering::WrapEmulatedResults(const MlirOperation& op,
                                              Values& results,
                                              LoweringScope& scope) {
  const MlirAttribute* value = op.Attribute("value");
  for (std::size_t i = 0; i < results.size(); ++i) {
    EmulatedType type =
        i < op.result_emulated.size() ? op.result_emulated[i] : EmulatedType();
    if (op.result_emulated.empty() && value != nullptr) type = value->emulated;
    if (!type.IsEmulated() || !results[i]->shape().IsArray()) continue;
    // Quantized results are already storage values (quantized_lowering.h).
    if (type.quantized != nullptr) {
      emulated_[results[i]] = type;
      continue;
    }
    // Constants already hold values of the type.
    if (results[i]->opcode() == HloOpcode::kConstant) {
      emulated_[results[i]] = type;
      continue;
    }
    if (type.integer_bits > 0) {
      PHAL_ASSIGN_OR_RETURN(
          results[i],
          WrapToNarrowInteger(*scope.builder, results[i], type.integer_bits));
    } else {
      PHAL_ASSIGN_OR_RETURN(
          results[i],
          RoundToMinifloatFormat(*scope.builder, results[i], *type.minifloat));
    }
    emulated_[results[i]] = type;
  }
  return OkStatus();
}

Status StableHloLowering::BindResults(const MlirOperation& op,
                                      const Values& results,
                                      LoweringScope& scope) {
  const int64_t named = op.ResultCount();
  if (named != static_cast<int64_t>(results.size())) {
    return source_.ErrorAt(
        op.offset, op.name + " produces " + std::to_string(results.size()) +
                       " results but " + std::to_string(named) + " are named");
  }
  std::size_t next = 0;
  for (const MlirResultGroup& group : op.results) {
    for (int64_t i = 0; i < group.count; ++i) {
      scope.values[ValueKey(group.name, i)] = results[next++];
    }
  }
  if (op.result_types.size() == results.size()) {
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (!results[i]->shape().Compatible(op.result_types[i])) {
        return source_.ErrorAt(op.offset, op.name + " computes " +
                                              results[i]->shape().ToString() +
                                              " but its type says " +
                                              op.result_types[i].ToString());
      }
    }
  }
  return OkStatus();
}

Status StableHloLowering::LowerCheck(const MlirOperation& op,
                                     const std::string& kind,
                                     LoweringScope& scope) {
  const std::optional<CheckShape> shape = ClassifyCheck(kind);
  if (!shape.has_value())
    return source_.ErrorAt(op.offset, "unsupported check " + kind);
  if (scope.checks == nullptr) {
    return source_.ErrorAt(
        op.offset, kind + " is supported only at the top level of a function");
  }
  CheckSpec check;
  check.kind = shape->kind;
  check.op_name =
      op.name == "stablehlo.custom_call" ? "custom_call @" + kind : kind;
  check.function = scope.function_name;
  check.location = source_.LocationOf(op.offset);
  if (op.name == "stablehlo.custom_call") {
    if (kind == "check.expect_close")
      check.max_ulp_difference = kCustomCallMaxUlpDifference;
    if (kind == "check.expect_almost_eq")
      check.tolerance = kCustomCallAlmostEqualTolerance;
  }
  if (check.kind == CheckKind::kSkipped) {
    check.skip_reason =
        kind +
        " compares against probe files written by the StableHLO "
        "interpreter's instrumentation, which this run does not produce";
    scope.checks->push_back(std::move(check));
    return OkStatus();
  }
  const std::size_t needed = shape->against_constant ? 1 : 2;
  if (op.operands.size() != needed) {
    return source_.ErrorAt(
        op.offset, kind + " expects " + std::to_string(needed) +
                       " operands, got " + std::to_string(op.operands.size()));
  }
  PHAL_ASSIGN_OR_RETURN(Values values, LookUpOperands(op, scope));
  const auto output_index = [&] {
    return scope.result_count +
           static_cast<int64_t>(scope.check_outputs->size());
  };
  check.actual_output = output_index();
  scope.check_outputs->push_back(values[0]);
  if (shape->against_constant) {
    const MlirAttribute* value = op.Attribute("value");
    if (value == nullptr ||
        value->kind != MlirAttribute::Kind::kDenseElements) {
      return source_.ErrorAt(op.offset,
                             kind + " expects a dense<...> expected value");
    }
    const Shape type = value->has_type ? value->type : values[0]->shape();
    PHAL_ASSIGN_OR_RETURN(Literal expected,
                          DenseElementsToLiteral(value->dense, type, source_,
                                                 value->emulated.minifloat));
    if (!expected.shape().Compatible(values[0]->shape())) {
      return source_.ErrorAt(
          op.offset, "the expected value " + expected.shape().ToString() +
                         " does not match the checked value " +
                         values[0]->shape().ToString());
    }
    check.expected = std::move(expected);
  } else {
    if (!values[1]->shape().Compatible(values[0]->shape())) {
      return source_.ErrorAt(
          op.offset,
          "checked values differ in shape: " + values[0]->shape().ToString() +
              " and " + values[1]->shape().ToString());
    }
    check.expected_output = output_index();
    scope.check_outputs->push_back(values[1]);
  }
  const ElementType checked = values[0]->shape().element_type();
  if (op.name == "stablehlo.custom_call" && kind == "check.eq" &&
      (IsFloat(checked) || IsComplex(checked))) {
    check.kind = CheckKind::kAlmostEqual;
  }
  if (const MlirAttribute* tolerance = op.Attribute("tolerance")) {
    check.tolerance = tolerance->number;
  }
  if (const MlirAttribute* max_ulp = op.Attribute("max_ulp_difference")) {
    check.max_ulp_difference = static_cast<uint64_t>(max_ulp->integer);
  }
  if (const MlirAttribute* min_ulp = op.Attribute("min_ulp_difference")) {
    check.min_ulp_difference = static_cast<uint64_t>(min_ulp->integer);
  }
  scope.checks->push_back(std::move(check));
  return OkStatus();
}

std::vector<std::string> StableHloLowering::FreeValues(
    const MlirRegion& region) const {
  std::set<std::string> defined;
  std::vector<std::string> used;
  std::set<std::string> seen;
  // Visits ops depth first; MLIR's dominance rules make every definition
  // inside the region precede its uses, so one pass suffices.
  const auto visit_region = [&](const MlirRegion& r, const auto& self) -> void {
    for (const MlirBlockArgument& argument : r.arguments)
      defined.insert(ValueKey(argument.name, 0));
    for (const MlirOperation& op : r.operations) {
      for (const MlirValueUse& use : op.operands) {
        const std::string key = ValueKey(use.name, use.index);
        if (defined.count(key) == 0 && seen.insert(key).second)
          used.push_back(key);
      }
      for (const MlirRegion& nested : op.regions) self(nested, self);
      for (const MlirResultGroup& group : op.results) {
        for (int64_t i = 0; i < group.count; ++i)
          defined.insert(ValueKey(group.name, i));
      }
    }
  };
  visit_region(region, visit_region);
  std::vector<std::string> free;
  for (const std::string& key : used) {
    if (defined.count(key) == 0) free.push_back(key);
  }
  return free;
}

StatusOr<Values> StableHloLowering::LookUpOperands(
    const MlirOperation& op, const LoweringScope& scope) const {
  Values values;
  for (const MlirValueUse& use : op.operands) {
    PHAL_ASSIGN_OR_RETURN(Values value, LookUp({ValueKey(use.name, use.index)},
                                               scope, use.offset));
    values.push_back(value[0]);
  }
  return values;
}

StatusOr<Values> StableHloLowering::LookUp(const std::vector<std::string>& keys,
                                           const LoweringScope& scope,
                                           std::size_t offset) const {
  Values values;
  for (const std::string& key : keys) {
    HloInstruction* value = scope.Find(key);
    if (value == nullptr) {
      const std::size_t hash = key.rfind('#');
      const std::string shown =
          key.substr(hash) == "#0" ? key.substr(0, hash) : key;
      return source_.ErrorAt(offset, "use of undefined value %" + shown);
    }
    values.push_back(value);
  }
  return values;
}

StatusOr<HloComputation*> StableHloLowering::LowerAppliedRegion(
    const MlirRegion& region, const LoweringScope& outer,
    const std::string& purpose) {
  HloBuilder builder(UniqueName(outer.function_name + "." + purpose));
  builder.set_process_grid(grid_);
  LoweringScope scope;
  scope.builder = &builder;
  scope.function_name = outer.function_name;
  PHAL_RETURN_IF_ERROR(BindArgumentsAsParameters(region.arguments, scope));
  for (const std::string& key : FreeValues(region)) {
    PHAL_ASSIGN_OR_RETURN(Values captured, LookUp({key}, outer, region.offset));
    if (captured[0]->opcode() != HloOpcode::kConstant) {
      return source_.ErrorAt(region.offset,
                             "the " + purpose + " region uses %" +
                                 key.substr(0, key.rfind('#')) +
                                 " from outside; only constants may be used "
                                 "there");
    }
    PHAL_ASSIGN_OR_RETURN(scope.values[key],
                          builder.Constant(captured[0]->literal()));
  }
  Values returned;
  PHAL_RETURN_IF_ERROR(LowerOperations(region, scope, &returned));
  HloInstruction* root = returned.size() == 1 ? returned[0] : nullptr;
  if (root == nullptr) {
    PHAL_ASSIGN_OR_RETURN(root, builder.Tuple(returned));
  }
  return AddComputation(builder.Build(root));
}

StatusOr<HloComputation*> StableHloLowering::LowerTupleRegion(
    const MlirRegion& region, const LoweringScope& outer,
    const std::string& purpose, const std::vector<Shape>& leading,
    const std::vector<std::string>& captures, TupleRegionRole role) {
  if (region.arguments.size() != leading.size()) {
    return source_.ErrorAt(region.offset,
                           "the " + purpose + " region takes " +
                               std::to_string(region.arguments.size()) +
                               " arguments, expected " +
                               std::to_string(leading.size()));
  }
  PHAL_ASSIGN_OR_RETURN(Values captured,
                        LookUp(captures, outer, region.offset));
  std::vector<Shape> state = leading;
  for (const HloInstruction* value : captured) state.push_back(value->shape());
  HloBuilder builder(UniqueName(outer.function_name + "." + purpose));
  builder.set_process_grid(grid_);
  LoweringScope scope;
  scope.builder = &builder;
  scope.function_name = outer.function_name;
  HloInstruction* parameter = builder.AddParameter(Shape::Tuple(state));
  Values elements;
  for (std::size_t i = 0; i < state.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(
        HloInstruction * element,
        builder.GetTupleElement(parameter, static_cast<int64_t>(i)));
    elements.push_back(element);
  }
  for (std::size_t i = 0; i < leading.size(); ++i) {
    scope.values[ValueKey(region.arguments[i].name, 0)] = elements[i];
    if (region.arguments[i].emulated.IsEmulated()) {
      emulated_[elements[i]] = region.arguments[i].emulated;
    }
  }
  for (std::size_t i = 0; i < captures.size(); ++i) {
    scope.values[captures[i]] = elements[leading.size() + i];
  }
  Values returned;
  PHAL_RETURN_IF_ERROR(LowerOperations(region, scope, &returned));
  HloInstruction* root = nullptr;
  if (role == TupleRegionRole::kCondition) {
    if (returned.size() != 1) {
      return source_.ErrorAt(region.offset,
                             "the condition must return one i1 value");
    }
    root = returned[0];
  } else {
    if (role == TupleRegionRole::kBody) {
      returned.insert(
          returned.end(),
          elements.begin() + static_cast<std::ptrdiff_t>(leading.size()),
          elements.end());
    }
    PHAL_ASSIGN_OR_RETURN(root, builder.Tuple(returned));
  }
  return AddComputation(builder.Build(root));
}

StatusOr<StableHloModule> LowerStableHlo(const MlirModule& module,
                                         const SourceText& source) {
  StableHloLowering lowering(module, source);
  return lowering.Run();
}

Status StableHloLowering::LowerLapackCall(const MlirOperation& op,
                                          const std::string& target,
                                          LoweringScope& scope) {
  PHAL_ASSIGN_OR_RETURN(Values operands, LookUpOperands(op, scope));
  LapackOptions options;
  const MlirAttribute* config = op.Attribute("mhlo.backend_config");
  if (config == nullptr) config = op.Attribute("backend_config");
  if (config != nullptr && config->kind == MlirAttribute::Kind::kDictionary) {
    for (const MlirNamedAttribute& field : config->fields) {
      if (field.value.kind == MlirAttribute::Kind::kInteger) {
        options.SetCode(field.name, static_cast<char>(field.value.integer));
      } else if (field.value.kind == MlirAttribute::Kind::kBool) {
        options.SetFlag(field.name, field.value.boolean);
      }
    }
  }
  LapackComputations computations{
      [this](const std::string& base) { return UniqueName(base); },
      [this](std::unique_ptr<HloComputation> computation) {
        return AddComputation(std::move(computation));
      }};
  StatusOr<std::vector<HloInstruction*>> results = LowerLapackCustomCall(
      *scope.builder, computations, target, options, operands, op.result_types);
  if (!results.ok()) {
    return source_.ErrorAt(op.offset, std::string(results.status().message()),
                           results.status().code());
  }
  return BindResults(op, *results, scope);
}

}  // namespace phal
