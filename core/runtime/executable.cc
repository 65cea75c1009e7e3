// phal_executable_* functions: compile a program for a device and run it.
#include "core/runtime/executable.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/compiler/compiler.h"
#include "core/compiler/spmd_partitioner.h"
#include "core/executor/program_offer.h"
#include "core/executor/serialized_program.h"
#include "core/executor/spmd_executor.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/verifier.h"
#include "core/runtime/api_guard.h"
#include "core/runtime/buffer.h"
#include "core/runtime/client.h"
#include "core/runtime/executable_cache.h"
#include "core/runtime/program_cache.h"
#include "sdk/base/hash.h"

namespace phal {
namespace {

StatusOr<std::unique_ptr<HloModule>> ParseProgram(
    std::string_view text, phal_program_format_t format,
    std::string_view source_name) {
  switch (format) {
    case PHAL_PROGRAM_FORMAT_HLO_TEXT: {
      PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                            ParseHloText(text, source_name));
      return PartitionIfGlobal(std::move(module));
    }
    case PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT: {
      PHAL_ASSIGN_OR_RETURN(StableHloModule parsed,
                            ParseStableHlo(text, source_name));
      if (parsed.module == nullptr ||
          parsed.module->entry_computation() == nullptr) {
        return InvalidArgument(std::string(source_name) +
                               ": no main or single public function");
      }
      return PartitionIfGlobal(std::move(parsed.module));
    }
  }
  return InvalidArgument("options->format " +
                         std::to_string(static_cast<int>(format)) +
                         " is not a phal_program_format_t");
}

void FillDesc(const Shape& shape, const std::vector<int64_t>& dims,
              phal_buffer_desc_t* out) {
  const uint32_t struct_size = out->struct_size;
  const void* next = out->next;
  phal_buffer_desc_t desc{};
  desc.struct_size = struct_size;
  desc.next = next;
  desc.element_type = shape.element_type();
  desc.rank = static_cast<uint32_t>(dims.size());
  desc.dims = dims.empty() ? nullptr : dims.data();
  desc.memory_space = 0;
  *out = desc;
}

// An executable of `device` running `loaded`.
std::unique_ptr<phal_executable> NewExecutable(
    phal_device* device, std::unique_ptr<LoadedProgram> loaded) {
  auto executable = std::make_unique<phal_executable>();
  executable->device = device;
  for (const Shape& shape : loaded->program().parameter_shapes) {
    executable->parameter_dims.push_back(shape.dims());
  }
  for (const Shape& shape : loaded->program().result_shapes) {
    executable->result_dims.push_back(shape.dims());
  }
  executable->program = std::move(loaded);
  return executable;
}

// phal_executable_serialize's bytes for `executable`.
StatusOr<std::string> SerializedBytes(const phal_executable& executable) {
  const phal_device& device = *executable.device;
  StatusOr<std::vector<SerializedKernel>> kernels =
      executable.program->SerializeKernels();
  if (!kernels.ok()) {
    return Status(
        kernels.status().code(),
        "plugin '" + device.plugin_name + "': " + kernels.status().message());
  }
  SerializedProgramHeader header{device.plugin_name, device.api->version,
                                 device.target, device.properties.name};
  return WriteSerializedProgram(header, executable.program->program(),
                                *kernels);
}

// "plugin 'cpu' 0.1.0 for target 'host'" or "... for device 'name'".
std::string CompiledBy(const SerializedProgramHeader& header) {
  return "plugin '" + header.plugin + "' " + header.plugin_version +
         (header.target.empty() ? " for device '" + header.device + "'"
                                : " for target '" + header.target + "'");
}

// The executor's program for phal_executable_deserialize's `bytes` on
// `device`.
StatusOr<std::unique_ptr<LoadedProgram>> LoadSerialized(
    phal_device* device, std::string_view bytes) {
  PHAL_ASSIGN_OR_RETURN(SerializedProgram serialized,
                        ReadSerializedProgram(bytes));
  if (serialized.header.plugin != device->plugin_name) {
    return FailedPrecondition(
        "the executable was compiled by " + CompiledBy(serialized.header) +
        "; the device belongs to plugin '" + device->plugin_name + "'");
  }
  StatusOr<std::unique_ptr<LoadedProgram>> loaded = LoadedProgram::Deserialize(
      std::move(serialized.program), serialized.kernels, device->api,
      device->handle, !device->compile_only);
  if (!loaded.ok()) {
    return Status(loaded.status().code(),
                  "plugin '" + device->plugin_name +
                      "': cannot load the executable compiled by " +
                      CompiledBy(serialized.header) + " on device '" +
                      device->properties.name +
                      "': " + loaded.status().message());
  }
  return loaded;
}

Status Compile(phal_device* device, const char* program, size_t program_size,
               const phal_compile_options_t* options,
               phal_executable_t** out_executable) {
  if (device == nullptr) return NullArgument("device");
  if (program == nullptr && program_size > 0) return NullArgument("program");
  if (out_executable == nullptr) return NullArgument("out_executable");
  phal_program_format_t format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  uint32_t optimization_level = 3;
  std::string source_name = "<program>";
  std::string dump_directory;
  if (options != nullptr) {
    if (options->struct_size <
        PHAL_STRUCT_SIZE(phal_compile_options_t, source_name)) {
      return InvalidArgument(
          "options->struct_size is too small; set it to "
          "sizeof(phal_compile_options_t)");
    }
    format = options->format;
    if (options->optimization_level != 0) {
      optimization_level = options->optimization_level;
    }
    if (options->source_name != nullptr) source_name = options->source_name;
    // A member beyond the caller's struct_size is absent.
    if (options->struct_size >=
            PHAL_STRUCT_SIZE(phal_compile_options_t, dump_directory) &&
        options->dump_directory != nullptr) {
      dump_directory = options->dump_directory;
    }
  }
  if (optimization_level > 3) {
    return InvalidArgument("optimization_level " +
                           std::to_string(optimization_level) +
                           " is out of range 0..3");
  }
  CompilerOptions compiler_options =
      CompilerOptionsForDevice(device->properties, device->api->abi_version);
  PHAL_RETURN_IF_ERROR(SetOffloadRules(
      device->api, device->handle,
      device->plugin_name + "\n" + device->properties.name, format,
      std::string_view(program, program_size), &compiler_options));
  // PHAL_DUMP, where the compiler writes its passes' modules and the KIR,
  // also gets the plugin's device code unless the options name a directory.
  if (dump_directory.empty()) dump_directory = compiler_options.dump_directory;
  const std::string_view text(program, program_size);
  // A compile that dumps runs every pass, so that its files are written.
  std::string cache_key;
  std::shared_ptr<const Program> compiled;
  if (dump_directory.empty()) {
    cache_key = ProgramCache::Key(text, format, source_name, compiler_options);
    compiled = ProgramCache::Global().Find(cache_key);
  }
  // Else an executable an earlier process compiled for this device; not
  // under the validation layer, whose checks of kernel_emit every compile
  // must reach.
  const bool validated =
      device->plugin_index < device->client->validation_layers.size() &&
      device->client->validation_layers[device->plugin_index] != nullptr;
  const ExecutableCache* disk =
      cache_key.empty() || validated ||
              !device->client->executable_cache.enabled()
          ? nullptr
          : &device->client->executable_cache;
  if (compiled == nullptr && disk != nullptr) {
    if (std::optional<std::string> bytes =
            disk->Load(cache_key, optimization_level, *device)) {
      // One the plugin no longer loads is compiled again and stored over.
      StatusOr<std::unique_ptr<LoadedProgram>> loaded =
          LoadSerialized(device, *bytes);
      if (loaded.ok()) {
        *out_executable =
            NewExecutable(device, std::move(loaded).value()).release();
        return OkStatus();
      }
      device->client->logger.Log(
          PHAL_LOG_LEVEL_DEBUG,
          "executable cache: compiling again: " + loaded.status().message());
    }
  }
  const bool fresh = compiled == nullptr;
  if (fresh) {
    PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloModule> module,
                          ParseProgram(text, format, source_name));
    PHAL_RETURN_IF_ERROR(VerifyModule(*module));
    PHAL_ASSIGN_OR_RETURN(compiled,
                          CompileModule(std::move(module), compiler_options));
    if (!cache_key.empty()) ProgramCache::Global().Store(cache_key, compiled);
  }
  PHAL_RETURN_IF_ERROR(CheckDeviceCapabilities(*compiled, device->properties,
                                               device->api->abi_version,
                                               device->properties.name));
  phal_kernel_options_t kernel_options{};
  kernel_options.struct_size = sizeof(kernel_options);
  kernel_options.optimization_level = optimization_level;
  kernel_options.dump_directory =
      dump_directory.empty() ? nullptr : dump_directory.c_str();
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<LoadedProgram> loaded,
      LoadedProgram::Load(compiled, device->api, device->handle,
                          &kernel_options, !device->compile_only));
  std::unique_ptr<phal_executable> executable =
      NewExecutable(device, std::move(loaded));
  // A plugin that cannot serialize its kernels is left out of the cache.
  if (fresh && disk != nullptr) {
    if (StatusOr<std::string> bytes = SerializedBytes(*executable);
        bytes.ok()) {
      disk->Store(cache_key, optimization_level, *device, *bytes);
    }
  }
  *out_executable = executable.release();
  return OkStatus();
}

Status Serialize(const phal_executable* executable, void** out_data,
                 size_t* out_size) {
  if (executable == nullptr) return NullArgument("executable");
  if (out_data == nullptr) return NullArgument("out_data");
  if (out_size == nullptr) return NullArgument("out_size");
  PHAL_ASSIGN_OR_RETURN(const std::string bytes, SerializedBytes(*executable));
  // malloc, so that phal_free is free and the bytes need no C++ owner.
  void* data = std::malloc(bytes.empty() ? 1 : bytes.size());
  if (data == nullptr) {
    return ResourceExhausted("no host memory for a serialized executable of " +
                             std::to_string(bytes.size()) + " bytes");
  }
  std::memcpy(data, bytes.data(), bytes.size());
  *out_data = data;
  *out_size = bytes.size();
  return OkStatus();
}

Status Deserialize(phal_device* device, const void* data, size_t size,
                   phal_executable_t** out_executable) {
  if (device == nullptr) return NullArgument("device");
  if (data == nullptr && size > 0) return NullArgument("data");
  if (out_executable == nullptr) return NullArgument("out_executable");
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<LoadedProgram> loaded,
      LoadSerialized(device,
                     std::string_view(static_cast<const char*>(data), size)));
  *out_executable = NewExecutable(device, std::move(loaded)).release();
  return OkStatus();
}

// Checks `argument`, named `name`, for parameter `index` of `executable`
// on `device`.
Status CheckArgument(const phal_executable& executable, size_t index,
                     const phal_buffer* argument, const phal_device* device,
                     const std::string& name) {
  if (argument == nullptr) return NullArgument(name.c_str());
  if (argument->device != device) {
    return InvalidArgument(name + " is on another device than the executable");
  }
  const Shape& shape = executable.program->program().parameter_shapes[index];
  if (argument->element_type != shape.element_type() ||
      argument->dims != shape.dims()) {
    return InvalidArgument(
        name + " is " +
        Shape(argument->element_type, argument->dims).ToString() +
        " but parameter " + std::to_string(index) + " is " + shape.ToString());
  }
  return OkStatus();
}

// The argument and result counts of an execute call against `program`'s.
Status CheckCounts(const Program& program, size_t argument_count,
                   size_t result_count) {
  if (argument_count != program.parameter_shapes.size()) {
    return InvalidArgument("the executable takes " +
                           std::to_string(program.parameter_shapes.size()) +
                           " arguments, got " + std::to_string(argument_count));
  }
  if (result_count != program.result_shapes.size()) {
    return InvalidArgument(
        "the executable has " + std::to_string(program.result_shapes.size()) +
        " results, result_count is " + std::to_string(result_count));
  }
  return OkStatus();
}

// A runtime buffer owning a plugin buffer the executor allocated.
phal_buffer* WrapResult(phal_device* device, phal_plugin_buffer_t* handle,
                        const Shape& shape) {
  auto buffer = std::make_unique<phal_buffer>();
  buffer->device = device;
  buffer->handle = handle;
  buffer->element_type = shape.element_type();
  buffer->dims = shape.dims();
  buffer->byte_size = static_cast<uint64_t>(shape.ByteSize());
  device->client->Track(device->client->buffers, buffer.get());
  return buffer.release();
}

Status Execute(phal_executable* executable, phal_buffer_t* const* arguments,
               size_t argument_count, phal_buffer_t** out_results,
               size_t result_count) {
  if (executable == nullptr) return NullArgument("executable");
  if (executable->device_count() > 1) {
    return FailedPrecondition(
        "the executable runs on " + std::to_string(executable->device_count()) +
        " devices: run it with phal_executable_execute_on_devices");
  }
  PHAL_RETURN_IF_ERROR(executable->device->CheckRunnable("execute"));
  const Program& program = executable->program->program();
  PHAL_RETURN_IF_ERROR(CheckCounts(program, argument_count, result_count));
  if (argument_count > 0 && arguments == nullptr) {
    return NullArgument("arguments");
  }
  if (result_count > 0 && out_results == nullptr) {
    return NullArgument("out_results");
  }
  std::vector<phal_plugin_buffer_t*> handles;
  for (size_t i = 0; i < argument_count; ++i) {
    PHAL_RETURN_IF_ERROR(CheckArgument(*executable, i, arguments[i],
                                       executable->device,
                                       "arguments[" + std::to_string(i) + "]"));
    // Work the application queued on its own streams must land first.
    arguments[i]->WaitForStreamUsers();
    handles.push_back(arguments[i]->handle);
  }
  {
    std::lock_guard<std::mutex> lock(executable->mutex);
    ++executable->running;
  }
  StatusOr<std::vector<phal_plugin_buffer_t*>> results =
      executable->program->Execute(handles);
  {
    std::lock_guard<std::mutex> lock(executable->mutex);
    --executable->running;
  }
  executable->idle.notify_all();
  if (!results.ok()) return results.status();
  for (size_t i = 0; i < result_count; ++i) {
    out_results[i] =
        WrapResult(executable->device, (*results)[i], program.result_shapes[i]);
  }
  return OkStatus();
}

// Compiles `program` on each of `devices`, as processes of a program for
// `processes` processes (INVALID_ARGUMENT naming the grid when it is for
// another number): one executable whose devices are these, in order. Each
// device compiles through phal_executable_compile's path; the program cache
// makes every compile after a plugin's first one a lookup.
StatusOr<std::unique_ptr<phal_executable>> CompileOnEach(
    std::span<phal_device_t* const> devices, int64_t processes,
    const char* program, size_t program_size,
    const phal_compile_options_t* options) {
  std::vector<std::unique_ptr<phal_executable>> parts;
  for (phal_device_t* device : devices) {
    phal_executable_t* part = nullptr;
    const Status compiled =
        Compile(device, program, program_size, options, &part);
    if (!compiled.ok()) {
      if (processes == 1) return compiled;
      return Status(compiled.code(), "device '" +
                                         std::string(device->properties.name) +
                                         "': " + compiled.message());
    }
    parts.emplace_back(part);
    const Program& plan = part->program->program();
    const int64_t grid = plan.replica_count * plan.num_partitions;
    if (grid != processes) {
      return InvalidArgument(
          "the program runs on " + std::to_string(plan.replica_count) +
          " replicas x " + std::to_string(plan.num_partitions) +
          " partitions = " + std::to_string(grid) +
          " devices, but device_count is " + std::to_string(processes));
    }
  }
  std::unique_ptr<phal_executable> executable = std::move(parts[0]);
  for (size_t k = 1; k < parts.size(); ++k) {
    executable->peer_devices.push_back(parts[k]->device);
    executable->peer_programs.push_back(std::move(parts[k]->program));
  }
  return executable;
}

Status CompileForDevices(phal_device_t* const* devices, size_t device_count,
                         const char* program, size_t program_size,
                         const phal_compile_options_t* options,
                         phal_executable_t** out_executable) {
  if (devices == nullptr) return NullArgument("devices");
  if (device_count == 0) return InvalidArgument("device_count is 0");
  if (out_executable == nullptr) return NullArgument("out_executable");
  for (size_t k = 0; k < device_count; ++k) {
    const std::string name = "devices[" + std::to_string(k) + "]";
    if (devices[k] == nullptr) return NullArgument(name.c_str());
    PHAL_RETURN_IF_ERROR(devices[k]->CheckRunnable("execute"));
    for (size_t j = 0; j < k; ++j) {
      if (devices[j] == devices[k]) {
        return InvalidArgument(name + " is devices[" + std::to_string(j) +
                               "] again: each process needs a device of its "
                               "own");
      }
      if (devices[j]->client != devices[k]->client) {
        return InvalidArgument(name +
                               " belongs to another client than "
                               "devices[0]");
      }
    }
  }
  PHAL_ASSIGN_OR_RETURN(
      std::unique_ptr<phal_executable> executable,
      CompileOnEach(std::span<phal_device_t* const>(devices, device_count),
                    static_cast<int64_t>(device_count), program, program_size,
                    options));
  *out_executable = executable.release();
  return OkStatus();
}

// What a process of a job compiles: the program's fingerprint and the
// assignment, for the processes to check they agree.
std::vector<uint8_t> CompileFingerprint(std::string_view program,
                                        const size_t* global_devices,
                                        size_t device_count) {
  std::string assignment;
  for (size_t k = 0; k < device_count; ++k) {
    assignment += std::to_string(global_devices[k]) + ",";
  }
  const uint64_t words[2] = {Fnv1a(program), Fnv1a(assignment)};
  std::vector<uint8_t> bytes(sizeof(words));
  std::memcpy(bytes.data(), words, sizeof(words));
  return bytes;
}

Status CompileGlobal(phal_client* client, const size_t* global_devices,
                     size_t device_count, const char* program,
                     size_t program_size, const phal_compile_options_t* options,
                     phal_executable_t** out_executable) {
  if (client == nullptr) return NullArgument("client");
  if (global_devices == nullptr) return NullArgument("global_devices");
  if (device_count == 0) return InvalidArgument("device_count is 0");
  if (program == nullptr && program_size > 0) return NullArgument("program");
  if (out_executable == nullptr) return NullArgument("out_executable");
  ClientJob& job = client->job;
  for (size_t k = 0; k < device_count; ++k) {
    if (global_devices[k] >= job.devices.size()) {
      return OutOfRange("global_devices[" + std::to_string(k) + "] is " +
                        std::to_string(global_devices[k]) +
                        ", not below the job's device count " +
                        std::to_string(job.devices.size()));
    }
    for (size_t j = 0; j < k; ++j) {
      if (global_devices[j] == global_devices[k]) {
        return InvalidArgument("global_devices[" + std::to_string(k) +
                               "] is global_devices[" + std::to_string(j) +
                               "] again: each process needs a device of its "
                               "own");
      }
    }
  }
  std::vector<phal_device_t*> local;
  std::vector<int> rank_of;
  for (size_t k = 0; k < device_count; ++k) {
    const GlobalDevice& device = job.devices[global_devices[k]];
    rank_of.push_back(static_cast<int>(device.process));
    if (device.device != nullptr) local.push_back(device.device);
  }
  if (job.transport == nullptr) {
    return CompileForDevices(local.data(), local.size(), program, program_size,
                             options, out_executable);
  }
  PHAL_ASSIGN_OR_RETURN(const std::chrono::milliseconds timeout,
                        CollectiveTimeoutFromEnv());
  {
    std::lock_guard<std::mutex> lock(job.mutex);
    PHAL_ASSIGN_OR_RETURN(
        std::vector<std::vector<uint8_t>> all,
        job.transport->AllGather(
            CompileFingerprint(std::string_view(program, program_size),
                               global_devices, device_count),
            kCompileAgreementTag, timeout,
            "agreeing on the program to compile (process " +
                std::to_string(job.rank()) + ")"));
    std::vector<int> differing;
    for (std::size_t r = 1; r < all.size(); ++r) {
      if (all[r] != all[0]) differing.push_back(static_cast<int>(r));
    }
    if (!differing.empty()) {
      return FailedPrecondition(
          "processes " + RankListToString(differing) +
          " compile another program or device assignment than process 0: "
          "every process of the job must compile the same");
    }
  }
  if (local.empty()) {
    return FailedPrecondition(
        "process " + std::to_string(job.rank()) +
        " has no device in the assignment: each process of the job needs "
        "one");
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<phal_executable> executable,
                        CompileOnEach(local, static_cast<int64_t>(device_count),
                                      program, program_size, options));
  const Program& plan = executable->program->program();
  std::vector<const HloModule*> process_ops;
  for (const auto& op : plan.process_ops) process_ops.push_back(op.get());
  // The transport's groups for the program's all-reduces are made by every
  // process here, while no execution runs on the job.
  std::lock_guard<std::mutex> lock(job.mutex);
  PHAL_ASSIGN_OR_RETURN(
      DistributedGrid placed,
      DistributedGrid::Create(
          *job.transport, ProcessGrid{plan.replica_count, plan.num_partitions},
          std::move(rank_of), timeout, process_ops));
  if (placed.reduction_group_count() > 0) {
    client->logger.Debug(
        "process " + std::to_string(job.rank()) + " of " +
        std::to_string(job.size()) + ": " +
        std::to_string(placed.reduction_group_count()) +
        " groups of the program's all-reduces are reduced by the transport");
  }
  executable->job_grid = std::make_unique<DistributedGrid>(std::move(placed));
  // The plugins' communicators, over this process's devices and, where a
  // plugin joins them, over the job's processes: made here too, in the
  // same order on every process.
  std::vector<const LoadedProgram*> programs;
  for (std::size_t i = 0; i < executable->device_count(); ++i) {
    programs.push_back(&executable->program_at(i));
  }
  PHAL_ASSIGN_OR_RETURN(
      executable->job_collectives,
      DeviceCollectives::CreateOnRank(programs, *executable->job_grid));
  if (executable->job_collectives->device_op_count() > 0) {
    client->logger.Debug(
        "process " + std::to_string(job.rank()) + " of " +
        std::to_string(job.size()) + ": " +
        std::to_string(executable->job_collectives->device_op_count()) +
        " collectives of the program run on the plugins' communicators (" +
        std::to_string(executable->job_collectives->joined_count()) +
        " communicators joined over several processes)");
  }
  *out_executable = executable.release();
  return OkStatus();
}

Status DeviceCountOf(const phal_executable* executable, size_t* out_count) {
  if (executable == nullptr) return NullArgument("executable");
  if (out_count == nullptr) return NullArgument("out_count");
  *out_count = executable->device_count();
  return OkStatus();
}

Status DeviceOf(const phal_executable* executable, size_t index,
                phal_device_t** out_device) {
  if (executable == nullptr) return NullArgument("executable");
  if (out_device == nullptr) return NullArgument("out_device");
  if (index >= executable->device_count()) {
    return OutOfRange("device index " + std::to_string(index) +
                      " >= " + std::to_string(executable->device_count()));
  }
  *out_device = executable->device_at(index);
  return OkStatus();
}

// Runs `programs` (the executable's, one per device) on `handles`: this
// process's part of a job's grid, or every process of the grid with the
// plugins' communicators of an earlier execution; counted in `running`.
StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> RunOnDevices(
    phal_executable* executable, std::span<const LoadedProgram* const> programs,
    std::span<const std::vector<phal_plugin_buffer_t*>> handles) {
  std::chrono::milliseconds timeout{0};
  if (executable->job_grid == nullptr) {
    PHAL_ASSIGN_OR_RETURN(timeout, CollectiveTimeoutFromEnv());
  }
  std::unique_ptr<DeviceCollectives> collectives;
  {
    std::lock_guard<std::mutex> lock(executable->mutex);
    ++executable->running;
    if (!executable->idle_collectives.empty()) {
      collectives = std::move(executable->idle_collectives.back());
      executable->idle_collectives.pop_back();
    }
  }
  StatusOr<std::vector<std::vector<phal_plugin_buffer_t*>>> results =
      Internal("not run");
  if (executable->job_grid != nullptr) {
    // Every process's exchanges of one execution meet before the next's.
    std::lock_guard<std::mutex> job_lock(executable->device->client->job.mutex);
    results = ExecuteSpmdOnRank(programs, handles, *executable->job_grid,
                                executable->job_collectives.get());
  } else {
    results = ExecuteSpmd(programs, handles, timeout, &collectives);
  }
  {
    std::lock_guard<std::mutex> lock(executable->mutex);
    --executable->running;
    if (collectives != nullptr) {
      executable->idle_collectives.push_back(std::move(collectives));
    }
  }
  executable->idle.notify_all();
  return results;
}

Status ExecuteOnDevices(phal_executable* executable, size_t device_count,
                        phal_buffer_t* const* const* arguments,
                        size_t argument_count,
                        phal_buffer_t** const* out_results,
                        size_t result_count) {
  if (executable == nullptr) return NullArgument("executable");
  if (device_count != executable->device_count()) {
    return InvalidArgument(
        "the executable runs on " + std::to_string(executable->device_count()) +
        " devices, device_count is " + std::to_string(device_count));
  }
  const Program& program = executable->program->program();
  PHAL_RETURN_IF_ERROR(CheckCounts(program, argument_count, result_count));
  if (arguments == nullptr) return NullArgument("arguments");
  if (out_results == nullptr) return NullArgument("out_results");
  std::vector<std::vector<phal_plugin_buffer_t*>> handles(device_count);
  std::vector<const LoadedProgram*> programs;
  for (size_t d = 0; d < device_count; ++d) {
    phal_device* device = executable->device_at(d);
    PHAL_RETURN_IF_ERROR(device->CheckRunnable("execute"));
    const std::string list = "arguments[" + std::to_string(d) + "]";
    if (argument_count > 0 && arguments[d] == nullptr) {
      return NullArgument(list.c_str());
    }
    if (result_count > 0 && out_results[d] == nullptr) {
      const std::string results = "out_results[" + std::to_string(d) + "]";
      return NullArgument(results.c_str());
    }
    for (size_t i = 0; i < argument_count; ++i) {
      phal_buffer* argument = arguments[d][i];
      PHAL_RETURN_IF_ERROR(CheckArgument(*executable, i, argument, device,
                                         list + "[" + std::to_string(i) + "]"));
      argument->WaitForStreamUsers();
      handles[d].push_back(argument->handle);
    }
    programs.push_back(&executable->program_at(d));
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<std::vector<phal_plugin_buffer_t*>> results,
                        RunOnDevices(executable, programs, handles));
  for (size_t d = 0; d < device_count; ++d) {
    for (size_t i = 0; i < result_count; ++i) {
      out_results[d][i] = WrapResult(executable->device_at(d), results[d][i],
                                     program.result_shapes[i]);
    }
  }
  return OkStatus();
}

Status CountOf(const phal_executable* executable, size_t* out_count,
               bool parameters) {
  if (executable == nullptr) return NullArgument("executable");
  if (out_count == nullptr) return NullArgument("out_count");
  *out_count = parameters ? executable->parameter_dims.size()
                          : executable->result_dims.size();
  return OkStatus();
}

Status DescOf(const phal_executable* executable, size_t index,
              phal_buffer_desc_t* out, bool parameters) {
  if (executable == nullptr) return NullArgument("executable");
  if (out == nullptr) return NullArgument("out");
  if (out->struct_size < PHAL_STRUCT_SIZE(phal_buffer_desc_t, memory_space)) {
    return InvalidArgument(
        "out->struct_size is too small; set it to sizeof(phal_buffer_desc_t)");
  }
  const Program& program = executable->program->program();
  const std::vector<Shape>& shapes =
      parameters ? program.parameter_shapes : program.result_shapes;
  if (index >= shapes.size()) {
    return OutOfRange(std::string(parameters ? "parameter" : "result") +
                      " index " + std::to_string(index) +
                      " >= " + std::to_string(shapes.size()));
  }
  FillDesc(shapes[index],
           parameters ? executable->parameter_dims[index]
                      : executable->result_dims[index],
           out);
  return OkStatus();
}

}  // namespace
}  // namespace phal

extern "C" {

PHAL_API phal_status_t* phal_executable_compile(
    phal_device_t* device, const char* program, size_t program_size,
    const phal_compile_options_t* options, phal_executable_t** out_executable) {
  return phal::GuardedCall([&] {
    return phal::Compile(device, program, program_size, options,
                         out_executable);
  });
}

PHAL_API void phal_executable_free(phal_executable_t* executable) {
  if (executable == nullptr) return;
  try {
    std::unique_lock<std::mutex> lock(executable->mutex);
    executable->idle.wait(lock, [&] { return executable->running == 0; });
  } catch (...) {
  }
  delete executable;
}

PHAL_API phal_status_t* phal_executable_get_parameter_count(
    const phal_executable_t* executable, size_t* out_count) {
  return phal::GuardedCall(
      [&] { return phal::CountOf(executable, out_count, true); });
}

PHAL_API phal_status_t* phal_executable_get_result_count(
    const phal_executable_t* executable, size_t* out_count) {
  return phal::GuardedCall(
      [&] { return phal::CountOf(executable, out_count, false); });
}

PHAL_API phal_status_t* phal_executable_get_parameter_desc(
    const phal_executable_t* executable, size_t index,
    phal_buffer_desc_t* out) {
  return phal::GuardedCall(
      [&] { return phal::DescOf(executable, index, out, true); });
}

PHAL_API phal_status_t* phal_executable_get_result_desc(
    const phal_executable_t* executable, size_t index,
    phal_buffer_desc_t* out) {
  return phal::GuardedCall(
      [&] { return phal::DescOf(executable, index, out, false); });
}

PHAL_API phal_status_t* phal_executable_execute(phal_executable_t* executable,
                                                phal_buffer_t* const* arguments,
                                                size_t argument_count,
                                                phal_buffer_t** out_results,
                                                size_t result_count) {
  return phal::GuardedCall([&] {
    return phal::Execute(executable, arguments, argument_count, out_results,
                         result_count);
  });
}

PHAL_API phal_status_t* phal_executable_compile_for_devices(
    phal_device_t* const* devices, size_t device_count, const char* program,
    size_t program_size, const phal_compile_options_t* options,
    phal_executable_t** out_executable) {
  return phal::GuardedCall([&] {
    return phal::CompileForDevices(devices, device_count, program, program_size,
                                   options, out_executable);
  });
}

PHAL_API phal_status_t* phal_executable_compile_global(
    phal_client_t* client, const size_t* global_devices, size_t device_count,
    const char* program, size_t program_size,
    const phal_compile_options_t* options, phal_executable_t** out_executable) {
  return phal::GuardedCall([&] {
    return phal::CompileGlobal(client, global_devices, device_count, program,
                               program_size, options, out_executable);
  });
}

PHAL_API phal_status_t* phal_executable_get_device_count(
    const phal_executable_t* executable, size_t* out_count) {
  return phal::GuardedCall(
      [&] { return phal::DeviceCountOf(executable, out_count); });
}

PHAL_API phal_status_t* phal_executable_get_device(
    const phal_executable_t* executable, size_t index,
    phal_device_t** out_device) {
  return phal::GuardedCall(
      [&] { return phal::DeviceOf(executable, index, out_device); });
}

PHAL_API phal_status_t* phal_executable_execute_on_devices(
    phal_executable_t* executable, size_t device_count,
    phal_buffer_t* const* const* arguments, size_t argument_count,
    phal_buffer_t** const* out_results, size_t result_count) {
  return phal::GuardedCall([&] {
    return phal::ExecuteOnDevices(executable, device_count, arguments,
                                  argument_count, out_results, result_count);
  });
}

PHAL_API phal_status_t* phal_executable_serialize(
    const phal_executable_t* executable, void** out_data, size_t* out_size) {
  return phal::GuardedCall(
      [&] { return phal::Serialize(executable, out_data, out_size); });
}

PHAL_API void phal_free(void* data) { std::free(data); }

PHAL_API phal_status_t* phal_executable_deserialize(
    phal_device_t* device, const void* data, size_t size,
    phal_executable_t** out_executable) {
  return phal::GuardedCall(
      [&] { return phal::Deserialize(device, data, size, out_executable); });
}

}  // extern "C"
