#include "core/io/npy.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

namespace phal {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kHeaderAlignment = 64;

// What a header's 'descr' names: an element type and the byte order of the
// stored data.
struct NpyDtype {
  ElementType type = PHAL_ELEMENT_TYPE_INVALID;
  bool big_endian = false;
};

struct NpyHeader {
  NpyDtype dtype;
  bool fortran_order = false;
  std::vector<int64_t> dims;
};

struct DescrEntry {
  std::string_view code;
  ElementType type;
};

constexpr DescrEntry kDescrTable[] = {
    {"b1", PHAL_ELEMENT_TYPE_PRED}, {"i1", PHAL_ELEMENT_TYPE_S8},
    {"i2", PHAL_ELEMENT_TYPE_S16},  {"i4", PHAL_ELEMENT_TYPE_S32},
    {"i8", PHAL_ELEMENT_TYPE_S64},  {"u1", PHAL_ELEMENT_TYPE_U8},
    {"u2", PHAL_ELEMENT_TYPE_U16},  {"u4", PHAL_ELEMENT_TYPE_U32},
    {"u8", PHAL_ELEMENT_TYPE_U64},  {"f2", PHAL_ELEMENT_TYPE_F16},
    {"f4", PHAL_ELEMENT_TYPE_F32},  {"f8", PHAL_ELEMENT_TYPE_F64},
    {"c8", PHAL_ELEMENT_TYPE_C64},  {"c16", PHAL_ELEMENT_TYPE_C128},
    {"V2", PHAL_ELEMENT_TYPE_BF16},
};

std::string Quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::optional<NpyDtype> ParseDescr(std::string_view descr) {
  if (descr.size() < 2) return std::nullopt;
  NpyDtype dtype;
  switch (descr[0]) {
    case '<':
    case '|':
    case '=':
      break;
    case '>':
      dtype.big_endian = true;
      break;
    default:
      return std::nullopt;
  }
  const std::string_view code = descr.substr(1);
  for (const DescrEntry& entry : kDescrTable) {
    if (entry.code == code) {
      dtype.type = entry.type;
      return dtype;
    }
  }
  return std::nullopt;
}

std::string DescrFor(ElementType type) {
  for (const DescrEntry& entry : kDescrTable) {
    if (entry.type != type) continue;
    const bool single_byte = ElementTypeByteSize(type) == 1;
    return (single_byte ? "|" : "<") + std::string(entry.code);
  }
  return "";
}

// Reads the Python dict literal of a .npy header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, std::string_view source)
      : text_(text), source_(source) {}

  StatusOr<NpyHeader> Parse() {
    NpyHeader header;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    PHAL_RETURN_IF_ERROR(Expect('{'));
    while (!Consume('}')) {
      PHAL_ASSIGN_OR_RETURN(std::string key, ParseString());
      PHAL_RETURN_IF_ERROR(Expect(':'));
      if (key == "descr") {
        PHAL_RETURN_IF_ERROR(ParseDescrValue(&header.dtype));
        seen_descr = true;
      } else if (key == "fortran_order") {
        PHAL_ASSIGN_OR_RETURN(header.fortran_order, ParseBool());
        seen_order = true;
      } else if (key == "shape") {
        PHAL_ASSIGN_OR_RETURN(header.dims, ParseShape());
        seen_shape = true;
      } else {
        return Error("unexpected key " + Quoted(key));
      }
      if (!Consume(',')) {
        PHAL_RETURN_IF_ERROR(Expect('}'));
        break;
      }
    }
    if (!seen_descr) return Error("the key 'descr' is missing");
    if (!seen_order) return Error("the key 'fortran_order' is missing");
    if (!seen_shape) return Error("the key 'shape' is missing");
    return header;
  }

 private:
  Status Error(const std::string& what) const {
    return InvalidArgument(std::string(source_) + ": malformed .npy header (" +
                           what + ") in " + Quoted(text_));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(Byte(pos_))) ++pos_;
  }
  unsigned char Byte(std::size_t at) const {
    return static_cast<unsigned char>(text_[at]);
  }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  Status Expect(char c) {
    if (Consume(c)) return OkStatus();
    return Error(std::string("expected '") + c + "' at offset " +
                 std::to_string(pos_));
  }

  StatusOr<std::string> ParseString() {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Error("expected a string at offset " + std::to_string(pos_));
    }
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return Error("unterminated string");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }

  Status ParseDescrValue(NpyDtype* dtype) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '[') {
      return InvalidArgument(std::string(source_) +
                             ": structured dtypes (a list 'descr') are not "
                             "supported; only plain numeric arrays are");
    }
    PHAL_ASSIGN_OR_RETURN(std::string descr, ParseString());
    std::optional<NpyDtype> parsed = ParseDescr(descr);
    if (!parsed) {
      return InvalidArgument(
          std::string(source_) + ": unknown dtype descr " + Quoted(descr) +
          "; supported: b1, i1/i2/i4/i8, u1/u2/u4/u8, f2/f4/f8, c8/c16 and "
          "V2 (bfloat16) with byte order '<', '>', '|' or '='");
    }
    *dtype = *parsed;
    return OkStatus();
  }

  StatusOr<bool> ParseBool() {
    SkipSpace();
    for (const auto& [word, value] :
         {std::pair<std::string_view, bool>{"True", true}, {"False", false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    return Error("'fortran_order' must be True or False");
  }

  StatusOr<std::vector<int64_t>> ParseShape() {
    PHAL_RETURN_IF_ERROR(Expect('('));
    std::vector<int64_t> dims;
    while (!Consume(')')) {
      PHAL_ASSIGN_OR_RETURN(int64_t dim, ParseDimension());
      dims.push_back(dim);
      if (!Consume(',')) {
        PHAL_RETURN_IF_ERROR(Expect(')'));
        break;
      }
    }
    return dims;
  }

  StatusOr<int64_t> ParseDimension() {
    SkipSpace();
    const std::size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(Byte(pos_))) {
      const int digit = text_[pos_++] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        return Error("a dimension is too large");
      }
      value = value * 10 + digit;
    }
    if (pos_ == start) {
      return Error("expected a non-negative dimension at offset " +
                   std::to_string(start));
    }
    Consume('L');  // Python 2 long suffix, still found in old files.
    return value;
  }

  std::string_view text_;
  std::string_view source_;
  std::size_t pos_ = 0;
};

uint32_t ReadLittleEndian(std::string_view bytes, std::size_t offset,
                          std::size_t width) {
  uint32_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |=
        static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i]))
        << (8 * i);
  }
  return value;
}

// Byte-swaps every `width`-byte word in place: whole elements, or each
// component of a complex element.
void SwapWords(uint8_t* data, std::size_t size, std::size_t width) {
  for (std::size_t offset = 0; offset + width <= size; offset += width) {
    std::reverse(data + offset, data + offset + width);
  }
}

// Rewrites column-major `literal` data into row-major order.
void TransposeFromFortranOrder(Literal* literal) {
  const std::vector<int64_t>& dims = literal->shape().dims();
  const auto rank = dims.size();
  if (rank < 2) return;
  const std::size_t element_size = ElementTypeByteSize(literal->element_type());
  std::vector<uint8_t> column_major(literal->data(),
                                    literal->data() + literal->byte_size());
  std::vector<int64_t> fortran_strides(rank);
  int64_t stride = 1;
  for (std::size_t d = 0; d < rank; ++d) {
    fortran_strides[d] = stride;
    stride *= dims[d];
  }
  std::vector<int64_t> index(rank, 0);
  const int64_t count = literal->ElementCount();
  int64_t source = 0;
  for (int64_t target = 0; target < count; ++target) {
    std::memcpy(
        literal->data() + target * static_cast<int64_t>(element_size),
        column_major.data() + source * static_cast<int64_t>(element_size),
        element_size);
    for (std::size_t d = rank; d-- > 0;) {
      source += fortran_strides[d];
      if (++index[d] < dims[d]) break;
      source -= fortran_strides[d] * dims[d];
      index[d] = 0;
    }
  }
}

// The element count of `dims`, or nullopt when it overflows.
std::optional<int64_t> CheckedElementCount(const std::vector<int64_t>& dims,
                                           std::size_t element_size) {
  int64_t count = 1;
  const int64_t limit =
      std::numeric_limits<int64_t>::max() / static_cast<int64_t>(element_size);
  for (int64_t dim : dims) {
    if (dim != 0 && count > limit / dim) return std::nullopt;
    count *= dim;
  }
  return count;
}

}  // namespace

StatusOr<Literal> DecodeNpy(std::string_view bytes,
                            std::string_view source_name) {
  const std::string source(source_name);
  if (bytes.size() < kMagic.size() ||
      bytes.substr(0, kMagic.size()) != kMagic) {
    return InvalidArgument(source +
                           ": not a .npy file (it does not start with the "
                           "magic string \\x93NUMPY)");
  }
  if (bytes.size() < kMagic.size() + 2) {
    return InvalidArgument(source + ": truncated .npy file (no version)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0) {
    return InvalidArgument(source + ": unsupported .npy format version " +
                           std::to_string(major) + "." + std::to_string(minor) +
                           " (supported: 1.0, 2.0, 3.0)");
  }
  const std::size_t length_width = major == 1 ? 2 : 4;
  const std::size_t prefix = 8 + length_width;
  if (bytes.size() < prefix) {
    return InvalidArgument(source + ": truncated .npy file (no header length)");
  }
  const std::size_t header_length = ReadLittleEndian(bytes, 8, length_width);
  if (bytes.size() - prefix < header_length) {
    return InvalidArgument(source + ": truncated .npy header (it says " +
                           std::to_string(header_length) +
                           " bytes, the file has " +
                           std::to_string(bytes.size() - prefix) + ")");
  }
  PHAL_ASSIGN_OR_RETURN(
      NpyHeader header,
      HeaderParser(bytes.substr(prefix, header_length), source).Parse());

  const std::size_t element_size = ElementTypeByteSize(header.dtype.type);
  std::optional<int64_t> count = CheckedElementCount(header.dims, element_size);
  if (!count) {
    return InvalidArgument(source + ": the shape's element count overflows");
  }
  const auto data_size = static_cast<std::size_t>(*count) * element_size;
  const std::string_view data = bytes.substr(prefix + header_length);
  if (data.size() != data_size) {
    return InvalidArgument(
        source + ": " +
        (data.size() < data_size ? "data too short" : "data too long") +
        ": the header's shape and dtype need " + std::to_string(data_size) +
        " bytes of data, the file has " + std::to_string(data.size()));
  }
  Literal literal(Shape(header.dtype.type, header.dims));
  if (data_size > 0) std::memcpy(literal.data(), data.data(), data_size);
  if (header.dtype.big_endian) {
    const std::size_t word =
        IsComplex(header.dtype.type) ? element_size / 2 : element_size;
    SwapWords(literal.data(), data_size, word);
  }
  if (header.fortran_order) TransposeFromFortranOrder(&literal);
  return literal;
}

StatusOr<std::string> EncodeNpy(const Literal& literal) {
  if (literal.IsTuple()) {
    return InvalidArgument("cannot write a tuple " +
                           literal.shape().ToString() +
                           " as .npy; write each element separately");
  }
  const std::string descr = DescrFor(literal.element_type());
  if (descr.empty()) {
    return InvalidArgument(std::string("cannot write element type ") +
                           ElementTypeName(literal.element_type()) +
                           " as .npy");
  }
  std::ostringstream dict;
  dict << "{'descr': '" << descr << "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : literal.shape().dims()) dict << dim << ", ";
  std::string shape_text = dict.str();
  if (literal.shape().rank() > 0) shape_text.pop_back();
  if (literal.shape().rank() > 1) shape_text.pop_back();
  std::string header = shape_text + "), }";

  int major = 1;
  std::size_t prefix = 10;
  std::size_t padded = (prefix + header.size() + 1 + kHeaderAlignment - 1) /
                       kHeaderAlignment * kHeaderAlignment;
  if (padded - prefix > std::numeric_limits<uint16_t>::max()) {
    major = 2;
    prefix = 12;
    padded = (prefix + header.size() + 1 + kHeaderAlignment - 1) /
             kHeaderAlignment * kHeaderAlignment;
  }
  header.append(padded - prefix - header.size() - 1, ' ');
  header.push_back('\n');

  std::string out(kMagic);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  const std::size_t length_width = prefix - 8;
  for (std::size_t i = 0; i < length_width; ++i) {
    out.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xFF));
  }
  out += header;
  out.append(reinterpret_cast<const char*>(literal.data()),
             literal.byte_size());
  return out;
}

StatusOr<Literal> ReadNpy(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return NotFound(path + ": cannot open the .npy file for reading");
  std::string bytes((std::istreambuf_iterator<char>(file)),
                    std::istreambuf_iterator<char>());
  if (file.bad()) return Internal(path + ": error while reading the file");
  return DecodeNpy(bytes, path);
}

Status WriteNpy(const std::string& path, const Literal& literal) {
  PHAL_ASSIGN_OR_RETURN(std::string bytes, EncodeNpy(literal));
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return NotFound(path + ": cannot open the file for writing");
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) return Internal(path + ": error while writing the file");
  return OkStatus();
}

}  // namespace phal
