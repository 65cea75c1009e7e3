#include "core/frontend/minifloat_rounding.h"

#include <cmath>
#include <limits>

namespace phal {

StatusOr<HloInstruction*> RoundToMinifloatFormat(
    HloBuilder& b, HloInstruction* value, const MinifloatFormat& format) {
  using Specials = MinifloatFormat::Specials;
  const bool ieee = format.specials == Specials::kIeee;
  auto reduce = b.Create(HloOpcode::kReducePrecision, Shape(), {value});
  reduce->set_exponent_bits(format.exponent_bits + (ieee ? 0 : 1));
  reduce->set_mantissa_bits(format.mantissa_bits);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * rounded, b.Add(std::move(reduce)));
  if (ieee) return rounded;
  const double largest = MinifloatMax(format);
  PHAL_ASSIGN_OR_RETURN(HloInstruction * magnitude,
                        b.Unary(HloOpcode::kAbs, rounded));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * limit, b.FullLike(rounded, largest));
  PHAL_ASSIGN_OR_RETURN(HloInstruction * overflows,
                        b.Compare(ComparisonDirection::kGt, magnitude, limit));
  HloInstruction* replacement = nullptr;
  if (format.specials == Specials::kNone) {
    PHAL_ASSIGN_OR_RETURN(HloInstruction * sign,
                          b.Unary(HloOpcode::kSign, rounded));
    PHAL_ASSIGN_OR_RETURN(replacement,
                          b.Binary(HloOpcode::kMultiply, sign, limit));
  } else {
    PHAL_ASSIGN_OR_RETURN(
        replacement,
        b.FullLike(rounded, std::numeric_limits<double>::quiet_NaN()));
  }
  return b.Select(overflows, replacement, rounded);
}

}  // namespace phal
