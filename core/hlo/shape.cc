#include "core/hlo/shape.h"

#include <numeric>
#include <utility>

namespace phal {
namespace {

std::vector<int64_t> DefaultMinorToMajor(int64_t rank) {
  std::vector<int64_t> layout(static_cast<std::size_t>(rank));
  for (int64_t i = 0; i < rank; ++i) {
    layout[static_cast<std::size_t>(i)] = rank - 1 - i;
  }
  return layout;
}

}  // namespace

std::string JoinInts(const std::vector<int64_t>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(values[i]);
  }
  return text;
}

Shape::Shape(ElementType type, std::vector<int64_t> dims)
    : element_type_(type), dims_(std::move(dims)) {}

Shape Shape::Tuple(std::vector<Shape> elements) {
  Shape shape;
  shape.is_tuple_ = true;
  shape.tuple_shapes_ = std::move(elements);
  return shape;
}

bool Shape::HasRowMajorLayout() const {
  return minor_to_major_.empty() ||
         minor_to_major_ == DefaultMinorToMajor(rank());
}

int64_t Shape::ElementCount() const {
  if (is_tuple_) return 0;
  return std::accumulate(dims_.begin(), dims_.end(), int64_t{1},
                         [](int64_t a, int64_t b) { return a * b; });
}

int64_t Shape::ByteSize() const {
  if (!is_tuple_) {
    return ElementCount() *
           static_cast<int64_t>(ElementTypeByteSize(element_type_));
  }
  int64_t total = 0;
  for (const Shape& element : tuple_shapes_) total += element.ByteSize();
  return total;
}

std::string Shape::ToString(bool with_layout) const {
  if (is_tuple_) {
    std::string text = "(";
    for (std::size_t i = 0; i < tuple_shapes_.size(); ++i) {
      if (i > 0) text += ", ";
      text += tuple_shapes_[i].ToString(with_layout);
    }
    return text + ")";
  }
  std::string text =
      std::string(ElementTypeName(element_type_)) + "[" + JoinInts(dims_) + "]";
  if (rank() == 0) return text;
  if (with_layout || !HasRowMajorLayout()) {
    const std::vector<int64_t> layout =
        minor_to_major_.empty() ? DefaultMinorToMajor(rank()) : minor_to_major_;
    text += IntListToText(layout);
  }
  return text;
}

bool Shape::Compatible(const Shape& other) const {
  if (is_tuple_ != other.is_tuple_) return false;
  if (!is_tuple_) {
    return element_type_ == other.element_type_ && dims_ == other.dims_;
  }
  if (tuple_shapes_.size() != other.tuple_shapes_.size()) return false;
  for (std::size_t i = 0; i < tuple_shapes_.size(); ++i) {
    if (!tuple_shapes_[i].Compatible(other.tuple_shapes_[i])) return false;
  }
  return true;
}

bool Shape::operator==(const Shape& other) const {
  if (is_tuple_ != other.is_tuple_) return false;
  if (is_tuple_) return tuple_shapes_ == other.tuple_shapes_;
  if (element_type_ != other.element_type_ || dims_ != other.dims_) {
    return false;
  }
  if (HasRowMajorLayout() && other.HasRowMajorLayout()) return true;
  return minor_to_major_ == other.minor_to_major_;
}

std::string IntListToText(const std::vector<int64_t>& values) {
  return "{" + JoinInts(values) + "}";
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (std::size_t i = dims.size(); i > 1; --i) {
    strides[i - 2] = strides[i - 1] * dims[i - 1];
  }
  return strides;
}

}  // namespace phal
