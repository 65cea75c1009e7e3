// Elementwise ops: every op over every element type it takes, each type
// over shape classes with random values, plus the type's edge values (for
// binary ops every pair of them).
#include <iterator>
#include <string>

#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/edge_values.h"
#include "conformance/cases/hlo_text.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"

namespace phal::conformance {
namespace {

constexpr int kExactOp = -1;
// erfc on plugins is a decomposition (core/compiler/erfc_decomposition.cc)
// whose error, measured against the reference, stays within this bound.
constexpr int kErfcUlps = 16;

struct ElementwiseOp {
  const char* name;
  int arity;
  int tier;
  std::vector<ElementType> types;
  // Ulps allowed for f16/bf16 and for f32/f64; kExactOp for an exact op.
  int narrow_ulps = kExactOp;
  int wide_ulps = kExactOp;
  // Complex results: accumulation bound over this many terms; 0 is exact.
  int64_t complex_terms = 0;
  // Random range of the first and second operand.
  double low = -4, high = 4;
  double second_low = -4, second_high = 4;
};

bool IsNarrowFloat(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16;
}

ToleranceSpec ToleranceFor(const ElementwiseOp& op, ElementType type) {
  if (IsComplex(type)) {
    return op.complex_terms == 0 ? Exact() : Accumulation(op.complex_terms);
  }
  if (!IsFloat(type) || op.wide_ulps == kExactOp) return Exact();
  return Ulps(IsNarrowFloat(type) ? op.narrow_ulps : op.wide_ulps);
}

ElementType ResultType(const std::string& op, ElementType type) {
  if (op == "is-finite") return PHAL_ELEMENT_TYPE_PRED;
  if (IsComplex(type) && (op == "real" || op == "imag" || op == "abs")) {
    return ComplexComponentType(type);
  }
  return type;
}

std::vector<ElementwiseOp> ElementwiseOps() {
  const auto floats = FloatTypes();
  const auto complex = ComplexTypes();
  const auto ints = IntegerTypes();
  const auto pred = std::vector<ElementType>{PHAL_ELEMENT_TYPE_PRED};
  const auto real_and_complex = Join({floats, complex});
  const auto numbers = Join({ints, floats, complex});
  return {
      {"abs", 1, 1, Join({floats, SignedTypes(), complex}), kExactOp, kExactOp,
       2},
      {"negate", 1, 1, numbers},
      {"sign", 1, 1, Join({floats, SignedTypes(), complex}), kExactOp, kExactOp,
       2},
      {"floor", 1, 1, floats},
      {"ceil", 1, 1, floats},
      {"round-nearest-afz", 1, 1, floats},
      {"round-nearest-even", 1, 1, floats},
      {"exponential", 1, 1, real_and_complex, 1, 4, 8},
      {"exponential-minus-one", 1, 1, real_and_complex, 1, 4, 8},
      {"log", 1, 1, real_and_complex, 1, 4, 8, 0, 8},
      {"log-plus-one", 1, 1, real_and_complex, 1, 4, 8, -1, 8},
      {"logistic", 1, 1, real_and_complex, 1, 4, 8},
      {"sqrt", 1, 1, real_and_complex, 1, 1, 4, 0, 8},
      {"rsqrt", 1, 1, real_and_complex, 1, 2, 4, 0, 8},
      {"tanh", 1, 1, real_and_complex, 1, 4, 8},
      {"erf", 1, 1, floats, 1, 4},
      {"erfc", 1, 1, floats, 1, kErfcUlps},
      {"sine", 1, 1, real_and_complex, 1, 4, 8},
      {"cosine", 1, 1, real_and_complex, 1, 4, 8},
      {"tan", 1, 3, real_and_complex, 1, 4, 8, -1.5, 1.5},
      // Decompositions on plugins (inverse_and_hyperbolic_decomposition.cc);
      // the ranges reach the real functions' domains and, for complex
      // operands, their branch cuts.
      {"asin", 1, 1, real_and_complex, 1, 4, 8, -1, 1},
      {"acos", 1, 1, real_and_complex, 1, 4, 8, -1, 1},
      {"atan", 1, 1, real_and_complex, 1, 4, 8},
      {"sinh", 1, 1, real_and_complex, 1, 4, 8, -10, 10},
      {"cosh", 1, 1, real_and_complex, 1, 4, 8, -10, 10},
      {"asinh", 1, 1, real_and_complex, 1, 4, 8, -10, 10},
      {"acosh", 1, 1, real_and_complex, 1, 4, 8, 1, 10},
      {"atanh", 1, 1, real_and_complex, 1, 4, 8, -1, 1},
      {"cbrt", 1, 3, floats, 1, 4},
      {"is-finite", 1, 3, floats},
      {"not", 1, 3, Join({pred, ints})},
      {"popcnt", 1, 3, ints},
      {"count-leading-zeros", 1, 3, ints},
      {"real", 1, 3, complex},
      {"imag", 1, 3, complex},
      {"add", 2, 1, numbers},
      {"subtract", 2, 1, numbers},
      {"multiply", 2, 1, numbers, kExactOp, kExactOp, 2},
      {"divide", 2, 1, numbers, 1, 1, 4},
      {"maximum", 2, 1, Join({pred, ints, floats, complex})},
      {"minimum", 2, 1, Join({pred, ints, floats, complex})},
      {"power", 2, 1, Join({floats, ints, complex}), 1, 8, 16, 0, 4, -3, 3},
      {"remainder", 2, 3, Join({ints, floats})},
      {"atan2", 2, 3, real_and_complex, 1, 4, 8},
      {"and", 2, 3, Join({pred, ints})},
      {"or", 2, 3, Join({pred, ints})},
      {"xor", 2, 3, Join({pred, ints})},
      {"shift-left", 2, 3, ints},
      {"shift-right-arithmetic", 2, 3, ints},
      {"shift-right-logical", 2, 3, ints},
  };
}

int TierOf(int op_tier, ElementType type) {
  return IsComplex(type) ? 3 : op_tier;
}

std::vector<InputSpec> RandomInputs(const ElementwiseOp& op) {
  std::vector<InputSpec> inputs = {RandomValues(op.low, op.high)};
  if (op.arity == 2) {
    inputs.push_back(RandomValues(op.second_low, op.second_high));
  }
  return inputs;
}

std::string ElementwiseModule(const std::string& id, const std::string& op,
                              int arity, ElementType type,
                              const std::vector<int64_t>& dims) {
  std::vector<std::string> lines = {ParameterLine(0, type, dims)};
  std::string operands = "p0";
  if (arity == 2) {
    lines.push_back(ParameterLine(1, type, dims));
    operands += ", p1";
  }
  lines.push_back("ROOT r = " + ShapeText(ResultType(op, type), dims) + " " +
                  op + "(" + operands + ")");
  return ModuleText(id, {}, lines);
}

// The op on [33,65] operands, one of which reaches it through `move`, the
// instruction `moved` = `move` on p0 or p1; `operands` are the op's operand
// names. `label` names the layout in the case's id.
Case LayoutCase(const ElementwiseOp& op, ElementType type, const char* label,
                std::vector<int64_t> p0_dims, std::vector<int64_t> p1_dims,
                const std::string& moved, const std::string& move,
                const std::string& operands) {
  const std::string name = op.name;
  std::vector<std::string> lines = {
      ParameterLine(0, type, p0_dims), ParameterLine(1, type, p1_dims),
      moved + " = " + ShapeText(type, {33, 65}) + " " + move,
      "ROOT r = " + ShapeText(ResultType(name, type), {33, 65}) + " " + name +
          "(" + operands + ")"};
  Case c = NumericCase(name, "", type, TierOf(op.tier, type), label, "random",
                       "", RandomInputs(op), ToleranceFor(op, type));
  c.module_text = ModuleText(c.id, {}, lines);
  return c;
}

// lhs [33,65] against a [65] row broadcast along the first dimension.
Case BroadcastCase(const ElementwiseOp& op, ElementType type) {
  return LayoutCase(op, type, "broadcast", {33, 65}, {65}, "b",
                    "broadcast(p1), dimensions={1}", "p0, b");
}

// A transposed lhs: the op fuses with a transposition, so its operands are
// read at different strides.
Case TransposedCase(const ElementwiseOp& op, ElementType type) {
  return LayoutCase(op, type, "transposed", {65, 33}, {33, 65}, "t",
                    "transpose(p0), dimensions={1,0}", "t, p1");
}

void AddOpCases(const ElementwiseOp& op, std::vector<Case>* cases) {
  for (ElementType type : op.types) {
    const int tier = TierOf(op.tier, type);
    const auto& shapes = IsPrimaryType(type) ? ElementwiseShapeClasses()
                                             : SecondaryShapeClasses();
    for (const ShapeClass& shape : shapes) {
      Case c = NumericCase(op.name, "", type, tier, shape.name, "random", "",
                           RandomInputs(op), ToleranceFor(op, type));
      c.module_text =
          ElementwiseModule(c.id, op.name, op.arity, type, shape.dims);
      cases->push_back(std::move(c));
    }
    if (op.arity == 2 && IsPrimaryType(type)) {
      cases->push_back(BroadcastCase(op, type));
      cases->push_back(TransposedCase(op, type));
    }
    const int64_t edges = EdgeValueCount(type);
    const int64_t count = op.arity == 2 ? edges * edges : edges;
    std::vector<InputSpec> inputs = {EdgeValues(0)};
    if (op.arity == 2) inputs.push_back(EdgeValues(1));
    Case c = NumericCase(op.name, "", type, tier, "1d", "edge", "", inputs,
                         ToleranceFor(op, type));
    c.module_text = ElementwiseModule(c.id, op.name, op.arity, type, {count});
    cases->push_back(std::move(c));
  }
}

void AddCompareCases(std::vector<Case>* cases) {
  const char* directions[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  std::vector<ElementType> types = Join({IntegerTypes(), FloatTypes()});
  types.push_back(PHAL_ELEMENT_TYPE_PRED);
  for (ElementType type : Join({types, ComplexTypes()})) {
    const bool complex = IsComplex(type);
    std::vector<std::string> orders = {""};
    if (IsFloat(type)) orders.push_back("TOTALORDER");
    for (const std::string& order : orders) {
      for (const char* direction : directions) {
        const std::string dir = direction;
        if (complex && dir != "EQ" && dir != "NE") continue;
        const std::string variant = dir + (order.empty() ? "" : "_" + order);
        const int64_t edges = EdgeValueCount(type);
        for (const bool edge : {false, true}) {
          const std::vector<int64_t> dims =
              edge ? std::vector<int64_t>{edges * edges}
                   : std::vector<int64_t>{7, 13};
          std::vector<InputSpec> inputs =
              edge ? std::vector<InputSpec>{EdgeValues(0), EdgeValues(1)}
                   : std::vector<InputSpec>{RandomValues(-2, 2),
                                            RandomValues(-2, 2)};
          Case c = NumericCase("compare", variant, type, complex ? 3 : 1,
                               edge ? "1d" : "odd", edge ? "edge" : "random",
                               "", inputs, Exact());
          c.module_text = ModuleText(
              c.id, {},
              {ParameterLine(0, type, dims), ParameterLine(1, type, dims),
               "ROOT r = " + ShapeText(PHAL_ELEMENT_TYPE_PRED, dims) +
                   " compare(p0, p1), direction=" + dir +
                   (order.empty() ? "" : ", type=" + order)});
          cases->push_back(std::move(c));
        }
      }
    }
  }
}

void AddSelectAndClampCases(std::vector<Case>* cases) {
  const std::vector<int64_t> dims = {7, 13};
  for (ElementType type : AllTypes()) {
    Case c = NumericCase(
        "select", "", type, IsComplex(type) ? 3 : 1, "odd", "random", "",
        {RandomValues(), RandomValues(), RandomValues()}, Exact());
    c.module_text = ModuleText(
        c.id, {},
        {ParameterLine(0, PHAL_ELEMENT_TYPE_PRED, dims),
         ParameterLine(1, type, dims), ParameterLine(2, type, dims),
         "ROOT r = " + ShapeText(type, dims) + " select(p0, p1, p2)"});
    cases->push_back(std::move(c));
  }
  for (ElementType type : Join({IntegerTypes(), FloatTypes()})) {
    for (const bool edge : {false, true}) {
      const int64_t edges = EdgeValueCount(type);
      const std::vector<int64_t> shape =
          edge ? std::vector<int64_t>{edges * edges} : dims;
      std::vector<InputSpec> inputs =
          edge ? std::vector<InputSpec>{EdgeValues(0), EdgeValues(1),
                                        RandomValues(-1, 1)}
               : std::vector<InputSpec>{RandomValues(-2, 0), RandomValues(),
                                        RandomValues(0, 2)};
      Case c = NumericCase("clamp", "", type, 1, edge ? "1d" : "odd",
                           edge ? "edge" : "random", "", inputs, Exact());
      c.module_text = ModuleText(
          c.id, {},
          {ParameterLine(0, type, shape), ParameterLine(1, type, shape),
           ParameterLine(2, type, shape),
           "ROOT r = " + ShapeText(type, shape) + " clamp(p0, p1, p2)"});
      cases->push_back(std::move(c));
    }
  }
}

// Every (from, to) pair, on random values wide enough to saturate the
// narrow integers and on the source type's edge values.
void AddConvertCases(std::vector<Case>* cases) {
  for (ElementType from : AllTypes()) {
    for (ElementType to : AllTypes()) {
      if (from == to) continue;
      if (IsComplex(from) && !IsComplex(to)) continue;
      const int tier = IsComplex(from) || IsComplex(to) ? 3 : 1;
      const std::string variant = std::string("from_") + ElementTypeName(from);
      for (const bool edge : {false, true}) {
        const std::vector<int64_t> dims =
            edge ? std::vector<int64_t>{EdgeValueCount(from)}
                 : std::vector<int64_t>{7, 13};
        Case c = NumericCase("convert", variant, to, tier, edge ? "1d" : "odd",
                             edge ? "edge" : "random", "",
                             {edge ? EdgeValues() : RandomValues(-300, 300)},
                             Exact());
        c.module_text =
            ModuleText(c.id, {},
                       {ParameterLine(0, from, dims),
                        "ROOT r = " + ShapeText(to, dims) + " convert(p0)"});
        cases->push_back(std::move(c));
      }
    }
  }
}

// Round trips through a narrower type: the value must come back rounded,
// never the input itself (no pass may fold the pair of converts away).
void AddConvertRoundTripCases(std::vector<Case>* cases) {
  struct RoundTrip {
    ElementType wide;
    ElementType narrow;
  };
  const std::vector<RoundTrip> trips = {
      {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_BF16},
      {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F16},
      {PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_F32},
      {PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_BF16},
      {PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S8},
  };
  for (const RoundTrip& trip : trips) {
    const std::vector<int64_t> dims = {7, 13};
    Case c = NumericCase(
        "convert",
        std::string("round_trip_through_") + ElementTypeName(trip.narrow),
        trip.wide, 1, "odd", "random", "", {RandomValues(-300, 300)}, Exact());
    c.module_text =
        ModuleText(c.id, {},
                   {ParameterLine(0, trip.wide, dims),
                    "n = " + ShapeText(trip.narrow, dims) + " convert(p0)",
                    "ROOT r = " + ShapeText(trip.wide, dims) + " convert(n)"});
    cases->push_back(std::move(c));
  }
}

void AddBitcastConvertCases(std::vector<Case>* cases) {
  struct Pair {
    ElementType from;
    ElementType to;
    std::vector<int64_t> from_dims;
    std::vector<int64_t> to_dims;
  };
  const std::vector<Pair> pairs = {
      {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32, {20}, {20}},
      {PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_F32, {20}, {20}},
      {PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_U16, {20}, {20}},
      {PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F16, {20}, {20}},
      {PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_S64, {20}, {20}},
      {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_U8, {20}, {20, 4}},
      {PHAL_ELEMENT_TYPE_U16, PHAL_ELEMENT_TYPE_F32, {10, 2}, {10}},
      {PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_U8, {20}, {20}},
      {PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_S8, {20}, {20}},
  };
  for (const Pair& pair : pairs) {
    Case c = NumericCase("bitcast-convert",
                         std::string("from_") + ElementTypeName(pair.from),
                         pair.to, 3, "1d", "edge", "", {EdgeValues()}, Exact());
    c.module_text = ModuleText(c.id, {},
                               {ParameterLine(0, pair.from, pair.from_dims),
                                "ROOT r = " + ShapeText(pair.to, pair.to_dims) +
                                    " bitcast-convert(p0)"});
    cases->push_back(std::move(c));
  }
}

// erfc where 1 - erf(x) has lost every digit: up to where erfc(x)
// underflows in the type, through its subnormal results.
void AddErfcTailCases(std::vector<Case>* cases) {
  struct Tail {
    ElementType type;
    double high;
  };
  const std::vector<Tail> tails = {{PHAL_ELEMENT_TYPE_F32, 10.5},
                                   {PHAL_ELEMENT_TYPE_F64, 27.5},
                                   {PHAL_ELEMENT_TYPE_F16, 4.5},
                                   {PHAL_ELEMENT_TYPE_BF16, 10.5}};
  for (const Tail& tail : tails) {
    const std::vector<int64_t> dims = {7, 13};
    Case c = NumericCase("erfc", "tail", tail.type, 1, "odd", "random", "",
                         {RandomValues(0.5, tail.high)},
                         Ulps(IsNarrowFloat(tail.type) ? 1 : kErfcUlps));
    c.module_text =
        ModuleText(c.id, {},
                   {ParameterLine(0, tail.type, dims),
                    "ROOT r = " + ShapeText(tail.type, dims) + " erfc(p0)"});
    cases->push_back(std::move(c));
  }
}

// The special functions of CHLO, which plugins run as decompositions
// (core/compiler/gamma_family_decomposition.cc, bessel_i1e_decomposition.cc,
// next_after_decomposition.cc). Where a function crosses zero (lgamma at 1
// and 2 and between its poles, digamma at 1.46 and between its poles) its
// error is bounded relative to the largest result, as the accumulation
// bound measures it; elsewhere in ulps. The bounds are the decompositions'
// measured errors (docs/compiler.md) with a margin.
void AddSpecialFunctionCases(std::vector<Case>* cases) {
  struct Special {
    const char* op;
    const char* variant;
    std::vector<InputSpec> inputs;
    ToleranceSpec f32;
    ToleranceSpec f64;
  };
  const std::vector<Special> specials = {
      {"lgamma", "positive", {RandomValues(2.5, 60)}, Ulps(16), Ulps(16)},
      {"lgamma",
       "zeros_and_poles",
       {RandomValues(-9, 2.5)},
       Accumulation(40),
       Accumulation(40)},
      {"lgamma", "", {EdgeValues()}, Accumulation(40), Accumulation(40)},
      {"digamma", "positive", {RandomValues(2, 60)}, Ulps(16), Ulps(16)},
      {"digamma",
       "zeros_and_poles",
       {RandomValues(-9, 2)},
       Accumulation(40),
       Accumulation(600)},
      {"digamma", "", {EdgeValues()}, Accumulation(40), Accumulation(600)},
      {"bessel-i1e", "", {RandomValues(-40, 40)}, Ulps(16), Ulps(16)},
      {"bessel-i1e", "", {EdgeValues()}, Ulps(16), Ulps(16)},
      {"zeta",
       "",
       {RandomValues(1.5, 12), RandomValues(0.5, 20)},
       Ulps(8),
       Ulps(8)},
      {"polygamma",
       "",
       {IndexValues(1, 5), RandomValues(0.5, 10)},
       Ulps(32),
       Ulps(64)},
      {"polygamma",
       "digamma",
       {IndexValues(0, 0), RandomValues(2, 10)},
       Ulps(16),
       Ulps(16)},
      {"next-after", "", {RandomValues(), RandomValues()}, Exact(), Exact()},
      {"next-after", "", {EdgeValues(0), EdgeValues(1)}, Exact(), Exact()},
  };
  for (const Special& special : specials) {
    for (const ElementType type :
         {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
      const bool edge = special.inputs[0].values == ValueClass::kEdge;
      const int64_t edges = EdgeValueCount(type);
      const std::vector<int64_t> dims =
          edge ? std::vector<int64_t>{special.inputs.size() == 2 ? edges * edges
                                                                 : edges}
               : std::vector<int64_t>{7, 13};
      Case c = NumericCase(
          special.op, special.variant, type, 1, edge ? "1d" : "odd",
          edge ? "edge" : "random", "", special.inputs,
          type == PHAL_ELEMENT_TYPE_F64 ? special.f64 : special.f32);
      std::vector<std::string> lines;
      std::string operands;
      for (int i = 0; i < static_cast<int>(special.inputs.size()); ++i) {
        lines.push_back(ParameterLine(i, type, dims));
        operands += (i == 0 ? "p" : ", p") + std::to_string(i);
      }
      lines.push_back("ROOT r = " + ShapeText(type, dims) + " " + special.op +
                      "(" + operands + ")");
      c.module_text = ModuleText(c.id, {}, lines);
      cases->push_back(std::move(c));
    }
  }
}

// StableHLO's i1 is one bit: bitcast_convert packs a last dimension of
// i1 into one wider element, least significant bit first, and unpacks it
// back. The front end lowers the StableHLO program to the HLO the case
// runs.
void AddBitcastConvertOfI1Cases(std::vector<Case>* cases) {
  struct Packing {
    const char* wide_type;  // as StableHLO spells it
    ElementType wide;
    int bits;
  };
  const std::vector<Packing> packings = {{"ui8", PHAL_ELEMENT_TYPE_U8, 8},
                                         {"i8", PHAL_ELEMENT_TYPE_S8, 8},
                                         {"f32", PHAL_ELEMENT_TYPE_F32, 32}};
  for (const Packing& packing : packings) {
    const std::string wide =
        "tensor<20x" + std::string(packing.wide_type) + ">";
    const std::string bits =
        "tensor<20x" + std::to_string(packing.bits) + "xi1>";
    for (const bool to_bits : {false, true}) {
      const std::string from = to_bits ? wide : bits;
      const std::string to = to_bits ? bits : wide;
      const std::string variant =
          std::string("from_") +
          (to_bits ? ElementTypeName(packing.wide) : "i1") + "_bits";
      Case c = NumericCase("bitcast-convert", variant,
                           to_bits ? PHAL_ELEMENT_TYPE_PRED : packing.wide, 3,
                           "1d", to_bits ? "edge" : "random", "",
                           {to_bits ? EdgeValues() : RandomValues()}, Exact());
      const std::string program =
          "func.func @main(%x: " + from + ") -> " + to + " {\n" +
          "  %r = stablehlo.bitcast_convert %x : (" + from + ") -> " + to +
          "\n  return %r : " + to + "\n}\n";
      StatusOr<StableHloModule> lowered = ParseStableHlo(program, c.id);
      c.module_text = lowered.ok() ? HloModuleToText(*lowered->module)
                                   : lowered.status().ToString();
      cases->push_back(std::move(c));
    }
  }
}

void AddReducePrecisionCases(std::vector<Case>* cases) {
  struct Format {
    ElementType type;
    int exponent_bits;
    int mantissa_bits;
  };
  const std::vector<Format> formats = {{PHAL_ELEMENT_TYPE_F32, 5, 10},
                                       {PHAL_ELEMENT_TYPE_F32, 8, 7},
                                       {PHAL_ELEMENT_TYPE_F64, 8, 23},
                                       {PHAL_ELEMENT_TYPE_F16, 4, 3}};
  for (const Format& format : formats) {
    const std::string variant = "e" + std::to_string(format.exponent_bits) +
                                "m" + std::to_string(format.mantissa_bits);
    for (const bool edge : {false, true}) {
      const std::vector<int64_t> dims =
          edge ? std::vector<int64_t>{EdgeValueCount(format.type)}
               : std::vector<int64_t>{7, 13};
      Case c =
          NumericCase("reduce-precision", variant, format.type, 3,
                      edge ? "1d" : "odd", edge ? "edge" : "random", "",
                      {edge ? EdgeValues() : RandomValues(-1e5, 1e5)}, Exact());
      c.module_text = ModuleText(
          c.id, {},
          {ParameterLine(0, format.type, dims),
           "ROOT r = " + ShapeText(format.type, dims) +
               " reduce-precision(p0), exponent_bits=" +
               std::to_string(format.exponent_bits) +
               ", mantissa_bits=" + std::to_string(format.mantissa_bits)});
      cases->push_back(std::move(c));
    }
  }
}

void AddComplexConstructionCases(std::vector<Case>* cases) {
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
    const ElementType result = type == PHAL_ELEMENT_TYPE_F32
                                   ? PHAL_ELEMENT_TYPE_C64
                                   : PHAL_ELEMENT_TYPE_C128;
    const int64_t edges = EdgeValueCount(type);
    Case c = NumericCase("complex", "", result, 3, "1d", "edge", "",
                         {EdgeValues(0), EdgeValues(1)}, Exact());
    c.module_text =
        ModuleText(c.id, {},
                   {ParameterLine(0, type, {edges * edges}),
                    ParameterLine(1, type, {edges * edges}),
                    "ROOT r = " + ShapeText(result, {edges * edges}) +
                        " complex(p0, p1)"});
    cases->push_back(std::move(c));
  }
}

// Binary ops with an operand the compiler sees as a constant, as JAX writes
// `x * 0.0` (multiply(x, broadcast(constant(0)))): each literal on either
// side of every edge value, all in one output. Drivers that fold arithmetic
// on a constant they can see against IEEE rules (x * 0 -> 0 drops NaN and
// the sign of zero, x + 0 -> x keeps -0) fail here, where operands read
// from parameters pass.
void AddLiteralOperandCases(std::vector<Case>* cases) {
  const char* literals[] = {"0", "-0", "1", "-1", "inf", "-inf", "nan"};
  const char* names[] = {"add",    "subtract",  "multiply",
                         "divide", "maximum",   "minimum",
                         "power",  "remainder", "atan2"};
  const std::vector<ElementwiseOp> ops = ElementwiseOps();
  for (ElementType type : FloatTypes()) {
    const int64_t edges = EdgeValueCount(type);
    const std::string scalar = ShapeText(type, {});
    const std::string vector = ShapeText(type, {edges});
    for (const char* name : names) {
      const ElementwiseOp* op = nullptr;
      for (const ElementwiseOp& candidate : ops) {
        if (std::string(candidate.name) == name) op = &candidate;
      }
      std::vector<std::string> lines = {ParameterLine(0, type, {edges})};
      std::string results;
      int64_t count = 0;
      for (size_t i = 0; i < std::size(literals); ++i) {
        const std::string n = std::to_string(i);
        lines.push_back("c" + n + " = " + scalar + " constant(" + literals[i] +
                        ")");
        lines.push_back("b" + n + " = " + vector + " broadcast(c" + n +
                        "), dimensions={}");
        lines.push_back("l" + n + " = " + vector + " " + name + "(p0, b" + n +
                        ")");
        lines.push_back("r" + n + " = " + vector + " " + name + "(b" + n +
                        ", p0)");
        results +=
            std::string(results.empty() ? "" : ", ") + "l" + n + ", r" + n;
        count += 2 * edges;
      }
      lines.push_back("ROOT out = " + ShapeText(type, {count}) +
                      " concatenate(" + results + "), dimensions={0}");
      Case c = NumericCase(name, "literal", type, op->tier, "1d", "edge", "",
                           {EdgeValues(0)}, ToleranceFor(*op, type));
      c.module_text = ModuleText(c.id, {}, lines);
      cases->push_back(std::move(c));
    }
  }
}

// An op whose two operands are one value: x - x is NaN for infinities and
// NaN, x / x too and for zeros; a compiler may not fold either to a
// constant.
void AddSameOperandCases(std::vector<Case>* cases) {
  const std::vector<ElementwiseOp> ops = ElementwiseOps();
  for (ElementType type : FloatTypes()) {
    const int64_t edges = EdgeValueCount(type);
    for (const ElementwiseOp& op : ops) {
      const std::string name = op.name;
      if (name != "add" && name != "subtract" && name != "multiply" &&
          name != "divide") {
        continue;
      }
      Case c = NumericCase(name, "same_operand", type, op.tier, "1d", "edge",
                           "", {EdgeValues(0)}, ToleranceFor(op, type));
      c.module_text = ModuleText(
          c.id, {},
          {ParameterLine(0, type, {edges}),
           "ROOT r = " + ShapeText(type, {edges}) + " " + name + "(p0, p0)"});
      cases->push_back(std::move(c));
    }
  }
}

}  // namespace

std::vector<Case> ElementwiseCases() {
  std::vector<Case> cases;
  for (const ElementwiseOp& op : ElementwiseOps()) AddOpCases(op, &cases);
  AddCompareCases(&cases);
  AddSelectAndClampCases(&cases);
  AddConvertCases(&cases);
  AddConvertRoundTripCases(&cases);
  AddBitcastConvertCases(&cases);
  AddBitcastConvertOfI1Cases(&cases);
  AddErfcTailCases(&cases);
  AddSpecialFunctionCases(&cases);
  AddReducePrecisionCases(&cases);
  AddComplexConstructionCases(&cases);
  AddLiteralOperandCases(&cases);
  AddSameOperandCases(&cases);
  return cases;
}

}  // namespace phal::conformance
