// End to end on each plugin of the build tree, loaded by its manifest:
// programs compiled by the core, emitted by the plugin (LLVM kernels on cpu,
// OpenCL C on intel), executed through the phal_executable_* C API and
// compared with the reference interpreter; every node op on every element
// type it is defined for, every kernel kind, the tree's HLO modules and the
// sample and benchmark models; and the JAX models of samples/models/jax
// compared with the outputs XLA computed. A plugin not in the build, or with
// no device here (intel without an OpenCL device), is skipped with its
// reason. nvidia and amd run on their emulated devices (the fixture sets
// PHAL_GPU_EMULATION), asic-ref on its simulator; element types a device
// lacks (asic-ref has no f64 or complex types) skip the case with the type.
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/elementwise_ops.h"
#include "core/testing/jax_models.h"
#include "core/testing/source_files.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

// The plugins these tests run on, by manifest name, and the template's
// whole-program path (ABI 1.13): "template-program" takes every program as
// KIR graphs it runs whole, "template-partial" declines dots,
// convolutions and reductions, which the core runs as kernels between the
// parts.
const std::vector<std::string> kPlugins = {"cpu",
                                           "intel",
                                           "nvidia",
                                           "amd",
                                           "asic-ref",
                                           "template-program",
                                           "template-partial"};

// `name` with every character a test name may not hold made '_'
// ("asic-ref" -> "asic_ref").
std::string Identifier(std::string name) {
  std::replace_if(
      name.begin(), name.end(),
      [](unsigned char c) { return !std::isalnum(c); }, '_');
  return name;
}

// How far a result may be from the expected one, relative to
// max(1, |expected|), per element type.
using Tolerance = std::function<double(ElementType)>;

Tolerance Flat(double bound) {
  return [bound](ElementType) { return bound; };
}

// Float results of single ops are correctly rounded but for near-ties, or
// within an ulp or two of their type after the dot, reduce and model
// chains: that bound times `scale`.
Tolerance UlpsOfTheType(double scale) {
  return [scale](ElementType type) {
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return 2e-3 * scale;
      case PHAL_ELEMENT_TYPE_BF16:
        return 1.6e-2 * scale;
      case PHAL_ELEMENT_TYPE_F32:
      case PHAL_ELEMENT_TYPE_C64:
        return 2e-6 * scale;
      case PHAL_ELEMENT_TYPE_F64:
      case PHAL_ELEMENT_TYPE_C128:
        return 1e-13 * scale;
      default:
        return 0.0;
    }
  };
}

// Device 0 of one plugin, and programs run on it through the C API.
class OnPluginDevice : public ::testing::Test {
 protected:
  void Open(const std::string& plugin) {
    // The GPU plugins' emulated devices, where no GPU is (each test runs in
    // a process of its own under CTest; a value already set is kept).
    setenv("PHAL_GPU_EMULATION", "1", 0);
    std::string manifest = plugin;
    if (plugin.starts_with("template-")) {
      manifest = "template";
      setenv("PHAL_TEMPLATE_MODE", "program", 1);
      if (plugin == "template-partial") {
        setenv("PHAL_TEMPLATE_DECLINE", "dot,convolution,reduce", 1);
      }
    }
    plugin_ = std::make_unique<PluginDevice>(manifest);
    device_ = plugin_->device();
    if (device_ == nullptr) GTEST_SKIP() << plugin_->absence();
  }

  bool Supports(ElementType type) const {
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    phal_status_free(phal_device_get_properties(device_, &properties));
    return (properties.element_types & PHAL_ELEMENT_TYPE_BIT(type)) != 0;
  }

  // The first element type of `literals` the device lacks, or INVALID.
  ElementType FirstUnsupported(const std::vector<Literal>& literals) const {
    for (const Literal& literal : literals) {
      if (!Supports(literal.element_type())) return literal.element_type();
    }
    return PHAL_ELEMENT_TYPE_INVALID;
  }

  // Buffers on the device holding `arguments`, which the caller frees.
  std::vector<phal_buffer_t*> Upload(const std::vector<Literal>& arguments) {
    std::vector<phal_buffer_t*> buffers;
    for (const Literal& argument : arguments) {
      const phal_buffer_desc_t desc =
          BufferDesc(argument.element_type(), argument.shape().dims());
      phal_buffer_t* buffer = nullptr;
      phal_status_t* status = phal_buffer_allocate(device_, &desc, &buffer);
      EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
      phal_status_free(status);
      if (buffer == nullptr) continue;
      EXPECT_EQ(phal_buffer_copy_from_host(buffer, 0, argument.data(),
                                           argument.byte_size()),
                nullptr);
      buffers.push_back(buffer);
    }
    return buffers;
  }

  // The program compiled for the device, or null after a failure, or after
  // a skip when the device lacks an element type the program uses (the
  // core's UNIMPLEMENTED "element types [...] are not supported").
  phal_executable_t* Compile(const std::string& text) {
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        device_, text.data(), text.size(), nullptr, &executable);
    if (status != nullptr &&
        phal_status_get_code(status) == PHAL_UNIMPLEMENTED &&
        std::string(phal_status_get_message(status)).find("element types [") !=
            std::string::npos) {
      const std::string message = phal_status_get_message(status);
      phal_status_free(status);
      [&] { GTEST_SKIP() << message; }();
      return nullptr;
    }
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status) << "\n"
                               << text;
    phal_status_free(status);
    return executable;
  }

  // Runs `text` on the device and compares its results with `expected`,
  // leaf by leaf, each within `tolerance` of its element type.
  void ExpectComputes(const std::string& text,
                      const std::vector<Literal>& arguments,
                      const std::vector<Literal>& expected,
                      const Tolerance& tolerance) {
    phal_executable_t* executable = Compile(text);
    if (IsSkipped()) return;
    ASSERT_NE(executable, nullptr);
    std::vector<phal_buffer_t*> inputs = Upload(arguments);
    size_t result_count = 0;
    phal_status_free(
        phal_executable_get_result_count(executable, &result_count));
    std::vector<phal_buffer_t*> outputs(result_count, nullptr);
    phal_status_t* status =
        phal_executable_execute(executable, inputs.data(), inputs.size(),
                                outputs.data(), outputs.size());
    EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
    phal_status_free(status);
    EXPECT_EQ(expected.size(), result_count);
    for (size_t i = 0; i < result_count && i < expected.size(); ++i) {
      if (outputs[i] == nullptr) continue;
      Literal actual(expected[i].shape());
      EXPECT_EQ(phal_buffer_copy_to_host(outputs[i], 0, actual.data(),
                                         actual.byte_size()),
                nullptr);
      EXPECT_TRUE(
          Matches(actual, expected[i], tolerance(expected[i].element_type())))
          << "result " << i << " of\n"
          << text;
    }
    for (phal_buffer_t* buffer : outputs) phal_buffer_free(buffer);
    for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
    phal_executable_free(executable);
  }

  void ExpectMatchesReference(const std::string& text,
                              const std::vector<Literal>& arguments,
                              const Tolerance& tolerance) {
    const std::vector<Literal> expected = ReferenceLeaves(text, arguments);
    ASSERT_FALSE(expected.empty());
    ExpectComputes(text, arguments, expected, tolerance);
  }

  std::unique_ptr<PluginDevice> plugin_;
  phal_device_t* device_ = nullptr;
};

class PluginEndToEnd : public OnPluginDevice,
                       public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override { Open(GetParam()); }
};

INSTANTIATE_TEST_SUITE_P(Plugins, PluginEndToEnd, ::testing::ValuesIn(kPlugins),
                         [](const auto& info) {
                           return Identifier(info.param);
                         });

// ---- single ops ------------------------------------------------------------

// One module applying every op of `unary` and `binary` to parameters a and
// b of `type`[n]: a tuple of the results, so the core fuses them into few
// kernels and the plugin compiles few programs.
std::string ElementwiseModule(const std::string& type, int n,
                              const std::vector<std::string>& unary,
                              const std::vector<std::string>& binary) {
  std::ostringstream text;
  const std::string shape = type + "[" + std::to_string(n) + "]";
  const std::string pred = "pred[" + std::to_string(n) + "]";
  text << "HloModule elementwise_" << type << "\nENTRY main {\n  a = " << shape
       << " parameter(0)\n  b = " << shape << " parameter(1)\n";
  std::vector<std::string> names, shapes;
  for (size_t i = 0; i < unary.size(); ++i) {
    const std::string name = "u" + std::to_string(i);
    const std::string out = unary[i] == "is-finite" ? pred : shape;
    text << "  " << name << " = " << out << " " << unary[i] << "(a)\n";
    names.push_back(name);
    shapes.push_back(out);
  }
  for (size_t i = 0; i < binary.size(); ++i) {
    const std::string name = "b" + std::to_string(i);
    text << "  " << name << " = " << shape << " " << binary[i] << "(a, b)\n";
    names.push_back(name);
    shapes.push_back(shape);
  }
  for (const char* direction : {"LT", "EQ", "GE"}) {
    const std::string name = std::string("c") + direction;
    text << "  " << name << " = " << pred
         << " compare(a, b), direction=" << direction << "\n";
    names.push_back(name);
    shapes.push_back(pred);
  }
  text << "  ROOT t = (";
  for (size_t i = 0; i < shapes.size(); ++i) {
    text << (i ? ", " : "") << shapes[i];
  }
  text << ") tuple(";
  for (size_t i = 0; i < names.size(); ++i) {
    text << (i ? ", " : "") << names[i];
  }
  text << ")\n}\n";
  return text.str();
}

// A plugin and an element type.
class PluginAndType : public OnPluginDevice,
                      public ::testing::WithParamInterface<
                          std::tuple<std::string, ElementType>> {
 protected:
  void SetUp() override { Open(std::get<0>(GetParam())); }
  ElementType type() const { return std::get<1>(GetParam()); }
};

std::string PluginAndTypeName(
    const ::testing::TestParamInfo<std::tuple<std::string, ElementType>>&
        info) {
  return Identifier(std::get<0>(info.param)) + "_" +
         ElementTypeName(std::get<1>(info.param));
}

using FloatOps = PluginAndType;

TEST_P(FloatOps, EveryFloatOpMatchesTheReference) {
  if (!Supports(type())) {
    GTEST_SKIP() << "the device has no " << ElementTypeName(type());
  }
  ExpectMatchesReference(ElementwiseModule(ElementTypeName(type()), 33,
                                           kFloatUnaryOps, kFloatBinaryOps),
                         {TestData(type(), {33}, 0), TestData(type(), {33}, 1)},
                         UlpsOfTheType(1));
}

INSTANTIATE_TEST_SUITE_P(
    Types, FloatOps,
    ::testing::Combine(::testing::ValuesIn(kPlugins),
                       ::testing::Values(PHAL_ELEMENT_TYPE_F32,
                                         PHAL_ELEMENT_TYPE_F16,
                                         PHAL_ELEMENT_TYPE_BF16,
                                         PHAL_ELEMENT_TYPE_F64)),
    PluginAndTypeName);

using IntegerOps = PluginAndType;

TEST_P(IntegerOps, EveryIntegerOpMatchesTheReferenceBitForBit) {
  // abs, negate and sign are defined on signed integers only.
  const std::vector<std::string> unary =
      IsUnsigned(type())
          ? std::vector<std::string>{"not", "popcnt", "count-leading-zeros"}
          : kIntegerUnaryOps;
  ExpectMatchesReference(
      ElementwiseModule(ElementTypeName(type()), 40, unary, kIntegerBinaryOps),
      {TestData(type(), {40}, 0), TestData(type(), {40}, 3)}, Flat(0));
}

INSTANTIATE_TEST_SUITE_P(
    Types, IntegerOps,
    ::testing::Combine(
        ::testing::ValuesIn(kPlugins),
        ::testing::Values(PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S16,
                          PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S64,
                          PHAL_ELEMENT_TYPE_U8, PHAL_ELEMENT_TYPE_U32,
                          PHAL_ELEMENT_TYPE_U64)),
    PluginAndTypeName);

TEST_P(PluginEndToEnd, IntegerEdgeCasesFollowStableHlo) {
  Literal a(Shape(PHAL_ELEMENT_TYPE_S32, {6}));
  Literal b(Shape(PHAL_ELEMENT_TYPE_S32, {6}));
  const int64_t lhs[] = {7, -7, INT32_MIN, INT32_MIN, 1, -1};
  const int64_t rhs[] = {0, 0, -1, 33, 32, 40};
  for (int i = 0; i < 6; ++i) {
    a.SetFromInt64(i, lhs[i]);
    b.SetFromInt64(i, rhs[i]);
  }
  ExpectMatchesReference(R"(
HloModule edges
ENTRY main {
  a = s32[6] parameter(0)
  b = s32[6] parameter(1)
  d = s32[6] divide(a, b)
  r = s32[6] remainder(a, b)
  l = s32[6] shift-left(a, b)
  s = s32[6] shift-right-arithmetic(a, b)
  u = s32[6] shift-right-logical(a, b)
  f = f32[6] convert(a)
  ROOT t = (s32[6], s32[6], s32[6], s32[6], s32[6], f32[6]) tuple(d, r, l, s, u, f)
})",
                         {a, b}, UlpsOfTheType(1));
}

// Quantized dots: s8 and u8 products summed in s32, over a k long enough
// that the cpu plugin sums it in many exact slices, and one row and column
// of -128s whose sum (2^14 k) wraps past 2^31.
TEST_P(PluginEndToEnd, QuantizedDotsSumExactlyAndWrap) {
  constexpr int64_t kLong = 131100;
  Literal a(Shape(PHAL_ELEMENT_TYPE_S8, {3, kLong}));
  Literal b(Shape(PHAL_ELEMENT_TYPE_S8, {kLong, 2}));
  for (int64_t i = 0; i < kLong; ++i) {
    a.SetFromInt64(i, -128);
    a.SetFromInt64(kLong + i, (i * 37 + 11) % 256 - 128);
    a.SetFromInt64(2 * kLong + i, 127 - (i * 13) % 256);
    b.SetFromInt64(2 * i, -128);
    b.SetFromInt64(2 * i + 1, (i * 29 + 5) % 256 - 128);
  }
  ExpectMatchesReference(R"(
HloModule quantized
ENTRY main {
  a = s8[3,131100] parameter(0)
  b = s8[131100,2] parameter(1)
  ua = u8[2,3000] parameter(2)
  ub = u8[3000,4] parameter(3)
  d = s32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  u = s32[2,4] dot(ua, ub), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT t = (s32[3,2], s32[2,4]) tuple(d, u)
})",
                         {a, b, TestData(PHAL_ELEMENT_TYPE_U8, {2, 3000}),
                          TestData(PHAL_ELEMENT_TYPE_U8, {3000, 4}, 1)},
                         Flat(0));
}

// Sorts whose comparators only compare keys (which the cpu plugin sorts
// as integer keys): JAX's canonicalizing float comparator over NaNs of
// both signs, signed zeros and infinities; a descending total order with
// its permutation; value, then index, as top-k ranks; s32 and u32.
TEST_P(PluginEndToEnd, KeyComparatorSortsMatchTheReference) {
  Literal x = TestData(PHAL_ELEMENT_TYPE_F32, {3, 40});
  const uint32_t specials[] = {0x7FC00000u, 0xFFC00000u, 0x80000000u,
                               0u,          0x7F800000u, 0xFF800000u,
                               0x7FC12345u, 0x80000000u};
  for (int i = 0; i < 8; ++i) {
    std::memcpy(x.data() + 4 * (i * 13 % 120), &specials[i], 4);
  }
  ExpectMatchesReference(R"(
HloModule sorts
jax_less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  zero = f32[] constant(0)
  nan = f32[] constant(nan)
  az = pred[] compare(a, zero), direction=EQ
  a0 = f32[] select(az, zero, a)
  an = pred[] compare(a, a), direction=NE
  ac = f32[] select(an, nan, a0)
  bz = pred[] compare(b, zero), direction=EQ
  b0 = f32[] select(bz, zero, b)
  bn = pred[] compare(b, b), direction=NE
  bc = f32[] select(bn, nan, b0)
  ROOT lt = pred[] compare(ac, bc), direction=LT, type=TOTALORDER
}
greater {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT gt = pred[] compare(a, b), direction=GT, type=TOTALORDER
}
rank {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT, type=TOTALORDER
  eq = pred[] compare(a, b), direction=EQ, type=TOTALORDER
  lt = pred[] compare(i, j), direction=LT
  tie = pred[] and(eq, lt)
  ROOT before = pred[] or(gt, tie)
}
signed {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT lt = pred[] compare(b, a), direction=GT
}
unsigned {
  a = u32[] parameter(0)
  b = u32[] parameter(1)
  ROOT gt = pred[] compare(a, b), direction=GT
}
ENTRY main {
  x = f32[3,40] parameter(0)
  s = s32[3,40] parameter(1)
  u = u32[3,40] parameter(2)
  iota = s32[3,40] iota(), iota_dimension=1
  reversed = s32[3,40] reverse(iota), dimensions={1}
  a = f32[3,40] sort(x), dimensions={1}, is_stable=true, to_apply=jax_less
  d = (f32[3,40], s32[3,40]) sort(x, iota), dimensions={1}, is_stable=true, to_apply=greater
  r = (f32[3,40], s32[3,40]) sort(x, reversed), dimensions={1}, to_apply=rank
  c = f32[40,3] transpose(x), dimensions={1,0}
  t = f32[40,3] sort(c), dimensions={0}, is_stable=true, to_apply=jax_less
  i = s32[3,40] sort(s), dimensions={1}, is_stable=true, to_apply=signed
  v = u32[3,40] sort(u), dimensions={1}, to_apply=unsigned
  ROOT out = (f32[3,40], (f32[3,40], s32[3,40]), (f32[3,40], s32[3,40]), f32[40,3], s32[3,40], u32[3,40]) tuple(a, d, r, t, i, v)
})",
                         {x, TestData(PHAL_ELEMENT_TYPE_S32, {3, 40}, 2),
                          TestData(PHAL_ELEMENT_TYPE_U32, {3, 40}, 5)},
                         Flat(0));
}

TEST_P(PluginEndToEnd, ConversionsBetweenEveryFamilyMatchTheReference) {
  ExpectMatchesReference(R"(
HloModule converts
ENTRY main {
  a = f32[20] parameter(0)
  i = s32[20] convert(a)
  u = u8[20] convert(a)
  h = f16[20] convert(a)
  b = bf16[20] convert(a)
  w = f64[20] convert(h)
  p = pred[20] convert(a)
  c = c64[20] convert(a)
  back = f32[20] convert(i)
  bits = s32[20] bitcast-convert(a)
  hb = s16[20] bitcast-convert(h)
  ROOT t = (s32[20], u8[20], f16[20], bf16[20], f64[20], pred[20], c64[20], f32[20], s32[20], s16[20]) tuple(i, u, h, b, w, p, c, back, bits, hb)
})",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {20}, 2)},
                         UlpsOfTheType(1));
}

TEST_P(PluginEndToEnd, ComplexArithmeticAndFunctionsMatchTheReference) {
  ExpectMatchesReference(
      R"(
HloModule complex
ENTRY main {
  x = f32[12] parameter(0)
  y = f32[12] parameter(1)
  a = c64[12] complex(x, y)
  b = c64[12] complex(y, x)
  s = c64[12] add(a, b)
  m = c64[12] multiply(a, b)
  d = c64[12] divide(a, b)
  e = c64[12] exponential(a)
  l = c64[12] log(a)
  q = c64[12] sqrt(a)
  h = c64[12] tanh(a)
  n = f32[12] abs(a)
  r = f32[12] real(m)
  ROOT t = (c64[12], c64[12], c64[12], c64[12], c64[12], c64[12], c64[12], f32[12], f32[12]) tuple(s, m, d, e, l, q, h, n, r)
})",
      {TestData(PHAL_ELEMENT_TYPE_F32, {12}, 4),
       TestData(PHAL_ELEMENT_TYPE_F32, {12}, 5)},
      UlpsOfTheType(4));
}

// ---- kernel kinds and control flow ----------------------------------------

TEST_P(PluginEndToEnd, DenseLayerWithSoftmaxMatchesTheReference) {
  ExpectMatchesReference(R"(
HloModule mlp_softmax
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[37,70] parameter(0)
  w = f32[70,19] parameter(1)
  b = f32[19] parameter(2)
  h = f32[37,19] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[37,19] broadcast(b), dimensions={1}
  z = f32[37,19] add(h, bb)
  ninf = f32[] constant(-inf)
  m = f32[37] reduce(z, ninf), dimensions={1}, to_apply=max_f32
  mb = f32[37,19] broadcast(m), dimensions={0}
  d = f32[37,19] subtract(z, mb)
  e = f32[37,19] exponential(d)
  zero = f32[] constant(0)
  s = f32[37] reduce(e, zero), dimensions={1}, to_apply=add_f32
  sb = f32[37,19] broadcast(s), dimensions={0}
  ROOT y = f32[37,19] divide(e, sb)
})",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {37, 70}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {70, 19}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {19}, 2)},
                         UlpsOfTheType(10));
}

TEST_P(PluginEndToEnd, GatherScatterAndSortMatchTheReference) {
  ExpectMatchesReference(kGatherScatterSortModule, GatherScatterSortArguments(),
                         UlpsOfTheType(1));
}

TEST_P(PluginEndToEnd,
       ConvolutionWithPaddingStridesAndGroupsMatchesTheReference) {
  ExpectMatchesReference(R"(
HloModule conv
ENTRY main {
  x = f32[2,9,9,4] parameter(0)
  w = f32[3,3,2,6] parameter(1)
  ROOT c = f32[2,5,5,6] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1},
      dim_labels=b01f_01io->b01f, feature_group_count=2
})",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 9, 9, 4}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3, 3, 2, 6}, 1)},
                         UlpsOfTheType(10));
}

TEST_P(PluginEndToEnd, WhileLoopOfThreeThousandIterationsMatchesTheReference) {
  ExpectMatchesReference(kCountingLoopModule,
                         {TestData(PHAL_ELEMENT_TYPE_F32, {4}, 0)}, Flat(0));
}

// The body updates the stacked rows in place; their first state is the
// caller's argument, which the entry also returns, so it must be copied
// before the first update and come back unchanged.
TEST_P(PluginEndToEnd, ScanUpdatingItsStateInPlaceLeavesTheArgumentIntact) {
  ExpectMatchesReference(R"(
HloModule scan
cond {
  s = (s32[], f32[16,4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(16)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[16,4], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ys = f32[16,4] get-tuple-element(s), index=1
  x = f32[4] get-tuple-element(s), index=2
  h = f32[4] tanh(x)
  row = f32[1,4] reshape(h)
  zero = s32[] constant(0)
  ys2 = f32[16,4] dynamic-update-slice(ys, row, i, zero)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[16,4], f32[4]) tuple(i2, ys2, h)
}
ENTRY main {
  ys = f32[16,4] parameter(0)
  x = f32[4] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[16,4], f32[4]) tuple(zero, ys, x)
  w = (s32[], f32[16,4], f32[4]) while(init), condition=cond, body=body
  stacked = f32[16,4] get-tuple-element(w), index=1
  ROOT r = (f32[16,4], f32[16,4]) tuple(stacked, ys)
})",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {16, 4}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {4}, 1)},
                         UlpsOfTheType(2));
}

// ---- threads ---------------------------------------------------------------

TEST_P(PluginEndToEnd, EightThreadsExecuteOneExecutable) {
  const std::string text = R"(
HloModule affine
ENTRY main {
  x = f32[16,8] parameter(0)
  w = f32[8,4] parameter(1)
  d = f32[16,4] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT y = f32[16,4] tanh(d)
}
)";
  const std::vector<Literal> arguments = {
      TestData(PHAL_ELEMENT_TYPE_F32, {16, 8}, 0),
      TestData(PHAL_ELEMENT_TYPE_F32, {8, 4}, 1)};
  const std::vector<Literal> expected = ReferenceLeaves(text, arguments);
  ASSERT_EQ(expected.size(), 1u);
  phal_executable_t* executable = Compile(text);
  ASSERT_NE(executable, nullptr);
  std::vector<phal_buffer_t*> inputs = Upload(arguments);
  constexpr int kThreads = 8;
  constexpr int kRuns = 20;
  std::vector<int> correct(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int run = 0; run < kRuns; ++run) {
        phal_buffer_t* output = nullptr;
        phal_status_t* failed = phal_executable_execute(
            executable, inputs.data(), inputs.size(), &output, 1);
        if (failed != nullptr) {
          phal_status_free(failed);
          continue;
        }
        Literal actual(expected[0].shape());
        phal_status_free(phal_buffer_copy_to_host(output, 0, actual.data(),
                                                  actual.byte_size()));
        phal_buffer_free(output);
        correct[t] += Matches(actual, expected[0], 1e-6) ? 1 : 0;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(correct[t], kRuns) << "thread " << t << " got wrong results";
  }
  for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
  phal_executable_free(executable);
}

// ---- modules ---------------------------------------------------------------

// Test data for each leaf of `shape`, depth-first; `seed` advances per leaf.
void AppendLeafData(const Shape& shape, int64_t* seed,
                    std::vector<Literal>* leaves) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      AppendLeafData(element, seed, leaves);
    }
    return;
  }
  leaves->push_back(TestData(shape.element_type(), shape.dims(), (*seed)++));
}

// The literal of `shape` whose leaves, depth-first, come from `leaves`.
Literal AssembleLeaves(const Shape& shape, const std::vector<Literal>& leaves,
                       std::size_t* next) {
  if (!shape.IsTuple()) return leaves[(*next)++];
  std::vector<Literal> elements;
  for (const Shape& element : shape.tuple_shapes()) {
    elements.push_back(AssembleLeaves(element, leaves, next));
  }
  return Literal::Tuple(std::move(elements));
}

// A plugin and a name: a file of the source tree, or a JAX model's.
class PluginAndName : public OnPluginDevice,
                      public ::testing::WithParamInterface<
                          std::tuple<std::string, std::string>> {
 protected:
  void SetUp() override { Open(std::get<0>(GetParam())); }
  const std::string& name() const { return std::get<1>(GetParam()); }
};

// The plugin and the name's stem, as an identifier.
std::string PluginAndNameName(
    const ::testing::TestParamInfo<std::tuple<std::string, std::string>>&
        info) {
  return Identifier(
      std::get<0>(info.param) + "_" +
      std::filesystem::path(std::get<1>(info.param)).stem().string());
}

using HloModuleOnPlugin = PluginAndName;

// The HLO modules of the tree's tests (XLA's compiled dumps included,
// with their fusions, layouts and layout-changing bitcasts) agree with the
// reference on deterministic inputs.
TEST_P(HloModuleOnPlugin, MatchesTheReference) {
  const std::string text = ReadTextFile(SourceFile(name()));
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr) << name();
  std::vector<Literal> leaves;
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const HloInstruction* parameter :
       module->entry_computation()->parameter_instructions()) {
    const std::size_t first = leaves.size();
    AppendLeafData(parameter->shape(), &seed, &leaves);
    std::vector<Literal> own(
        leaves.begin() + static_cast<std::ptrdiff_t>(first), leaves.end());
    std::size_t next = 0;
    arguments.push_back(AssembleLeaves(parameter->shape(), own, &next));
  }
  StatusOr<Literal> expected = Evaluate(*module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::vector<Literal> expected_leaves;
  FlattenLiteral(*expected, &expected_leaves);
  for (const std::vector<Literal>* literals : {&leaves, &expected_leaves}) {
    const ElementType missing = FirstUnsupported(*literals);
    if (missing != PHAL_ELEMENT_TYPE_INVALID) {
      GTEST_SKIP() << "the device has no " << ElementTypeName(missing);
    }
  }
  ExpectComputes(text, leaves, expected_leaves, Flat(1e-4));
}

INSTANTIATE_TEST_SUITE_P(
    TreeModules, HloModuleOnPlugin,
    ::testing::Combine(
        ::testing::ValuesIn(kPlugins),
        ::testing::Values(
            "core/compiler/testdata/conv.hlo",
            "core/compiler/testdata/convert_read_twice.hlo",
            "core/compiler/testdata/fusion_cycle.hlo",
            "core/compiler/testdata/mlp.hlo",
            "core/compiler/testdata/reduce_fused.hlo",
            "core/compiler/testdata/softmax.hlo",
            "core/compiler/testdata/while_loop.hlo",
            "core/frontend/testdata/every_op.hlo",
            "core/frontend/testdata/linear_algebra.hlo",
            "core/frontend/testdata/linear_algebra_f64.hlo",
            "core/frontend/testdata/linear_algebra_c64.hlo",
            "core/frontend/testdata/jax_cnn_grad.hlo",
            "core/frontend/testdata/jax_cnn_grad_compiled.hlo",
            "core/frontend/testdata/jax_control.hlo",
            "core/frontend/testdata/jax_control_compiled.hlo",
            "core/frontend/testdata/jax_conv.hlo",
            "core/frontend/testdata/jax_conv_compiled.hlo",
            "core/frontend/testdata/jax_misc.hlo",
            "core/frontend/testdata/jax_misc_compiled.hlo",
            "core/frontend/testdata/jax_mlp.hlo",
            "core/frontend/testdata/jax_mlp_compiled.hlo",
            "core/frontend/testdata/jax_rng.hlo",
            "core/frontend/testdata/jax_rng_compiled.hlo",
            "core/frontend/testdata/jax_transformer.hlo",
            "core/frontend/testdata/jax_transformer_compiled.hlo")),
    PluginAndNameName);

// The .hlo files of `directories`, sorted.
std::vector<std::filesystem::path> HloFiles(
    const std::vector<std::filesystem::path>& directories) {
  std::vector<std::filesystem::path> files;
  for (const auto& directory : directories) {
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      if (entry.path().extension() == ".hlo") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every sample model, with the deterministic test data as its inputs.
TEST_P(PluginEndToEnd, EverySampleModelMatchesTheReference) {
  const std::filesystem::path samples = SourceFile("samples/models");
  const std::vector<std::filesystem::path> files =
      HloFiles({samples, samples / "jax"});
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = ReadTextFile(file);
    std::unique_ptr<HloModule> module = ParseVerified(text);
    ASSERT_NE(module, nullptr);
    // Programs for several devices run on four of each plugin's devices
    // in core/runtime/jax_spmd_devices_test.cc.
    if (module->replica_count() * module->num_partitions() > 1) continue;
    std::vector<Literal> arguments;
    bool wide = false;
    for (const HloInstruction* parameter :
         module->entry_computation()->parameter_instructions()) {
      const Shape& shape = parameter->shape();
      wide = wide || shape.element_type() == PHAL_ELEMENT_TYPE_F64;
      arguments.push_back(TestData(shape.element_type(), shape.dims(),
                                   static_cast<int64_t>(arguments.size())));
    }
    if (wide && !Supports(PHAL_ELEMENT_TYPE_F64)) continue;
    ExpectMatchesReference(text, arguments, UlpsOfTheType(50));
  }
}

// Every benchmark model (docs/performance.md), at its realistic size.
TEST_P(PluginEndToEnd, EveryBenchmarkModelMatchesTheReference) {
  const std::vector<std::filesystem::path> files =
      HloFiles({SourceFile("benchmarks/models")});
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = ReadTextFile(file);
    std::unique_ptr<HloModule> module = ParseVerified(text);
    ASSERT_NE(module, nullptr);
    std::vector<Literal> arguments;
    for (const HloInstruction* parameter :
         module->entry_computation()->parameter_instructions()) {
      const Shape& shape = parameter->shape();
      arguments.push_back(TestData(shape.element_type(), shape.dims(),
                                   static_cast<int64_t>(arguments.size())));
    }
    ExpectMatchesReference(text, arguments, UlpsOfTheType(50));
  }
}

// A plugin and a JAX program with its inputs and XLA's outputs.
class JaxProgramOnPlugin : public PluginAndName {
 protected:
  // XLA's outputs within XLA's tolerance for their element types; skipped
  // when the device lacks an element type of the inputs or outputs.
  void ExpectMatchesXla(const std::string& text,
                        const std::vector<Literal>& inputs,
                        const std::vector<Literal>& outputs) {
    double tolerance = 0;
    for (const Literal& result : outputs) {
      tolerance = std::max(tolerance, XlaTolerance(result.element_type()));
    }
    for (const std::vector<Literal>* literals : {&inputs, &outputs}) {
      const ElementType missing = FirstUnsupported(*literals);
      if (missing != PHAL_ELEMENT_TYPE_INVALID) {
        GTEST_SKIP() << "the device has no " << ElementTypeName(missing);
      }
    }
    ExpectComputes(text, inputs, outputs, Flat(tolerance));
  }
};

// `text` as HLO text: itself, or the lowering of StableHLO text when
// `file_name` ends in ".mlir".
StatusOr<std::string> AsHloText(const std::string& text,
                                const std::string& file_name) {
  if (std::filesystem::path(file_name).extension() != ".mlir") return text;
  PHAL_ASSIGN_OR_RETURN(StableHloModule program,
                        ParseStableHlo(text, file_name));
  return HloModuleToText(*program.module);
}

using JaxModelOnPlugin = JaxProgramOnPlugin;

// A model of samples/models/jax, from its HLO text (NAME) or its StableHLO
// text (NAME.mlir), on the inputs and XLA's outputs saved beside it as .npy
// files.
TEST_P(JaxModelOnPlugin, MatchesXla) {
  const std::filesystem::path file(name());
  StatusOr<JaxModel> model = file.extension() == ".mlir"
                                 ? ReadJaxModel(file.stem().string(), ".mlir")
                                 : ReadJaxModel(name());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  StatusOr<std::string> text = AsHloText(model->text, name());
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  ExpectMatchesXla(*text, model->arguments, model->results);
}

INSTANTIATE_TEST_SUITE_P(Models, JaxModelOnPlugin,
                         ::testing::Combine(::testing::ValuesIn(kPlugins),
                                            ::testing::ValuesIn(kJaxModels)),
                         PluginAndNameName);

// NAME.mlir for every NAME of samples/models/jax.
std::vector<std::string> JaxStableHloModels() {
  std::vector<std::string> files;
  for (const std::string& model : kJaxModels) files.push_back(model + ".mlir");
  return files;
}

INSTANTIATE_TEST_SUITE_P(
    StableHlo, JaxModelOnPlugin,
    ::testing::Combine(::testing::ValuesIn(kPlugins),
                       ::testing::ValuesIn(JaxStableHloModels())),
    PluginAndNameName);

// A program of core/frontend/testdata/stablehlo (StableHLO or HLO text) as
// HLO text, with its inputs and the outputs XLA computed.
struct TestdataModel {
  std::string text;
  std::vector<Literal> inputs;
  std::vector<Literal> expected;
};

StatusOr<TestdataModel> ReadTestdataModel(const std::string& file_name) {
  const std::filesystem::path file =
      SourceFile("core/frontend/testdata/stablehlo/" + file_name);
  TestdataModel model;
  model.text = ReadTextFile(file);
  if (model.text.empty()) return NotFound("cannot read " + file.string());
  PHAL_ASSIGN_OR_RETURN(model.text, AsHloText(model.text, file_name));
  const std::string base = (file.parent_path() / file.stem()).string();
  PHAL_ASSIGN_OR_RETURN(model.inputs, ReadNpySequence(base, "input"));
  PHAL_ASSIGN_OR_RETURN(model.expected, ReadNpySequence(base, "expected"));
  if (model.expected.empty()) return NotFound("no outputs of " + base);
  return model;
}

// The plugin and the file name, as an identifier.
std::string PluginAndFileName(
    const ::testing::TestParamInfo<std::tuple<std::string, std::string>>&
        info) {
  return Identifier(std::get<0>(info.param) + "_" + std::get<1>(info.param));
}

using QuantizedModelOnPlugin = PluginAndName;

// The int8-quantized MLP of core/frontend/testdata/stablehlo in its three
// forms: StableHLO with !quant.uniform types, and the integer program JAX
// lowered (an s8 x s8 -> s32 dot) as StableHLO and as HLO text. On XLA's
// inputs every plugin reproduces XLA's outputs exactly.
TEST_P(QuantizedModelOnPlugin, MatchesXlaExactly) {
  StatusOr<TestdataModel> model = ReadTestdataModel(name());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ExpectComputes(model->text, model->inputs, model->expected, Flat(0));
}

INSTANTIATE_TEST_SUITE_P(
    Models, QuantizedModelOnPlugin,
    ::testing::Combine(::testing::ValuesIn(kPlugins),
                       ::testing::Values("quantized_mlp.mlir",
                                         "jax_int8_mlp.mlir",
                                         "jax_int8_mlp.hlo")),
    PluginAndFileName);

using JaxTestdataModelOnPlugin = JaxProgramOnPlugin;

// The JAX programs of core/frontend/testdata/stablehlo, from their
// StableHLO and their HLO text: a transformer block with exact (erf) GELU,
// the mixture-of-experts layer with its ragged dots (a composite
// chlo.ragged_dot in StableHLO, XLA's ragged-dot in HLO text) and the
// scipy.special functions (the HLO text XLA converts the StableHLO to).
TEST_P(JaxTestdataModelOnPlugin, MatchesXla) {
  StatusOr<TestdataModel> model = ReadTestdataModel(name());
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ExpectMatchesXla(model->text, model->inputs, model->expected);
}

INSTANTIATE_TEST_SUITE_P(
    Models, JaxTestdataModelOnPlugin,
    ::testing::Combine(::testing::ValuesIn(kPlugins),
                       ::testing::Values("jax_gelu_transformer.mlir",
                                         "jax_gelu_transformer.hlo",
                                         "jax_moe.mlir", "jax_moe.hlo",
                                         "jax_scipy_special.mlir",
                                         "jax_scipy_special.hlo")),
    PluginAndFileName);

}  // namespace
}  // namespace phal::testing
