// The phal_executable_* C API on a device backed by the evaluator plugin
// table: compile, describe, execute (from 8 threads at once), refuse what
// the device cannot run, and report errors as statuses.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/abi/c_status.h"
#include "core/io/npy.h"
#include "core/runtime/client.h"
#include "core/runtime/executable.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/evaluator_device.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

constexpr char kProgram[] = R"(
HloModule affine
ENTRY main {
  x = f32[2,3] parameter(0)
  w = f32[3,2] parameter(1)
  d = f32[2,2] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  two = f32[] constant(2)
  twos = f32[2,2] broadcast(two), dimensions={}
  y = f32[2,2] multiply(d, twos)
  ROOT out = (f32[2,2], f32[2,3]) tuple(y, x)
}
)";

// A client with one device whose plugin is the evaluator table.
class EvaluatorClient : public ::testing::Test {
 protected:
  EvaluatorClient() : client_(Logger()) {
    device_.client = &client_;
    device_.plugin_name = "evaluator";
    device_.api = EvaluatorPluginApi();
    device_.handle = EvaluatorDevice();
    device_.properties.struct_size = sizeof(device_.properties);
    device_.properties.name = "evaluator";
    device_.properties.kernel_kinds = ~uint64_t{0};
    device_.properties.element_types = ~uint64_t{0};
    phal_memory_space_info_t space{};
    space.struct_size = sizeof(space);
    space.name = "host";
    device_.memory_spaces.push_back(space);
  }

  // The evaluator device is a static object that is never closed; only the
  // plugin streams the synchronous copies pooled are released.
  ~EvaluatorClient() override {
    device_.handle = nullptr;
    device_.Close();
  }

  phal_buffer_t* Upload(const std::vector<float>& values,
                        std::vector<int64_t> dims) {
    const phal_buffer_desc_t desc = BufferDesc(PHAL_ELEMENT_TYPE_F32, dims);
    phal_buffer_t* buffer = nullptr;
    EXPECT_EQ(phal_buffer_allocate(&device_, &desc, &buffer), nullptr);
    EXPECT_EQ(phal_buffer_copy_from_host(buffer, 0, values.data(),
                                         values.size() * sizeof(float)),
              nullptr);
    return buffer;
  }

  std::vector<float> Download(phal_buffer_t* buffer, std::size_t count) {
    std::vector<float> values(count);
    EXPECT_EQ(phal_buffer_copy_to_host(buffer, 0, values.data(),
                                       count * sizeof(float)),
              nullptr);
    return values;
  }

  phal_executable_t* Compile(const std::string& text) {
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        &device_, text.data(), text.size(), nullptr, &executable);
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
    phal_status_free(status);
    return executable;
  }

  // Expects compiling `text` to fail as UNIMPLEMENTED with `message`.
  void ExpectCompileUnimplemented(const std::string& text,
                                  const char* message) {
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        &device_, text.data(), text.size(), nullptr, &executable);
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(phal_status_get_code(status), PHAL_UNIMPLEMENTED);
    EXPECT_STREQ(phal_status_get_message(status), message);
    phal_status_free(status);
    EXPECT_EQ(executable, nullptr);
  }

  phal_client client_;
  phal_device device_;
};

TEST_F(EvaluatorClient, CompilesDescribesAndExecutes) {
  phal_executable_t* executable = Compile(kProgram);
  ASSERT_NE(executable, nullptr);
  size_t parameters = 0;
  size_t results = 0;
  ASSERT_EQ(phal_executable_get_parameter_count(executable, &parameters),
            nullptr);
  ASSERT_EQ(phal_executable_get_result_count(executable, &results), nullptr);
  EXPECT_EQ(parameters, 2u);
  EXPECT_EQ(results, 2u);
  phal_buffer_desc_t desc{};
  desc.struct_size = sizeof(desc);
  ASSERT_EQ(phal_executable_get_result_desc(executable, 0, &desc), nullptr);
  EXPECT_EQ(desc.element_type, PHAL_ELEMENT_TYPE_F32);
  ASSERT_EQ(desc.rank, 2u);
  EXPECT_EQ(desc.dims[0], 2);
  phal_buffer_t* x = Upload({1, 2, 3, 4, 5, 6}, {2, 3});
  phal_buffer_t* w = Upload({1, 0, 0, 1, 1, 1}, {3, 2});
  phal_buffer_t* arguments[] = {x, w};
  phal_buffer_t* outputs[2] = {nullptr, nullptr};
  phal_status_t* status =
      phal_executable_execute(executable, arguments, 2, outputs, 2);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  EXPECT_EQ(Download(outputs[0], 4), (std::vector<float>{8, 10, 20, 22}));
  EXPECT_EQ(Download(outputs[1], 6), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_NE(outputs[1], x);
  for (phal_buffer_t* buffer : {x, w, outputs[0], outputs[1]}) {
    phal_buffer_free(buffer);
  }
  phal_executable_free(executable);
}

TEST_F(EvaluatorClient, CompilesStableHloFromJax) {
  const std::string base = std::string(PHAL_TEST_SOURCE_DIR) +
                           "/core/frontend/testdata/stablehlo/jax_mlp";
  std::ifstream file(base + ".mlir");
  std::stringstream text;
  text << file.rdbuf();
  const std::string program = text.str();
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT;
  phal_executable_t* executable = nullptr;
  phal_status_t* status = phal_executable_compile(
      &device_, program.data(), program.size(), &options, &executable);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  std::vector<phal_buffer_t*> inputs;
  for (int i = 0; i < 4; ++i) {
    StatusOr<Literal> input =
        ReadNpy(base + ".input_" + std::to_string(i) + ".npy");
    ASSERT_TRUE(input.ok()) << input.status().ToString();
    std::vector<float> values(input->data_as<float>(),
                              input->data_as<float>() + input->ElementCount());
    inputs.push_back(Upload(values, input->shape().dims()));
  }
  phal_buffer_t* output = nullptr;
  status = phal_executable_execute(executable, inputs.data(), inputs.size(),
                                   &output, 1);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  StatusOr<Literal> expected = ReadNpy(base + ".expected_0.npy");
  ASSERT_TRUE(expected.ok());
  Literal actual(expected->shape());
  ASSERT_EQ(
      phal_buffer_copy_to_host(output, 0, actual.data(), actual.byte_size()),
      nullptr);
  EXPECT_TRUE(Matches(actual, *expected, 1e-5));
  phal_buffer_free(output);
  for (phal_buffer_t* input : inputs) phal_buffer_free(input);
  phal_executable_free(executable);
}

TEST_F(EvaluatorClient, EightThreadsExecuteOneExecutable) {
  phal_executable_t* executable = Compile(kProgram);
  ASSERT_NE(executable, nullptr);
  std::vector<std::thread> threads;
  std::vector<int> correct(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      const float v = static_cast<float>(t);
      phal_buffer_t* x = Upload({v, v, v, v, v, v}, {2, 3});
      phal_buffer_t* w = Upload({1, 1, 1, 1, 1, 1}, {3, 2});
      phal_buffer_t* arguments[] = {x, w};
      for (int round = 0; round < 20; ++round) {
        phal_buffer_t* outputs[2] = {nullptr, nullptr};
        phal_status_t* status =
            phal_executable_execute(executable, arguments, 2, outputs, 2);
        if (status != nullptr) {
          phal_status_free(status);
          return;
        }
        std::vector<float> y = Download(outputs[0], 4);
        correct[t] += y == std::vector<float>(4, 6 * v) ? 1 : 0;
        phal_buffer_free(outputs[0]);
        phal_buffer_free(outputs[1]);
      }
      phal_buffer_free(x);
      phal_buffer_free(w);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(correct[t], 20) << "thread " << t;
  phal_executable_free(executable);
}

TEST_F(EvaluatorClient, RefusesProgramsNamingMissingKindsAndTypes) {
  device_.properties.kernel_kinds = PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LOOP);
  device_.properties.element_types =
      PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_S64) |
      PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_PRED);
  ExpectCompileUnimplemented(kProgram,
                             "device 'evaluator' cannot run this program: "
                             "kernel kinds [dot]; element types [f32] are not "
                             "supported");
}

TEST_F(EvaluatorClient, RefusesErfToAPluginThatNegotiatedAbi11) {
  phal_plugin_api_t abi11 = *EvaluatorPluginApi();
  abi11.abi_version = PHAL_MAKE_VERSION(1, 1);
  device_.api = &abi11;
  const std::string text =
      "HloModule erf\nENTRY main {\n  x = f32[4] parameter(0)\n"
      "  ROOT e = f32[4] erf(x)\n}\n";
  ExpectCompileUnimplemented(text,
                             "device 'evaluator' cannot run this program: KIR "
                             "ops [erf] need ABI 1.2 and the plugin negotiated "
                             "ABI 1.1");
  device_.api = EvaluatorPluginApi();
  phal_executable_t* executable = Compile(text);
  EXPECT_NE(executable, nullptr) << "an ABI 1.2 plugin takes erf";
  phal_executable_free(executable);
}

// The kinds of the kernels RecordingKernelEmit was handed, in any order
// (kernels are emitted from several threads).
std::mutex emitted_mutex;
std::vector<phal_kernel_kind_t> emitted_kinds;

// The evaluator's kernel_emit, noting each kernel's kind; an FFT kernel,
// which the KIR interpreter does not run, is refused as UNIMPLEMENTED.
phal_status_t* RecordingKernelEmit(phal_plugin_device_t* device,
                                   const phal_kernel_desc_t* kernel,
                                   const phal_kernel_options_t* options,
                                   phal_plugin_kernel_t** out_kernel) {
  {
    std::lock_guard<std::mutex> lock(emitted_mutex);
    emitted_kinds.push_back(kernel->kind);
  }
  if (kernel->kind == PHAL_KERNEL_KIND_FFT) {
    return ToCStatus(Unimplemented("the evaluator runs no FFT kernel"));
  }
  return EvaluatorPluginApi()->kernel_emit(device, kernel, options, out_kernel);
}

// Compiles `text` on `device`; returns whether it was handed an FFT
// kernel (the evaluator then refuses it; anything else compiles).
bool CompileHandsAnFftKernel(phal_device* device, const std::string& text) {
  {
    std::lock_guard<std::mutex> lock(emitted_mutex);
    emitted_kinds.clear();
  }
  phal_executable_t* executable = nullptr;
  phal_status_t* status = phal_executable_compile(
      device, text.data(), text.size(), nullptr, &executable);
  phal_executable_free(executable);
  std::lock_guard<std::mutex> lock(emitted_mutex);
  const bool fft = std::count(emitted_kinds.begin(), emitted_kinds.end(),
                              PHAL_KERNEL_KIND_FFT) > 0;
  EXPECT_EQ(status != nullptr, fft) << phal_status_get_message(status);
  phal_status_free(status);
  return fft;
}

TEST_F(EvaluatorClient, AnFftIsAnFftKernelOnlyForDevicesOfAbi16ReportingIt) {
  const std::string text =
      "HloModule fft\nENTRY main {\n  x = c64[4,16] parameter(0)\n"
      "  ROOT f = c64[4,16] fft(x), fft_type=IFFT, fft_length={16}\n}\n";
  phal_plugin_api_t abi16 = *EvaluatorPluginApi();
  abi16.kernel_emit = RecordingKernelEmit;
  abi16.abi_version = PHAL_MAKE_VERSION(1, 6);
  phal_plugin_api_t abi15 = abi16;
  abi15.abi_version = PHAL_MAKE_VERSION(1, 5);
  // The same text in turn for each device: a program compiled for one
  // kind of device is never reused for another.
  device_.api = &abi15;
  EXPECT_FALSE(CompileHandsAnFftKernel(&device_, text))
      << "a plugin of ABI 1.5 gets the decomposition";
  device_.api = &abi16;
  EXPECT_TRUE(CompileHandsAnFftKernel(&device_, text));
  device_.properties.kernel_kinds &=
      ~PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT);
  EXPECT_FALSE(CompileHandsAnFftKernel(&device_, text))
      << "a device without the kind gets the decomposition";
  device_.properties.kernel_kinds = ~uint64_t{0};
  EXPECT_TRUE(CompileHandsAnFftKernel(&device_, text));
  device_.api = EvaluatorPluginApi();
}

TEST_F(EvaluatorClient, ReportsMalformedProgramsAndBadArguments) {
  phal_executable_t* executable = nullptr;
  const std::string bad =
      "HloModule m\nENTRY main {\n  x = f32[2 parameter(0)\n}\n";
  phal_compile_options_t options{};
  options.struct_size = sizeof(options);
  options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
  options.source_name = "model.hlo";
  phal_status_t* status = phal_executable_compile(
      &device_, bad.data(), bad.size(), &options, &executable);
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(phal_status_get_code(status), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(phal_status_get_message(status)).find("model.hlo:3:"),
            std::string::npos)
      << phal_status_get_message(status);
  phal_status_free(status);

  executable = Compile(kProgram);
  ASSERT_NE(executable, nullptr);
  phal_buffer_t* x = Upload({1, 2, 3, 4, 5, 6}, {3, 2});
  phal_buffer_t* arguments[] = {x, x};
  phal_buffer_t* outputs[2] = {nullptr, nullptr};
  status = phal_executable_execute(executable, arguments, 2, outputs, 2);
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(phal_status_get_code(status), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(phal_status_get_message(status)).find("arguments[0]"),
            std::string::npos);
  phal_status_free(status);
  status = phal_executable_execute(executable, arguments, 1, outputs, 2);
  EXPECT_EQ(phal_status_get_code(status), PHAL_INVALID_ARGUMENT);
  phal_status_free(status);
  phal_buffer_free(x);
  phal_executable_free(executable);
}

}  // namespace
}  // namespace phal::testing
