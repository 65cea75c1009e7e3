// Helpers for the reference interpreter's tests: run HLO text on literals
// and compare results bit for bit with messages that show both values.
#ifndef POLYHAL_CORE_REFERENCE_INTERPRETER_TEST_UTIL_H_
#define POLYHAL_CORE_REFERENCE_INTERPRETER_TEST_UTIL_H_

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/hlo_parser.h"
#include "core/hlo/literal.h"
#include "core/reference/interpreter.h"

namespace phal::testing {

using namespace ::phal::element_type_names;  // NOLINT(build/namespaces)

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Parses `hlo_text` and evaluates it on `arguments`.
inline StatusOr<Literal> TryEvaluate(std::string_view hlo_text,
                                     const std::vector<Literal>& arguments) {
  StatusOr<std::unique_ptr<HloModule>> module =
      ParseHloText(hlo_text, "test.hlo");
  if (!module.ok()) return module.status();
  return Evaluate(**module, arguments);
}

// As TryEvaluate; a failure fails the test and yields an empty literal.
inline Literal EvaluateText(std::string_view hlo_text,
                            const std::vector<Literal>& arguments = {}) {
  StatusOr<Literal> result = TryEvaluate(hlo_text, arguments);
  EXPECT_TRUE(result.ok()) << result.status().ToString() << "\nin:\n"
                           << hlo_text;
  return result.ok() ? std::move(result).value() : Literal();
}

// A module whose entry applies `op` (with `attributes` appended after the
// operands) to parameters of `operand_shapes`, producing `result_shape`.
inline std::string OpModule(std::string_view op,
                            const std::vector<Shape>& operand_shapes,
                            const Shape& result_shape,
                            std::string_view attributes = "") {
  std::string text = "HloModule test\n\nENTRY main {\n";
  std::string operands;
  for (std::size_t i = 0; i < operand_shapes.size(); ++i) {
    text += "  p" + std::to_string(i) + " = " + operand_shapes[i].ToString() +
            " parameter(" + std::to_string(i) + ")\n";
    operands += (i > 0 ? ", p" : "p") + std::to_string(i);
  }
  text += "  ROOT r = " + result_shape.ToString() + " " + std::string(op) +
          "(" + operands + ")";
  if (!attributes.empty()) text += ", " + std::string(attributes);
  return text + "\n}\n";
}

// Evaluates `op` on `arguments`; the result has `result_shape`.
inline Literal EvaluateOp(std::string_view op,
                          const std::vector<Literal>& arguments,
                          const Shape& result_shape,
                          std::string_view attributes = "") {
  std::vector<Shape> shapes;
  for (const Literal& argument : arguments) shapes.push_back(argument.shape());
  return EvaluateText(OpModule(op, shapes, result_shape, attributes),
                      arguments);
}

// Evaluates an elementwise `op` whose result has the first argument's
// dimensions and `result_type`.
inline Literal EvaluateElementwiseOp(std::string_view op,
                                     const std::vector<Literal>& arguments,
                                     ElementType result_type,
                                     std::string_view attributes = "") {
  return EvaluateOp(op, arguments,
                    Shape(result_type, arguments.back().shape().dims()),
                    attributes);
}

// True when the floating-point (or complex) arrays are bitwise equal
// except that a NaN matches any NaN, whatever its sign and payload.
inline bool SameUpToNaNBits(const Literal& actual, const Literal& expected) {
  const ElementType type = expected.element_type();
  if (!actual.shape().Compatible(expected.shape()) ||
      !(IsFloat(type) || IsComplex(type))) {
    return false;
  }
  for (int64_t i = 0; i < expected.ElementCount(); ++i) {
    const std::complex<double> a = actual.GetAsComplex(i);
    const std::complex<double> e = expected.GetAsComplex(i);
    for (auto [x, y] :
         {std::pair{a.real(), e.real()}, std::pair{a.imag(), e.imag()}}) {
      if (std::isnan(x) && std::isnan(y)) continue;
      if (std::memcmp(&x, &y, sizeof(x)) != 0) return false;
    }
  }
  return true;
}

// Bitwise equality (any NaN matching any NaN) with both values printed on
// failure. Tuples compare element by element.
inline ::testing::AssertionResult SameLiteral(const Literal& actual,
                                              const Literal& expected) {
  if (actual == expected) return ::testing::AssertionSuccess();
  if (expected.IsTuple() && actual.IsTuple() &&
      actual.tuple_elements().size() == expected.tuple_elements().size()) {
    for (std::size_t i = 0; i < expected.tuple_elements().size(); ++i) {
      ::testing::AssertionResult element =
          SameLiteral(actual.tuple_elements()[i], expected.tuple_elements()[i]);
      if (!element) return element << " (tuple element " << i << ")";
    }
    return ::testing::AssertionSuccess();
  }
  if (!expected.IsTuple() && !actual.IsTuple() &&
      SameUpToNaNBits(actual, expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "expected " << expected.shape().ToString() << " "
         << expected.ToString() << "\n     got " << actual.shape().ToString()
         << " " << actual.ToString();
}

template <typename T>
Literal Values(ElementType type, std::vector<int64_t> dims,
               std::initializer_list<T> values) {
  return Literal::FromValues(type, std::move(dims), values);
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_REFERENCE_INTERPRETER_TEST_UTIL_H_
