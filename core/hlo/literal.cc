#include "core/hlo/literal.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <utility>

#include "sdk/base/float16.h"

namespace phal {
namespace {

template <typename T>
T Load(const uint8_t* data, int64_t index) {
  T value;
  std::memcpy(&value, data + index * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return value;
}

template <typename T>
void Store(uint8_t* data, int64_t index, T value) {
  std::memcpy(data + index * static_cast<int64_t>(sizeof(T)), &value,
              sizeof(T));
}

// Keeps the low bits of `value` in a narrower integer: conversion to an
// unsigned type is modular, and unsigned to signed is modular since C++20.
template <typename T>
T WrapToInteger(int64_t value) {
  using Unsigned = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<Unsigned>(static_cast<uint64_t>(value)));
}

// Shortest decimal text that reads back to the same value of `type`.
std::string ShortestFloatText(double value, ElementType type) {
  char buffer[64];
  if (type == PHAL_ELEMENT_TYPE_F64) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, result.ptr);
  }
  if (type == PHAL_ELEMENT_TYPE_F32) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer),
                                static_cast<float>(value));
    return std::string(buffer, result.ptr);
  }
  const auto narrow = [type](double v) {
    return type == PHAL_ELEMENT_TYPE_F16 ? DoubleToHalf(v)
                                         : DoubleToBFloat16(v);
  };
  for (int precision = 1; precision < 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (narrow(std::strtod(buffer, nullptr)) == narrow(value)) break;
  }
  return buffer;
}

// numpy spells special values "nan"/"inf" and writes a trailing point on
// integral floats ("1.", "1.e+20").
std::string NumpyFloatText(double value, ElementType type) {
  if (value != value) return "nan";
  if (value == std::numeric_limits<double>::infinity()) return "inf";
  if (value == -std::numeric_limits<double>::infinity()) return "-inf";
  std::string text = ShortestFloatText(value, type);
  if (text.find('.') != std::string::npos) return text;
  const std::size_t exponent = text.find('e');
  if (exponent == std::string::npos) return text + ".";
  return text.insert(exponent, ".");
}

std::string ElementText(const Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    return literal.GetAsInt64(index) != 0 ? "True" : "False";
  }
  if (IsSigned(type)) return std::to_string(literal.GetAsInt64(index));
  if (IsUnsigned(type)) {
    return std::to_string(static_cast<uint64_t>(literal.GetAsInt64(index)));
  }
  if (IsFloat(type)) return NumpyFloatText(literal.GetAsDouble(index), type);
  const std::complex<double> value = literal.GetAsComplex(index);
  const ElementType component = ComplexComponentType(type);
  std::string imaginary = NumpyFloatText(value.imag(), component);
  if (imaginary[0] != '-') imaginary.insert(0, "+");
  return NumpyFloatText(value.real(), component) + imaginary + "j";
}

// Lines up positional float texts on their decimal points as numpy does
// ("[ 1.   0.1 -2.5]"); nan and inf are right-aligned to the common width.
// Texts in scientific notation are left as they are.
void AlignDecimalPoints(std::vector<std::string>* texts) {
  std::size_t integer_width = 0, fraction_width = 0;
  for (const std::string& text : *texts) {
    if (text.find('e') != std::string::npos) return;
    const std::size_t point = text.find('.');
    if (point == std::string::npos) continue;
    integer_width = std::max(integer_width, point);
    fraction_width = std::max(fraction_width, text.size() - point - 1);
  }
  const std::size_t width = integer_width + 1 + fraction_width;
  for (std::string& text : *texts) {
    const std::size_t point = text.find('.');
    if (point == std::string::npos) {
      if (text.size() < width) text.insert(0, width - text.size(), ' ');
      continue;
    }
    text.insert(0, integer_width - point, ' ');
    text.append(width - text.size(), ' ');
  }
}

// Appends the sub-array of `dims` starting at `depth`, whose first element
// is `*next`, the way numpy nests brackets and line breaks.
void AppendNested(const std::vector<std::string>& texts, std::size_t width,
                  const std::vector<int64_t>& dims, std::size_t depth,
                  std::size_t* next, std::string* out) {
  out->push_back('[');
  const int64_t count = dims[depth];
  const bool innermost = depth + 1 == dims.size();
  for (int64_t i = 0; i < count; ++i) {
    if (i > 0) {
      if (innermost) {
        out->push_back(' ');
      } else {
        out->append(dims.size() - depth - 1, '\n');
        out->append(depth + 1, ' ');
      }
    }
    if (innermost) {
      const std::string& text = texts[(*next)++];
      out->append(width - text.size(), ' ');
      out->append(text);
    } else {
      AppendNested(texts, width, dims, depth + 1, next, out);
    }
  }
  out->push_back(']');
}

}  // namespace

Literal::Literal(const Shape& shape) : shape_(shape) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      elements_.emplace_back(element);
    }
    return;
  }
  bytes_.assign(static_cast<std::size_t>(shape.ByteSize()), 0);
}

Literal Literal::Tuple(std::vector<Literal> elements) {
  std::vector<Shape> shapes;
  shapes.reserve(elements.size());
  for (const Literal& element : elements) shapes.push_back(element.shape());
  Literal tuple;
  tuple.shape_ = Shape::Tuple(std::move(shapes));
  tuple.elements_ = std::move(elements);
  return tuple;
}

bool Literal::operator==(const Literal& other) const {
  return shape_.Compatible(other.shape_) && bytes_ == other.bytes_ &&
         elements_ == other.elements_;
}

double Literal::GetAsDouble(int64_t index) const {
  const uint8_t* p = bytes_.data();
  switch (element_type()) {
    case PHAL_ELEMENT_TYPE_F16:
      return HalfToFloat(Load<uint16_t>(p, index));
    case PHAL_ELEMENT_TYPE_BF16:
      return BFloat16ToFloat(Load<uint16_t>(p, index));
    case PHAL_ELEMENT_TYPE_F32:
      return Load<float>(p, index);
    case PHAL_ELEMENT_TYPE_F64:
      return Load<double>(p, index);
    case PHAL_ELEMENT_TYPE_C64:
    case PHAL_ELEMENT_TYPE_C128:
      return GetAsComplex(index).real();
    case PHAL_ELEMENT_TYPE_U64:
      return static_cast<double>(Load<uint64_t>(p, index));
    default:
      return static_cast<double>(GetAsInt64(index));
  }
}

int64_t Literal::GetAsInt64(int64_t index) const {
  const uint8_t* p = bytes_.data();
  switch (element_type()) {
    case PHAL_ELEMENT_TYPE_PRED:
    case PHAL_ELEMENT_TYPE_U8:
      return Load<uint8_t>(p, index);
    case PHAL_ELEMENT_TYPE_S8:
      return Load<int8_t>(p, index);
    case PHAL_ELEMENT_TYPE_S16:
      return Load<int16_t>(p, index);
    case PHAL_ELEMENT_TYPE_U16:
      return Load<uint16_t>(p, index);
    case PHAL_ELEMENT_TYPE_S32:
      return Load<int32_t>(p, index);
    case PHAL_ELEMENT_TYPE_U32:
      return Load<uint32_t>(p, index);
    case PHAL_ELEMENT_TYPE_S64:
      return Load<int64_t>(p, index);
    case PHAL_ELEMENT_TYPE_U64:
      return static_cast<int64_t>(Load<uint64_t>(p, index));
    default:
      return static_cast<int64_t>(GetAsDouble(index));
  }
}

std::complex<double> Literal::GetAsComplex(int64_t index) const {
  const uint8_t* p = bytes_.data();
  if (element_type() == PHAL_ELEMENT_TYPE_C64) {
    return {Load<float>(p, 2 * index), Load<float>(p, 2 * index + 1)};
  }
  if (element_type() == PHAL_ELEMENT_TYPE_C128) {
    return {Load<double>(p, 2 * index), Load<double>(p, 2 * index + 1)};
  }
  return {GetAsDouble(index), 0.0};
}

void Literal::SetFromDouble(int64_t index, double value) {
  uint8_t* p = bytes_.data();
  switch (element_type()) {
    case PHAL_ELEMENT_TYPE_F16:
      return Store(p, index, DoubleToHalf(value));
    case PHAL_ELEMENT_TYPE_BF16:
      return Store(p, index, DoubleToBFloat16(value));
    case PHAL_ELEMENT_TYPE_F32:
      return Store(p, index, static_cast<float>(value));
    case PHAL_ELEMENT_TYPE_F64:
      return Store(p, index, value);
    case PHAL_ELEMENT_TYPE_C64:
    case PHAL_ELEMENT_TYPE_C128:
      return SetFromComplex(index, {value, 0.0});
    case PHAL_ELEMENT_TYPE_PRED:
      return Store<uint8_t>(p, index, value != 0.0 ? 1 : 0);
    case PHAL_ELEMENT_TYPE_U64:
      return Store(p, index, static_cast<uint64_t>(value));
    default:
      // Signed and narrower unsigned integers wrap like SetFromInt64; an
      // invalid element type or a tuple has no elements to set.
      if (IsIntegral(element_type())) {
        SetFromInt64(index, static_cast<int64_t>(value));
      }
      return;
  }
}

void Literal::SetFromInt64(int64_t index, int64_t value) {
  uint8_t* p = bytes_.data();
  switch (element_type()) {
    case PHAL_ELEMENT_TYPE_PRED:
      return Store<uint8_t>(p, index, value != 0 ? 1 : 0);
    case PHAL_ELEMENT_TYPE_S8:
      return Store(p, index, WrapToInteger<int8_t>(value));
    case PHAL_ELEMENT_TYPE_U8:
      return Store(p, index, WrapToInteger<uint8_t>(value));
    case PHAL_ELEMENT_TYPE_S16:
      return Store(p, index, WrapToInteger<int16_t>(value));
    case PHAL_ELEMENT_TYPE_U16:
      return Store(p, index, WrapToInteger<uint16_t>(value));
    case PHAL_ELEMENT_TYPE_S32:
      return Store(p, index, WrapToInteger<int32_t>(value));
    case PHAL_ELEMENT_TYPE_U32:
      return Store(p, index, WrapToInteger<uint32_t>(value));
    case PHAL_ELEMENT_TYPE_S64:
      return Store(p, index, value);
    case PHAL_ELEMENT_TYPE_U64:
      return Store(p, index, static_cast<uint64_t>(value));
    default:
      if (IsFloat(element_type()) || IsComplex(element_type())) {
        SetFromDouble(index, static_cast<double>(value));
      }
      return;
  }
}

void Literal::SetFromComplex(int64_t index, std::complex<double> value) {
  uint8_t* p = bytes_.data();
  if (element_type() == PHAL_ELEMENT_TYPE_C64) {
    Store(p, 2 * index, static_cast<float>(value.real()));
    Store(p, 2 * index + 1, static_cast<float>(value.imag()));
    return;
  }
  if (element_type() == PHAL_ELEMENT_TYPE_C128) {
    Store(p, 2 * index, value.real());
    Store(p, 2 * index + 1, value.imag());
    return;
  }
  SetFromDouble(index, value.real());
}

std::string Literal::ToString() const {
  if (IsTuple()) {
    std::string out = "(";
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      if (i > 0) out += ", ";
      out += elements_[i].ToString();
    }
    return out + ")";
  }
  const int64_t count = ElementCount();
  std::vector<std::string> texts;
  texts.reserve(static_cast<std::size_t>(count));
  std::size_t width = 0;
  for (int64_t i = 0; i < count; ++i) texts.push_back(ElementText(*this, i));
  if (IsFloat(element_type())) AlignDecimalPoints(&texts);
  for (const std::string& text : texts) width = std::max(width, text.size());
  if (shape_.rank() == 0) return texts.empty() ? "" : texts[0];
  if (count == 0) return "[]";
  std::string out;
  std::size_t next = 0;
  AppendNested(texts, width, shape_.dims(), 0, &next, &out);
  return out;
}

}  // namespace phal
