// The GLSL 4.50 compute dialect (Vulkan, compiled to SPIR-V): types, buffer
// access and the prelude helpers.
//
// What a device must offer: 64-, 16- and 8-bit integer arithmetic
// (shaderInt64, shaderInt16, shaderInt8) and 16- and 8-bit storage buffer
// access; f64 and c128 need shaderFloat64. Buffers are storage buffers at
// bindings 0..n-1 in argument order (the scratch buffer, when a kernel has
// one, at binding n, seen through one aliased view per element type); the
// work-group size comes from specialization constants 0, 1 and 2. f16 is
// stored as its bits and converted by the prelude (no shaderFloat16 needed),
// bf16 likewise. Float constants are read through a push constant that
// is zero (kGlslPushConstantBytes in dialect.h), so that no driver can fold
// arithmetic on them against IEEE rules.
//
// Precision. GLSL has no f64 transcendental functions and loosely bounded
// f32 ones, so every function comes from the portable math library
// (glsl_math.h): with f64, f32 functions are computed in f64 and rounded
// once, as the other toolkits do; f32 division and square root likewise.
// Float values are declared `precise`, so no driver contracts a multiply
// and an add into one rounding the program did not ask for.
#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/emitters/source/complex_helpers.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/emitters/source/glsl_math.h"
#include "sdk/emitters/source/source_emitter.h"

namespace phal::source_emitter {
namespace {

// The push constant (kGlslPushConstantBytes) whose value is always zero.
constexpr char kOpaqueZero[] = "phal_opaque_zero";

struct IntegerInfo {
  const char* suffix;
  const char* type;           // the GLSL type
  const char* wrap;           // unsigned type of at least 32 bits it wraps in
  const char* wide_signed;    // signed type of at least 32 bits
  const char* same_unsigned;  // unsigned type of the same width
  const char* same_signed;    // signed type of the same width
  int bits;
  bool is_signed;
  const char* min;  // the most negative value
  const char* max;  // the largest value
};

const IntegerInfo kIntegers[] = {
    {"s8", "int8_t", "uint", "int", "uint8_t", "int8_t", 8, true,
     "int8_t(-128)", "int8_t(127)"},
    {"s16", "int16_t", "uint", "int", "uint16_t", "int16_t", 16, true,
     "int16_t(-32768)", "int16_t(32767)"},
    {"s32", "int", "uint", "int", "uint", "int", 32, true, "int(0x80000000u)",
     "int(0x7fffffff)"},
    {"s64", "int64_t", "uint64_t", "int64_t", "uint64_t", "int64_t", 64, true,
     "int64_t(0x8000000000000000ul)", "int64_t(0x7ffffffffffffffful)"},
    {"u8", "uint8_t", "uint", "int", "uint8_t", "int8_t", 8, false,
     "uint8_t(0)", "uint8_t(255)"},
    {"u16", "uint16_t", "uint", "int", "uint16_t", "int16_t", 16, false,
     "uint16_t(0)", "uint16_t(65535)"},
    {"u32", "uint", "uint", "int", "uint", "int", 32, false, "0u",
     "0xffffffffu"},
    {"u64", "uint64_t", "uint64_t", "int64_t", "uint64_t", "int64_t", 64, false,
     "0ul", "0xfffffffffffffffful"},
};

const IntegerInfo* Integer(std::string_view suffix) {
  for (const IntegerInfo& info : kIntegers) {
    if (suffix == info.suffix) return &info;
  }
  return nullptr;
}

std::string FillInteger(const std::string& text, const IntegerInfo& t) {
  return Fill(text, {{"$T", t.type},
                     {"$WS", t.wide_signed},
                     {"$W", t.wrap},
                     {"$U", t.same_unsigned},
                     {"$I", t.same_signed},
                     {"$B", std::to_string(t.bits)},
                     {"$MIN", t.min},
                     {"$MAX", t.max}});
}

std::string IntegerHelper(std::string_view op, const IntegerInfo& t) {
  if (op == "div") {
    return FillInteger(t.is_signed
                           ? "$T $NAME($T a, $T b) {\n"
                             "  if (b == $T(0)) return $T(-1);\n"
                             "  if (a == $MIN && b == $T(-1)) return a;\n"
                             "  return a / b;\n}\n"
                           : "$T $NAME($T a, $T b) {\n"
                             "  return b == $T(0) ? $MAX : a / b;\n}\n",
                       t);
  }
  if (op == "rem") {
    // GLSL leaves % of negative operands undefined: a - (a / b) * b, with
    // division truncating, is C's remainder.
    return FillInteger(t.is_signed
                           ? "$T $NAME($T a, $T b) {\n"
                             "  if (b == $T(0)) return a;\n"
                             "  if (a == $MIN && b == $T(-1)) return $T(0);\n"
                             "  return $T(a - (a / b) * b);\n}\n"
                           : "$T $NAME($T a, $T b) {\n"
                             "  return b == $T(0) ? a : $T(a % b);\n}\n",
                       t);
  }
  if (op == "shl") {
    return FillInteger(
        "$T $NAME($T a, $T b) {\n"
        "  return $U(b) >= $U($B) ? $T(0) : $T($W($U(a)) << $W($U(b)));\n}\n",
        t);
  }
  if (op == "srl") {
    return FillInteger(
        "$T $NAME($T a, $T b) {\n"
        "  return $U(b) >= $U($B) ? $T(0) : $T($W($U(a)) >> $W($U(b)));\n}\n",
        t);
  }
  if (op == "sra") {
    return FillInteger(
        "$T $NAME($T a, $T b) {\n"
        "  const $I s = $I(a);\n"
        "  if ($U(b) >= $U($B)) return $T(s < $I(0) ? $I(-1) : $I(0));\n"
        "  return $T($WS(s) >> $WS($U(b)));\n}\n",
        t);
  }
  if (op == "pow") {
    return FillInteger(
        std::string(t.is_signed
                        ? "$T $NAME($T base, $T exponent) {\n"
                          "  if (exponent < $T(0)) {\n"
                          "    if (base == $T(1)) return $T(1);\n"
                          "    if (base == $T(-1)) {\n"
                          "      return (exponent & $T(1)) != $T(0) ? $T(-1) "
                          ": $T(1);\n"
                          "    }\n"
                          "    return $T(0);\n  }\n"
                        : "$T $NAME($T base, $T exponent) {\n") +
            "  $W result = $W(1), b = $W(base);\n"
            "  $U e = $U(exponent);\n"
            "  while (e != $U(0)) {\n"
            "    if ((e & $U(1)) != $U(0)) result *= b;\n"
            "    b *= b;\n"
            "    e >>= $U(1);\n"
            "  }\n"
            "  return $T(result);\n}\n",
        t);
  }
  if (op == "popcount") {
    return FillInteger(t.bits == 64
                           ? "$T $NAME($T x) {\n"
                             "  const uint64_t v = uint64_t(x);\n"
                             "  return $T(bitCount(uint(v)) + "
                             "bitCount(uint(v >> 32)));\n}\n"
                           : "$T $NAME($T x) {\n"
                             "  return $T(bitCount(uint($U(x))));\n}\n",
                       t);
  }
  if (op == "clz") {
    return FillInteger(t.bits == 64
                           ? "$T $NAME($T x) {\n"
                             "  const uint64_t v = uint64_t(x);\n"
                             "  const uint high = uint(v >> 32);\n"
                             "  return high != 0u ? $T(31 - findMSB(high))\n"
                             "                    : $T(63 - findMSB(uint(v)));"
                             "\n}\n"
                           : "$T $NAME($T x) {\n"
                             "  return $T($B - 1 - findMSB(uint($U(x))));\n}\n",
                       t);
  }
  return "";
}

// The GLSL spellings of a real type's values and functions.
struct Real {
  const char* type;       // float or double
  const char* vector;     // vec2 or dvec2
  const char* suffix;     // f32 or f64
  const char* to_bits;    // its bits, as the same-width unsigned type
  const char* from_bits;  // the value of such bits
  const char* sign_bit;   // the sign bit, as such a literal
  const char* magnitude;  // every other bit
  const char* sign_shift;
  const char* infinity;
  const char* nan;
  const char* min_normal;
  const char* scale;  // 2^64 (f32) or 2^128 (f64): subnormals times it are
                      // normal
};

const Real kF32 = {"float",
                   "vec2",
                   "f32",
                   "floatBitsToUint",
                   "uintBitsToFloat",
                   "0x80000000u",
                   "0x7fffffffu",
                   "31",
                   "uintBitsToFloat(0x7f800000u)",
                   "uintBitsToFloat(0x7fc00000u)",
                   "uintBitsToFloat(0x00800000u)",
                   "uintBitsToFloat(0x5f800000u)"};
const Real kF64 = {"double",
                   "dvec2",
                   "f64",
                   "doubleBitsToUint64",
                   "uint64BitsToDouble",
                   "0x8000000000000000ul",
                   "0x7ffffffffffffffful",
                   "63",
                   "uint64BitsToDouble(0x7ff0000000000000ul)",
                   "uint64BitsToDouble(0x7ff8000000000000ul)",
                   "uint64BitsToDouble(0x0010000000000000ul)",
                   "uint64BitsToDouble(0x47f0000000000000ul)"};

std::string FillReal(std::string text, const Real& r) {
  // Longer keys first: "$S" is a prefix of "$SIGN" and "$SCALE".
  return Fill(std::move(text), {{"$MINNORMAL", r.min_normal},
                                {"$SCALE", r.scale},
                                {"$TOBITS", r.to_bits},
                                {"$FROMBITS", r.from_bits},
                                {"$SIGNBIT", r.sign_bit},
                                {"$MAGNITUDE", r.magnitude},
                                {"$SIGN", r.sign_shift},
                                {"$NAN", r.nan},
                                {"$T", r.type},
                                {"$S", r.suffix}});
}

// Helpers on a real type that need no math library function.
std::string RealHelper(std::string_view op, const Real& r) {
  if (op == "max" || op == "min") {
    // IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
    return FillReal(op == "max"
                        ? "$T $NAME($T a, $T b) {\n"
                          "  if (isnan(a) || isnan(b)) return a + b;\n"
                          "  if (a == b) return ($TOBITS(a) >> $SIGN) != 0 ? "
                          "b : a;\n"
                          "  return a > b ? a : b;\n}\n"
                        : "$T $NAME($T a, $T b) {\n"
                          "  if (isnan(a) || isnan(b)) return a + b;\n"
                          "  if (a == b) return ($TOBITS(a) >> $SIGN) != 0 ? "
                          "a : b;\n"
                          "  return a < b ? a : b;\n}\n",
                    r);
  }
  if (op == "total") {
    return r.suffix == std::string_view("f32")
               ? "int $NAME(float x) {\n"
                 "  const int k = floatBitsToInt(x);\n"
                 "  return k < 0 ? k ^ 0x7fffffff : k;\n}\n"
               : "int64_t $NAME(double x) {\n"
                 "  const int64_t k = doubleBitsToInt64(x);\n"
                 "  return k < 0l ? k ^ 0x7fffffffffffffffl : k;\n}\n";
  }
  // Roundings to an integral value. The result's sign bit is x's, set with
  // integer operations: IEEE 754 gives a rounding x's sign, zeros included,
  // while drivers need not keep the sign of a zero result (lavapipe's f64
  // floor, trunc and roundEven on processors without AVX-512 give +0 for
  // -0.4). x - trunc(x) is exact, so the half-away-from-zero test is too.
  const std::string keep_sign =
      "  return $FROMBITS(($TOBITS(r) & $MAGNITUDE) | ($TOBITS(x) & "
      "$SIGNBIT));\n}\n";
  if (op == "floor" || op == "ceil" || op == "rint") {
    const std::string function = op == "rint" ? "roundEven" : std::string(op);
    return FillReal(
        "$T $NAME($T x) {\n  const $T r = " + function + "(x);\n" + keep_sign,
        r);
  }
  if (op == "round") {
    return FillReal(
        "$T $NAME($T x) {\n"
        "  precise $T r = trunc(x);\n"
        "  if (abs(x - r) >= $T(0.5)) r += sign(x);\n" +
            keep_sign,
        r);
  }
  if (op == "isfinite") {
    return FillReal("bool $NAME($T x) {\n  return !isnan(x) && !isinf(x);\n}\n",
                    r);
  }
  if (op == "copysign") {
    return FillReal(
        "$T $NAME($T m, $T s) {\n"
        "  return ($TOBITS(s) >> $SIGN) != 0 ? -abs(m) : abs(m);\n}\n",
        r);
  }
  if (op == "fmod") {
    // Exact: each step subtracts the largest y * 2^k not above the
    // remainder, which Sterbenz's lemma makes exact. A subnormal y is
    // scaled into the normal range first (frexp and ldexp need not handle
    // subnormals): r mod (y * 2^s), then scaled by 2^s, mod y * 2^s again.
    return FillReal(
        "$T phal_fmod_steps_$S($T r, $T m) {\n"
        "  int em;\n"
        "  frexp(m, em);\n"
        "  while (r >= m) {\n"
        "    int er;\n"
        "    frexp(r, er);\n"
        "    $T t = ldexp(m, er - em);\n"
        "    if (t > r) t = ldexp(m, er - em - 1);\n"
        "    precise $T rest = r - t;\n"
        "    r = rest;\n"
        "  }\n"
        "  return r;\n}\n"
        "$T $NAME($T x, $T y) {\n"
        "  if (isnan(x) || isnan(y) || isinf(x) || y == $T(0)) return $NAN;\n"
        "  if (isinf(y)) return x;\n"
        "  $T r = abs(x);\n"
        "  const $T m = abs(y);\n"
        "  if (r < m) return x;\n"
        "  if (m < $MINNORMAL) {\n"
        "    const $T big = m * $SCALE;\n"
        "    r = phal_fmod_steps_$S(r, big) * $SCALE;\n"
        "    r = phal_fmod_steps_$S(r, big) / $SCALE;\n"
        "  } else {\n"
        "    r = phal_fmod_steps_$S(r, m);\n"
        "  }\n"
        "  return ($TOBITS(x) >> $SIGN) != 0 ? -r : r;\n}\n",
        r);
  }
  return "";
}

// The f64 function `op` of the math library and how a helper calls it:
// `expression` in x (and y), "" when the library has no such function.
std::string MathExpression(std::string_view op) {
  if (op == "logistic") return "1.0lf / (1.0lf + phal_m_exp_f64(-x))";
  if (op == "rsqrt") return "1.0lf / phal_m_sqrt_f64(x)";
  if (op == "exp" || op == "expm1" || op == "log" || op == "log1p" ||
      op == "tanh" || op == "sin" || op == "cos" || op == "tan" ||
      op == "cbrt" || op == "erf" || op == "sqrt") {
    return "phal_m_" + std::string(op) + "_f64(x)";
  }
  if (op == "atan2" || op == "pow") {
    return "phal_m_" + std::string(op) + "_f64(x, y)";
  }
  if (op == "div") return "x / y";
  return "";
}

// The math library functions `expression` calls.
std::vector<std::string> MathDependencies(std::string_view expression) {
  std::vector<std::string> names;
  for (size_t at = expression.find("phal_m_"); at != std::string_view::npos;
       at = expression.find("phal_m_", at + 1)) {
    const size_t end = expression.find('(', at);
    names.emplace_back(expression.substr(at, end - at));
  }
  return names;
}

StatusOr<HelperDefinition> MathDefinition(std::string_view op,
                                          std::string_view suffix,
                                          const DeviceFeatures& features) {
  const std::string expression = MathExpression(op);
  if (expression.empty()) return Unimplemented("no helper " + std::string(op));
  const bool binary = expression.find(", y") != std::string::npos ||
                      expression.find("/ y") != std::string::npos;
  if (suffix == "f64" || features.fp64) {
    const std::string parameters = binary ? "$T a, $T b" : std::string("$T v");
    const std::string widen = binary ? "  const double x = double(a), y = "
                                       "double(b);\n"
                                     : "  const double x = double(v);\n";
    return HelperDefinition{Fill("$T $NAME(" + parameters + ") {\n" + widen +
                                     "  return $T($E);\n}\n",
                                 {{"$T", suffix == "f64" ? "double" : "float"},
                                  {"$E", expression}}),
                            MathDependencies(expression)};
  }
  // f32 without f64: the library's f32 functions.
  std::string narrow = Fill(expression, {{"_f64", "_f32"}, {"lf", "f"}});
  return HelperDefinition{
      Fill(binary ? "float $NAME(float x, float y) {\n  return $E;\n}\n"
                  : "float $NAME(float x) {\n  return $E;\n}\n",
           {{"$E", narrow}}),
      MathDependencies(narrow)};
}

StatusOr<HelperDefinition> ComplexDefinition(std::string_view op,
                                             std::string_view suffix,
                                             const DeviceFeatures& features) {
  const bool is_c64 = suffix == "c64";
  const Real& part = is_c64 ? kF32 : kF64;
  const bool exact = op == "cmul" || op == "cmax" || op == "cmin";
  if (is_c64 && features.fp64 && !exact) {
    return HelperDefinition{Fill(ComplexThroughC128(op), {{"$NARROW(", "vec2("},
                                                          {"$WIDEN(", "dvec2("},
                                                          {"$PART(", "float("},
                                                          {"$V", "vec2"}}),
                            {"phal_" + std::string(op) + "_c128"}};
  }
  PHAL_ASSIGN_OR_RETURN(ComplexHelperText helper, ComplexHelper(op));
  HelperDefinition definition;
  definition.text =
      Fill(std::move(helper.text),
           {{"$V", part.vector},
            {"$T", part.type},
            {"$S", suffix},
            {"$MK(", std::string(part.vector) + "("},
            {"$C(", std::string(part.type) + "("},
            {"$BIG", is_c64 ? "2.12676479e37" : "1.1235582092889474e307lf"},
            {"$E1", is_c64 ? "2.7182817f" : "2.718281828459045lf"},
            {"@inf", part.infinity},
            {"@nan", part.nan}});
  for (const std::string& function : CalledFunctions(definition.text)) {
    std::string name;
    if (function == "fabs") {
      name = "abs";
    } else if (function == "copysign" || function == "isfinite") {
      name = "phal_" + function + "_" + part.suffix;
      definition.dependencies.push_back(name);
    } else {
      name = "phal_m_" + function + "_" + part.suffix;
      definition.dependencies.push_back(name);
    }
    definition.text =
        Fill(std::move(definition.text), {{"@" + function + "(", name + "("}});
  }
  for (const std::string& operation : helper.operations) {
    definition.dependencies.push_back("phal_" + operation + "_" +
                                      std::string(suffix));
  }
  return definition;
}

// Sixteen-bit float rounding and conversions (computed as f32). The bit
// conversions themselves (phal_f16_bits, phal_f16_from_bits) are part of
// every kernel that calls them (OnDemand below).
StatusOr<HelperDefinition> HalfDefinition(std::string_view name,
                                          const DeviceFeatures& features) {
  if (name == "phal_f16_bits" || name == "phal_f16_from_bits") {
    return HelperDefinition{"", {}};
  }
  if (name == "phal_round_f16") {
    return HelperDefinition{
        "float $NAME(float x) {\n"
        "  return phal_f16_from_bits(phal_f16_bits(x));\n}\n",
        {}};
  }
  if (name == "phal_round_bf16") {
    return HelperDefinition{
        "float $NAME(float x) {\n"
        "  uint b = floatBitsToUint(x);\n"
        "  if (isnan(x)) return uintBitsToFloat((b | 0x00400000u) & "
        "0xffff0000u);\n"
        "  b += 0x7fffu + ((b >> 16) & 1u);\n"
        "  return uintBitsToFloat(b & 0xffff0000u);\n}\n",
        {}};
  }
  if (name == "phal_round_odd_f32") {
    // f64 to f32 rounding to odd: towards zero, the last bit set when
    // inexact, so that rounding the result again to f16 or bf16 rounds once.
    return HelperDefinition{
        "float $NAME(double x) {\n"
        "  float f = float(x);\n"
        "  if (isnan(x) || isinf(x) || double(f) == x) return f;\n"
        "  if (abs(double(f)) > abs(x)) {\n"
        "    f = uintBitsToFloat(floatBitsToUint(f) - 1u);\n"
        "  }\n"
        "  return uintBitsToFloat(floatBitsToUint(f) | 1u);\n}\n",
        {}};
  }
  if (name == "phal_f64_to_f16" || name == "phal_f64_to_bf16") {
    const std::string round =
        name == "phal_f64_to_f16" ? "phal_round_f16" : "phal_round_bf16";
    if (!features.fp64) {
      return HelperDefinition{
          "float $NAME(float x) {\n  return " + round + "(x);\n}\n", {round}};
    }
    return HelperDefinition{"float $NAME(double x) {\n  return " + round +
                                "(phal_round_odd_f32(x));\n}\n",
                            {round, "phal_round_odd_f32"}};
  }
  if (name == "phal_reduce_precision_bits") {
    return HelperDefinition{
        "uint64_t $NAME(uint64_t bits, int total, int mantissa, "
        "int target_exponent, int target_mantissa) {\n"
        "  const int exponent_bits = total - 1 - mantissa;\n"
        "  const uint64_t all = total == 64 ? ~0ul : ((1ul << uint64_t(total)) "
        "- 1ul);\n"
        "  const uint64_t sign_mask = 1ul << uint64_t(total - 1);\n"
        "  const uint64_t exponent_mask = ((1ul << uint64_t(exponent_bits)) - "
        "1ul) << uint64_t(mantissa);\n"
        "  const uint64_t mantissa_mask = (1ul << uint64_t(mantissa)) - 1ul;\n"
        "  const bool is_nan = (bits & exponent_mask) == exponent_mask &&\n"
        "                      (bits & mantissa_mask) != 0ul;\n"
        "  uint64_t result = bits;\n"
        "  if (target_mantissa < mantissa) {\n"
        "    const uint64_t dropped = uint64_t(mantissa - target_mantissa);\n"
        "    const uint64_t last = 1ul << dropped;\n"
        "    const uint64_t bias = ((result & last) >> dropped) + (last >> 1) "
        "- 1ul;\n"
        "    result = ((result + bias) & ~(last - 1ul)) & all;\n"
        "  }\n"
        "  const uint64_t sign = bits & sign_mask;\n"
        "  if (target_exponent < exponent_bits) {\n"
        "    const uint64_t bias = (1ul << uint64_t(exponent_bits - 1)) - "
        "1ul;\n"
        "    const uint64_t target_bias = (1ul << uint64_t(target_exponent - "
        "1)) - 1ul;\n"
        "    const uint64_t exponent = result & exponent_mask;\n"
        "    if (exponent > ((bias + target_bias) << uint64_t(mantissa))) {\n"
        "      result = sign | exponent_mask;\n"
        "    } else if (exponent <= ((bias - target_bias) << "
        "uint64_t(mantissa))) {\n"
        "      result = sign;\n"
        "    }\n"
        "  }\n"
        "  if (is_nan) return target_mantissa > 0 ? bits : (sign | "
        "exponent_mask);\n"
        "  return result;\n}\n",
        {}};
  }
  return Unimplemented("no helper " + std::string(name));
}

// The math library's block `name` (phal_m_..., and the blocks it uses).
StatusOr<HelperDefinition> MathLibraryBlock(std::string_view name) {
  StatusOr<GlslMathBlock> block = FindGlslMathBlock(name);
  if (!block.ok()) {
    return Unimplemented("the GLSL math library has no " + std::string(name));
  }
  return HelperDefinition{std::string(block->text), block->dependencies};
}

StatusOr<HelperDefinition> Definition(std::string_view name,
                                      const DeviceFeatures& features) {
  if (name.substr(0, 7) == "phal_m_") return MathLibraryBlock(name);
  if (name.substr(0, 5) != "phal_") {
    return Unimplemented("no helper " + std::string(name));
  }
  const std::string_view rest = name.substr(5);
  const size_t underscore = rest.rfind('_');
  if (underscore == std::string_view::npos) {
    return HalfDefinition(name, features);
  }
  const std::string_view op = rest.substr(0, underscore);
  const std::string_view suffix = rest.substr(underscore + 1);
  if (rest.substr(0, 4) == "sat_") {
    // StableHLO's float-to-integer convert: saturating, NaN to 0.
    const IntegerInfo* integer = Integer(rest.substr(4, underscore - 4));
    if (integer == nullptr)
      return Unimplemented("no helper " + std::string(name));
    const std::string wide = integer->bits == 64
                                 ? integer->type
                                 : (integer->is_signed ? "int" : "uint");
    return HelperDefinition{Fill("$T $NAME($F x) {\n"
                                 "  if (isnan(x)) return $T(0);\n"
                                 "  if (x <= $F($MIN)) return $MIN;\n"
                                 "  if (x >= $F($MAX)) return $MAX;\n"
                                 "  return $T($WIDE(x));\n}\n",
                                 {{"$F", suffix == "f64" ? "double" : "float"},
                                  {"$T", integer->type},
                                  {"$WIDE", wide},
                                  {"$MIN", integer->min},
                                  {"$MAX", integer->max}}),
                            {}};
  }
  if (const IntegerInfo* integer = Integer(suffix)) {
    std::string text = IntegerHelper(op, *integer);
    if (!text.empty()) return HelperDefinition{std::move(text), {}};
  }
  if (suffix == "c64" || suffix == "c128") {
    return ComplexDefinition(op, suffix, features);
  }
  if (suffix == "f32" || suffix == "f64") {
    if (std::string text = RealHelper(op, suffix == "f32" ? kF32 : kF64);
        !text.empty()) {
      return HelperDefinition{std::move(text), {}};
    }
    if (!MathExpression(op).empty()) {
      return MathDefinition(op, suffix, features);
    }
  }
  return HalfDefinition(name, features);
}

// Functions a kernel defines only when its text calls them: the bit
// reinterpretations Bitcast prints and the f16 conversions of f16 loads and
// stores.
struct OnDemand {
  const char* name;
  bool fp64;  // defined only on devices with f64
  const char* text;
};

const OnDemand kOnDemand[] = {
    {"phal_as_uint", false,
     "uint phal_as_uint(float x) { return floatBitsToUint(x); }\n"
     "uint phal_as_uint(uint x) { return x; }\n"
     "uint phal_as_uint(int x) { return uint(x); }\n"},
    {"phal_as_int", false,
     "int phal_as_int(float x) { return floatBitsToInt(x); }\n"
     "int phal_as_int(uint x) { return int(x); }\n"
     "int phal_as_int(int x) { return x; }\n"},
    {"phal_as_uint64_t", false,
     "uint64_t phal_as_uint64_t(uint64_t x) { return x; }\n"
     "uint64_t phal_as_uint64_t(int64_t x) { return uint64_t(x); }\n"},
    {"phal_as_uint64_t", true,
     "uint64_t phal_as_uint64_t(double x) { return doubleBitsToUint64(x); "
     "}\n"},
    {"phal_as_int64_t", false,
     "int64_t phal_as_int64_t(uint64_t x) { return int64_t(x); }\n"
     "int64_t phal_as_int64_t(int64_t x) { return x; }\n"},
    {"phal_as_int64_t", true,
     "int64_t phal_as_int64_t(double x) { return doubleBitsToInt64(x); }\n"},
    {"phal_i64", false,
     "int64_t phal_i64(int x) {\n"
     "  return int64_t(uint64_t(uint(x)) ^ 0x80000000ul) - 0x80000000l;\n}\n"
     "int64_t phal_i64(int16_t x) { return phal_i64(int(x)); }\n"
     "int64_t phal_i64(int8_t x) { return phal_i64(int(x)); }\n"
     "int64_t phal_i64(uint x) { return int64_t(uint64_t(x)); }\n"
     "int64_t phal_i64(uint16_t x) { return int64_t(uint64_t(x)); }\n"
     "int64_t phal_i64(uint8_t x) { return int64_t(uint64_t(x)); }\n"
     "int64_t phal_i64(int64_t x) { return x; }\n"
     "int64_t phal_i64(uint64_t x) { return int64_t(x); }\n"
     "int64_t phal_i64(bool x) { return x ? 1l : 0l; }\n"
     "int64_t phal_i64(float x) { return int64_t(x); }\n"},
    {"phal_i64", true, "int64_t phal_i64(double x) { return int64_t(x); }\n"},
    // f32 to f16 bits, rounding to nearest even; NaNs keep their sign and
    // leading payload bits.
    {"phal_f16_bits", false,
     "uint16_t phal_f16_bits(float x) {\n"
     "  const uint b = floatBitsToUint(x);\n"
     "  const uint sign = (b >> 16) & 0x8000u;\n"
     "  const uint e = (b >> 23) & 0xffu;\n"
     "  uint m = b & 0x7fffffu;\n"
     "  if (e == 255u) {\n"
     "    const uint payload = m >> 13;\n"
     "    return uint16_t(sign | 0x7c00u |\n"
     "                    (m == 0u ? 0u : payload != 0u ? payload : 0x200u));\n"
     "  }\n"
     "  const int exponent = int(e) - 112;\n"
     "  if (exponent >= 31) return uint16_t(sign | 0x7c00u);\n"
     "  if (exponent <= 0) {\n"
     "    if (exponent < -10) return uint16_t(sign);\n"
     "    m |= 0x800000u;\n"
     "    const uint shift = uint(14 - exponent);\n"
     "    uint h = m >> shift;\n"
     "    const uint rest = m & ((1u << shift) - 1u);\n"
     "    const uint half_way = 1u << (shift - 1u);\n"
     "    if (rest > half_way || (rest == half_way && (h & 1u) != 0u)) h += "
     "1u;\n"
     "    return uint16_t(sign | h);\n"
     "  }\n"
     "  uint h = (uint(exponent) << 10) | (m >> 13);\n"
     "  const uint rest = m & 0x1fffu;\n"
     "  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u) != 0u)) h += 1u;\n"
     "  return uint16_t(sign | h);\n}\n"},
    {"phal_f16_from_bits", false,
     "float phal_f16_from_bits(uint16_t h) {\n"
     "  const uint b = uint(h);\n"
     "  const uint sign = (b & 0x8000u) << 16;\n"
     "  const uint e = (b >> 10) & 0x1fu;\n"
     "  const uint m = b & 0x3ffu;\n"
     "  if (e == 31u) return uintBitsToFloat(sign | 0x7f800000u | (m << 13));\n"
     "  if (e == 0u) {\n"
     "    const float v = float(m) * 5.9604644775390625e-8;\n"
     "    return sign != 0u ? -v : v;\n"
     "  }\n"
     "  return uintBitsToFloat(sign | ((e + 112u) << 23) | (m << 13));\n}\n"},
};

// The name suffix of a scratch view and its element type in GLSL.
struct ScratchType {
  const char* suffix;
  const char* type;
};
const ScratchType kScratchTypes[] = {
    {"u8", "uint8_t"},  {"s8", "int8_t"},    {"u16", "uint16_t"},
    {"s16", "int16_t"}, {"s32", "int"},      {"u32", "uint"},
    {"s64", "int64_t"}, {"u64", "uint64_t"}, {"f32", "float"},
    {"f64", "double"},  {"c64", "vec2"},     {"c128", "dvec2"},
};

std::string StorageSuffix(phal_element_type_t type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return "u8";
    case PHAL_ELEMENT_TYPE_F16:
    case PHAL_ELEMENT_TYPE_BF16:
      return "u16";
    default:
      return ElementTypeName(type);
  }
}

std::string StorageType(phal_element_type_t type) {
  const std::string suffix = StorageSuffix(type);
  for (const ScratchType& scratch : kScratchTypes) {
    if (suffix == scratch.suffix) return scratch.type;
  }
  return "";
}

bool Calls(const std::string& text, const std::string& name) {
  return text.find(name + "(") != std::string::npos;
}

class Glsl final : public Dialect {
 public:
  std::string_view name() const override { return "GLSL 4.50 compute"; }

  std::string ComputeType(phal_element_type_t type) const override {
    switch (type) {
      case PHAL_ELEMENT_TYPE_PRED:
      case PHAL_ELEMENT_TYPE_U8:
        return "uint8_t";
      case PHAL_ELEMENT_TYPE_S8:
        return "int8_t";
      case PHAL_ELEMENT_TYPE_S16:
        return "int16_t";
      case PHAL_ELEMENT_TYPE_S32:
        return "int";
      case PHAL_ELEMENT_TYPE_S64:
        return "int64_t";
      case PHAL_ELEMENT_TYPE_U16:
        return "uint16_t";
      case PHAL_ELEMENT_TYPE_U32:
        return "uint";
      case PHAL_ELEMENT_TYPE_U64:
        return "uint64_t";
      case PHAL_ELEMENT_TYPE_F16:
      case PHAL_ELEMENT_TYPE_BF16:
      case PHAL_ELEMENT_TYPE_F32:
        return "float";
      case PHAL_ELEMENT_TYPE_F64:
        return "double";
      case PHAL_ELEMENT_TYPE_C64:
        return "vec2";
      case PHAL_ELEMENT_TYPE_C128:
        return "dvec2";
      default:
        return "";
    }
  }

  std::string WrapType(phal_element_type_t type) const override {
    return type == PHAL_ELEMENT_TYPE_S64 || type == PHAL_ELEMENT_TYPE_U64
               ? "uint64_t"
               : "uint";
  }

  std::string Cast(std::string_view type_name,
                   std::string_view expression) const override {
    // To s64 through phal_i64 (OnDemand): lavapipe (Mesa 22.3) narrows a
    // signed 64-bit compare of a sign-extended 32-bit value to a wrong
    // 32-bit compare, which the arithmetic sign extension there avoids.
    if (type_name == "int64_t") {
      return "phal_i64(" + std::string(expression) + ")";
    }
    return std::string(type_name) + "(" + std::string(expression) + ")";
  }

  std::string Bitcast(std::string_view type_name,
                      std::string_view expression) const override {
    const std::string e(expression);
    if (type_name == "float") return "uintBitsToFloat(uint(" + e + "))";
    if (type_name == "double") {
      return "uint64BitsToDouble(uint64_t(" + e + "))";
    }
    if (type_name == "uint" || type_name == "int" || type_name == "uint64_t" ||
        type_name == "int64_t") {
      return "phal_as_" + std::string(type_name) + "(" + e + ")";
    }
    return Cast(type_name, e);
  }

  // The constant's bits XOR a push constant the plugin sets to zero at
  // every dispatch (kOpaqueZero): its value exists only when the kernel
  // runs, so no driver folds arithmetic on it. Drivers do fold against
  // IEEE rules on constants they can see, whatever the shader asks:
  // llvmpipe (lavapipe) turns x * 0 into 0 and x + 0 into x before LLVM.
  std::string FloatConstant(std::string_view type_name,
                            std::string_view bits) const override {
    const std::string b(bits);
    if (type_name == "double") {
      return "uint64BitsToDouble(" + b + " ^ uint64_t(" + kOpaqueZero + "))";
    }
    return "uintBitsToFloat(" + b + " ^ " + kOpaqueZero + ")";
  }

  std::string MakeComplex(phal_element_type_t type, std::string_view real,
                          std::string_view imag) const override {
    return ComputeType(type) + "(" + std::string(real) + ", " +
           std::string(imag) + ")";
  }

  std::string Load(phal_element_type_t type, std::string_view pointer,
                   std::string_view index) const override {
    const std::string element = Subscript(pointer, index);
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return "phal_f16_from_bits(" + element + ")";
      case PHAL_ELEMENT_TYPE_BF16:
        return "uintBitsToFloat(uint(" + element + ") << 16)";
      default:
        return element;
    }
  }

  std::string Store(phal_element_type_t type, std::string_view pointer,
                    std::string_view index,
                    std::string_view value) const override {
    const std::string element = Subscript(pointer, index), v(value);
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return element + " = phal_f16_bits(" + v + ");";
      case PHAL_ELEMENT_TYPE_BF16:
        return element + " = uint16_t(floatBitsToUint(" + v + ") >> 16);";
      default:
        return element + " = " + v + ";";
    }
  }

  std::string Subscript(std::string_view array,
                        std::string_view index) const override {
    return std::string(array) + "[uint(" + std::string(index) + ")]";
  }

  std::string ScratchView(phal_element_type_t type) const override {
    return "phal_scratch_" + StorageSuffix(type);
  }

  std::string Declare(std::string_view type_name, std::string_view name,
                      std::string_view value, bool constant) const override {
    const bool real = type_name == "float" || type_name == "double" ||
                      type_name == "vec2" || type_name == "dvec2";
    return std::string(real ? "precise " : "") + (constant ? "const " : "") +
           std::string(type_name) + " " + std::string(name) + " = " +
           std::string(value) + ";";
  }

  std::string GlobalId(int d) const override {
    return "int64_t(gl_GlobalInvocationID." + Axis(d) + ")";
  }
  std::string LocalId(int d) const override {
    return "int64_t(gl_LocalInvocationID." + Axis(d) + ")";
  }
  std::string GroupId(int d) const override {
    return "int64_t(gl_WorkGroupID." + Axis(d) + ")";
  }
  std::string Barrier() const override { return "barrier();"; }
  std::string ShuffleDown(std::string_view value,
                          std::string_view delta) const override {
    return "subgroupShuffleDown(" + std::string(value) + ", uint(" +
           std::string(delta) + "))";
  }
  std::string SubgroupLane() const override {
    return "int64_t(gl_SubgroupInvocationID)";
  }
  std::string SubgroupSize() const override {
    return "int64_t(gl_SubgroupSize)";
  }
  std::string SubgroupLive() const override {
    return "int64_t(subgroupBallotBitCount(subgroupBallot(true)))";
  }
  std::string SubgroupIndex() const override {
    return "int64_t(gl_SubgroupID)";
  }

  std::string Builtin(std::string_view name,
                      phal_element_type_t type) const override {
    if (name == "fabs") return "abs";
    if (name == "min" || name == "max") return std::string(name);
    if (name == "sqrt" && type != PHAL_ELEMENT_TYPE_F64) return "sqrt";
    return "";
  }

  std::string Kernel(const KernelParts& parts,
                     const DeviceFeatures& features) const override {
    std::string text =
        "#version 450\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
        "#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require\n"
        "#extension GL_EXT_shader_16bit_storage : require\n"
        "#extension GL_EXT_shader_8bit_storage : require\n";
    if (parts.body.find("subgroupShuffleDown(") != std::string::npos) {
      text +=
          "#extension GL_KHR_shader_subgroup_basic : require\n"
          "#extension GL_KHR_shader_subgroup_ballot : require\n"
          "#extension GL_KHR_shader_subgroup_shuffle_relative : require\n";
    }
    text +=
        "\nlayout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = "
        "2) in;\n\n";
    if ((parts.helpers + parts.body).find(kOpaqueZero) != std::string::npos) {
      text += std::string("layout(push_constant) uniform phal_opaque { uint ") +
              kOpaqueZero + "; };\n";
    }
    uint32_t binding = 0;
    for (const BufferParameter& buffer : parts.buffers) {
      text +=
          "layout(std430, set = 0, binding = " + std::to_string(binding) +
          ") buffer phal_buffer_" + std::to_string(binding) + " { " +
          (buffer.bytes ? std::string("uint8_t") : StorageType(buffer.type)) +
          " " + buffer.name + "[]; };\n";
      ++binding;
    }
    const std::string code = parts.helpers + parts.body;
    if (parts.scratch) {
      for (const ScratchType& scratch : kScratchTypes) {
        const std::string view = std::string("phal_scratch_") + scratch.suffix;
        if (code.find(view) == std::string::npos) continue;
        text += "layout(std430, set = 0, binding = " + std::to_string(binding) +
                ") buffer " + view + "_block { " + scratch.type + " " + view +
                "[]; };\n";
      }
    }
    for (const LocalArray& local : parts.locals) {
      text += "shared " + local.type_name + " " + local.name + "[" +
              std::to_string(local.elements) + "];\n";
    }
    text += "\n";
    for (const OnDemand& function : kOnDemand) {
      if ((!function.fp64 || features.fp64) && Calls(code, function.name)) {
        text += function.text;
      }
    }
    text += parts.helpers;
    return text + "void main() {\n" + parts.body + "}\n";
  }

  StatusOr<HelperDefinition> Helper(
      std::string_view name, const DeviceFeatures& features) const override {
    PHAL_ASSIGN_OR_RETURN(HelperDefinition definition,
                          Definition(name, features));
    definition.text = Fill(std::move(definition.text), {{"$NAME", name}});
    return definition;
  }

 private:
  static std::string Axis(int d) { return d == 0 ? "x" : d == 1 ? "y" : "z"; }
};

}  // namespace

const Dialect& GlslDialect() {
  static const Glsl dialect;
  return dialect;
}

}  // namespace phal::source_emitter
