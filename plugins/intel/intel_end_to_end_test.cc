// Differential tests on the intel plugin's first OpenCL device (PoCL's CPU
// device in CI): modules compiled by the core, printed as OpenCL C by the
// source emitter, built by the OpenCL driver and run through the
// phal_executable_* C API, against the reference interpreter. Every node op
// on every element type it is defined for, every kernel kind, and every
// sample model the cpu plugin runs.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

// Relative tolerance (against max(1, |expected|)) per element type: float
// results of single ops are correctly rounded but for near-ties, or within
// an ulp or two of their type after the dot, reduce and model chains.
double Tolerance(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
      return 2e-3;
    case PHAL_ELEMENT_TYPE_BF16:
      return 1.6e-2;
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_C64:
      return 2e-6;
    case PHAL_ELEMENT_TYPE_F64:
    case PHAL_ELEMENT_TYPE_C128:
      return 1e-13;
    default:
      return 0;
  }
}

class IntelEndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string path =
        std::string(PHAL_TEST_BUILD_DIR) + "/share/polyhal/plugins.d";
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    options.plugin_filter = "intel";
    phal_status_free(phal_client_create(&options, &client_));
    size_t count = 0;
    if (client_ != nullptr) {
      phal_status_free(phal_client_get_device_count(client_, &count));
    }
    if (count == 0) GTEST_SKIP() << "no OpenCL device on this machine";
    phal_status_free(phal_client_get_device(client_, 0, &device_));
  }
  void TearDown() override { phal_client_destroy(client_); }

  // Runs `text` on the device and compares every result with the
  // reference, each within its element type's tolerance times `scale`.
  void ExpectMatchesReference(const std::string& text,
                              const std::vector<Literal>& arguments,
                              double scale = 1.0) {
    phal_executable_t* executable = nullptr;
    phal_status_t* status = phal_executable_compile(
        device_, text.data(), text.size(), nullptr, &executable);
    ASSERT_EQ(status, nullptr) << phal_status_get_message(status) << "\n"
                               << text;
    std::vector<phal_buffer_t*> inputs;
    for (const Literal& argument : arguments) {
      phal_buffer_desc_t desc{};
      desc.struct_size = sizeof(desc);
      desc.element_type = argument.element_type();
      desc.rank = static_cast<uint32_t>(argument.shape().rank());
      desc.dims = argument.shape().dims().data();
      phal_buffer_t* buffer = nullptr;
      ASSERT_EQ(phal_buffer_allocate(device_, &desc, &buffer), nullptr);
      ASSERT_EQ(phal_buffer_copy_from_host(buffer, 0, argument.data(),
                                           argument.byte_size()),
                nullptr);
      inputs.push_back(buffer);
    }
    size_t result_count = 0;
    phal_status_free(
        phal_executable_get_result_count(executable, &result_count));
    std::vector<phal_buffer_t*> outputs(result_count, nullptr);
    status = phal_executable_execute(executable, inputs.data(), inputs.size(),
                                     outputs.data(), outputs.size());
    ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
    std::unique_ptr<HloModule> module = ParseVerified(text);
    StatusOr<Literal> expected = Evaluate(*module, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    std::vector<Literal> leaves;
    FlattenLiteral(*expected, &leaves);
    ASSERT_EQ(leaves.size(), result_count);
    for (size_t i = 0; i < result_count; ++i) {
      Literal actual(leaves[i].shape());
      ASSERT_EQ(phal_buffer_copy_to_host(outputs[i], 0, actual.data(),
                                         actual.byte_size()),
                nullptr);
      EXPECT_TRUE(Matches(actual, leaves[i],
                          Tolerance(leaves[i].element_type()) * scale))
          << "result " << i << " of\n"
          << text;
      phal_buffer_free(outputs[i]);
    }
    for (phal_buffer_t* buffer : inputs) phal_buffer_free(buffer);
    phal_executable_free(executable);
  }

  bool Supports(ElementType type) const {
    phal_device_properties_t properties{};
    properties.struct_size = sizeof(properties);
    phal_status_free(phal_device_get_properties(device_, &properties));
    return (properties.element_types & PHAL_ELEMENT_TYPE_BIT(type)) != 0;
  }

  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

// One module applying every op of `unary` and `binary` to parameters a and
// b of `type`[n]: a tuple of the results, so the core fuses them into few
// kernels and the driver compiles few programs.
std::string ElementwiseModule(const std::string& type, int n,
                              const std::vector<std::string>& unary,
                              const std::vector<std::string>& binary,
                              const std::string& result_type = "") {
  std::ostringstream text;
  const std::string shape = type + "[" + std::to_string(n) + "]";
  text << "HloModule elementwise_" << type << "\nENTRY main {\n  a = " << shape
       << " parameter(0)\n  b = " << shape << " parameter(1)\n";
  std::vector<std::string> names, shapes;
  for (size_t i = 0; i < unary.size(); ++i) {
    const std::string name = "u" + std::to_string(i);
    const bool to_pred = unary[i] == "is-finite";
    const std::string out =
        to_pred ? "pred[" + std::to_string(n) + "]"
                : (result_type.empty()
                       ? shape
                       : result_type + "[" + std::to_string(n) + "]");
    const bool real =
        unary[i] == "real" || unary[i] == "imag" || unary[i] == "abs";
    text << "  " << name << " = " << (real || to_pred ? out : shape) << " "
         << unary[i] << "(a)\n";
    names.push_back(name);
    shapes.push_back(real || to_pred ? out : shape);
  }
  for (size_t i = 0; i < binary.size(); ++i) {
    const std::string name = "b" + std::to_string(i);
    text << "  " << name << " = " << shape << " " << binary[i] << "(a, b)\n";
    names.push_back(name);
    shapes.push_back(shape);
  }
  for (const char* direction : {"LT", "EQ", "GE"}) {
    const std::string name = std::string("c") + direction;
    text << "  " << name << " = pred[" << n
         << "] compare(a, b), direction=" << direction << "\n";
    names.push_back(name);
    shapes.push_back("pred[" + std::to_string(n) + "]");
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

const std::vector<std::string> kFloatUnary = {"abs",
                                              "negate",
                                              "sign",
                                              "floor",
                                              "ceil",
                                              "round-nearest-afz",
                                              "round-nearest-even",
                                              "exponential",
                                              "exponential-minus-one",
                                              "log",
                                              "log-plus-one",
                                              "logistic",
                                              "sqrt",
                                              "rsqrt",
                                              "cbrt",
                                              "tanh",
                                              "sine",
                                              "cosine",
                                              "tan",
                                              "erf",
                                              "is-finite"};
const std::vector<std::string> kFloatBinary = {
    "add",     "subtract", "multiply", "divide", "remainder",
    "maximum", "minimum",  "power",    "atan2"};
const std::vector<std::string> kIntegerUnary = {
    "abs", "negate", "sign", "not", "popcnt", "count-leading-zeros"};
const std::vector<std::string> kIntegerBinary = {"add",
                                                 "subtract",
                                                 "multiply",
                                                 "divide",
                                                 "remainder",
                                                 "maximum",
                                                 "minimum",
                                                 "and",
                                                 "or",
                                                 "xor",
                                                 "shift-left",
                                                 "shift-right-arithmetic",
                                                 "shift-right-logical",
                                                 "power"};

Literal Data(ElementType type, std::vector<int64_t> dims, int64_t seed) {
  return TestData(type, std::move(dims), seed);
}

class FloatOps : public IntelEndToEnd,
                 public ::testing::WithParamInterface<ElementType> {};

TEST_P(FloatOps, EveryFloatOpMatchesTheReference) {
  const ElementType type = GetParam();
  if (!Supports(type)) GTEST_SKIP() << "the device has no f64";
  ExpectMatchesReference(
      ElementwiseModule(ElementTypeName(type), 33, kFloatUnary, kFloatBinary),
      {Data(type, {33}, 0), Data(type, {33}, 1)});
}

INSTANTIATE_TEST_SUITE_P(
    Types, FloatOps,
    ::testing::Values(PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F16,
                      PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F64),
    [](const auto& info) { return std::string(ElementTypeName(info.param)); });

class IntegerOps : public IntelEndToEnd,
                   public ::testing::WithParamInterface<ElementType> {};

TEST_P(IntegerOps, EveryIntegerOpMatchesTheReferenceBitForBit) {
  const ElementType type = GetParam();
  // abs, negate and sign are defined on signed integers only.
  const std::vector<std::string> unary =
      IsUnsigned(type)
          ? std::vector<std::string>{"not", "popcnt", "count-leading-zeros"}
          : kIntegerUnary;
  ExpectMatchesReference(
      ElementwiseModule(ElementTypeName(type), 40, unary, kIntegerBinary),
      {Data(type, {40}, 0), Data(type, {40}, 3)});
}

INSTANTIATE_TEST_SUITE_P(
    Types, IntegerOps,
    ::testing::Values(PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S16,
                      PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S64,
                      PHAL_ELEMENT_TYPE_U8, PHAL_ELEMENT_TYPE_U32,
                      PHAL_ELEMENT_TYPE_U64),
    [](const auto& info) { return std::string(ElementTypeName(info.param)); });

TEST_F(IntelEndToEnd, IntegerEdgeCasesFollowStableHlo) {
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
                         {a, b});
}

TEST_F(IntelEndToEnd, ConversionsBetweenEveryFamilyMatchTheReference) {
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
                         {Data(PHAL_ELEMENT_TYPE_F32, {20}, 2)});
}

TEST_F(IntelEndToEnd, ComplexArithmeticAndFunctionsMatchTheReference) {
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
      {Data(PHAL_ELEMENT_TYPE_F32, {12}, 4),
       Data(PHAL_ELEMENT_TYPE_F32, {12}, 5)},
      4.0);
}

TEST_F(IntelEndToEnd, DenseLayerWithSoftmaxMatchesTheReference) {
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
                         {Data(PHAL_ELEMENT_TYPE_F32, {37, 70}, 0),
                          Data(PHAL_ELEMENT_TYPE_F32, {70, 19}, 1),
                          Data(PHAL_ELEMENT_TYPE_F32, {19}, 2)},
                         10.0);
}

TEST_F(IntelEndToEnd, GatherScatterAndSortMatchTheReference) {
  Literal indices(Shape(PHAL_ELEMENT_TYPE_S32, {5, 1}));
  const int64_t rows[] = {3, 0, 9, -2, 3};  // out of bounds are clamped/skipped
  for (int i = 0; i < 5; ++i) indices.SetFromInt64(i, rows[i]);
  ExpectMatchesReference(R"(
HloModule gather_scatter_sort
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
less {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT lt = pred[] compare(a, b), direction=LT
}
ENTRY main {
  table = f32[6,4] parameter(0)
  idx = s32[5,1] parameter(1)
  upd = f32[5,4] parameter(2)
  g = f32[5,4] gather(table, idx), offset_dims={1}, collapsed_slice_dims={0},
      start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}
  s = f32[6,4] scatter(table, idx, upd), update_window_dims={1},
      inserted_window_dims={0}, scatter_dims_to_operand_dims={0},
      index_vector_dim=1, to_apply=add
  iota = s32[6,4] iota(), iota_dimension=0
  sorted = (f32[6,4], s32[6,4]) sort(table, iota), dimensions={0}, is_stable=true, to_apply=less
  k = f32[6,4] get-tuple-element(sorted), index=0
  v = s32[6,4] get-tuple-element(sorted), index=1
  ROOT t = (f32[5,4], f32[6,4], f32[6,4], s32[6,4]) tuple(g, s, k, v)
})",
                         {Data(PHAL_ELEMENT_TYPE_F32, {6, 4}, 0), indices,
                          Data(PHAL_ELEMENT_TYPE_F32, {5, 4}, 1)});
}

TEST_F(IntelEndToEnd,
       ConvolutionWithPaddingStridesAndGroupsMatchesTheReference) {
  ExpectMatchesReference(R"(
HloModule conv
ENTRY main {
  x = f32[2,9,9,4] parameter(0)
  w = f32[3,3,2,6] parameter(1)
  ROOT c = f32[2,5,5,6] convolution(x, w), window={size=3x3 stride=2x2 pad=1_1x1_1},
      dim_labels=b01f_01io->b01f, feature_group_count=2
})",
                         {Data(PHAL_ELEMENT_TYPE_F32, {2, 9, 9, 4}, 0),
                          Data(PHAL_ELEMENT_TYPE_F32, {3, 3, 2, 6}, 1)},
                         10.0);
}

TEST_F(IntelEndToEnd, WhileLoopReadsItsPredicateBackFromTheDevice) {
  ExpectMatchesReference(R"(
HloModule loop
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(50)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  v = f32[4] get-tuple-element(p), index=1
  one = s32[] constant(1)
  next = s32[] add(i, one)
  h = f32[] constant(0.25)
  hb = f32[4] broadcast(h), dimensions={}
  w = f32[4] add(v, hb)
  ROOT t = (s32[], f32[4]) tuple(next, w)
}
ENTRY main {
  x = f32[4] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[4]) tuple(zero, x)
  r = (s32[], f32[4]) while(init), condition=cond, body=body
  ROOT out = f32[4] get-tuple-element(r), index=1
})",
                         {Data(PHAL_ELEMENT_TYPE_F32, {4}, 0)});
}

// Every sample model, with the deterministic test data as its inputs.
TEST_F(IntelEndToEnd, EverySampleModelMatchesTheReference) {
  const std::filesystem::path samples =
      std::filesystem::path(PHAL_TEST_SOURCE_DIR) / "samples" / "models";
  std::vector<std::filesystem::path> files;
  for (const auto& directory : {samples, samples / "jax"}) {
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
      if (entry.path().extension() == ".hlo") files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    std::unique_ptr<HloModule> module = ParseVerified(text.str());
    ASSERT_NE(module, nullptr);
    std::vector<Literal> arguments;
    bool wide = false;
    for (const HloInstruction* parameter :
         module->entry_computation()->parameter_instructions()) {
      const Shape& shape = parameter->shape();
      wide = wide || shape.element_type() == PHAL_ELEMENT_TYPE_F64;
      arguments.push_back(Data(shape.element_type(), shape.dims(),
                               static_cast<int64_t>(arguments.size())));
    }
    if (wide && !Supports(PHAL_ELEMENT_TYPE_F64)) continue;
    ExpectMatchesReference(text.str(), arguments, 50.0);
  }
}

}  // namespace
}  // namespace phal::testing
