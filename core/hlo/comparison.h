// The attributes of a compare op: which relation it tests and how the
// operands' bits are ordered.
#ifndef POLYHAL_CORE_HLO_COMPARISON_H_
#define POLYHAL_CORE_HLO_COMPARISON_H_

#include <optional>
#include <string_view>

#include "core/hlo/shape.h"

namespace phal {

enum class ComparisonDirection { kEq, kNe, kLt, kLe, kGt, kGe };

// How compare orders its operands. kDefault means "not stated in the text":
// the order follows from the element type (DefaultComparisonType).
enum class ComparisonType {
  kDefault,
  kSigned,
  kUnsigned,
  kFloat,       // IEEE comparison: NaN is unordered.
  kTotalOrder,  // -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
};

// "EQ", "NE", "LT", "LE", "GT", "GE".
std::string_view ComparisonDirectionName(ComparisonDirection direction);
std::optional<ComparisonDirection> ComparisonDirectionFromName(
    std::string_view name);

// "SIGNED", "UNSIGNED", "FLOAT", "TOTALORDER"; "" for kDefault.
std::string_view ComparisonTypeName(ComparisonType type);
std::optional<ComparisonType> ComparisonTypeFromName(std::string_view name);

// The comparison XLA uses when the text names none: FLOAT for floating-point
// and complex types, SIGNED for s*, UNSIGNED for u* and pred.
ComparisonType DefaultComparisonType(ElementType type);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_COMPARISON_H_
