// Helpers for the compiler's tests: compile HLO text, run it on the
// evaluator device through the executor or on a plugin's device through the
// C API, and compare with the reference interpreter.
#ifndef POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_
#define POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/compiler.h"
#include "core/executor/executor.h"
#include "core/frontend/hlo_parser.h"
#include "core/hlo/literal.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/testing/evaluator_device.h"
#include "core/testing/literal_comparison.h"
#include "polyhal/runtime.h"

namespace phal::testing {

inline std::unique_ptr<HloModule> ParseVerified(const std::string& text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status().ToString();
  if (!module.ok()) return nullptr;
  Status verified = VerifyModule(**module);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  return std::move(module).value();
}

inline std::unique_ptr<Program> CompileText(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return nullptr;
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(std::move(module), CompilerOptions());
  EXPECT_TRUE(program.ok()) << program.status().ToString();
  return program.ok() ? std::move(program).value() : nullptr;
}

inline std::unique_ptr<LoadedProgram> LoadText(const std::string& text) {
  std::unique_ptr<Program> program = CompileText(text);
  if (program == nullptr) return nullptr;
  StatusOr<std::unique_ptr<LoadedProgram>> loaded = LoadedProgram::Load(
      std::move(program), EvaluatorPluginApi(), EvaluatorDevice(), nullptr,
      /*runnable=*/true);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? std::move(loaded).value() : nullptr;
}

// Copies `literal` to a new evaluator buffer.
inline phal_plugin_buffer_t* UploadToEvaluator(const Literal& literal) {
  const phal_plugin_api_t* api = EvaluatorPluginApi();
  phal_plugin_buffer_t* buffer = nullptr;
  api->buffer_allocate(EvaluatorDevice(), 0, literal.byte_size(), &buffer);
  api->stream_copy_from_host(nullptr, literal.data(), buffer, 0,
                             literal.byte_size());
  return buffer;
}

// The values of `loaded`'s result buffers, which are freed.
inline std::vector<Literal> DownloadResults(
    const LoadedProgram& loaded,
    const std::vector<phal_plugin_buffer_t*>& results) {
  const phal_plugin_api_t* api = EvaluatorPluginApi();
  std::vector<Literal> values;
  for (std::size_t i = 0; i < results.size(); ++i) {
    Literal value(loaded.program().result_shapes[i]);
    api->stream_copy_to_host(nullptr, results[i], 0, value.data(),
                             value.byte_size());
    api->buffer_free(results[i]);
    values.push_back(std::move(value));
  }
  return values;
}

// Runs `loaded` on the evaluator device; returns the result leaves.
inline StatusOr<std::vector<Literal>> RunOnDevice(
    const LoadedProgram& loaded, const std::vector<Literal>& arguments) {
  std::vector<phal_plugin_buffer_t*> buffers;
  for (const Literal& argument : arguments) {
    buffers.push_back(UploadToEvaluator(argument));
  }
  StatusOr<std::vector<phal_plugin_buffer_t*>> results =
      loaded.Execute(buffers);
  for (phal_plugin_buffer_t* buffer : buffers) {
    EvaluatorPluginApi()->buffer_free(buffer);
  }
  if (!results.ok()) return results.status();
  return DownloadResults(loaded, *results);
}

// The result leaves of `text` on `arguments` by the reference interpreter;
// none, after a test failure, when it does not parse or evaluate.
inline std::vector<Literal> ReferenceLeaves(
    const std::string& text, const std::vector<Literal>& arguments) {
  std::vector<Literal> leaves;
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return leaves;
  StatusOr<Literal> expected = Evaluate(*module, arguments);
  EXPECT_TRUE(expected.ok()) << expected.status().ToString();
  if (expected.ok()) FlattenLiteral(*expected, &leaves);
  return leaves;
}

// Each result leaf of `text` matches the expected one within `tolerance`.
inline void ExpectLeavesMatch(const std::vector<Literal>& actual,
                              const std::vector<Literal>& expected,
                              double tolerance, const std::string& text) {
  ASSERT_EQ(actual.size(), expected.size()) << "result leaves of\n" << text;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(Matches(actual[i], expected[i], tolerance))
        << "result " << i << " of\n"
        << text;
  }
}

// Compiles `text`, runs it on the evaluator device and compares every
// result with the reference interpreter's.
inline void ExpectMatchesReference(const std::string& text,
                                   const std::vector<Literal>& arguments,
                                   double tolerance = 0.0) {
  const std::vector<Literal> expected = ReferenceLeaves(text, arguments);
  ASSERT_FALSE(expected.empty());
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, expected, tolerance, text);
}

// Deterministic test data: small integers for integer types, values in
// [-2, 2) with fractions for floating types, alternating pred.
inline Literal TestData(ElementType type, std::vector<int64_t> dims,
                        int64_t seed = 0) {
  Literal literal(Shape(type, std::move(dims)));
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    const int64_t n = (i * 7 + seed * 13 + 3) % 17;
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      literal.SetFromInt64(i, (i + seed) % 3 == 0);
    } else if (IsIntegral(type)) {
      literal.SetFromInt64(i, IsUnsigned(type) ? n : n - 8);
    } else {
      literal.SetFromDouble(i, (static_cast<double>(n) - 8.5) / 4.0);
    }
  }
  return literal;
}

// y = x + x over f32[16]: the smallest module that launches a kernel.
inline constexpr char kDoublingModule[] =
    "HloModule doubling\n"
    "ENTRY main {\n"
    "  x = f32[16] parameter(0)\n"
    "  ROOT y = f32[16] add(x, x)\n"
    "}\n";

// A while loop of 3000 iterations adding 0.25 to each element of its
// f32[4] argument: the host reads the predicate back once per iteration,
// and sums of quarters stay exact.
inline constexpr char kCountingLoopModule[] = R"(
HloModule loop
cond {
  p = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(3000)
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
}
)";

// One kernel of each of the gather, scatter and sort kinds: rows of a
// table gathered, and scatter-added, at repeated and out-of-bounds indices
// (clamped by the gather, skipped by the scatter), and the table's
// negation sorted stably along with an iota. Its arguments are
// GatherScatterSortArguments().
inline constexpr char kGatherScatterSortModule[] = R"(
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
  k = f32[6,4] negate(table)
  iota = s32[6,4] iota(), iota_dimension=0
  sorted = (f32[6,4], s32[6,4]) sort(k, iota), dimensions={0}, is_stable=true, to_apply=less
  sk = f32[6,4] get-tuple-element(sorted), index=0
  sv = s32[6,4] get-tuple-element(sorted), index=1
  ROOT t = (f32[5,4], f32[6,4], f32[6,4], s32[6,4]) tuple(g, s, sk, sv)
}
)";

inline std::vector<Literal> GatherScatterSortArguments() {
  return {TestData(PHAL_ELEMENT_TYPE_F32, {6, 4}, 0),
          Literal::FromValues<int64_t>(PHAL_ELEMENT_TYPE_S32, {5, 1},
                                       {3, 0, 9, -2, 3}),
          TestData(PHAL_ELEMENT_TYPE_F32, {5, 4}, 1)};
}

// A client of the build tree's plugin manifests that keeps only `plugin`,
// and that plugin's first device. Where there is none (the plugin is not in
// this build, was skipped, or finds no device on this machine) device() is
// NULL and absence() says why.
class PluginDevice {
 public:
  explicit PluginDevice(const std::string& plugin) {
    const std::string path =
        std::string(PHAL_TEST_BUILD_DIR) + "/share/polyhal/plugins.d";
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_path = path.c_str();
    options.plugin_filter = plugin.c_str();
    phal_status_t* status = phal_client_create(&options, &client_);
    if (status != nullptr) {
      absence_ = std::string("no client: ") + phal_status_get_message(status);
      phal_status_free(status);
      return;
    }
    absence_ = "plugin '" + plugin + "' is not in this build";
    size_t plugins = 0;
    phal_status_free(phal_client_get_plugin_count(client_, &plugins));
    for (size_t i = 0; i < plugins; ++i) {
      phal_plugin_info_t info{};
      info.struct_size = sizeof(info);
      phal_status_free(phal_client_get_plugin_info(client_, i, &info));
      if (plugin != info.name) continue;
      absence_ = "plugin '" + plugin + "' " +
                 (info.state == PHAL_PLUGIN_STATE_SKIPPED ? "was skipped: "
                                                          : "has no device: ") +
                 info.reason;
    }
    size_t devices = 0;
    phal_status_free(phal_client_get_device_count(client_, &devices));
    if (devices == 0) return;
    phal_status_free(phal_client_get_device(client_, 0, &device_));
    if (device_ != nullptr) absence_.clear();
  }
  ~PluginDevice() { phal_client_destroy(client_); }
  PluginDevice(const PluginDevice&) = delete;
  PluginDevice& operator=(const PluginDevice&) = delete;

  phal_device_t* device() const { return device_; }
  const std::string& absence() const { return absence_; }

 private:
  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
  std::string absence_;
};

// Process k's arguments: TestData of each shape, seeded by k and the
// parameter, so that every process holds different values.
inline std::vector<std::vector<Literal>> ProcessArguments(
    const Program& program, int64_t processes) {
  std::vector<std::vector<Literal>> arguments;
  for (int64_t k = 0; k < processes; ++k) {
    std::vector<Literal>& mine = arguments.emplace_back();
    for (std::size_t p = 0; p < program.parameter_shapes.size(); ++p) {
      const Shape& shape = program.parameter_shapes[p];
      mine.push_back(TestData(shape.element_type(), shape.dims(),
                              k * 5 + static_cast<int64_t>(p)));
    }
  }
  return arguments;
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_
