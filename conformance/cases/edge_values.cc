#include "conformance/cases/edge_values.h"

#include <cmath>
#include <limits>

namespace phal::conformance {
namespace {

struct FloatFormat {
  int precision;  // significand bits, the implicit one included
  int max_exponent;
  int min_exponent;  // of the smallest normal number
};

FloatFormat FormatOf(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
      return {11, 15, -14};
    case PHAL_ELEMENT_TYPE_BF16:
      return {8, 127, -126};
    case PHAL_ELEMENT_TYPE_F32:
      return {24, 127, -126};
    default:
      return {53, 1023, -1022};
  }
}

}  // namespace

std::vector<double> FloatEdgeValues(ElementType type) {
  const FloatFormat format = FormatOf(type);
  const double max = (2.0 - std::ldexp(1.0, 1 - format.precision)) *
                     std::ldexp(1.0, format.max_exponent);
  const double min_normal = std::ldexp(1.0, format.min_exponent);
  const double min_subnormal =
      std::ldexp(1.0, format.min_exponent + 1 - format.precision);
  const double epsilon = std::ldexp(1.0, 1 - format.precision);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {nan,
          inf,
          -inf,
          0.0,
          -0.0,
          1.0,
          -1.0,
          0.5,
          -2.5,
          3.0,
          1.0 + epsilon,
          max,
          -max,
          min_normal,
          -min_normal,
          min_subnormal,
          -min_subnormal,
          min_normal - min_subnormal,
          100.0,
          -0.75};
}

std::vector<int64_t> IntegerEdgeValues(ElementType type) {
  if (type == PHAL_ELEMENT_TYPE_PRED) return {0, 1};
  const int bits = ElementTypeBitWidth(type);
  const int64_t width = bits;
  if (IsUnsigned(type)) {
    const uint64_t max = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    const uint64_t top = uint64_t{1} << (bits - 1);
    return {0,
            1,
            2,
            3,
            width - 1,
            width,
            static_cast<int64_t>(max),
            static_cast<int64_t>(max - 1),
            static_cast<int64_t>(top),
            static_cast<int64_t>(top - 1),
            static_cast<int64_t>(max / 3)};
  }
  const int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max()
                                 : (int64_t{1} << (bits - 1)) - 1;
  const int64_t min = -max - 1;
  return {0,     1,   -1,      2,   -2,      3,      width - 1,
          width, max, max - 1, min, min + 1, max / 3};
}

std::vector<std::complex<double>> ComplexEdgeValues(ElementType type) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double max = FloatEdgeValues(ComplexComponentType(type))[11];
  return {{0.0, 0.0},   {-0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0},
          {-1.0, -1.0}, {0.5, -2.5}, {inf, 0.0}, {0.0, -inf},
          {nan, 0.0},   {1.0, nan},  {max, 1.0}, {3.0, 4.0}};
}

int64_t EdgeValueCount(ElementType type) {
  if (IsComplex(type)) {
    return static_cast<int64_t>(ComplexEdgeValues(type).size());
  }
  if (IsFloat(type)) return static_cast<int64_t>(FloatEdgeValues(type).size());
  return static_cast<int64_t>(IntegerEdgeValues(type).size());
}

}  // namespace phal::conformance
