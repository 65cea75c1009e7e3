// `polyhal run MODULE --devices N`: a program for N processes (replicas x
// partitions) on the first N devices of a plugin, or on the reference's
// grid. The inputs are global arrays, split over the devices by each entry
// parameter's sharding (the whole array on every device where it has
// none); the outputs are global arrays assembled by the root's shardings
// (process 0's value where a result has none).
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "core/hlo/sharded_array.h"
#include "core/io/npy.h"
#include "core/reference/spmd_interpreter.h"

namespace phal::cli {
namespace {

// The array shapes of `shape`, tuples flattened.
void LeafShapes(const Shape& shape, std::vector<Shape>* out) {
  if (!shape.IsTuple()) {
    out->push_back(shape);
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) LeafShapes(element, out);
}

// The leaves of `literal`, moved out.
void TakeLeaves(Literal literal, std::vector<Literal>* out) {
  if (!literal.IsTuple()) {
    out->push_back(std::move(literal));
    return;
  }
  for (Literal& element : literal.mutable_tuple_elements()) {
    TakeLeaves(std::move(element), out);
  }
}

// A grid program and how its arrays map to global ones.
struct GridProgram {
  std::unique_ptr<HloModule> module;
  int64_t processes = 1;
  int64_t partitions = 1;
  std::vector<Shape> parameter_shapes;  // one process's
  std::vector<std::optional<HloSharding>> parameter_shardings;
  std::vector<Shape> result_shapes;  // one process's leaves
  std::vector<std::optional<HloSharding>> result_shardings;
};

StatusOr<GridProgram> LoadGridProgram(const RunOptions& options) {
  GridProgram program;
  PHAL_ASSIGN_OR_RETURN(program.module,
                        LoadOneModule(options.module_path, "run"));
  const HloModule& module = *program.module;
  program.partitions = module.num_partitions();
  program.processes = module.replica_count() * module.num_partitions();
  if (program.processes != options.devices) {
    return InvalidArgument(
        options.module_path + ": the program runs on " +
        std::to_string(module.replica_count()) + " replicas x " +
        std::to_string(module.num_partitions()) +
        " partitions = " + std::to_string(program.processes) +
        " devices, not --devices " + std::to_string(options.devices));
  }
  const HloComputation& entry = *module.entry_computation();
  for (const HloInstruction* parameter : entry.parameter_instructions()) {
    if (parameter->shape().IsTuple()) {
      return Unimplemented(options.module_path + ": parameter '" +
                           parameter->name() +
                           "' is a tuple; --devices takes array parameters");
    }
    program.parameter_shapes.push_back(parameter->shape());
    program.parameter_shardings.push_back(parameter->sharding());
  }
  const HloInstruction& root = *entry.root_instruction();
  LeafShapes(root.shape(), &program.result_shapes);
  program.result_shardings.resize(program.result_shapes.size());
  if (root.sharding().has_value()) {
    PHAL_ASSIGN_OR_RETURN(std::vector<HloSharding> shardings,
                          LeafShardings(*root.sharding(), root.shape()));
    for (std::size_t i = 0;
         i < shardings.size() && i < program.result_shapes.size(); ++i) {
      program.result_shardings[i] = std::move(shardings[i]);
    }
  }
  return program;
}

// Each process's arguments: the global inputs (--input files or random
// values of the global shapes) split by the parameters' shardings.
StatusOr<std::vector<std::vector<Literal>>> SplitInputs(
    const GridProgram& program, const RunOptions& options) {
  std::vector<Shape> global_shapes;
  for (std::size_t i = 0; i < program.parameter_shapes.size(); ++i) {
    const std::optional<HloSharding>& sharding = program.parameter_shardings[i];
    if (!sharding.has_value()) {
      global_shapes.push_back(program.parameter_shapes[i]);
      continue;
    }
    PHAL_ASSIGN_OR_RETURN(
        Shape global, GlobalShapeOf(program.parameter_shapes[i], *sharding));
    global_shapes.push_back(std::move(global));
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> globals,
                        BindInputsToShapes(global_shapes, options));
  std::vector<std::vector<Literal>> arguments(
      static_cast<std::size_t>(program.processes));
  for (int64_t k = 0; k < program.processes; ++k) {
    for (std::size_t i = 0; i < globals.size(); ++i) {
      const std::optional<HloSharding>& sharding =
          program.parameter_shardings[i];
      if (!sharding.has_value()) {
        arguments[static_cast<std::size_t>(k)].push_back(globals[i]);
        continue;
      }
      PHAL_ASSIGN_OR_RETURN(
          Literal piece, ShardOf(globals[i], *sharding, k % program.partitions,
                                 program.parameter_shapes[i]));
      arguments[static_cast<std::size_t>(k)].push_back(std::move(piece));
    }
  }
  return arguments;
}

// Every process's result leaves on the reference's grid.
StatusOr<std::vector<std::vector<Literal>>> RunOnReference(
    const GridProgram& program,
    const std::vector<std::vector<Literal>>& arguments) {
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> results,
                        EvaluateSpmd(*program.module, arguments));
  std::vector<std::vector<Literal>> leaves(results.size());
  for (std::size_t k = 0; k < results.size(); ++k) {
    TakeLeaves(std::move(results[k]), &leaves[k]);
  }
  return leaves;
}

// Every process's result leaves on the first devices of `options.plugin`.
StatusOr<std::vector<std::vector<Literal>>> RunOnPluginDevices(
    const GridProgram& program,
    const std::vector<std::vector<Literal>>& arguments,
    const RunOptions& options) {
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  PHAL_ASSIGN_OR_RETURN(
      std::vector<Device> devices,
      FindPluginDevices(*client, options.plugin, program.processes));
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  Result<Executable> executable = Executable::CompileForDevices(
      devices, text, ProgramFormatOf(options.module_path), options.module_path);
  PHAL_RETURN_IF_ERROR(StatusFromError(executable.error()));
  std::vector<std::vector<Buffer>> inputs;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    std::vector<Buffer>& mine = inputs.emplace_back();
    for (const Literal& argument : arguments[d]) {
      Result<Buffer> buffer = Buffer::Allocate(
          devices[d], argument.element_type(), argument.shape().dims());
      PHAL_RETURN_IF_ERROR(StatusFromError(buffer.error()));
      PHAL_RETURN_IF_ERROR(StatusFromError(
          buffer->CopyFromHost(argument.data(), argument.byte_size())));
      mine.push_back(std::move(buffer.value()));
    }
  }
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(inputs);
  PHAL_RETURN_IF_ERROR(StatusFromError(results.error()));
  std::vector<std::vector<Literal>> leaves(devices.size());
  for (std::size_t d = 0; d < devices.size(); ++d) {
    const std::vector<Buffer>& buffers = (*results)[d];
    if (buffers.size() != program.result_shapes.size()) {
      return Internal("device " + std::to_string(d) + " returned " +
                      std::to_string(buffers.size()) + " results for " +
                      std::to_string(program.result_shapes.size()));
    }
    for (std::size_t i = 0; i < buffers.size(); ++i) {
      Literal leaf(program.result_shapes[i]);
      PHAL_RETURN_IF_ERROR(StatusFromError(
          buffers[i].CopyToHost(leaf.data(), leaf.byte_size())));
      leaves[d].push_back(std::move(leaf));
    }
  }
  return leaves;
}

// The global value of result `i`: assembled from the pieces of replica 0's
// partitions by its sharding, else process 0's value.
StatusOr<Literal> GlobalResult(const GridProgram& program,
                               const std::vector<std::vector<Literal>>& leaves,
                               std::size_t i) {
  const std::optional<HloSharding>& sharding = program.result_shardings[i];
  if (!sharding.has_value()) return leaves[0][i];
  std::vector<Literal> pieces;
  for (int64_t p = 0; p < program.partitions; ++p) {
    pieces.push_back(leaves[static_cast<std::size_t>(p)][i]);
  }
  PHAL_ASSIGN_OR_RETURN(Shape global,
                        GlobalShapeOf(program.result_shapes[i], *sharding));
  return AssembleShards(pieces, *sharding, global);
}

Status RunOnDevices(const RunOptions& options) {
  PHAL_ASSIGN_OR_RETURN(GridProgram program, LoadGridProgram(options));
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<Literal>> arguments,
                        SplitInputs(program, options));
  std::vector<std::vector<Literal>> leaves;
  if (options.plugin == "reference") {
    PHAL_ASSIGN_OR_RETURN(leaves, RunOnReference(program, arguments));
  } else {
    PHAL_ASSIGN_OR_RETURN(leaves,
                          RunOnPluginDevices(program, arguments, options));
  }
  std::vector<Literal> globals;
  for (std::size_t i = 0; i < program.result_shapes.size(); ++i) {
    PHAL_ASSIGN_OR_RETURN(Literal global, GlobalResult(program, leaves, i));
    globals.push_back(std::move(global));
  }
  PHAL_RETURN_IF_ERROR(
      EmitOutputs(Literal::Tuple(std::move(globals)), options));
  if (!options.per_device || options.output_dir.empty()) return OkStatus();
  for (std::size_t d = 0; d < leaves.size(); ++d) {
    for (std::size_t i = 0; i < leaves[d].size(); ++i) {
      const std::string path = options.output_dir + "/output_" +
                               std::to_string(i) + ".device_" +
                               std::to_string(d) + ".npy";
      PHAL_RETURN_IF_ERROR(WriteNpy(path, leaves[d][i]));
    }
  }
  return OkStatus();
}

}  // namespace

int RunOnDevicesFile(const RunOptions& options) {
  Status status = RunOnDevices(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal run: %s\n", status.message().c_str());
  return kExitFailure;
}

}  // namespace phal::cli
