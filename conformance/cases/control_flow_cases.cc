// Tier 3 beyond elementwise ops: sort and topk, and control flow (while,
// conditional, call, map).
#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"

namespace phal::conformance {
namespace {

// A comparator over (key, value) pairs on the keys; floats in total order so
// NaN and signed zeros have one defined place.
std::string KeyComparator(ElementType key, ElementType value, bool pairs) {
  const std::string k = ShapeText(key, {});
  const std::string v = ShapeText(value, {});
  std::string text =
      "less {\n  a = " + k + " parameter(0)\n  b = " + k + " parameter(1)\n";
  if (pairs) {
    text += "  c = " + v + " parameter(2)\n  d = " + v + " parameter(3)\n";
  }
  return text + "  ROOT r = pred[] compare(a, b), direction=LT" +
         (IsFloat(key) ? ", type=TOTALORDER" : "") + "\n}\n";
}

void AddSortCases(std::vector<Case>* cases) {
  for (ElementType type : Join({FloatTypes(), IntegerTypes()})) {
    for (const bool edge : {false, true}) {
      Case c = NumericCase("sort", "", type, 3, edge ? "1d" : "odd",
                           edge ? "edge" : "random", "",
                           {edge ? EdgeValues() : RandomValues()}, Exact());
      const std::vector<int64_t> dims =
          edge ? std::vector<int64_t>{40} : std::vector<int64_t>{7, 13};
      c.module_text = ModuleText(
          c.id, {KeyComparator(type, type, false)},
          {ParameterLine(0, type, dims),
           "ROOT r = " + ShapeText(type, dims) + " sort(p0), dimensions={" +
               (edge ? "0" : "1") + "}, is_stable=true, to_apply=less"});
      cases->push_back(std::move(c));
    }
  }
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  struct Pairs {
    const char* shape_class;
    std::vector<int64_t> dims;
    int dimension;
  };
  for (const Pairs& p :
       {Pairs{"odd", {7, 13}, 0}, Pairs{"large", {300, 384}, 1}}) {
    Case c = NumericCase("sort", "key_value", f32, 3, p.shape_class, "random",
                         "", {RandomValues(-2, 2)}, Exact());
    const std::string keys = ShapeText(f32, p.dims);
    const std::string values = ShapeText(PHAL_ELEMENT_TYPE_S32, p.dims);
    c.module_text = ModuleText(
        c.id, {KeyComparator(f32, PHAL_ELEMENT_TYPE_S32, true)},
        {ParameterLine(0, f32, p.dims),
         "iota = " + values +
             " iota(), iota_dimension=" + std::to_string(p.dimension),
         "ROOT r = (" + keys + ", " + values +
             ") sort(p0, iota), dimensions={" + std::to_string(p.dimension) +
             "}, is_stable=true, to_apply=less"});
    cases->push_back(std::move(c));
  }
}

// Descending order, and keys of one type carrying values of another.
void AddSortVariants(std::vector<Case>* cases) {
  const ElementType s32 = PHAL_ELEMENT_TYPE_S32;
  Case descending = NumericCase("sort", "descending", s32, 3, "odd", "random",
                                "", {RandomValues()}, Exact());
  descending.module_text = ModuleText(
      descending.id,
      {BinaryComputation("greater", "compare", s32, ", direction=GT")},
      {ParameterLine(0, s32, {7, 13}),
       "ROOT r = s32[7,13] sort(p0), dimensions={1}, is_stable=true, "
       "to_apply=greater"});
  cases->push_back(std::move(descending));
  Case mixed =
      NumericCase("sort", "u16_keys_f64_values", PHAL_ELEMENT_TYPE_U16, 3, "1d",
                  "random", "", {RandomValues(), RandomValues()}, Exact());
  mixed.module_text = ModuleText(
      mixed.id,
      {KeyComparator(PHAL_ELEMENT_TYPE_U16, PHAL_ELEMENT_TYPE_F64, true)},
      {ParameterLine(0, PHAL_ELEMENT_TYPE_U16, {101}),
       ParameterLine(1, PHAL_ELEMENT_TYPE_F64, {101}),
       "ROOT r = (u16[101], f64[101]) sort(p0, p1), dimensions={0}, "
       "is_stable=true, to_apply=less"});
  cases->push_back(std::move(mixed));
}

void AddTopKCases(std::vector<Case>* cases) {
  for (ElementType type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_S32}) {
    for (const bool largest : {true, false}) {
      Case c =
          NumericCase("topk", largest ? "largest" : "smallest", type, 3, "npot",
                      "random", "", {RandomValues(-100, 100)}, Exact());
      c.module_text = ModuleText(c.id, {},
                                 {ParameterLine(0, type, {5, 40}),
                                  "ROOT r = (" + ShapeText(type, {5, 6}) +
                                      ", s32[5,6]) topk(p0), k=6, largest=" +
                                      (largest ? "true" : "false")});
      cases->push_back(std::move(c));
    }
  }
}

// Calls inside what becomes one kernel (a reducer, a mapped function, an
// elementwise chain), as JAX exports private functions: the compiler
// inlines them, since a kernel body cannot call.
void AddCallInKernelCases(std::vector<Case>* cases) {
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  const std::string larger =
      "larger {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n";
  Case reducer = NumericCase("call", "in_reducer", f32, 3, "odd", "random", "",
                             {RandomValues()}, Exact());
  reducer.module_text = ModuleText(
      reducer.id,
      {larger,
       "reducer {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
       "  ROOT c = f32[] call(x, y), to_apply=larger\n}\n"},
      {ParameterLine(0, f32, {7, 13}), "init = f32[] constant(-inf)",
       "ROOT r = f32[7] reduce(p0, init), dimensions={1}, to_apply=reducer"});
  cases->push_back(std::move(reducer));

  Case mapped = NumericCase("call", "in_map", f32, 3, "odd", "random", "",
                            {RandomValues(), RandomValues()}, Exact());
  mapped.module_text = ModuleText(
      mapped.id,
      {larger,
       "body {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n"
       "  n = f32[] negate(y)\n"
       "  ROOT c = f32[] call(x, n), to_apply=larger\n}\n"},
      {ParameterLine(0, f32, {7, 13}), ParameterLine(1, f32, {7, 13}),
       "ROOT r = f32[7,13] map(p0, p1), dimensions={0,1}, to_apply=body"});
  cases->push_back(std::move(mapped));

  Case chain =
      NumericCase("call", "in_elementwise_chain", f32, 3, "odd", "random", "",
                  {RandomValues(), RandomValues()}, Exact());
  chain.module_text = ModuleText(
      chain.id,
      {"square {\n  a = f32[7,13] parameter(0)\n"
       "  ROOT s = f32[7,13] multiply(a, a)\n}\n",
       "square_plus {\n  a = f32[7,13] parameter(0)\n"
       "  b = f32[7,13] parameter(1)\n"
       "  s = f32[7,13] call(a), to_apply=square\n"
       "  ROOT t = f32[7,13] add(s, b)\n}\n"},
      {ParameterLine(0, f32, {7, 13}), ParameterLine(1, f32, {7, 13}),
       "c = f32[7,13] call(p0, p1), to_apply=square_plus",
       "ROOT r = f32[7,13] negate(c)"});
  cases->push_back(std::move(chain));
}

void AddControlFlowCases(std::vector<Case>* cases) {
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  Case loop = NumericCase("while", "counted", f32, 3, "1d", "random", "",
                          {RandomValues()}, Accumulation(20));
  loop.module_text = ModuleText(
      loop.id,
      {"cond {\n  s = (s32[], f32[16]) parameter(0)\n"
       "  i = s32[] get-tuple-element(s), index=0\n"
       "  n = s32[] constant(10)\n"
       "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n",
       "body {\n  s = (s32[], f32[16]) parameter(0)\n"
       "  i = s32[] get-tuple-element(s), index=0\n"
       "  x = f32[16] get-tuple-element(s), index=1\n"
       "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
       "  h = f32[] constant(0.5)\n  hb = f32[16] broadcast(h), dimensions={}\n"
       "  y = f32[16] multiply(x, hb)\n  z = f32[16] add(y, hb)\n"
       "  ROOT t = (s32[], f32[16]) tuple(j, z)\n}\n"},
      {ParameterLine(0, f32, {16}), "zero = s32[] constant(0)",
       "init = (s32[], f32[16]) tuple(zero, p0)",
       "w = (s32[], f32[16]) while(init), condition=cond, body=body",
       "ROOT r = f32[16] get-tuple-element(w), index=1"});
  cases->push_back(std::move(loop));

  for (const bool by_index : {false, true}) {
    Case c = NumericCase(
        "conditional", by_index ? "index" : "pred", f32, 3, "1d", "random", "",
        {by_index ? IndexValues(-1, 3) : IndexValues(0, 1), RandomValues()},
        Exact());
    const std::string selector =
        by_index ? ParameterLine(0, PHAL_ELEMENT_TYPE_S32, {})
                 : ParameterLine(0, PHAL_ELEMENT_TYPE_PRED, {});
    const std::string branches =
        by_index
            ? "branch_computations={negate_branch, exp_branch, copy_branch}"
            : "true_computation=negate_branch, false_computation=exp_branch";
    c.module_text = ModuleText(
        c.id,
        {"negate_branch {\n  x = f32[8] parameter(0)\n  ROOT r = f32[8] "
         "negate(x)\n}\n",
         "exp_branch {\n  x = f32[8] parameter(0)\n  ROOT r = f32[8] "
         "floor(x)\n}\n",
         "copy_branch {\n  x = f32[8] parameter(0)\n  ROOT r = f32[8] "
         "abs(x)\n}\n"},
        {selector, ParameterLine(1, f32, {8}),
         "ROOT r = f32[8] conditional(p0, p1, p1" +
             std::string(by_index ? ", p1" : "") + "), " + branches});
    cases->push_back(std::move(c));
  }

  // A trip count that depends on the data: double until the sum passes a
  // bound given as a parameter.
  Case data_loop =
      NumericCase("while", "data_dependent", f32, 3, "1d", "random", "",
                  {RandomValues(0.5, 1), RandomValues(100, 1000)}, Exact());
  data_loop.module_text = ModuleText(
      data_loop.id,
      {BinaryComputation("sum", "add", f32),
       "cond {\n  s = (f32[16], f32[]) parameter(0)\n"
       "  x = f32[16] get-tuple-element(s), index=0\n"
       "  bound = f32[] get-tuple-element(s), index=1\n"
       "  zero = f32[] constant(0)\n"
       "  total = f32[] reduce(x, zero), dimensions={0}, to_apply=sum\n"
       "  ROOT lt = pred[] compare(total, bound), direction=LT\n}\n",
       "body {\n  s = (f32[16], f32[]) parameter(0)\n"
       "  x = f32[16] get-tuple-element(s), index=0\n"
       "  bound = f32[] get-tuple-element(s), index=1\n"
       "  y = f32[16] add(x, x)\n"
       "  ROOT t = (f32[16], f32[]) tuple(y, bound)\n}\n"},
      {ParameterLine(0, f32, {16}), ParameterLine(1, f32, {}),
       "init = (f32[16], f32[]) tuple(p0, p1)",
       "w = (f32[16], f32[]) while(init), condition=cond, body=body",
       "ROOT r = f32[16] get-tuple-element(w), index=0"});
  cases->push_back(std::move(data_loop));

  Case call = NumericCase("call", "", f32, 3, "odd", "random", "",
                          {RandomValues(), RandomValues()}, Exact());
  call.module_text = ModuleText(
      call.id,
      {"muladd {\n  a = f32[7,13] parameter(0)\n  b = f32[7,13] parameter(1)\n"
       "  m = f32[7,13] multiply(a, b)\n  ROOT r = f32[7,13] add(m, a)\n}\n"},
      {ParameterLine(0, f32, {7, 13}), ParameterLine(1, f32, {7, 13}),
       "ROOT r = f32[7,13] call(p0, p1), to_apply=muladd"});
  cases->push_back(std::move(call));

  AddCallInKernelCases(cases);

  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32}) {
    Case map = NumericCase("map", "", type, 3, "odd", "random", "",
                           {RandomValues(), RandomValues()}, Exact());
    map.module_text = ModuleText(
        map.id, {BinaryComputation("combine", "maximum", type)},
        {ParameterLine(0, type, {7, 13}), ParameterLine(1, type, {7, 13}),
         "ROOT r = " + ShapeText(type, {7, 13}) +
             " map(p0, p1), dimensions={0,1}, to_apply=combine"});
    cases->push_back(std::move(map));
  }
}

}  // namespace

std::vector<Case> ControlFlowCases() {
  std::vector<Case> cases;
  AddSortCases(&cases);
  AddSortVariants(&cases);
  AddTopKCases(&cases);
  AddControlFlowCases(&cases);
  return cases;
}

}  // namespace phal::conformance
