// A literal is a concrete HLO value: a dense row-major array of one element
// type, or a tuple of literals. It is what constants hold, what the reference
// interpreter computes and what .npy files read into.
#ifndef POLYHAL_CORE_HLO_LITERAL_H_
#define POLYHAL_CORE_HLO_LITERAL_H_

#include <complex>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "core/hlo/shape.h"

namespace phal {

class Literal {
 public:
  Literal() = default;
  // A zero-filled array (or tuple of arrays) of `shape`; layout is always
  // row-major in memory.
  explicit Literal(const Shape& shape);
  static Literal Tuple(std::vector<Literal> elements);

  const Shape& shape() const { return shape_; }
  bool IsTuple() const { return shape_.IsTuple(); }
  ElementType element_type() const { return shape_.element_type(); }
  int64_t ElementCount() const { return shape_.ElementCount(); }

  // Raw row-major bytes of an array literal (pred is one byte, 0 or 1;
  // complex is real then imaginary).
  uint8_t* data() { return bytes_.data(); }
  const uint8_t* data() const { return bytes_.data(); }
  std::size_t byte_size() const { return bytes_.size(); }

  template <typename T>
  T* data_as() {
    return reinterpret_cast<T*>(bytes_.data());
  }
  template <typename T>
  const T* data_as() const {
    return reinterpret_cast<const T*>(bytes_.data());
  }

  const std::vector<Literal>& tuple_elements() const { return elements_; }
  std::vector<Literal>& mutable_tuple_elements() { return elements_; }

  // Bitwise equality of shape and bytes (so NaN == NaN with the same bits).
  bool operator==(const Literal& other) const;
  bool operator!=(const Literal& other) const { return !(*this == other); }

  // An array literal of `type` and `dims` holding `values` in row-major
  // order, each stored as SetFromInt64 (integral T) or SetFromDouble
  // (floating T) stores it. The count of values must match the shape.
  template <typename T>
  static Literal FromValues(ElementType type, std::vector<int64_t> dims,
                            std::initializer_list<T> values);
  template <typename T>
  static Literal FromValues(ElementType type, std::vector<int64_t> dims,
                            const std::vector<T>& values);
  // A scalar (rank 0) literal.
  template <typename T>
  static Literal Scalar(ElementType type, T value) {
    return FromValues(type, {}, {value});
  }

  // Element `index` (row-major linear index) of an array literal read as a
  // number: pred is 0 or 1, complex types give their real part (or the
  // whole value for GetAsComplex), unsigned 64-bit values above INT64_MAX
  // come back from GetAsInt64 as their two's-complement bit pattern.
  double GetAsDouble(int64_t index) const;
  int64_t GetAsInt64(int64_t index) const;
  std::complex<double> GetAsComplex(int64_t index) const;

  // Stores a number into element `index`. Floating types round to nearest
  // even; integer types take the value modulo 2^bits (so a u64 can be set
  // from the int64 with its bit pattern); pred stores value != 0. Storing a
  // double into an integer type truncates toward zero (the value must be in
  // range). A complex type receives the value as its real part.
  void SetFromDouble(int64_t index, double value);
  void SetFromInt64(int64_t index, int64_t value);
  void SetFromComplex(int64_t index, std::complex<double> value);

  // The value as numpy's print() shows an array, e.g. "[[1. 2.]\n [3. 4.]]"
  // (shortest round-trip digits; "nan", "inf"; True/False for pred; complex
  // as "1.+2.j"); a tuple prints as "(" elements ", " ")".
  std::string ToString() const;

 private:
  Shape shape_;
  std::vector<uint8_t> bytes_;
  std::vector<Literal> elements_;
};

template <typename T>
Literal Literal::FromValues(ElementType type, std::vector<int64_t> dims,
                            const std::vector<T>& values) {
  Literal literal(Shape(type, std::move(dims)));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto index = static_cast<int64_t>(i);
    if (index >= literal.ElementCount()) break;
    if constexpr (std::is_integral_v<T>) {
      literal.SetFromInt64(index, static_cast<int64_t>(values[i]));
    } else {
      literal.SetFromDouble(index, static_cast<double>(values[i]));
    }
  }
  return literal;
}

template <typename T>
Literal Literal::FromValues(ElementType type, std::vector<int64_t> dims,
                            std::initializer_list<T> values) {
  return FromValues(type, std::move(dims), std::vector<T>(values));
}

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_LITERAL_H_
