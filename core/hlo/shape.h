// Shapes of HLO values: an element type with dimensions and a row-major or
// explicit layout, or a tuple of shapes.
#ifndef POLYHAL_CORE_HLO_SHAPE_H_
#define POLYHAL_CORE_HLO_SHAPE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "polyhal/types.h"
#include "sdk/base/element_types.h"

namespace phal {

class Shape {
 public:
  Shape() = default;
  // An array shape with the default row-major layout.
  Shape(ElementType type, std::vector<int64_t> dims);
  static Shape Tuple(std::vector<Shape> elements);

  bool IsTuple() const { return is_tuple_; }
  bool IsArray() const { return !is_tuple_; }

  ElementType element_type() const { return element_type_; }
  void set_element_type(ElementType type) { element_type_ = type; }
  const std::vector<int64_t>& dims() const { return dims_; }
  std::vector<int64_t>& mutable_dims() { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  int64_t dim(int64_t i) const { return dims_[static_cast<std::size_t>(i)]; }

  // Layout as minor_to_major, as XLA writes it ({1,0} is row-major for
  // rank 2). Empty means the default, row-major.
  const std::vector<int64_t>& minor_to_major() const { return minor_to_major_; }
  void set_minor_to_major(std::vector<int64_t> layout) {
    minor_to_major_ = std::move(layout);
  }
  bool HasRowMajorLayout() const;

  const std::vector<Shape>& tuple_shapes() const { return tuple_shapes_; }
  std::vector<Shape>& mutable_tuple_shapes() { return tuple_shapes_; }

  // Number of elements of an array shape (1 for a scalar).
  int64_t ElementCount() const;
  // Bytes of a dense array of this shape.
  int64_t ByteSize() const;

  // "f32[2,3]{1,0}", "(s32[], f32[4])"; layouts are printed only when they
  // are not row-major unless `with_layout`.
  std::string ToString(bool with_layout = false) const;

  // Equality of type, dims and tuple structure; layouts are ignored.
  bool Compatible(const Shape& other) const;
  bool operator==(const Shape& other) const;
  bool operator!=(const Shape& other) const { return !(*this == other); }

 private:
  bool is_tuple_ = false;
  ElementType element_type_ = PHAL_ELEMENT_TYPE_INVALID;
  std::vector<int64_t> dims_;
  std::vector<int64_t> minor_to_major_;
  std::vector<Shape> tuple_shapes_;
};

// An integer list as HLO text writes dimension lists and layouts: "{1,0}".
std::string IntListToText(const std::vector<int64_t>& values);
// The integers joined by commas, without braces: "1,0".
std::string JoinInts(const std::vector<int64_t>& values);

// Row-major strides, in elements, of `dims`.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_SHAPE_H_
