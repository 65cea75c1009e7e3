// A literal is a concrete HLO value: a dense row-major array of one element
// type, or a tuple of literals. It is what constants hold, what the reference
// interpreter computes and what .npy files read into.
#ifndef POLYHAL_CORE_HLO_LITERAL_H_
#define POLYHAL_CORE_HLO_LITERAL_H_

#include <cstdint>
#include <cstring>
#include <string>
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

 private:
  Shape shape_;
  std::vector<uint8_t> bytes_;
  std::vector<Literal> elements_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_LITERAL_H_
