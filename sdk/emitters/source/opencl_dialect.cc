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

#include "sdk/emitters/source/complex_helpers.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/emitters/source/source_emitter.h"

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
    return HelperDefinition{
        fill(Fill(ComplexThroughC128(op), {{"$NARROW(", "convert_float2("},
                                           {"$WIDEN(", "convert_double2("},
                                           {"$PART(", "(float)("}})),
        {"phal_" + std::string(op) + "_c128"}};
  }
  PHAL_ASSIGN_OR_RETURN(ComplexHelperText helper, ComplexHelper(op));
  HelperDefinition definition;
  definition.text = Fill(fill(std::move(helper.text)),
                         {{"$MK(", "(" + vector + ")("},
                          {"$C(", "(" + type + ")("},
                          {"$E1", is_c64 ? "2.7182817f" : "2.718281828459045"},
                          {"@inf", "((" + type + ")INFINITY)"},
                          {"@nan", "((" + type + ")NAN)"}});
  for (const std::string& function : CalledFunctions(definition.text)) {
    definition.text = Fill(std::move(definition.text),
                           {{"@" + function + "(", function + "("}});
  }
  for (const std::string& operation : helper.operations) {
    definition.dependencies.push_back("phal_" + operation + "_" +
                                      std::string(suffix));
  }
  return definition;
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
  // phal_sat_<integer>_<f32|f64>: StableHLO's float-to-integer convert
  // (saturating, NaN to 0), which OpenCL's convert_<type>_sat is.
  if (rest.substr(0, 4) == "sat_") {
    const IntegerInfo* integer = Integer(rest.substr(4, underscore - 4));
    if (integer == nullptr)
      return Unimplemented("no helper " + std::string(name));
    return HelperDefinition{
        Fill("$T $NAME($F x) {\n  return convert_$T_sat(x);\n}\n",
             {{"$F", rest.substr(underscore + 1) == "f64" ? "double" : "float"},
              {"$T", integer->type}}),
        {}};
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

  std::string Subscript(std::string_view array,
                        std::string_view index) const override {
    return std::string(array) + "[" + std::string(index) + "]";
  }

  std::string ScratchView(phal_element_type_t type) const override {
    return "((__global " + StorageType(type) + "*)scratch)";
  }

  std::string Declare(std::string_view type_name, std::string_view name,
                      std::string_view value, bool constant) const override {
    return (constant ? "const " : "") + std::string(type_name) + " " +
           std::string(name) + " = " + std::string(value) + ";";
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

  // OpenCL 1.2 has no subgroups.
  std::string ShuffleDown(std::string_view, std::string_view) const override {
    return "";
  }
  std::string SubgroupLane() const override { return ""; }
  std::string SubgroupSize() const override { return ""; }
  std::string SubgroupLive() const override { return ""; }
  std::string SubgroupIndex() const override { return ""; }

  std::string Builtin(std::string_view name,
                      phal_element_type_t) const override {
    return std::string(name);
  }

  std::string Kernel(const KernelParts& parts,
                     const DeviceFeatures& features) const override {
    std::string text;
    if (features.fp64) {
      text += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    }
    // Every node rounds on its own, as StableHLO's ops do: no fused
    // multiply-add the program did not ask for.
    text += "#pragma OPENCL FP_CONTRACT OFF\n\n";
    text += parts.helpers;
    text += std::string("__kernel void ") + kEntryName + "(";
    for (size_t i = 0; i < parts.buffers.size(); ++i) {
      const BufferParameter& buffer = parts.buffers[i];
      text += (i == 0 ? "__global " : ", __global ") +
              (buffer.bytes ? std::string("uchar") : StorageType(buffer.type)) +
              "* " + buffer.name;
    }
    if (parts.scratch) {
      text += parts.buffers.empty() ? "__global uchar* scratch"
                                    : ", __global uchar* scratch";
    }
    text += ") {\n";
    for (const LocalArray& local : parts.locals) {
      text += "  __local " + local.type_name + " " + local.name + "[" +
              std::to_string(local.elements) + "];\n";
    }
    return text + parts.body + "}\n";
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
