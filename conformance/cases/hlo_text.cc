#include "conformance/cases/hlo_text.h"

#include <cctype>
#include <limits>

namespace phal::conformance {
namespace {

std::string IntegerExtreme(ElementType type, bool highest) {
  const int bits = ElementTypeBitWidth(type);
  if (IsUnsigned(type)) {
    if (!highest) return "0";
    return std::to_string(bits == 64 ? std::numeric_limits<uint64_t>::max()
                                     : (uint64_t{1} << bits) - 1);
  }
  const int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max()
                                 : (int64_t{1} << (bits - 1)) - 1;
  return std::to_string(highest ? max : -max - 1);
}

}  // namespace

std::string ShapeText(ElementType type, const std::vector<int64_t>& dims) {
  std::string text = ElementTypeName(type);
  text += "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    text += (i == 0 ? "" : ",") + std::to_string(dims[i]);
  }
  return text + "]";
}

std::string DimsText(const std::vector<int64_t>& values) {
  std::string text = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i == 0 ? "" : ",") + std::to_string(values[i]);
  }
  return text + "}";
}

std::string ConstantText(ElementType type, const std::string& value) {
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    return value == "one" || value == "highest" ? "true" : "false";
  }
  const bool real = IsFloat(type);
  std::string text;
  if (value == "zero") {
    text = "0";
  } else if (value == "one") {
    text = "1";
  } else if (real || IsComplex(type)) {
    text = value == "highest" ? "inf" : "-inf";
  } else {
    text = IntegerExtreme(type, value == "highest");
  }
  return IsComplex(type) ? "(" + text + ", 0)" : text;
}

std::string BinaryComputation(const std::string& name, const std::string& op,
                              ElementType type, const std::string& attributes) {
  const std::string scalar = ShapeText(type, {});
  const std::string result =
      op == "compare" ? ShapeText(PHAL_ELEMENT_TYPE_PRED, {}) : scalar;
  return name + " {\n  a = " + scalar + " parameter(0)\n  b = " + scalar +
         " parameter(1)\n  ROOT r = " + result + " " + op + "(a, b)" +
         attributes + "\n}\n";
}

std::string ModuleText(const std::string& case_id,
                       const std::vector<std::string>& computations,
                       const std::vector<std::string>& entry_lines) {
  std::string name;
  for (char c : case_id) {
    name += (std::isalnum(static_cast<unsigned char>(c)) != 0) ? c : '_';
  }
  std::string text = "HloModule " + name + "\n\n";
  for (const std::string& computation : computations) {
    text += computation + "\n";
  }
  text += "ENTRY main {\n";
  for (const std::string& line : entry_lines) text += "  " + line + "\n";
  return text + "}\n";
}

std::string ParameterLine(int index, ElementType type,
                          const std::vector<int64_t>& dims) {
  const std::string i = std::to_string(index);
  return "p" + i + " = " + ShapeText(type, dims) + " parameter(" + i + ")";
}

}  // namespace phal::conformance
