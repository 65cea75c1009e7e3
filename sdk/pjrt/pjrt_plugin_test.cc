// libpolyhal_pjrt through its PJRT_Api table alone, as a PJRT client uses
// it, without JAX: the cpu plugin's devices, buffers with byte strides,
// compiling and executing StableHLO, errors, the compile options it reads,
// and every unimplemented slot naming itself. Run under the sanitizers by
// scripts/test.sh --sanitize.
#include <dlfcn.h>

#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/pjrt/compile_options.h"
#include "xla/pjrt/c/pjrt_c_api.h"

namespace phal::pjrt {
namespace {

const PJRT_Api* Api() {
  static const PJRT_Api* api = [] {
    void* library = dlopen(PHAL_PJRT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) return static_cast<const PJRT_Api*>(nullptr);
    using GetApi = const PJRT_Api* (*)();
    auto get = reinterpret_cast<GetApi>(dlsym(library, "GetPjrtApi"));
    return get == nullptr ? nullptr : get();
  }();
  return api;
}

// The message of `error`, which it destroys; "" for success.
std::string Take(PJRT_Error* error) {
  if (error == nullptr) return "";
  PJRT_Error_Message_Args message{};
  message.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE;
  message.error = error;
  Api()->PJRT_Error_Message(&message);
  std::string text(message.message, message.message_size);
  PJRT_Error_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE;
  destroy.error = error;
  Api()->PJRT_Error_Destroy(&destroy);
  return text.empty() ? "(an error without a message)" : text;
}

class PjrtPlugin : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(Api(), nullptr) << dlerror();
    PJRT_NamedValue plugin{};
    plugin.struct_size = PJRT_NamedValue_STRUCT_SIZE;
    plugin.name = "plugin";
    plugin.name_size = 6;
    plugin.type = PJRT_NamedValue_kString;
    plugin.string_value = "cpu";
    plugin.value_size = 3;
    PJRT_Client_Create_Args create{};
    create.struct_size = PJRT_Client_Create_Args_STRUCT_SIZE;
    create.create_options = &plugin;
    create.num_options = 1;
    ASSERT_EQ(Take(Api()->PJRT_Client_Create(&create)), "");
    client_ = create.client;
    PJRT_Client_Devices_Args devices{};
    devices.struct_size = PJRT_Client_Devices_Args_STRUCT_SIZE;
    devices.client = client_;
    ASSERT_EQ(Take(Api()->PJRT_Client_Devices(&devices)), "");
    ASSERT_GE(devices.num_devices, 1u);
    device_ = devices.devices[0];
  }

  void TearDown() override {
    if (client_ == nullptr) return;
    PJRT_Client_Destroy_Args destroy{};
    destroy.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE;
    destroy.client = client_;
    EXPECT_EQ(Take(Api()->PJRT_Client_Destroy(&destroy)), "");
  }

  PJRT_Buffer* FromHost(const std::vector<float>& data,
                        const std::vector<int64_t>& dims,
                        const std::vector<int64_t>& byte_strides = {}) {
    PJRT_Client_BufferFromHostBuffer_Args args{};
    args.struct_size = PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE;
    args.client = client_;
    args.data = data.data();
    args.type = PJRT_Buffer_Type_F32;
    args.dims = dims.data();
    args.num_dims = dims.size();
    args.byte_strides = byte_strides.empty() ? nullptr : byte_strides.data();
    args.num_byte_strides = byte_strides.size();
    args.host_buffer_semantics =
        PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    args.device = device_;
    EXPECT_EQ(Take(Api()->PJRT_Client_BufferFromHostBuffer(&args)), "");
    DestroyEvent(args.done_with_host_buffer);
    return args.buffer;
  }

  std::vector<float> ToHost(PJRT_Buffer* buffer) {
    PJRT_Buffer_ToHostBuffer_Args args{};
    args.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
    args.src = buffer;
    EXPECT_EQ(Take(Api()->PJRT_Buffer_ToHostBuffer(&args)), "");
    std::vector<float> out(args.dst_size / sizeof(float));
    args.dst = out.data();
    EXPECT_EQ(Take(Api()->PJRT_Buffer_ToHostBuffer(&args)), "");
    DestroyEvent(args.event);
    return out;
  }

  static void DestroyBuffer(PJRT_Buffer* buffer) {
    PJRT_Buffer_Destroy_Args args{};
    args.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE;
    args.buffer = buffer;
    EXPECT_EQ(Take(Api()->PJRT_Buffer_Destroy(&args)), "");
  }

  static void DestroyEvent(PJRT_Event* event) {
    if (event == nullptr) return;
    PJRT_Event_Await_Args await{};
    await.struct_size = PJRT_Event_Await_Args_STRUCT_SIZE;
    await.event = event;
    EXPECT_EQ(Take(Api()->PJRT_Event_Await(&await)), "");
    PJRT_Event_Destroy_Args destroy{};
    destroy.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE;
    destroy.event = event;
    EXPECT_EQ(Take(Api()->PJRT_Event_Destroy(&destroy)), "");
  }

  // Compiles `program` (format "mlir") with `options` (serialized
  // xla.CompileOptionsProto bytes); the error's message on failure.
  std::string Compile(const std::string& program, const std::string& options,
                      PJRT_LoadedExecutable** out) {
    std::string code = program;
    PJRT_Program p{};
    p.struct_size = PJRT_Program_STRUCT_SIZE;
    p.code = code.data();
    p.code_size = code.size();
    p.format = "mlir";
    p.format_size = 4;
    PJRT_Client_Compile_Args args{};
    args.struct_size = PJRT_Client_Compile_Args_STRUCT_SIZE;
    args.client = client_;
    args.program = &p;
    args.compile_options = options.data();
    args.compile_options_size = options.size();
    std::string error = Take(Api()->PJRT_Client_Compile(&args));
    *out = args.executable;
    return error;
  }

  static void DestroyExecutable(PJRT_LoadedExecutable* executable) {
    PJRT_LoadedExecutable_Destroy_Args args{};
    args.struct_size = PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE;
    args.executable = executable;
    EXPECT_EQ(Take(Api()->PJRT_LoadedExecutable_Destroy(&args)), "");
  }

  PJRT_Client* client_ = nullptr;
  PJRT_Device* device_ = nullptr;
};

constexpr char kDouble[] = R"(
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %a, %a : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
)";

TEST_F(PjrtPlugin, TheClientHoldsThePluginsDevicesAndTheirMemories) {
  PJRT_Client_PlatformName_Args name{};
  name.struct_size = PJRT_Client_PlatformName_Args_STRUCT_SIZE;
  name.client = client_;
  ASSERT_EQ(Take(Api()->PJRT_Client_PlatformName(&name)), "");
  EXPECT_EQ(std::string(name.platform_name, name.platform_name_size),
            "polyhal");
  PJRT_Device_GetDescription_Args description{};
  description.struct_size = PJRT_Device_GetDescription_Args_STRUCT_SIZE;
  description.device = device_;
  ASSERT_EQ(Take(Api()->PJRT_Device_GetDescription(&description)), "");
  PJRT_DeviceDescription_Kind_Args kind{};
  kind.struct_size = PJRT_DeviceDescription_Kind_Args_STRUCT_SIZE;
  kind.device_description = description.device_description;
  ASSERT_EQ(Take(Api()->PJRT_DeviceDescription_Kind(&kind)), "");
  EXPECT_EQ(std::string(kind.device_kind, kind.device_kind_size),
            "polyhal:cpu");
  PJRT_Device_DefaultMemory_Args memory{};
  memory.struct_size = PJRT_Device_DefaultMemory_Args_STRUCT_SIZE;
  memory.device = device_;
  ASSERT_EQ(Take(Api()->PJRT_Device_DefaultMemory(&memory)), "");
  PJRT_Memory_Kind_Args memory_kind{};
  memory_kind.struct_size = PJRT_Memory_Kind_Args_STRUCT_SIZE;
  memory_kind.memory = memory.memory;
  ASSERT_EQ(Take(Api()->PJRT_Memory_Kind(&memory_kind)), "");
  EXPECT_EQ(std::string(memory_kind.kind, memory_kind.kind_size), "device");
}

TEST_F(PjrtPlugin, HostDataOfAnyStridesRoundTrips) {
  // A column-major 2x3 array: element (i, j) at i + 2j.
  const std::vector<float> column_major = {1, 4, 2, 5, 3, 6};
  PJRT_Buffer* buffer = FromHost(column_major, {2, 3}, {4, 8});
  EXPECT_EQ(ToHost(buffer), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  PJRT_Buffer_Dimensions_Args dims{};
  dims.struct_size = PJRT_Buffer_Dimensions_Args_STRUCT_SIZE;
  dims.buffer = buffer;
  ASSERT_EQ(Take(Api()->PJRT_Buffer_Dimensions(&dims)), "");
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.num_dims),
            (std::vector<int64_t>{2, 3}));
  PJRT_Device_MemoryStats_Args stats{};
  stats.struct_size = PJRT_Device_MemoryStats_Args_STRUCT_SIZE;
  stats.device = device_;
  ASSERT_EQ(Take(Api()->PJRT_Device_MemoryStats(&stats)), "");
  EXPECT_GE(stats.bytes_in_use, 24);
  PJRT_Buffer_Delete_Args remove{};
  remove.struct_size = PJRT_Buffer_Delete_Args_STRUCT_SIZE;
  remove.buffer = buffer;
  ASSERT_EQ(Take(Api()->PJRT_Buffer_Delete(&remove)), "");
  PJRT_Buffer_ToHostBuffer_Args read{};
  read.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE;
  read.src = buffer;
  float sink[6];
  read.dst = sink;
  read.dst_size = sizeof(sink);
  EXPECT_NE(Take(Api()->PJRT_Buffer_ToHostBuffer(&read)).find("deleted"),
            std::string::npos);
  DestroyBuffer(buffer);
}

TEST_F(PjrtPlugin, StableHloCompilesAndExecutes) {
  PJRT_LoadedExecutable* executable = nullptr;
  ASSERT_EQ(Compile(kDouble, "", &executable), "");
  PJRT_LoadedExecutable_GetExecutable_Args get{};
  get.struct_size = PJRT_LoadedExecutable_GetExecutable_Args_STRUCT_SIZE;
  get.loaded_executable = executable;
  ASSERT_EQ(Take(Api()->PJRT_LoadedExecutable_GetExecutable(&get)), "");
  PJRT_Executable_NumOutputs_Args outputs{};
  outputs.struct_size = PJRT_Executable_NumOutputs_Args_STRUCT_SIZE;
  outputs.executable = get.executable;
  ASSERT_EQ(Take(Api()->PJRT_Executable_NumOutputs(&outputs)), "");
  EXPECT_EQ(outputs.num_outputs, 1u);
  PJRT_Executable_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Executable_Destroy_Args_STRUCT_SIZE;
  destroy.executable = get.executable;
  ASSERT_EQ(Take(Api()->PJRT_Executable_Destroy(&destroy)), "");

  PJRT_Buffer* input = FromHost({1, 2, 3, 4, 5, 6}, {2, 3});
  PJRT_Buffer* const arguments[] = {input};
  PJRT_Buffer* const* argument_lists[] = {arguments};
  PJRT_Buffer* results[1] = {nullptr};
  PJRT_Buffer** result_lists[] = {results};
  PJRT_Event* done[1] = {nullptr};
  PJRT_ExecuteOptions options{};
  options.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE;
  PJRT_LoadedExecutable_Execute_Args execute{};
  execute.struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE;
  execute.executable = executable;
  execute.options = &options;
  execute.argument_lists = argument_lists;
  execute.num_devices = 1;
  execute.num_args = 1;
  execute.output_lists = result_lists;
  execute.device_complete_events = done;
  ASSERT_EQ(Take(Api()->PJRT_LoadedExecutable_Execute(&execute)), "");
  DestroyEvent(done[0]);
  EXPECT_EQ(ToHost(results[0]), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  DestroyBuffer(results[0]);
  DestroyBuffer(input);
  DestroyExecutable(executable);
}

TEST_F(PjrtPlugin, BuffersAndExecutablesOutliveTheirClient) {
  PJRT_LoadedExecutable* executable = nullptr;
  ASSERT_EQ(Compile(kDouble, "", &executable), "");
  PJRT_Buffer* buffer = FromHost({1, 2, 3, 4, 5, 6}, {2, 3});
  PJRT_Client_Destroy_Args destroy{};
  destroy.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE;
  destroy.client = client_;
  ASSERT_EQ(Take(Api()->PJRT_Client_Destroy(&destroy)), "");
  client_ = nullptr;
  EXPECT_EQ(ToHost(buffer), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  DestroyBuffer(buffer);
  DestroyExecutable(executable);
}

TEST_F(PjrtPlugin, AProgramPolyhalRefusesIsAnErrorWithItsMessage) {
  PJRT_LoadedExecutable* executable = nullptr;
  const std::string error = Compile(
      "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %0 = stablehlo.no_such_op %a : tensor<2xf32>\n"
      "  func.return %0 : tensor<2xf32>\n}\n",
      "", &executable);
  EXPECT_NE(error.find("error:"), std::string::npos) << error;
  EXPECT_NE(error.find("no_such_op"), std::string::npos) << error;
  EXPECT_EQ(executable, nullptr);
  EXPECT_NE(Compile(kDouble, std::string("\x1a\xff", 2), &executable)
                .find("not a well-formed xla.CompileOptionsProto"),
            std::string::npos);
}

TEST_F(PjrtPlugin, ArgsSmallerThanTheFieldsReadAreRefused) {
  PJRT_Client_PlatformName_Args name{};
  name.struct_size = 8;
  name.client = client_;
  EXPECT_NE(Take(Api()->PJRT_Client_PlatformName(&name)).find("struct_size"),
            std::string::npos);
}

TEST(PjrtPluginTable, UnimplementedEntryPointsNameThemselves) {
  ASSERT_NE(Api(), nullptr);
  int count = 0;
#define PHAL_PJRT_IMPLEMENTED(name) \
  EXPECT_NE(Api()->PJRT_##name, nullptr) << #name;
#define PHAL_PJRT_UNIMPLEMENTED(name)          \
  ++count;                                     \
  EXPECT_EQ(Take(Api()->PJRT_##name(nullptr)), \
            "PJRT_" #name " is not implemented by Polyhal's PJRT plugin");
#include "sdk/pjrt/pjrt_entry_points.def"
#undef PHAL_PJRT_IMPLEMENTED
#undef PHAL_PJRT_UNIMPLEMENTED
  EXPECT_GT(count, 0);
  EXPECT_EQ(Api()->pjrt_api_version.major_version, PJRT_API_MAJOR);
  EXPECT_EQ(Api()->pjrt_api_version.minor_version, PJRT_API_MINOR);
}

// The replica and partition counts and the device assignment, as jaxlib
// serializes them (an xla.CompileOptionsProto whose field 3 is the
// ExecutableBuildOptionsProto).
TEST(CompileOptions, ReplicasPartitionsAndAssignmentAreRead) {
  // device_assignment: replica_count 2, computation_count 1,
  // computation_devices { replica_device_ids: [3, 1] } (packed).
  const std::string assignment("\x08\x02\x10\x01\x1a\x04\x0a\x02\x03\x01", 10);
  std::string build("\x20\x02\x28\x01\x4a", 5);
  build += static_cast<char>(assignment.size());
  build += assignment;
  std::string options("\x1a", 1);
  options += static_cast<char>(build.size());
  options += build;
  CompileOptions parsed;
  std::string error;
  ASSERT_TRUE(
      ParseCompileOptions(options.data(), options.size(), &parsed, &error))
      << error;
  EXPECT_EQ(parsed.num_replicas, 2);
  EXPECT_EQ(parsed.num_partitions, 1);
  EXPECT_EQ(parsed.device_ids, (std::vector<std::vector<int64_t>>{{3}, {1}}));
  EXPECT_EQ(SerializeDeviceAssignment(2, 1, {3, 1}), assignment);
  EXPECT_FALSE(ParseCompileOptions("\x1a\x05\x20", 3, &parsed, &error));
  EXPECT_NE(error.find("byte 0"), std::string::npos) << error;
}

}  // namespace
}  // namespace phal::pjrt
