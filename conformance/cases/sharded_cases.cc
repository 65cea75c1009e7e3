// The sharded group: single-device cases run as global programs split over
// 2 and 4 devices. For each op, one f32 case of the elementwise, data
// movement, reduction and model families becomes a program whose first
// array parameter is split along each of its dimensions in turn (over 2
// devices, and over 4 along its first divisible dimension); the core's SPMD
// partitioner makes the per-device program, the plugin's devices run it at
// once, and the assembled result must match the reference interpreter on
// the global program, within the case's own tolerance.
#include <memory>
#include <string>
#include <vector>

#include "conformance/cases/corpus.h"
#include "conformance/runner/tolerance.h"
#include "core/compiler/spmd_partitioner.h"
#include "core/frontend/hlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/sharded_array.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "polyhal/polyhal.hpp"

namespace phal::conformance {
namespace {

void FlattenLeaves(const Literal& literal, std::vector<const Literal*>* out) {
  if (!literal.IsTuple()) {
    out->push_back(&literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) {
    FlattenLeaves(element, out);
  }
}

HloSharding ShardingOf(const HloInstruction& instruction) {
  return instruction.sharding().value_or(HloSharding::Replicated());
}

// `module` as a global program for `devices` devices whose parameter
// `parameter` is split along `dimension`; the result is whole.
std::string ShardedText(HloModule& module, int64_t parameter, int64_t dimension,
                        int64_t devices) {
  HloInstruction* split =
      module.entry_computation()->parameter_instruction(parameter);
  std::vector<int64_t> tiles(static_cast<std::size_t>(split->shape().rank()),
                             1);
  tiles[static_cast<std::size_t>(dimension)] = devices;
  StatusOr<TileAssignment> assignment =
      TileAssignment::Iota(std::move(tiles), {devices});
  split->set_sharding(HloSharding::Tiled(*std::move(assignment)));
  module.set_num_partitions(devices);
  module.set_spmd_global(true);
  std::string text = HloModuleToText(module);
  split->set_sharding(std::nullopt);
  return text;
}

// Runs the global program `text` on `devices` and compares the assembled
// results with the reference's; "" when they agree.
std::string RunSharded(const std::string& text,
                       const std::vector<InputSpec>& specs, uint64_t seed,
                       const ToleranceSpec& tolerance,
                       const std::vector<phal_device_t*>& devices) {
  StatusOr<std::unique_ptr<HloModule>> global = ParseHloText(text, "case");
  if (!global.ok()) {
    return "the case does not parse: " + global.status().ToString();
  }
  const HloComputation& entry = *(*global)->entry_computation();
  std::vector<Literal> arguments;
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const InputSpec spec = static_cast<std::size_t>(i) < specs.size()
                               ? specs[static_cast<std::size_t>(i)]
                               : RandomValues();
    arguments.push_back(MakeInput(entry.parameter_instruction(i)->shape(), spec,
                                  seed + static_cast<uint64_t>(i)));
  }
  StatusOr<Literal> expected = Evaluate(**global, arguments);
  if (!expected.ok()) {
    return "the reference cannot run the case: " + expected.status().ToString();
  }
  StatusOr<std::unique_ptr<HloModule>> local = PartitionSpmd(**global);
  if (!local.ok()) return "partition: " + local.status().ToString();
  const HloComputation& local_entry = *(*local)->entry_computation();
  std::vector<Device> wrapped(devices.begin(), devices.end());
  Result<Executable> executable = Executable::CompileForDevices(wrapped, text);
  if (!executable.ok()) return "compile: " + executable.error().ToString();
  std::vector<std::vector<Buffer>> inputs(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k) {
    for (int64_t i = 0; i < local_entry.num_parameters(); ++i) {
      const HloInstruction& parameter = *local_entry.parameter_instruction(i);
      StatusOr<Literal> piece =
          ShardOf(arguments[static_cast<std::size_t>(i)], ShardingOf(parameter),
                  static_cast<int64_t>(k), parameter.shape());
      if (!piece.ok()) return "split: " + piece.status().ToString();
      Result<Buffer> buffer = Buffer::Allocate(
          wrapped[k], piece->element_type(), piece->shape().dims());
      if (!buffer.ok()) return "allocate: " + buffer.error().ToString();
      Error copied = buffer->CopyFromHost(piece->data(), piece->byte_size());
      if (!copied.ok()) return "copy: " + copied.ToString();
      inputs[k].push_back(std::move(buffer.value()));
    }
  }
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(inputs);
  if (!results.ok()) return "execute: " + results.error().ToString();
  std::vector<const Literal*> want;
  FlattenLeaves(*expected, &want);
  const HloInstruction& root = *local_entry.root_instruction();
  StatusOr<std::vector<HloSharding>> shardings =
      LeafShardings(ShardingOf(root), root.shape());
  if (!shardings.ok() || shardings->size() != want.size()) {
    return "the per-device program's root does not match the result";
  }
  std::vector<Literal> assembled;
  for (std::size_t leaf = 0; leaf < want.size(); ++leaf) {
    std::vector<Literal> pieces;
    for (std::size_t k = 0; k < devices.size(); ++k) {
      if ((*results)[k].size() != want.size()) {
        return "device " + std::to_string(k) + " returned " +
               std::to_string((*results)[k].size()) + " results, expected " +
               std::to_string(want.size());
      }
      const Buffer& buffer = (*results)[k][leaf];
      phal_buffer_desc_t desc{};
      desc.struct_size = sizeof(desc);
      Error described(phal_buffer_get_desc(buffer.get(), &desc));
      if (!described.ok()) return "describe: " + described.ToString();
      Literal piece(
          Shape(desc.element_type,
                std::vector<int64_t>(desc.dims, desc.dims + desc.rank)));
      Error copied = buffer.CopyToHost(piece.data(), piece.byte_size());
      if (!copied.ok()) return "download: " + copied.ToString();
      pieces.push_back(std::move(piece));
    }
    StatusOr<Literal> whole =
        AssembleShards(pieces, (*shardings)[leaf], want[leaf]->shape());
    if (!whole.ok()) return "assemble: " + whole.status().ToString();
    assembled.push_back(*std::move(whole));
  }
  std::vector<const Literal*> actual;
  for (const Literal& value : assembled) actual.push_back(&value);
  const Comparison comparison = CompareResults(want, actual, tolerance);
  if (comparison.passed) return "";
  std::string message =
      "the assembled result differs from the reference beyond " +
      comparison.bound;
  if (!comparison.message.empty()) message += ": " + comparison.message;
  if (!comparison.worst.empty()) {
    const ElementMismatch& worst = comparison.worst[0];
    message += " (output " + std::to_string(worst.output) + worst.position +
               ": expected " + worst.expected + ", got " + worst.actual + ")";
  }
  return message;
}

// The first parameter of `module` that is an array with a dimension that
// splits in two, or -1.
int64_t SplittableParameter(const HloModule& module) {
  const HloComputation& entry = *module.entry_computation();
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const Shape& shape = entry.parameter_instruction(i)->shape();
    if (!shape.IsArray()) continue;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (shape.dim(d) % 2 == 0) return i;
    }
  }
  return -1;
}

// For each op of `family`, its first f32 numeric case for one device with
// a splittable parameter, parsed.
void Collect(std::vector<Case> family,
             std::vector<std::pair<Case, std::unique_ptr<HloModule>>>* out) {
  std::vector<std::string> seen;
  for (Case& c : family) {
    if (c.kind != CaseKind::kNumeric || c.dtype != "f32" || c.devices != 0 ||
        std::find(seen.begin(), seen.end(), c.op) != seen.end()) {
      continue;
    }
    StatusOr<std::unique_ptr<HloModule>> module =
        ParseHloText(c.module_text, c.id);
    if (!module.ok() || (*module)->num_partitions() != 1 ||
        (*module)->replica_count() != 1 || SplittableParameter(**module) < 0) {
      continue;
    }
    seen.push_back(c.op);
    out->emplace_back(std::move(c), std::move(module).value());
  }
}

}  // namespace

std::vector<Case> ShardedCases() {
  std::vector<std::pair<Case, std::unique_ptr<HloModule>>> sources;
  for (auto family :
       {&ElementwiseCases, &DataMovementCases, &ReductionCases, &ModelCases}) {
    Collect(family(), &sources);
  }
  std::vector<Case> cases;
  for (auto& [source, module] : sources) {
    const int64_t parameter = SplittableParameter(*module);
    HloComputation& entry = *module->entry_computation();
    const Shape shape = entry.parameter_instruction(parameter)->shape();
    bool four_done = false;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      for (int64_t devices : {int64_t{2}, int64_t{4}}) {
        if (shape.dim(d) % devices != 0) continue;
        if (devices == 4 && four_done) continue;
        four_done |= devices == 4;
        Case c;
        c.id = "sharded." + source.id + ".p" + std::to_string(parameter) + "d" +
               std::to_string(d) + ".x" + std::to_string(devices);
        c.op = "sharded." + source.op;
        c.dtype = source.dtype;
        c.tier = 3;
        c.shape_class = source.shape_class;
        c.value_class = source.value_class;
        c.kind = CaseKind::kApi;
        c.devices = static_cast<int>(devices);
        c.api_check = [text = ShardedText(*module, parameter, d, devices),
                       inputs = source.inputs, seed = source.seed,
                       tolerance = source.tolerance,
                       devices](const ApiContext& context) {
          std::vector<phal_device_t*> chosen(
              context.plugin_devices.begin(),
              context.plugin_devices.begin() +
                  static_cast<std::ptrdiff_t>(devices));
          return RunSharded(text, inputs, seed, tolerance, chosen);
        };
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

}  // namespace phal::conformance
