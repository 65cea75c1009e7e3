#include "conformance/runner/tolerance.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

namespace phal::conformance {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

// The real type whose ulps and eps measure a result of `type`.
ElementType ComponentType(ElementType type) {
  return IsComplex(type) ? ComplexComponentType(type) : type;
}

double Epsilon(ElementType type) {
  switch (ComponentType(type)) {
    case PHAL_ELEMENT_TYPE_F16:
      return std::ldexp(1.0, -10);
    case PHAL_ELEMENT_TYPE_BF16:
      return std::ldexp(1.0, -7);
    case PHAL_ELEMENT_TYPE_F32:
      return std::ldexp(1.0, -23);
    default:
      return std::ldexp(1.0, -52);
  }
}

double AccumulationTolerance(const ToleranceSpec& tolerance, ElementType type) {
  return static_cast<double>(tolerance.accumulation_length + 2) * Epsilon(type);
}

// The raw bits of float component `part` (0 real, 1 imaginary) of element
// `index`, as a signed integer whose order is the floats' order, with both
// zeros at 0.
int64_t OrderedBits(const Literal& literal, int64_t index, int part) {
  const ElementType component = ComponentType(literal.element_type());
  const auto width = static_cast<int64_t>(ElementTypeByteSize(component));
  const int64_t parts = IsComplex(literal.element_type()) ? 2 : 1;
  uint64_t bits = 0;
  std::memcpy(&bits, literal.data() + (index * parts + part) * width,
              static_cast<std::size_t>(width));
  const uint64_t sign = uint64_t{1} << (width * 8 - 1);
  const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) != 0 ? -magnitude : magnitude;
}

bool BytesEqual(const Literal& a, const Literal& b, int64_t index) {
  const std::size_t width = ElementTypeByteSize(a.element_type());
  return std::memcmp(a.data() + index * static_cast<int64_t>(width),
                     b.data() + index * static_cast<int64_t>(width),
                     width) == 0;
}

std::complex<double> Component(const Literal& literal, int64_t index) {
  return IsComplex(literal.element_type())
             ? literal.GetAsComplex(index)
             : std::complex<double>(literal.GetAsDouble(index), 0.0);
}

bool IsFiniteComplex(std::complex<double> value) {
  return std::isfinite(value.real()) && std::isfinite(value.imag());
}

// A complex result with a non-finite part is matched by any complex result
// with a non-finite part: which parts come out infinite or NaN depends on
// whether an implementation recovers infinities (C99 Annex G) and how wide
// its intermediates are, which the specification leaves open.
bool ComplexSpecialValuesAgree(std::complex<double> expected,
                               std::complex<double> actual) {
  return IsFiniteComplex(expected) == IsFiniteComplex(actual);
}

// NaN meets NaN, an infinity the same infinity, finite meets finite.
// Returns false when `expected` and `actual` break that rule.
bool SpecialValuesAgree(double expected, double actual) {
  if (std::isnan(expected) || std::isnan(actual)) {
    return std::isnan(expected) && std::isnan(actual);
  }
  if (std::isinf(expected) || std::isinf(actual)) return expected == actual;
  return true;
}

struct ElementError {
  double error = 0;  // in the bound's unit
  bool passed = true;
  std::string text;
};

std::string FormatNumber(double value) {
  char text[48];
  std::snprintf(text, sizeof(text), "%.3g", value);
  return text;
}

ElementError ExactError(const Literal& expected, const Literal& actual,
                        int64_t index) {
  if (BytesEqual(expected, actual, index)) return {};
  const ElementType type = expected.element_type();
  if (!IsFloat(type) && !IsComplex(type)) return {1, false, "bits differ"};
  // The bytes differ; the element still matches when every part that
  // differs is NaN on both sides.
  const std::complex<double> e = Component(expected, index);
  const std::complex<double> a = Component(actual, index);
  auto same = [](double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  };
  const bool real_ok = same(e.real(), a.real());
  const bool imag_ok = same(e.imag(), a.imag());
  if (real_ok && imag_ok) return {};
  return {1, false, "bits differ"};
}

double UlpDistance(const Literal& expected, const Literal& actual,
                   int64_t index, int part) {
  const int64_t e = OrderedBits(expected, index, part);
  const int64_t a = OrderedBits(actual, index, part);
  // In long double (64-bit mantissa on x86-64 and AArch64 Linux): f64 bit
  // patterns reach 2^63, where doubles are 1024 apart and would turn one
  // ulp into 1024.
  return static_cast<double>(
      std::fabs(static_cast<long double>(e) - static_cast<long double>(a)));
}

// The verdict on an element where special values (NaN, infinities)
// decide: a mismatch fails and agreeing non-finite complex values pass;
// nullopt when the error is to be measured.
std::optional<ElementError> SpecialValueVerdict(ElementType type,
                                                std::complex<double> e,
                                                std::complex<double> a) {
  if (IsComplex(type)) {
    if (!ComplexSpecialValuesAgree(e, a)) {
      return ElementError{kInfinite, false, "special value differs"};
    }
    if (!IsFiniteComplex(e)) return ElementError{};
  } else if (!SpecialValuesAgree(e.real(), a.real())) {
    return ElementError{kInfinite, false, "special value differs"};
  }
  return std::nullopt;
}

ElementError UlpError(const Literal& expected, const Literal& actual,
                      int64_t index, int ulps) {
  const std::complex<double> e = Component(expected, index);
  const std::complex<double> a = Component(actual, index);
  if (std::optional<ElementError> verdict =
          SpecialValueVerdict(expected.element_type(), e, a)) {
    return *verdict;
  }
  double distance = 0;
  const int parts = IsComplex(expected.element_type()) ? 2 : 1;
  for (int part = 0; part < parts; ++part) {
    const double value = part == 0 ? e.real() : e.imag();
    if (std::isnan(value) || std::isinf(value)) continue;
    distance = std::max(distance, UlpDistance(expected, actual, index, part));
  }
  return {distance, distance <= ulps, FormatNumber(distance) + " ulp"};
}

// The largest finite magnitude in `literal`, at least 1: the scale of the
// terms an accumulation's absolute error is measured against.
double ResultScale(const Literal& literal) {
  double scale = 1;
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    const double magnitude = std::abs(Component(literal, i));
    if (std::isfinite(magnitude)) scale = std::max(scale, magnitude);
  }
  return scale;
}

ElementError AccumulationError(const Literal& expected, const Literal& actual,
                               int64_t index, double tolerance, double scale) {
  const std::complex<double> e = Component(expected, index);
  const std::complex<double> a = Component(actual, index);
  if (std::optional<ElementError> verdict =
          SpecialValueVerdict(expected.element_type(), e, a)) {
    return *verdict;
  }
  auto finite_part = [](double value) {
    return std::isfinite(value) ? value : 0.0;
  };
  const std::complex<double> fe(finite_part(e.real()), finite_part(e.imag()));
  const std::complex<double> fa(finite_part(a.real()), finite_part(a.imag()));
  const double absolute = std::abs(fa - fe);
  const double magnitude = std::abs(fe);
  const double relative = magnitude > 0 ? absolute / magnitude : absolute;
  const double error = std::min(absolute / scale, relative);
  return {error, error <= tolerance,
          "abs " + FormatNumber(absolute) + " rel " + FormatNumber(relative)};
}

ElementError ElementErrorOf(const Literal& expected, const Literal& actual,
                            int64_t index, const ToleranceSpec& tolerance,
                            double scale) {
  const ElementType type = expected.element_type();
  const bool real_or_complex = IsFloat(type) || IsComplex(type);
  if (!real_or_complex || tolerance.kind == ToleranceKind::kExact) {
    return ExactError(expected, actual, index);
  }
  if (tolerance.kind == ToleranceKind::kUlp) {
    return UlpError(expected, actual, index, tolerance.ulps);
  }
  return AccumulationError(expected, actual, index,
                           AccumulationTolerance(tolerance, type), scale);
}

}  // namespace

std::string DescribeBound(const ToleranceSpec& tolerance, ElementType type) {
  const bool real_or_complex = IsFloat(type) || IsComplex(type);
  if (!real_or_complex || tolerance.kind == ToleranceKind::kExact) {
    return "exact";
  }
  if (tolerance.kind == ToleranceKind::kUlp) {
    return std::to_string(tolerance.ulps) + " ulp";
  }
  return "abs or rel " + FormatNumber(AccumulationTolerance(tolerance, type)) +
         " (" + std::to_string(tolerance.accumulation_length) + " terms)";
}

std::string FormatElement(const Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  char text[96];
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    return literal.GetAsInt64(index) != 0 ? "true" : "false";
  }
  if (IsUnsigned(type)) {
    std::snprintf(text, sizeof(text), "%" PRIu64,
                  static_cast<uint64_t>(literal.GetAsInt64(index)));
    return text;
  }
  if (IsSigned(type)) {
    std::snprintf(text, sizeof(text), "%" PRId64, literal.GetAsInt64(index));
    return text;
  }
  if (IsComplex(type)) {
    const std::complex<double> value = literal.GetAsComplex(index);
    std::snprintf(text, sizeof(text), "(%.17g%+.17gj)", value.real(),
                  value.imag());
    return text;
  }
  std::snprintf(text, sizeof(text), "%.17g", literal.GetAsDouble(index));
  return text;
}

std::string FormatPosition(const std::vector<int64_t>& dims, int64_t index) {
  std::vector<int64_t> position(dims.size(), 0);
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (dims[d] == 0) break;
    position[d] = index % dims[d];
    index /= dims[d];
  }
  std::string text = "[";
  for (std::size_t d = 0; d < position.size(); ++d) {
    text += (d == 0 ? "" : ",") + std::to_string(position[d]);
  }
  return text + "]";
}

Comparison CompareResults(const std::vector<const Literal*>& expected,
                          const std::vector<const Literal*>& actual,
                          const ToleranceSpec& tolerance) {
  Comparison comparison;
  if (expected.empty()) return comparison;
  comparison.bound = DescribeBound(tolerance, expected.front()->element_type());
  if (expected.size() != actual.size()) {
    comparison.passed = false;
    comparison.error = kInfinite;
    comparison.message =
        "the plugin returned " + std::to_string(actual.size()) +
        " results, the reference " + std::to_string(expected.size());
    return comparison;
  }
  std::vector<std::pair<double, ElementMismatch>> mismatches;
  for (std::size_t leaf = 0; leaf < expected.size(); ++leaf) {
    const Literal& e = *expected[leaf];
    const Literal& a = *actual[leaf];
    if (e.shape() != a.shape()) {
      comparison.passed = false;
      comparison.error = kInfinite;
      comparison.message = "result " + std::to_string(leaf) + " is " +
                           a.shape().ToString() + ", the reference's " +
                           e.shape().ToString();
      return comparison;
    }
    const double scale =
        tolerance.kind == ToleranceKind::kAccumulation ? ResultScale(e) : 1.0;
    for (int64_t i = 0; i < e.ElementCount(); ++i) {
      const ElementError element = ElementErrorOf(e, a, i, tolerance, scale);
      if (tolerance.kind == ToleranceKind::kExact ||
          (!IsFloat(e.element_type()) && !IsComplex(e.element_type()))) {
        comparison.error += element.passed ? 0 : 1;
      } else {
        comparison.error = std::max(comparison.error, element.error);
      }
      if (element.passed) continue;
      comparison.passed = false;
      mismatches.push_back({element.error,
                            {static_cast<int64_t>(leaf),
                             i,
                             FormatPosition(e.shape().dims(), i),
                             FormatElement(e, i),
                             FormatElement(a, i),
                             element.text,
                             {}}});
    }
  }
  std::stable_sort(
      mismatches.begin(), mismatches.end(),
      [](const auto& x, const auto& y) { return x.first > y.first; });
  for (std::size_t i = 0; i < mismatches.size() && i < kMaxMismatches; ++i) {
    comparison.worst.push_back(std::move(mismatches[i].second));
  }
  return comparison;
}

}  // namespace phal::conformance
