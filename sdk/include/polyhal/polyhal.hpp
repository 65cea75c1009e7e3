// Polyhal ABI 1.5 (1.0-1.5) -- header-only C++17 RAII wrapper over
// polyhal/runtime.h.
//
// Every object owns its C handle and releases it in its destructor; objects
// are movable, not copyable. Errors are values: functions return
// phal::Error (empty on success) or phal::Result<T>, so nothing throws and
// the wrapper can be used where exceptions are disabled. Devices are
// non-owning views, valid while their Client lives.
#ifndef POLYHAL_POLYHAL_HPP_
#define POLYHAL_POLYHAL_HPP_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polyhal/runtime.h"

namespace phal {

// An error code and message; code() == PHAL_OK means success.
class Error {
 public:
  Error() = default;
  // Takes ownership of a status returned by the C API.
  explicit Error(phal_status_t* status) {
    if (status == nullptr) return;
    code_ = phal_status_get_code(status);
    message_ = phal_status_get_message(status);
    phal_status_free(status);
  }
  Error(phal_status_code_t code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == PHAL_OK; }
  explicit operator bool() const { return !ok(); }  // true when failed
  phal_status_code_t code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const {
    return ok() ? "OK"
                : std::string(phal_status_code_name(code_)) + ": " + message_;
  }

 private:
  phal_status_code_t code_ = PHAL_OK;
  std::string message_;
};

// A value or an Error.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}      // NOLINT: implicit
  Result(Error error) : error_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return error_.ok(); }
  const Error& error() const { return error_; }
  T& value() { return value_; }
  const T& value() const { return value_; }
  T* operator->() { return &value_; }
  T& operator*() { return value_; }

 private:
  T value_{};
  Error error_;
};

// Moves a handle out of `other`, leaving NULL behind.
template <typename Handle>
Handle TakeHandle(Handle& other) {
  return std::exchange(other, nullptr);
}

// One performance counter of a device (phal_device_counter_t, ABI 1.5),
// with its strings copied.
struct Counter {
  std::string name;
  std::string kernel;  // "" for the device's totals
  std::string unit;
  double value = 0;
};

// The names the CLI, the reports and the Python package give device and
// memory kinds: "cpu", "gpu", "accelerator"; "device", "host-shared",
// "unified"; "unknown" for any other value.
inline const char* DeviceKindName(phal_device_kind_t kind) {
  switch (kind) {
    case PHAL_DEVICE_KIND_CPU:
      return "cpu";
    case PHAL_DEVICE_KIND_GPU:
      return "gpu";
    case PHAL_DEVICE_KIND_ACCELERATOR:
      return "accelerator";
    default:
      return "unknown";
  }
}
inline const char* MemoryKindName(phal_memory_kind_t kind) {
  switch (kind) {
    case PHAL_MEMORY_KIND_DEVICE:
      return "device";
    case PHAL_MEMORY_KIND_HOST_SHARED:
      return "host-shared";
    case PHAL_MEMORY_KIND_UNIFIED:
      return "unified";
    default:
      return "unknown";
  }
}

class Device {
 public:
  Device() = default;
  explicit Device(phal_device_t* device) : device_(device) {}
  phal_device_t* get() const { return device_; }

  Result<phal_device_properties_t> Properties() const {
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    Error error(phal_device_get_properties(device_, &properties));
    if (!error.ok()) return error;
    return properties;
  }
  // Index of the device's plugin in Client::Plugins().
  Result<size_t> PluginIndex() const {
    size_t index = 0;
    Error error(phal_device_get_plugin_index(device_, &index));
    if (!error.ok()) return error;
    return index;
  }
  // The device's performance counters (ABI 1.5); empty when its plugin
  // counts nothing.
  Result<std::vector<Counter>> Counters() const {
    phal_device_counter_t* counters = nullptr;
    size_t count = 0;
    Error error(phal_device_get_counters(device_, &counters, &count));
    if (!error.ok()) return error;
    std::vector<Counter> copied;
    copied.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      copied.push_back({counters[i].name, counters[i].kernel, counters[i].unit,
                        counters[i].value});
    }
    phal_free(counters);
    return copied;
  }
  Error ResetCounters() const {
    return Error(phal_device_reset_counters(device_));
  }

 private:
  phal_device_t* device_ = nullptr;
};

// A description of a buffer of `type` and `dims` in `memory_space`, for
// phal_buffer_allocate; it points into `dims`, which must outlive it.
inline phal_buffer_desc_t BufferDesc(phal_element_type_t type,
                                     const std::vector<int64_t>& dims,
                                     uint32_t memory_space = 0) {
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.element_type = type;
  desc.rank = static_cast<uint32_t>(dims.size());
  desc.dims = dims.empty() ? nullptr : dims.data();
  desc.memory_space = memory_space;
  return desc;
}
phal_buffer_desc_t BufferDesc(phal_element_type_t type,
                              std::vector<int64_t>&& dims,
                              uint32_t memory_space = 0) = delete;

class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(phal_buffer_t* buffer) : buffer_(buffer) {}
  Buffer(Buffer&& other) noexcept : buffer_(TakeHandle(other.buffer_)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    std::swap(buffer_, other.buffer_);
    return *this;
  }
  ~Buffer() { phal_buffer_free(buffer_); }
  phal_buffer_t* get() const { return buffer_; }

  static Result<Buffer> Allocate(const Device& device, phal_element_type_t type,
                                 const std::vector<int64_t>& dims,
                                 uint32_t memory_space = 0) {
    const phal_buffer_desc_t desc = BufferDesc(type, dims, memory_space);
    phal_buffer_t* buffer = nullptr;
    Error error(phal_buffer_allocate(device.get(), &desc, &buffer));
    if (!error.ok()) return error;
    return Buffer(buffer);
  }

  // The element type, dims and memory space; `dims` points into the buffer
  // and stays valid while it lives.
  Result<phal_buffer_desc_t> Desc() const {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    Error error(phal_buffer_get_desc(buffer_, &desc));
    if (!error.ok()) return error;
    return desc;
  }
  uint64_t ByteSize() const {
    uint64_t size = 0;
    Error(phal_buffer_get_byte_size(buffer_, &size));
    return size;
  }
  Error CopyFromHost(const void* source, uint64_t byte_size,
                     uint64_t offset = 0) {
    return Error(
        phal_buffer_copy_from_host(buffer_, offset, source, byte_size));
  }
  Error CopyToHost(void* destination, uint64_t byte_size,
                   uint64_t offset = 0) const {
    return Error(
        phal_buffer_copy_to_host(buffer_, offset, destination, byte_size));
  }

 private:
  phal_buffer_t* buffer_ = nullptr;
};

class Event {
 public:
  Event() = default;
  explicit Event(phal_event_t* event) : event_(event) {}
  Event(Event&& other) noexcept : event_(TakeHandle(other.event_)) {}
  Event& operator=(Event&& other) noexcept {
    std::swap(event_, other.event_);
    return *this;
  }
  ~Event() { phal_event_free(event_); }
  phal_event_t* get() const { return event_; }

  static Result<Event> Create(const Device& device) {
    phal_event_t* event = nullptr;
    Error error(phal_event_create(device.get(), &event));
    if (!error.ok()) return error;
    return Event(event);
  }
  Error Synchronize() { return Error(phal_event_synchronize(event_)); }
  Result<bool> IsSignalled() {
    int signalled = 0;
    Error error(phal_event_query(event_, &signalled));
    if (!error.ok()) return error;
    return signalled != 0;
  }

 private:
  phal_event_t* event_ = nullptr;
};

class Stream {
 public:
  Stream() = default;
  explicit Stream(phal_stream_t* stream) : stream_(stream) {}
  Stream(Stream&& other) noexcept : stream_(TakeHandle(other.stream_)) {}
  Stream& operator=(Stream&& other) noexcept {
    std::swap(stream_, other.stream_);
    return *this;
  }
  ~Stream() { phal_stream_destroy(stream_); }
  phal_stream_t* get() const { return stream_; }

  static Result<Stream> Create(const Device& device) {
    phal_stream_t* stream = nullptr;
    Error error(phal_stream_create(device.get(), &stream));
    if (!error.ok()) return error;
    return Stream(stream);
  }
  Error CopyFromHost(const void* source, Buffer& buffer, uint64_t byte_size,
                     uint64_t offset = 0) {
    return Error(phal_stream_copy_from_host(stream_, source, buffer.get(),
                                            offset, byte_size));
  }
  Error CopyToHost(const Buffer& buffer, void* destination, uint64_t byte_size,
                   uint64_t offset = 0) {
    return Error(phal_stream_copy_to_host(stream_, buffer.get(), offset,
                                          destination, byte_size));
  }
  Error Record(Event& event) {
    return Error(phal_stream_record_event(stream_, event.get()));
  }
  Error Wait(Event& event) {
    return Error(phal_stream_wait_event(stream_, event.get()));
  }
  Error Synchronize() { return Error(phal_stream_synchronize(stream_)); }

 private:
  phal_stream_t* stream_ = nullptr;
};

// A program compiled for one device (ABI 1.1). Must be destroyed before the
// Client it came from.
class Executable {
 public:
  Executable() = default;
  explicit Executable(phal_executable_t* executable)
      : executable_(executable) {}
  Executable(Executable&& other) noexcept
      : executable_(TakeHandle(other.executable_)) {}
  Executable& operator=(Executable&& other) noexcept {
    std::swap(executable_, other.executable_);
    return *this;
  }
  ~Executable() { phal_executable_free(executable_); }
  phal_executable_t* get() const { return executable_; }

  // `source_name` names the program in error messages (file:line:column).
  static Result<Executable> Compile(
      const Device& device, std::string_view program,
      phal_program_format_t format = PHAL_PROGRAM_FORMAT_HLO_TEXT,
      const std::string& source_name = "") {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = format;
    options.source_name = source_name.empty() ? nullptr : source_name.c_str();
    phal_executable_t* executable = nullptr;
    Error error(phal_executable_compile(device.get(), program.data(),
                                        program.size(), &options, &executable));
    if (!error.ok()) return error;
    return Executable(executable);
  }

  // Compiles a program for several processes (replicas x partitions) for a
  // device assignment: devices[k] runs process k (ABI 1.7).
  static Result<Executable> CompileForDevices(
      const std::vector<Device>& devices, std::string_view program,
      phal_program_format_t format = PHAL_PROGRAM_FORMAT_HLO_TEXT,
      const std::string& source_name = "") {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = format;
    options.source_name = source_name.empty() ? nullptr : source_name.c_str();
    std::vector<phal_device_t*> handles;
    handles.reserve(devices.size());
    for (const Device& device : devices) handles.push_back(device.get());
    phal_executable_t* executable = nullptr;
    Error error(phal_executable_compile_for_devices(
        handles.data(), handles.size(), program.data(), program.size(),
        &options, &executable));
    if (!error.ok()) return error;
    return Executable(executable);
  }

  // Compiles a program for several processes over the devices of a job:
  // global device global_devices[k] of `client`'s job runs process k; every
  // process of the job compiles the same (ABI 1.9).
  static Result<Executable> CompileGlobal(
      phal_client_t* client, const std::vector<size_t>& global_devices,
      std::string_view program,
      phal_program_format_t format = PHAL_PROGRAM_FORMAT_HLO_TEXT,
      const std::string& source_name = "") {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = format;
    options.source_name = source_name.empty() ? nullptr : source_name.c_str();
    phal_executable_t* executable = nullptr;
    Error error(phal_executable_compile_global(
        client, global_devices.data(), global_devices.size(), program.data(),
        program.size(), &options, &executable));
    if (!error.ok()) return error;
    return Executable(executable);
  }

  // Loads the bytes of phal_executable_serialize on `device`, a device of
  // the plugin and target that compiled them (ABI 1.4).
  static Result<Executable> Deserialize(const Device& device,
                                        std::string_view bytes) {
    phal_executable_t* executable = nullptr;
    Error error(phal_executable_deserialize(device.get(), bytes.data(),
                                            bytes.size(), &executable));
    if (!error.ok()) return error;
    return Executable(executable);
  }

  // The shapes of the parameters and results, tuples flattened. Their
  // `dims` point into the executable and stay valid while it lives.
  Result<std::vector<phal_buffer_desc_t>> ParameterDescs() const {
    return Descs(&phal_executable_get_parameter_count,
                 &phal_executable_get_parameter_desc);
  }
  Result<std::vector<phal_buffer_desc_t>> ResultDescs() const {
    return Descs(&phal_executable_get_result_count,
                 &phal_executable_get_result_desc);
  }

  // Runs once and returns when the results are ready: one new buffer per
  // result, owned by the caller. The arguments are only read. Thread-safe.
  Result<std::vector<Buffer>> Execute(const std::vector<Buffer>& arguments) {
    size_t result_count = 0;
    Error error(phal_executable_get_result_count(executable_, &result_count));
    if (!error.ok()) return error;
    std::vector<phal_buffer_t*> handles;
    handles.reserve(arguments.size());
    for (const Buffer& argument : arguments) handles.push_back(argument.get());
    std::vector<phal_buffer_t*> results(result_count, nullptr);
    error = Error(phal_executable_execute(executable_, handles.data(),
                                          handles.size(), results.data(),
                                          results.size()));
    if (!error.ok()) return error;
    std::vector<Buffer> buffers;
    buffers.reserve(result_count);
    for (phal_buffer_t* result : results) buffers.emplace_back(result);
    return buffers;
  }

  // The number of devices the executable runs on (ABI 1.7).
  Result<size_t> DeviceCount() const {
    size_t count = 0;
    Error error(phal_executable_get_device_count(executable_, &count));
    if (!error.ok()) return error;
    return count;
  }

  // Runs on every device of the executable at once: arguments[d] are
  // device d's buffers; returns each device's results (ABI 1.7).
  Result<std::vector<std::vector<Buffer>>> ExecuteOnDevices(
      const std::vector<std::vector<Buffer>>& arguments) {
    size_t result_count = 0;
    Error error(phal_executable_get_result_count(executable_, &result_count));
    if (!error.ok()) return error;
    std::vector<std::vector<phal_buffer_t*>> handles(arguments.size());
    std::vector<phal_buffer_t* const*> argument_lists;
    std::vector<std::vector<phal_buffer_t*>> results(
        arguments.size(), std::vector<phal_buffer_t*>(result_count, nullptr));
    std::vector<phal_buffer_t**> result_lists;
    size_t argument_count = arguments.empty() ? 0 : arguments[0].size();
    for (size_t d = 0; d < arguments.size(); ++d) {
      if (arguments[d].size() != argument_count) {
        return Error(PHAL_INVALID_ARGUMENT,
                     "every device needs the same number of arguments");
      }
      for (const Buffer& argument : arguments[d]) {
        handles[d].push_back(argument.get());
      }
      argument_lists.push_back(handles[d].data());
      result_lists.push_back(results[d].data());
    }
    error = Error(phal_executable_execute_on_devices(
        executable_, arguments.size(), argument_lists.data(), argument_count,
        result_lists.data(), result_count));
    if (!error.ok()) return error;
    std::vector<std::vector<Buffer>> buffers(arguments.size());
    for (size_t d = 0; d < arguments.size(); ++d) {
      for (phal_buffer_t* result : results[d]) buffers[d].emplace_back(result);
    }
    return buffers;
  }

 private:
  using CountFunction = phal_status_t* (*)(const phal_executable_t*, size_t*);
  using DescFunction = phal_status_t* (*)(const phal_executable_t*, size_t,
                                          phal_buffer_desc_t*);

  Result<std::vector<phal_buffer_desc_t>> Descs(
      CountFunction count_function, DescFunction desc_function) const {
    size_t count = 0;
    Error error(count_function(executable_, &count));
    if (!error.ok()) return error;
    std::vector<phal_buffer_desc_t> descs(count);
    for (size_t i = 0; i < count; ++i) {
      descs[i].struct_size = sizeof(phal_buffer_desc_t);
      error = Error(desc_function(executable_, i, &descs[i]));
      if (!error.ok()) return error;
    }
    return descs;
  }

  phal_executable_t* executable_ = nullptr;
};

class Client {
 public:
  Client() = default;
  Client(Client&& other) noexcept : client_(TakeHandle(other.client_)) {}
  Client& operator=(Client&& other) noexcept {
    std::swap(client_, other.client_);
    return *this;
  }
  ~Client() { phal_client_destroy(client_); }
  phal_client_t* get() const { return client_; }

  // `options` may be NULL: the environment decides (PHAL_PLUGIN_PATH, ...).
  static Result<Client> Create(const phal_client_options_t* options = nullptr) {
    Client client;
    Error error(phal_client_create(options, &client.client_));
    if (!error.ok()) return error;
    return client;
  }

  std::vector<phal_plugin_info_t> Plugins() const {
    size_t count = 0;
    Error(phal_client_get_plugin_count(client_, &count));
    std::vector<phal_plugin_info_t> plugins(count);
    for (size_t i = 0; i < count; ++i) {
      plugins[i].struct_size = sizeof(phal_plugin_info_t);
      Error(phal_client_get_plugin_info(client_, i, &plugins[i]));
    }
    return plugins;
  }

  std::vector<Device> Devices() const {
    size_t count = 0;
    Error(phal_client_get_device_count(client_, &count));
    std::vector<Device> devices;
    for (size_t i = 0; i < count; ++i) {
      phal_device_t* device = nullptr;
      if (Error(phal_client_get_device(client_, i, &device)).ok()) {
        devices.emplace_back(device);
      }
    }
    return devices;
  }

  // This process's index in the client's job and the job's process count
  // (ABI 1.9).
  std::pair<uint32_t, uint32_t> ProcessIndex() const {
    uint32_t index = 0;
    uint32_t count = 1;
    Error(phal_client_get_process_index(client_, &index, &count));
    return {index, count};
  }

  // Every device of the client's job, in global order (ABI 1.9).
  std::vector<phal_global_device_t> GlobalDevices() const {
    size_t count = 0;
    Error(phal_client_get_global_device_count(client_, &count));
    std::vector<phal_global_device_t> devices(count);
    for (size_t i = 0; i < count; ++i) {
      devices[i].struct_size = sizeof(phal_global_device_t);
      Error(phal_client_get_global_device(client_, i, &devices[i]));
    }
    return devices;
  }

 private:
  phal_client_t* client_ = nullptr;
};

}  // namespace phal

#endif  // POLYHAL_POLYHAL_HPP_
