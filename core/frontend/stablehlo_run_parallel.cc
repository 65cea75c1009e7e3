// interpreter.run_parallel and the collective ops, simulated in one HLO
// computation: every process of the replicas x partitions grid gets its own
// copy of the program's ops, lowered in lockstep, and each collective op
// becomes the data movement between the copies that the StableHLO spec
// prescribes for its process groups (spec section "Collective ops").
#include <algorithm>
#include <deque>
#include <map>
#include <optional>

#include "core/frontend/stablehlo_lowering_context.h"
#include "core/hlo/process_groups.h"

namespace phal {
namespace {

using Group = std::vector<int64_t>;  // flattened process ids, r * P + p

bool IsHostTransfer(const std::string& name) {
  return name == "stablehlo.send" || name == "stablehlo.recv" ||
         name == "stablehlo.infeed" || name == "stablehlo.outfeed";
}

bool IsParallelCollective(const std::string& name) {
  static const std::set<std::string> kCollectives = {
      "stablehlo.all_reduce",         "stablehlo.all_gather",
      "stablehlo.all_to_all",         "stablehlo.reduce_scatter",
      "stablehlo.collective_permute", "stablehlo.collective_broadcast",
      "stablehlo.collective_reduce",  "stablehlo.replica_id",
      "stablehlo.partition_id"};
  return kCollectives.count(name) > 0;
}

// The opcode whose process-group rules a run_parallel collective follows
// (collective_reduce groups as all_reduce does).
HloOpcode GroupingOpcode(const std::string& name) {
  static const std::map<std::string, HloOpcode> kOpcodes = {
      {"all_gather", HloOpcode::kAllGather},
      {"all_reduce", HloOpcode::kAllReduce},
      {"all_to_all", HloOpcode::kAllToAll},
      {"collective_broadcast", HloOpcode::kCollectiveBroadcast},
      {"collective_permute", HloOpcode::kCollectivePermute},
      {"collective_reduce", HloOpcode::kAllReduce},
      {"reduce_scatter", HloOpcode::kReduceScatter}};
  return kOpcodes.at(name);
}

StatusOr<HloInstruction*> Concatenate(HloBuilder& b, const Values& parts,
                                      int64_t dimension) {
  if (parts.size() == 1) return parts[0];
  auto concatenate = b.Create(HloOpcode::kConcatenate, Shape(), parts);
  concatenate->set_dimensions({dimension});
  return b.Add(std::move(concatenate));
}

// Part `index` of `count` equal parts of x along `dimension`.
StatusOr<HloInstruction*> Part(HloBuilder& b, HloInstruction* x,
                               int64_t dimension, int64_t index,
                               int64_t count) {
  const int64_t size = x->shape().dim(dimension);
  if (count <= 0 || size % count != 0) {
    return InvalidArgument("dimension " + std::to_string(dimension) + " of " +
                           x->shape().ToString() + " does not split into " +
                           std::to_string(count) + " parts");
  }
  std::vector<int64_t> starts(static_cast<std::size_t>(x->shape().rank()), 0);
  std::vector<int64_t> limits = x->shape().dims();
  starts[static_cast<std::size_t>(dimension)] = index * (size / count);
  limits[static_cast<std::size_t>(dimension)] = (index + 1) * (size / count);
  return b.Slice(x, starts, limits);
}

StatusOr<HloInstruction*> Combine(HloBuilder& b, HloComputation* reducer,
                                  HloInstruction* x, HloInstruction* y) {
  auto map = b.Create(HloOpcode::kMap, Shape(), {x, y});
  map->AppendCalledComputation(reducer);
  return b.Add(std::move(map));
}

int64_t IntAttribute(const MlirOperation& op, const char* name,
                     int64_t fallback) {
  const MlirAttribute* attribute = op.Attribute(name);
  return attribute == nullptr ? fallback : attribute->integer;
}

}  // namespace

StatusOr<Values> StableHloLowering::LowerRunParallel(const MlirOperation& op,
                                                     LoweringScope& scope,
                                                     const Values& operands) {
  const MlirAttribute* programs = op.Attribute("programs");
  if (programs == nullptr || programs->elements.empty()) {
    return InvalidArgument("expects programs = [[@f, ...], ...]");
  }
  const auto replicas = static_cast<int64_t>(programs->elements.size());
  const auto partitions =
      static_cast<int64_t>(programs->elements[0].elements.size());
  // Process r * partitions + p runs programs[r][p].
  std::vector<const MlirFunction*> process_programs;
  for (const MlirAttribute& row : programs->elements) {
    if (static_cast<int64_t>(row.elements.size()) != partitions ||
        partitions == 0) {
      return InvalidArgument(
          "every replica needs the same number of partitions");
    }
    for (const MlirAttribute& name : row.elements) {
      const auto found = functions_.find(name.text);
      if (found == functions_.end())
        return InvalidArgument("undefined program @" + name.text);
      process_programs.push_back(found->second);
      callees_[scope.function_name].push_back(name.text);
    }
  }
  std::vector<LoweringScope> processes(process_programs.size());
  std::size_t next_input = 0;
  for (std::size_t k = 0; k < processes.size(); ++k) {
    processes[k].builder = scope.builder;
    processes[k].function_name = scope.function_name;
    for (const MlirBlockArgument& argument : process_programs[k]->arguments) {
      if (next_input >= operands.size()) break;
      processes[k].values[ValueKey(argument.name, 0)] = operands[next_input++];
    }
  }
  std::size_t needed = 0;
  for (const MlirFunction* program : process_programs)
    needed += program->arguments.size();
  if (operands.size() != needed) {
    return InvalidArgument("the programs take " + std::to_string(needed) +
                           " inputs, got " + std::to_string(operands.size()));
  }
  HostQueues queues;
  if (const MlirAttribute* infeed = op.Attribute("infeed")) {
    for (const MlirAttribute& queue : infeed->elements)
      queues.infeed.push_back(queue.text);
  }
  std::vector<Values> returned(processes.size());
  const bool same_program = std::all_of(
      process_programs.begin(), process_programs.end(),
      [&](const MlirFunction* p) { return p == process_programs[0]; });
  if (same_program) {
    PHAL_RETURN_IF_ERROR(LowerProgramInLockstep(*process_programs[0], processes,
                                                replicas, partitions, &queues,
                                                &returned));
  } else {
    // Different programs cannot run in lockstep; they run one after the
    // other, which host transfers (send before recv) allow and collectives
    // do not.
    for (std::size_t k = 0; k < processes.size(); ++k) {
      std::vector<LoweringScope> alone = {processes[k]};
      std::vector<Values> result(1);
      PHAL_RETURN_IF_ERROR(LowerProgramInLockstep(*process_programs[k], alone,
                                                  1, 1, &queues, &result));
      returned[k] = std::move(result[0]);
    }
  }
  Values results;
  for (const Values& values : returned)
    results.insert(results.end(), values.begin(), values.end());
  return results;
}

Status StableHloLowering::LowerProgramInLockstep(
    const MlirFunction& program, std::vector<LoweringScope>& processes,
    int64_t replicas, int64_t partitions, HostQueues* queues,
    std::vector<Values>* returned) {
  const auto located = [&](const MlirOperation& body_op,
                           Status status) -> Status {
    if (status.ok() ||
        status.message().rfind(source_.file_name() + ":", 0) == 0)
      return status;
    return source_.ErrorAt(body_op.offset,
                           body_op.name + ": " + status.message());
  };
  for (const MlirOperation& body_op : program.body.operations) {
    if (body_op.name == "func.return" || body_op.name == "return") {
      for (std::size_t k = 0; k < processes.size(); ++k) {
        PHAL_ASSIGN_OR_RETURN((*returned)[k],
                              LookUpOperands(body_op, processes[k]));
      }
      return OkStatus();
    }
    if (IsParallelCollective(body_op.name)) {
      if (processes.size() == 1 && replicas * partitions == 1 &&
          body_op.name != "stablehlo.replica_id" &&
          body_op.name != "stablehlo.partition_id") {
        return source_.ErrorAt(
            body_op.offset, body_op.name +
                                " between processes running different programs "
                                "is not supported");
      }
      PHAL_RETURN_IF_ERROR(located(
          body_op, LowerCollective(body_op, processes, replicas, partitions)));
      continue;
    }
    for (LoweringScope& process : processes) {
      if (IsHostTransfer(body_op.name)) {
        PHAL_RETURN_IF_ERROR(
            located(body_op, LowerHostTransfer(body_op, process, queues)));
        continue;
      }
      Values unused;
      PHAL_RETURN_IF_ERROR(LowerOperation(body_op, process, &unused));
    }
  }
  return source_.ErrorAt(program.offset,
                         "@" + program.name + " does not end with a return");
}

Status StableHloLowering::LowerHostTransfer(const MlirOperation& op,
                                            LoweringScope& process,
                                            HostQueues* queues) {
  HloBuilder& b = *process.builder;
  PHAL_ASSIGN_OR_RETURN(Values inputs, LookUpOperands(op, process));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * token, b.Tuple({}));
  const MlirAttribute* channel = op.Attribute("channel_handle");
  const MlirAttribute* handle =
      channel == nullptr ? nullptr : channel->Field("handle");
  const int64_t channel_id = handle == nullptr ? 0 : handle->integer;
  Values results;
  if (op.name == "stablehlo.send" || op.name == "stablehlo.outfeed") {
    // The data operands precede the token; outfeed data leaves the program.
    Values data(inputs.begin(), inputs.end() - (inputs.empty() ? 0 : 1));
    if (op.name == "stablehlo.send")
      queues->channels[channel_id].push_back(std::move(data));
  } else if (op.name == "stablehlo.recv") {
    std::deque<Values>& queue = queues->channels[channel_id];
    if (queue.empty()) {
      return InvalidArgument(
          "recv on channel " + std::to_string(channel_id) +
          " has nothing to receive (processes run in order, so the send "
          "must come from an earlier process)");
    }
    results = std::move(queue.front());
    queue.pop_front();
  } else {
    if (queues->infeed.empty())
      return InvalidArgument("the infeed queue is empty");
    const std::string feed = queues->infeed.front();
    queues->infeed.pop_front();
    PHAL_ASSIGN_OR_RETURN(results, LowerCall(op, process, {}, feed));
  }
  results.push_back(token);
  return BindResults(op, results, process);
}

Status StableHloLowering::LowerCollective(const MlirOperation& op,
                                          std::vector<LoweringScope>& processes,
                                          int64_t replicas,
                                          int64_t partitions) {
  HloBuilder& b = *processes[0].builder;
  const std::string name = op.name.substr(std::string("stablehlo.").size());
  const std::size_t count = processes.size();
  std::vector<Values> inputs(count);
  for (std::size_t k = 0; k < count; ++k) {
    PHAL_ASSIGN_OR_RETURN(inputs[k], LookUpOperands(op, processes[k]));
  }
  std::vector<std::optional<Values>> outputs(count);
  if (name == "replica_id" || name == "partition_id") {
    for (std::size_t k = 0; k < count; ++k) {
      const auto id = static_cast<int64_t>(k);
      const int64_t value =
          name == "replica_id" ? id / partitions : id % partitions;
      PHAL_ASSIGN_OR_RETURN(
          HloInstruction * constant,
          b.Constant(Literal::Scalar(PHAL_ELEMENT_TYPE_U32, value)));
      outputs[k] = Values{constant};
    }
  } else {
    const ProcessGrid grid{replicas, partitions};
    PHAL_ASSIGN_OR_RETURN(
        CollectiveGroupMode mode,
        CollectiveGroupModeOf(GroupingOpcode(name), ChannelOf(op).has_value(),
                              UsesGlobalDeviceIds(op)));
    if (name == "collective_permute") {
      std::vector<std::pair<int64_t, int64_t>> pairs;
      for (const Group& pair :
           IntegerRows(op.Attribute("source_target_pairs"))) {
        if (pair.size() != 2)
          return InvalidArgument("source_target_pairs must be pairs");
        pairs.emplace_back(pair[0], pair[1]);
      }
      PHAL_ASSIGN_OR_RETURN(auto processes,
                            PermuteProcessPairs(mode, pairs, grid));
      for (const auto& [source, target] : processes) {
        outputs[static_cast<std::size_t>(target)] =
            inputs[static_cast<std::size_t>(source)];
      }
    } else {
      PHAL_ASSIGN_OR_RETURN(
          std::vector<Group> groups,
          ProcessGroups(mode, IntegerRows(op.Attribute("replica_groups")), grid,
                        false));
      HloComputation* reducer = nullptr;
      if (name == "all_reduce" || name == "reduce_scatter" ||
          name == "collective_reduce") {
        if (op.regions.size() != 1)
          return InvalidArgument("expects a reduction region");
        PHAL_ASSIGN_OR_RETURN(
            reducer,
            LowerAppliedRegion(op.regions[0], processes[0], name + "_body"));
      }
      std::size_t data_count = inputs[0].size();
      const bool dynamic_root = op.Attribute("has_dynamic_root") != nullptr;
      if (dynamic_root) --data_count;
      for (const Group& group : groups) {
        const auto size = static_cast<int64_t>(group.size());
        for (int64_t member = 0; member < size; ++member) {
          const auto k =
              static_cast<std::size_t>(group[static_cast<std::size_t>(member)]);
          Values results;
          for (std::size_t i = 0; i < data_count; ++i) {
            Values across;
            for (int64_t source : group)
              across.push_back(inputs[static_cast<std::size_t>(source)][i]);
            HloInstruction* result = nullptr;
            if (name == "all_gather") {
              PHAL_ASSIGN_OR_RETURN(
                  result, Concatenate(b, across,
                                      IntAttribute(op, "all_gather_dim", 0)));
            } else if (name == "all_to_all") {
              const int64_t split = IntAttribute(op, "split_dimension", 0);
              Values parts;
              for (HloInstruction* source : across) {
                PHAL_ASSIGN_OR_RETURN(HloInstruction * part,
                                      Part(b, source, split, member, size));
                parts.push_back(part);
              }
              PHAL_ASSIGN_OR_RETURN(
                  result, Concatenate(b, parts,
                                      IntAttribute(op, "concat_dimension", 0)));
            } else if (name == "collective_broadcast") {
              int64_t root = 0;
              if (dynamic_root) {
                HloInstruction* roots = inputs[k].back();
                if (roots->opcode() != HloOpcode::kConstant) {
                  return InvalidArgument(
                      "a dynamic root must be a constant here");
                }
                root = roots->literal().GetAsInt64(static_cast<int64_t>(i));
              }
              if (root < 0 || root >= size)
                return InvalidArgument("root out of range");
              result = across[static_cast<std::size_t>(root)];
            } else {
              result = across[0];
              for (std::size_t j = 1; j < across.size(); ++j) {
                PHAL_ASSIGN_OR_RETURN(result,
                                      Combine(b, reducer, result, across[j]));
              }
              if (name == "reduce_scatter") {
                PHAL_ASSIGN_OR_RETURN(
                    result,
                    Part(b, result, IntAttribute(op, "scatter_dimension", 0),
                         member, size));
              } else if (name == "collective_reduce" && member != 0) {
                PHAL_ASSIGN_OR_RETURN(result, b.FullLike(result, 0));
              }
            }
            results.push_back(result);
          }
          outputs[k] = results;
        }
      }
    }
  }
  // collective_permute and collective_broadcast give zeros to the processes
  // that receive nothing; the other collectives need every process.
  const bool zeros_when_idle =
      name == "collective_permute" || name == "collective_broadcast";
  for (std::size_t k = 0; k < count; ++k) {
    if (!outputs[k].has_value() && zeros_when_idle) {
      Values zeros;
      for (HloInstruction* x : inputs[k]) {
        PHAL_ASSIGN_OR_RETURN(HloInstruction * zero, b.FullLike(x, 0));
        zeros.push_back(zero);
      }
      outputs[k] = zeros;
    }
    if (!outputs[k].has_value()) {
      return InvalidArgument("process " + std::to_string(k) +
                             " belongs to no process group");
    }
    PHAL_RETURN_IF_ERROR(BindResults(op, *outputs[k], processes[k]));
  }
  return OkStatus();
}

}  // namespace phal
