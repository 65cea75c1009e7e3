// Ahead-of-time compilation through the application C API (ABI 1.4):
// compile-only devices of the cpu and template plugins, serialized
// executables that run as the directly compiled ones do, and the refusal
// of bytes that are corrupt, truncated, of another format version or of
// another plugin.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/testing/temp_dir.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::HasSubstr;

const std::string kModels =
    std::string(PHAL_TEST_SOURCE_DIR) + "/samples/models/jax/";

// The code of `status` and its message; frees it.
struct Taken {
  phal_status_code_t code;
  std::string message;
};
Taken Take(phal_status_t* status) {
  Taken taken{phal_status_get_code(status), phal_status_get_message(status)};
  phal_status_free(status);
  return taken;
}

std::string ReadFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

struct ExecutableDeleter {
  void operator()(phal_executable_t* executable) const {
    phal_executable_free(executable);
  }
};
using ExecutablePtr = std::unique_ptr<phal_executable_t, ExecutableDeleter>;

class SerializedExecutableTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_filter = "cpu,template";
    Result<Client> client = Client::Create(&options);
    ASSERT_TRUE(client.ok()) << client.error().ToString();
    client_ = std::move(client.value());
    for (const Device& device : client_.Devices()) {
      size_t index = 0;
      ASSERT_EQ(phal_device_get_plugin_index(device.get(), &index), nullptr);
      if (client_.Plugins()[index].name == std::string(GetParam())) {
        device_ = device.get();
      }
    }
    ASSERT_NE(device_, nullptr) << "no device of plugin " << GetParam();
    ASSERT_EQ(phal_client_open_target_device(client_.get(), GetParam(), nullptr,
                                             &target_),
              nullptr);
  }

  ExecutablePtr Compile(phal_device_t* device, const std::string& module,
                        const char* dump_directory = nullptr) {
    const std::string text = ReadFile(kModels + module);
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
    options.dump_directory = dump_directory;
    phal_executable_t* executable = nullptr;
    Taken status = Take(phal_executable_compile(
        device, text.data(), text.size(), &options, &executable));
    EXPECT_EQ(status.code, PHAL_OK) << status.message;
    return ExecutablePtr(executable);
  }

  std::string Serialize(const phal_executable_t* executable) {
    void* data = nullptr;
    size_t size = 0;
    Taken status = Take(phal_executable_serialize(executable, &data, &size));
    EXPECT_EQ(status.code, PHAL_OK) << status.message;
    std::string bytes(static_cast<const char*>(data), size);
    phal_free(data);
    return bytes;
  }

  Taken Deserialize(phal_device_t* device, const std::string& bytes,
                    ExecutablePtr* out = nullptr) {
    phal_executable_t* executable = nullptr;
    Taken status = Take(phal_executable_deserialize(device, bytes.data(),
                                                    bytes.size(), &executable));
    if (out != nullptr)
      out->reset(executable);
    else
      phal_executable_free(executable);
    return status;
  }

  // Runs `executable` on deterministic inputs and returns every result's
  // bytes.
  std::vector<std::string> Run(phal_executable_t* executable) {
    size_t parameters = 0, results = 0;
    EXPECT_EQ(phal_executable_get_parameter_count(executable, &parameters),
              nullptr);
    EXPECT_EQ(phal_executable_get_result_count(executable, &results), nullptr);
    std::vector<Buffer> inputs;
    std::vector<phal_buffer_t*> handles;
    for (size_t i = 0; i < parameters; ++i) {
      phal_buffer_desc_t desc{};
      desc.struct_size = sizeof(desc);
      EXPECT_EQ(phal_executable_get_parameter_desc(executable, i, &desc),
                nullptr);
      Device device(device_);
      Result<Buffer> buffer = Buffer::Allocate(
          device, desc.element_type,
          std::vector<int64_t>(desc.dims, desc.dims + desc.rank));
      EXPECT_TRUE(buffer.ok()) << buffer.error().ToString();
      uint64_t size = 0;
      EXPECT_EQ(phal_buffer_get_byte_size(buffer->get(), &size), nullptr);
      // Small integers in every byte keep every element type finite.
      std::vector<uint8_t> bytes(size);
      for (uint64_t b = 0; b < size; ++b) bytes[b] = (b * 7 + i) % 3;
      EXPECT_EQ(buffer->CopyFromHost(bytes.data(), bytes.size()).code(),
                PHAL_OK);
      handles.push_back(buffer->get());
      inputs.push_back(std::move(buffer.value()));
    }
    std::vector<phal_buffer_t*> outputs(results, nullptr);
    Taken status =
        Take(phal_executable_execute(executable, handles.data(), handles.size(),
                                     outputs.data(), outputs.size()));
    EXPECT_EQ(status.code, PHAL_OK) << status.message;
    std::vector<std::string> values;
    for (phal_buffer_t* output : outputs) {
      uint64_t size = 0;
      EXPECT_EQ(phal_buffer_get_byte_size(output, &size), nullptr);
      std::string bytes(size, '\0');
      EXPECT_EQ(phal_buffer_copy_to_host(output, 0, bytes.data(), size),
                nullptr);
      values.push_back(std::move(bytes));
      phal_buffer_free(output);
    }
    return values;
  }

  Client client_;
  phal_device_t* device_ = nullptr;
  phal_device_t* target_ = nullptr;
};

TEST_P(SerializedExecutableTest, TargetDeviceIsCompileOnlyAndOpenedOnce) {
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  ASSERT_EQ(phal_device_get_properties(target_, &properties), nullptr);
  EXPECT_NE(properties.flags & PHAL_DEVICE_FLAG_COMPILE_ONLY, 0u);
  phal_device_t* again = nullptr;
  ASSERT_EQ(
      phal_client_open_target_device(client_.get(), GetParam(), "host", &again),
      nullptr);
  EXPECT_EQ(again, target_) << "'host' is the default target, opened once";
  size_t devices = 0;
  ASSERT_EQ(phal_client_get_device_count(client_.get(), &devices), nullptr);
  for (size_t i = 0; i < devices; ++i) {
    phal_device_t* device = nullptr;
    ASSERT_EQ(phal_client_get_device(client_.get(), i, &device), nullptr);
    EXPECT_NE(device, target_) << "compile-only devices are not listed";
  }
}

TEST_P(SerializedExecutableTest, TargetDeviceRefusesMemoryStreamsAndEvents) {
  const std::vector<int64_t> dims = {4};
  const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
  phal_buffer_t* buffer = nullptr;
  Taken allocated = Take(phal_buffer_allocate(target_, &desc, &buffer));
  EXPECT_EQ(allocated.code, PHAL_FAILED_PRECONDITION);
  EXPECT_THAT(allocated.message, HasSubstr("compile-only"));
  phal_stream_t* stream = nullptr;
  EXPECT_EQ(Take(phal_stream_create(target_, &stream)).code,
            PHAL_FAILED_PRECONDITION);
  phal_event_t* event = nullptr;
  EXPECT_EQ(Take(phal_event_create(target_, &event)).code,
            PHAL_FAILED_PRECONDITION);
  ExecutablePtr executable = Compile(target_, "mlp.hlo");
  ASSERT_NE(executable, nullptr);
  Taken executed =
      Take(phal_executable_execute(executable.get(), nullptr, 0, nullptr, 0));
  EXPECT_EQ(executed.code, PHAL_FAILED_PRECONDITION) << executed.message;
}

TEST_P(SerializedExecutableTest, UnknownTargetIsNotFoundAndListsTheTargets) {
  phal_device_t* device = nullptr;
  Taken opened = Take(phal_client_open_target_device(client_.get(), GetParam(),
                                                     "sm_90", &device));
  EXPECT_EQ(opened.code, PHAL_NOT_FOUND);
  EXPECT_THAT(opened.message, HasSubstr("host"));
  const char* const* names = nullptr;
  size_t count = 0;
  for (size_t i = 0; i < client_.Plugins().size(); ++i) {
    if (client_.Plugins()[i].name != std::string(GetParam())) continue;
    ASSERT_EQ(phal_client_get_plugin_targets(client_.get(), i, &names, &count),
              nullptr);
  }
  ASSERT_EQ(count, 1u);
  EXPECT_STREQ(names[0], "host");
}

TEST_P(SerializedExecutableTest, AheadOfTimeExecutableRunsAsTheDirectOneDoes) {
  for (const char* module :
       {"mlp.hlo", "while_loop.hlo", "sort_gather.hlo", "integer_ops.hlo"}) {
    SCOPED_TRACE(module);
    ExecutablePtr direct = Compile(device_, module);
    ExecutablePtr ahead = Compile(target_, module);
    ASSERT_NE(direct, nullptr);
    ASSERT_NE(ahead, nullptr);
    ExecutablePtr loaded;
    Taken status = Deserialize(device_, Serialize(ahead.get()), &loaded);
    ASSERT_EQ(status.code, PHAL_OK) << status.message;
    EXPECT_EQ(Run(loaded.get()), Run(direct.get()));
  }
}

TEST_P(SerializedExecutableTest, ExecutableOfADeviceRoundTripsToo) {
  ExecutablePtr direct = Compile(device_, "mlp.hlo");
  ASSERT_NE(direct, nullptr);
  const std::string bytes = Serialize(direct.get());
  ASSERT_EQ(bytes.compare(0, 8, PHAL_SERIALIZED_EXECUTABLE_MAGIC), 0);
  ExecutablePtr loaded;
  ASSERT_EQ(Deserialize(device_, bytes, &loaded).code, PHAL_OK);
  EXPECT_EQ(Run(loaded.get()), Run(direct.get()));
}

TEST_P(SerializedExecutableTest, TruncatedBytesAreRefusedAtEveryLength) {
  ExecutablePtr ahead = Compile(target_, "while_loop.hlo");
  ASSERT_NE(ahead, nullptr);
  const std::string bytes = Serialize(ahead.get());
  for (size_t length = 0; length < bytes.size(); length += 1 + length / 8) {
    Taken status = Deserialize(device_, bytes.substr(0, length));
    EXPECT_TRUE(status.code == PHAL_INVALID_ARGUMENT ||
                status.code == PHAL_DATA_LOSS)
        << "length " << length << ": " << status.message;
  }
}

TEST_P(SerializedExecutableTest, CorruptBytesAreDataLoss) {
  ExecutablePtr ahead = Compile(target_, "mlp.hlo");
  ASSERT_NE(ahead, nullptr);
  std::string bytes = Serialize(ahead.get());
  bytes[bytes.size() / 2] ^= 0x5A;
  Taken status = Deserialize(device_, bytes);
  EXPECT_EQ(status.code, PHAL_DATA_LOSS);
  EXPECT_THAT(status.message, HasSubstr("checksum"));
}

TEST_P(SerializedExecutableTest, TextAndOtherFormatVersionsAreRefused) {
  EXPECT_EQ(Deserialize(device_, "HloModule m\n").code, PHAL_INVALID_ARGUMENT);
  ExecutablePtr ahead = Compile(target_, "mlp.hlo");
  ASSERT_NE(ahead, nullptr);
  std::string bytes = Serialize(ahead.get());
  bytes[8] = 99;  // the format version follows the 8-byte magic
  Taken status = Deserialize(device_, bytes);
  EXPECT_EQ(status.code, PHAL_FAILED_PRECONDITION);
  EXPECT_THAT(status.message, HasSubstr("format version 99"));
}

TEST_P(SerializedExecutableTest, ExecutableOfAnotherPluginIsRefused) {
  const char* other = std::string(GetParam()) == "cpu" ? "template" : "cpu";
  phal_device_t* other_target = nullptr;
  ASSERT_EQ(phal_client_open_target_device(client_.get(), other, nullptr,
                                           &other_target),
            nullptr);
  ExecutablePtr foreign = Compile(other_target, "mlp.hlo");
  ASSERT_NE(foreign, nullptr);
  Taken status = Deserialize(device_, Serialize(foreign.get()));
  EXPECT_EQ(status.code, PHAL_FAILED_PRECONDITION);
  EXPECT_THAT(status.message,
              HasSubstr("compiled by plugin '" + std::string(other) + "'"));
}

TEST_P(SerializedExecutableTest, DumpDirectoryGetsOneFilePerKernel) {
  testing::TempDir dump;
  ExecutablePtr ahead = Compile(target_, "mlp.hlo", dump.path().c_str());
  ASSERT_NE(ahead, nullptr);
  const std::string extension =
      std::string(GetParam()) == "cpu" ? ".ll" : ".kir";
  std::set<std::string> kernels;
  for (const auto& entry : std::filesystem::directory_iterator(dump.path())) {
    EXPECT_EQ(entry.path().extension(), extension) << entry.path();
    EXPECT_GT(entry.file_size(), 0u) << entry.path();
    kernels.insert(entry.path().stem().string());
  }
  EXPECT_FALSE(kernels.empty());
  // The serialized form names the same kernels, one each.
  const std::string bytes = Serialize(ahead.get());
  for (const std::string& kernel : kernels) {
    EXPECT_NE(bytes.find(kernel), std::string::npos) << kernel;
  }
}

INSTANTIATE_TEST_SUITE_P(Plugins, SerializedExecutableTest,
                         ::testing::Values("cpu", "template"),
                         [](const auto& info) {
                           return std::string(info.param);
                         });

}  // namespace
}  // namespace phal
