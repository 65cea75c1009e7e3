// The collectives group (tier 3): every collective op over element types,
// group forms and 2, 4 and 8 devices of the plugin under test, compiled for
// those devices at once and compared, process by process, with the
// reference's EvaluateSpmd; and one program whose two devices belong to two
// plugins.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "conformance/cases/corpus.h"
#include "conformance/runner/tolerance.h"
#include "core/frontend/hlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/reference/spmd_interpreter.h"
#include "polyhal/polyhal.hpp"
#include "sdk/base/element_types.h"

namespace phal::conformance {
namespace {

// How the processes of a case are arranged, and which of them meet.
enum class GroupForm {
  kReplicas,    // replica_count=n, one group of every replica
  kPartitions,  // num_partitions=n, a channel, one group of every partition
  kFlattened,   // 2 x n/2, use_global_device_ids, one iota group of all
  kUneven,      // replica_count=n, groups {0} and {1, ..., n-1}
};

const char* FormName(GroupForm form) {
  switch (form) {
    case GroupForm::kReplicas:
      return "replicas";
    case GroupForm::kPartitions:
      return "partitions";
    case GroupForm::kFlattened:
      return "flattened";
    case GroupForm::kUneven:
      return "uneven";
  }
  return "?";
}

// The module header's grid.
std::string GridOf(GroupForm form, int n) {
  switch (form) {
    case GroupForm::kPartitions:
      return "num_partitions=" + std::to_string(n);
    case GroupForm::kFlattened:
      return "replica_count=2, num_partitions=" + std::to_string(n / 2);
    default:
      return "replica_count=" + std::to_string(n);
  }
}

// The attributes naming the groups of an all-* op.
std::string GroupsOf(GroupForm form, int n) {
  switch (form) {
    case GroupForm::kReplicas:
      return "replica_groups={}";
    case GroupForm::kPartitions:
      return "channel_id=1, replica_groups={}";
    case GroupForm::kFlattened:
      return "channel_id=1, replica_groups=[1," + std::to_string(n) + "]<=[" +
             std::to_string(n) + "], use_global_device_ids=true";
    case GroupForm::kUneven: {
      std::string rest;
      for (int i = 1; i < n; ++i)
        rest += (i > 1 ? "," : "") + std::to_string(i);
      return "replica_groups={{0},{" + rest + "}}";
    }
  }
  return "";
}

// The size of the group process 0 is in.
int GroupSize(GroupForm form, int n) {
  return form == GroupForm::kUneven ? 1 : n;
}

// A reducer computation named `name` on scalars of `type`.
std::string Reducer(const std::string& name, const std::string& type,
                    const std::string& op) {
  std::string body;
  if (op == "odd") {
    body = "  p = " + type + "[] multiply(a, b)\n  ROOT r = " + type +
           "[] add(p, a)\n";
  } else {
    body = "  ROOT r = " + type + "[] " + op + "(a, b)\n";
  }
  return name + " {\n  a = " + type + "[] parameter(0)\n  b = " + type +
         "[] parameter(1)\n" + body + "}\n";
}

// A kernel before the collective, so that the plugin's own code produces
// its operand: negate, or not for pred.
std::string Before(const std::string& type, const std::string& shape) {
  if (type == "pred") return "  y = " + shape + " not(x)\n";
  if (type == "u8" || type == "u32") return "  y = " + shape + " copy(x)\n";
  return "  y = " + shape + " negate(x)\n";
}

// f32[2,3] from "f32" and {2, 3}.
std::string ShapeText(const std::string& type, const std::vector<int>& dims) {
  std::string text = type + "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    text += (i > 0 ? "," : "") + std::to_string(dims[i]);
  }
  return text + "]";
}

struct CollectiveSpec {
  std::string id;  // without the device count
  std::string op;
  std::string dtype;
  int devices = 2;
  std::string text;
};

void AddAllReduce(int n, GroupForm form, const std::string& type,
                  const std::string& reducer,
                  std::vector<CollectiveSpec>* out) {
  const std::string shape = ShapeText(type, {3, 5});
  CollectiveSpec spec;
  spec.op = "all-reduce";
  spec.dtype = type;
  spec.devices = n;
  spec.id = "all_reduce." + reducer + "." + type + "." + FormName(form);
  spec.text = "HloModule all_reduce, " + GridOf(form, n) + "\n" +
              Reducer("reduction", type, reducer) +
              "ENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + "  ROOT r = " + shape + " all-reduce(y), " +
              GroupsOf(form, n) + ", to_apply=reduction\n}\n";
  out->push_back(std::move(spec));
}

void AddAllGather(int n, GroupForm form, const std::string& type, int dimension,
                  std::vector<CollectiveSpec>* out) {
  const std::string shape = ShapeText(type, {2, 3});
  std::vector<int> gathered = {2, 3};
  gathered[static_cast<std::size_t>(dimension)] *= GroupSize(form, n);
  CollectiveSpec spec;
  spec.op = "all-gather";
  spec.dtype = type;
  spec.devices = n;
  spec.id = "all_gather.dim" + std::to_string(dimension) + "." + type + "." +
            FormName(form);
  spec.text = "HloModule all_gather, " + GridOf(form, n) +
              "\nENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + "  ROOT r = " + ShapeText(type, gathered) +
              " all-gather(y), " + GroupsOf(form, n) + ", dimensions={" +
              std::to_string(dimension) + "}\n}\n";
  out->push_back(std::move(spec));
}

void AddReduceScatter(int n, GroupForm form, const std::string& type,
                      std::vector<CollectiveSpec>* out) {
  const int group = GroupSize(form, n);
  const std::string shape = ShapeText(type, {2 * group, 3});
  CollectiveSpec spec;
  spec.op = "reduce-scatter";
  spec.dtype = type;
  spec.devices = n;
  spec.id = "reduce_scatter." + type + "." + FormName(form);
  spec.text = "HloModule reduce_scatter, " + GridOf(form, n) + "\n" +
              Reducer("reduction", type, "add") +
              "ENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + "  ROOT r = " + ShapeText(type, {2, 3}) +
              " reduce-scatter(y), " + GroupsOf(form, n) +
              ", dimensions={0}, to_apply=reduction\n}\n";
  out->push_back(std::move(spec));
}

void AddAllToAll(int n, GroupForm form, const std::string& type, bool tuple,
                 std::vector<CollectiveSpec>* out) {
  const int group = GroupSize(form, n);
  CollectiveSpec spec;
  spec.op = "all-to-all";
  spec.dtype = type;
  spec.devices = n;
  spec.id = std::string("all_to_all.") + (tuple ? "tuple." : "array.") + type +
            "." + FormName(form);
  const std::string shape = ShapeText(type, {group, 3});
  std::string root;
  if (tuple) {
    std::string operands, shapes;
    for (int i = 0; i < group; ++i) {
      operands += (i > 0 ? ", y" : "y");
      shapes += (i > 0 ? ", " : "") + shape;
    }
    root = "  ROOT r = (" + shapes + ") all-to-all(" + operands + "), " +
           GroupsOf(form, n) + "\n";
  } else {
    // The array form splits dimension 0 into one row per member and
    // concatenates what it receives along it: the shape stays.
    root = "  ROOT r = " + shape + " all-to-all(y), " + GroupsOf(form, n) +
           ", dimensions={0}\n";
  }
  spec.text = "HloModule all_to_all, " + GridOf(form, n) +
              "\nENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + root + "}\n";
  out->push_back(std::move(spec));
}

void AddPermute(int n, bool ring, const std::string& type,
                std::vector<CollectiveSpec>* out) {
  const std::string shape = ShapeText(type, {4, 2});
  std::string pairs;
  // A ring, or every other process sending to the next (the rest receive
  // zeros).
  for (int i = 0; i < n; i += ring ? 1 : 2) {
    pairs += std::string(pairs.empty() ? "" : ",") + "{" + std::to_string(i) +
             "," + std::to_string((i + 1) % n) + "}";
  }
  CollectiveSpec spec;
  spec.op = "collective-permute";
  spec.dtype = type;
  spec.devices = n;
  spec.id = std::string("collective_permute.") + (ring ? "ring." : "partial.") +
            type + ".replicas";
  spec.text = "HloModule permute, replica_count=" + std::to_string(n) +
              "\nENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + "  ROOT r = " + shape +
              " collective-permute(y), source_target_pairs={" + pairs +
              "}\n}\n";
  out->push_back(std::move(spec));
}

void AddBroadcast(int n, GroupForm form, const std::string& type,
                  std::vector<CollectiveSpec>* out) {
  const std::string shape = ShapeText(type, {3, 3});
  // The group's first member sends: process 1, then the others.
  std::string group = "1";
  for (int i = 0; i < n; ++i) {
    if (i != 1) group += "," + std::to_string(i);
  }
  const bool partitions = form == GroupForm::kPartitions;
  CollectiveSpec spec;
  spec.op = "collective-broadcast";
  spec.dtype = type;
  spec.devices = n;
  spec.id = "collective_broadcast." + type + "." + FormName(form);
  spec.text = "HloModule broadcast, " + GridOf(form, n) +
              "\nENTRY main {\n  x = " + shape + " parameter(0)\n" +
              Before(type, shape) + "  ROOT r = " + shape +
              " collective-broadcast(y), " +
              (partitions ? "channel_id=1, " : "") + "replica_groups={{" +
              group + "}}\n}\n";
  out->push_back(std::move(spec));
}

void AddIds(int n, std::vector<CollectiveSpec>* out) {
  CollectiveSpec spec;
  spec.op = "replica-id";
  spec.dtype = "u32";
  spec.devices = n;
  spec.id = "process_ids.u32.flattened";
  spec.text = "HloModule ids, replica_count=2, num_partitions=" +
              std::to_string(n / 2) +
              "\nENTRY main {\n  x = u32[] parameter(0)\n"
              "  r = u32[] replica-id()\n  p = u32[] partition-id()\n"
              "  s = u32[] add(r, x)\n"
              "  ROOT t = (u32[], u32[]) tuple(s, p)\n}\n";
  out->push_back(std::move(spec));
}

std::vector<CollectiveSpec> Specs() {
  std::vector<CollectiveSpec> specs;
  const GroupForm even[] = {GroupForm::kReplicas, GroupForm::kPartitions,
                            GroupForm::kFlattened};
  for (int n : {2, 4, 8}) {
    const struct {
      const char* type;
      const char* reducer;
    } reductions[] = {
        {"f32", "add"},     {"bf16", "add"},     {"s32", "add"},
        {"f64", "add"},     {"f32", "maximum"},  {"u8", "maximum"},
        {"s32", "minimum"}, {"f32", "multiply"}, {"pred", "and"},
        {"pred", "or"},     {"f32", "odd"}};
    for (const auto& reduction : reductions) {
      for (GroupForm form : even) {
        AddAllReduce(n, form, reduction.type, reduction.reducer, &specs);
      }
      AddAllReduce(n, GroupForm::kUneven, reduction.type, reduction.reducer,
                   &specs);
    }
    for (GroupForm form : even) {
      AddAllGather(n, form, "f32", 0, &specs);
      AddAllGather(n, form, "s32", 0, &specs);
      AddAllGather(n, form, "f16", 1, &specs);
      AddAllGather(n, form, "pred", 1, &specs);
      AddReduceScatter(n, form, "f32", &specs);
      AddReduceScatter(n, form, "s32", &specs);
    }
    // all-to-all has no flattened form: cross-replica, or cross-partition
    // with a channel.
    for (GroupForm form : {GroupForm::kReplicas, GroupForm::kPartitions}) {
      AddAllToAll(n, form, "f32", false, &specs);
      AddAllToAll(n, form, "s32", false, &specs);
      AddAllToAll(n, form, "f32", true, &specs);
    }
    for (const char* type : {"f32", "s32", "pred"}) {
      AddPermute(n, true, type, &specs);
    }
    AddPermute(n, false, "f32", &specs);
    for (GroupForm form : {GroupForm::kReplicas, GroupForm::kPartitions}) {
      AddBroadcast(n, form, "f32", &specs);
      AddBroadcast(n, form, "s32", &specs);
    }
    AddIds(n, &specs);
  }
  return specs;
}

// Process `process`'s argument of `shape`: small integers (halves for
// floating types) that sums and products of up to 8 terms keep exact.
Literal Argument(const Shape& shape, int64_t process, std::size_t parameter) {
  Literal literal(shape);
  const ElementType type = shape.element_type();
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    const int64_t n =
        (i * 5 + process * 3 + static_cast<int64_t>(parameter) * 7 + 1) % 7;
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      literal.SetFromInt64(i, (i + process) % 3 != 0);
    } else if (IsUnsigned(type)) {
      literal.SetFromInt64(i, n);
    } else if (IsIntegral(type)) {
      literal.SetFromInt64(i, n - 3);
    } else {
      literal.SetFromDouble(i, static_cast<double>(n - 3) / 2.0);
    }
  }
  return literal;
}

void Flatten(const Literal& literal, std::vector<const Literal*>* out) {
  if (!literal.IsTuple()) {
    out->push_back(&literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) Flatten(element, out);
}

// Compiles `text` for `devices` (process k on devices[k]), runs every
// process on its arguments and compares each with the reference's; "" when
// all agree.
std::string RunOnDevices(const std::string& text,
                         const std::vector<phal_device_t*>& devices) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "case");
  if (!module.ok())
    return "the case does not parse: " + module.status().ToString();
  if (Status verified = VerifyModule(**module); !verified.ok()) {
    return "the case does not verify: " + verified.ToString();
  }
  const int64_t processes = static_cast<int64_t>(devices.size());
  const HloComputation& entry = *(*module)->entry_computation();
  std::vector<std::vector<Literal>> arguments(devices.size());
  for (int64_t k = 0; k < processes; ++k) {
    for (int64_t p = 0; p < entry.num_parameters(); ++p) {
      arguments[static_cast<std::size_t>(k)].push_back(
          Argument(entry.parameter_instruction(p)->shape(), k,
                   static_cast<std::size_t>(p)));
    }
  }
  StatusOr<std::vector<Literal>> expected = EvaluateSpmd(**module, arguments);
  if (!expected.ok()) {
    return "the reference cannot run the case: " + expected.status().ToString();
  }
  std::vector<Device> wrapped(devices.begin(), devices.end());
  Result<Executable> executable = Executable::CompileForDevices(wrapped, text);
  if (!executable.ok()) return "compile: " + executable.error().ToString();
  std::vector<std::vector<Buffer>> inputs(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k) {
    for (const Literal& argument : arguments[k]) {
      Result<Buffer> buffer = Buffer::Allocate(
          wrapped[k], argument.element_type(), argument.shape().dims());
      if (!buffer.ok()) return "allocate: " + buffer.error().ToString();
      Error copied =
          buffer->CopyFromHost(argument.data(), argument.byte_size());
      if (!copied.ok()) return "copy: " + copied.ToString();
      inputs[k].push_back(std::move(buffer.value()));
    }
  }
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(inputs);
  if (!results.ok()) return "execute: " + results.error().ToString();
  for (std::size_t k = 0; k < devices.size(); ++k) {
    std::vector<const Literal*> want;
    Flatten((*expected)[k], &want);
    if ((*results)[k].size() != want.size()) {
      return "process " + std::to_string(k) + " returned " +
             std::to_string((*results)[k].size()) + " results, expected " +
             std::to_string(want.size());
    }
    std::vector<Literal> got;
    for (std::size_t i = 0; i < want.size(); ++i) {
      Literal value(want[i]->shape());
      Error copied =
          (*results)[k][i].CopyToHost(value.data(), value.byte_size());
      if (!copied.ok()) return "download: " + copied.ToString();
      got.push_back(std::move(value));
    }
    std::vector<const Literal*> actual;
    for (const Literal& value : got) actual.push_back(&value);
    // Reductions of up to 8 terms, whatever order a plugin sums in.
    const Comparison comparison =
        CompareResults(want, actual, Accumulation(processes));
    if (!comparison.passed) {
      std::string message = "process " + std::to_string(k) +
                            " differs from the reference beyond " +
                            comparison.bound;
      if (!comparison.message.empty()) message += ": " + comparison.message;
      if (!comparison.worst.empty()) {
        const ElementMismatch& worst = comparison.worst[0];
        message += " (output " + std::to_string(worst.output) + worst.position +
                   ": expected " + worst.expected + ", got " + worst.actual +
                   ")";
      }
      return message;
    }
  }
  return "";
}

// The first `count` devices of the plugin under test.
std::vector<phal_device_t*> FirstDevices(const ApiContext& context, int count) {
  return std::vector<phal_device_t*>(
      context.plugin_devices.begin(),
      context.plugin_devices.begin() + static_cast<std::ptrdiff_t>(count));
}

// A program for two devices, process 0 on the plugin under test and
// process 1 on a device of another plugin (cpu, or template when the plugin
// under test is cpu).
std::string CheckTwoPlugins(const ApiContext& context) {
  size_t index = 0;
  Error found(phal_device_get_plugin_index(context.device, &index));
  if (!found.ok()) return found.ToString();
  phal_plugin_info_t info{};
  info.struct_size = sizeof(info);
  Error described(phal_client_get_plugin_info(context.client, index, &info));
  if (!described.ok()) return described.ToString();
  const std::string mine = info.name;
  const std::string other = mine == "cpu" ? "template" : "cpu";
  // One client holds both plugins: a device assignment is one client's.
  const std::string both = mine + "," + other;
  phal_client_options_t options = context.client_options;
  options.struct_size = sizeof(options);
  options.plugin_filter = both.c_str();
  Result<Client> client = Client::Create(&options);
  if (!client.ok()) {
    return "a client of plugins '" + both + "': " + client.error().ToString();
  }
  const std::vector<phal_plugin_info_t> plugins = client->Plugins();
  phal_device_t* first = nullptr;
  phal_device_t* second = nullptr;
  for (const Device& device : client->Devices()) {
    size_t plugin = 0;
    const Error indexed(phal_device_get_plugin_index(device.get(), &plugin));
    if (!indexed.ok() || plugin >= plugins.size()) continue;
    if (first == nullptr && mine == plugins[plugin].name) first = device.get();
    if (second == nullptr && other == plugins[plugin].name) {
      second = device.get();
    }
  }
  if (first == nullptr || second == nullptr) {
    if (context.devices_unsupported != nullptr) {
      *context.devices_unsupported =
          "no device of plugin '" + (first == nullptr ? mine : other) +
          "' is found here (PHAL_PLUGIN_PATH, PHAL_PLUGINS) to share a group "
          "with";
      return "";
    }
    return "a client of plugins '" + both + "' lacks a device of one of them";
  }
  const std::string text =
      "HloModule two_plugins, num_partitions=2\n" +
      Reducer("reduction", "f32", "add") +
      "ENTRY main {\n  x = f32[4,3] parameter(0)\n  y = f32[4,3] negate(x)\n"
      "  s = f32[4,3] all-reduce(y), channel_id=1, replica_groups={{0,1}}, "
      "use_global_device_ids=true, to_apply=reduction\n"
      "  g = f32[8,3] all-gather(s), channel_id=2, replica_groups={{1,0}}, "
      "use_global_device_ids=true, dimensions={0}\n"
      "  p = f32[4,3] collective-permute(x), channel_id=3, "
      "source_target_pairs={{0,1},{1,0}}\n"
      "  ROOT t = (f32[8,3], f32[4,3]) tuple(g, p)\n}\n";
  return RunOnDevices(text, {first, second});
}

}  // namespace

std::vector<Case> CollectiveCases() {
  std::vector<Case> cases;
  for (CollectiveSpec& spec : Specs()) {
    Case c;
    c.id = "collectives." + spec.id + ".d" + std::to_string(spec.devices);
    c.op = "collectives." + spec.op;
    c.dtype = spec.dtype;
    c.tier = 3;
    c.kind = CaseKind::kApi;
    c.devices = spec.devices;
    const int devices = spec.devices;
    c.api_check = [text = std::move(spec.text),
                   devices](const ApiContext& context) {
      return RunOnDevices(text, FirstDevices(context, devices));
    };
    cases.push_back(std::move(c));
  }
  Case two;
  two.id = "collectives.two_plugins.f32";
  two.op = "collectives.two_plugins";
  two.dtype = "f32";
  two.tier = 3;
  two.kind = CaseKind::kApi;
  two.api_check = CheckTwoPlugins;
  cases.push_back(std::move(two));
  return cases;
}

}  // namespace phal::conformance
