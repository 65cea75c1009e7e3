#include "core/frontend/dense_elements.h"

#include <algorithm>
#include <complex>
#include <cstring>
#include <string>

namespace phal {
namespace {

using DK = DenseElements::Kind;

class DenseLiteralBuilder {
 public:
  DenseLiteralBuilder(const Shape& type, const SourceText& source,
                      const MinifloatFormat* minifloat)
      : literal_(type), source_(source), minifloat_(minifloat) {}

  Status FillSplat(const DenseElements& scalar) {
    if (literal_.ElementCount() == 0) return OkStatus();
    PHAL_RETURN_IF_ERROR(Store(0, scalar));
    Repeat(ElementTypeByteSize(literal_.element_type()));
    return OkStatus();
  }

  Status FillNested(const DenseElements& list, int64_t depth,
                    int64_t* next_index) {
    const Shape& shape = literal_.shape();
    if (depth == shape.rank()) {
      if (list.kind == DK::kList) {
        return source_.ErrorAt(
            list.offset,
            "the elements are nested deeper than the type's rank " +
                std::to_string(shape.rank()));
      }
      return Store((*next_index)++, list);
    }
    const int64_t expected = shape.dim(depth);
    if (list.kind != DK::kList ||
        static_cast<int64_t>(list.elements.size()) != expected) {
      return source_.ErrorAt(
          list.offset, "expected " + std::to_string(expected) +
                           " elements in dimension " + std::to_string(depth) +
                           " of " + shape.ToString());
    }
    for (const DenseElements& element : list.elements) {
      PHAL_RETURN_IF_ERROR(FillNested(element, depth + 1, next_index));
    }
    return OkStatus();
  }

  Status FillBytes(const DenseElements& hex) {
    const std::size_t element_size =
        ElementTypeByteSize(literal_.element_type());
    const std::size_t total = literal_.byte_size();
    if (hex.bytes.size() == total) {
      if (total > 0) std::memcpy(literal_.data(), hex.bytes.data(), total);
      return OkStatus();
    }
    if (hex.bytes.size() != element_size) {
      return source_.ErrorAt(hex.offset, "the hex string holds " +
                                             std::to_string(hex.bytes.size()) +
                                             " bytes; " +
                                             literal_.shape().ToString() +
                                             " needs " + std::to_string(total));
    }
    if (total == 0) return OkStatus();
    std::memcpy(literal_.data(), hex.bytes.data(), element_size);
    Repeat(element_size);
    return OkStatus();
  }

  Literal Take() { return std::move(literal_); }

 private:
  // Copies the first `filled` bytes over the rest of the literal, doubling
  // the copied run each time.
  void Repeat(std::size_t filled) {
    uint8_t* data = literal_.data();
    const std::size_t total = literal_.byte_size();
    while (filled < total) {
      const std::size_t run = std::min(filled, total - filled);
      std::memcpy(data + filled, data, run);
      filled += run;
    }
  }

  Status Store(int64_t index, const DenseElements& scalar) {
    if (minifloat_ != nullptr) return StoreMinifloat(index, scalar);
    const ElementType type = literal_.element_type();
    switch (scalar.kind) {
      case DK::kComplex:
        return StoreComplex(index, scalar);
      case DK::kBool:
        literal_.SetFromInt64(index, scalar.boolean ? 1 : 0);
        return OkStatus();
      case DK::kInteger:
        if ((IsFloat(type) || IsComplex(type)) && scalar.is_hex) {
          return StoreBitPattern(index, scalar);
        }
        if (IsFloat(type) || IsComplex(type)) {
          const double magnitude = static_cast<double>(scalar.integer_bits);
          literal_.SetFromDouble(index,
                                 scalar.negative ? -magnitude : magnitude);
          return OkStatus();
        }
        literal_.SetFromInt64(
            index, SignedFromMagnitude(scalar.integer_bits, scalar.negative));
        return OkStatus();
      case DK::kFloat:
        if (!IsFloat(type) && !IsComplex(type)) {
          return source_.ErrorAt(
              scalar.offset, std::string("a floating-point value for the ") +
                                 ElementTypeName(type) + " element type");
        }
        literal_.SetFromDouble(index, scalar.number);
        return OkStatus();
      default:
        return source_.ErrorAt(scalar.offset, "expected a scalar element");
    }
  }

  // A small-float element: its own bit pattern, or a number rounded to
  // the format.
  Status StoreMinifloat(int64_t index, const DenseElements& scalar) {
    double value = 0;
    if (scalar.kind == DK::kInteger && scalar.is_hex) {
      value = DecodeMinifloat(*minifloat_,
                              static_cast<uint32_t>(scalar.integer_bits));
    } else if (scalar.kind == DK::kInteger) {
      value =
          static_cast<double>(scalar.integer_bits) * (scalar.negative ? -1 : 1);
    } else if (scalar.kind == DK::kFloat) {
      value = scalar.number;
    } else {
      return source_.ErrorAt(scalar.offset, "expected a number");
    }
    literal_.SetFromDouble(index, RoundToMinifloat(*minifloat_, value));
    return OkStatus();
  }

  Status StoreComplex(int64_t index, const DenseElements& pair) {
    if (!IsComplex(literal_.element_type())) {
      return source_.ErrorAt(pair.offset,
                             "a complex value for a non-complex element type");
    }
    double parts[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      const DenseElements& part = pair.elements[static_cast<std::size_t>(i)];
      if (part.kind == DK::kFloat) {
        parts[i] = part.number;
      } else if (part.kind == DK::kInteger && part.is_hex) {
        parts[i] = ComponentFromBits(part.integer_bits);
      } else if (part.kind == DK::kInteger) {
        parts[i] =
            static_cast<double>(part.integer_bits) * (part.negative ? -1 : 1);
      } else {
        return source_.ErrorAt(part.offset,
                               "expected a number in the complex value");
      }
    }
    literal_.SetFromComplex(index, {parts[0], parts[1]});
    return OkStatus();
  }

  // A real or imaginary part written as the bits of the component type.
  double ComponentFromBits(uint64_t bits) const {
    if (literal_.element_type() == PHAL_ELEMENT_TYPE_C64) {
      float value;
      const auto narrow = static_cast<uint32_t>(bits);
      std::memcpy(&value, &narrow, sizeof(value));
      return value;
    }
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }

  Status StoreBitPattern(int64_t index, const DenseElements& bits) {
    const ElementType type = literal_.element_type();
    if (IsComplex(type)) {
      return source_.ErrorAt(bits.offset,
                             "a bit pattern for a complex element");
    }
    const std::size_t size = ElementTypeByteSize(type);
    if (size < 8 && (bits.integer_bits >> (8 * size)) != 0) {
      return source_.ErrorAt(bits.offset,
                             std::string("the bit pattern is wider than ") +
                                 ElementTypeName(type));
    }
    // Little-endian hosts: the low bytes of the integer are the element.
    std::memcpy(literal_.data() + static_cast<std::size_t>(index) * size,
                &bits.integer_bits, size);
    return OkStatus();
  }

  Literal literal_;
  const SourceText& source_;
  const MinifloatFormat* minifloat_;
};

// The values written in the text, counting each scalar of nested lists.
uint64_t CountValues(const DenseElements& elements) {
  if (elements.kind != DK::kList) return 1;
  uint64_t count = 0;
  for (const DenseElements& element : elements.elements) {
    count += CountValues(element);
  }
  return count;
}

// Whether every element of `type` is written out in the text, so that the
// constant's size is bounded by the text's.
bool WrittenOut(const DenseElements& elements, const Shape& type) {
  if (elements.kind == DK::kHexBytes) {
    return elements.bytes.size() == static_cast<uint64_t>(type.ByteSize());
  }
  return elements.kind == DK::kList &&
         CountValues(elements) == static_cast<uint64_t>(type.ElementCount());
}

}  // namespace

StatusOr<Literal> DenseElementsToLiteral(const DenseElements& elements,
                                         const Shape& type,
                                         const SourceText& source,
                                         const MinifloatFormat* minifloat) {
  if (!type.IsArray() || type.element_type() == PHAL_ELEMENT_TYPE_INVALID)
    return source.ErrorAt(elements.offset, "dense elements need a tensor type");
  if (static_cast<uint64_t>(type.ByteSize()) > kMaxExpandedConstantBytes &&
      !WrittenOut(elements, type)) {
    return source.ErrorAt(
        elements.offset,
        "a constant of " + type.ToString() + " (" +
            std::to_string(type.ByteSize()) +
            " bytes) from fewer values than it holds; constants expanded "
            "from a splat beyond " +
            std::to_string(kMaxExpandedConstantBytes >> 20) +
            " MiB are refused (write a scalar constant and broadcast it)");
  }
  DenseLiteralBuilder builder(type, source, minifloat);
  if (elements.kind == DK::kHexBytes) {
    PHAL_RETURN_IF_ERROR(builder.FillBytes(elements));
  } else if (elements.kind != DK::kList) {
    PHAL_RETURN_IF_ERROR(builder.FillSplat(elements));
  } else if (elements.elements.empty() && type.ElementCount() == 0) {
    // dense<[]> or dense<> of an empty tensor.
  } else {
    int64_t next_index = 0;
    PHAL_RETURN_IF_ERROR(builder.FillNested(elements, 0, &next_index));
  }
  return builder.Take();
}

}  // namespace phal
