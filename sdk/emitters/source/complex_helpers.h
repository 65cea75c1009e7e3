// The complex helpers of the prelude, shared by the dialects. Their text is
// written in a notation each dialect fills in (ComplexHelperText):
//
//   $NAME      the helper's name             $S   the suffix (c64, c128)
//   $T         the part type (float, ...)    $V   the vector type
//   $MK(x, y)  a vector from two parts       $C(x) x converted to $T
//   $BIG       the largest magnitude whose square root scaling is not needed
//   $E1        Euler's number as a $T literal
//   @f(...)    the real function f on $T (exp, log, sin, cos, sinh, cosh,
//              expm1, log1p, atan2, hypot, cbrt, sqrt, fabs, copysign)
//   @inf @nan  infinity and a quiet NaN of $T
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_COMPLEX_HELPERS_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_COMPLEX_HELPERS_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sdk/base/status.h"

namespace phal::source_emitter {

// Replaces every occurrence of each key in `text` by its value, in order.
std::string Fill(
    std::string text,
    std::initializer_list<std::pair<std::string_view, std::string_view>>
        values);

struct ComplexHelperText {
  std::string text;  // in the notation above
  // Other complex helpers it calls, by operation ("cdiv", ...).
  std::vector<std::string> operations;
};

// The helper `op` ("cmul", "cexp", "csqrt", ...) in the notation above, or
// UNIMPLEMENTED when there is none of that name.
StatusOr<ComplexHelperText> ComplexHelper(std::string_view op);

// The c64 helper `op` computed by its c128 helper (phal_<op>_c128), in the
// notation above plus $NARROW(x) (c128 to c64), $WIDEN(x) (c64 to c128) and
// $PART(x) (f64 to f32). $V is the c64 vector type.
std::string ComplexThroughC128(std::string_view op);

// The distinct @functions `text` calls, without the @.
std::vector<std::string> CalledFunctions(std::string_view text);

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_COMPLEX_HELPERS_H_
