#include "core/frontend/portable_artifact.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "core/frontend/mlir_bytecode.h"
#include "core/frontend/vhlo_ops.h"

namespace phal {
namespace {

constexpr int64_t kDynamicSize = INT64_MIN;
// Bounds on what a small file can ask for: attributes and types nest at
// most this deep, and a type's or a composite attribute's text (which
// shared entries could make exponentially long) stays below this size.
constexpr int kMaxNesting = 256;
constexpr std::size_t kMaxCompositeText = std::size_t{64} << 20;

// A decoded builtin or VHLO type, with its StableHLO spelling.
struct ArtifactType {
  std::string text;
  bool is_tensor = false;
  std::vector<int64_t> dims;
  const ArtifactType* element = nullptr;  // tensors
  // Scalars: bits of one element's value and of its storage in dense data.
  int bits = 0;
  int storage_bytes = 0;
  bool is_integer = false;  // integers and booleans
  bool is_signed = false;
  bool is_bool = false;
  bool is_float = false;
  bool is_complex = false;
  bool is_minifloat = false;  // f8*, f6*, f4*, tf32: written as bit patterns
  bool is_none = false;
  std::vector<const ArtifactType*> inputs;  // function types
  std::vector<const ArtifactType*> outputs;

  int64_t ElementCount() const {
    int64_t count = 1;
    for (int64_t d : dims) count *= d < 0 ? 0 : d;
    return count;
  }
};

// A decoded builtin or VHLO attribute.
struct ArtifactAttribute {
  enum class Kind {
    kArray,
    kBool,
    kEnum,
    kDictionary,
    kFloat,
    kInteger,
    kString,
    kTensor,
    kType,
    kTypeExtensions,
    kOutputOperandAlias,
    kResultAccuracy,
    kUnit,
    kSymbol,
    kText,  // another dialect's attribute in its MLIR text
    kLocation,
    kOther,  // the VHLO mesh attributes, printed as text
  };
  Kind kind = Kind::kOther;
  std::string family;  // kEnum: "comparison_direction"
  std::string text;    // kEnum value, kString, kSymbol, kText, kOther
  bool boolean = false;
  int64_t integer = 0;
  uint64_t bits = 0;  // kFloat: the value's bit pattern
  const ArtifactType* type = nullptr;
  std::string data;  // kTensor: raw element bytes, booleans one per byte
  std::vector<const ArtifactAttribute*> elements;
  std::vector<std::string> names;  // kDictionary
  std::vector<int64_t> integers;   // kTypeExtensions, kOutputOperandAlias
};

using Attr = ArtifactAttribute;
using Type = ArtifactType;

std::string Quote(std::string_view text) {
  std::string out = "\"";
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out + "\"";
}

std::string HexBytes(std::string_view bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out = "0x";
  out.reserve(2 + 2 * bytes.size());
  for (unsigned char c : bytes) {
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

// "0x..." of a little-endian value's bytes, most significant first: how
// MLIR writes a float by its bit pattern.
std::string HexOfLittleEndian(std::string_view bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string hex = "0x";
  for (std::size_t i = bytes.size(); i-- > 0;) {
    hex += kHex[static_cast<unsigned char>(bytes[i]) >> 4];
    hex += kHex[static_cast<unsigned char>(bytes[i]) & 15];
  }
  return hex;
}

std::string JoinIntegers(const std::vector<int64_t>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

std::string FormatDouble(double value) {
  if (std::isnan(value)) return "0x7FF8000000000000";
  if (std::isinf(value))
    return value > 0 ? "0x7FF0000000000000" : "0xFFF0000000000000";
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.17e", value);
  return buffer;
}

// The value of enum `family`'s `value`, or empty when out of range.
std::string EnumName(std::string_view family, uint64_t value) {
  static const std::map<std::string_view, std::vector<std::string_view>>
      kEnums = {
          {"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
          {"comparison_type",
           {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
          {"api_version",
           {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
            "API_VERSION_STATUS_RETURNING",
            "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
          {"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
          {"precision", {"DEFAULT", "HIGH", "HIGHEST"}},
          {"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
          {"rng_distribution", {"", "UNIFORM", "NORMAL"}},
          {"transpose",
           {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
          {"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
      };
  const auto it = kEnums.find(family);
  if (it == kEnums.end() || value >= it->second.size()) return "";
  return std::string(it->second[value]);
}

// Scalar element types: (VHLO type code, StableHLO name, value bits, kind).
struct ScalarInfo {
  int code;
  const char* name;
  int bits;
  char kind;  // 'b' bool, 's' signed, 'u' unsigned, 'f' float, 'm' minifloat
};
constexpr ScalarInfo kVhloScalars[] = {
    {0, "i1", 1, 'b'},
    {2, "bf16", 16, 'f'},
    {3, "f16", 16, 'f'},
    {4, "f32", 32, 'f'},
    {5, "f64", 64, 'f'},
    {6, "f8E4M3FN", 8, 'm'},
    {7, "f8E5M2", 8, 'm'},
    {9, "index", 64, 's'},
    {10, "i4", 4, 's'},
    {11, "i8", 8, 's'},
    {12, "i16", 16, 's'},
    {13, "i32", 32, 's'},
    {14, "i64", 64, 's'},
    {15, "ui4", 4, 'u'},
    {16, "ui8", 8, 'u'},
    {17, "ui16", 16, 'u'},
    {18, "ui32", 32, 'u'},
    {19, "ui64", 64, 'u'},
    {27, "f8E4M3FNUZ", 8, 'm'},
    {28, "f8E5M2FNUZ", 8, 'm'},
    {29, "f8E4M3B11FNUZ", 8, 'm'},
    {31, "i2", 2, 's'},
    {32, "ui2", 2, 'u'},
    {34, "tf32", 19, 'm'},
    {35, "f8E4M3", 8, 'm'},
    {36, "f8E3M4", 8, 'm'},
    {37, "f4E2M1FN", 4, 'm'},
    {38, "f6E2M3FN", 6, 'm'},
    {39, "f6E3M2FN", 6, 'm'},
    {40, "f8E8M0FNU", 8, 'm'},
};

void FillScalar(Type* type, const char* name, int bits, char kind) {
  type->text = name;
  type->bits = bits;
  type->storage_bytes = bits == 1 ? 1 : (bits + 7) / 8;
  type->is_integer = kind == 'b' || kind == 's' || kind == 'u';
  type->is_signed = kind == 's';
  type->is_bool = kind == 'b';
  type->is_float = kind == 'f' || kind == 'm';
  type->is_minifloat = kind == 'm';
}

class ArtifactReader {
 public:
  explicit ArtifactReader(const MlirBytecode& bc) : bc_(bc) {
    attributes_.resize(bc.attributes.size(), nullptr);
    types_.resize(bc.types.size(), nullptr);
    value_names_.resize(static_cast<std::size_t>(bc.value_count));
    for (std::size_t i = 0; i < value_names_.size(); ++i) {
      value_names_[i] = "%v" + std::to_string(i);
    }
  }

  StatusOr<std::string> Run() {
    if (bc_.top.operations.size() != 1 ||
        bc_.OperationName(bc_.top.operations[0]) != "builtin.module") {
      return BytecodeCursor(bc_.file, 0, bc_.file.size(), bc_.file_name)
          .ErrorAt(
              bc_.top.operations.empty() ? 0 : bc_.top.operations[0].offset,
              "expected one builtin.module at the top level");
    }
    PHAL_RETURN_IF_ERROR(CheckProducer());
    const BytecodeOperation& module = bc_.top.operations[0];
    out_ = "module";
    PHAL_ASSIGN_OR_RETURN(std::vector<NamedAttr> attributes,
                          OperationAttributes(module, nullptr));
    std::string attribute_text;
    for (const NamedAttr& a : attributes) {
      if (a.first == "sym_name" && a.second->kind == Attr::Kind::kString) {
        out_ += " @" + a.second->text;
        continue;
      }
      if (a.first == "sym_visibility") continue;
      PHAL_ASSIGN_OR_RETURN(std::string value, Print(*a.second));
      attribute_text +=
          (attribute_text.empty() ? "" : ", ") + a.first + " = " + value;
    }
    if (!attribute_text.empty()) out_ += " attributes {" + attribute_text + "}";
    out_ += " {\n";
    if (module.regions.size() != 1 || module.regions[0].blocks.size() > 1) {
      return ErrorAt(module.offset, "the module must hold one block");
    }
    if (!module.regions[0].blocks.empty()) {
      for (const BytecodeOperation& op :
           module.regions[0].blocks[0].operations) {
        PHAL_RETURN_IF_ERROR(TopLevelOperation(op));
      }
    }
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  using NamedAttr = std::pair<std::string, const Attr*>;

  Status ErrorAt(std::size_t offset, const std::string& message) const {
    return bc_.CursorOver(0, bc_.file.size()).ErrorAt(offset, message);
  }

  // The producer names the StableHLO version that wrote VHLO; a newer one
  // than this reader knows may hold ops it cannot read, which are then
  // reported by name where they occur.
  Status CheckProducer() {
    const std::string prefix = "StableHLO_v";
    if (bc_.producer.rfind(prefix, 0) != 0) return OkStatus();
    producer_version_ = bc_.producer.substr(prefix.size());
    return OkStatus();
  }

  // --- Types ---------------------------------------------------------------

  StatusOr<const Type*> TypeAt(uint64_t index) {
    if (index >= types_.size()) {
      return ErrorAt(
          0, "type index " + std::to_string(index) + " is out of range");
    }
    if (types_[index] != nullptr) return types_[index];
    if (in_progress_types_.count(index) > 0) {
      return ErrorAt(bc_.types[index].begin,
                     "type " + std::to_string(index) + " refers to itself");
    }
    if (in_progress_types_.size() + in_progress_attributes_.size() >=
        static_cast<std::size_t>(kMaxNesting)) {
      return ErrorAt(bc_.types[index].begin,
                     "attributes and types nested deeper than " +
                         std::to_string(kMaxNesting));
    }
    in_progress_types_.insert(index);
    const BytecodeTableEntry& entry = bc_.types[index];
    BytecodeCursor cursor = bc_.CursorOver(entry.begin, entry.end);
    type_storage_.emplace_back();
    Type* type = &type_storage_.back();
    const std::string& dialect = bc_.dialects[entry.dialect];
    Status status = OkStatus();
    if (!entry.custom_encoding) {
      status = cursor.ReadNullTerminated(&type->text, "a type's MLIR text");
    } else if (dialect == "vhlo") {
      status = ReadVhloType(cursor, type);
    } else if (dialect == "builtin") {
      status = ReadBuiltinType(cursor, type);
    } else {
      status = cursor.Error("a type of dialect '" + dialect +
                            "' in a custom encoding this reader does not know");
    }
    if (status.ok() && !cursor.empty()) {
      status = cursor.Error("unexpected bytes after a type");
    }
    if (status.ok() && type->text.size() > kMaxCompositeText) {
      status = cursor.ErrorAt(
          entry.begin, "a type whose text exceeds " +
                           std::to_string(kMaxCompositeText >> 20) + " MiB");
    }
    in_progress_types_.erase(index);
    PHAL_RETURN_IF_ERROR(status);
    types_[index] = type;
    return type;
  }

  Status ReadTypeRef(BytecodeCursor& cursor, const Type** out) {
    uint64_t index = 0;
    const std::size_t at = cursor.position();
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&index, "a type index"));
    if (index >= types_.size()) {
      return cursor.ErrorAt(at, "type index " + std::to_string(index) +
                                    " is out of range (" +
                                    std::to_string(types_.size()) + " types)");
    }
    PHAL_ASSIGN_OR_RETURN(*out, TypeAt(index));
    return OkStatus();
  }

  Status ReadTypeList(BytecodeCursor& cursor, std::vector<const Type*>* out) {
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a type count"));
    for (uint64_t i = 0; i < count; ++i) {
      const Type* type = nullptr;
      PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &type));
      out->push_back(type);
    }
    return OkStatus();
  }

  Status ReadShape(BytecodeCursor& cursor, std::vector<int64_t>* dims) {
    uint64_t rank = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&rank, 1, "a rank"));
    for (uint64_t i = 0; i < rank; ++i) {
      int64_t d = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&d, "a dimension"));
      if (d < 0 && d != kDynamicSize) {
        return cursor.Error("negative dimension " + std::to_string(d));
      }
      dims->push_back(d);
    }
    return OkStatus();
  }

  static std::string ShapePrefix(const std::vector<int64_t>& dims) {
    std::string out;
    for (int64_t d : dims)
      out += (d == kDynamicSize ? "?" : std::to_string(d)) + "x";
    return out;
  }

  Status ReadTensor(BytecodeCursor& cursor, Type* type, bool with_encoding) {
    const Attr* encoding = nullptr;
    if (with_encoding) PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &encoding));
    PHAL_RETURN_IF_ERROR(ReadShape(cursor, &type->dims));
    PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &type->element));
    type->is_tensor = true;
    type->text = "tensor<" + ShapePrefix(type->dims) + type->element->text;
    if (encoding != nullptr) {
      PHAL_ASSIGN_OR_RETURN(std::string e, Print(*encoding));
      type->text += ", " + e;
    }
    type->text += ">";
    return OkStatus();
  }

  static std::string TypeListText(const std::vector<const Type*>& types) {
    std::string out;
    for (std::size_t i = 0; i < types.size(); ++i) {
      out += (i > 0 ? ", " : "") + types[i]->text;
    }
    return out;
  }

  void FinishFunctionType(Type* type) {
    type->text = "(" + TypeListText(type->inputs) + ") -> ";
    type->text +=
        type->outputs.size() == 1 && type->outputs[0]->text.rfind("(", 0) != 0
            ? type->outputs[0]->text
            : "(" + TypeListText(type->outputs) + ")";
  }

  Status ReadFloatBits(BytecodeCursor& cursor, int bits, uint64_t* out) {
    if (bits <= 8) {
      uint8_t byte = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadByte(&byte, "a small value"));
      *out = byte;
      return OkStatus();
    }
    if (bits <= 64) {
      int64_t value = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&value, "a value"));
      *out = static_cast<uint64_t>(value);
      if (bits < 64) *out &= (uint64_t{1} << bits) - 1;
      return OkStatus();
    }
    uint64_t words = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&words, 1, "a word count"));
    for (uint64_t i = 0; i < words; ++i) {
      int64_t word = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&word, "a word"));
      if (i == 0) *out = static_cast<uint64_t>(word);
    }
    return OkStatus();
  }

  Status ReadQuantized(BytecodeCursor& cursor, Type* type, bool per_axis) {
    uint64_t flags = 0;
    const Type* storage = nullptr;
    const Type* expressed = nullptr;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&flags, "quantization flags"));
    PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &storage));
    PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &expressed));
    if (!storage->is_integer || storage->bits < 2 || storage->bits > 32 ||
        !expressed->is_float) {
      return cursor.Error("a quantized type of storage " + storage->text +
                          " and expressed type " + expressed->text +
                          " (expected an integer of 2 to 32 bits and a "
                          "float)");
    }
    std::string params;
    uint64_t axis = 0;
    int64_t storage_min = 0;
    int64_t storage_max = 0;
    if (!per_axis) {
      uint64_t scale_bits = 0;
      int64_t zero_point = 0;
      PHAL_RETURN_IF_ERROR(ReadFloatBits(cursor, 64, &scale_bits));
      PHAL_RETURN_IF_ERROR(
          cursor.ReadSignedVarInt(&zero_point, "a zero point"));
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&storage_min, "a minimum"));
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&storage_max, "a maximum"));
      double scale = 0;
      std::memcpy(&scale, &scale_bits, sizeof(scale));
      params = FormatDouble(scale) + ":" + std::to_string(zero_point);
    } else {
      PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&axis, "a quantized dimension"));
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&storage_min, "a minimum"));
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&storage_max, "a maximum"));
      uint64_t count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a scale count"));
      std::vector<double> scales(count);
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t bits = 0;
        PHAL_RETURN_IF_ERROR(ReadFloatBits(cursor, 64, &bits));
        std::memcpy(&scales[i], &bits, sizeof(double));
      }
      uint64_t zero_count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&zero_count, 1, "a zero count"));
      if (zero_count != count) {
        return cursor.Error("per-axis quantization with " +
                            std::to_string(count) + " scales and " +
                            std::to_string(zero_count) + " zero points");
      }
      params = "{";
      for (uint64_t i = 0; i < count; ++i) {
        int64_t zero = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&zero, "a zero point"));
        params += (i > 0 ? ", " : "") + FormatDouble(scales[i]) + ":" +
                  std::to_string(zero);
      }
      params += "}";
    }
    std::string storage_text = storage->text;
    if ((flags & 1) == 0 && storage_text[0] == 'i') {
      storage_text = "u" + storage_text;
    }
    const int bits = storage->bits;
    const bool is_signed = (flags & 1) != 0;
    const int64_t default_min = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t default_max =
        is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    if (storage_min != default_min || storage_max != default_max) {
      storage_text += "<" + std::to_string(storage_min) + ":" +
                      std::to_string(storage_max) + ">";
    }
    type->text = "!quant.uniform<" + storage_text + ":" + expressed->text +
                 (per_axis ? ":" + std::to_string(axis) : "") + ", " + params +
                 ">";
    FillScalarFrom(type, *storage);
    return OkStatus();
  }

  static void FillScalarFrom(Type* type, const Type& storage) {
    type->bits = storage.bits;
    type->storage_bytes = storage.storage_bytes;
    type->is_integer = true;
    type->is_signed = storage.is_signed;
  }

  Status ReadVhloType(BytecodeCursor& cursor, Type* type) {
    const std::size_t at = cursor.position();
    uint64_t code = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&code, "a VHLO type code"));
    for (const ScalarInfo& scalar : kVhloScalars) {
      if (static_cast<uint64_t>(scalar.code) == code) {
        FillScalar(type, scalar.name, scalar.bits, scalar.kind);
        return OkStatus();
      }
    }
    switch (code) {
      case 1: {  // complex
        const Type* element = nullptr;
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &element));
        type->text = "complex<" + element->text + ">";
        type->bits = element->bits * 2;
        type->storage_bytes = element->storage_bytes * 2;
        type->is_complex = true;
        return OkStatus();
      }
      case 8:  // function
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &type->inputs));
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &type->outputs));
        FinishFunctionType(type);
        return OkStatus();
      case 20:
      case 21:
        return ReadTensor(cursor, type, code == 21);
      case 22:
        type->text = "!stablehlo.token";
        return OkStatus();
      case 23: {
        std::vector<const Type*> elements;
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &elements));
        type->text = "tuple<" + TypeListText(elements) + ">";
        return OkStatus();
      }
      case 24:
        return ReadQuantized(cursor, type, false);
      case 30:
        return ReadQuantized(cursor, type, true);
      case 25: {
        const Type* element = nullptr;
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &element));
        type->text = "tensor<*x" + element->text + ">";
        return OkStatus();
      }
      case 26:
        type->text = "!shape.witness";
        return OkStatus();
      case 33:
        type->text = "none";
        type->is_none = true;
        return OkStatus();
      case 41: {
        std::vector<int64_t> dims;
        const Type* element = nullptr;
        PHAL_RETURN_IF_ERROR(ReadShape(cursor, &dims));
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &element));
        type->text = "memref<" + ShapePrefix(dims) + element->text + ">";
        return OkStatus();
      }
      case 42: {
        std::vector<const Type*> elements;
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &elements));
        type->text = "!stablehlo.future<" + TypeListText(elements) + ">";
        return OkStatus();
      }
      default:
        return cursor.ErrorAt(at, "unknown VHLO type code " +
                                      std::to_string(code) +
                                      " (this reader knows StableHLO up to "
                                      "1.20.0)");
    }
  }

  Status ReadBuiltinType(BytecodeCursor& cursor, Type* type) {
    const std::size_t at = cursor.position();
    uint64_t code = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&code, "a builtin type code"));
    switch (code) {
      case 0: {
        uint64_t width_and_signedness = 0;
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarInt(&width_and_signedness, "an integer width"));
        const uint64_t width = width_and_signedness >> 2;
        const uint64_t signedness = width_and_signedness & 3;
        if (width == 0 || width > 64) {
          return cursor.ErrorAt(at, "integer width " + std::to_string(width) +
                                        " is outside 1 to 64");
        }
        const std::string prefix =
            signedness == 2 ? "ui" : (signedness == 1 ? "si" : "i");
        FillScalar(type, "", static_cast<int>(width),
                   width == 1 ? 'b' : (signedness == 2 ? 'u' : 's'));
        type->text = prefix + std::to_string(width);
        return OkStatus();
      }
      case 1:
        FillScalar(type, "index", 64, 's');
        return OkStatus();
      case 2:
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &type->inputs));
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &type->outputs));
        FinishFunctionType(type);
        return OkStatus();
      case 3:
        FillScalar(type, "bf16", 16, 'f');
        return OkStatus();
      case 4:
        FillScalar(type, "f16", 16, 'f');
        return OkStatus();
      case 5:
        FillScalar(type, "f32", 32, 'f');
        return OkStatus();
      case 6:
        FillScalar(type, "f64", 64, 'f');
        return OkStatus();
      case 9: {
        const Type* element = nullptr;
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &element));
        type->text = "complex<" + element->text + ">";
        type->bits = element->bits * 2;
        type->storage_bytes = element->storage_bytes * 2;
        type->is_complex = true;
        return OkStatus();
      }
      case 12:
        type->text = "none";
        type->is_none = true;
        return OkStatus();
      case 13:
      case 14:
        return ReadTensor(cursor, type, code == 14);
      case 15: {
        std::vector<const Type*> elements;
        PHAL_RETURN_IF_ERROR(ReadTypeList(cursor, &elements));
        type->text = "tuple<" + TypeListText(elements) + ">";
        return OkStatus();
      }
      default:
        return cursor.ErrorAt(at, "builtin type code " + std::to_string(code) +
                                      " is not read in portable artifacts");
    }
  }

  // --- Attributes ----------------------------------------------------------

  StatusOr<const Attr*> AttrAt(uint64_t index) {
    if (index >= attributes_.size()) {
      return ErrorAt(
          0, "attribute index " + std::to_string(index) + " is out of range");
    }
    if (attributes_[index] != nullptr) return attributes_[index];
    if (in_progress_attributes_.count(index) > 0) {
      return ErrorAt(
          bc_.attributes[index].begin,
          "attribute " + std::to_string(index) + " refers to itself");
    }
    if (in_progress_types_.size() + in_progress_attributes_.size() >=
        static_cast<std::size_t>(kMaxNesting)) {
      return ErrorAt(bc_.attributes[index].begin,
                     "attributes and types nested deeper than " +
                         std::to_string(kMaxNesting));
    }
    in_progress_attributes_.insert(index);
    const BytecodeTableEntry& entry = bc_.attributes[index];
    BytecodeCursor cursor = bc_.CursorOver(entry.begin, entry.end);
    attribute_storage_.emplace_back();
    Attr* attr = &attribute_storage_.back();
    const std::string& dialect = bc_.dialects[entry.dialect];
    Status status = OkStatus();
    if (!entry.custom_encoding) {
      attr->kind = Attr::Kind::kText;
      status =
          cursor.ReadNullTerminated(&attr->text, "an attribute's MLIR text");
    } else if (dialect == "vhlo") {
      status = ReadVhloAttribute(cursor, attr);
    } else if (dialect == "builtin") {
      status = ReadBuiltinAttribute(cursor, attr);
    } else if (dialect == "sdy") {
      status = ReadShardyAttribute(cursor, attr);
    } else {
      status = cursor.Error("an attribute of dialect '" + dialect +
                            "' in a custom encoding this reader does not know");
    }
    if (status.ok() && !cursor.empty() && attr->kind != Attr::Kind::kLocation) {
      status = cursor.Error("unexpected bytes after an attribute");
    }
    if (status.ok() && attr->text.size() > kMaxCompositeText) {
      status = cursor.ErrorAt(
          entry.begin, "an attribute whose text exceeds " +
                           std::to_string(kMaxCompositeText >> 20) + " MiB");
    }
    in_progress_attributes_.erase(index);
    PHAL_RETURN_IF_ERROR(status);
    attributes_[index] = attr;
    return attr;
  }

  Status ReadAttrRef(BytecodeCursor& cursor, const Attr** out) {
    uint64_t index = 0;
    const std::size_t at = cursor.position();
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&index, "an attribute index"));
    if (index >= attributes_.size()) {
      return cursor.ErrorAt(at, "attribute index " + std::to_string(index) +
                                    " is out of range (" +
                                    std::to_string(attributes_.size()) +
                                    " attributes)");
    }
    PHAL_ASSIGN_OR_RETURN(*out, AttrAt(index));
    return OkStatus();
  }

  Status ReadAttrList(BytecodeCursor& cursor, Attr* attr) {
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "an element count"));
    for (uint64_t i = 0; i < count; ++i) {
      const Attr* element = nullptr;
      PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &element));
      attr->elements.push_back(element);
    }
    return OkStatus();
  }

  Status ReadString(BytecodeCursor& cursor, std::string* out) {
    uint64_t index = 0;
    const std::size_t at = cursor.position();
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&index, "a string index"));
    if (index >= bc_.strings.size()) {
      return cursor.ErrorAt(
          at, "string index " + std::to_string(index) + " is out of range");
    }
    *out = bc_.strings[index];
    return OkStatus();
  }

  Status ReadEnum(BytecodeCursor& cursor, Attr* attr, const char* family) {
    const std::size_t at = cursor.position();
    uint64_t value = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&value, "an enum value"));
    attr->kind = Attr::Kind::kEnum;
    attr->family = family;
    attr->integer = static_cast<int64_t>(value);
    attr->text = EnumName(family, value);
    if (attr->text.empty()) {
      return cursor.ErrorAt(
          at, "value " + std::to_string(value) + " is not a " + family);
    }
    return OkStatus();
  }

  Status ReadIntegerValue(BytecodeCursor& cursor, Attr* attr) {
    PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &attr->type));
    const int bits = attr->type->bits;
    if (bits <= 0 || bits > 64 || !attr->type->is_integer) {
      return cursor.Error("an integer attribute of type " + attr->type->text);
    }
    uint64_t value = 0;
    PHAL_RETURN_IF_ERROR(ReadFloatBits(cursor, bits, &value));
    if (attr->type->is_signed && bits < 64 &&
        ((value >> (bits - 1)) & 1) != 0) {
      value |= ~uint64_t{0} << bits;
    }
    attr->kind = Attr::Kind::kInteger;
    attr->integer = static_cast<int64_t>(value);
    attr->bits = value;
    return OkStatus();
  }

  Status ReadFloatValue(BytecodeCursor& cursor, Attr* attr) {
    PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &attr->type));
    if (!attr->type->is_float) {
      return cursor.Error("a float attribute of type " + attr->type->text);
    }
    attr->kind = Attr::Kind::kFloat;
    return ReadFloatBits(cursor, attr->type->bits, &attr->bits);
  }

  Status ReadTensorData(BytecodeCursor& cursor, Attr* attr) {
    uint64_t size = 0;
    std::size_t begin = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&size, "a data size"));
    PHAL_RETURN_IF_ERROR(cursor.ReadBytes(size, &begin, "tensor data"));
    attr->kind = Attr::Kind::kTensor;
    std::string_view blob = bc_.file.substr(begin, size);
    const Type* type = attr->type;
    if (!type->is_tensor) {
      return cursor.Error("tensor data of non-tensor type " + type->text);
    }
    const int64_t count = type->ElementCount();
    const Type& element = *type->element;
    if (element.is_bool && !blob.empty()) {
      // Booleans are bit-packed, a splat of true being one 0xFF byte.
      if (blob.size() == 1 && static_cast<unsigned char>(blob[0]) == 0xff) {
        attr->data.assign(1, 1);
        return OkStatus();
      }
      const uint64_t packed = (static_cast<uint64_t>(count) + 7) / 8;
      if (blob.size() == packed &&
          blob.size() != static_cast<uint64_t>(count)) {
        attr->data.resize(static_cast<std::size_t>(count));
        for (int64_t i = 0; i < count; ++i) {
          attr->data[i] = (blob[i / 8] >> (i % 8)) & 1;
        }
        return OkStatus();
      }
    }
    const uint64_t element_bytes = static_cast<uint64_t>(element.storage_bytes);
    if (element_bytes == 0) {
      return cursor.Error("tensor data of element type " + element.text);
    }
    if (blob.size() != element_bytes * static_cast<uint64_t>(count) &&
        blob.size() != element_bytes) {
      return cursor.ErrorAt(begin, "tensor data of " +
                                       std::to_string(blob.size()) +
                                       " bytes for " + type->text);
    }
    attr->data = std::string(blob);
    return OkStatus();
  }

  Status ReadVhloAttribute(BytecodeCursor& cursor, Attr* attr) {
    const std::size_t at = cursor.position();
    uint64_t code = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&code, "a VHLO attribute code"));
    switch (code) {
      case 1:
        attr->kind = Attr::Kind::kArray;
        return ReadAttrList(cursor, attr);
      case 2: {
        uint64_t value = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&value, "a boolean"));
        if (value > 1) {
          return cursor.ErrorAt(at, "boolean value " + std::to_string(value));
        }
        attr->kind = Attr::Kind::kBool;
        attr->boolean = value == 1;
        return OkStatus();
      }
      case 3:
        return ReadEnum(cursor, attr, "comparison_direction");
      case 4:
        return ReadEnum(cursor, attr, "comparison_type");
      case 5:
        return ReadEnum(cursor, attr, "api_version");
      case 6:
        return ReadDictionary(cursor, attr);
      case 7:
        return ReadEnum(cursor, attr, "fft_type");
      case 8:
        return ReadFloatValue(cursor, attr);
      case 9:
        return ReadIntegerValue(cursor, attr);
      case 10: {
        attr->kind = Attr::Kind::kOutputOperandAlias;
        std::vector<int64_t> output;
        std::vector<int64_t> operand;
        int64_t operand_index = 0;
        PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &output));
        PHAL_RETURN_IF_ERROR(
            cursor.ReadSignedVarInt(&operand_index, "an operand index"));
        PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &operand));
        attr->text =
            "#stablehlo.output_operand_alias<output_tuple_indices = [" +
            JoinIntegers(output) +
            "], operand_index = " + std::to_string(operand_index) +
            ", operand_tuple_indices = [" + JoinIntegers(operand) + "]>";
        return OkStatus();
      }
      case 11:
        return ReadEnum(cursor, attr, "precision");
      case 12:
        return ReadEnum(cursor, attr, "rng_algorithm");
      case 13:
        return ReadEnum(cursor, attr, "rng_distribution");
      case 14:
        attr->kind = Attr::Kind::kString;
        return ReadString(cursor, &attr->text);
      case 15:
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &attr->type));
        return ReadTensorData(cursor, attr);
      case 16:
        return ReadEnum(cursor, attr, "transpose");
      case 17:
        attr->kind = Attr::Kind::kType;
        return ReadTypeRef(cursor, &attr->type);
      case 18: {
        attr->kind = Attr::Kind::kTypeExtensions;
        PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &attr->integers));
        return OkStatus();
      }
      case 19:
        return ReadEnum(cursor, attr, "result_accuracy_mode");
      case 20: {
        uint64_t atol = 0;
        uint64_t rtol = 0;
        int64_t ulps = 0;
        const Attr* mode = nullptr;
        PHAL_RETURN_IF_ERROR(ReadFloatBits(cursor, 64, &atol));
        PHAL_RETURN_IF_ERROR(ReadFloatBits(cursor, 64, &rtol));
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&ulps, "ulps"));
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &mode));
        double a = 0;
        double r = 0;
        std::memcpy(&a, &atol, sizeof(a));
        std::memcpy(&r, &rtol, sizeof(r));
        attr->kind = Attr::Kind::kResultAccuracy;
        attr->boolean = a == 0 && r == 0 && ulps == 0 &&
                        mode->kind == Attr::Kind::kEnum && mode->integer == 0;
        attr->text =
            "#stablehlo.result_accuracy<atol = " + FormatDouble(a) +
            ", rtol = " + FormatDouble(r) + ", ulps = " + std::to_string(ulps) +
            ", mode = #stablehlo.result_accuracy_mode<" +
            (mode->kind == Attr::Kind::kEnum ? mode->text : "DEFAULT") + ">>";
        return OkStatus();
      }
      case 21: {
        int64_t pre = 0;
        int64_t size = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&pre, "a pre-size"));
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&size, "a size"));
        attr->text = "(" + std::to_string(pre) + ")" + std::to_string(size);
        return OkStatus();
      }
      case 22: {
        const Attr* name = nullptr;
        uint64_t has_sub = 0;
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &name));
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&has_sub, "a sub-axis flag"));
        attr->text = Quote(name->text);
        if (has_sub != 0) {
          const Attr* sub = nullptr;
          PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &sub));
          attr->text += ":" + sub->text;
        }
        return OkStatus();
      }
      case 23: {
        const Attr* mesh = nullptr;
        const Attr* axes = nullptr;
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &mesh));
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &axes));
        PHAL_ASSIGN_OR_RETURN(std::string axes_text, Print(*axes));
        attr->text = "#stablehlo.replica_group_mesh_axes<mesh = @" +
                     mesh->text + ", axes = " + axes_text + ">";
        return OkStatus();
      }
      case 24: {
        const Attr* name = nullptr;
        int64_t size = 0;
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &name));
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&size, "an axis size"));
        attr->text = Quote(name->text) + "=" + std::to_string(size);
        return OkStatus();
      }
      case 25: {
        const Attr* axes = nullptr;
        uint64_t device_ids = 0;
        bool present = false;
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &axes));
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarIntWithFlag(&device_ids, &present, "device ids"));
        attr->text = "#stablehlo.mesh<axes = [";
        for (std::size_t i = 0; i < axes->elements.size(); ++i) {
          attr->text += (i > 0 ? ", " : "") + axes->elements[i]->text;
        }
        attr->text += "]>";
        return OkStatus();
      }
      default:
        return cursor.ErrorAt(at, "unknown VHLO attribute code " +
                                      std::to_string(code) +
                                      " (this reader knows StableHLO up to "
                                      "1.20.0)");
    }
  }

  Status ReadSignedList(BytecodeCursor& cursor, std::vector<int64_t>* out) {
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "an integer count"));
    for (uint64_t i = 0; i < count; ++i) {
      int64_t value = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&value, "an integer"));
      out->push_back(value);
    }
    return OkStatus();
  }

  Status ReadDictionary(BytecodeCursor& cursor, Attr* attr) {
    attr->kind = Attr::Kind::kDictionary;
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 2, "an entry count"));
    for (uint64_t i = 0; i < count; ++i) {
      const Attr* name = nullptr;
      const Attr* value = nullptr;
      PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &name));
      PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &value));
      if (name->kind != Attr::Kind::kString) {
        return cursor.Error("a dictionary key that is not a string");
      }
      attr->names.push_back(name->text);
      attr->elements.push_back(value);
    }
    return OkStatus();
  }

  Status ReadBuiltinAttribute(BytecodeCursor& cursor, Attr* attr) {
    const std::size_t at = cursor.position();
    uint64_t code = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&code, "a builtin attribute code"));
    switch (code) {
      case 0:
        attr->kind = Attr::Kind::kArray;
        return ReadAttrList(cursor, attr);
      case 1:
        return ReadDictionary(cursor, attr);
      case 2:
        attr->kind = Attr::Kind::kString;
        return ReadString(cursor, &attr->text);
      case 3: {
        attr->kind = Attr::Kind::kString;
        const Type* type = nullptr;
        PHAL_RETURN_IF_ERROR(ReadString(cursor, &attr->text));
        return ReadTypeRef(cursor, &type);
      }
      case 4: {
        const Attr* root = nullptr;
        PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &root));
        attr->kind = Attr::Kind::kSymbol;
        attr->text = root->text;
        return OkStatus();
      }
      case 6:
        attr->kind = Attr::Kind::kType;
        return ReadTypeRef(cursor, &attr->type);
      case 7:
        attr->kind = Attr::Kind::kUnit;
        return OkStatus();
      case 8:
        return ReadIntegerValue(cursor, attr);
      case 9:
        return ReadFloatValue(cursor, attr);
      case 10:
      case 11:
      case 12:
      case 13:
      case 14:
      case 15:
      case 22:
        attr->kind = Attr::Kind::kLocation;
        return OkStatus();
      case 17: {
        const Type* element = nullptr;
        uint64_t size = 0;
        uint64_t bytes = 0;
        std::size_t begin = 0;
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &element));
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&size, "an array size"));
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&bytes, "a data size"));
        PHAL_RETURN_IF_ERROR(cursor.ReadBytes(bytes, &begin, "array data"));
        const uint64_t width = static_cast<uint64_t>(element->storage_bytes);
        if (!element->is_integer || width == 0 || width > 8 ||
            bytes != size * width) {
          return cursor.ErrorAt(at, "a dense array of " + element->text +
                                        " with " + std::to_string(bytes) +
                                        " bytes for " + std::to_string(size) +
                                        " elements");
        }
        attr->kind = Attr::Kind::kOther;
        attr->text = "array<" + element->text + (size > 0 ? ": " : "");
        for (uint64_t i = 0; i < size; ++i) {
          uint64_t value = 0;
          std::memcpy(&value, bc_.file.data() + begin + i * width, width);
          int64_t v = static_cast<int64_t>(value);
          if (element->is_signed && width < 8 &&
              ((value >> (8 * width - 1)) & 1) != 0) {
            v = static_cast<int64_t>(value | (~uint64_t{0} << (8 * width)));
          }
          attr->text += (i > 0 ? ", " : "") +
                        (element->is_bool ? std::string(v ? "true" : "false")
                                          : std::to_string(v));
        }
        attr->text += ">";
        return OkStatus();
      }
      case 18:
        PHAL_RETURN_IF_ERROR(ReadTypeRef(cursor, &attr->type));
        return ReadTensorData(cursor, attr);
      default:
        return cursor.ErrorAt(at, "builtin attribute code " +
                                      std::to_string(code) +
                                      " is not read in portable artifacts");
    }
  }

  // Shardy's attributes, as the text Shardy prints: `family` is the
  // attribute's name for the ones that stand alone (#sdy.sharding<...>).
  Status ReadShardyList(BytecodeCursor& cursor, std::string* out,
                        const char* separator = ", ") {
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a Shardy list"));
    for (uint64_t i = 0; i < count; ++i) {
      const Attr* element = nullptr;
      PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &element));
      if (i > 0) *out += separator;
      *out += element->kind == Attr::Kind::kString ? Quote(element->text)
                                                   : element->text;
    }
    return OkStatus();
  }

  Status ReadShardySharding(BytecodeCursor& cursor, Attr* attr, int version) {
    const Attr* mesh = nullptr;
    PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &mesh));
    attr->family = "sdy.sharding";
    attr->text = "<" +
                 (mesh->kind == Attr::Kind::kSymbol ? "@" + mesh->text
                                                    : "mesh" + mesh->text) +
                 ", [";
    PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &attr->text));
    attr->text += "]";
    std::string replicated;
    PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &replicated));
    if (!replicated.empty()) attr->text += ", replicated={" + replicated + "}";
    if (version >= 2) {
      std::string unreduced;
      PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &unreduced));
      if (!unreduced.empty()) attr->text += ", unreduced={" + unreduced + "}";
    }
    if (version >= 3) {
      int64_t reduction = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&reduction, "a reduction"));
    }
    attr->text += ">";
    return OkStatus();
  }

  // Shardy names a rule's factors i, j, ..., z, then z_1, z_2, ...
  static std::string FactorName(int64_t factor) {
    if (factor >= 0 && factor < 18) {
      return std::string(1, static_cast<char>('i' + factor));
    }
    return "z_" + std::to_string(factor - 17);
  }

  static std::string FactorSet(const std::vector<int64_t>& factors) {
    std::string out = "{";
    for (std::size_t i = 0; i < factors.size(); ++i) {
      out += (i > 0 ? ", " : "") + FactorName(factors[i]);
    }
    return out + "}";
  }

  // An op's sharding rule (sdy.sharding_rule on custom calls):
  // <([i, j], [j])->([i]) {i=4, j=2} reduction={j}>.
  Status ReadShardingRule(BytecodeCursor& cursor, Attr* attr) {
    std::vector<int64_t> sizes;
    std::string operands;
    std::string results;
    PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &sizes));
    PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &operands));
    PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &results));
    attr->text = "<(" + operands + ")->(" + results + ") {";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      attr->text += (i > 0 ? ", " : "") + FactorName(static_cast<int64_t>(i)) +
                    "=" + std::to_string(sizes[i]);
    }
    attr->text += "}";
    for (const char* kind : {"reduction", "need_replication", "permutation",
                             "blocked_propagation"}) {
      std::vector<int64_t> factors;
      PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &factors));
      if (!factors.empty()) {
        attr->text += std::string(" ") + kind + "=" + FactorSet(factors);
      }
    }
    uint8_t custom = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadByte(&custom, "is_custom_rule"));
    if (custom != 0) attr->text += " custom";
    attr->text += ">";
    return OkStatus();
  }

  Status ReadShardyAttribute(BytecodeCursor& cursor, Attr* attr) {
    const std::size_t at = cursor.position();
    uint64_t code = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&code, "a Shardy attribute code"));
    attr->kind = Attr::Kind::kText;
    switch (code) {
      case 0:  // manual axes
        attr->text = "{";
        PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &attr->text));
        attr->text += "}";
        return OkStatus();
      case 1: {  // mesh axis
        std::string name;
        int64_t size = 0;
        PHAL_RETURN_IF_ERROR(ReadString(cursor, &name));
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&size, "an axis size"));
        attr->text = Quote(name) + "=" + std::to_string(size);
        return OkStatus();
      }
      case 2: {  // mesh
        attr->family = "sdy.mesh";
        attr->text = "<[";
        PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &attr->text));
        attr->text += "]";
        std::vector<int64_t> device_ids;
        PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &device_ids));
        if (!device_ids.empty()) {
          attr->text += ", device_ids=[" + JoinIntegers(device_ids) + "]";
        }
        attr->text += ">";
        return OkStatus();
      }
      case 3: {  // sub-axis info
        int64_t pre = 0;
        int64_t size = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&pre, "a pre-size"));
        PHAL_RETURN_IF_ERROR(cursor.ReadSignedVarInt(&size, "a size"));
        attr->text = "(" + std::to_string(pre) + ")" + std::to_string(size);
        return OkStatus();
      }
      case 4: {  // axis ref
        std::string name;
        uint64_t index = 0;
        bool present = false;
        PHAL_RETURN_IF_ERROR(ReadString(cursor, &name));
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarIntWithFlag(&index, &present, "a sub-axis"));
        attr->text = Quote(name);
        if (present) {
          PHAL_ASSIGN_OR_RETURN(const Attr* sub, AttrAt(index));
          attr->text += ":" + sub->text;
        }
        return OkStatus();
      }
      case 5: {  // dimension sharding
        std::string axes;
        uint8_t closed = 0;
        uint64_t priority = 0;
        bool has_priority = false;
        PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &axes));
        PHAL_RETURN_IF_ERROR(cursor.ReadByte(&closed, "is_closed"));
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarIntWithFlag(&priority, &has_priority, "a priority"));
        if (closed == 0) axes += axes.empty() ? "?" : ", ?";
        attr->text = "{" + axes + "}";
        if (has_priority) attr->text += "p" + std::to_string(priority);
        return OkStatus();
      }
      case 6:
        return ReadShardySharding(cursor, attr, 1);
      case 15:
        return ReadShardySharding(cursor, attr, 2);
      case 17:
        return ReadShardySharding(cursor, attr, 3);
      case 7:
      case 16: {  // sharding per value
        attr->family = "sdy.sharding_per_value";
        uint64_t count = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a sharding count"));
        attr->text = "<[";
        for (uint64_t i = 0; i < count; ++i) {
          const Attr* sharding = nullptr;
          PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &sharding));
          attr->text += (i > 0 ? ", " : "") + sharding->text;
        }
        attr->text += "]>";
        return OkStatus();
      }
      case 8: {  // dimension mapping: the factors of one dimension
        std::vector<int64_t> factors;
        PHAL_RETURN_IF_ERROR(ReadSignedList(cursor, &factors));
        for (int64_t factor : factors) attr->text += FactorName(factor);
        return OkStatus();
      }
      case 9:   // tensor mapping
      case 12:  // list of axis-ref lists
        attr->text = "[";
        PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &attr->text));
        attr->text += "]";
        return OkStatus();
      case 10:
        attr->family = "sdy.op_sharding_rule";
        return ReadShardingRule(cursor, attr);
      case 11:  // axis-ref list
        attr->text = "{";
        PHAL_RETURN_IF_ERROR(ReadShardyList(cursor, &attr->text));
        attr->text += "}";
        return OkStatus();
      default:
        return cursor.ErrorAt(at, "Shardy attribute code " +
                                      std::to_string(code) +
                                      " is not read in portable artifacts");
    }
  }

  // --- Printing attributes as StableHLO text -------------------------------

  StatusOr<std::string> PrintElement(const Type& element,
                                     std::string_view bytes) {
    uint64_t value = 0;
    std::memcpy(&value, bytes.data(),
                std::min<std::size_t>(bytes.size(), sizeof(value)));
    if (element.is_bool) return std::string(value != 0 ? "true" : "false");
    if (element.is_integer) {
      const int width = element.storage_bytes * 8;
      int64_t v = static_cast<int64_t>(value);
      if (element.is_signed && width < 64) {
        const int bits = element.bits;
        value &= (uint64_t{1} << bits) - 1;
        v = static_cast<int64_t>(value);
        if (((value >> (bits - 1)) & 1) != 0) {
          v = static_cast<int64_t>(value | (~uint64_t{0} << bits));
        }
      }
      return element.is_signed ? std::to_string(v) : std::to_string(value);
    }
    return HexOfLittleEndian(bytes);
  }

  // dense<...> : type, from raw data (one element: a splat).
  StatusOr<std::string> PrintDense(const Attr& attr) {
    const Type& type = *attr.type;
    const Type& element = *type.element;
    const int64_t count = type.ElementCount();
    std::string body;
    const bool splat =
        attr.data.size() < static_cast<std::size_t>(element.storage_bytes) *
                               static_cast<std::size_t>(count) ||
        count == 1;
    if (element.is_integer || element.is_minifloat || splat) {
      const std::size_t width = static_cast<std::size_t>(element.storage_bytes);
      if (element.is_complex) {
        const std::size_t half = width / 2;
        if (splat && !attr.data.empty()) {
          const std::string_view data = attr.data;
          body = "(" + HexOfLittleEndian(data.substr(0, half)) + ", " +
                 HexOfLittleEndian(data.substr(half, half)) + ")";
        } else {
          body = "\"" + HexBytes(attr.data) + "\"";
        }
      } else if (splat) {
        if (attr.data.empty()) {
          body = "";
        } else {
          PHAL_ASSIGN_OR_RETURN(
              body, PrintElement(element, attr.data.substr(0, width)));
        }
      } else {
        body = NestedElements(type, attr.data, width);
        if (body.empty()) body = "[]";
      }
    } else {
      body = "\"" + HexBytes(attr.data) + "\"";
    }
    return "dense<" + body + "> : " + type.text;
  }

  // The elements of a non-splat tensor as nested lists.
  std::string NestedElements(const Type& type, const std::string& data,
                             std::size_t width) {
    std::vector<std::string> flat;
    const int64_t count = type.ElementCount();
    for (int64_t i = 0; i < count; ++i) {
      StatusOr<std::string> e = PrintElement(
          *type.element, std::string_view(data).substr(
                             static_cast<std::size_t>(i) * width, width));
      flat.push_back(e.ok() ? *e : "0");
    }
    std::size_t next = 0;
    return Nest(type.dims, 0, flat, &next);
  }

  static std::string Nest(const std::vector<int64_t>& dims, std::size_t axis,
                          const std::vector<std::string>& flat,
                          std::size_t* next) {
    if (axis == dims.size()) return flat[(*next)++];
    std::string out = "[";
    for (int64_t i = 0; i < dims[axis]; ++i) {
      out += (i > 0 ? ", " : "") + Nest(dims, axis + 1, flat, next);
    }
    return out + "]";
  }

  StatusOr<std::string> Print(const Attr& attr) {
    switch (attr.kind) {
      case Attr::Kind::kArray: {
        std::string out = "[";
        for (std::size_t i = 0; i < attr.elements.size(); ++i) {
          PHAL_ASSIGN_OR_RETURN(std::string e, Print(*attr.elements[i]));
          out += (i > 0 ? ", " : "") + e;
          PHAL_RETURN_IF_ERROR(CheckCompositeSize(out));
        }
        return out + "]";
      }
      case Attr::Kind::kBool:
        return std::string(attr.boolean ? "true" : "false");
      case Attr::Kind::kEnum:
        if (attr.family == "api_version") {
          return std::to_string(attr.integer) + " : i32";
        }
        if (attr.family == "result_accuracy_mode") {
          return "#stablehlo.result_accuracy_mode<" + attr.text + ">";
        }
        return "#stablehlo<" + attr.family + " " + attr.text + ">";
      case Attr::Kind::kDictionary: {
        std::string out = "{";
        for (std::size_t i = 0; i < attr.elements.size(); ++i) {
          PHAL_ASSIGN_OR_RETURN(std::string e, Print(*attr.elements[i]));
          out += (i > 0 ? ", " : "") + NameText(attr.names[i]) + " = " + e;
          PHAL_RETURN_IF_ERROR(CheckCompositeSize(out));
        }
        return out + "}";
      }
      case Attr::Kind::kFloat:
        return FloatText(attr) + " : " + attr.type->text;
      case Attr::Kind::kInteger:
        if (attr.type->is_bool) {
          return std::string(attr.integer != 0 ? "true" : "false");
        }
        return (attr.type->is_signed ? std::to_string(attr.integer)
                                     : std::to_string(attr.bits)) +
               " : " + attr.type->text;
      case Attr::Kind::kString:
        return Quote(attr.text);
      case Attr::Kind::kTensor:
        return PrintDense(attr);
      case Attr::Kind::kType:
        return attr.type->text;
      case Attr::Kind::kTypeExtensions: {
        std::string out = "#stablehlo.type_extensions<bounds = [";
        for (std::size_t i = 0; i < attr.integers.size(); ++i) {
          out += (i > 0 ? ", " : "") + (attr.integers[i] == kDynamicSize
                                            ? std::string("?")
                                            : std::to_string(attr.integers[i]));
        }
        return out + "]>";
      }
      case Attr::Kind::kUnit:
        return std::string("unit");
      case Attr::Kind::kSymbol:
        return "@" + attr.text;
      case Attr::Kind::kLocation:
        return std::string("loc(unknown)");
      case Attr::Kind::kText:
        return attr.family.empty() ? attr.text : "#" + attr.family + attr.text;
      case Attr::Kind::kOutputOperandAlias:
      case Attr::Kind::kResultAccuracy:
      case Attr::Kind::kOther:
        return attr.text;
    }
    return std::string();
  }

  Status CheckCompositeSize(const std::string& text) const {
    if (text.size() <= kMaxCompositeText) return OkStatus();
    return ErrorAt(0, "an array or dictionary attribute whose text exceeds " +
                          std::to_string(kMaxCompositeText >> 20) + " MiB");
  }

  // Finite f32 and f64 values in decimal (exact with 17 digits); every
  // other value by its bit pattern, of its own width.
  std::string FloatText(const Attr& attr) {
    const Type& type = *attr.type;
    double value = NAN;
    if (type.bits == 32) {
      float f = 0;
      const uint32_t b = static_cast<uint32_t>(attr.bits);
      std::memcpy(&f, &b, sizeof(f));
      value = f;
    } else if (type.bits == 64) {
      std::memcpy(&value, &attr.bits, sizeof(value));
    }
    if (std::isfinite(value)) return FormatDouble(value);
    const std::string bytes(reinterpret_cast<const char*>(&attr.bits),
                            sizeof(attr.bits));
    return HexOfLittleEndian(std::string_view(bytes).substr(
        0, static_cast<std::size_t>((type.bits + 7) / 8)));
  }

  static std::string NameText(const std::string& name) {
    bool bare =
        !name.empty() &&
        (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
    for (char c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' &&
          c != '.' && c != '$' && c != '-') {
        bare = false;
      }
    }
    return bare ? name : Quote(name);
  }

  // --- Operations ----------------------------------------------------------

  // An operation's attributes: its discardable dictionary and its
  // properties (for a registered VHLO op, the values of `names` in order).
  StatusOr<std::vector<NamedAttr>> OperationAttributes(
      const BytecodeOperation& op, const VhloOpInfo* info) {
    std::vector<NamedAttr> out;
    if (op.has_attributes) {
      PHAL_ASSIGN_OR_RETURN(const Attr* dictionary, AttrAt(op.attributes));
      if (dictionary->kind != Attr::Kind::kDictionary) {
        return ErrorAt(op.offset,
                       "an operation's attributes are not a "
                       "dictionary");
      }
      for (std::size_t i = 0; i < dictionary->names.size(); ++i) {
        out.emplace_back(dictionary->names[i], dictionary->elements[i]);
      }
    }
    if (!op.has_properties) return out;
    const BytecodeOperationName& name = bc_.operation_names[op.name];
    if (!name.registered) {
      PHAL_ASSIGN_OR_RETURN(const Attr* dictionary, AttrAt(op.properties));
      if (dictionary->kind == Attr::Kind::kDictionary) {
        for (std::size_t i = 0; i < dictionary->names.size(); ++i) {
          out.emplace_back(dictionary->names[i], dictionary->elements[i]);
        }
      }
      return out;
    }
    const auto& range = bc_.properties[op.properties];
    BytecodeCursor cursor = bc_.CursorOver(range.first, range.second);
    const std::string full = bc_.OperationName(op);
    if (full == "builtin.module") {
      for (const char* key : {"sym_name", "sym_visibility"}) {
        uint64_t index = 0;
        bool present = false;
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarIntWithFlag(&index, &present, "a module property"));
        if (!present) continue;
        PHAL_ASSIGN_OR_RETURN(const Attr* value, AttrAt(index));
        out.emplace_back(key, value);
      }
      return out;
    }
    std::vector<std::string> names;
    if (info != nullptr) {
      names = VhloOpAttributeNames(*info);
    } else if (full == "sdy.mesh") {
      names = {"mesh", "sym_name"};
    } else if (full == "sdy.sharding_constraint" || full == "sdy.reshard") {
      names = {"sharding"};
    } else if (full == "sdy.manual_computation") {
      names = {"in_shardings", "manual_axes", "out_shardings"};
    } else {
      return ErrorAt(op.offset, "properties of operation '" + full +
                                    "', which this reader does not know");
    }
    for (const std::string& attribute : names) {
      const Attr* value = nullptr;
      PHAL_RETURN_IF_ERROR(ReadAttrRef(cursor, &value));
      out.emplace_back(attribute, value);
    }
    if (!cursor.empty()) {
      return cursor.Error("unexpected bytes after the properties of '" + full +
                          "'");
    }
    return out;
  }

  Status TopLevelOperation(const BytecodeOperation& op) {
    const std::string name = bc_.OperationName(op);
    if (name == "vhlo.func_v1") return Function(op);
    if (name == "sdy.mesh") {
      PHAL_ASSIGN_OR_RETURN(std::vector<NamedAttr> attributes,
                            OperationAttributes(op, nullptr));
      const Attr* symbol = Find(attributes, "sym_name");
      const Attr* mesh = Find(attributes, "mesh");
      if (symbol == nullptr || mesh == nullptr ||
          symbol->kind != Attr::Kind::kString || mesh->family != "sdy.mesh") {
        return ErrorAt(op.offset, "sdy.mesh without a name and a mesh");
      }
      out_ += "  sdy.mesh @" + symbol->text + " = " + mesh->text + "\n";
      return OkStatus();
    }
    return ErrorAt(op.offset,
                   "expected a function at the top of the module, "
                   "found '" +
                       name + "'");
  }

  static const Attr* Find(const std::vector<NamedAttr>& attributes,
                          std::string_view name) {
    for (const NamedAttr& a : attributes) {
      if (a.first == name) return a.second;
    }
    return nullptr;
  }

  Status AppendAttributes(const std::vector<NamedAttr>& attributes) {
    bool first = true;
    for (const NamedAttr& a : attributes) {
      out_ += first ? "" : ", ";
      first = false;
      if (a.second->kind == Attr::Kind::kUnit) {
        out_ += NameText(a.first);
        continue;
      }
      PHAL_ASSIGN_OR_RETURN(std::string value, Print(*a.second));
      out_ += NameText(a.first) + " = " + value;
    }
    return OkStatus();
  }

  Status Function(const BytecodeOperation& op) {
    const VhloOpInfo* info = FindVhloOp("func_v1");
    PHAL_ASSIGN_OR_RETURN(std::vector<NamedAttr> attributes,
                          OperationAttributes(op, info));
    const Attr* name = Find(attributes, "sym_name");
    const Attr* type = Find(attributes, "function_type");
    const Attr* visibility = Find(attributes, "sym_visibility");
    const Attr* arg_attrs = Find(attributes, "arg_attrs");
    const Attr* res_attrs = Find(attributes, "res_attrs");
    if (name == nullptr || name->kind != Attr::Kind::kString ||
        type == nullptr || type->kind != Attr::Kind::kType ||
        type->type->text.rfind("(", 0) != 0) {
      return ErrorAt(op.offset, "a function without a name or function type");
    }
    const Type& signature = *type->type;
    out_ += "  func.func ";
    if (visibility != nullptr && visibility->kind == Attr::Kind::kString &&
        !visibility->text.empty() && visibility->text != "public") {
      out_ += visibility->text + " ";
    }
    out_ += "@" + name->text + "(";
    if (op.regions.size() != 1) {
      return ErrorAt(op.offset, "a function without one body region");
    }
    const bool declaration = op.regions[0].blocks.empty();
    const BytecodeBlock* body =
        declaration ? nullptr : &op.regions[0].blocks[0];
    if (body != nullptr && body->arguments.size() != signature.inputs.size()) {
      return ErrorAt(op.offset, "function @" + name->text + " has " +
                                    std::to_string(body->arguments.size()) +
                                    " arguments; its type has " +
                                    std::to_string(signature.inputs.size()));
    }
    for (std::size_t i = 0; i < signature.inputs.size(); ++i) {
      out_ += i > 0 ? ", " : "";
      if (body != nullptr) {
        value_names_[body->arguments[i]] = "%arg" + std::to_string(i);
        out_ += value_names_[body->arguments[i]] + ": ";
        value_types_[body->arguments[i]] = signature.inputs[i];
      }
      out_ += signature.inputs[i]->text;
      PHAL_RETURN_IF_ERROR(AppendSlotAttributes(arg_attrs, i));
    }
    out_ += ")";
    if (!signature.outputs.empty()) {
      out_ += " -> (";
      for (std::size_t i = 0; i < signature.outputs.size(); ++i) {
        out_ += (i > 0 ? ", " : "") + signature.outputs[i]->text;
        PHAL_RETURN_IF_ERROR(AppendSlotAttributes(res_attrs, i));
      }
      out_ += ")";
    }
    if (declaration) {
      out_ += "\n";
      return OkStatus();
    }
    out_ += " {\n";
    if (op.regions[0].blocks.size() != 1) {
      return ErrorAt(op.offset, "function @" + name->text +
                                    " has several blocks; StableHLO "
                                    "functions have one");
    }
    for (const BytecodeOperation& inner : body->operations) {
      PHAL_RETURN_IF_ERROR(DefineResults(inner));
      PHAL_RETURN_IF_ERROR(Operation(inner, 4, /*in_function=*/true));
    }
    out_ += "  }\n";
    return OkStatus();
  }

  Status AppendSlotAttributes(const Attr* all, std::size_t index) {
    if (all == nullptr || all->kind != Attr::Kind::kArray ||
        index >= all->elements.size()) {
      return OkStatus();
    }
    const Attr* dictionary = all->elements[index];
    if (dictionary->kind != Attr::Kind::kDictionary ||
        dictionary->elements.empty()) {
      return OkStatus();
    }
    PHAL_ASSIGN_OR_RETURN(std::string text, Print(*dictionary));
    out_ += " " + text;
    return OkStatus();
  }

  // --- One op --------------------------------------------------------------

  Status Operation(const BytecodeOperation& op, int indent, bool in_function) {
    const BytecodeOperationName& op_name = bc_.operation_names[op.name];
    const std::string& dialect = bc_.dialects[op_name.dialect];
    const std::string full = dialect + "." + op_name.name;
    if (dialect == "sdy") return ShardyOperation(op, full, indent);
    if (full == "builtin.unrealized_conversion_cast") {
      // Casts between equal types (JAX's PRNG keys) are no-ops.
      if (op.operands.size() == 1 && op.results.size() == 1) {
        PHAL_ASSIGN_OR_RETURN(const Type* result, TypeAt(op.result_types[0]));
        const auto operand = value_types_.find(op.operands[0]);
        if (operand != value_types_.end() &&
            operand->second->text == result->text) {
          value_names_[op.results[0]] = value_names_[op.operands[0]];
          return OkStatus();
        }
      }
      return GenericOperation(op, full, indent);
    }
    if (dialect != "vhlo") {
      return ErrorAt(op.offset, "operation '" + full +
                                    "' inside a function is not StableHLO");
    }
    const VhloOpInfo* info = FindVhloOp(op_name.name);
    if (info == nullptr) {
      return ErrorAt(op.offset,
                     "unknown VHLO operation '" + full +
                         "' (this reader knows the VHLO ops of StableHLO "
                         "0.9.0 to 1.20.0" +
                         (producer_version_.empty()
                              ? std::string(")")
                              : "; the artifact was written by StableHLO " +
                                    producer_version_ + ")"));
    }
    PHAL_ASSIGN_OR_RETURN(std::vector<NamedAttr> attributes,
                          OperationAttributes(op, info));
    const std::string base(op_name.name.substr(0, op_name.name.rfind("_v")));
    std::string stablehlo_name = "stablehlo." + base;
    if (base == "return") {
      stablehlo_name = in_function ? "func.return" : "stablehlo.return";
    } else if (base == "call") {
      stablehlo_name = "func.call";
    }
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> converted,
                          ConvertAttributes(base, op, attributes));
    std::string line(static_cast<std::size_t>(indent), ' ');
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      line += (i > 0 ? ", " : "") + value_names_[op.results[i]];
    }
    if (!op.results.empty()) line += " = ";
    line += "\"" + stablehlo_name + "\"(";
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      line += (i > 0 ? ", " : "") + value_names_[op.operands[i]];
    }
    line += ")";
    out_ += line;
    if (!op.regions.empty()) {
      out_ += " (";
      for (std::size_t r = 0; r < op.regions.size(); ++r) {
        out_ += r > 0 ? ", {\n" : "{\n";
        PHAL_RETURN_IF_ERROR(Region(op.regions[r], indent + 2));
        out_ += std::string(static_cast<std::size_t>(indent), ' ') + "}";
      }
      out_ += ")";
    }
    if (!converted.empty()) {
      out_ += " {";
      for (std::size_t i = 0; i < converted.size(); ++i) {
        out_ += (i > 0 ? ", " : "") + converted[i];
      }
      out_ += "}";
    }
    out_ += " : (";
    PHAL_RETURN_IF_ERROR(AppendOperandTypes(op));
    out_ += ") -> ";
    std::vector<const Type*> results;
    for (uint64_t t : op.result_types) {
      PHAL_ASSIGN_OR_RETURN(const Type* type, TypeAt(t));
      results.push_back(type);
    }
    out_ += results.size() == 1 ? results[0]->text
                                : "(" + TypeListText(results) + ")";
    out_ += "\n";
    return OkStatus();
  }

  std::string ResultNames(const BytecodeOperation& op) const {
    std::string out;
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      out += (i > 0 ? ", " : "") + value_names_[op.results[i]];
    }
    return op.results.empty() ? out : out + " = ";
  }

  std::string OperandNames(const BytecodeOperation& op) const {
    std::string out;
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      out += (i > 0 ? ", " : "") + value_names_[op.operands[i]];
    }
    return out;
  }

  StatusOr<std::string> ResultTypes(const BytecodeOperation& op) {
    std::vector<const Type*> results;
    for (uint64_t t : op.result_types) {
      PHAL_ASSIGN_OR_RETURN(const Type* type, TypeAt(t));
      results.push_back(type);
    }
    return TypeListText(results);
  }

  Status GenericOperation(const BytecodeOperation& op, const std::string& name,
                          int indent) {
    if (!op.regions.empty()) {
      return ErrorAt(op.offset, "operation '" + name + "' with regions");
    }
    out_ += std::string(static_cast<std::size_t>(indent), ' ') +
            ResultNames(op) + "\"" + name + "\"(" + OperandNames(op) + ") : (";
    PHAL_RETURN_IF_ERROR(AppendOperandTypes(op));
    PHAL_ASSIGN_OR_RETURN(std::string results, ResultTypes(op));
    out_ += ") -> " + (op.results.size() == 1 ? results : "(" + results + ")") +
            "\n";
    return OkStatus();
  }

  // Shardy's ops in the pretty form its text parser reads.
  Status ShardyOperation(const BytecodeOperation& op, const std::string& name,
                         int indent) {
    PHAL_ASSIGN_OR_RETURN(std::vector<NamedAttr> attributes,
                          OperationAttributes(op, nullptr));
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    PHAL_ASSIGN_OR_RETURN(std::string results, ResultTypes(op));
    if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
      const Attr* sharding = Find(attributes, "sharding");
      if (sharding == nullptr || op.operands.size() != 1) {
        return ErrorAt(op.offset, name + " without one operand and a sharding");
      }
      out_ += pad + ResultNames(op) + name + " " + OperandNames(op) + " " +
              sharding->text + " : " + results + "\n";
      return OkStatus();
    }
    if (name == "sdy.return") {
      out_ += pad + "sdy.return " + OperandNames(op);
      if (!op.operands.empty()) {
        out_ += " : ";
        PHAL_RETURN_IF_ERROR(AppendOperandTypes(op));
      }
      out_ += "\n";
      return OkStatus();
    }
    if (name == "sdy.manual_computation") {
      const Attr* in = Find(attributes, "in_shardings");
      const Attr* out = Find(attributes, "out_shardings");
      const Attr* axes = Find(attributes, "manual_axes");
      if (in == nullptr || out == nullptr || axes == nullptr ||
          op.regions.size() != 1 || op.regions[0].blocks.size() != 1) {
        return ErrorAt(op.offset,
                       "sdy.manual_computation without its shardings, manual "
                       "axes and body");
      }
      const auto per_value = [](const Attr* a) {
        return a->text.size() >= 2 ? a->text.substr(1, a->text.size() - 2)
                                   : a->text;
      };
      out_ += pad + ResultNames(op) + "sdy.manual_computation(" +
              OperandNames(op) + ") in_shardings=" + per_value(in) +
              " out_shardings=" + per_value(out) +
              " manual_axes=" + axes->text + " (";
      const BytecodeBlock& body = op.regions[0].blocks[0];
      for (std::size_t i = 0; i < body.arguments.size(); ++i) {
        PHAL_ASSIGN_OR_RETURN(const Type* type, TypeAt(body.argument_types[i]));
        value_types_[body.arguments[i]] = type;
        out_ += (i > 0 ? ", " : "") + value_names_[body.arguments[i]] + ": " +
                type->text;
      }
      out_ += ") {\n";
      for (const BytecodeOperation& inner : body.operations) {
        PHAL_RETURN_IF_ERROR(DefineResults(inner));
        PHAL_RETURN_IF_ERROR(Operation(inner, indent + 2, false));
      }
      out_ += pad + "} : (";
      PHAL_RETURN_IF_ERROR(AppendOperandTypes(op));
      out_ += ") -> (" + results + ")\n";
      return OkStatus();
    }
    return ErrorAt(op.offset, "Shardy operation '" + name +
                                  "' is not read in portable artifacts");
  }

  Status AppendOperandTypes(const BytecodeOperation& op) {
    for (std::size_t i = 0; i < op.operands.size(); ++i) {
      const int64_t value = op.operands[i];
      const auto it = value_types_.find(value);
      if (it == value_types_.end()) {
        return ErrorAt(op.offset, "operand " + std::to_string(i) +
                                      " is used before it is defined");
      }
      out_ += (i > 0 ? ", " : "") + it->second->text;
    }
    return OkStatus();
  }

  Status Region(const BytecodeRegion& region, int indent) {
    if (region.blocks.size() > 1) {
      return ErrorAt(0,
                     "a region of several blocks; StableHLO regions have "
                     "one");
    }
    if (region.blocks.empty()) return OkStatus();
    const BytecodeBlock& block = region.blocks[0];
    const std::string pad(static_cast<std::size_t>(indent), ' ');
    out_ += pad + "^bb0(";
    for (std::size_t i = 0; i < block.arguments.size(); ++i) {
      PHAL_ASSIGN_OR_RETURN(const Type* type, TypeAt(block.argument_types[i]));
      value_types_[block.arguments[i]] = type;
      out_ += (i > 0 ? ", " : "") + value_names_[block.arguments[i]] + ": " +
              type->text;
    }
    out_ += "):\n";
    for (const BytecodeOperation& inner : block.operations) {
      PHAL_RETURN_IF_ERROR(DefineResults(inner));
      PHAL_RETURN_IF_ERROR(Operation(inner, indent + 2, false));
    }
    return OkStatus();
  }

  Status DefineResults(const BytecodeOperation& op) {
    for (std::size_t i = 0; i < op.results.size(); ++i) {
      PHAL_ASSIGN_OR_RETURN(const Type* type, TypeAt(op.result_types[i]));
      value_types_[op.results[i]] = type;
    }
    return OkStatus();
  }

  // --- VHLO attributes to StableHLO ones ----------------------------------

  StatusOr<std::vector<int64_t>> Integers(const Attr* attr,
                                          std::string_view what,
                                          const BytecodeOperation& op) {
    std::vector<int64_t> out;
    if (attr == nullptr) return out;
    if (attr->kind == Attr::Kind::kTensor) {
      const Type& element = *attr->type->element;
      const std::size_t width = static_cast<std::size_t>(element.storage_bytes);
      const int64_t count = attr->type->ElementCount();
      if (!element.is_integer || width == 0 || width > 8) {
        return ErrorAt(op.offset, std::string(what) + " is not integers");
      }
      for (int64_t i = 0; i < count; ++i) {
        const std::size_t at = attr->data.size() == width
                                   ? 0
                                   : static_cast<std::size_t>(i) * width;
        uint64_t value = 0;
        std::memcpy(&value, attr->data.data() + at, width);
        int64_t v = static_cast<int64_t>(value);
        if (element.is_signed && width < 8 &&
            ((value >> (8 * width - 1)) & 1) != 0) {
          v = static_cast<int64_t>(value | (~uint64_t{0} << (8 * width)));
        }
        out.push_back(element.is_bool ? (value != 0) : v);
      }
      return out;
    }
    if (attr->kind == Attr::Kind::kArray) {
      for (const Attr* e : attr->elements) {
        if (e->kind != Attr::Kind::kInteger) {
          return ErrorAt(op.offset, std::string(what) + " is not integers");
        }
        out.push_back(e->integer);
      }
      return out;
    }
    return ErrorAt(op.offset, std::string(what) + " is not a list of integers");
  }

  StatusOr<int64_t> Integer(const Attr* attr, std::string_view what,
                            const BytecodeOperation& op) {
    if (attr == nullptr || attr->kind != Attr::Kind::kInteger) {
      return ErrorAt(op.offset, std::string(what) + " is not an integer");
    }
    return attr->integer;
  }

  static bool IsFalse(const Attr* a) {
    return a == nullptr || (a->kind == Attr::Kind::kBool && !a->boolean);
  }
  static bool IsEmpty(const Attr* a) {
    if (a == nullptr) return true;
    if (a->kind == Attr::Kind::kArray || a->kind == Attr::Kind::kDictionary) {
      return a->elements.empty();
    }
    if (a->kind == Attr::Kind::kString) return a->text.empty();
    if (a->kind == Attr::Kind::kTensor) return a->type->ElementCount() == 0;
    return false;
  }
  static bool IsIntegerValue(const Attr* a, int64_t value) {
    return a == nullptr ||
           (a->kind == Attr::Kind::kInteger && a->integer == value);
  }
  static bool AllDefaultPrecision(const Attr* a) {
    if (a == nullptr || a->kind != Attr::Kind::kArray) return a == nullptr;
    for (const Attr* e : a->elements) {
      if (e->kind != Attr::Kind::kEnum || e->integer != 0) return false;
    }
    return true;
  }

  StatusOr<bool> SplatOf(const Attr* a, int64_t value,
                         const BytecodeOperation& op) {
    if (a == nullptr) return true;
    if (a->kind != Attr::Kind::kTensor) return false;
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> values, Integers(a, "", op));
    for (int64_t v : values) {
      if (v != value) return false;
    }
    return true;
  }

  static std::string DimList(std::string_view name,
                             const std::vector<int64_t>& values) {
    return std::string(name) + " = [" + JoinIntegers(values) + "]";
  }

  StatusOr<std::string> ArrayAttribute(const Attr* attr, bool booleans,
                                       const BytecodeOperation& op) {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> values,
                          Integers(attr, "an array attribute", op));
    std::string out = booleans ? "array<i1" : "array<i64";
    if (!values.empty()) out += ": ";
    for (std::size_t i = 0; i < values.size(); ++i) {
      out += i > 0 ? ", " : "";
      out += booleans ? (values[i] != 0 ? "true" : "false")
                      : std::to_string(values[i]);
    }
    return out + ">";
  }

  // Each StableHLO attribute as "name = value".
  StatusOr<std::vector<std::string>> ConvertAttributes(
      const std::string& op_name, const BytecodeOperation& op,
      const std::vector<NamedAttr>& attributes) {
    std::vector<std::string> out;
    // Attributes handled here or left at their default: not printed as is.
    std::set<std::string> used;
    auto get = [&](const char* name) -> const Attr* {
      return Find(attributes, name);
    };
    auto ints = [&](const char* name) -> StatusOr<std::vector<int64_t>> {
      return Integers(get(name), name, op);
    };
    if (op_name == "func") {
      return ErrorAt(op.offset, "a function nested in an operation");
    }
    if (op_name == "convolution" || op_name == "dynamic_conv") {
      PHAL_ASSIGN_OR_RETURN(std::string dims, ConvDimensions(attributes, op));
      for (const char* n :
           {"input_batch_dimension", "input_feature_dimension",
            "input_spatial_dimensions", "kernel_input_feature_dimension",
            "kernel_output_feature_dimension", "kernel_spatial_dimensions",
            "output_batch_dimension", "output_feature_dimension",
            "output_spatial_dimensions"}) {
        used.insert(n);
      }
      out.push_back("dimension_numbers = " + dims);
      used.insert({"window_strides", "lhs_dilation", "rhs_dilation",
                   "window_reversal", "padding"});
      for (const char* n : {"window_strides", "lhs_dilation", "rhs_dilation"}) {
        const Attr* a = get(n);
        PHAL_ASSIGN_OR_RETURN(bool ones, SplatOf(a, 1, op));
        if (ones) continue;
        PHAL_ASSIGN_OR_RETURN(std::string v, ArrayAttribute(a, false, op));
        out.push_back(std::string(n) + " = " + v);
      }
      const Attr* reversal = get("window_reversal");
      PHAL_ASSIGN_OR_RETURN(bool no_reversal, SplatOf(reversal, 0, op));
      if (!no_reversal) {
        PHAL_ASSIGN_OR_RETURN(std::string v,
                              ArrayAttribute(reversal, true, op));
        out.push_back("window_reversal = " + v);
      }
      const Attr* padding = get("padding");
      PHAL_ASSIGN_OR_RETURN(bool no_padding, SplatOf(padding, 0, op));
      if (!no_padding) {
        PHAL_ASSIGN_OR_RETURN(std::string v, Print(*padding));
        out.push_back("padding = " + v);
      }
      if (AllDefaultPrecision(get("precision_config"))) {
        used.insert("precision_config");
      }
    } else if (op_name == "dot_general") {
      used.insert({"lhs_batching_dimensions", "rhs_batching_dimensions",
                   "lhs_contracting_dimensions", "rhs_contracting_dimensions"});
      PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> lb,
                            ints("lhs_batching_dimensions"));
      PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> rb,
                            ints("rhs_batching_dimensions"));
      PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> lc,
                            ints("lhs_contracting_dimensions"));
      PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> rc,
                            ints("rhs_contracting_dimensions"));
      std::vector<std::string> fields;
      if (!lb.empty()) fields.push_back(DimList("lhs_batching_dimensions", lb));
      if (!rb.empty()) fields.push_back(DimList("rhs_batching_dimensions", rb));
      fields.push_back(DimList("lhs_contracting_dimensions", lc));
      fields.push_back(DimList("rhs_contracting_dimensions", rc));
      out.push_back("dot_dimension_numbers = #stablehlo.dot<" + Join(fields) +
                    ">");
      PHAL_RETURN_IF_ERROR(DotAlgorithm(attributes, op, &out));
      for (const char* n :
           {"lhs_precision_type", "rhs_precision_type", "accumulation_type",
            "lhs_component_count", "rhs_component_count",
            "num_primitive_operations", "allow_imprecise_accumulation"}) {
        used.insert(n);
      }
      if (AllDefaultPrecision(get("precision_config"))) {
        used.insert("precision_config");
      }
    } else if (op_name == "dot") {
      if (AllDefaultPrecision(get("precision_config"))) {
        used.insert("precision_config");
      }
    } else if (op_name == "gather" || op_name == "dynamic_gather") {
      used.insert({"offset_dims", "collapsed_slice_dims",
                   "operand_batching_dims", "start_indices_batching_dims",
                   "start_index_map", "index_vector_dim", "slice_sizes"});
      std::vector<std::string> fields;
      for (const char* n :
           {"offset_dims", "collapsed_slice_dims", "operand_batching_dims",
            "start_indices_batching_dims", "start_index_map"}) {
        PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
        if (!v.empty() || std::string(n) == "start_index_map") {
          fields.push_back(DimList(n, v));
        }
      }
      PHAL_ASSIGN_OR_RETURN(
          int64_t index_vector_dim,
          Integer(get("index_vector_dim"), "index_vector_dim", op));
      fields.push_back("index_vector_dim = " +
                       std::to_string(index_vector_dim));
      out.push_back("dimension_numbers = #stablehlo.gather<" + Join(fields) +
                    ">");
      if (op_name == "gather") {
        PHAL_ASSIGN_OR_RETURN(std::string sizes,
                              ArrayAttribute(get("slice_sizes"), false, op));
        out.push_back("slice_sizes = " + sizes);
      }
      if (IsFalse(get("indices_are_sorted"))) used.insert("indices_are_sorted");
    } else if (op_name == "scatter") {
      used.insert({"update_window_dims", "inserted_window_dims",
                   "input_batching_dims", "scatter_indices_batching_dims",
                   "scatter_dims_to_operand_dims", "index_vector_dim"});
      std::vector<std::string> fields;
      for (const char* n :
           {"update_window_dims", "inserted_window_dims", "input_batching_dims",
            "scatter_indices_batching_dims", "scatter_dims_to_operand_dims"}) {
        PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> v, ints(n));
        if (!v.empty() || std::string(n) == "scatter_dims_to_operand_dims") {
          fields.push_back(DimList(n, v));
        }
      }
      PHAL_ASSIGN_OR_RETURN(
          int64_t index_vector_dim,
          Integer(get("index_vector_dim"), "index_vector_dim", op));
      fields.push_back("index_vector_dim = " +
                       std::to_string(index_vector_dim));
      out.push_back("scatter_dimension_numbers = #stablehlo.scatter<" +
                    Join(fields) + ">");
      if (IsFalse(get("indices_are_sorted"))) used.insert("indices_are_sorted");
      if (IsFalse(get("unique_indices"))) used.insert("unique_indices");
    } else if (op_name == "send" || op_name == "recv") {
      used.insert({"channel_id", "channel_type"});
      PHAL_ASSIGN_OR_RETURN(int64_t id,
                            Integer(get("channel_id"), "channel_id", op));
      PHAL_ASSIGN_OR_RETURN(int64_t type,
                            Integer(get("channel_type"), "channel_type", op));
      out.push_back("channel_handle = #stablehlo.channel_handle<handle = " +
                    std::to_string(id) + ", type = " + std::to_string(type) +
                    ">");
      if (IsFalse(get("is_host_transfer"))) used.insert("is_host_transfer");
      if (IsEmpty(get("source_target_pairs"))) {
        used.insert("source_target_pairs");
      }
    } else if (op_name == "all_gather" || op_name == "all_reduce" ||
               op_name == "all_to_all" || op_name == "collective_permute" ||
               op_name == "reduce_scatter" ||
               op_name == "collective_broadcast" ||
               op_name == "collective_reduce") {
      used.insert({"channel_id", "use_global_device_ids", "has_dynamic_root"});
      const Attr* channel = get("channel_id");
      if (!IsIntegerValue(channel, 0)) {
        PHAL_ASSIGN_OR_RETURN(int64_t id, Integer(channel, "channel_id", op));
        out.push_back("channel_handle = #stablehlo.channel_handle<handle = " +
                      std::to_string(id) + ", type = 0>");
      }
      for (const char* n : {"use_global_device_ids", "has_dynamic_root"}) {
        const Attr* a = get(n);
        if (!IsFalse(a)) out.push_back(n);
      }
    } else if (op_name == "custom_call") {
      used.insert("called_computations");
      const Attr* called = get("called_computations");
      if (!IsEmpty(called)) {
        std::string list = "[";
        for (std::size_t i = 0; i < called->elements.size(); ++i) {
          list += (i > 0 ? ", @" : "@") + called->elements[i]->text;
        }
        out.push_back("called_computations = " + list + "]");
      }
      if (IsFalse(get("has_side_effect"))) used.insert("has_side_effect");
      if (IsEmpty(get("backend_config"))) used.insert("backend_config");
      const Attr* api = get("api_version");
      if (api != nullptr && api->kind == Attr::Kind::kEnum &&
          api->integer == 1) {
        used.insert("api_version");
      }
      if (IsEmpty(get("operand_layouts")) && IsEmpty(get("result_layouts"))) {
        used.insert({"operand_layouts", "result_layouts"});
      }
      if (IsEmpty(get("output_operand_aliases"))) {
        used.insert("output_operand_aliases");
      }
      if (IsEmpty(get("result_tilings"))) used.insert("result_tilings");
    } else if (op_name == "composite") {
      used.insert("decomposition");
      const Attr* decomposition = get("decomposition");
      if (decomposition != nullptr) {
        out.push_back("decomposition = @" + decomposition->text);
      }
      if (IsIntegerValue(get("version"), 0)) used.insert("version");
      if (IsEmpty(get("composite_attributes"))) {
        used.insert("composite_attributes");
      }
    } else if (op_name == "call") {
      used.insert("callee");
      const Attr* callee = get("callee");
      if (callee != nullptr) out.push_back("callee = @" + callee->text);
    } else if (op_name == "compare") {
      const Attr* type = get("compare_type");
      if (type != nullptr && type->integer == 0) used.insert("compare_type");
    } else if (op_name == "cholesky") {
      if (IsFalse(get("lower"))) used.insert("lower");
    } else if (op_name == "sort") {
      if (IsIntegerValue(get("dimension"), -1)) used.insert("dimension");
      if (IsFalse(get("is_stable"))) used.insert("is_stable");
    } else if (op_name == "reduce_window" || op_name == "select_and_scatter") {
      used.insert({"window_strides", "base_dilations", "window_dilations",
                   "window_dimensions", "padding"});
      for (const char* n : {"window_strides", "base_dilations",
                            "window_dilations", "window_dimensions"}) {
        const Attr* a = get(n);
        if (a == nullptr) continue;
        PHAL_ASSIGN_OR_RETURN(bool ones, SplatOf(a, 1, op));
        if (ones && std::string(n) != "window_dimensions") continue;
        PHAL_ASSIGN_OR_RETURN(std::string v, ArrayAttribute(a, false, op));
        out.push_back(std::string(n) + " = " + v);
      }
      const Attr* padding = get("padding");
      PHAL_ASSIGN_OR_RETURN(bool no_padding, SplatOf(padding, 0, op));
      if (!no_padding) {
        PHAL_ASSIGN_OR_RETURN(std::string v, Print(*padding));
        out.push_back("padding = " + v);
      }
    }
    static const std::set<std::pair<std::string, std::string>> kArrays = {
        {"fft", "fft_length"},
        {"broadcast", "broadcast_sizes"},
        {"dynamic_slice", "slice_sizes"},
        {"reverse", "dimensions"},
        {"transpose", "permutation"},
        {"pad", "edge_padding_low"},
        {"pad", "edge_padding_high"},
        {"pad", "interior_padding"},
        {"slice", "start_indices"},
        {"slice", "limit_indices"},
        {"slice", "strides"},
        {"broadcast_in_dim", "broadcast_dimensions"},
        {"dynamic_broadcast_in_dim", "broadcast_dimensions"},
        {"dynamic_broadcast_in_dim", "known_expanding_dimensions"},
        {"dynamic_broadcast_in_dim", "known_nonexpanding_dimensions"},
        {"map", "dimensions"},
        {"reduce", "dimensions"},
    };
    for (const NamedAttr& a : attributes) {
      if (used.count(a.first) > 0 || HasPrefix(out, a.first)) continue;
      if (a.first == "result_accuracy" &&
          a.second->kind == Attr::Kind::kResultAccuracy && a.second->boolean) {
        continue;
      }
      if (kArrays.count({op_name, a.first}) > 0) {
        PHAL_ASSIGN_OR_RETURN(std::string v,
                              ArrayAttribute(a.second, false, op));
        out.push_back(a.first + " = " + v);
        continue;
      }
      if (a.second->kind == Attr::Kind::kUnit) {
        out.push_back(NameText(a.first));
        continue;
      }
      PHAL_ASSIGN_OR_RETURN(std::string v, Print(*a.second));
      out.push_back(NameText(a.first) + " = " + v);
    }
    return out;
  }

  static bool HasPrefix(const std::vector<std::string>& converted,
                        const std::string& name) {
    for (const std::string& c : converted) {
      if (c == name || c.rfind(name + " = ", 0) == 0) return true;
    }
    return false;
  }

  static std::string Join(const std::vector<std::string>& parts) {
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      out += (i > 0 ? ", " : "") + parts[i];
    }
    return out;
  }

  Status DotAlgorithm(const std::vector<NamedAttr>& attributes,
                      const BytecodeOperation& op,
                      std::vector<std::string>* out) {
    const Attr* lhs_count = Find(attributes, "lhs_component_count");
    if (lhs_count == nullptr ||
        (lhs_count->kind == Attr::Kind::kType && lhs_count->type->is_none)) {
      return OkStatus();
    }
    std::vector<std::string> fields;
    for (const char* n :
         {"lhs_precision_type", "rhs_precision_type", "accumulation_type"}) {
      const Attr* a = Find(attributes, n);
      if (a == nullptr || a->kind != Attr::Kind::kType) {
        return ErrorAt(op.offset, std::string(n) + " is not a type");
      }
      fields.push_back(std::string(n) + " = " + a->type->text);
    }
    for (const char* n : {"lhs_component_count", "rhs_component_count",
                          "num_primitive_operations"}) {
      PHAL_ASSIGN_OR_RETURN(int64_t v, Integer(Find(attributes, n), n, op));
      fields.push_back(std::string(n) + " = " + std::to_string(v));
    }
    const Attr* imprecise = Find(attributes, "allow_imprecise_accumulation");
    fields.push_back(std::string("allow_imprecise_accumulation = ") +
                     (IsFalse(imprecise) ? "false" : "true"));
    out->push_back("algorithm = #stablehlo.dot_algorithm<" + Join(fields) +
                   ">");
    return OkStatus();
  }

  StatusOr<std::string> ConvDimensions(const std::vector<NamedAttr>& a,
                                       const BytecodeOperation& op) {
    auto integer = [&](const char* n) { return Integer(Find(a, n), n, op); };
    auto integers = [&](const char* n) { return Integers(Find(a, n), n, op); };
    PHAL_ASSIGN_OR_RETURN(int64_t ib, integer("input_batch_dimension"));
    PHAL_ASSIGN_OR_RETURN(int64_t if_, integer("input_feature_dimension"));
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> is,
                          integers("input_spatial_dimensions"));
    PHAL_ASSIGN_OR_RETURN(int64_t ki,
                          integer("kernel_input_feature_dimension"));
    PHAL_ASSIGN_OR_RETURN(int64_t ko,
                          integer("kernel_output_feature_dimension"));
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> ks,
                          integers("kernel_spatial_dimensions"));
    PHAL_ASSIGN_OR_RETURN(int64_t ob, integer("output_batch_dimension"));
    PHAL_ASSIGN_OR_RETURN(int64_t of, integer("output_feature_dimension"));
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> os,
                          integers("output_spatial_dimensions"));
    auto layout =
        [&](int64_t first, const char* first_name, int64_t second,
            const char* second_name,
            const std::vector<int64_t>& spatial) -> StatusOr<std::string> {
      const std::size_t rank = spatial.size() + 2;
      std::vector<std::string> slots(rank);
      auto place = [&](int64_t at, const std::string& label) -> Status {
        if (at < 0 || static_cast<std::size_t>(at) >= rank ||
            !slots[static_cast<std::size_t>(at)].empty()) {
          return ErrorAt(op.offset, "convolution dimension " +
                                        std::to_string(at) +
                                        " is out of range or repeated");
        }
        slots[static_cast<std::size_t>(at)] = label;
        return OkStatus();
      };
      PHAL_RETURN_IF_ERROR(place(first, first_name));
      PHAL_RETURN_IF_ERROR(place(second, second_name));
      for (std::size_t i = 0; i < spatial.size(); ++i) {
        PHAL_RETURN_IF_ERROR(place(spatial[i], std::to_string(i)));
      }
      return "[" + Join(slots) + "]";
    };
    PHAL_ASSIGN_OR_RETURN(std::string input, layout(ib, "b", if_, "f", is));
    PHAL_ASSIGN_OR_RETURN(std::string kernel, layout(ki, "i", ko, "o", ks));
    PHAL_ASSIGN_OR_RETURN(std::string output, layout(ob, "b", of, "f", os));
    return "#stablehlo.conv<" + input + "x" + kernel + "->" + output + ">";
  }

  const MlirBytecode& bc_;
  std::deque<Attr> attribute_storage_;
  std::deque<Type> type_storage_;
  std::vector<const Attr*> attributes_;
  std::vector<const Type*> types_;
  std::set<uint64_t> in_progress_attributes_;
  std::set<uint64_t> in_progress_types_;
  std::vector<std::string> value_names_;
  std::map<int64_t, const Type*> value_types_;
  std::string producer_version_;
  std::string out_;
};

}  // namespace

StatusOr<std::string> PortableArtifactToStableHlo(std::string_view bytes,
                                                  std::string_view file_name) {
  PHAL_ASSIGN_OR_RETURN(MlirBytecode bc, ReadMlirBytecode(bytes, file_name));
  ArtifactReader reader(bc);
  return reader.Run();
}

}  // namespace phal
