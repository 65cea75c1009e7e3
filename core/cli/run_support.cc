#include "core/cli/run_support.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/hlo/printer.h"
#include "core/io/npy.h"
#include "core/reference/interpreter.h"

namespace phal::cli {
namespace {

std::string DescribeParameters(const HloComputation& entry) {
  std::string text;
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction* parameter = entry.parameter_instruction(i);
    text += "\n  parameter " + std::to_string(i) + " '" + parameter->name() +
            "': " + parameter->shape().ToString();
  }
  return text;
}

Status CheckInput(const Literal& input, const HloInstruction& parameter,
                  int64_t index, const std::string& file) {
  if (input.shape().Compatible(parameter.shape())) return OkStatus();
  return InvalidArgument(
      "input " + std::to_string(index) + " (" + file + ") is " +
      input.shape().ToString() + " but parameter " + std::to_string(index) +
      " '" + parameter.name() + "' is " + parameter.shape().ToString());
}

void FillRandom(Literal* literal, std::mt19937_64& generator) {
  if (literal->IsTuple()) {
    for (Literal& element : literal->mutable_tuple_elements()) {
      FillRandom(&element, generator);
    }
    return;
  }
  ElementType type = literal->element_type();
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int64_t> signed_int(-10, 10);
  std::uniform_int_distribution<int64_t> unsigned_int(0, 10);
  std::uniform_int_distribution<int64_t> boolean(0, 1);
  for (int64_t i = 0; i < literal->ElementCount(); ++i) {
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      literal->SetFromInt64(i, boolean(generator));
    } else if (IsSigned(type)) {
      literal->SetFromInt64(i, signed_int(generator));
    } else if (IsUnsigned(type)) {
      literal->SetFromInt64(i, unsigned_int(generator));
    } else if (IsComplex(type)) {
      double re = real(generator);
      literal->SetFromComplex(i, {re, real(generator)});
    } else {
      literal->SetFromDouble(i, real(generator));
    }
  }
}

void Flatten(const Literal& literal, std::vector<const Literal*>* leaves) {
  if (!literal.IsTuple()) {
    leaves->push_back(&literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) {
    Flatten(element, leaves);
  }
}

}  // namespace

StatusOr<std::string> ReadTextFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFound(path + ": cannot open the file");
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return Internal(path + ": read error");
  return text.str();
}

int ParseRunOptions(ArgumentReader& reader, RunOptions* options) {
  std::string plugin = reader.Value("--plugin");
  if (!plugin.empty()) options->plugin = plugin;
  options->inputs = reader.Values("--input");
  options->output_dir = reader.Value("--output-dir");
  options->print = reader.Flag("--print");
  std::string seed = reader.Value("--random-inputs");
  if (!seed.empty()) {
    auto [end, error] =
        std::from_chars(seed.data(), seed.data() + seed.size(), options->seed);
    if (error != std::errc() || end != seed.data() + seed.size()) {
      return reader.UsageError(
          "--random-inputs takes a non-negative integer "
          "seed, not '" +
          seed + "'");
    }
    options->random_inputs = true;
  }
  std::vector<std::string> positionals = reader.Positionals();
  if (!reader.Done()) return kExitUsage;
  if (positionals.size() != 1) {
    return reader.UsageError(positionals.empty()
                                 ? "missing the module file"
                                 : "expected one module file, got " +
                                       std::to_string(positionals.size()));
  }
  options->module_path = positionals[0];
  return kExitSuccess;
}

Literal RandomLiteral(const Shape& shape, uint64_t seed) {
  std::mt19937_64 generator(seed);
  Literal literal(shape);
  FillRandom(&literal, generator);
  return literal;
}

StatusOr<std::vector<Literal>> BindInputs(const HloComputation& entry,
                                          const RunOptions& options) {
  int64_t count = entry.num_parameters();
  int64_t given = static_cast<int64_t>(options.inputs.size());
  if (given > count) {
    return InvalidArgument(std::to_string(given) +
                           " inputs given but the "
                           "entry computation '" +
                           entry.name() + "' takes " + std::to_string(count) +
                           ":" + DescribeParameters(entry));
  }
  if (given < count && !options.random_inputs) {
    return InvalidArgument(
        "the entry computation '" + entry.name() + "' takes " +
        std::to_string(count) + " inputs but " + std::to_string(given) +
        " were given; pass --input FILE.npy for each parameter, in order, "
        "or --random-inputs SEED:" +
        DescribeParameters(entry));
  }
  std::vector<Literal> arguments;
  for (int64_t i = 0; i < count; ++i) {
    const HloInstruction& parameter = *entry.parameter_instruction(i);
    if (i < given) {
      const std::string& file = options.inputs[static_cast<size_t>(i)];
      PHAL_ASSIGN_OR_RETURN(Literal input, ReadNpy(file));
      PHAL_RETURN_IF_ERROR(CheckInput(input, parameter, i, file));
      arguments.push_back(std::move(input));
    } else {
      arguments.push_back(RandomLiteral(
          parameter.shape(), options.seed + static_cast<uint64_t>(i)));
    }
  }
  return arguments;
}

namespace {

Status FromError(const Error& error) {
  return error.ok() ? OkStatus() : Status(error.code(), error.message());
}

// The first device of the plugin named `name`.
StatusOr<Device> FindPluginDevice(const Client& client,
                                  const std::string& name) {
  std::vector<phal_plugin_info_t> plugins = client.Plugins();
  std::string known;
  for (const Device& device : client.Devices()) {
    size_t index = 0;
    PHAL_RETURN_IF_ERROR(
        FromError(Error(phal_device_get_plugin_index(device.get(), &index))));
    if (index < plugins.size() && name == plugins[index].name) return device;
  }
  for (const phal_plugin_info_t& plugin : plugins) {
    if (name != plugin.name) continue;
    return NotFound(
        "plugin '" + name + "' has no device" +
        (plugin.reason[0] ? std::string(": ") + plugin.reason : std::string()));
  }
  return NotFound("no plugin named '" + name +
                  "' was found; run 'polyhal plugins' to see which were and "
                  "why others were skipped, or use --plugin reference");
}

struct ExecutableDeleter {
  void operator()(phal_executable_t* executable) const {
    phal_executable_free(executable);
  }
};
using ExecutablePointer = std::unique_ptr<phal_executable_t, ExecutableDeleter>;

StatusOr<Buffer> Upload(const Device& device, const Literal& literal) {
  Result<Buffer> buffer =
      Buffer::Allocate(device, literal.element_type(), literal.shape().dims());
  PHAL_RETURN_IF_ERROR(FromError(buffer.error()));
  PHAL_RETURN_IF_ERROR(
      FromError(buffer->CopyFromHost(literal.data(), literal.byte_size())));
  return std::move(buffer.value());
}

StatusOr<Literal> Download(phal_buffer_t* handle) {
  Buffer buffer(handle);
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  PHAL_RETURN_IF_ERROR(FromError(Error(phal_buffer_get_desc(handle, &desc))));
  Literal literal(
      Shape(desc.element_type,
            std::vector<int64_t>(desc.dims, desc.dims + desc.rank)));
  PHAL_RETURN_IF_ERROR(
      FromError(buffer.CopyToHost(literal.data(), literal.byte_size())));
  return literal;
}

// Compiles the module for the plugin's device through the public C API and
// runs it once.
StatusOr<Literal> ExecuteOnPlugin(const HloModule& module,
                                  const std::vector<Literal>& arguments,
                                  const std::string& plugin) {
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(FromError(client.error()));
  PHAL_ASSIGN_OR_RETURN(Device device, FindPluginDevice(*client, plugin));
  std::string text = HloModuleToText(module);
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  options.source_name = module.name().c_str();
  phal_executable_t* compiled = nullptr;
  PHAL_RETURN_IF_ERROR(FromError(Error(phal_executable_compile(
      device.get(), text.data(), text.size(), &options, &compiled))));
  ExecutablePointer executable(compiled);
  std::vector<Buffer> inputs;
  std::vector<phal_buffer_t*> handles;
  for (const Literal& argument : arguments) {
    PHAL_ASSIGN_OR_RETURN(Buffer input, Upload(device, argument));
    handles.push_back(input.get());
    inputs.push_back(std::move(input));
  }
  size_t result_count = 0;
  PHAL_RETURN_IF_ERROR(FromError(Error(
      phal_executable_get_result_count(executable.get(), &result_count))));
  std::vector<phal_buffer_t*> results(result_count, nullptr);
  PHAL_RETURN_IF_ERROR(FromError(Error(
      phal_executable_execute(executable.get(), handles.data(), handles.size(),
                              results.data(), results.size()))));
  std::vector<Literal> leaves;
  Status downloaded = OkStatus();
  for (phal_buffer_t* result : results) {
    StatusOr<Literal> leaf = Download(result);
    if (!leaf.ok() && downloaded.ok()) downloaded = leaf.status();
    if (leaf.ok()) leaves.push_back(std::move(*leaf));
  }
  PHAL_RETURN_IF_ERROR(downloaded);
  if (module.entry_computation()->root_instruction()->shape().IsTuple()) {
    return Literal::Tuple(std::move(leaves));
  }
  return std::move(leaves.at(0));
}

}  // namespace

StatusOr<Literal> Execute(const HloModule& module,
                          const std::vector<Literal>& arguments,
                          const RunOptions& options) {
  if (options.plugin == "reference") return Evaluate(module, arguments);
  return ExecuteOnPlugin(module, arguments, options.plugin);
}

std::vector<const Literal*> FlattenLeaves(const Literal& result) {
  std::vector<const Literal*> leaves;
  Flatten(result, &leaves);
  return leaves;
}

Status EmitOutputs(const Literal& result, const RunOptions& options) {
  std::vector<const Literal*> leaves = FlattenLeaves(result);
  if (!options.output_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.output_dir, error);
    if (error) {
      return Internal("cannot create the output directory " +
                      options.output_dir + ": " + error.message());
    }
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::string path =
          options.output_dir + "/output_" + std::to_string(i) + ".npy";
      PHAL_RETURN_IF_ERROR(WriteNpy(path, *leaves[i]));
    }
  }
  if (options.print) {
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::printf("output_%zu: %s\n%s\n", i,
                  leaves[i]->shape().ToString().c_str(),
                  leaves[i]->ToString().c_str());
    }
  }
  return OkStatus();
}

}  // namespace phal::cli
