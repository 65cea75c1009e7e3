#include "sdk/emitters/source/complex_helpers.h"

#include <cctype>
#include <string>
#include <string_view>

namespace phal::source_emitter {
namespace {

// The helpers that call no other complex helper.
std::string SimpleHelper(std::string_view op) {
  if (op == "cmul") {
    return "$V $NAME($V a, $V b) {\n"
           "  return $MK(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n}\n";
  }
  if (op == "cmulg") {
    // With C99 Annex G's recovery of infinities, as glibc's cpow multiplies
    // (the multiply op itself is the textbook formula, as the toolkit's).
    return "$V $NAME($V u, $V v) {\n"
           "  $T a = u.x, b = u.y, c = v.x, d = v.y;\n"
           "  const $T ac = a * c, bd = b * d, ad = a * d, bc = b * c;\n"
           "  $T x = ac - bd, y = ad + bc;\n"
           "  if (isnan(x) && isnan(y)) {\n"
           "    bool again = false;\n"
           "    if (isinf(a) || isinf(b)) {\n"
           "      a = @copysign(isinf(a) ? $C(1) : $C(0), a);\n"
           "      b = @copysign(isinf(b) ? $C(1) : $C(0), b);\n"
           "      if (isnan(c)) c = @copysign($C(0), c);\n"
           "      if (isnan(d)) d = @copysign($C(0), d);\n"
           "      again = true;\n"
           "    }\n"
           "    if (isinf(c) || isinf(d)) {\n"
           "      c = @copysign(isinf(c) ? $C(1) : $C(0), c);\n"
           "      d = @copysign(isinf(d) ? $C(1) : $C(0), d);\n"
           "      if (isnan(a)) a = @copysign($C(0), a);\n"
           "      if (isnan(b)) b = @copysign($C(0), b);\n"
           "      again = true;\n"
           "    }\n"
           "    if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || "
           "isinf(bc))) {\n"
           "      if (isnan(a)) a = @copysign($C(0), a);\n"
           "      if (isnan(b)) b = @copysign($C(0), b);\n"
           "      if (isnan(c)) c = @copysign($C(0), c);\n"
           "      if (isnan(d)) d = @copysign($C(0), d);\n"
           "      again = true;\n"
           "    }\n"
           "    if (again) {\n"
           "      x = @inf * (a * c - b * d);\n"
           "      y = @inf * (a * d + b * c);\n"
           "    }\n"
           "  }\n"
           "  return $MK(x, y);\n}\n";
  }
  if (op == "cdiv") {
    // Smith's algorithm, with C99 Annex G's recovery of infinities.
    return "$V $NAME($V a, $V b) {\n"
           "  $T r, d, x, y;\n"
           "  if (@fabs(b.x) >= @fabs(b.y)) {\n"
           "    r = b.y / b.x; d = b.x + b.y * r;\n"
           "    x = (a.x + a.y * r) / d; y = (a.y - a.x * r) / d;\n"
           "    if (b.y == 0) { x = a.x / b.x; y = a.y / b.x; }\n"
           "  } else {\n"
           "    r = b.x / b.y; d = b.y + b.x * r;\n"
           "    x = (a.x * r + a.y) / d; y = (a.y * r - a.x) / d;\n"
           "  }\n"
           "  if (isnan(x) && isnan(y)) {\n"
           "    if (b.x == 0 && b.y == 0 && (!isnan(a.x) || !isnan(a.y))) {\n"
           "      x = @copysign(@inf, b.x) * a.x;\n"
           "      y = @copysign(@inf, b.x) * a.y;\n"
           "    } else if ((isinf(a.x) || isinf(a.y)) && @isfinite(b.x) &&\n"
           "               @isfinite(b.y)) {\n"
           "      const $T ax = @copysign(isinf(a.x) ? 1 : 0, a.x);\n"
           "      const $T ay = @copysign(isinf(a.y) ? 1 : 0, a.y);\n"
           "      x = @inf * (ax * b.x + ay * b.y);\n"
           "      y = @inf * (ay * b.x - ax * b.y);\n"
           "    } else if ((isinf(b.x) || isinf(b.y)) && @isfinite(a.x) &&\n"
           "               @isfinite(a.y)) {\n"
           "      const $T bx = @copysign(isinf(b.x) ? 1 : 0, b.x);\n"
           "      const $T by = @copysign(isinf(b.y) ? 1 : 0, b.y);\n"
           "      x = 0 * (a.x * bx + a.y * by);\n"
           "      y = 0 * (a.y * bx - a.x * by);\n"
           "    }\n"
           "  }\n"
           "  return $MK(x, y);\n}\n";
  }
  if (op == "cabs") return "$T $NAME($V a) {\n  return @hypot(a.x, a.y);\n}\n";
  if (op == "csign") {
    return "$V $NAME($V a) {\n"
           "  if (isnan(a.x) || isnan(a.y)) return $MK(@nan, @nan);\n"
           "  if (a.x == 0 && a.y == 0) return a;\n"
           "  const $T m = @hypot(a.x, a.y);\n"
           "  return $MK(a.x / m, a.y / m);\n}\n";
  }
  if (op == "cexp") {
    // exp(-inf + i y) is 0 whatever y is (C99 Annex G); near the overflow
    // threshold exp(x - 1) * e keeps drivers' exp from overflowing early.
    return "$V $NAME($V a) {\n"
           "  if (isinf(a.x) && a.x < 0 && !@isfinite(a.y)) {\n"
           "    return $MK(0, @copysign($C(0), a.y));\n"
           "  }\n"
           "  if (a.y == 0) return $MK(@exp(a.x), a.y);\n"
           "  const $T e = a.x > 700 ? @exp(a.x - 1) * $E1\n"
           "                         : @exp(a.x);\n"
           "  return $MK(e * @cos(a.y), e * @sin(a.y));\n}\n";
  }
  if (op == "cexpm1") {
    return "$V $NAME($V a) {\n"
           "  if (a.y == 0) return $MK(@expm1(a.x), a.y);\n"
           "  const $T s = @sin(a.y * 0.5);\n"
           "  return $MK(@expm1(a.x) * @cos(a.y) - 2 * s * s,\n"
           "              @exp(a.x) * @sin(a.y));\n}\n";
  }
  if (op == "clog") {
    return "$V $NAME($V a) {\n"
           "  return $MK(@log(@hypot(a.x, a.y)), @atan2(a.y, a.x));\n}\n";
  }
  if (op == "clog1p") {
    // log|1 + z| through log1p of |1 + z|^2 - 1 = 2x + x^2 + y^2, as the
    // reference computes it.
    return "$V $NAME($V a) {\n"
           "  return $MK(@log1p(a.x * (2 + a.x) + a.y * a.y) / 2,\n"
           "              @atan2(a.y, 1 + a.x));\n}\n";
  }
  if (op == "csqrt") {
    // Inputs near the largest finite value are scaled by 1/4 first, so
    // |z| does not overflow.
    return "$V $NAME($V a) {\n"
           "  if (a.x == 0 && a.y == 0) return $MK(0, a.y);\n"
           "  if (isinf(a.y)) return $MK(@inf, a.y);\n"
           "  $T scale = 1;\n"
           "  if (@fabs(a.x) > $BIG || @fabs(a.y) > $BIG) {\n"
           "    a *= $C(0.25);\n"
           "    scale = 2;\n"
           "  }\n"
           "  const $T m = @hypot(a.x, a.y);\n"
           "  if (a.x >= 0) {\n"
           "    const $T t = @sqrt((m + a.x) * $C(0.5));\n"
           "    return $MK(t, a.y / (2 * t)) * scale;\n  }\n"
           "  const $T t = @sqrt((m - a.x) * $C(0.5));\n"
           "  return $MK(@fabs(a.y) / (2 * t), @copysign(t, a.y)) * "
           "scale;\n}\n";
  }
  if (op == "ctanh") {
    // (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y): no
    // cancellation in the denominator near y = pi/2.
    return "$V $NAME($V a) {\n"
           "  if (@fabs(a.x) > 20) {\n"
           "    const $T e = @exp(-2 * @fabs(a.x));\n"
           "    return $MK(@copysign($C(1), a.x), 4 * @sin(a.y) * @cos(a.y) * "
           "e);\n"
           "  }\n"
           "  const $T sh = @sinh(a.x), ch = @cosh(a.x);\n"
           "  const $T s = @sin(a.y), c = @cos(a.y);\n"
           "  const $T d = sh * sh + c * c;\n"
           "  return $MK(sh * ch / d, s * c / d);\n}\n";
  }
  if (op == "cmax" || op == "cmin") {
    // The specification's order: by real part, then imaginary part (a NaN
    // part compares unequal and not less).
    return std::string(op == "cmax" ? "$V $NAME($V a, $V b) {\n"
                                      "  const $V x = a, y = b;\n"
                                    : "$V $NAME($V a, $V b) {\n"
                                      "  const $V x = b, y = a;\n") +
           "  const bool less = x.x != y.x ? x.x < y.x : x.y < y.y;\n"
           "  return less ? b : a;\n}\n";
  }
  if (op == "csin") {
    return "$V $NAME($V a) {\n"
           "  return $MK(@sin(a.x) * @cosh(a.y), @cos(a.x) * @sinh(a.y));\n}\n";
  }
  if (op == "ccos") {
    return "$V $NAME($V a) {\n"
           "  return $MK(@cos(a.x) * @cosh(a.y), -@sin(a.x) * "
           "@sinh(a.y));\n}\n";
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
     "  const $V t = phal_ctanh_$S($MK(-a.y, a.x));\n"
     "  return $MK(t.y, -t.x);\n}\n",
     {"ctanh", nullptr}},
    {"crsqrt",
     "$V $NAME($V a) {\n"
     "  return phal_cdiv_$S($MK(1, 0), phal_csqrt_$S(a));\n}\n",
     {"cdiv", "csqrt"}},
    {"clogistic",
     "$V $NAME($V a) {\n"
     "  const $V e = phal_cexp_$S(-a);\n"
     "  return phal_cdiv_$S($MK(1, 0), $MK(1 + e.x, e.y));\n}\n",
     {"cdiv", "cexp"}},
    {"cpow",
     "$V $NAME($V a, $V b) {\n"
     "  return phal_cexp_$S(phal_cmulg_$S(b, phal_clog_$S(a)));\n}\n",
     {"cexp", "cmul"}},
    {"catan2",
     "$V $NAME($V a, $V b) {\n"
     "  const $V s = phal_csqrt_$S(phal_cmul_$S(b, b) + phal_cmul_$S(a, a));\n"
     "  const $V l = phal_clog_$S(phal_cdiv_$S($MK(b.x - a.y, b.y + a.x), "
     "s));\n"
     "  return $MK(l.y, -l.x);\n}\n",
     {"csqrt", "cdiv"}},
    {"ccbrt",
     "$V $NAME($V a) {\n"
     "  if (a.y == 0 && a.x > 0) return $MK(@cbrt(a.x), 0);\n"
     "  const $V l = phal_clog_$S(a);\n"
     "  const $T m = @exp(l.x / 3), t = l.y / 3;\n"
     "  return $MK(m * @cos(t), m * @sin(t));\n}\n",
     {"clog", nullptr}},
};

}  // namespace

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

StatusOr<ComplexHelperText> ComplexHelper(std::string_view op) {
  if (std::string text = SimpleHelper(op); !text.empty()) {
    return ComplexHelperText{std::move(text), {}};
  }
  for (const ComposedComplex& composed : kComposedComplex) {
    if (op != composed.op) continue;
    ComplexHelperText helper{composed.text, {}};
    for (const char* dependency : composed.dependencies) {
      if (dependency != nullptr) helper.operations.push_back(dependency);
    }
    if (op == "cpow" || op == "catan2") {
      helper.operations.insert(helper.operations.end(),
                               {"clog", "cmul", "cmulg"});
    }
    return helper;
  }
  return Unimplemented("no complex helper " + std::string(op));
}

std::string ComplexThroughC128(std::string_view op) {
  const bool binary =
      op == "cdiv" || op == "cpow" || op == "catan2" || op == "cmulg";
  const std::string text =
      binary         ? "$V $NAME($V a, $V b) {\n"
                       "  return $NARROW(phal_$OP_c128($WIDEN(a), $WIDEN(b)));\n}\n"
      : op == "cabs" ? "float $NAME($V a) {\n"
                       "  return $PART(phal_$OP_c128($WIDEN(a)));\n}\n"
                     : "$V $NAME($V a) {\n"
                       "  return $NARROW(phal_$OP_c128($WIDEN(a)));\n}\n";
  return Fill(text, {{"$OP", op}});
}

std::vector<std::string> CalledFunctions(std::string_view text) {
  std::vector<std::string> functions;
  for (size_t at = text.find('@'); at != std::string_view::npos;
       at = text.find('@', at + 1)) {
    size_t end = at + 1;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
            text[end] == '_')) {
      ++end;
    }
    std::string name(text.substr(at + 1, end - at - 1));
    if (end >= text.size() || text[end] != '(') continue;
    bool known = false;
    for (const std::string& function : functions) known |= function == name;
    if (!known) functions.push_back(std::move(name));
  }
  return functions;
}

}  // namespace phal::source_emitter
