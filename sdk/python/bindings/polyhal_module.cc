// polyhal._polyhal: the Python bindings over the public C API, through the
// C++ wrapper polyhal/polyhal.hpp only. This module deals in element-type
// codes, dims and raw bytes (the buffer protocol); the Python package
// (polyhal/__init__.py) maps them to numpy dtypes and arrays, so the module
// does not depend on numpy's C API or version.
//
// Every object holds the Session it came from, so the client outlives its
// devices, buffers and executables whatever order Python frees them in.
// Calls that may take long (compile, execute, copies) release the GIL; the
// C API is thread-safe, so Python threads may run them at once.
#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "polyhal/polyhal.hpp"
#include "polyhal/transport.h"

namespace phal::python {
namespace {

namespace py = pybind11;

// A failed status, thrown inside this module only and translated to
// polyhal.Error at the Python boundary.
struct StatusError {
  phal_status_code_t code;
  std::string message;
};

void ThrowIfError(const Error& error) {
  if (!error.ok()) throw StatusError{error.code(), error.message()};
}

template <typename T>
T ValueOrThrow(Result<T> result) {
  ThrowIfError(result.error());
  return std::move(result.value());
}

StatusError InvalidArgument(std::string message) {
  return StatusError{PHAL_INVALID_ARGUMENT, std::move(message)};
}

std::string OrEmpty(const char* text) { return text == nullptr ? "" : text; }

std::vector<int64_t> DimsOf(const phal_buffer_desc_t& desc) {
  return std::vector<int64_t>(desc.dims, desc.dims + desc.rank);
}

// Tags of the package's own exchanges (below the transport's limit, above
// the core's).
constexpr int32_t kSizesTag = 31001;
constexpr int32_t kBytesTag = 31002;

// This process's place in a job of several processes (polyhal/transport.h):
// a TCP job the package made, or the MPI job's transport.
class Job {
 public:
  static std::shared_ptr<Job> Tcp(const std::string& coordinator,
                                  uint32_t process_index,
                                  uint32_t process_count, double timeout_s) {
    phal_tcp_job_options_t options{};
    options.struct_size = sizeof(options);
    options.coordinator = coordinator.c_str();
    options.process_index = process_index;
    options.process_count = process_count;
    options.timeout_ms = static_cast<uint64_t>(timeout_s * 1000.0);
    phal_host_transport_t* transport = nullptr;
    {
      py::gil_scoped_release release;
      ThrowIfError(Error(phal_tcp_transport_create(&options, &transport)));
    }
    return std::make_shared<Job>(transport, true);
  }

  static std::shared_ptr<Job> Mpi() {
    const phal_host_transport_t* transport = nullptr;
    {
      py::gil_scoped_release release;
      ThrowIfError(Error(phal_mpi_transport_get(&transport)));
    }
    return std::make_shared<Job>(transport, false);
  }

  Job(const phal_host_transport_t* transport, bool owned)
      : transport_(transport), owned_(owned) {}
  ~Job() {
    if (owned_) {
      phal_tcp_transport_destroy(
          const_cast<phal_host_transport_t*>(transport_));
    }
  }
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  const phal_host_transport_t* transport() const { return transport_; }
  int rank() const { return transport_->rank; }
  int size() const { return transport_->size; }
  bool owned() const { return owned_; }

  // Ends this process's part: its peers waiting on it fail now (TCP).
  void Abandon() {
    if (owned_) {
      phal_tcp_transport_abandon(
          const_cast<phal_host_transport_t*>(transport_));
    }
  }

  // Every process's `bytes` (of any length), in process order.
  std::vector<py::bytes> AllGather(const std::string& bytes, double timeout_s) {
    const int me = rank();
    const auto count = static_cast<std::size_t>(size());
    const auto timeout_ms = static_cast<int64_t>(timeout_s * 1000.0);
    std::vector<uint64_t> sizes(count, 0);
    std::vector<std::string> all(count);
    {
      py::gil_scoped_release release;
      uint64_t mine = bytes.size();
      Exchange(&mine, sizeof(mine), sizes.data(), sizeof(uint64_t), kSizesTag,
               timeout_ms);
      sizes[static_cast<std::size_t>(me)] = mine;
      for (std::size_t r = 0; r < count; ++r) all[r].resize(sizes[r]);
      std::vector<phal_host_message_t> sends;
      std::vector<phal_host_message_t> receives;
      for (std::size_t r = 0; r < count; ++r) {
        if (static_cast<int>(r) == me) continue;
        sends.push_back({static_cast<int32_t>(r), kBytesTag,
                         const_cast<char*>(bytes.data()), bytes.size()});
        receives.push_back(
            {static_cast<int32_t>(r), kBytesTag, all[r].data(), sizes[r]});
      }
      Run(sends, receives, timeout_ms, "gathering every process's bytes");
      all[static_cast<std::size_t>(me)] = bytes;
    }
    std::vector<py::bytes> out;
    for (const std::string& piece : all) out.emplace_back(piece);
    return out;
  }

 private:
  // Sends `size` bytes at `mine` to every peer and receives each peer's
  // into `theirs` + peer * stride.
  void Exchange(void* mine, std::size_t size, void* theirs, std::size_t stride,
                int32_t tag, int64_t timeout_ms) {
    std::vector<phal_host_message_t> sends;
    std::vector<phal_host_message_t> receives;
    for (int r = 0; r < this->size(); ++r) {
      if (r == rank()) continue;
      sends.push_back({r, tag, mine, size});
      receives.push_back(
          {r, tag,
           static_cast<char*>(theirs) + stride * static_cast<std::size_t>(r),
           size});
    }
    Run(sends, receives, timeout_ms, "gathering every process's sizes");
  }

  void Run(const std::vector<phal_host_message_t>& sends,
           const std::vector<phal_host_message_t>& receives, int64_t timeout_ms,
           const char* what) {
    char error[1024] = {};
    const phal_status_code_t code = transport_->exchange(
        transport_->user_data, sends.data(), sends.size(), receives.data(),
        receives.size(), timeout_ms, what, error, sizeof(error));
    if (code != PHAL_OK) throw StatusError{code, error};
  }

  const phal_host_transport_t* transport_;
  bool owned_;
};

// One client; destroyed when the last object holding it goes.
class Session {
 public:
  // A client of the plugins the environment names (PHAL_PLUGIN_PATH,
  // PHAL_PLUGINS; docs/plugins.md), in `job` when one is given.
  static std::shared_ptr<Session> Create(std::shared_ptr<Job> job) {
    auto session = std::make_shared<Session>();
    session->job_ = std::move(job);
    {
      py::gil_scoped_release release;
      phal_client_options_t options{};
      options.struct_size = sizeof(options);
      if (session->job_ != nullptr) {
        options.transport = session->job_->transport();
      }
      session->client_ = ValueOrThrow(Client::Create(&options));
    }
    session->plugins_ = session->client_.Plugins();
    return session;
  }

  const Client& client() const { return client_; }
  const std::vector<phal_plugin_info_t>& plugins() const { return plugins_; }
  const std::shared_ptr<Job>& job() const { return job_; }

 private:
  // Declared first: the client, which uses the transport, goes first.
  std::shared_ptr<Job> job_;
  Client client_;
  std::vector<phal_plugin_info_t> plugins_;
};

class PyDevice {
 public:
  PyDevice(std::shared_ptr<Session> session, Device device)
      : session_(std::move(session)),
        device_(device),
        properties_(ValueOrThrow(device.Properties())),
        plugin_index_(ValueOrThrow(device.PluginIndex())) {}

  const Device& device() const { return device_; }
  const std::shared_ptr<Session>& session() const { return session_; }
  const phal_device_properties_t& properties() const { return properties_; }

  std::string plugin() const {
    return OrEmpty(session_->plugins().at(plugin_index_).name);
  }
  std::vector<std::string> ElementTypes() const {
    std::vector<std::string> names;
    for (int type = PHAL_ELEMENT_TYPE_PRED; type < PHAL_ELEMENT_TYPE_COUNT;
         ++type) {
      if (properties_.element_types & PHAL_ELEMENT_TYPE_BIT(type)) {
        names.emplace_back(
            phal_element_type_name(static_cast<phal_element_type_t>(type)));
      }
    }
    return names;
  }
  std::string Kind() const { return phal::DeviceKindName(properties_.kind); }
  bool Equals(const PyDevice& other) const {
    return device_.get() == other.device_.get();
  }

 private:
  std::shared_ptr<Session> session_;
  Device device_;
  phal_device_properties_t properties_;
  size_t plugin_index_;
};

class PyBuffer {
 public:
  PyBuffer(std::shared_ptr<PyDevice> device, Buffer buffer)
      : device_(std::move(device)), buffer_(std::move(buffer)) {
    phal_buffer_desc_t desc{};
    desc.struct_size = sizeof(desc);
    ThrowIfError(Error(phal_buffer_get_desc(buffer_.get(), &desc)));
    element_type_ = desc.element_type;
    dims_ = DimsOf(desc);
  }

  // A new buffer on `device` holding the bytes of `data`, which must be
  // exactly the size of `dims` elements of `element_type`.
  static PyBuffer Put(std::shared_ptr<PyDevice> device, const py::buffer& data,
                      int element_type, std::vector<int64_t> dims) {
    py::buffer_info info = data.request();
    const uint64_t size = static_cast<uint64_t>(info.size * info.itemsize);
    Buffer buffer;
    {
      py::gil_scoped_release release;
      buffer = ValueOrThrow(Buffer::Allocate(
          device->device(), static_cast<phal_element_type_t>(element_type),
          dims));
      if (buffer.ByteSize() != size) {
        throw InvalidArgument("host data holds " + std::to_string(size) +
                              " bytes but the buffer needs " +
                              std::to_string(buffer.ByteSize()));
      }
      ThrowIfError(buffer.CopyFromHost(info.ptr, size));
    }
    return PyBuffer(std::move(device), std::move(buffer));
  }

  // Copies the buffer into `destination`, a writable contiguous host
  // buffer of the same byte size.
  void CopyToHost(const py::buffer& destination) const {
    py::buffer_info info = destination.request(/*writable=*/true);
    const uint64_t size = static_cast<uint64_t>(info.size * info.itemsize);
    py::gil_scoped_release release;
    if (buffer_.ByteSize() != size) {
      throw InvalidArgument("the host array holds " + std::to_string(size) +
                            " bytes but the buffer " +
                            std::to_string(buffer_.ByteSize()));
    }
    ThrowIfError(buffer_.CopyToHost(info.ptr, size));
  }

  const std::shared_ptr<PyDevice>& device() const { return device_; }
  const Buffer& buffer() const { return buffer_; }
  int element_type() const { return element_type_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  uint64_t byte_size() const { return buffer_.ByteSize(); }

 private:
  std::shared_ptr<PyDevice> device_;
  Buffer buffer_;
  int element_type_ = PHAL_ELEMENT_TYPE_INVALID;
  std::vector<int64_t> dims_;
};

// An element type code and dims: a parameter's or a result's shape.
using Shape = std::pair<int, std::vector<int64_t>>;

std::vector<Shape> ShapesOf(const std::vector<phal_buffer_desc_t>& descs) {
  std::vector<Shape> shapes;
  shapes.reserve(descs.size());
  for (const phal_buffer_desc_t& desc : descs) {
    shapes.emplace_back(desc.element_type, DimsOf(desc));
  }
  return shapes;
}

class PyExecutable {
 public:
  static std::shared_ptr<PyExecutable> Compile(std::shared_ptr<PyDevice> device,
                                               const std::string& program,
                                               int format,
                                               const std::string& source_name) {
    Executable executable;
    {
      py::gil_scoped_release release;
      executable = ValueOrThrow(Executable::Compile(
          device->device(), program, static_cast<phal_program_format_t>(format),
          source_name));
    }
    return std::make_shared<PyExecutable>(
        std::vector<std::shared_ptr<PyDevice>>{std::move(device)},
        std::move(executable));
  }

  // `program` compiled for `devices`, devices[k] running process k of the
  // program's grid (phal_executable_compile_for_devices).
  static std::shared_ptr<PyExecutable> CompileForDevices(
      std::vector<std::shared_ptr<PyDevice>> devices,
      const std::string& program, int format, const std::string& source_name) {
    std::vector<Device> handles;
    handles.reserve(devices.size());
    for (const std::shared_ptr<PyDevice>& device : devices) {
      if (device == nullptr) throw InvalidArgument("a device is None");
      handles.push_back(device->device());
    }
    Executable executable;
    {
      py::gil_scoped_release release;
      executable = ValueOrThrow(Executable::CompileForDevices(
          handles, program, static_cast<phal_program_format_t>(format),
          source_name));
    }
    return std::make_shared<PyExecutable>(std::move(devices),
                                          std::move(executable));
  }

  // `program` compiled for an assignment over the job of `session`'s
  // client: global device global[k] runs process k
  // (phal_executable_compile_global); the executable's devices are this
  // process's, in process order.
  static std::shared_ptr<PyExecutable> CompileGlobal(
      const std::shared_ptr<Session>& session,
      const std::vector<size_t>& global, const std::string& program, int format,
      const std::string& source_name) {
    Executable executable;
    {
      py::gil_scoped_release release;
      executable = ValueOrThrow(Executable::CompileGlobal(
          session->client().get(), global, program,
          static_cast<phal_program_format_t>(format), source_name));
    }
    const std::vector<phal_global_device_t> table =
        session->client().GlobalDevices();
    std::vector<std::shared_ptr<PyDevice>> devices;
    for (size_t g : global) {
      if (table.at(g).device != nullptr) {
        devices.push_back(
            std::make_shared<PyDevice>(session, Device(table[g].device)));
      }
    }
    return std::make_shared<PyExecutable>(std::move(devices),
                                          std::move(executable));
  }

  PyExecutable(std::vector<std::shared_ptr<PyDevice>> devices,
               Executable executable)
      : devices_(std::move(devices)),
        executable_(std::move(executable)),
        parameters_(ShapesOf(ValueOrThrow(executable_.ParameterDescs()))),
        results_(ShapesOf(ValueOrThrow(executable_.ResultDescs()))) {}

  // Runs once on `arguments` (checked by the C API against the parameters)
  // and returns the result buffers.
  std::vector<PyBuffer> Execute(const std::vector<const PyBuffer*>& arguments) {
    std::vector<phal_buffer_t*> handles;
    handles.reserve(arguments.size());
    for (const PyBuffer* argument : arguments) {
      if (argument == nullptr) throw InvalidArgument("an argument is None");
      handles.push_back(argument->buffer().get());
    }
    std::vector<phal_buffer_t*> results(results_.size(), nullptr);
    {
      py::gil_scoped_release release;
      ThrowIfError(Error(phal_executable_execute(
          executable_.get(), handles.data(), handles.size(), results.data(),
          results.size())));
    }
    return Wrap(devices_.front(), results);
  }

  // Runs once on every device of the executable, arguments[d] being device
  // d's arguments, and returns each device's result buffers.
  std::vector<std::vector<PyBuffer>> ExecuteOnDevices(
      const std::vector<std::vector<const PyBuffer*>>& arguments) {
    if (arguments.size() != devices_.size()) {
      throw InvalidArgument("the executable runs on " +
                            std::to_string(devices_.size()) +
                            " devices; arguments were given for " +
                            std::to_string(arguments.size()));
    }
    std::vector<std::vector<phal_buffer_t*>> handles(arguments.size());
    std::vector<phal_buffer_t* const*> argument_lists;
    for (std::size_t d = 0; d < arguments.size(); ++d) {
      if (arguments[d].size() != parameters_.size()) {
        throw InvalidArgument("the executable takes " +
                              std::to_string(parameters_.size()) +
                              " argument(s) per device, not " +
                              std::to_string(arguments[d].size()) +
                              " (device " + std::to_string(d) + ")");
      }
      for (const PyBuffer* argument : arguments[d]) {
        if (argument == nullptr) throw InvalidArgument("an argument is None");
        handles[d].push_back(argument->buffer().get());
      }
      argument_lists.push_back(handles[d].data());
    }
    std::vector<std::vector<phal_buffer_t*>> results(
        devices_.size(), std::vector<phal_buffer_t*>(results_.size()));
    std::vector<phal_buffer_t**> result_lists;
    for (std::vector<phal_buffer_t*>& slots : results) {
      result_lists.push_back(slots.data());
    }
    {
      py::gil_scoped_release release;
      ThrowIfError(Error(phal_executable_execute_on_devices(
          executable_.get(), devices_.size(), argument_lists.data(),
          parameters_.size(), result_lists.data(), results_.size())));
    }
    std::vector<std::vector<PyBuffer>> buffers;
    buffers.reserve(results.size());
    for (std::size_t d = 0; d < results.size(); ++d) {
      buffers.push_back(Wrap(devices_[d], results[d]));
    }
    return buffers;
  }

  const std::shared_ptr<PyDevice>& device() const { return devices_.front(); }
  const std::vector<std::shared_ptr<PyDevice>>& devices() const {
    return devices_;
  }
  const std::vector<Shape>& parameters() const { return parameters_; }
  const std::vector<Shape>& results() const { return results_; }

 private:
  // Takes ownership of `results`, buffers on `device`.
  static std::vector<PyBuffer> Wrap(
      const std::shared_ptr<PyDevice>& device,
      const std::vector<phal_buffer_t*>& results) {
    std::vector<Buffer> owned;
    owned.reserve(results.size());
    for (phal_buffer_t* result : results) owned.emplace_back(result);
    std::vector<PyBuffer> buffers;
    buffers.reserve(owned.size());
    for (Buffer& result : owned)
      buffers.emplace_back(device, std::move(result));
    return buffers;
  }

  std::vector<std::shared_ptr<PyDevice>> devices_;
  Executable executable_;
  std::vector<Shape> parameters_;
  std::vector<Shape> results_;
};

py::dict PluginInfoDict(const phal_plugin_info_t& info) {
  py::dict plugin;
  plugin["name"] = OrEmpty(info.name);
  plugin["description"] = OrEmpty(info.description);
  plugin["version"] = OrEmpty(info.version);
  plugin["manifest_path"] = OrEmpty(info.manifest_path);
  plugin["library_path"] = OrEmpty(info.library_path);
  plugin["state"] =
      info.state == PHAL_PLUGIN_STATE_LOADED ? "loaded" : "skipped";
  plugin["abi_version"] =
      info.abi_version == 0
          ? std::string()
          : std::to_string(PHAL_VERSION_MAJOR(info.abi_version)) + "." +
                std::to_string(PHAL_VERSION_MINOR(info.abi_version));
  plugin["device_count"] = info.device_count;
  plugin["reason"] = OrEmpty(info.reason);
  return plugin;
}

// The path of the libpolyhal this module was linked against, from which the
// package finds the polyhal command installed beside it.
std::string LibraryPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&phal_get_version_string), &info) == 0 ||
      info.dli_fname == nullptr) {
    return "";
  }
  return info.dli_fname;
}

void DefineModule(py::module_& module) {
  module.doc() = "Polyhal's C API for the polyhal package; use polyhal.";
  // A handle that is never released: the translator may run until the
  // interpreter shuts down, after module objects are gone.
  static py::handle error_type =
      py::object(py::module_::import("polyhal._errors").attr("Error"))
          .release();
  py::register_exception_translator([](std::exception_ptr exception) {
    try {
      if (exception) std::rethrow_exception(exception);
    } catch (const StatusError& error) {
      py::object value =
          error_type(phal_status_code_name(error.code), error.message);
      PyErr_SetObject(error_type.ptr(), value.ptr());
    }
  });

  module.def("abi_version", [] {
    uint32_t version = phal_get_abi_version();
    return std::to_string(PHAL_VERSION_MAJOR(version)) + "." +
           std::to_string(PHAL_VERSION_MINOR(version));
  });
  module.def("library_version", [] { return phal_get_version_string(); });
  module.def("library_path", &LibraryPath);
  module.def("element_type_name", [](int type) {
    return phal_element_type_name(static_cast<phal_element_type_t>(type));
  });

  py::class_<Job, std::shared_ptr<Job>>(module, "Job")
      .def_static("tcp", &Job::Tcp, py::arg("coordinator"),
                  py::arg("process_index"), py::arg("process_count"),
                  py::arg("timeout"))
      .def_static("mpi", &Job::Mpi)
      .def_property_readonly("rank", &Job::rank)
      .def_property_readonly("size", &Job::size)
      .def_property_readonly(
          "kind", [](const Job& job) { return job.owned() ? "tcp" : "mpi"; })
      .def("all_gather", &Job::AllGather, py::arg("data"), py::arg("timeout"))
      .def("abandon", &Job::Abandon);

  py::class_<Session, std::shared_ptr<Session>>(module, "Session")
      .def(py::init(&Session::Create), py::arg("job") = nullptr)
      .def_property_readonly("job", &Session::job)
      .def("global_devices",
           [](const std::shared_ptr<Session>& session) {
             py::list out;
             for (const phal_global_device_t& entry :
                  session->client().GlobalDevices()) {
               py::object local = py::none();
               if (entry.device != nullptr) {
                 local = py::cast(
                     std::make_shared<PyDevice>(session, Device(entry.device)));
               }
               out.append(py::make_tuple(entry.process_index,
                                         OrEmpty(entry.plugin_name),
                                         OrEmpty(entry.device_name), local));
             }
             return out;
           })
      .def("plugins",
           [](const Session& session) {
             py::list plugins;
             for (const phal_plugin_info_t& info : session.plugins()) {
               plugins.append(PluginInfoDict(info));
             }
             return plugins;
           })
      .def("devices", [](const std::shared_ptr<Session>& session) {
        std::vector<std::shared_ptr<PyDevice>> devices;
        for (const Device& device : session->client().Devices()) {
          devices.push_back(std::make_shared<PyDevice>(session, device));
        }
        return devices;
      });

  py::class_<PyDevice, std::shared_ptr<PyDevice>>(module, "Device")
      .def_property_readonly(
          "name",
          [](const PyDevice& d) { return OrEmpty(d.properties().name); })
      .def_property_readonly("kind", &PyDevice::Kind)
      .def_property_readonly(
          "vendor",
          [](const PyDevice& d) { return OrEmpty(d.properties().vendor); })
      .def_property_readonly("driver_version",
                             [](const PyDevice& d) {
                               return OrEmpty(d.properties().driver_version);
                             })
      .def_property_readonly(
          "features",
          [](const PyDevice& d) { return OrEmpty(d.properties().features); })
      .def_property_readonly("plugin", &PyDevice::plugin)
      .def_property_readonly(
          "ordinal", [](const PyDevice& d) { return d.properties().ordinal; })
      .def_property_readonly(
          "compute_units",
          [](const PyDevice& d) { return d.properties().compute_units; })
      .def_property_readonly(
          "memory",
          [](const PyDevice& d) { return d.properties().memory_bytes; })
      .def_property_readonly(
          "max_allocation",
          [](const PyDevice& d) { return d.properties().max_allocation_bytes; })
      .def_property_readonly("element_types", &PyDevice::ElementTypes)
      .def(
          "counters",
          [](const PyDevice& d) {
            std::vector<Counter> counters;
            {
              py::gil_scoped_release release;
              counters = ValueOrThrow(d.device().Counters());
            }
            py::list out;
            for (const Counter& counter : counters) {
              out.append(py::make_tuple(counter.name, counter.kernel,
                                        counter.unit, counter.value));
            }
            return out;
          },
          "The device's performance counters (ABI 1.5) as (name, kernel, "
          "unit, value) tuples, kernel '' for the totals; [] when its "
          "plugin counts nothing.")
      .def(
          "reset_counters",
          [](const PyDevice& d) { ThrowIfError(d.device().ResetCounters()); },
          "Sets the device's performance counters to zero.")
      .def("__eq__", &PyDevice::Equals)
      .def("__hash__",
           [](const PyDevice& d) {
             return std::hash<const void*>()(d.device().get());
           })
      .def("__repr__", [](const PyDevice& d) {
        return "<polyhal.Device " + d.plugin() + ":" +
               std::to_string(d.properties().ordinal) + " '" +
               OrEmpty(d.properties().name) + "'>";
      });

  py::class_<PyBuffer>(module, "Buffer")
      .def_static("put", &PyBuffer::Put, py::arg("device"), py::arg("data"),
                  py::arg("element_type"), py::arg("dims"))
      .def("copy_to_host", &PyBuffer::CopyToHost, py::arg("destination"))
      .def_property_readonly("device", &PyBuffer::device)
      .def_property_readonly("element_type", &PyBuffer::element_type)
      .def_property_readonly("dims", &PyBuffer::dims)
      .def_property_readonly("nbytes", &PyBuffer::byte_size);

  py::class_<PyExecutable, std::shared_ptr<PyExecutable>>(module, "Executable")
      .def_static("compile", &PyExecutable::Compile, py::arg("device"),
                  py::arg("program"), py::arg("format"), py::arg("source_name"))
      .def_static("compile_global", &PyExecutable::CompileGlobal,
                  py::arg("session"), py::arg("global_devices"),
                  py::arg("program"), py::arg("format"), py::arg("source_name"))
      .def_static("compile_for_devices", &PyExecutable::CompileForDevices,
                  py::arg("devices"), py::arg("program"), py::arg("format"),
                  py::arg("source_name"))
      .def("execute", &PyExecutable::Execute, py::arg("arguments"))
      .def("execute_on_devices", &PyExecutable::ExecuteOnDevices,
           py::arg("arguments"))
      .def_property_readonly("device", &PyExecutable::device)
      .def_property_readonly("devices", &PyExecutable::devices)
      .def_property_readonly("parameters", &PyExecutable::parameters)
      .def_property_readonly("results", &PyExecutable::results);
}

}  // namespace
}  // namespace phal::python

PYBIND11_MODULE(_polyhal, module) { phal::python::DefineModule(module); }
