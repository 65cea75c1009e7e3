// The API corpus: behaviours of the C API every plugin must show, whatever
// its numerics. Each check returns "" when the behaviour held, else a
// sentence saying what was expected and what came.
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <numeric>
#include <thread>

#include "conformance/cases/corpus.h"
#include "polyhal/runtime.h"

namespace phal::conformance {
namespace {

// "" when `status` is NULL; else "<what>: CODE: message" (status freed).
std::string Failed(phal_status_t* status, const std::string& what) {
  if (status == nullptr) return "";
  std::string message = what + ": " +
                        phal_status_code_name(phal_status_get_code(status)) +
                        ": " + phal_status_get_message(status);
  phal_status_free(status);
  return message;
}

// "" when `status` is an error (freed); else a complaint that `what`
// succeeded.
std::string MustFail(phal_status_t* status, const std::string& what) {
  if (status != nullptr) {
    phal_status_free(status);
    return "";
  }
  return what + " returned success; an error status was expected";
}

#define PHAL_API_CHECK(expression)                        \
  do {                                                    \
    const std::string phal_api_check_ = (expression);     \
    if (!phal_api_check_.empty()) return phal_api_check_; \
  } while (false)

phal_device_properties_t Properties(phal_device_t* device) {
  phal_device_properties_t p{};
  p.struct_size = sizeof(p);
  phal_status_free(phal_device_get_properties(device, &p));
  return p;
}

bool Supports(phal_device_t* device, phal_element_type_t type) {
  return (Properties(device).element_types & PHAL_ELEMENT_TYPE_BIT(type)) != 0;
}

struct BufferHolder {
  phal_buffer_t* buffer = nullptr;
  ~BufferHolder() { phal_buffer_free(buffer); }
};

std::string Allocate(phal_device_t* device, phal_element_type_t type,
                     std::vector<int64_t> dims, BufferHolder* out) {
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.element_type = type;
  desc.rank = static_cast<uint32_t>(dims.size());
  desc.dims = dims.empty() ? nullptr : dims.data();
  return Failed(
      phal_buffer_allocate(device, &desc, &out->buffer),
      std::string("allocating a ") + phal_element_type_name(type) + " buffer");
}

std::vector<uint8_t> Pattern(std::size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) {
    bytes[i] = static_cast<uint8_t>(i * 131 + seed + (i >> 8));
  }
  return bytes;
}

// Resident memory of this process, in bytes.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0;
  int64_t resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

std::string CheckVersion(const ApiContext& context) {
  const uint32_t core = phal_get_abi_version();
  if (PHAL_VERSION_MAJOR(core) != PHAL_ABI_VERSION_MAJOR) {
    return "the library speaks ABI major " +
           std::to_string(PHAL_VERSION_MAJOR(core)) + ", the headers " +
           std::to_string(PHAL_ABI_VERSION_MAJOR);
  }
  if (phal_get_version_string() == nullptr || !*phal_get_version_string()) {
    return "phal_get_version_string() is empty";
  }
  size_t index = 0;
  PHAL_API_CHECK(Failed(phal_device_get_plugin_index(context.device, &index),
                        "phal_device_get_plugin_index"));
  phal_plugin_info_t info{};
  info.struct_size = sizeof(info);
  PHAL_API_CHECK(
      Failed(phal_client_get_plugin_info(context.client, index, &info),
             "phal_client_get_plugin_info"));
  if (PHAL_VERSION_MAJOR(info.abi_version) != PHAL_VERSION_MAJOR(core) ||
      info.abi_version > core) {
    return "the plugin negotiated ABI " +
           std::to_string(PHAL_VERSION_MAJOR(info.abi_version)) + "." +
           std::to_string(PHAL_VERSION_MINOR(info.abi_version)) +
           ", outside what the core speaks";
  }
  if (info.state != PHAL_PLUGIN_STATE_LOADED) return "the plugin is not loaded";
  return "";
}

std::string CheckProperties(const ApiContext& context) {
  phal_device_properties_t p{};
  p.struct_size = sizeof(p);
  PHAL_API_CHECK(Failed(phal_device_get_properties(context.device, &p),
                        "phal_device_get_properties"));
  if (p.name == nullptr || p.vendor == nullptr || p.driver_version == nullptr ||
      p.features == nullptr) {
    return "a string property is NULL; the ABI says empty when unknown";
  }
  if (p.element_types == 0) return "the device supports no element type";
  if ((p.element_types & ~((uint64_t{1} << PHAL_ELEMENT_TYPE_COUNT) - 2)) !=
      0) {
    return "element_types has bits beyond the known element types";
  }
  if (p.min_alignment == 0 || (p.min_alignment & (p.min_alignment - 1)) != 0) {
    return "min_alignment " + std::to_string(p.min_alignment) +
           " is not a power of two";
  }
  if (p.memory_space_count == 0) return "memory_space_count is 0";
  if (p.memory_bytes > 0 && p.max_allocation_bytes > p.memory_bytes) {
    return "max_allocation_bytes exceeds memory_bytes";
  }
  phal_memory_space_info_t space{};
  space.struct_size = sizeof(space);
  PHAL_API_CHECK(Failed(phal_device_get_memory_space(context.device, 0, &space),
                        "phal_device_get_memory_space(0)"));
  PHAL_API_CHECK(MustFail(phal_device_get_memory_space(
                              context.device, p.memory_space_count, &space),
                          "phal_device_get_memory_space(memory_space_count)"));
  // A caller built against an older, smaller struct gets only what fits.
  phal_device_properties_t small{};
  std::memset(&small, 0xAB, sizeof(small));
  small.struct_size = offsetof(phal_device_properties_t, kernel_kinds);
  PHAL_API_CHECK(Failed(phal_device_get_properties(context.device, &small),
                        "phal_device_get_properties with an ABI 1.0 size"));
  uint64_t untouched = 0;
  std::memset(&untouched, 0xAB, sizeof(untouched));
  if (std::memcmp(&small.kernel_kinds, &untouched, sizeof(untouched)) != 0) {
    return "phal_device_get_properties wrote kernel_kinds beyond struct_size";
  }
  if (small.element_types != p.element_types) {
    return "the properties differ between two calls";
  }
  return "";
}

std::string CheckRoundTrip(const ApiContext& context,
                           phal_element_type_t type) {
  if (!Supports(context.device, type)) return "";
  BufferHolder buffer;
  const std::vector<int64_t> dims = {3, 5, 7};
  PHAL_API_CHECK(Allocate(context.device, type, dims, &buffer));
  const std::size_t size = 3 * 5 * 7 * phal_element_type_byte_size(type);
  uint64_t byte_size = 0;
  PHAL_API_CHECK(Failed(phal_buffer_get_byte_size(buffer.buffer, &byte_size),
                        "phal_buffer_get_byte_size"));
  if (byte_size != size) {
    return "byte size " + std::to_string(byte_size) + ", expected " +
           std::to_string(size);
  }
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  PHAL_API_CHECK(Failed(phal_buffer_get_desc(buffer.buffer, &desc),
                        "phal_buffer_get_desc"));
  if (desc.element_type != type || desc.rank != 3 ||
      !std::equal(dims.begin(), dims.end(), desc.dims)) {
    return "the buffer's description differs from the one allocated";
  }
  std::vector<uint8_t> data = Pattern(size, static_cast<uint8_t>(type));
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    for (uint8_t& b : data) b &= 1;
  }
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_from_host(buffer.buffer, 0, data.data(), size),
             "phal_buffer_copy_from_host"));
  std::vector<uint8_t> back(size);
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_to_host(buffer.buffer, 0, back.data(), size),
             "phal_buffer_copy_to_host"));
  if (back != data) return "the bytes read back differ from those written";
  // A partial write at an offset leaves the rest alone.
  const std::vector<uint8_t> patch(7,
                                   type == PHAL_ELEMENT_TYPE_PRED ? 1 : 0x5A);
  PHAL_API_CHECK(Failed(
      phal_buffer_copy_from_host(buffer.buffer, 9, patch.data(), patch.size()),
      "phal_buffer_copy_from_host at an offset"));
  std::copy(patch.begin(), patch.end(), data.begin() + 9);
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_to_host(buffer.buffer, 0, back.data(), size),
             "phal_buffer_copy_to_host"));
  if (back != data)
    return "a write at offset 9 changed bytes outside its range";
  return "";
}

std::string CheckZeroSize(const ApiContext& context) {
  BufferHolder empty;
  PHAL_API_CHECK(
      Allocate(context.device, PHAL_ELEMENT_TYPE_F32, {0, 4}, &empty));
  uint64_t size = 1;
  PHAL_API_CHECK(Failed(phal_buffer_get_byte_size(empty.buffer, &size),
                        "phal_buffer_get_byte_size"));
  if (size != 0) return "a [0,4] buffer has " + std::to_string(size) + " bytes";
  PHAL_API_CHECK(Failed(phal_buffer_copy_from_host(empty.buffer, 0, nullptr, 0),
                        "copying 0 bytes from NULL"));
  PHAL_API_CHECK(Failed(phal_buffer_copy_to_host(empty.buffer, 0, nullptr, 0),
                        "copying 0 bytes to NULL"));
  BufferHolder scalar;
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_F32, {}, &scalar));
  const float value = 2.5f;
  float back = 0;
  PHAL_API_CHECK(Failed(phal_buffer_copy_from_host(scalar.buffer, 0, &value, 4),
                        "writing a scalar"));
  PHAL_API_CHECK(Failed(phal_buffer_copy_to_host(scalar.buffer, 0, &back, 4),
                        "reading a scalar"));
  return back == value ? "" : "a scalar buffer did not keep its value";
}

std::string CheckLargeBuffer(const ApiContext& context) {
  const phal_device_properties_t p = Properties(context.device);
  uint64_t size = uint64_t{256} << 20;
  if (p.max_allocation_bytes > 0)
    size = std::min(size, p.max_allocation_bytes / 4);
  BufferHolder buffer;
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                          {static_cast<int64_t>(size)}, &buffer));
  const std::vector<uint8_t> data = Pattern(static_cast<std::size_t>(size), 3);
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_from_host(buffer.buffer, 0, data.data(), size),
             "writing " + std::to_string(size) + " bytes"));
  std::vector<uint8_t> back(static_cast<std::size_t>(size));
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_to_host(buffer.buffer, 0, back.data(), size),
             "reading " + std::to_string(size) + " bytes"));
  for (std::size_t i = 0; i < back.size(); ++i) {
    if (back[i] != data[i]) {
      return "byte " + std::to_string(i) + " of a " + std::to_string(size) +
             "-byte buffer reads back wrong";
    }
  }
  return "";
}

std::string CheckCopies(const ApiContext& context) {
  const std::size_t size = 4096;
  const std::vector<uint8_t> data = Pattern(size, 9);
  for (phal_device_t* destination_device : context.plugin_devices) {
    BufferHolder source;
    BufferHolder destination;
    PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                            {static_cast<int64_t>(size)}, &source));
    PHAL_API_CHECK(Allocate(destination_device, PHAL_ELEMENT_TYPE_U8,
                            {static_cast<int64_t>(size)}, &destination));
    PHAL_API_CHECK(
        Failed(phal_buffer_copy_from_host(source.buffer, 0, data.data(), size),
               "writing the source"));
    PHAL_API_CHECK(Failed(
        phal_buffer_copy_from_host(destination.buffer, 0, data.data(), size),
        "writing the destination"));
    PHAL_API_CHECK(Failed(
        phal_buffer_copy(source.buffer, 100, destination.buffer, 1000, 2000),
        "phal_buffer_copy"));
    std::vector<uint8_t> expected = data;
    std::copy(data.begin() + 100, data.begin() + 2100, expected.begin() + 1000);
    std::vector<uint8_t> back(size);
    PHAL_API_CHECK(Failed(
        phal_buffer_copy_to_host(destination.buffer, 0, back.data(), size),
        "reading the destination"));
    if (back != expected) {
      return "phal_buffer_copy of 2000 bytes from offset 100 to offset 1000 "
             "did not give the source's bytes there and leave the rest";
    }
    PHAL_API_CHECK(MustFail(
        phal_buffer_copy(source.buffer, size - 10, destination.buffer, 0, 20),
        "phal_buffer_copy past the end of the source"));
  }
  return "";
}

struct StreamHolder {
  phal_stream_t* stream = nullptr;
  ~StreamHolder() { phal_stream_destroy(stream); }
};
struct EventHolder {
  phal_event_t* event = nullptr;
  ~EventHolder() { phal_event_free(event); }
};

// 64 chained copies on one stream: host -> a -> b -> host, each round
// overwriting the last; in-order execution leaves the last round's data.
std::string CheckStreamOrdering(const ApiContext& context) {
  StreamHolder stream;
  PHAL_API_CHECK(Failed(phal_stream_create(context.device, &stream.stream),
                        "phal_stream_create"));
  const std::size_t size = 1 << 16;
  BufferHolder a;
  BufferHolder b;
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                          {static_cast<int64_t>(size)}, &a));
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                          {static_cast<int64_t>(size)}, &b));
  std::vector<std::vector<uint8_t>> rounds;
  std::vector<std::vector<uint8_t>> results(64, std::vector<uint8_t>(size));
  for (int round = 0; round < 64; ++round) {
    rounds.push_back(Pattern(size, static_cast<uint8_t>(round)));
  }
  for (int round = 0; round < 64; ++round) {
    PHAL_API_CHECK(
        Failed(phal_stream_copy_from_host(stream.stream, rounds[round].data(),
                                          a.buffer, 0, size),
               "phal_stream_copy_from_host"));
    PHAL_API_CHECK(Failed(
        phal_stream_copy_buffer(stream.stream, a.buffer, 0, b.buffer, 0, size),
        "phal_stream_copy_buffer"));
    PHAL_API_CHECK(Failed(phal_stream_copy_to_host(stream.stream, b.buffer, 0,
                                                   results[round].data(), size),
                          "phal_stream_copy_to_host"));
  }
  PHAL_API_CHECK(Failed(phal_stream_synchronize(stream.stream),
                        "phal_stream_synchronize"));
  for (int round = 0; round < 64; ++round) {
    if (results[round] != rounds[round]) {
      return "round " + std::to_string(round) +
             " of 64 chained stream copies read back another round's data: "
             "the stream did not run its work in order";
    }
  }
  return "";
}

// An event recorded on one stream orders work on another.
std::string CheckEvents(const ApiContext& context) {
  EventHolder event;
  PHAL_API_CHECK(Failed(phal_event_create(context.device, &event.event),
                        "phal_event_create"));
  int signalled = 0;
  PHAL_API_CHECK(
      Failed(phal_event_query(event.event, &signalled), "phal_event_query"));
  if (signalled != 1) return "a new event is not signalled";
  StreamHolder producer;
  StreamHolder consumer;
  PHAL_API_CHECK(Failed(phal_stream_create(context.device, &producer.stream),
                        "phal_stream_create"));
  PHAL_API_CHECK(Failed(phal_stream_create(context.device, &consumer.stream),
                        "phal_stream_create"));
  const std::size_t size = 1 << 20;
  BufferHolder buffer;
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                          {static_cast<int64_t>(size)}, &buffer));
  for (int round = 0; round < 16; ++round) {
    const std::vector<uint8_t> data =
        Pattern(size, static_cast<uint8_t>(round));
    std::vector<uint8_t> back(size);
    PHAL_API_CHECK(
        Failed(phal_stream_copy_from_host(producer.stream, data.data(),
                                          buffer.buffer, 0, size),
               "phal_stream_copy_from_host"));
    PHAL_API_CHECK(
        Failed(phal_stream_record_event(producer.stream, event.event),
               "phal_stream_record_event"));
    PHAL_API_CHECK(Failed(phal_stream_wait_event(consumer.stream, event.event),
                          "phal_stream_wait_event"));
    PHAL_API_CHECK(
        Failed(phal_stream_copy_to_host(consumer.stream, buffer.buffer, 0,
                                        back.data(), size),
               "phal_stream_copy_to_host"));
    PHAL_API_CHECK(Failed(phal_stream_synchronize(consumer.stream),
                          "phal_stream_synchronize"));
    PHAL_API_CHECK(
        Failed(phal_event_synchronize(event.event), "phal_event_synchronize"));
    PHAL_API_CHECK(
        Failed(phal_event_query(event.event, &signalled), "phal_event_query"));
    if (signalled != 1)
      return "an event is not signalled after synchronizing it";
    if (back != data) {
      return "a copy waiting on an event recorded after a write read the "
             "buffer before the write finished";
    }
  }
  return "";
}

std::string CheckInvalidArguments(const ApiContext& context) {
  phal_buffer_t* buffer = nullptr;
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  int64_t dims[2] = {4, -1};
  desc.rank = 2;
  desc.dims = dims;
  PHAL_API_CHECK(MustFail(phal_buffer_allocate(context.device, &desc, &buffer),
                          "allocating with a negative dimension"));
  dims[1] = INT64_MAX / 2;
  PHAL_API_CHECK(MustFail(phal_buffer_allocate(context.device, &desc, &buffer),
                          "allocating a size that overflows 64 bits"));
  dims[1] = 4;
  desc.element_type = static_cast<phal_element_type_t>(99);
  PHAL_API_CHECK(MustFail(phal_buffer_allocate(context.device, &desc, &buffer),
                          "allocating element type 99"));
  desc.element_type = PHAL_ELEMENT_TYPE_F32;
  PHAL_API_CHECK(MustFail(phal_buffer_allocate(nullptr, &desc, &buffer),
                          "allocating on a NULL device"));
  PHAL_API_CHECK(
      MustFail(phal_buffer_allocate(context.device, nullptr, &buffer),
               "allocating with a NULL description"));
  PHAL_API_CHECK(MustFail(phal_buffer_allocate(context.device, &desc, nullptr),
                          "allocating into a NULL out pointer"));
  const phal_device_properties_t p = Properties(context.device);
  if (p.max_allocation_bytes > 0 &&
      p.max_allocation_bytes < (uint64_t{1} << 62)) {
    int64_t too_large[1] = {static_cast<int64_t>(p.max_allocation_bytes + 1)};
    desc.element_type = PHAL_ELEMENT_TYPE_U8;
    desc.rank = 1;
    desc.dims = too_large;
    PHAL_API_CHECK(
        MustFail(phal_buffer_allocate(context.device, &desc, &buffer),
                 "allocating max_allocation_bytes + 1"));
  }
  BufferHolder valid;
  PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_F32, {16}, &valid));
  std::vector<uint8_t> host(128);
  PHAL_API_CHECK(
      MustFail(phal_buffer_copy_from_host(valid.buffer, 60, host.data(), 8),
               "writing past the end of a buffer"));
  PHAL_API_CHECK(
      MustFail(phal_buffer_copy_to_host(valid.buffer, 0, host.data(), 65),
               "reading past the end of a buffer"));
  PHAL_API_CHECK(MustFail(
      phal_buffer_copy_to_host(valid.buffer, UINT64_MAX, host.data(), 2),
      "reading at an offset that overflows"));
  PHAL_API_CHECK(
      MustFail(phal_buffer_copy_from_host(nullptr, 0, host.data(), 4),
               "writing a NULL buffer"));
  PHAL_API_CHECK(
      MustFail(phal_buffer_copy_from_host(valid.buffer, 0, nullptr, 4),
               "writing from a NULL source"));
  PHAL_API_CHECK(MustFail(phal_stream_synchronize(nullptr),
                          "synchronizing a NULL stream"));
  PHAL_API_CHECK(
      MustFail(phal_event_synchronize(nullptr), "synchronizing a NULL event"));
  PHAL_API_CHECK(MustFail(phal_stream_create(nullptr, nullptr),
                          "creating a stream on NULL"));
  PHAL_API_CHECK(MustFail(phal_device_get_properties(nullptr, nullptr),
                          "properties of a NULL device"));
  phal_buffer_free(nullptr);
  phal_stream_destroy(nullptr);
  phal_event_free(nullptr);
  phal_executable_free(nullptr);
  return "";
}

constexpr const char kAddProgram[] =
    "HloModule api_add\n\nENTRY main {\n  a = f32[4,3] parameter(0)\n"
    "  b = f32[4,3] parameter(1)\n  ROOT r = f32[4,3] add(a, b)\n}\n";

struct ExecutableHolder {
  phal_executable_t* executable = nullptr;
  ~ExecutableHolder() { phal_executable_free(executable); }
};

std::string Compile(phal_device_t* device, const char* program,
                    ExecutableHolder* out) {
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  return Failed(phal_executable_compile(device, program, std::strlen(program),
                                        &options, &out->executable),
                "compiling an add of two f32[4,3]");
}

// Runs the add program on (x, 2x) and checks the result is 3x.
std::string RunAdd(phal_device_t* device, phal_executable_t* executable,
                   float scale) {
  std::vector<float> x(12);
  std::iota(x.begin(), x.end(), scale);
  std::vector<float> y(12);
  for (std::size_t i = 0; i < 12; ++i) y[i] = 2 * x[i];
  BufferHolder a;
  BufferHolder b;
  PHAL_API_CHECK(Allocate(device, PHAL_ELEMENT_TYPE_F32, {4, 3}, &a));
  PHAL_API_CHECK(Allocate(device, PHAL_ELEMENT_TYPE_F32, {4, 3}, &b));
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_from_host(a.buffer, 0, x.data(), 48), "write"));
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_from_host(b.buffer, 0, y.data(), 48), "write"));
  phal_buffer_t* arguments[2] = {a.buffer, b.buffer};
  BufferHolder result;
  PHAL_API_CHECK(Failed(
      phal_executable_execute(executable, arguments, 2, &result.buffer, 1),
      "phal_executable_execute"));
  std::vector<float> back(12);
  PHAL_API_CHECK(
      Failed(phal_buffer_copy_to_host(result.buffer, 0, back.data(), 48),
             "reading the result"));
  for (std::size_t i = 0; i < 12; ++i) {
    if (back[i] != 3 * x[i]) {
      return "element " + std::to_string(i) + " of x + 2x is " +
             std::to_string(back[i]) + ", expected " + std::to_string(3 * x[i]);
    }
  }
  return "";
}

std::string CheckExecutable(const ApiContext& context) {
  ExecutableHolder executable;
  PHAL_API_CHECK(Compile(context.device, kAddProgram, &executable));
  size_t parameters = 0;
  size_t results = 0;
  PHAL_API_CHECK(Failed(
      phal_executable_get_parameter_count(executable.executable, &parameters),
      "parameter count"));
  PHAL_API_CHECK(
      Failed(phal_executable_get_result_count(executable.executable, &results),
             "result count"));
  if (parameters != 2 || results != 1) {
    return "the add program reports " + std::to_string(parameters) +
           " parameters and " + std::to_string(results) +
           " results, not 2 and 1";
  }
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  PHAL_API_CHECK(
      Failed(phal_executable_get_result_desc(executable.executable, 0, &desc),
             "result description"));
  if (desc.element_type != PHAL_ELEMENT_TYPE_F32 || desc.rank != 2 ||
      desc.dims[0] != 4 || desc.dims[1] != 3) {
    return "the result description is not f32[4,3]";
  }
  PHAL_API_CHECK(RunAdd(context.device, executable.executable, 1));
  PHAL_API_CHECK(RunAdd(context.device, executable.executable, -7));
  // Wrong arguments are statuses, not crashes.
  BufferHolder wrong;
  PHAL_API_CHECK(
      Allocate(context.device, PHAL_ELEMENT_TYPE_F32, {3, 4}, &wrong));
  phal_buffer_t* arguments[2] = {wrong.buffer, wrong.buffer};
  phal_buffer_t* result = nullptr;
  PHAL_API_CHECK(MustFail(
      phal_executable_execute(executable.executable, arguments, 2, &result, 1),
      "executing with f32[3,4] arguments for f32[4,3] parameters"));
  PHAL_API_CHECK(MustFail(
      phal_executable_execute(executable.executable, arguments, 1, &result, 1),
      "executing with one argument of two"));
  ExecutableHolder malformed;
  PHAL_API_CHECK(MustFail(
      [&] {
        phal_compile_options_t options{};
        options.struct_size = sizeof(options);
        options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
        const char text[] =
            "HloModule broken\nENTRY main {\n  ROOT r = f32[2] nonsense()\n}\n";
        return phal_executable_compile(context.device, text, sizeof(text) - 1,
                                       &options, &malformed.executable);
      }(),
      "compiling a program with an unknown op"));
  return "";
}

// Four threads share the device: each allocates, copies, runs streams and
// one shared executable, many times.
std::string CheckConcurrency(const ApiContext& context) {
  ExecutableHolder executable;
  PHAL_API_CHECK(Compile(context.device, kAddProgram, &executable));
  std::vector<std::string> errors(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 25 && errors[t].empty(); ++round) {
        errors[t] = RunAdd(context.device, executable.executable,
                           static_cast<float>(t * 100 + round));
        if (!errors[t].empty()) break;
        StreamHolder stream;
        errors[t] = Failed(phal_stream_create(context.device, &stream.stream),
                           "phal_stream_create");
        if (!errors[t].empty()) break;
        BufferHolder buffer;
        errors[t] =
            Allocate(context.device, PHAL_ELEMENT_TYPE_U8, {8192}, &buffer);
        if (!errors[t].empty()) break;
        const std::vector<uint8_t> data =
            Pattern(8192, static_cast<uint8_t>(t + round));
        std::vector<uint8_t> back(8192);
        errors[t] =
            Failed(phal_stream_copy_from_host(stream.stream, data.data(),
                                              buffer.buffer, 0, 8192),
                   "phal_stream_copy_from_host");
        if (errors[t].empty()) {
          errors[t] =
              Failed(phal_stream_copy_to_host(stream.stream, buffer.buffer, 0,
                                              back.data(), 8192),
                     "phal_stream_copy_to_host");
        }
        if (errors[t].empty()) {
          errors[t] = Failed(phal_stream_synchronize(stream.stream),
                             "phal_stream_synchronize");
        }
        if (errors[t].empty() && back != data) {
          errors[t] = "a thread read back another thread's bytes";
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) {
    if (!errors[t].empty())
      return "thread " + std::to_string(t) + ": " + errors[t];
  }
  return "";
}

constexpr int64_t kLeakRounds = 64;
constexpr int64_t kLeakBufferBytes = int64_t{4} << 20;

std::string DescribeGrowth(int64_t growth, const std::string& what) {
  return "resident memory grew by " + std::to_string(growth >> 20) +
         " MiB over " + what +
         ": memory the plugin was asked to free was not released";
}

// Allocating, filling and freeing a buffer many times must not grow the
// process: a plugin that leaks buffers shows up as growth of about
// kLeakRounds buffers; a healthy one stays within a few (allocator caches).
std::string CheckBufferLeaks(const ApiContext& context) {
  const int64_t before = ResidentBytes();
  const std::vector<uint8_t> data =
      Pattern(static_cast<std::size_t>(kLeakBufferBytes), 1);
  for (int64_t round = 0; round < kLeakRounds; ++round) {
    BufferHolder buffer;
    PHAL_API_CHECK(Allocate(context.device, PHAL_ELEMENT_TYPE_U8,
                            {kLeakBufferBytes}, &buffer));
    PHAL_API_CHECK(Failed(
        phal_buffer_copy_from_host(buffer.buffer, 0, data.data(), data.size()),
        "filling a buffer"));
  }
  const int64_t growth = ResidentBytes() - before;
  if (growth > kLeakRounds * kLeakBufferBytes / 4) {
    return DescribeGrowth(growth, std::to_string(kLeakRounds) +
                                      " allocate-fill-free rounds of 4 MiB");
  }
  return "";
}

// Clients destroyed with buffers, streams, events and executables still
// alive free them all (and the plugin releases them).
std::string CheckShutdownLeaks(const ApiContext& context) {
  const int64_t before = ResidentBytes();
  const std::vector<uint8_t> data =
      Pattern(static_cast<std::size_t>(kLeakBufferBytes), 2);
  for (int round = 0; round < 16; ++round) {
    // The core warns about what the client leaves behind; that is the point.
    phal_client_options_t options = context.client_options;
    options.log_callback = [](void*, phal_log_level_t, const char*) {};
    phal_client_t* client = nullptr;
    PHAL_API_CHECK(Failed(phal_client_create(&options, &client),
                          "creating a second client"));
    size_t count = 0;
    phal_device_t* device = nullptr;
    std::string error = Failed(phal_client_get_device_count(client, &count),
                               "phal_client_get_device_count");
    if (error.empty() && count == 0) error = "a second client sees no device";
    if (error.empty()) {
      error = Failed(phal_client_get_device(client, 0, &device),
                     "phal_client_get_device");
    }
    for (int i = 0; i < 4 && error.empty(); ++i) {
      BufferHolder buffer;
      error =
          Allocate(device, PHAL_ELEMENT_TYPE_U8, {kLeakBufferBytes}, &buffer);
      if (error.empty()) {
        error = Failed(phal_buffer_copy_from_host(buffer.buffer, 0, data.data(),
                                                  data.size()),
                       "filling a buffer");
      }
      buffer.buffer = nullptr;  // left for phal_client_destroy to free
    }
    phal_stream_t* stream = nullptr;
    phal_event_t* event = nullptr;
    if (error.empty())
      error = Failed(phal_stream_create(device, &stream), "stream");
    if (error.empty())
      error = Failed(phal_event_create(device, &event), "event");
    phal_client_destroy(client);
    if (!error.empty()) return error;
  }
  const int64_t growth = ResidentBytes() - before;
  if (growth > 16 * 4 * kLeakBufferBytes / 4) {
    return DescribeGrowth(
        growth, "16 clients destroyed with 4 live 4 MiB buffers each");
  }
  return "";
}

Case ApiCase(const std::string& id, ApiCheck check) {
  Case c;
  c.id = "api." + id;
  c.op = "api." + id.substr(0, id.find('.'));
  c.dtype = "-";
  c.tier = 1;
  c.kind = CaseKind::kApi;
  c.api_check = std::move(check);
  return c;
}

}  // namespace

std::vector<Case> ApiCases() {
  std::vector<Case> cases = {
      ApiCase("version", CheckVersion),
      ApiCase("properties", CheckProperties),
      ApiCase("buffer.zero_size", CheckZeroSize),
      ApiCase("buffer.large", CheckLargeBuffer),
      ApiCase("buffer.copy", CheckCopies),
      ApiCase("stream.ordering", CheckStreamOrdering),
      ApiCase("event.ordering", CheckEvents),
      ApiCase("errors.invalid_arguments", CheckInvalidArguments),
      ApiCase("executable.round_trip", CheckExecutable),
      ApiCase("concurrency.threads", CheckConcurrency),
      ApiCase("leaks.buffers", CheckBufferLeaks),
      ApiCase("leaks.shutdown", CheckShutdownLeaks),
  };
  for (Case& c : cases) c.exclusive = c.id.starts_with("api.leaks.");
  for (int type = 1; type < PHAL_ELEMENT_TYPE_COUNT; ++type) {
    const auto element_type = static_cast<phal_element_type_t>(type);
    Case c = ApiCase(std::string("buffer.round_trip.") +
                         phal_element_type_name(element_type),
                     [element_type](const ApiContext& context) {
                       return CheckRoundTrip(context, element_type);
                     });
    c.op = "api.buffer.round_trip";
    c.dtype = phal_element_type_name(element_type);
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace phal::conformance
