// The OpenCL C 1.2 dialect: types, buffer access and the prelude helpers.
//
// Precision. OpenCL's f32 builtins allow up to 3-4 ulp (exp, log, pow,
// ...), looser than the toolkit's bound (docs/emitters.md: f32 results
// correctly rounded but for near-ties). Where the device has cl_khr_fp64,
// every f32 function is therefore computed in f64 and rounded once, as the
// LLVM toolkit's math library does; without it the f32 builtins are used and
// their OpenCL bounds apply. f64 functions are the device's f64 builtins.
#include <string>
#include <string_view>

#include "sdk/emitters/source/dialect.h"

namespace phal::source_emitter {
namespace {

struct IntegerInfo {
  const char* type;  // the OpenCL type
  const char* wrap;  // unsigned type of at least 32 bits it wraps in
  const char* same_unsigned;
  const char* same_signed;
  int bits;
  bool is_signed;
  const char* min;  // most negative value (signed types)
};

const IntegerInfo* Integer(std::string_view suffix) {
  static const IntegerInfo kIntegers[] = {
      {"char", "uint", "uchar", "char", 8, true, "CHAR_MIN"},
      {"short", "uint", "ushort", "short", 16, true, "SHRT_MIN"},
      {"int", "uint", "uint", "int", 32, true, "INT_MIN"},
      {"long", "ulong", "ulong", "long", 64, true, "LONG_MIN"},
      {"uchar", "uint", "uchar", "char", 8, false, "0"},
      {"ushort", "uint", "ushort", "short", 16, false, "0"},
      {"uint", "uint", "uint", "int", 32, false, "0"},
      {"ulong", "ulong", "ulong", "long", 64, false, "0"},
  };
  static const char* kSuffixes[] = {"s8", "s16", "s32", "s64",
                                    "u8", "u16", "u32", "u64"};
  for (int i = 0; i < 8; ++i) {
    if (suffix == kSuffixes[i]) return &kIntegers[i];
  }
  return nullptr;
}

// Replaces every "$X" in `text` by the matching value.
std::string Fill(
    std::string text,
    std::initializer_list<std::pair<std::string_view, std::string_view>>
        values) {
  for (const auto& [key, value] : values) {
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

std::string IntegerHelper(std::string_view op, const IntegerInfo& t) {
  const auto fill = [&](const char* text) {
    return Fill(text, {{"$T", t.type},
                       {"$W", t.wrap},
                       {"$U", t.same_unsigned},
                       {"$I", t.same_signed},
                       {"$B", std::to_string(t.bits)},
                       {"$MIN", t.min}});
  };
  if (op == "div") {
    return fill(t.is_signed ? "$T $NAME($T a, $T b) {\n"
                              "  if (b == 0) return ($T)-1;\n"
                              "  if (a == $MIN && b == -1) return a;\n"
                              "  return a / b;\n}\n"
                            : "$T $NAME($T a, $T b) {\n"
                              "  return b == 0 ? ($T)-1 : ($T)(a / b);\n}\n");
  }
  if (op == "rem") {
    return fill(t.is_signed ? "$T $NAME($T a, $T b) {\n"
                              "  if (b == 0) return a;\n"
                              "  if (a == $MIN && b == -1) return 0;\n"
                              "  return a % b;\n}\n"
                            : "$T $NAME($T a, $T b) {\n"
                              "  return b == 0 ? a : ($T)(a % b);\n}\n");
  }
  if (op == "shl") {
    return fill(
        "$T $NAME($T a, $T b) {\n"
        "  return ($U)b >= $B ? ($T)0 : ($T)(($W)($U)a << ($W)($U)b);\n}\n");
  }
  if (op == "srl") {
    return fill(
        "$T $NAME($T a, $T b) {\n"
        "  return ($U)b >= $B ? ($T)0 : ($T)(($U)a >> ($U)b);\n}\n");
  }
  if (op == "sra") {
    return fill(
        "$T $NAME($T a, $T b) {\n"
        "  const $I s = ($I)a;\n"
        "  if (($U)b >= $B) return ($T)(s < 0 ? ($I)-1 : ($I)0);\n"
        "  return ($T)(s >> ($U)b);\n}\n");
  }
  if (op == "pow") {
    return fill(t.is_signed
                    ? "$T $NAME($T base, $T exponent) {\n"
                      "  if (exponent < 0) {\n"
                      "    if (base == 1) return 1;\n"
                      "    if (base == -1) return (exponent & 1) ? -1 : 1;\n"
                      "    return 0;\n  }\n"
                      "  $W result = 1, b = ($W)base;\n"
                      "  $U e = ($U)exponent;\n"
                      "  while (e != 0) {\n"
                      "    if (e & 1) result *= b;\n"
                      "    b *= b;\n    e >>= 1;\n  }\n"
                      "  return ($T)result;\n}\n"
                    : "$T $NAME($T base, $T exponent) {\n"
                      "  $W result = 1, b = ($W)base;\n"
                      "  $U e = exponent;\n"
                      "  while (e != 0) {\n"
                      "    if (e & 1) result *= b;\n"
                      "    b *= b;\n    e >>= 1;\n  }\n"
                      "  return ($T)result;\n}\n");
  }
  return "";
}

// f32 functions of one argument: computed in f64 and rounded once when the
// device has f64, else the f32 builtin. `f64_expression` is in `x`.
std::string UnaryF32(std::string_view f64_expression,
                     std::string_view f32_expression, bool fp64) {
  return Fill("float $NAME(float v) {\n  $D x = v;\n  return ($R)($E);\n}\n",
              {{"$D", fp64 ? "double" : "float"},
               {"$R", "float"},
               {"$E", fp64 ? f64_expression : f32_expression}});
}

// The math functions on a real type: `$T` the type, `$ONE` its one.
std::string MathExpression(std::string_view op) {
  if (op == "exp") return "exp(x)";
  if (op == "expm1") return "expm1(x)";
  if (op == "log") return "log(x)";
  if (op == "log1p") return "log1p(x)";
  if (op == "logistic") return "1 / (1 + exp(-x))";
  if (op == "tanh") return "tanh(x)";
  if (op == "sin") return "sin(x)";
  if (op == "cos") return "cos(x)";
  if (op == "tan") return "tan(x)";
  if (op == "cbrt") return "cbrt(x)";
  if (op == "rsqrt") return "1 / sqrt(x)";
  if (op == "sqrt") return "sqrt(x)";
  if (op == "erf") return "erf(x)";
  return "";
}

std::string BinaryMathExpression(std::string_view op) {
  if (op == "atan2") return "atan2(x, y)";
  if (op == "pow") return "pow(x, y)";
  if (op == "div") return "x / y";
  return "";
}

// IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0.
std::string MaxMin(std::string_view op, std::string_view type) {
  return Fill(op == "max" ? "$T $NAME($T a, $T b) {\n"
                            "  if (isnan(a) || isnan(b)) return a + b;\n"
                            "  if (a == b) return signbit(a) ? b : a;\n"
                            "  return a > b ? a : b;\n}\n"
                          : "$T $NAME($T a, $T b) {\n"
                            "  if (isnan(a) || isnan(b)) return a + b;\n"
                            "  if (a == b) return signbit(a) ? a : b;\n"
                            "  return a < b ? a : b;\n}\n",
              {{"$T", type}});
}

// Complex helpers on $V (float2 or double2) with parts $T.
std::string ComplexHelper(std::string_view op) {
  if (op == "cmul") {
    return "$V $NAME($V a, $V b) {\n"
           "  return ($V)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n}\n";
  }
  if (op == "cmulg") {
    // With C99 Annex G's recovery of infinities, as glibc's cpow multiplies
    // (the multiply op itself is the textbook formula, as the toolkit's).
    return "$V $NAME($V u, $V v) {\n"
           "  $T a = u.x, b = u.y, c = v.x, d = v.y;\n"
           "  const $T ac = a * c, bd = b * d, ad = a * d, bc = b * c;\n"
           "  $T x = ac - bd, y = ad + bc;\n"
           "  if (isnan(x) && isnan(y)) {\n"
           "    int again = 0;\n"
           "    if (isinf(a) || isinf(b)) {\n"
           "      a = copysign(isinf(a) ? ($T)1 : ($T)0, a);\n"
           "      b = copysign(isinf(b) ? ($T)1 : ($T)0, b);\n"
           "      if (isnan(c)) c = copysign(($T)0, c);\n"
           "      if (isnan(d)) d = copysign(($T)0, d);\n"
           "      again = 1;\n"
           "    }\n"
           "    if (isinf(c) || isinf(d)) {\n"
           "      c = copysign(isinf(c) ? ($T)1 : ($T)0, c);\n"
           "      d = copysign(isinf(d) ? ($T)1 : ($T)0, d);\n"
           "      if (isnan(a)) a = copysign(($T)0, a);\n"
           "      if (isnan(b)) b = copysign(($T)0, b);\n"
           "      again = 1;\n"
           "    }\n"
           "    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || "
           "isinf(bc))) {\n"
           "      if (isnan(a)) a = copysign(($T)0, a);\n"
           "      if (isnan(b)) b = copysign(($T)0, b);\n"
           "      if (isnan(c)) c = copysign(($T)0, c);\n"
           "      if (isnan(d)) d = copysign(($T)0, d);\n"
           "      again = 1;\n"
           "    }\n"
           "    if (again) {\n"
           "      x = INFINITY * (a * c - b * d);\n"
           "      y = INFINITY * (a * d + b * c);\n"
           "    }\n"
           "  }\n"
           "  return ($V)(x, y);\n}\n";
  }
  if (op == "cdiv") {
    // Smith's algorithm, with C99 Annex G's recovery of infinities.
    return "$V $NAME($V a, $V b) {\n"
           "  $T r, d, x, y;\n"
           "  if (fabs(b.x) >= fabs(b.y)) {\n"
           "    r = b.y / b.x; d = b.x + b.y * r;\n"
           "    x = (a.x + a.y * r) / d; y = (a.y - a.x * r) / d;\n"
           "    if (b.y == 0) { x = a.x / b.x; y = a.y / b.x; }\n"
           "  } else {\n"
           "    r = b.x / b.y; d = b.y + b.x * r;\n"
           "    x = (a.x * r + a.y) / d; y = (a.y * r - a.x) / d;\n"
           "  }\n"
           "  if (isnan(x) && isnan(y)) {\n"
           "    if (b.x == 0 && b.y == 0 && (!isnan(a.x) || !isnan(a.y))) {\n"
           "      x = copysign(($T)INFINITY, b.x) * a.x;\n"
           "      y = copysign(($T)INFINITY, b.x) * a.y;\n"
           "    } else if ((isinf(a.x) || isinf(a.y)) && isfinite(b.x) &&\n"
           "               isfinite(b.y)) {\n"
           "      const $T ax = copysign(isinf(a.x) ? 1 : 0, a.x);\n"
           "      const $T ay = copysign(isinf(a.y) ? 1 : 0, a.y);\n"
           "      x = INFINITY * (ax * b.x + ay * b.y);\n"
           "      y = INFINITY * (ay * b.x - ax * b.y);\n"
           "    } else if ((isinf(b.x) || isinf(b.y)) && isfinite(a.x) &&\n"
           "               isfinite(a.y)) {\n"
           "      const $T bx = copysign(isinf(b.x) ? 1 : 0, b.x);\n"
           "      const $T by = copysign(isinf(b.y) ? 1 : 0, b.y);\n"
           "      x = 0 * (a.x * bx + a.y * by);\n"
           "      y = 0 * (a.y * bx - a.x * by);\n"
           "    }\n"
           "  }\n"
           "  return ($V)(x, y);\n}\n";
  }
  if (op == "cabs") return "$T $NAME($V a) {\n  return hypot(a.x, a.y);\n}\n";
  if (op == "csign") {
    return "$V $NAME($V a) {\n"
           "  if (isnan(a.x) || isnan(a.y)) return ($V)(NAN, NAN);\n"
           "  if (a.x == 0 && a.y == 0) return a;\n"
           "  const $T m = hypot(a.x, a.y);\n"
           "  return ($V)(a.x / m, a.y / m);\n}\n";
  }
  if (op == "cexp") {
    // exp(-inf + i y) is 0 whatever y is (C99 Annex G); near the overflow
    // threshold exp(x - 1) * e keeps drivers' exp from overflowing early.
    return "$V $NAME($V a) {\n"
           "  if (isinf(a.x) && a.x < 0 && !isfinite(a.y)) {\n"
           "    return ($V)(0, copysign(($T)0, a.y));\n"
           "  }\n"
           "  if (a.y == 0) return ($V)(exp(a.x), a.y);\n"
           "  const $T e = a.x > 700 ? exp(a.x - 1) * ($T)2.718281828459045\n"
           "                         : exp(a.x);\n"
           "  return ($V)(e * cos(a.y), e * sin(a.y));\n}\n";
  }
  if (op == "cexpm1") {
    return "$V $NAME($V a) {\n"
           "  if (a.y == 0) return ($V)(expm1(a.x), a.y);\n"
           "  const $T s = sin(a.y * 0.5);\n"
           "  return ($V)(expm1(a.x) * cos(a.y) - 2 * s * s,\n"
           "              exp(a.x) * sin(a.y));\n}\n";
  }
  if (op == "clog") {
    return "$V $NAME($V a) {\n"
           "  return ($V)(log(hypot(a.x, a.y)), atan2(a.y, a.x));\n}\n";
  }
  if (op == "clog1p") {
    // log|1 + z| through log1p of |1 + z|^2 - 1 = 2x + x^2 + y^2, as the
    // reference computes it.
    return "$V $NAME($V a) {\n"
           "  return ($V)(log1p(a.x * (2 + a.x) + a.y * a.y) / 2,\n"
           "              atan2(a.y, 1 + a.x));\n}\n";
  }
  if (op == "csqrt") {
    // Inputs near the largest finite value are scaled by 1/4 first, so
    // |z| does not overflow.
    return "$V $NAME($V a) {\n"
           "  if (a.x == 0 && a.y == 0) return ($V)(0, a.y);\n"
           "  if (isinf(a.y)) return ($V)(INFINITY, a.y);\n"
           "  $T scale = 1;\n"
           "  if (fabs(a.x) > $BIG || fabs(a.y) > $BIG) {\n"
           "    a *= ($T)0.25;\n"
           "    scale = 2;\n"
           "  }\n"
           "  const $T m = hypot(a.x, a.y);\n"
           "  if (a.x >= 0) {\n"
           "    const $T t = sqrt((m + a.x) * ($T)0.5);\n"
           "    return ($V)(t, a.y / (2 * t)) * scale;\n  }\n"
           "  const $T t = sqrt((m - a.x) * ($T)0.5);\n"
           "  return ($V)(fabs(a.y) / (2 * t), copysign(t, a.y)) * scale;\n}\n";
  }
  if (op == "ctanh") {
    // (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): no
    // cancellation in the denominator near y = pi/2.
    return "$V $NAME($V a) {\n"
           "  if (fabs(a.x) > 20) {\n"
           "    const $T e = exp(-2 * fabs(a.x));\n"
           "    return ($V)(copysign(($T)1, a.x), 4 * sin(a.y) * cos(a.y) * "
           "e);\n"
           "  }\n"
           "  const $T sh = sinh(a.x), ch = cosh(a.x);\n"
           "  const $T s = sin(a.y), c = cos(a.y);\n"
           "  const $T d = sh * sh + c * c;\n"
           "  return ($V)(sh * ch / d, s * c / d);\n}\n";
  }
  if (op == "cmax" || op == "cmin") {
    // The specification's order: by real part, then imaginary part (a NaN
    // part compares unequal and not less).
    return std::string(op == "cmax" ? "$V $NAME($V a, $V b) {\n"
                                      "  const $V x = a, y = b;\n"
                                    : "$V $NAME($V a, $V b) {\n"
                                      "  const $V x = b, y = a;\n") +
           "  const int less = x.x != y.x ? x.x < y.x : x.y < y.y;\n"
           "  return less ? b : a;\n}\n";
  }
  if (op == "csin") {
    return "$V $NAME($V a) {\n"
           "  return ($V)(sin(a.x) * cosh(a.y), cos(a.x) * sinh(a.y));\n}\n";
  }
  if (op == "ccos") {
    return "$V $NAME($V a) {\n"
           "  return ($V)(cos(a.x) * cosh(a.y), -sin(a.x) * sinh(a.y));\n}\n";
  }
  return "";
}

// Complex helpers that call others of the same suffix.
struct ComposedComplex {
  const char* op;
  const char* text;
  const char* dependencies[2];
};
const ComposedComplex kComposedComplex[] = {
    {"ctan",
     "$V $NAME($V a) {\n"
     "  const $V t = phal_ctanh_$S(($V)(-a.y, a.x));\n"
     "  return ($V)(t.y, -t.x);\n}\n",
     {"ctanh", nullptr}},
    {"crsqrt",
     "$V $NAME($V a) {\n"
     "  return phal_cdiv_$S(($V)(1, 0), phal_csqrt_$S(a));\n}\n",
     {"cdiv", "csqrt"}},
    {"clogistic",
     "$V $NAME($V a) {\n"
     "  const $V e = phal_cexp_$S(-a);\n"
     "  return phal_cdiv_$S(($V)(1, 0), ($V)(1 + e.x, e.y));\n}\n",
     {"cdiv", "cexp"}},
    {"cpow",
     "$V $NAME($V a, $V b) {\n"
     "  return phal_cexp_$S(phal_cmulg_$S(b, phal_clog_$S(a)));\n}\n",
     {"cexp", "cmul"}},
    {"catan2",
     "$V $NAME($V a, $V b) {\n"
     "  const $V s = phal_csqrt_$S(phal_cmul_$S(b, b) + phal_cmul_$S(a, a));\n"
     "  const $V l = phal_clog_$S(phal_cdiv_$S(($V)(b.x - a.y, b.y + a.x), "
     "s));\n"
     "  return ($V)(l.y, -l.x);\n}\n",
     {"csqrt", "cdiv"}},
    {"ccbrt",
     "$V $NAME($V a) {\n"
     "  if (a.y == 0 && a.x > 0) return ($V)(cbrt(a.x), 0);\n"
     "  const $V l = phal_clog_$S(a);\n"
     "  const $T m = exp(l.x / 3), t = l.y / 3;\n"
     "  return ($V)(m * cos(t), m * sin(t));\n}\n",
     {"clog", nullptr}},
};

StatusOr<HelperDefinition> ComplexDefinition(std::string_view op,
                                             std::string_view suffix,
                                             const DeviceFeatures& features) {
  const bool is_c64 = suffix == "c64";
  const std::string type = is_c64 ? "float" : "double";
  const std::string vector = type + "2";
  const auto fill = [&](std::string text) {
    return Fill(std::move(text), {{"$V", vector},
                                  {"$T", type},
                                  {"$S", suffix},
                                  {"$BIG", is_c64 ? "0x1p124f" : "0x1p1020"}});
  };
  // c64 functions other than the exact ones run in c128 when f64 exists.
  const bool exact = op == "cmul" || op == "cmax" || op == "cmin";
  if (is_c64 && features.fp64 && !exact) {
    HelperDefinition wide;
    const bool binary =
        op == "cdiv" || op == "cpow" || op == "catan2" || op == "cmulg";
    const bool real_result = op == "cabs";
    wide.dependencies.push_back("phal_" + std::string(op) + "_c128");
    wide.text = Fill(binary        ? "float2 $NAME(float2 a, float2 b) {\n"
                                     "  return convert_float2(phal_$OP_c128("
                                     "convert_double2(a), convert_double2(b)));\n}\n"
                     : real_result ? "float $NAME(float2 a) {\n"
                                     "  return (float)phal_$OP_c128("
                                     "convert_double2(a));\n}\n"
                                   : "float2 $NAME(float2 a) {\n"
                                     "  return convert_float2(phal_$OP_c128("
                                     "convert_double2(a)));\n}\n",
                     {{"$OP", op}});
    return wide;
  }
  if (std::string text = ComplexHelper(op); !text.empty()) {
    return HelperDefinition{fill(text), {}};
  }
  for (const ComposedComplex& composed : kComposedComplex) {
    if (op != composed.op) continue;
    HelperDefinition definition{fill(composed.text), {}};
    for (const char* dependency : composed.dependencies) {
      if (dependency != nullptr) {
        definition.dependencies.push_back("phal_" + std::string(dependency) +
                                          "_" + std::string(suffix));
      }
    }
    if (op == "cpow" || op == "catan2") {
      definition.dependencies.push_back("phal_clog_" + std::string(suffix));
      definition.dependencies.push_back("phal_cmul_" + std::string(suffix));
      definition.dependencies.push_back("phal_cmulg_" + std::string(suffix));
    }
    return definition;
  }
  return Unimplemented("no complex helper " + std::string(op));
}

// Sixteen-bit float rounding and conversions (computed as f32).
StatusOr<HelperDefinition> HalfDefinition(std::string_view name,
                                          const DeviceFeatures& features) {
  if (name == "phal_round_f16") {
    return HelperDefinition{
        "float $NAME(float x) {\n"
        "  ushort h;\n"
        "  vstore_half_rte(x, 0, (half*)&h);\n"
        "  return vload_half(0, (const half*)&h);\n}\n",
        {}};
  }
  if (name == "phal_round_bf16") {
    return HelperDefinition{
        "float $NAME(float x) {\n"
        "  uint b = as_uint(x);\n"
        "  if (isnan(x)) return as_float((b | 0x00400000u) & 0xffff0000u);\n"
        "  b += 0x7fffu + ((b >> 16) & 1u);\n"
        "  return as_float(b & 0xffff0000u);\n}\n",
        {}};
  }
  if (name == "phal_f64_to_f16") {
    return HelperDefinition{
        features.fp64 ? "float $NAME(double x) {\n"
                        "  ushort h;\n"
                        "  vstore_half_rte(x, 0, (half*)&h);\n"
                        "  return vload_half(0, (const half*)&h);\n}\n"
                      : "float $NAME(float x) {\n"
                        "  return phal_round_f16(x);\n}\n",
        features.fp64 ? std::vector<std::string>{}
                      : std::vector<std::string>{"phal_round_f16"}};
  }
  if (name == "phal_f64_to_bf16") {
    // Rounding to f32 towards zero with the sticky bit kept ("round to
    // odd") and then to bf16 rounds once.
    return HelperDefinition{
        features.fp64
            ? "float $NAME(double x) {\n"
              "  float f = convert_float_rtz(x);\n"
              "  if (!isnan(x) && (double)f != x) f = as_float(as_uint(f) | "
              "1u);\n"
              "  return phal_round_bf16(f);\n}\n"
            : "float $NAME(float x) {\n  return phal_round_bf16(x);\n}\n",
        {"phal_round_bf16"}};
  }
  if (name == "phal_f16_bits") {
    // NaNs keep their sign and leading payload bits (drivers' vstore_half
    // may write any NaN).
    return HelperDefinition{
        "ushort $NAME(float x) {\n"
        "  if (isnan(x)) {\n"
        "    const uint b = as_uint(x);\n"
        "    const uint payload = (b & 0x007fffffu) >> 13;\n"
        "    return (ushort)(((b >> 16) & 0x8000u) | 0x7c00u |\n"
        "                    (payload != 0 ? payload : 0x200u));\n"
        "  }\n"
        "  ushort h;\n"
        "  vstore_half_rte(x, 0, (half*)&h);\n"
        "  return h;\n}\n",
        {}};
  }
  if (name == "phal_f16_from_bits") {
    return HelperDefinition{
        "float $NAME(ushort h) {\n"
        "  return vload_half(0, (const half*)&h);\n}\n",
        {}};
  }
  if (name == "phal_reduce_precision_bits") {
    return HelperDefinition{
        "ulong $NAME(ulong bits, int total, int mantissa, int target_exponent,"
        " int target_mantissa) {\n"
        "  const int exponent_bits = total - 1 - mantissa;\n"
        "  const ulong all = total == 64 ? ~0ul : ((1ul << total) - 1);\n"
        "  const ulong sign_mask = 1ul << (total - 1);\n"
        "  const ulong exponent_mask = ((1ul << exponent_bits) - 1) << "
        "mantissa;\n"
        "  const ulong mantissa_mask = (1ul << mantissa) - 1;\n"
        "  const int is_nan = (bits & exponent_mask) == exponent_mask &&\n"
        "                     (bits & mantissa_mask) != 0;\n"
        "  ulong result = bits;\n"
        "  if (target_mantissa < mantissa) {\n"
        "    const int dropped = mantissa - target_mantissa;\n"
        "    const ulong last = 1ul << dropped;\n"
        "    const ulong bias = ((result & last) >> dropped) + (last >> 1) - "
        "1;\n"
        "    result = ((result + bias) & ~(last - 1)) & all;\n"
        "  }\n"
        "  const ulong sign = bits & sign_mask;\n"
        "  if (target_exponent < exponent_bits) {\n"
        "    const ulong bias = (1ul << (exponent_bits - 1)) - 1;\n"
        "    const ulong target_bias = (1ul << (target_exponent - 1)) - 1;\n"
        "    const ulong exponent = result & exponent_mask;\n"
        "    if (exponent > ((bias + target_bias) << mantissa)) {\n"
        "      result = sign | exponent_mask;\n"
        "    } else if (exponent <= ((bias - target_bias) << mantissa)) {\n"
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

StatusOr<HelperDefinition> Definition(std::string_view name,
                                      const DeviceFeatures& features) {
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
  if (const IntegerInfo* integer = Integer(suffix)) {
    std::string text = IntegerHelper(op, *integer);
    if (!text.empty()) return HelperDefinition{std::move(text), {}};
  }
  if (suffix == "c64" || suffix == "c128") {
    return ComplexDefinition(op, suffix, features);
  }
  if (suffix == "f32" || suffix == "f64") {
    const bool f32 = suffix == "f32";
    const std::string type = f32 ? "float" : "double";
    if (op == "max" || op == "min")
      return HelperDefinition{MaxMin(op, type), {}};
    if (op == "total") {
      return HelperDefinition{
          f32 ? "int $NAME(float x) {\n"
                "  const int k = as_int(x);\n"
                "  return k < 0 ? k ^ 0x7fffffff : k;\n}\n"
              : "long $NAME(double x) {\n"
                "  const long k = as_long(x);\n"
                "  return k < 0 ? k ^ 0x7fffffffffffffffl : k;\n}\n",
          {}};
    }
    if (std::string e = MathExpression(op); !e.empty()) {
      if (f32) return HelperDefinition{UnaryF32(e, e, features.fp64), {}};
      return HelperDefinition{
          Fill("double $NAME(double x) {\n  return $E;\n}\n", {{"$E", e}}), {}};
    }
    if (std::string e = BinaryMathExpression(op); !e.empty()) {
      const std::string wide = f32 && features.fp64 ? "double" : type;
      return HelperDefinition{
          Fill("$T $NAME($T a, $T b) {\n"
               "  const $D x = a, y = b;\n  return ($T)($E);\n}\n",
               {{"$T", type}, {"$D", wide}, {"$E", e}}),
          {}};
    }
  }
  return HalfDefinition(name, features);
}

class OpenCl final : public Dialect {
 public:
  std::string_view name() const override { return "OpenCL C 1.2"; }

  std::string ComputeType(phal_element_type_t type) const override {
    switch (type) {
      case PHAL_ELEMENT_TYPE_PRED:
      case PHAL_ELEMENT_TYPE_U8:
        return "uchar";
      case PHAL_ELEMENT_TYPE_S8:
        return "char";
      case PHAL_ELEMENT_TYPE_S16:
        return "short";
      case PHAL_ELEMENT_TYPE_S32:
        return "int";
      case PHAL_ELEMENT_TYPE_S64:
        return "long";
      case PHAL_ELEMENT_TYPE_U16:
        return "ushort";
      case PHAL_ELEMENT_TYPE_U32:
        return "uint";
      case PHAL_ELEMENT_TYPE_U64:
        return "ulong";
      case PHAL_ELEMENT_TYPE_F16:
      case PHAL_ELEMENT_TYPE_BF16:
      case PHAL_ELEMENT_TYPE_F32:
        return "float";
      case PHAL_ELEMENT_TYPE_F64:
        return "double";
      case PHAL_ELEMENT_TYPE_C64:
        return "float2";
      case PHAL_ELEMENT_TYPE_C128:
        return "double2";
      default:
        return "";
    }
  }

  std::string WrapType(phal_element_type_t type) const override {
    return type == PHAL_ELEMENT_TYPE_S64 || type == PHAL_ELEMENT_TYPE_U64
               ? "ulong"
               : "uint";
  }

  std::string Cast(std::string_view type_name,
                   std::string_view expression) const override {
    return "((" + std::string(type_name) + ")(" + std::string(expression) +
           "))";
  }

  std::string Bitcast(std::string_view type_name,
                      std::string_view expression) const override {
    return "as_" + std::string(type_name) + "(" + std::string(expression) + ")";
  }

  std::string MakeComplex(phal_element_type_t type, std::string_view real,
                          std::string_view imag) const override {
    return "((" + ComputeType(type) + ")(" + std::string(real) + ", " +
           std::string(imag) + "))";
  }

  std::string Load(phal_element_type_t type, std::string_view pointer,
                   std::string_view index) const override {
    const std::string p(pointer), i(index);
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return "vload_half(" + i + ", " + p + ")";
      case PHAL_ELEMENT_TYPE_BF16:
        return "as_float((uint)" + p + "[" + i + "] << 16)";
      default:
        return p + "[" + i + "]";
    }
  }

  std::string Store(phal_element_type_t type, std::string_view pointer,
                    std::string_view index,
                    std::string_view value) const override {
    const std::string p(pointer), i(index), v(value);
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return "vstore_half_rte(" + v + ", " + i + ", " + p + ");";
      case PHAL_ELEMENT_TYPE_BF16:
        return p + "[" + i + "] = (ushort)(as_uint(" + v + ") >> 16);";
      default:
        return p + "[" + i + "] = " + v + ";";
    }
  }

  std::string BufferParameter(phal_element_type_t type,
                              std::string_view name) const override {
    return "__global " + StorageType(type) + "* " + std::string(name);
  }

  std::string ByteBufferParameter(std::string_view name) const override {
    return "__global uchar* " + std::string(name);
  }

  std::string TypedPointer(phal_element_type_t type, std::string_view bytes,
                           std::string_view offset) const override {
    return "((__global " + StorageType(type) + "*)(" + std::string(bytes) +
           " + " + std::string(offset) + "))";
  }

  std::string LocalArray(std::string_view type_name, std::string_view name,
                         uint64_t elements) const override {
    return "__local " + std::string(type_name) + " " + std::string(name) + "[" +
           std::to_string(elements) + "];";
  }

  std::string Preamble(const DeviceFeatures& features) const override {
    std::string text;
    if (features.fp64) {
      text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    }
    // Every node rounds on its own, as StableHLO's ops do: no fused
    // multiply-add the program did not ask for.
    text += "#pragma OPENCL FP_CONTRACT OFF\n";
    return text;
  }

  std::string KernelSignature(
      std::string_view entry,
      const std::vector<std::string>& parameters) const override {
    std::string text = "__kernel void " + std::string(entry) + "(";
    for (size_t i = 0; i < parameters.size(); ++i) {
      text += (i == 0 ? "" : ", ") + parameters[i];
    }
    return text + ")";
  }

  std::string GlobalId(int d) const override {
    return "((long)get_global_id(" + std::to_string(d) + "))";
  }
  std::string LocalId(int d) const override {
    return "((long)get_local_id(" + std::to_string(d) + "))";
  }
  std::string GroupId(int d) const override {
    return "((long)get_group_id(" + std::to_string(d) + "))";
  }
  std::string Barrier() const override {
    return "barrier(CLK_LOCAL_MEM_FENCE);";
  }

  StatusOr<HelperDefinition> Helper(
      std::string_view name, const DeviceFeatures& features) const override {
    PHAL_ASSIGN_OR_RETURN(HelperDefinition definition,
                          Definition(name, features));
    definition.text = Fill(std::move(definition.text), {{"$NAME", name}});
    return definition;
  }

 private:
  std::string StorageType(phal_element_type_t type) const {
    switch (type) {
      case PHAL_ELEMENT_TYPE_F16:
        return "half";
      case PHAL_ELEMENT_TYPE_BF16:
        return "ushort";
      default:
        return ComputeType(type);
    }
  }
};

}  // namespace

const Dialect& OpenClDialect() {
  static const OpenCl dialect;
  return dialect;
}

}  // namespace phal::source_emitter
