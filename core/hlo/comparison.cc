#include "core/hlo/comparison.h"

#include <array>
#include <utility>

namespace phal {
namespace {

constexpr std::array<std::pair<ComparisonDirection, std::string_view>, 6>
    kDirectionNames = {{{ComparisonDirection::kEq, "EQ"},
                        {ComparisonDirection::kNe, "NE"},
                        {ComparisonDirection::kLt, "LT"},
                        {ComparisonDirection::kLe, "LE"},
                        {ComparisonDirection::kGt, "GT"},
                        {ComparisonDirection::kGe, "GE"}}};

constexpr std::array<std::pair<ComparisonType, std::string_view>, 4>
    kTypeNames = {{{ComparisonType::kSigned, "SIGNED"},
                   {ComparisonType::kUnsigned, "UNSIGNED"},
                   {ComparisonType::kFloat, "FLOAT"},
                   {ComparisonType::kTotalOrder, "TOTALORDER"}}};

}  // namespace

std::string_view ComparisonDirectionName(ComparisonDirection direction) {
  for (const auto& [value, name] : kDirectionNames) {
    if (value == direction) return name;
  }
  return "";
}

std::optional<ComparisonDirection> ComparisonDirectionFromName(
    std::string_view name) {
  for (const auto& [value, spelling] : kDirectionNames) {
    if (spelling == name) return value;
  }
  return std::nullopt;
}

std::string_view ComparisonTypeName(ComparisonType type) {
  for (const auto& [value, name] : kTypeNames) {
    if (value == type) return name;
  }
  return "";
}

std::optional<ComparisonType> ComparisonTypeFromName(std::string_view name) {
  for (const auto& [value, spelling] : kTypeNames) {
    if (spelling == name) return value;
  }
  return std::nullopt;
}

ComparisonType DefaultComparisonType(ElementType type) {
  if (IsFloat(type) || IsComplex(type)) return ComparisonType::kFloat;
  if (IsSigned(type)) return ComparisonType::kSigned;
  return ComparisonType::kUnsigned;
}

}  // namespace phal
