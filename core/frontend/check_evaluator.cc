#include "core/frontend/check_evaluator.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace phal {
namespace {

// One real component of an element: the element itself, or the real (0) or
// imaginary (1) part of a complex element.
struct Component {
  double value;
  uint64_t bits;
  int bit_width;
};

Component ComponentOf(const Literal& literal, int64_t index, int part) {
  const ElementType type = literal.element_type();
  const bool complex = IsComplex(type);
  const std::size_t element_size = ElementTypeByteSize(type);
  const std::size_t size = complex ? element_size / 2 : element_size;
  const std::size_t offset = static_cast<std::size_t>(index) * element_size +
                             static_cast<std::size_t>(part) * size;
  Component component{0, 0, static_cast<int>(8 * size)};
  std::memcpy(&component.bits, literal.data() + offset, size);
  if (complex) {
    const std::complex<double> value = literal.GetAsComplex(index);
    component.value = part == 0 ? value.real() : value.imag();
  } else {
    component.value = literal.GetAsDouble(index);
  }
  return component;
}

// The number of representable values between two finite floats of the
// same format: their bit patterns mapped onto a monotonic integer line.
double UlpDistance(const Component& a, const Component& b) {
  const auto ordered = [](const Component& c) {
    const uint64_t sign = uint64_t{1} << (c.bit_width - 1);
    const uint64_t magnitude = c.bits & (sign - 1);
    return (c.bits & sign) != 0 ? -static_cast<double>(magnitude)
                                : static_cast<double>(magnitude);
  };
  return std::fabs(ordered(a) - ordered(b));
}

std::string Number(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.9g", value);
  return buffer;
}

std::string ElementText(const Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (IsComplex(type)) {
    const std::complex<double> value = literal.GetAsComplex(index);
    return "(" + Number(value.real()) + ", " + Number(value.imag()) + ")";
  }
  if (IsFloat(type)) return Number(literal.GetAsDouble(index));
  if (type == PHAL_ELEMENT_TYPE_U64) {
    return std::to_string(static_cast<uint64_t>(literal.GetAsInt64(index)));
  }
  if (type == PHAL_ELEMENT_TYPE_PRED)
    return literal.GetAsInt64(index) != 0 ? "true" : "false";
  return std::to_string(literal.GetAsInt64(index));
}

// The error of one element under `check`, and whether it is acceptable.
struct ElementVerdict {
  bool ok;
  double error;
};

ElementVerdict CompareFloatComponent(const CheckSpec& check, const Component& a,
                                     const Component& b) {
  const bool a_nan = std::isnan(a.value);
  const bool b_nan = std::isnan(b.value);
  if (check.kind == CheckKind::kEqual) {
    const bool ok = a.bits == b.bits;
    return {ok, ok ? 0
                   : (a_nan || b_nan ? std::numeric_limits<double>::infinity()
                                     : std::fabs(a.value - b.value))};
  }
  if (a_nan || b_nan) {
    const bool ok = a_nan && b_nan;
    return {ok, ok ? 0 : std::numeric_limits<double>::infinity()};
  }
  if (std::isinf(a.value) || std::isinf(b.value)) {
    const bool ok = a.value == b.value;
    return {ok, ok ? 0 : std::numeric_limits<double>::infinity()};
  }
  if (check.kind == CheckKind::kAlmostEqual) {
    const double error = std::fabs(a.value - b.value);
    return {error <= check.tolerance, error};
  }
  const double distance = UlpDistance(a, b);
  return {distance >= static_cast<double>(check.min_ulp_difference) &&
              distance <= static_cast<double>(check.max_ulp_difference),
          distance};
}

ElementVerdict CompareElement(const CheckSpec& check, const Literal& actual,
                              const Literal& expected, int64_t index) {
  const ElementType type = actual.element_type();
  if (!IsFloat(type) && !IsComplex(type)) {
    const int64_t a = actual.GetAsInt64(index);
    const int64_t b = expected.GetAsInt64(index);
    const double error =
        std::fabs(static_cast<double>(a) - static_cast<double>(b));
    return {a == b, error};
  }
  ElementVerdict verdict{true, 0};
  for (int part = 0; part < (IsComplex(type) ? 2 : 1); ++part) {
    const ElementVerdict component =
        CompareFloatComponent(check, ComponentOf(actual, index, part),
                              ComponentOf(expected, index, part));
    verdict.ok = verdict.ok && component.ok;
    verdict.error = std::max(verdict.error, component.error);
  }
  return verdict;
}

}  // namespace

CheckResult EvaluateCheck(const CheckSpec& check, const Literal& actual,
                          const Literal& expected) {
  CheckResult result;
  result.check = &check;
  if (check.kind == CheckKind::kSkipped) {
    result.passed = true;
    result.skipped = true;
    result.detail = check.skip_reason;
    return result;
  }
  if (actual.IsTuple() || expected.IsTuple() ||
      !actual.shape().Compatible(expected.shape())) {
    result.max_error = std::numeric_limits<double>::infinity();
    result.detail = "shapes differ: actual " + actual.shape().ToString() +
                    ", expected " + expected.shape().ToString();
    return result;
  }
  result.passed = true;
  for (int64_t i = 0; i < actual.ElementCount(); ++i) {
    const ElementVerdict verdict = CompareElement(check, actual, expected, i);
    result.max_error = std::max(result.max_error, verdict.error);
    if (!verdict.ok && result.passed) {
      result.passed = false;
      result.detail = "element " + std::to_string(i) + ": actual " +
                      ElementText(actual, i) + ", expected " +
                      ElementText(expected, i);
    }
  }
  return result;
}

std::vector<Literal> SplitFunctionOutputs(const StableHloFunction& function,
                                          Literal result) {
  if (!function.returns_tuple) {
    std::vector<Literal> outputs;
    outputs.push_back(std::move(result));
    return outputs;
  }
  return std::move(result.mutable_tuple_elements());
}

std::vector<CheckResult> EvaluateChecks(const StableHloFunction& function,
                                        const std::vector<Literal>& outputs) {
  std::vector<CheckResult> results;
  const auto output = [&](int64_t index) -> const Literal* {
    if (index < 0 || index >= static_cast<int64_t>(outputs.size()))
      return nullptr;
    return &outputs[static_cast<std::size_t>(index)];
  };
  for (const CheckSpec& check : function.checks) {
    if (check.kind == CheckKind::kSkipped) {
      results.push_back(EvaluateCheck(check, Literal(), Literal()));
      continue;
    }
    const Literal* actual = output(check.actual_output);
    const Literal* expected = check.expected.has_value()
                                  ? &*check.expected
                                  : output(check.expected_output);
    if (actual == nullptr || expected == nullptr) {
      CheckResult missing;
      missing.check = &check;
      missing.max_error = std::numeric_limits<double>::infinity();
      missing.detail = "the run did not produce the checked output";
      results.push_back(std::move(missing));
      continue;
    }
    results.push_back(EvaluateCheck(check, *actual, *expected));
  }
  return results;
}

std::string DescribeCheckResult(const CheckResult& result) {
  const CheckSpec& check = *result.check;
  std::string text =
      check.function + ": " + check.op_name + " at " + check.location;
  if (result.skipped) return text + ": skipped (" + result.detail + ")";
  text += ": max error " + Number(result.max_error);
  if (!result.detail.empty()) text += " (" + result.detail + ")";
  return text;
}

}  // namespace phal
