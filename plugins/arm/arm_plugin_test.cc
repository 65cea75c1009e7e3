// The arm plugin through its entry point and function table, as the core's
// loader drives it, on the first Vulkan device (lavapipe in CI): properties,
// copies, streams and events, kernels of every kind, graceful absence of the
// Vulkan loader; and every kind of kernel the GLSL dialect prints through
// shaderc and spirv-val, which needs no device. Tests that need a device
// are skipped where there is none.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "sdk/base/element_types.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/emitters/source/source_emitter.h"
#include "sdk/emitters/source/spirv_compiler.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/device_contract.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_environment.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::arm {
namespace {

using namespace ::phal::plugin_testing;  // NOLINT(build/namespaces)

const PluginEnvironment* const kArmPlugin =
    AddPluginEnvironment(PHAL_ARM_PLUGIN_PATH);

using ArmDevice = PluginTest;

// Buffers, copies, streams, events and kernels as every plugin keeps them.
PHAL_PLUGIN_DEVICE_CONTRACT_TESTS(ArmDeviceContract);

TEST_F(ArmDevice, DescribesItsVulkanDevice) {
  EXPECT_GT(std::strlen(properties_.name), 0u);
  EXPECT_GT(std::strlen(properties_.vendor), 0u);
  EXPECT_GT(std::strlen(properties_.driver_version), 0u);
  EXPECT_NE(std::strstr(properties_.features, "vulkan 1."), nullptr)
      << properties_.features;
  EXPECT_GT(properties_.memory_bytes, 0u);
  EXPECT_EQ(properties_.flags & PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 0u)
      << "Vulkan buffers are never host addresses";
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    EXPECT_NE(properties_.kernel_kinds & PHAL_KERNEL_KIND_BIT(kind), 0u)
        << "kernel kind " << kind;
  }
  const bool fp64 =
      std::strstr(properties_.features, "shaderFloat64") != nullptr;
  EXPECT_EQ((properties_.element_types &
             PHAL_ELEMENT_TYPE_BIT(PHAL_ELEMENT_TYPE_F64)) != 0,
            fp64)
      << "f64 exactly where shaderFloat64 is";
}

// Run in a child process of its own (the loader is opened once per
// process): exits 0 when the plugin answered with no device and said why.
void ExitWithAbsenceVerdict() {
  setenv("PHAL_ARM_VULKAN_LIBRARY", "libvulkan-absent.so.1", 1);
  size_t devices = 1;
  const char* reason = nullptr;
  const bool counted = IsOk(kArmPlugin->api().device_count(&devices, &reason));
  const bool says_why =
      reason != nullptr && std::strstr(reason, "libvulkan-absent.so.1");
  std::fprintf(stderr, "devices %zu reason: %s\n", devices,
               reason != nullptr ? reason : "(null)");
  std::filesystem::remove_all(kArmPlugin->cache_directory());
  std::exit(counted && devices == 0 && says_why ? 0 : 1);
}

TEST(ArmPluginAbsence, WithoutTheVulkanLoaderItLoadsWithNoDeviceAndSaysWhy) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExitWithAbsenceVerdict(), ::testing::ExitedWithCode(0),
              "cannot be opened");
}

// spirv-val's verdict on `words`, or "" when it accepts them; nullopt-like
// "skip" when spirv-val is not installed.
std::string SpirvValVerdict(const std::vector<uint32_t>& words,
                            const std::string& name) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("phal_arm_" + std::to_string(getpid()) + "_" + name + ".spv");
  {
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(words.data()),
               static_cast<std::streamsize>(words.size() * sizeof(uint32_t)));
  }
  const std::string command =
      "spirv-val --target-env vulkan1.2 " + path.string() + " 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "cannot run spirv-val";
  char line[512];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) output += line;
  const int status = pclose(pipe);
  std::filesystem::remove(path);
  return status == 0 ? "" : output.empty() ? "spirv-val failed" : output;
}

bool HaveSpirvVal() {
  return std::system("spirv-val --version > /dev/null 2>&1") == 0;
}

// A device like lavapipe: f64, large work-groups.
source_emitter::DeviceFeatures LavapipeLike() {
  source_emitter::DeviceFeatures features;
  features.fp64 = true;
  features.max_work_group_size = 1024;
  return features;
}

// Calls `check` with every unary and binary op on every element type, one
// loop kernel each.
template <typename Check>
void ForEachElementwiseKernel(const Check& check) {
  const phal_element_type_t types[] = {
      PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_S8,   PHAL_ELEMENT_TYPE_S16,
      PHAL_ELEMENT_TYPE_S32,  PHAL_ELEMENT_TYPE_S64,  PHAL_ELEMENT_TYPE_U8,
      PHAL_ELEMENT_TYPE_U16,  PHAL_ELEMENT_TYPE_U32,  PHAL_ELEMENT_TYPE_U64,
      PHAL_ELEMENT_TYPE_F16,  PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F32,
      PHAL_ELEMENT_TYPE_F64,  PHAL_ELEMENT_TYPE_C64,  PHAL_ELEMENT_TYPE_C128};
  const phal_kir_op_t unary[] = {PHAL_KIR_OP_ABS,
                                 PHAL_KIR_OP_NEGATE,
                                 PHAL_KIR_OP_SIGN,
                                 PHAL_KIR_OP_FLOOR,
                                 PHAL_KIR_OP_CEIL,
                                 PHAL_KIR_OP_ROUND_NEAREST_AFZ,
                                 PHAL_KIR_OP_ROUND_NEAREST_EVEN,
                                 PHAL_KIR_OP_EXP,
                                 PHAL_KIR_OP_EXPM1,
                                 PHAL_KIR_OP_LOG,
                                 PHAL_KIR_OP_LOG1P,
                                 PHAL_KIR_OP_LOGISTIC,
                                 PHAL_KIR_OP_SQRT,
                                 PHAL_KIR_OP_RSQRT,
                                 PHAL_KIR_OP_CBRT,
                                 PHAL_KIR_OP_TANH,
                                 PHAL_KIR_OP_SIN,
                                 PHAL_KIR_OP_COS,
                                 PHAL_KIR_OP_TAN,
                                 PHAL_KIR_OP_ERF,
                                 PHAL_KIR_OP_NOT,
                                 PHAL_KIR_OP_POPCNT,
                                 PHAL_KIR_OP_CLZ};
  const phal_kir_op_t binary[] = {PHAL_KIR_OP_ADD,
                                  PHAL_KIR_OP_SUBTRACT,
                                  PHAL_KIR_OP_MULTIPLY,
                                  PHAL_KIR_OP_DIVIDE,
                                  PHAL_KIR_OP_REMAINDER,
                                  PHAL_KIR_OP_MAXIMUM,
                                  PHAL_KIR_OP_MINIMUM,
                                  PHAL_KIR_OP_POWER,
                                  PHAL_KIR_OP_ATAN2,
                                  PHAL_KIR_OP_AND,
                                  PHAL_KIR_OP_OR,
                                  PHAL_KIR_OP_XOR,
                                  PHAL_KIR_OP_SHIFT_LEFT,
                                  PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC,
                                  PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL};
  for (phal_element_type_t type : types) {
    const auto add = [&](phal_kir_op_t op, int arity) {
      // abs of a complex value is real: a kernel of another shape.
      if (op == PHAL_KIR_OP_ABS && IsComplex(type)) return;
      KirKernel kernel("test_kernel", PHAL_KERNEL_KIND_LOOP);
      std::vector<uint32_t> inputs;
      for (int k = 0; k < arity; ++k)
        inputs.push_back(kernel.AddBuffer(type, {7}));
      const uint32_t out = kernel.AddBuffer(type, {7}, PHAL_KIR_ACCESS_WRITE);
      kernel.dims = {7};
      const uint32_t i = kernel.body.Index(0);
      std::vector<uint32_t> operands;
      for (uint32_t input : inputs) {
        operands.push_back(kernel.body.Read(type, input, {i}));
      }
      kernel.body.AddResult(kernel.body.Add(op, type, operands));
      kernel.outputs = {out};
      check(std::string(KirOpName(op)) + "_" + ElementTypeName(type),
            kernel.Desc());
    };
    for (phal_kir_op_t op : unary) add(op, 1);
    for (phal_kir_op_t op : binary) add(op, 2);
  }
}

TEST(ArmShaders, EveryPrintedElementwiseShaderPassesSpirvVal) {
  if (!HaveSpirvVal()) GTEST_SKIP() << "spirv-val is not installed";
  int compiled = 0;
  ForEachElementwiseKernel([&](const std::string& name,
                               const phal_kernel_desc_t& kernel) {
    StatusOr<source_emitter::SourceKernel> source = source_emitter::EmitSource(
        kernel, source_emitter::GlslDialect(), LavapipeLike());
    if (!source.ok()) {
      // Ops the element type does not have (not on f32, popcnt on f32, ...).
      EXPECT_EQ(source.status().code(), PHAL_UNIMPLEMENTED)
          << name << ": " << source.status().ToString();
      return;
    }
    StatusOr<std::vector<uint32_t>> words =
        source_emitter::CompileGlslToSpirv(source->source, name + ".comp");
    EXPECT_TRUE(words.ok()) << name << ": " << words.status().ToString() << "\n"
                            << source->source;
    if (!words.ok()) return;
    EXPECT_EQ(SpirvValVerdict(*words, name), "") << name;
    ++compiled;
  });
  EXPECT_GT(compiled, 200);
}

// x * 0.0 with the constant in the kernel, on `type`.
KirKernel MultiplyByZeroKernel(phal_element_type_t type) {
  return UnaryLoopKernel(type, {7}, [&](KirBody& body, uint32_t x) {
    return body.Add(PHAL_KIR_OP_MULTIPLY, type, {x, body.Constant(type, 0)});
  });
}

// The zero reaches the shader through the push constant: no literal a
// driver could fold x * 0 -> 0 on (lavapipe does, whatever the SPIR-V asks).
TEST(ArmShaders, FloatConstantsAreOpaqueToTheDriver) {
  for (phal_element_type_t type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_F16}) {
    KirKernel kernel = MultiplyByZeroKernel(type);
    StatusOr<source_emitter::SourceKernel> source = source_emitter::EmitSource(
        kernel.Desc(), source_emitter::GlslDialect(), LavapipeLike());
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    EXPECT_NE(source->source.find("layout(push_constant) uniform phal_opaque "
                                  "{ uint phal_opaque_zero; };"),
              std::string::npos)
        << source->source;
    EXPECT_NE(source->source.find(type == PHAL_ELEMENT_TYPE_F64
                                      ? "0x0ul ^ uint64_t(phal_opaque_zero)"
                                      : "0x0u ^ phal_opaque_zero"),
              std::string::npos)
        << source->source;
  }
}

// Roundings set the result's sign bit from the input with integer
// operations: lavapipe's f64 floor, trunc and roundEven without AVX-512
// give +0 for -0.4.
TEST(ArmShaders, RoundingsTakeTheSignBitOfTheirInput) {
  for (phal_kir_op_t op :
       {PHAL_KIR_OP_FLOOR, PHAL_KIR_OP_CEIL, PHAL_KIR_OP_ROUND_NEAREST_AFZ,
        PHAL_KIR_OP_ROUND_NEAREST_EVEN}) {
    KirKernel kernel = UnaryLoopKernel(
        PHAL_ELEMENT_TYPE_F64, {7}, [&](KirBody& body, uint32_t x) {
          return body.Add(op, PHAL_ELEMENT_TYPE_F64, {x});
        });
    StatusOr<source_emitter::SourceKernel> source = source_emitter::EmitSource(
        kernel.Desc(), source_emitter::GlslDialect(), LavapipeLike());
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    EXPECT_NE(source->source.find("(doubleBitsToUint64(x) & "
                                  "0x8000000000000000ul)"),
              std::string::npos)
        << KirOpName(op) << ":\n"
        << source->source;
  }
}

// The words of every OpExecutionMode instruction: {mode, width}.
std::vector<std::pair<uint32_t, uint32_t>> ExecutionModes(
    const std::vector<uint32_t>& words) {
  std::vector<std::pair<uint32_t, uint32_t>> modes;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 16 && (words[at] >> 16) == 4) {
      modes.emplace_back(words[at + 2], words[at + 3]);
    }
    if ((words[at] >> 16) == 0) break;
  }
  return modes;
}

TEST(ArmShaders, FloatControlsBecomeExecutionModesForEachWidthUsed) {
  source_emitter::FloatControls controls;
  controls.signed_zero_inf_nan_preserve_f32 = true;
  controls.signed_zero_inf_nan_preserve_f64 = true;
  controls.denorm_preserve_f32 = true;
  const auto modes_of = [&](phal_element_type_t type) {
    KirKernel kernel = MultiplyByZeroKernel(type);
    StatusOr<source_emitter::SourceKernel> source = source_emitter::EmitSource(
        kernel.Desc(), source_emitter::GlslDialect(), LavapipeLike());
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    StatusOr<std::vector<uint32_t>> words = source_emitter::CompileGlslToSpirv(
        source->source, "multiply.comp", controls);
    EXPECT_TRUE(words.ok()) << words.status().ToString();
    if (HaveSpirvVal()) {
      EXPECT_EQ(SpirvValVerdict(*words, "multiply"), "");
    }
    return ExecutionModes(*words);
  };
  using Modes = std::vector<std::pair<uint32_t, uint32_t>>;
  const uint32_t kSignedZeroInfNanPreserve = 4461, kDenormPreserve = 4459;
  // The f32 modes go into every shader, the f64 ones where it uses f64.
  EXPECT_EQ(modes_of(PHAL_ELEMENT_TYPE_F64),
            (Modes{{kSignedZeroInfNanPreserve, 32},
                   {kSignedZeroInfNanPreserve, 64},
                   {kDenormPreserve, 32}}));
  EXPECT_EQ(modes_of(PHAL_ELEMENT_TYPE_F32),
            (Modes{{kSignedZeroInfNanPreserve, 32}, {kDenormPreserve, 32}}));
}

TEST(ArmShaders, FloatControlsRefuseWhatIsNoSpirvModule) {
  std::vector<uint32_t> words = {1, 2, 3};
  EXPECT_EQ(
      source_emitter::AddFloatControls(source_emitter::FloatControls{}, &words)
          .code(),
      PHAL_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace phal::arm
