// Helpers for the compiler's tests: compile HLO text, run it on the
// evaluator device through the executor or on a plugin's device through the
// C API, and compare with the reference interpreter.
#ifndef POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_
#define POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_

#include <cmath>
#include <cstring>
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
      std::move(program), EvaluatorPluginApi(), EvaluatorDevice(), nullptr);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? std::move(loaded).value() : nullptr;
}

// Runs `loaded` on the evaluator device; returns the result leaves.
inline StatusOr<std::vector<Literal>> RunOnDevice(
    const LoadedProgram& loaded, const std::vector<Literal>& arguments) {
  const phal_plugin_api_t* api = EvaluatorPluginApi();
  std::vector<phal_plugin_buffer_t*> buffers;
  for (const Literal& argument : arguments) {
    phal_plugin_buffer_t* buffer = nullptr;
    api->buffer_allocate(EvaluatorDevice(), 0, argument.byte_size(), &buffer);
    api->stream_copy_from_host(nullptr, argument.data(), buffer, 0,
                               argument.byte_size());
    buffers.push_back(buffer);
  }
  StatusOr<std::vector<phal_plugin_buffer_t*>> results =
      loaded.Execute(buffers);
  for (phal_plugin_buffer_t* buffer : buffers) api->buffer_free(buffer);
  if (!results.ok()) return results.status();
  std::vector<Literal> values;
  for (std::size_t i = 0; i < results->size(); ++i) {
    Literal value(loaded.program().result_shapes[i]);
    api->stream_copy_to_host(nullptr, (*results)[i], 0, value.data(),
                             value.byte_size());
    api->buffer_free((*results)[i]);
    values.push_back(std::move(value));
  }
  return values;
}

inline void FlattenLiteral(const Literal& literal, std::vector<Literal>* out) {
  if (!literal.IsTuple()) {
    out->push_back(literal);
    return;
  }
  for (const Literal& element : literal.tuple_elements()) {
    FlattenLiteral(element, out);
  }
}

// Equal bit for bit (any NaN matching any NaN), or for floating types
// within `tolerance` relative to max(1, |expected|).
inline ::testing::AssertionResult Matches(const Literal& actual,
                                          const Literal& expected,
                                          double tolerance) {
  if (!actual.shape().Compatible(expected.shape())) {
    return ::testing::AssertionFailure()
           << "shape " << actual.shape().ToString() << " vs "
           << expected.shape().ToString();
  }
  const ElementType type = expected.element_type();
  const bool numeric_compare = IsFloat(type) || IsComplex(type);
  for (int64_t i = 0; i < expected.ElementCount(); ++i) {
    if (!numeric_compare) {
      const std::size_t size = ElementTypeByteSize(type);
      if (std::memcmp(actual.data() + i * size, expected.data() + i * size,
                      size) != 0) {
        return ::testing::AssertionFailure()
               << "element " << i << ": " << actual.GetAsInt64(i) << " vs "
               << expected.GetAsInt64(i) << "\nactual " << actual.ToString()
               << "\nexpected " << expected.ToString();
      }
      continue;
    }
    const std::complex<double> a = actual.GetAsComplex(i);
    const std::complex<double> e = expected.GetAsComplex(i);
    for (auto [x, y] :
         {std::pair{a.real(), e.real()}, std::pair{a.imag(), e.imag()}}) {
      if (std::isnan(x) && std::isnan(y)) continue;
      if (x == y) continue;
      if (std::abs(x - y) <= tolerance * std::max(1.0, std::abs(y))) continue;
      return ::testing::AssertionFailure()
             << "element " << i << ": " << x << " vs " << y << "\nactual "
             << actual.ToString() << "\nexpected " << expected.ToString();
    }
  }
  return ::testing::AssertionSuccess();
}

// Compiles `text`, runs it on the evaluator device and compares every
// result with the reference interpreter's.
inline void ExpectMatchesReference(const std::string& text,
                                   const std::vector<Literal>& arguments,
                                   double tolerance = 0.0) {
  std::unique_ptr<HloModule> reference_module = ParseVerified(text);
  ASSERT_NE(reference_module, nullptr);
  StatusOr<Literal> expected = Evaluate(*reference_module, arguments);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, arguments);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  std::vector<Literal> expected_leaves;
  FlattenLiteral(*expected, &expected_leaves);
  ASSERT_EQ(actual->size(), expected_leaves.size());
  for (std::size_t i = 0; i < expected_leaves.size(); ++i) {
    EXPECT_TRUE(Matches((*actual)[i], expected_leaves[i], tolerance))
        << "result " << i << " of\n"
        << text;
  }
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

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_COMPILER_TEST_UTIL_H_
