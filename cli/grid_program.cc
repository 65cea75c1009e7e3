#include "cli/grid_program.h"

#include <chrono>
#include <string>

#include "cli/plugin_program.h"
#include "cli/run_support.h"
#include "core/hlo/sharded_array.h"

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

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

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

StatusOr<std::unique_ptr<DeviceRun>> PrepareDeviceRun(
    const std::vector<std::vector<Literal>>& arguments,
    const RunOptions& options) {
  auto run = std::make_unique<DeviceRun>();
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  run->client = std::move(client.value());
  PHAL_ASSIGN_OR_RETURN(
      run->devices, FindPluginDevices(run->client, options.plugin,
                                      static_cast<int64_t>(arguments.size())));
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  auto start = std::chrono::steady_clock::now();
  Result<Executable> executable = Executable::CompileForDevices(
      run->devices, text, ProgramFormatOf(options.module_path),
      options.module_path);
  PHAL_RETURN_IF_ERROR(StatusFromError(executable.error()));
  run->executable = std::move(executable.value());
  run->compile_ms = MillisecondsSince(start);
  start = std::chrono::steady_clock::now();
  for (std::size_t d = 0; d < run->devices.size(); ++d) {
    PHAL_ASSIGN_OR_RETURN(std::vector<Buffer> mine,
                          UploadArguments(run->devices[d], arguments[d]));
    run->inputs.push_back(std::move(mine));
  }
  run->upload_ms = MillisecondsSince(start);
  return run;
}

StatusOr<std::vector<std::vector<Literal>>> Download(
    const GridProgram& program,
    const std::vector<std::vector<Buffer>>& results) {
  std::vector<std::vector<Literal>> leaves(results.size());
  for (std::size_t d = 0; d < results.size(); ++d) {
    const std::vector<Buffer>& buffers = results[d];
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

void TakeLeaves(Literal literal, std::vector<Literal>* out) {
  if (!literal.IsTuple()) {
    out->push_back(std::move(literal));
    return;
  }
  for (Literal& element : literal.mutable_tuple_elements()) {
    TakeLeaves(std::move(element), out);
  }
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

}  // namespace phal::cli
