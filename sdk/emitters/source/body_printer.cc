#include "sdk/emitters/source/body_printer.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "sdk/base/float16.h"
#include "sdk/emitters/source/source_emitter.h"

namespace phal::source_emitter {
namespace {

std::string Hex(uint64_t value, const char* suffix) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%" PRIx64 "%s", value, suffix);
  return text;
}

uint32_t FloatBits(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

// The name part of helpers on a real or complex type; f16 and bf16 compute
// in f32 and share its helpers.
std::string Suffix(phal_element_type_t type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
    case PHAL_ELEMENT_TYPE_BF16:
    case PHAL_ELEMENT_TYPE_F32:
      return "f32";
    default:
      return ElementTypeName(type);
  }
}

std::string Call(const std::string& function, const std::string& a) {
  return function + "(" + a + ")";
}
std::string Call(const std::string& function, const std::string& a,
                 const std::string& b) {
  return function + "(" + a + ", " + b + ")";
}

bool IsInteger(phal_element_type_t type) {
  return IsSigned(type) || IsUnsigned(type);
}

phal_element_type_t UnsignedOfBytes(int bytes) {
  return bytes == 1   ? PHAL_ELEMENT_TYPE_U8
         : bytes == 2 ? PHAL_ELEMENT_TYPE_U16
         : bytes == 4 ? PHAL_ELEMENT_TYPE_U32
                      : PHAL_ELEMENT_TYPE_U64;
}

// The real part type of a complex type.
phal_element_type_t PartType(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_C64 ? PHAL_ELEMENT_TYPE_F32
                                       : PHAL_ELEMENT_TYPE_F64;
}

Status NotImplemented(phal_kir_op_t op, phal_element_type_t type) {
  return Unimplemented(std::string("the source emitter does not implement ") +
                       KirOpName(op) + " on " + ElementTypeName(type));
}

// The math functions of one operand and the name of their helpers.
const char* MathName(phal_kir_op_t op) {
  switch (op) {
    case PHAL_KIR_OP_EXP:
      return "exp";
    case PHAL_KIR_OP_EXPM1:
      return "expm1";
    case PHAL_KIR_OP_LOG:
      return "log";
    case PHAL_KIR_OP_LOG1P:
      return "log1p";
    case PHAL_KIR_OP_LOGISTIC:
      return "logistic";
    case PHAL_KIR_OP_RSQRT:
      return "rsqrt";
    case PHAL_KIR_OP_CBRT:
      return "cbrt";
    case PHAL_KIR_OP_TANH:
      return "tanh";
    case PHAL_KIR_OP_SIN:
      return "sin";
    case PHAL_KIR_OP_COS:
      return "cos";
    case PHAL_KIR_OP_TAN:
      return "tan";
    case PHAL_KIR_OP_ERF:
      return "erf";
    default:
      return nullptr;
  }
}

}  // namespace

void BodyPrinter::Line(std::string_view text) {
  lines_.append(static_cast<size_t>(indent_) * 2, ' ');
  lines_.append(text);
  lines_.push_back('\n');
}

void BodyPrinter::Open(std::string_view text) {
  Line(std::string(text) + " {");
  ++indent_;
}

void BodyPrinter::Close(std::string_view text) {
  --indent_;
  Line(text);
}

std::string BodyPrinter::Fresh(std::string_view prefix) {
  return std::string(prefix) + std::to_string(counter_++);
}

std::string BodyPrinter::Use(std::string name) {
  for (const std::string& known : helpers_) {
    if (known == name) return name;
  }
  helpers_.push_back(name);
  return name;
}

std::string BodyPrinter::BufferName(uint32_t buffer) {
  return "b" + std::to_string(buffer);
}

std::string BodyPrinter::LinearIndex(
    uint32_t buffer, const std::vector<std::string>& position) const {
  const phal_kir_buffer_t& desc = kernel_.buffers[buffer];
  std::string linear;
  int64_t stride = 1;
  for (uint32_t d = desc.rank; d-- > 0;) {
    const std::string term =
        stride == 1 ? "(" + position[d] + ")"
                    : "(" + position[d] + ") * " + std::to_string(stride) + "l";
    linear = linear.empty() ? term : term + " + " + linear;
    stride *= desc.dims[d];
  }
  return linear.empty() ? "0" : "(" + linear + ")";
}

std::string BodyPrinter::Zero(phal_element_type_t type) const {
  const auto real_zero = [&](phal_element_type_t real) {
    const std::string name = dialect_.ComputeType(real);
    return dialect_.FloatConstant(name, name == "double" ? "0x0ul" : "0x0u");
  };
  if (IsComplex(type)) {
    const std::string zero = real_zero(PartType(type));
    return dialect_.MakeComplex(type, zero, zero);
  }
  if (IsFloat(type)) return real_zero(type);
  return dialect_.Cast(dialect_.ComputeType(type), "0");
}

std::string BodyPrinter::Round(phal_element_type_t type,
                               const std::string& value) {
  if (type == PHAL_ELEMENT_TYPE_F16) return Call(Use("phal_round_f16"), value);
  if (type == PHAL_ELEMENT_TYPE_BF16) {
    return Call(Use("phal_round_bf16"), value);
  }
  return value;
}

std::string BodyPrinter::Constant(const phal_kir_node_t& node) const {
  const uint64_t word = node.constant[0];
  switch (node.type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return dialect_.Cast(dialect_.ComputeType(node.type),
                           (word & 1) != 0 ? "1" : "0");
    case PHAL_ELEMENT_TYPE_F16:
      return dialect_.FloatConstant(
          "float",
          Hex(FloatBits(HalfToFloat(static_cast<uint16_t>(word))), "u"));
    case PHAL_ELEMENT_TYPE_BF16:
      return dialect_.FloatConstant("float", Hex((word & 0xffff) << 16, "u"));
    case PHAL_ELEMENT_TYPE_F32:
      return dialect_.FloatConstant("float", Hex(word & 0xffffffffu, "u"));
    case PHAL_ELEMENT_TYPE_F64:
      return dialect_.FloatConstant("double", Hex(word, "ul"));
    case PHAL_ELEMENT_TYPE_C64:
      return dialect_.MakeComplex(
          node.type,
          dialect_.FloatConstant("float", Hex(word & 0xffffffffu, "u")),
          dialect_.FloatConstant("float", Hex(word >> 32, "u")));
    case PHAL_ELEMENT_TYPE_C128:
      return dialect_.MakeComplex(
          node.type, dialect_.FloatConstant("double", Hex(word, "ul")),
          dialect_.FloatConstant("double", Hex(node.constant[1], "ul")));
    default: {
      const int bits = StorageBytes(node.type) * 8;
      const uint64_t mask =
          bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      return dialect_.Cast(dialect_.ComputeType(node.type),
                           Hex(word & mask, "ul"));
    }
  }
}

StatusOr<std::string> BodyPrinter::Convert(phal_element_type_t from,
                                           phal_element_type_t to,
                                           const std::string& value) {
  if (from == to) return value;
  const std::string to_type = dialect_.ComputeType(to);
  if (to == PHAL_ELEMENT_TYPE_PRED) {
    return dialect_.Cast(
        to_type, IsComplex(from) ? value + ".x != 0 || " + value + ".y != 0"
                                 : value + " != 0");
  }
  if (from == PHAL_ELEMENT_TYPE_PRED) from = PHAL_ELEMENT_TYPE_U8;
  if (IsComplex(from)) {
    if (IsComplex(to)) {
      const std::string part = dialect_.ComputeType(PartType(to));
      return dialect_.MakeComplex(to, dialect_.Cast(part, value + ".x"),
                                  dialect_.Cast(part, value + ".y"));
    }
    return Convert(PartType(from), to, value + ".x");
  }
  if (IsComplex(to)) {
    PHAL_ASSIGN_OR_RETURN(std::string real, Convert(from, PartType(to), value));
    return dialect_.MakeComplex(to, real, "0");
  }
  const std::string wide_float = features_.fp64 ? "double" : "float";
  if (IsFloat(from)) {
    if (IsInteger(to)) {
      return Call(Use("phal_sat_" + std::string(ElementTypeName(to)) + "_" +
                      Suffix(from)),
                  value);
    }
    if (to == PHAL_ELEMENT_TYPE_F64) return dialect_.Cast("double", value);
    if (to == PHAL_ELEMENT_TYPE_F32) {
      return from == PHAL_ELEMENT_TYPE_F64 ? dialect_.Cast("float", value)
                                           : value;
    }
    if (from == PHAL_ELEMENT_TYPE_F64) {
      return Call(Use(to == PHAL_ELEMENT_TYPE_F16 ? "phal_f64_to_f16"
                                                  : "phal_f64_to_bf16"),
                  value);
    }
    return Round(to, value);
  }
  // From an integer.
  if (IsInteger(to)) return dialect_.Cast(to_type, value);
  if (to == PHAL_ELEMENT_TYPE_F32 || to == PHAL_ELEMENT_TYPE_F64) {
    return dialect_.Cast(to_type, value);
  }
  // Through f64 (exact up to 53 bits), rounded once.
  return Call(
      Use(to == PHAL_ELEMENT_TYPE_F16 ? "phal_f64_to_f16" : "phal_f64_to_bf16"),
      dialect_.Cast(wide_float, value));
}

StatusOr<std::string> BodyPrinter::Bitcast(phal_element_type_t from,
                                           phal_element_type_t to,
                                           const std::string& value) {
  if (StorageBytes(from) != StorageBytes(to) ||
      from == PHAL_ELEMENT_TYPE_PRED || to == PHAL_ELEMENT_TYPE_PRED ||
      from == PHAL_ELEMENT_TYPE_C128 || to == PHAL_ELEMENT_TYPE_C128) {
    return Unimplemented(std::string("the source emitter does not implement "
                                     "bitcast_convert from ") +
                         ElementTypeName(from) + " to " + ElementTypeName(to));
  }
  if (from == to) return value;
  const int bytes = StorageBytes(from);
  const std::string bits_type = dialect_.ComputeType(UnsignedOfBytes(bytes));
  const std::string u32 = dialect_.ComputeType(PHAL_ELEMENT_TYPE_U32);
  std::string bits;
  if (from == PHAL_ELEMENT_TYPE_F16) {
    bits = Call(Use("phal_f16_bits"), value);
  } else if (from == PHAL_ELEMENT_TYPE_BF16) {
    bits = dialect_.Cast(bits_type, dialect_.Bitcast(u32, value) + " >> 16");
  } else if (bytes == 1) {
    bits = dialect_.Cast(bits_type, value);
  } else {
    bits = dialect_.Bitcast(bits_type, value);
  }
  if (to == PHAL_ELEMENT_TYPE_F16) {
    return Call(Use("phal_f16_from_bits"), bits);
  }
  if (to == PHAL_ELEMENT_TYPE_BF16) {
    return dialect_.Bitcast("float", dialect_.Cast(u32, bits) + " << 16");
  }
  if (bytes == 1) return dialect_.Cast(dialect_.ComputeType(to), bits);
  return dialect_.Bitcast(dialect_.ComputeType(to), bits);
}

StatusOr<std::string> BodyPrinter::ReducePrecision(phal_element_type_t type,
                                                   const std::string& value,
                                                   int64_t exponent_bits,
                                                   int64_t mantissa_bits) {
  const std::string function = Use("phal_reduce_precision_bits");
  const std::string targets =
      std::to_string(exponent_bits) + ", " + std::to_string(mantissa_bits);
  const std::string u16 = dialect_.ComputeType(PHAL_ELEMENT_TYPE_U16);
  const std::string u32 = dialect_.ComputeType(PHAL_ELEMENT_TYPE_U32);
  const std::string u64 = dialect_.ComputeType(PHAL_ELEMENT_TYPE_U64);
  const auto reduce = [&](const std::string& bits, const char* format) {
    return function + "(" + dialect_.Cast(u64, bits) + ", " + format + ", " +
           targets + ")";
  };
  switch (type) {
    case PHAL_ELEMENT_TYPE_F32:
      return dialect_.Bitcast(
          "float",
          dialect_.Cast(u32, reduce(dialect_.Bitcast(u32, value), "32, 23")));
    case PHAL_ELEMENT_TYPE_F64:
      return dialect_.Bitcast(dialect_.ComputeType(PHAL_ELEMENT_TYPE_F64),
                              reduce(dialect_.Bitcast(u64, value), "64, 52"));
    case PHAL_ELEMENT_TYPE_F16:
      return Use("phal_f16_from_bits") + "(" +
             dialect_.Cast(u16, reduce(Use("phal_f16_bits") + "(" + value + ")",
                                       "16, 10")) +
             ")";
    case PHAL_ELEMENT_TYPE_BF16:
      return dialect_.Bitcast(
          "float",
          dialect_.Cast(
              u32, reduce(dialect_.Bitcast(u32, value) + " >> 16", "16, 7")) +
              " << 16");
    default:
      return Unimplemented(std::string("the source emitter does not implement "
                                       "reduce_precision on ") +
                           ElementTypeName(type));
  }
}

StatusOr<std::string> BodyPrinter::Unary(const phal_kir_node_t& node,
                                         phal_element_type_t operand_type,
                                         const std::string& a) {
  const phal_element_type_t t = node.type;
  const std::string type = dialect_.ComputeType(t);
  const std::string cs = ElementTypeName(operand_type);
  switch (node.op) {
    case PHAL_KIR_OP_ABS:
      if (IsComplex(operand_type)) return Call(Use("phal_cabs_" + cs), a);
      if (IsFloat(t)) return Call(Function("fabs", t), a);
      if (IsSigned(t)) {
        const std::string w = dialect_.WrapType(t);
        return dialect_.Cast(
            type, "(" + a + ") < 0 ? " + dialect_.Cast(w, "0") + " - " +
                      dialect_.Cast(w, a) + " : " + dialect_.Cast(w, a));
      }
      return a;
    case PHAL_KIR_OP_NEGATE:
      if (IsFloat(t) || IsComplex(t)) return "(-" + a + ")";
      if (t == PHAL_ELEMENT_TYPE_PRED) return a;
      return dialect_.Cast(type, dialect_.Cast(dialect_.WrapType(t), "0") +
                                     " - " +
                                     dialect_.Cast(dialect_.WrapType(t), a));
    case PHAL_KIR_OP_SIGN:
      if (IsComplex(t)) return Call(Use("phal_csign_" + cs), a);
      if (IsFloat(t)) {
        return "(isnan(" + a + ") ? " + a + " : " + a + " > 0 ? " +
               dialect_.Cast(type, "1") + " : " + a + " < 0 ? " +
               dialect_.Cast(type, "-1") + " : " + a + ")";
      }
      if (IsSigned(t)) {
        return dialect_.Cast(type, dialect_.Cast(type, a + " > 0") + " - " +
                                       dialect_.Cast(type, a + " < 0"));
      }
      return dialect_.Cast(type, a + " != 0");
    case PHAL_KIR_OP_FLOOR:
    case PHAL_KIR_OP_CEIL:
    case PHAL_KIR_OP_ROUND_NEAREST_AFZ:
    case PHAL_KIR_OP_ROUND_NEAREST_EVEN: {
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      const char* function = node.op == PHAL_KIR_OP_FLOOR  ? "floor"
                             : node.op == PHAL_KIR_OP_CEIL ? "ceil"
                             : node.op == PHAL_KIR_OP_ROUND_NEAREST_AFZ
                                 ? "round"
                                 : "rint";
      return Call(Function(function, t), a);
    }
    case PHAL_KIR_OP_SQRT:
      if (IsComplex(t)) return Call(Use("phal_csqrt_" + cs), a);
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      if (t == PHAL_ELEMENT_TYPE_F64 ||
          features_.correctly_rounded_divide_sqrt || !features_.fp64) {
        return Round(t, Call(Function("sqrt", t), a));
      }
      return Round(t, Call(Use("phal_sqrt_f32"), a));
    case PHAL_KIR_OP_NOT:
      if (t == PHAL_ELEMENT_TYPE_PRED) {
        return dialect_.Cast(type, a + " ^ " + dialect_.Cast(type, "1"));
      }
      if (!IsSigned(t) && !IsUnsigned(t)) {
        return NotImplemented(node.op, t);
      }
      return dialect_.Cast(type, "~" + a);
    case PHAL_KIR_OP_POPCNT:
    case PHAL_KIR_OP_CLZ:
      if (!IsSigned(t) && !IsUnsigned(t)) {
        return NotImplemented(node.op, t);
      }
      return Call(
          Function(node.op == PHAL_KIR_OP_POPCNT ? "popcount" : "clz", t), a);
    case PHAL_KIR_OP_IS_FINITE:
      if (!IsFloat(operand_type)) return dialect_.Cast(type, "1");
      return dialect_.Cast(
          type, Call(Function("isfinite", operand_type), a) + " ? 1 : 0");
    case PHAL_KIR_OP_REAL:
      return IsComplex(operand_type) ? a + ".x" : a;
    case PHAL_KIR_OP_IMAG:
      return IsComplex(operand_type) ? a + ".y" : Zero(t);
    case PHAL_KIR_OP_CONVERT:
      return Convert(operand_type, t, a);
    case PHAL_KIR_OP_BITCAST_CONVERT:
      return Bitcast(operand_type, t, a);
    case PHAL_KIR_OP_REDUCE_PRECISION:
      return ReducePrecision(t, a, node.attributes[0], node.attributes[1]);
    default:
      break;
  }
  const char* math = MathName(node.op);
  if (math == nullptr) return NotImplemented(node.op, t);
  if (IsComplex(t)) {
    if (node.op == PHAL_KIR_OP_ERF) {
      return NotImplemented(node.op, t);
    }
    return Call(Use("phal_c" + std::string(math) + "_" + cs), a);
  }
  if (!IsFloat(t)) return NotImplemented(node.op, t);
  return Round(t, Call(Use("phal_" + std::string(math) + "_" + Suffix(t)), a));
}

StatusOr<std::string> BodyPrinter::Compare(const phal_kir_node_t& node,
                                           phal_element_type_t operand_type,
                                           const std::string& a,
                                           const std::string& b) {
  static const char* kOperators[] = {"==", "!=", "<", "<=", ">", ">="};
  const int64_t direction = node.attributes[0];
  if (direction < 0 || direction > 5) {
    return InvalidArgument("a compare has direction " +
                           std::to_string(direction));
  }
  const std::string op = kOperators[direction];
  const std::string pred = dialect_.ComputeType(PHAL_ELEMENT_TYPE_PRED);
  if (IsComplex(operand_type)) {
    if (direction > 1) return NotImplemented(node.op, operand_type);
    const std::string equal =
        "(" + a + ".x == " + b + ".x && " + a + ".y == " + b + ".y)";
    return dialect_.Cast(pred, std::string(direction == 0 ? "" : "!") + equal);
  }
  if (IsFloat(operand_type) &&
      node.attributes[1] == PHAL_KIR_COMPARISON_TOTALORDER) {
    const std::string key = Use("phal_total_" + Suffix(operand_type));
    return dialect_.Cast(pred, Call(key, a) + " " + op + " " + Call(key, b));
  }
  return dialect_.Cast(pred, a + " " + op + " " + b);
}

StatusOr<std::string> BodyPrinter::Binary(const phal_kir_node_t& node,
                                          phal_element_type_t operand_type,
                                          const std::string& a,
                                          const std::string& b) {
  const phal_element_type_t t = node.type;
  const std::string type = dialect_.ComputeType(t);
  const std::string s = ElementTypeName(t);
  const bool integer = IsSigned(t) || IsUnsigned(t);
  const bool pred = t == PHAL_ELEMENT_TYPE_PRED;
  const auto wrapped = [&](const char* op) {
    const std::string w = dialect_.WrapType(t);
    return dialect_.Cast(
        type, dialect_.Cast(w, a) + " " + op + " " + dialect_.Cast(w, b));
  };
  switch (node.op) {
    case PHAL_KIR_OP_ADD:
    case PHAL_KIR_OP_SUBTRACT:
    case PHAL_KIR_OP_MULTIPLY: {
      const char* op = node.op == PHAL_KIR_OP_ADD        ? "+"
                       : node.op == PHAL_KIR_OP_SUBTRACT ? "-"
                                                         : "*";
      if (integer) return wrapped(op);
      if (pred) {
        if (node.op == PHAL_KIR_OP_SUBTRACT) return NotImplemented(node.op, t);
        return dialect_.Cast(
            type, a + (node.op == PHAL_KIR_OP_ADD ? " | " : " & ") + b);
      }
      if (IsComplex(t) && node.op == PHAL_KIR_OP_MULTIPLY) {
        return Call(Use("phal_cmul_" + s), a, b);
      }
      return Round(t, "(" + a + " " + op + " " + b + ")");
    }
    case PHAL_KIR_OP_DIVIDE:
      if (integer) return Call(Use("phal_div_" + s), a, b);
      if (IsComplex(t)) return Call(Use("phal_cdiv_" + s), a, b);
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      if (t == PHAL_ELEMENT_TYPE_F64 ||
          features_.correctly_rounded_divide_sqrt || !features_.fp64) {
        return Round(t, "(" + a + " / " + b + ")");
      }
      return Round(t, Call(Use("phal_div_f32"), a, b));
    case PHAL_KIR_OP_REMAINDER:
      if (integer) return Call(Use("phal_rem_" + s), a, b);
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      return Round(t, Call(Function("fmod", t), a, b));
    case PHAL_KIR_OP_MAXIMUM:
    case PHAL_KIR_OP_MINIMUM: {
      const bool max = node.op == PHAL_KIR_OP_MAXIMUM;
      if (IsFloat(t)) {
        return Call(
            Use(std::string(max ? "phal_max_" : "phal_min_") + Suffix(t)), a,
            b);
      }
      if (integer || pred) {
        return Call(Function(max ? "max" : "min", t), a, b);
      }
      return Call(Use(std::string(max ? "phal_cmax_" : "phal_cmin_") + s), a,
                  b);
    }
    case PHAL_KIR_OP_POWER:
      if (integer) return Call(Use("phal_pow_" + s), a, b);
      if (IsComplex(t)) return Call(Use("phal_cpow_" + s), a, b);
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      return Round(t, Call(Use("phal_pow_" + Suffix(t)), a, b));
    case PHAL_KIR_OP_ATAN2:
      if (IsComplex(t)) return Call(Use("phal_catan2_" + s), a, b);
      if (!IsFloat(t)) return NotImplemented(node.op, t);
      return Round(t, Call(Use("phal_atan2_" + Suffix(t)), a, b));
    case PHAL_KIR_OP_AND:
    case PHAL_KIR_OP_OR:
    case PHAL_KIR_OP_XOR: {
      if (!integer && !pred) return NotImplemented(node.op, t);
      const char* op = node.op == PHAL_KIR_OP_AND  ? " & "
                       : node.op == PHAL_KIR_OP_OR ? " | "
                                                   : " ^ ";
      return dialect_.Cast(type, a + op + b);
    }
    case PHAL_KIR_OP_SHIFT_LEFT:
    case PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC:
    case PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL: {
      if (!integer) return NotImplemented(node.op, t);
      const char* name = node.op == PHAL_KIR_OP_SHIFT_LEFT ? "phal_shl_"
                         : node.op == PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC
                             ? "phal_sra_"
                             : "phal_srl_";
      return Call(Use(name + s), a, b);
    }
    case PHAL_KIR_OP_COMPLEX:
      return dialect_.MakeComplex(t, a, b);
    case PHAL_KIR_OP_COMPARE:
      return Compare(node, operand_type, a, b);
    default:
      return NotImplemented(node.op, t);
  }
}

StatusOr<std::string> BodyPrinter::MultiplyAdd(phal_element_type_t type,
                                               const std::string& sum,
                                               const std::string& a,
                                               const std::string& b) {
  const std::string t = dialect_.ComputeType(type);
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    return dialect_.Cast(t, sum + " | (" + a + " & " + b + ")");
  }
  if (IsSigned(type) || IsUnsigned(type)) {
    const std::string w = dialect_.WrapType(type);
    return dialect_.Cast(t, dialect_.Cast(w, sum) + " + " +
                                dialect_.Cast(w, a) + " * " +
                                dialect_.Cast(w, b));
  }
  if (IsComplex(type)) {
    return "(" + sum + " + " +
           Call(Use("phal_cmul_" + std::string(ElementTypeName(type))), a, b) +
           ")";
  }
  return Round(
      type, "(" + sum + " + " + Round(type, "(" + a + " * " + b + ")") + ")");
}

StatusOr<std::string> BodyPrinter::NodeExpression(
    const phal_kir_body_t& body, const phal_kir_node_t& node,
    const std::vector<std::string>& values, const IndexFn& index,
    const std::vector<std::string>& params) {
  std::vector<std::string> operands;
  for (uint32_t k = 0; k < node.operand_count; ++k) {
    operands.push_back(values[body.operands[node.operand_begin + k]]);
  }
  const auto operand_type = [&](uint32_t k) {
    return body.nodes[body.operands[node.operand_begin + k]].type;
  };
  switch (node.op) {
    case PHAL_KIR_OP_CONSTANT:
      return Constant(node);
    case PHAL_KIR_OP_INDEX: {
      std::string expression = index ? index(node.attributes[0]) : "";
      if (expression.empty()) {
        return InvalidArgument("index " + std::to_string(node.attributes[0]) +
                               " is outside the body's iteration space");
      }
      return expression;
    }
    case PHAL_KIR_OP_READ: {
      const auto b = static_cast<uint32_t>(node.attributes[0]);
      return dialect_.Load(kernel_.buffers[b].element_type, BufferName(b),
                           LinearIndex(b, operands));
    }
    case PHAL_KIR_OP_PARAMETER: {
      const int64_t p = node.attributes[0];
      if (p < 0 || static_cast<size_t>(p) >= params.size()) {
        return InvalidArgument("parameter " + std::to_string(p) +
                               " does not exist");
      }
      return params[static_cast<size_t>(p)];
    }
    default:
      break;
  }
  if (node.op == PHAL_KIR_OP_SELECT || node.op == PHAL_KIR_OP_CLAMP) {
    if (node.op == PHAL_KIR_OP_SELECT) {
      return "(" + operands[0] + " != 0 ? " + operands[1] + " : " +
             operands[2] + ")";
    }
    const phal_element_type_t t = node.type;
    if (IsFloat(t)) {
      return Call(Use("phal_min_" + Suffix(t)),
                  Call(Use("phal_max_" + Suffix(t)), operands[1], operands[0]),
                  operands[2]);
    }
    if (IsComplex(t)) return NotImplemented(node.op, t);
    return Call(Function("min", t),
                Call(Function("max", t), operands[1], operands[0]),
                operands[2]);
  }
  if (operands.size() == 1) return Unary(node, operand_type(0), operands[0]);
  if (operands.size() == 2) {
    return Binary(node, operand_type(0), operands[0], operands[1]);
  }
  return NotImplemented(node.op, node.type);
}

StatusOr<std::vector<std::string>> BodyPrinter::Print(
    const phal_kir_body_t& body, const IndexFn& index,
    const std::vector<std::string>& parameters) {
  std::vector<std::string> values(body.node_count);
  const std::string prefix = Fresh("v") + "_";
  for (uint32_t n = 0; n < body.node_count; ++n) {
    const phal_kir_node_t& node = body.nodes[n];
    if (!features_.fp64 && (node.type == PHAL_ELEMENT_TYPE_F64 ||
                            node.type == PHAL_ELEMENT_TYPE_C128)) {
      return Unimplemented(std::string("the device has no f64 (cl_khr_fp64) "
                                       "for a node of type ") +
                           ElementTypeName(node.type));
    }
    PHAL_ASSIGN_OR_RETURN(
        std::string expression,
        NodeExpression(body, node, values, index, parameters));
    values[n] = prefix + std::to_string(n);
    Line(dialect_.Declare(dialect_.ComputeType(node.type), values[n],
                          expression, true));
  }
  std::vector<std::string> results;
  for (uint32_t r = 0; r < body.result_count; ++r) {
    results.push_back(values[body.results[r]]);
  }
  return results;
}

Status BodyPrinter::AppendHelper(const std::string& name,
                                 std::set<std::string>* done,
                                 std::string* text) const {
  if (!done->insert(name).second) return OkStatus();
  PHAL_ASSIGN_OR_RETURN(HelperDefinition definition,
                        dialect_.Helper(name, features_));
  for (const std::string& dependency : definition.dependencies) {
    PHAL_RETURN_IF_ERROR(AppendHelper(dependency, done, text));
  }
  *text += definition.text + "\n";
  return OkStatus();
}

void BodyPrinter::Local(std::string type_name, std::string name,
                        uint64_t elements) {
  locals_.push_back(
      LocalArray{std::move(type_name), std::move(name), elements});
}

std::string BodyPrinter::Function(std::string_view name,
                                  phal_element_type_t type) {
  std::string builtin = dialect_.Builtin(name, type);
  if (!builtin.empty()) return builtin;
  return Use("phal_" + std::string(name) + "_" +
             (IsFloat(type) ? Suffix(type) : ElementTypeName(type)));
}

StatusOr<std::string> BodyPrinter::Finish(
    const std::vector<BufferParameter>& buffers, bool scratch) {
  KernelParts parts;
  std::set<std::string> done;
  for (const std::string& helper : helpers_) {
    PHAL_RETURN_IF_ERROR(AppendHelper(helper, &done, &parts.helpers));
  }
  parts.buffers = buffers;
  parts.scratch = scratch;
  parts.locals = locals_;
  parts.body = lines_;
  return dialect_.Kernel(parts, features_);
}

}  // namespace phal::source_emitter
