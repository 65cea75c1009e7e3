// PJRT executables: a StableHLO program (portable artifact or text)
// compiled by Polyhal for the device it runs on, or for its whole device
// assignment when it has several replicas or partitions.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sdk/pjrt/compile_options.h"
#include "sdk/pjrt/pjrt_entry_points.h"
#include "sdk/pjrt/pjrt_error.h"

namespace phal::pjrt {
namespace {

std::string Fingerprint(const std::string& bytes) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    hash = (hash ^ c) * 1099511628211ull;
  }
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx",
                static_cast<unsigned long long>(hash));
  return text;
}

int64_t ProcessCount(const ExecutableState& state) {
  return state.num_replicas * state.num_partitions;
}

PJRT_Error* CompileFor(ExecutableState& state, PJRT_Device* device,
                       phal_executable_t** out) {
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT;
  options.source_name = state.name.c_str();
  if (device != nullptr) {
    return FromStatus(
        phal_executable_compile(device->device, state.program.data(),
                                state.program.size(), &options, out));
  }
  std::vector<phal_device_t*> devices;
  for (PJRT_Device* d : state.assignment) devices.push_back(d->device);
  return FromStatus(phal_executable_compile_for_devices(
      devices.data(), devices.size(), state.program.data(),
      state.program.size(), &options, out));
}

// The executable for `device` (null: the whole assignment), compiled on
// first use.
PJRT_Error* ExecutableFor(ExecutableState& state, PJRT_Device* device,
                          phal_executable_t** out) {
  std::lock_guard<std::mutex> lock(state.mutex);
  auto it = state.compiled.find(device);
  if (it != state.compiled.end()) {
    *out = it->second;
    return nullptr;
  }
  if (PJRT_Error* error = CompileFor(state, device, out)) return error;
  state.compiled[device] = *out;
  return nullptr;
}

PJRT_Error* DescribeOutputs(ExecutableState& state,
                            phal_executable_t* executable) {
  size_t count = 0;
  if (PJRT_Error* error =
          FromStatus(phal_executable_get_result_count(executable, &count))) {
    return error;
  }
  static const char kDevice[] = "device";
  for (size_t i = 0; i < count; ++i) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    if (PJRT_Error* error =
            FromStatus(phal_executable_get_result_desc(executable, i, &desc))) {
      return error;
    }
    state.output_types.push_back(ToPjrtType(desc.element_type));
    state.output_dims_flat.insert(state.output_dims_flat.end(), desc.dims,
                                  desc.dims + desc.rank);
    state.output_dim_sizes.push_back(desc.rank);
    state.output_memory_kinds.push_back(kDevice);
    state.output_memory_kind_sizes.push_back(sizeof(kDevice) - 1);
  }
  return nullptr;
}

PJRT_Error* ChooseAssignment(PJRT_Client* client, const CompileOptions& options,
                             ExecutableState& state) {
  const int64_t processes = ProcessCount(state);
  const auto& devices = client->devices;
  std::vector<int64_t> ids;
  if (!options.device_ids.empty()) {
    for (int64_t r = 0; r < options.num_replicas; ++r) {
      for (int64_t p = 0; p < options.num_partitions; ++p) {
        const auto& row = options.device_ids[static_cast<size_t>(
            r < static_cast<int64_t>(options.device_ids.size()) ? r : 0)];
        ids.push_back(p < static_cast<int64_t>(row.size())
                          ? row[static_cast<size_t>(p)]
                          : -1);
      }
    }
  } else {
    for (int64_t k = 0; k < processes; ++k) ids.push_back(k);
  }
  for (int64_t id : ids) {
    if (id < 0 || id >= static_cast<int64_t>(devices.size())) {
      return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                       "the device assignment names device " +
                           std::to_string(id) + "; Polyhal's plugin '" +
                           client->plugin + "' has " +
                           std::to_string(devices.size()) + " devices");
    }
    state.assignment.push_back(devices[static_cast<size_t>(id)]);
  }
  return nullptr;
}

PJRT_Error* NotLoaded(const char* what) {
  return MakeError(PJRT_Error_Code_FAILED_PRECONDITION,
                   std::string(what) + ": the executable has been deleted");
}

PJRT_Buffer* WrapResult(PJRT_Client* client, PJRT_Device* device,
                        phal_buffer_t* result) {
  auto* buffer = new PJRT_Buffer;
  client->Retain();
  buffer->client = client;
  buffer->device = device;
  buffer->buffer = result;
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  phal_status_free(phal_buffer_get_desc(result, &desc));
  buffer->type = ToPjrtType(desc.element_type);
  buffer->dims.assign(desc.dims, desc.dims + desc.rank);
  for (uint32_t i = 0; i < desc.rank; ++i) {
    buffer->minor_to_major.push_back(static_cast<int64_t>(desc.rank - 1 - i));
  }
  phal_status_free(phal_buffer_get_byte_size(result, &buffer->byte_size));
  device->CountAllocation(static_cast<int64_t>(buffer->byte_size));
  return buffer;
}

// The Polyhal buffers of one device's arguments, each locked against
// deletion while it runs.
PJRT_Error* Arguments(PJRT_Buffer* const* list, size_t count,
                      std::vector<phal_buffer_t*>* out,
                      std::vector<std::unique_lock<std::mutex>>* locks) {
  for (size_t i = 0; i < count; ++i) {
    PJRT_Buffer* buffer = list[i];
    locks->emplace_back(buffer->mutex);
    if (buffer->buffer == nullptr) {
      return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                       "argument " + std::to_string(i) +
                           " has been deleted (or donated to an earlier "
                           "execution)");
    }
    out->push_back(buffer->buffer);
  }
  return nullptr;
}

PJRT_Error* ExecuteOnOneDevice(ExecutableState& state,
                               PJRT_LoadedExecutable_Execute_Args* args,
                               size_t index) {
  PJRT_Buffer* const* list = args->argument_lists[index];
  PJRT_Device* device = args->execute_device;
  if (device == nullptr && args->num_args > 0) device = list[0]->device;
  if (device == nullptr) device = state.assignment[index];
  phal_executable_t* executable = nullptr;
  if (PJRT_Error* error = ExecutableFor(state, device, &executable)) {
    return error;
  }
  std::vector<phal_buffer_t*> arguments;
  std::vector<std::unique_lock<std::mutex>> locks;
  if (PJRT_Error* error = Arguments(list, args->num_args, &arguments, &locks)) {
    return error;
  }
  for (size_t i = 0; i < args->num_args; ++i) {
    if (list[i]->device != device) {
      return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                       "argument " + std::to_string(i) + " is on " +
                           list[i]->device->description.to_string +
                           "; the execution runs on " +
                           device->description.to_string);
    }
  }
  const size_t outputs = state.output_types.size();
  std::vector<phal_buffer_t*> results(outputs, nullptr);
  if (PJRT_Error* error = FromStatus(
          phal_executable_execute(executable, arguments.data(),
                                  arguments.size(), results.data(), outputs))) {
    return error;
  }
  for (size_t i = 0; i < outputs; ++i) {
    args->output_lists[index][i] = WrapResult(state.client, device, results[i]);
  }
  return nullptr;
}

PJRT_Error* ExecuteOnAssignment(ExecutableState& state,
                                PJRT_LoadedExecutable_Execute_Args* args) {
  const size_t processes = static_cast<size_t>(ProcessCount(state));
  if (args->num_devices != processes) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "the program runs as " + std::to_string(processes) +
                         " processes (replicas x partitions); " +
                         std::to_string(args->num_devices) +
                         " argument lists were given");
  }
  phal_executable_t* executable = nullptr;
  if (PJRT_Error* error = ExecutableFor(state, nullptr, &executable)) {
    return error;
  }
  std::vector<std::vector<phal_buffer_t*>> arguments(processes);
  std::vector<std::unique_lock<std::mutex>> locks;
  std::vector<phal_buffer_t* const*> argument_lists;
  for (size_t d = 0; d < processes; ++d) {
    if (PJRT_Error* error = Arguments(args->argument_lists[d], args->num_args,
                                      &arguments[d], &locks)) {
      return error;
    }
    argument_lists.push_back(arguments[d].data());
  }
  const size_t outputs = state.output_types.size();
  std::vector<std::vector<phal_buffer_t*>> results(
      processes, std::vector<phal_buffer_t*>(outputs, nullptr));
  std::vector<phal_buffer_t**> result_lists;
  for (auto& r : results) result_lists.push_back(r.data());
  if (PJRT_Error* error = FromStatus(phal_executable_execute_on_devices(
          executable, processes, argument_lists.data(), args->num_args,
          result_lists.data(), outputs))) {
    return error;
  }
  for (size_t d = 0; d < processes; ++d) {
    for (size_t i = 0; i < outputs; ++i) {
      args->output_lists[d][i] =
          WrapResult(state.client, state.assignment[d], results[d][i]);
    }
  }
  return nullptr;
}

}  // namespace

PJRT_Error* Client_Compile(PJRT_Client_Compile_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Client_Compile_Args, args);
  const PJRT_Program* program = args->program;
  const std::string format(program->format, program->format_size);
  if (format != "mlir") {
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED,
                     "Polyhal's PJRT plugin compiles programs of format "
                     "'mlir' (StableHLO portable artifacts or text); '" +
                         format + "' was given");
  }
  CompileOptions options;
  std::string error_text;
  if (!ParseCompileOptions(args->compile_options, args->compile_options_size,
                           &options, &error_text)) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, error_text);
  }
  auto state = std::make_shared<ExecutableState>();
  args->client->Retain();
  state->client = args->client;
  state->program.assign(program->code, program->code_size);
  state->fingerprint = Fingerprint(state->program);
  state->name = "jit_program_" + state->fingerprint.substr(0, 8);
  state->num_replicas = options.num_replicas;
  state->num_partitions = options.num_partitions;
  if (PJRT_Error* error = ChooseAssignment(args->client, options, *state)) {
    return error;
  }
  // Compiled now for its first device, so that a program Polyhal cannot run
  // fails here with Polyhal's message.
  PJRT_Device* first =
      ProcessCount(*state) == 1 ? state->assignment[0] : nullptr;
  phal_executable_t* executable = nullptr;
  if (PJRT_Error* error = ExecutableFor(*state, first, &executable)) {
    return error;
  }
  if (PJRT_Error* error = DescribeOutputs(*state, executable)) return error;
  state->addressable_devices = state->assignment;
  auto* loaded = new PJRT_LoadedExecutable;
  loaded->state = std::move(state);
  args->executable = loaded;
  return nullptr;
}

PJRT_Error* Executable_Destroy(PJRT_Executable_Destroy_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_Destroy_Args, args);
  delete args->executable;
  return nullptr;
}

PJRT_Error* Executable_Name(PJRT_Executable_Name_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_Name_Args, args);
  args->executable_name = args->executable->state->name.c_str();
  args->executable_name_size = args->executable->state->name.size();
  return nullptr;
}

PJRT_Error* Executable_NumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_NumReplicas_Args, args);
  args->num_replicas =
      static_cast<size_t>(args->executable->state->num_replicas);
  return nullptr;
}

PJRT_Error* Executable_NumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_NumPartitions_Args, args);
  args->num_partitions =
      static_cast<size_t>(args->executable->state->num_partitions);
  return nullptr;
}

PJRT_Error* Executable_NumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_NumOutputs_Args, args);
  args->num_outputs = args->executable->state->output_types.size();
  return nullptr;
}

PJRT_Error* Executable_SizeOfGeneratedCodeInBytes(
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, args);
  args->size_in_bytes = 0;
  return nullptr;
}

PJRT_Error* Executable_OutputElementTypes(
    PJRT_Executable_OutputElementTypes_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_OutputElementTypes_Args, args);
  ExecutableState& state = *args->executable->state;
  args->output_types = state.output_types.data();
  args->num_output_types = state.output_types.size();
  return nullptr;
}

PJRT_Error* Executable_OutputDimensions(
    PJRT_Executable_OutputDimensions_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_OutputDimensions_Args, args);
  ExecutableState& state = *args->executable->state;
  args->num_outputs = state.output_dim_sizes.size();
  args->dims = state.output_dims_flat.data();
  args->dim_sizes = state.output_dim_sizes.data();
  return nullptr;
}

PJRT_Error* Executable_OutputMemoryKinds(
    PJRT_Executable_OutputMemoryKinds_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_OutputMemoryKinds_Args, args);
  ExecutableState& state = *args->executable->state;
  args->num_outputs = state.output_memory_kinds.size();
  args->memory_kinds = state.output_memory_kinds.data();
  args->memory_kind_sizes = state.output_memory_kind_sizes.data();
  return nullptr;
}

PJRT_Error* Executable_Fingerprint(PJRT_Executable_Fingerprint_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_Fingerprint_Args, args);
  args->executable_fingerprint = args->executable->state->fingerprint.c_str();
  args->executable_fingerprint_size =
      args->executable->state->fingerprint.size();
  return nullptr;
}

PJRT_Error* Executable_GetCompiledMemoryStats(
    PJRT_Executable_GetCompiledMemoryStats_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_GetCompiledMemoryStats_Args, args);
  ExecutableState& state = *args->executable->state;
  int64_t output_bytes = 0;
  size_t next = 0;
  for (size_t i = 0; i < state.output_types.size(); ++i) {
    int64_t bytes = static_cast<int64_t>(
        phal_element_type_byte_size(ToPolyhalType(state.output_types[i])));
    for (size_t d = 0; d < state.output_dim_sizes[i]; ++d) {
      bytes *= state.output_dims_flat[next++];
    }
    output_bytes += bytes;
  }
  args->generated_code_size_in_bytes = 0;
  args->argument_size_in_bytes = 0;
  args->output_size_in_bytes = output_bytes;
  args->alias_size_in_bytes = 0;
  args->temp_size_in_bytes = 0;
  args->host_generated_code_size_in_bytes = 0;
  args->host_argument_size_in_bytes = 0;
  args->host_output_size_in_bytes = 0;
  args->host_alias_size_in_bytes = 0;
  args->host_temp_size_in_bytes = 0;
  args->peak_memory_in_bytes = output_bytes;
  return nullptr;
}

PJRT_Error* Executable_OptimizedProgram(
    PJRT_Executable_OptimizedProgram_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Executable_OptimizedProgram_Args, args);
  static const char kFormat[] = "mlir";
  const std::string& program = args->executable->state->program;
  PJRT_Program* out = args->program;
  out->format = kFormat;
  out->format_size = sizeof(kFormat) - 1;
  if (out->code == nullptr) {
    out->code_size = program.size();
    return nullptr;
  }
  if (out->code_size < program.size()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     "PJRT_Executable_OptimizedProgram: code holds " +
                         std::to_string(out->code_size) +
                         " bytes; the program " +
                         std::to_string(program.size()));
  }
  std::memcpy(out->code, program.data(), program.size());
  out->code_size = program.size();
  return nullptr;
}

PJRT_Error* LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_Destroy_Args, args);
  delete args->executable;
  return nullptr;
}

PJRT_Error* LoadedExecutable_GetExecutable(
    PJRT_LoadedExecutable_GetExecutable_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_GetExecutable_Args, args);
  args->executable = new PJRT_Executable{args->loaded_executable->state};
  return nullptr;
}

PJRT_Error* LoadedExecutable_AddressableDevices(
    PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, args);
  ExecutableState& state = *args->executable->state;
  args->addressable_devices = state.addressable_devices.data();
  args->num_addressable_devices = state.addressable_devices.size();
  return nullptr;
}

PJRT_Error* LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_Delete_Args, args);
  args->executable->deleted = true;
  return nullptr;
}

PJRT_Error* LoadedExecutable_IsDeleted(
    PJRT_LoadedExecutable_IsDeleted_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_IsDeleted_Args, args);
  args->is_deleted = args->executable->deleted;
  return nullptr;
}

PJRT_Error* LoadedExecutable_Fingerprint(
    PJRT_LoadedExecutable_Fingerprint_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_Fingerprint_Args, args);
  args->executable_fingerprint = args->executable->state->fingerprint.c_str();
  args->executable_fingerprint_size =
      args->executable->state->fingerprint.size();
  return nullptr;
}

PJRT_Error* LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_Execute_Args, args);
  if (args->executable->deleted) {
    return NotLoaded("PJRT_LoadedExecutable_Execute");
  }
  ExecutableState& state = *args->executable->state;
  PJRT_Error* error = nullptr;
  if (ProcessCount(state) > 1) {
    error = ExecuteOnAssignment(state, args);
  } else {
    for (size_t d = 0; d < args->num_devices && error == nullptr; ++d) {
      error = ExecuteOnOneDevice(state, args, d);
    }
  }
  if (error != nullptr) return error;
  if (args->device_complete_events != nullptr) {
    for (size_t d = 0; d < args->num_devices; ++d) {
      args->device_complete_events[d] = MakeEvent(nullptr);
    }
  }
  return nullptr;
}

PJRT_Error* LoadedExecutable_GetDeviceAssignment(
    PJRT_LoadedExecutable_GetDeviceAssignment_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, args);
  const ExecutableState& state = *args->executable->state;
  std::vector<int64_t> ids;
  for (const PJRT_Device* device : state.assignment) {
    ids.push_back(device->description.id);
  }
  auto* serialized = new PJRT_DeviceAssignmentSerialized;
  serialized->bytes =
      SerializeDeviceAssignment(state.num_replicas, state.num_partitions, ids);
  args->serialized_bytes = serialized->bytes.data();
  args->serialized_bytes_size = serialized->bytes.size();
  args->serialized_device_assignment = serialized;
  args->serialized_device_assignment_deleter =
      [](PJRT_DeviceAssignmentSerialized* da) { delete da; };
  return nullptr;
}

}  // namespace phal::pjrt
