// Model-level cases: whole programs as frameworks emit them, where fusion,
// buffer reuse and control flow meet.
#include <map>

#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"
#include "conformance/cases/model_texts.h"

namespace phal::conformance {
namespace {

struct ModelSpec {
  int tier;
  int64_t accumulation;  // terms along the longest accumulation chain
};

// Tiers and bounds of the JAX models, by file stem.
const std::map<std::string, ModelSpec>& JaxModelSpecs() {
  static const std::map<std::string, ModelSpec> specs = {
      {"mlp", {1, 64}},
      {"transformer_block", {1, 256}},
      {"mixed_precision", {1, 16}},
      {"f64_ops", {1, 16}},
      {"convnet", {2, 256}},
      {"while_loop", {3, 1000}},
      {"sort_gather", {3, 1}},
      {"integer_ops", {3, 1}},
      {"fft_ops", {3, 70}}};
  return specs;
}

Case ModelCase(const std::string& name, int tier, ToleranceSpec tolerance,
               std::string text) {
  Case c;
  c.id = "model." + name;
  c.op = "model." + name;
  c.dtype = "-";
  c.tier = tier;
  c.shape_class = "model";
  c.value_class = "random";
  c.kind = CaseKind::kNumeric;
  c.module_text = std::move(text);
  c.seed = 7;
  c.tolerance = tolerance;
  for (int i = 0; i < 8; ++i) c.inputs.push_back(RandomValues(-1, 1));
  return c;
}

// A while loop of 5000 iterations carrying a counter, an f32 vector and an
// s64 sum: thousands of host round trips of the loop condition.
Case LongLoopCase() {
  return ModelCase(
      "long_while", 3, Accumulation(5000),
      "HloModule long_while\n\n"
      "cond {\n  s = (s32[], f32[8], s64[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  n = s32[] constant(5000)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n"
      "body {\n  s = (s32[], f32[8], s64[]) parameter(0)\n"
      "  i = s32[] get-tuple-element(s), index=0\n"
      "  x = f32[8] get-tuple-element(s), index=1\n"
      "  acc = s64[] get-tuple-element(s), index=2\n"
      "  one = s32[] constant(1)\n  j = s32[] add(i, one)\n"
      "  k = f32[] constant(0.999)\n  kb = f32[8] broadcast(k), dimensions={}\n"
      "  y = f32[8] multiply(x, kb)\n"
      "  iw = s64[] convert(i)\n  acc2 = s64[] add(acc, iw)\n"
      "  ROOT t = (s32[], f32[8], s64[]) tuple(j, y, acc2)\n}\n\n"
      "ENTRY main {\n  p0 = f32[8] parameter(0)\n"
      "  zero = s32[] constant(0)\n  zero64 = s64[] constant(0)\n"
      "  init = (s32[], f32[8], s64[]) tuple(zero, p0, zero64)\n"
      "  w = (s32[], f32[8], s64[]) while(init), condition=cond, body=body\n"
      "  x = f32[8] get-tuple-element(w), index=1\n"
      "  acc = s64[] get-tuple-element(w), index=2\n"
      "  ROOT r = (f32[8], s64[]) tuple(x, acc)\n}\n");
}

// Nested tuple results, one of them a parameter passed straight through and
// one repeated: results are flattened depth-first and each is its own
// buffer.
Case TupleOutputsCase() {
  return ModelCase(
      "tuple_outputs", 3, Exact(),
      "HloModule tuple_outputs\n\n"
      "ENTRY main {\n  p0 = f32[5,3] parameter(0)\n  p1 = s32[4] parameter(1)\n"
      "  n = f32[5,3] negate(p0)\n  t = f32[3,5] transpose(n), "
      "dimensions={1,0}\n"
      "  inner = (f32[5,3], f32[3,5]) tuple(n, t)\n"
      "  ROOT r = ((f32[5,3], f32[3,5]), s32[4], f32[5,3], f32[5,3]) "
      "tuple(inner, p1, p0, n)\n}\n");
}

}  // namespace

std::vector<Case> ModelCases() {
  std::vector<Case> cases;
  for (const ModelText& model : JaxModelTexts()) {
    auto spec = JaxModelSpecs().find(model.name);
    const ModelSpec s =
        spec == JaxModelSpecs().end() ? ModelSpec{3, 256} : spec->second;
    cases.push_back(
        ModelCase(model.name, s.tier,
                  s.accumulation > 1 ? Accumulation(s.accumulation) : Exact(),
                  model.hlo));
  }
  cases.push_back(LongLoopCase());
  cases.push_back(TupleOutputsCase());
  return cases;
}

}  // namespace phal::conformance
