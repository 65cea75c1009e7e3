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

// Programs shaped for a graph compiler (plugin.h, ABI 1.13 whole
// programs): chains of several kernels whose intermediates a whole-program
// plugin keeps on chip, values returned from the middle of a chain, and
// products between elementwise work, so that a plugin declining some
// operations meets kernels and parts in one program.

// Attention's core: q k^T, a row softmax, times v.
Case GraphAttentionCase() {
  return ModelCase(
      "graph_attention_core", 2, Accumulation(64),
      "HloModule graph_attention_core\n\n"
      "max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n\n"
      "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n"
      "ENTRY main {\n  q = f32[2,16,32] parameter(0)\n"
      "  k = f32[2,16,32] parameter(1)\n  v = f32[2,16,32] parameter(2)\n"
      "  s = f32[2,16,16] dot(q, k), lhs_batch_dims={0}, "
      "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
      "rhs_contracting_dims={2}\n"
      "  scale = f32[] constant(0.17677669)\n"
      "  sb = f32[2,16,16] broadcast(scale), dimensions={}\n"
      "  ss = f32[2,16,16] multiply(s, sb)\n"
      "  ninf = f32[] constant(-inf)\n"
      "  m = f32[2,16] reduce(ss, ninf), dimensions={2}, to_apply=max_f32\n"
      "  mb = f32[2,16,16] broadcast(m), dimensions={0,1}\n"
      "  d = f32[2,16,16] subtract(ss, mb)\n"
      "  e = f32[2,16,16] exponential(d)\n  zero = f32[] constant(0)\n"
      "  sum = f32[2,16] reduce(e, zero), dimensions={2}, to_apply=add_f32\n"
      "  sumb = f32[2,16,16] broadcast(sum), dimensions={0,1}\n"
      "  p = f32[2,16,16] divide(e, sumb)\n"
      "  ROOT o = f32[2,16,32] dot(p, v), lhs_batch_dims={0}, "
      "lhs_contracting_dims={2}, rhs_batch_dims={0}, "
      "rhs_contracting_dims={1}\n}\n");
}

// A convolution with its bias, a normalisation over the channels and a
// ReLU, returning the pre-activation value as well.
Case GraphConvBlockCase() {
  return ModelCase(
      "graph_conv_block", 2, Accumulation(72),
      "HloModule graph_conv_block\n\n"
      "add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n"
      "ENTRY main {\n  x = f32[2,8,8,4] parameter(0)\n"
      "  w = f32[3,3,4,8] parameter(1)\n  bias = f32[8] parameter(2)\n"
      "  c = f32[2,8,8,8] convolution(x, w), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=b01f_01io->b01f\n"
      "  bb = f32[2,8,8,8] broadcast(bias), dimensions={3}\n"
      "  y = f32[2,8,8,8] add(c, bb)\n  zero = f32[] constant(0)\n"
      "  sum = f32[2,8,8] reduce(y, zero), dimensions={3}, to_apply=add_f32\n"
      "  n = f32[] constant(0.125)\n"
      "  nb = f32[2,8,8] broadcast(n), dimensions={}\n"
      "  mean = f32[2,8,8] multiply(sum, nb)\n"
      "  mb = f32[2,8,8,8] broadcast(mean), dimensions={0,1,2}\n"
      "  centred = f32[2,8,8,8] subtract(y, mb)\n"
      "  sq = f32[2,8,8,8] multiply(centred, centred)\n"
      "  var = f32[2,8,8] reduce(sq, zero), dimensions={3}, "
      "to_apply=add_f32\n"
      "  vm = f32[2,8,8] multiply(var, nb)\n  eps = f32[] constant(1e-05)\n"
      "  eb = f32[2,8,8] broadcast(eps), dimensions={}\n"
      "  ve = f32[2,8,8] add(vm, eb)\n  r = f32[2,8,8] rsqrt(ve)\n"
      "  rb = f32[2,8,8,8] broadcast(r), dimensions={0,1,2}\n"
      "  normed = f32[2,8,8,8] multiply(centred, rb)\n"
      "  zb = f32[2,8,8,8] broadcast(zero), dimensions={}\n"
      "  relu = f32[2,8,8,8] maximum(normed, zb)\n"
      "  ROOT out = (f32[2,8,8,8], f32[2,8,8,8]) tuple(relu, y)\n}\n");
}

// Two layers of dot and tanh whose hidden value is also returned, with an
// integer side computation beside them.
Case GraphLayersCase() {
  return ModelCase(
      "graph_layers", 2, Accumulation(32),
      "HloModule graph_layers\n\n"
      "ENTRY main {\n  x = f32[8,32] parameter(0)\n"
      "  w1 = f32[32,32] parameter(1)\n  w2 = f32[32,16] parameter(2)\n"
      "  ids = s32[8] parameter(3)\n"
      "  h = f32[8,32] dot(x, w1), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n"
      "  t = f32[8,32] tanh(h)\n"
      "  o = f32[8,16] dot(t, w2), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n"
      "  three = s32[] constant(3)\n"
      "  tb = s32[8] broadcast(three), dimensions={}\n"
      "  scaled = s32[8] multiply(ids, tb)\n"
      "  ROOT r = (f32[8,16], f32[8,32], s32[8]) tuple(o, t, scaled)\n}\n");
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
  cases.push_back(GraphAttentionCase());
  cases.push_back(GraphConvBlockCase());
  cases.push_back(GraphLayersCase());
  return cases;
}

}  // namespace phal::conformance
