#include "core/frontend/quantized_type.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace phal {
namespace {

// A character-level reader of the type's body: quant types are not MLIR
// tokens but a small grammar of their own (`i8<-127:127>:f32:1, {0.5:3}`).
class QuantizedTypeReader {
 public:
  QuantizedTypeReader(const SourceText& source, std::size_t offset)
      : source_(source), text_(source.text()), position_(offset) {}

  StatusOr<QuantizedType> Read(std::size_t* end) {
    const std::string_view prefix = "!quant.uniform";
    if (text_.substr(position_, prefix.size()) != prefix ||
        IsWordCharacter(At(position_ + prefix.size()))) {
      return source_.ErrorAt(position_,
                             "only !quant.uniform quantized types are "
                             "supported");
    }
    position_ += prefix.size();
    PHAL_RETURN_IF_ERROR(Expect('<', "'<' after '!quant.uniform'"));
    QuantizedType type;
    PHAL_RETURN_IF_ERROR(ReadStorage(&type));
    PHAL_RETURN_IF_ERROR(Expect(':', "':' before the expressed type"));
    PHAL_RETURN_IF_ERROR(ReadExpressed(&type));
    if (Consume(':')) {
      SkipSpaces();
      if (At(position_) == '{') {
        return source_.ErrorAt(position_,
                               "sub-channel (blockwise) quantization is not "
                               "supported");
      }
      PHAL_ASSIGN_OR_RETURN(type.quantization_dimension, ReadInteger());
      if (type.quantization_dimension < 0) {
        return source_.ErrorAt(position_,
                               "the quantization dimension is negative");
      }
    }
    PHAL_RETURN_IF_ERROR(Expect(',', "',' before the scale"));
    PHAL_RETURN_IF_ERROR(ReadParameters(&type));
    PHAL_RETURN_IF_ERROR(Expect('>', "'>' to close the quantized type"));
    *end = position_;
    return type;
  }

 private:
  static bool IsWordCharacter(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  }
  char At(std::size_t offset) const {
    return offset < text_.size() ? text_[offset] : '\0';
  }
  void SkipSpaces() {
    while (std::isspace(static_cast<unsigned char>(At(position_))) != 0)
      ++position_;
  }
  bool Consume(char c) {
    SkipSpaces();
    if (At(position_) != c) return false;
    ++position_;
    return true;
  }
  Status Expect(char c, const std::string& what) {
    if (Consume(c)) return OkStatus();
    return source_.ErrorAt(position_, "expected " + what);
  }
  std::string_view Word() {
    SkipSpaces();
    const std::size_t start = position_;
    while (IsWordCharacter(At(position_))) ++position_;
    return text_.substr(start, position_ - start);
  }

  StatusOr<int64_t> ReadInteger() {
    SkipSpaces();
    const std::size_t start = position_;
    if (At(position_) == '-' || At(position_) == '+') ++position_;
    const std::size_t digits = position_;
    while (std::isdigit(static_cast<unsigned char>(At(position_))) != 0)
      ++position_;
    if (position_ == digits || position_ - digits > 18) {
      position_ = start;
      return source_.ErrorAt(start, "expected an integer");
    }
    return std::strtoll(
        std::string(text_.substr(start, position_ - start)).c_str(), nullptr,
        10);
  }

  StatusOr<double> ReadScale() {
    SkipSpaces();
    const std::size_t start = position_;
    const auto is_number_character = [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.' ||
             c == 'e' || c == 'E' || c == '+' || c == '-';
    };
    while (is_number_character(At(position_))) ++position_;
    const std::string number(text_.substr(start, position_ - start));
    char* parsed_end = nullptr;
    const double scale = std::strtod(number.c_str(), &parsed_end);
    if (number.empty() || parsed_end != number.c_str() + number.size()) {
      return source_.ErrorAt(start,
                             "expected a scale (a floating-point "
                             "number)");
    }
    if (!(scale > 0.0) || !std::isfinite(scale)) {
      return source_.ErrorAt(
          start, "the scale must be positive and finite, got " + number);
    }
    return scale;
  }

  Status ReadStorage(QuantizedType* type) {
    SkipSpaces();
    const std::size_t start = position_;
    const std::string_view word = Word();
    std::string_view digits = word;
    if (word.rfind("ui", 0) == 0 || word.rfind("si", 0) == 0) {
      digits = word.substr(2);
      type->storage_signed = word[0] == 's';
    } else if (word.rfind("i", 0) == 0 || word.rfind("u", 0) == 0) {
      digits = word.substr(1);
      type->storage_signed = word[0] == 'i';
    } else {
      digits = std::string_view();
    }
    const int bits =
        digits.empty() ? 0 : std::atoi(std::string(digits).c_str());
    if (bits != 2 && bits != 4 && bits != 8 && bits != 16 && bits != 32) {
      return source_.ErrorAt(start, "unsupported quantized storage type '" +
                                        std::string(word) +
                                        "' (expected i2, i4, i8, i16, i32 or "
                                        "their unsigned forms)");
    }
    type->storage_bits = bits;
    const bool is_signed = type->storage_signed;
    if (bits <= 8) {
      type->storage = is_signed ? PHAL_ELEMENT_TYPE_S8 : PHAL_ELEMENT_TYPE_U8;
    } else if (bits == 16) {
      type->storage = is_signed ? PHAL_ELEMENT_TYPE_S16 : PHAL_ELEMENT_TYPE_U16;
    } else {
      type->storage = is_signed ? PHAL_ELEMENT_TYPE_S32 : PHAL_ELEMENT_TYPE_U32;
    }
    const int64_t lowest = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t highest =
        is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    type->storage_min = lowest;
    type->storage_max = highest;
    if (!Consume('<')) return OkStatus();
    const std::size_t range = position_;
    PHAL_ASSIGN_OR_RETURN(type->storage_min, ReadInteger());
    PHAL_RETURN_IF_ERROR(Expect(':', "':' between the storage min and max"));
    PHAL_ASSIGN_OR_RETURN(type->storage_max, ReadInteger());
    PHAL_RETURN_IF_ERROR(Expect('>', "'>' after the storage range"));
    if (type->storage_min < lowest || type->storage_max > highest ||
        type->storage_min >= type->storage_max) {
      return source_.ErrorAt(
          range, "the storage range [" + std::to_string(type->storage_min) +
                     ", " + std::to_string(type->storage_max) +
                     "] is empty or outside the storage type's [" +
                     std::to_string(lowest) + ", " + std::to_string(highest) +
                     "]");
    }
    return OkStatus();
  }

  Status ReadExpressed(QuantizedType* type) {
    SkipSpaces();
    const std::size_t start = position_;
    const std::string_view word = Word();
    if (word == "f16") {
      type->expressed = PHAL_ELEMENT_TYPE_F16;
    } else if (word == "bf16") {
      type->expressed = PHAL_ELEMENT_TYPE_BF16;
    } else if (word == "f32") {
      type->expressed = PHAL_ELEMENT_TYPE_F32;
    } else if (word == "f64") {
      type->expressed = PHAL_ELEMENT_TYPE_F64;
    } else {
      return source_.ErrorAt(start, "unsupported expressed type '" +
                                        std::string(word) +
                                        "' (expected f16, bf16, f32 or f64)");
    }
    return OkStatus();
  }

  // SCALE[:ZERO_POINT], with a zero point of 0 when it is left out.
  Status ReadScaleAndZeroPoint(QuantizedType* type) {
    PHAL_ASSIGN_OR_RETURN(double scale, ReadScale());
    int64_t zero_point = 0;
    SkipSpaces();
    const std::size_t start = position_;
    if (Consume(':')) {
      PHAL_ASSIGN_OR_RETURN(zero_point, ReadInteger());
    }
    if (zero_point < type->storage_min || zero_point > type->storage_max) {
      return source_.ErrorAt(start,
                             "the zero point " + std::to_string(zero_point) +
                                 " is outside the storage range [" +
                                 std::to_string(type->storage_min) + ", " +
                                 std::to_string(type->storage_max) + "]");
    }
    type->scales.push_back(scale);
    type->zero_points.push_back(zero_point);
    return OkStatus();
  }

  Status ReadParameters(QuantizedType* type) {
    SkipSpaces();
    const std::size_t start = position_;
    if (!Consume('{')) {
      if (type->IsPerAxis()) {
        return source_.ErrorAt(start,
                               "a per-axis type needs a list of scales in "
                               "braces: {scale:zero_point, ...}");
      }
      return ReadScaleAndZeroPoint(type);
    }
    if (!type->IsPerAxis()) {
      return source_.ErrorAt(start,
                             "a list of scales needs a quantization "
                             "dimension (i8:f32:DIM, {...})");
    }
    do {
      PHAL_RETURN_IF_ERROR(ReadScaleAndZeroPoint(type));
    } while (Consume(','));
    return Expect('}', "'}' to close the list of scales");
  }

  const SourceText& source_;
  std::string_view text_;
  std::size_t position_;
};

}  // namespace

bool QuantizedType::SameParameters(const QuantizedType& other) const {
  return storage == other.storage && storage_bits == other.storage_bits &&
         storage_min == other.storage_min && storage_max == other.storage_max &&
         expressed == other.expressed && scales == other.scales &&
         zero_points == other.zero_points && IsPerAxis() == other.IsPerAxis();
}

std::string QuantizedType::ToString() const {
  std::ostringstream out;
  out.precision(17);
  out << "!quant.uniform<" << (storage_signed ? "i" : "u") << storage_bits
      << "<" << storage_min << ":" << storage_max
      << ">:" << ElementTypeName(expressed);
  if (IsPerAxis()) out << ":" << quantization_dimension;
  out << ", " << (IsPerAxis() ? "{" : "");
  for (std::size_t i = 0; i < scales.size(); ++i) {
    out << (i > 0 ? "," : "") << scales[i] << ":" << zero_points[i];
  }
  out << (IsPerAxis() ? "}" : "") << ">";
  return out.str();
}

StatusOr<QuantizedType> ParseQuantizedType(const SourceText& source,
                                           std::size_t offset,
                                           std::size_t* end) {
  return QuantizedTypeReader(source, offset).Read(end);
}

Status CheckQuantizedDimensions(const QuantizedType& type,
                                const std::vector<int64_t>& dims,
                                const SourceText& source, std::size_t offset) {
  if (!type.IsPerAxis()) return OkStatus();
  const int64_t rank = static_cast<int64_t>(dims.size());
  if (type.quantization_dimension >= rank) {
    return source.ErrorAt(
        offset, "quantization dimension " +
                    std::to_string(type.quantization_dimension) +
                    " is out of range for a rank-" + std::to_string(rank) +
                    " tensor");
  }
  const int64_t size = dims[type.quantization_dimension];
  if (static_cast<int64_t>(type.scales.size()) != size) {
    return source.ErrorAt(
        offset, "the quantized type has " + std::to_string(type.scales.size()) +
                    " scales but quantization dimension " +
                    std::to_string(type.quantization_dimension) + " has size " +
                    std::to_string(size));
  }
  return OkStatus();
}

}  // namespace phal
