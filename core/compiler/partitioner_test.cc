// Differential tests of partitioning: each program is compiled to KIR, run
// on the evaluator device through the executor, and compared with the
// reference interpreter (bit for bit unless a tolerance is given).
#include <string>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "core/testing/element_type_params.h"
#include "sdk/kir/facts.h"

namespace phal::testing {
namespace {

std::string UnaryModule(const std::string& type) {
  return "HloModule unary\nENTRY main {\n"
         "  x = " +
         type +
         "[3,5] parameter(0)\n"
         "  a = " +
         type +
         "[3,5] abs(x)\n"
         "  one = " +
         type +
         "[] constant(1)\n"
         "  ones = " +
         type +
         "[3,5] broadcast(one), dimensions={}\n"
         "  a1 = " +
         type +
         "[3,5] add(a, ones)\n"
         "  e = " +
         type +
         "[3,5] exponential(x)\n"
         "  l = " +
         type +
         "[3,5] log(a1)\n"
         "  t = " +
         type +
         "[3,5] tanh(x)\n"
         "  s = " +
         type +
         "[3,5] sqrt(a)\n"
         "  r = " +
         type +
         "[3,5] rsqrt(a1)\n"
         "  n = " +
         type +
         "[3,5] negate(x)\n"
         "  f = " +
         type +
         "[3,5] floor(x)\n"
         "  c = " +
         type +
         "[3,5] ceil(x)\n"
         "  g = " +
         type +
         "[3,5] logistic(x)\n"
         "  sn = " +
         type +
         "[3,5] sine(x)\n"
         "  cs = " +
         type +
         "[3,5] cosine(x)\n"
         "  rn = " +
         type +
         "[3,5] round-nearest-even(x)\n"
         "  sg = " +
         type +
         "[3,5] sign(x)\n"
         "  em = " +
         type +
         "[3,5] exponential-minus-one(x)\n"
         "  lp = " +
         type +
         "[3,5] log-plus-one(a)\n"
         "  er = " +
         type +
         "[3,5] erf(x)\n"
         "  fin = pred[3,5] is-finite(l)\n"
         "  ROOT out = (" +
         type + "[3,5], " + type + "[3,5], " + type + "[3,5], " + type +
         "[3,5], " + type + "[3,5], " + type + "[3,5], " + type + "[3,5], " +
         type + "[3,5], " + type + "[3,5], " + type + "[3,5], " + type +
         "[3,5], " + type + "[3,5], " + type + "[3,5], " + type + "[3,5], " +
         type + "[3,5], " + type +
         "[3,5], pred[3,5]) tuple(e, l, t, s, r, n, "
         "f, c, g, sn, cs, rn, sg, em, lp, er, fin)\n}\n";
}

class FloatTypes : public ::testing::TestWithParam<ElementType> {};

TEST_P(FloatTypes, UnaryOpsMatchReference) {
  const ElementType type = GetParam();
  ExpectMatchesReference(UnaryModule(ElementTypeName(type)),
                         {TestData(type, {3, 5})});
}

TEST_P(FloatTypes, BinaryOpsCompareSelectAndClampMatchReference) {
  const std::string t = ElementTypeName(GetParam());
  const std::string text =
      "HloModule binary\nENTRY main {\n"
      "  x = " +
      t +
      "[4,3] parameter(0)\n"
      "  y = " +
      t +
      "[4,3] parameter(1)\n"
      "  add = " +
      t +
      "[4,3] add(x, y)\n"
      "  sub = " +
      t +
      "[4,3] subtract(x, y)\n"
      "  mul = " +
      t +
      "[4,3] multiply(x, y)\n"
      "  div = " +
      t +
      "[4,3] divide(x, y)\n"
      "  max = " +
      t +
      "[4,3] maximum(x, y)\n"
      "  min = " +
      t +
      "[4,3] minimum(x, y)\n"
      "  pow = " +
      t +
      "[4,3] power(x, y)\n"
      "  rem = " +
      t +
      "[4,3] remainder(x, y)\n"
      "  at = " +
      t +
      "[4,3] atan2(x, y)\n"
      "  lt = pred[4,3] compare(x, y), direction=LT\n"
      "  sel = " +
      t +
      "[4,3] select(lt, add, mul)\n"
      "  lo = " +
      t +
      "[] constant(-1)\n"
      "  hi = " +
      t +
      "[] constant(0.5)\n"
      "  cl = " +
      t +
      "[4,3] clamp(lo, sub, hi)\n"
      "  ROOT out = (" +
      t + "[4,3], " + t + "[4,3], " + t + "[4,3], " + t + "[4,3], " + t +
      "[4,3], " + t + "[4,3], " + t + "[4,3], " + t + "[4,3], " + t +
      "[4,3]) tuple(div, max, min, pow, rem, at, sel, cl, "
      "sub)\n}\n";
  ExpectMatchesReference(
      text, {TestData(GetParam(), {4, 3}, 0), TestData(GetParam(), {4, 3}, 1)});
}

INSTANTIATE_TEST_SUITE_P(Compiler, FloatTypes,
                         ::testing::Values(PHAL_ELEMENT_TYPE_F16,
                                           PHAL_ELEMENT_TYPE_BF16,
                                           PHAL_ELEMENT_TYPE_F32,
                                           PHAL_ELEMENT_TYPE_F64),
                         ElementTypeParamName());

class IntegerTypes : public ::testing::TestWithParam<ElementType> {};

TEST_P(IntegerTypes, ArithmeticBitwiseAndShiftsMatchReference) {
  const std::string t = ElementTypeName(GetParam());
  const std::string text =
      "HloModule integer\nENTRY main {\n"
      "  x = " +
      t +
      "[6] parameter(0)\n"
      "  y = " +
      t +
      "[6] parameter(1)\n"
      "  one = " +
      t +
      "[] constant(1)\n"
      "  ones = " +
      t +
      "[6] broadcast(one), dimensions={}\n"
      "  ay = " +
      t +
      "[6] maximum(y, ones)\n"
      "  add = " +
      t +
      "[6] add(x, y)\n"
      "  sub = " +
      t +
      "[6] subtract(x, y)\n"
      "  mul = " +
      t +
      "[6] multiply(x, y)\n"
      "  div = " +
      t +
      "[6] divide(x, ay)\n"
      "  rem = " +
      t +
      "[6] remainder(x, ay)\n"
      "  and = " +
      t +
      "[6] and(x, y)\n"
      "  or = " +
      t +
      "[6] or(x, y)\n"
      "  xor = " +
      t +
      "[6] xor(x, y)\n"
      "  not = " +
      t +
      "[6] not(x)\n"
      "  shl = " +
      t +
      "[6] shift-left(x, ones)\n"
      "  sra = " +
      t +
      "[6] shift-right-arithmetic(x, ones)\n"
      "  srl = " +
      t +
      "[6] shift-right-logical(x, ones)\n"
      "  pc = " +
      t +
      "[6] popcnt(x)\n"
      "  clz = " +
      t +
      "[6] count-leading-zeros(x)\n"
      "  ge = pred[6] compare(x, y), direction=GE\n"
      "  f = f32[6] convert(x)\n"
      "  ROOT out = (" +
      t + "[6], " + t + "[6], " + t + "[6], " + t + "[6], " + t + "[6], " + t +
      "[6], " + t + "[6], " + t + "[6], " + t + "[6], " + t + "[6], " + t +
      "[6], " + t + "[6], " + t + "[6], " + t +
      "[6], pred[6], f32[6]) tuple(add, sub, mul, div, rem, and, or, xor, "
      "not, shl, sra, srl, pc, clz, ge, f)\n}\n";
  ExpectMatchesReference(
      text, {TestData(GetParam(), {6}, 0), TestData(GetParam(), {6}, 1)});
}

INSTANTIATE_TEST_SUITE_P(
    Compiler, IntegerTypes,
    ::testing::Values(PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S16,
                      PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S64,
                      PHAL_ELEMENT_TYPE_U8, PHAL_ELEMENT_TYPE_U16,
                      PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_U64),
    ElementTypeParamName());

TEST(Partitioner, PredicateLogicAndConvertsMatchReference) {
  ExpectMatchesReference(R"(
HloModule preds
ENTRY main {
  a = pred[5] parameter(0)
  b = pred[5] parameter(1)
  x = f32[5] parameter(2)
  and = pred[5] and(a, b)
  or = pred[5] or(a, b)
  not = pred[5] not(a)
  fx = f16[5] convert(x)
  ix = s32[5] convert(x)
  bx = bf16[5] convert(ix)
  bits = s32[5] bitcast-convert(x)
  rp = f32[5] reduce-precision(x), exponent_bits=5, mantissa_bits=10
  c = c64[5] complex(x, x)
  re = f32[5] real(c)
  ab = f32[5] abs(c)
  ROOT out = (pred[5], pred[5], pred[5], f16[5], s32[5], bf16[5], s32[5], f32[5], f32[5], f32[5]) tuple(and, or, not, fx, ix, bx, bits, rp, re, ab)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_PRED, {5}, 0),
                          TestData(PHAL_ELEMENT_TYPE_PRED, {5}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {5})});
}

TEST(Partitioner, DataMovementIsIndexArithmetic) {
  ExpectMatchesReference(R"(
HloModule movement
ENTRY main {
  x = f32[2,3,4] parameter(0)
  v = f32[4] parameter(1)
  b = f32[2,3,4] broadcast(v), dimensions={2}
  t = f32[4,2,3] transpose(x), dimensions={2,0,1}
  r = f32[6,4] reshape(x)
  s = f32[1,2,2] slice(x), slice={[1:2], [0:3:2], [1:4:2]}
  c = f32[2,3,8] concatenate(x, b), dimensions={2}
  zero = f32[] constant(0)
  p = f32[3,6,4] pad(x, zero), padding=1_0x0_1_1x1_-1
  rv = f32[2,3,4] reverse(x), dimensions={0,2}
  i = s32[2,3,4] iota(), iota_dimension=1
  fi = f32[2,3,4] convert(i)
  sum = f32[2,3,4] add(rv, fi)
  ROOT out = (f32[2,3,4], f32[4,2,3], f32[6,4], f32[1,2,2], f32[2,3,8], f32[3,6,4], f32[2,3,4]) tuple(b, t, r, s, c, p, sum)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 4}),
                          TestData(PHAL_ELEMENT_TYPE_F32, {4}, 1)});
}

TEST(Partitioner, DynamicSliceAndUpdateClampStarts) {
  ExpectMatchesReference(R"(
HloModule dynamic
ENTRY main {
  x = s32[5,4] parameter(0)
  u = s32[2,2] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ds = s32[2,3] dynamic-slice(x, i, j), dynamic_slice_sizes={2,3}
  dus = s32[5,4] dynamic-update-slice(x, u, i, j)
  ROOT out = (s32[2,3], s32[5,4]) tuple(ds, dus)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_S32, {5, 4}),
                          TestData(PHAL_ELEMENT_TYPE_S32, {2, 2}, 1),
                          Literal::Scalar(PHAL_ELEMENT_TYPE_S32, 4),
                          Literal::Scalar(PHAL_ELEMENT_TYPE_S32, -1)});
}

TEST(Partitioner, SoftmaxReducesWithFusedPrologueAndEpilogue) {
  ExpectMatchesReference(R"(
HloModule softmax
max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4,6] parameter(0)
  ninf = f32[] constant(-inf)
  m = f32[4] reduce(x, ninf), dimensions={1}, to_apply=max_f32
  mb = f32[4,6] broadcast(m), dimensions={0}
  d = f32[4,6] subtract(x, mb)
  e = f32[4,6] exponential(d)
  zero = f32[] constant(0)
  s = f32[4] reduce(e, zero), dimensions={1}, to_apply=add_f32
  sb = f32[4,6] broadcast(s), dimensions={0}
  ROOT y = f32[4,6] divide(e, sb)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {4, 6})});
}

TEST(Partitioner, VariadicReduceArgmaxAndMeanEpilogue) {
  ExpectMatchesReference(R"(
HloModule argmax
argmax {
  av = f32[] parameter(0)
  ai = s32[] parameter(1)
  bv = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(av, bv), direction=GE
  v = f32[] select(gt, av, bv)
  i = s32[] select(gt, ai, bi)
  ROOT r = (f32[], s32[]) tuple(v, i)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[3,7] parameter(0)
  idx = s32[3,7] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  am = (f32[3], s32[3]) reduce(x, idx, ninf, zero), dimensions={1}, to_apply=argmax
  fz = f32[] constant(0)
  sum = f32[3] reduce(x, fz), dimensions={1}, to_apply=add
  n = f32[] constant(7)
  nb = f32[3] broadcast(n), dimensions={}
  mean = f32[3] divide(sum, nb)
  colsum = f32[7] reduce(x, fz), dimensions={0}, to_apply=add
  all = f32[] reduce(x, fz), dimensions={0,1}, to_apply=add
  v = f32[3] get-tuple-element(am), index=0
  i = s32[3] get-tuple-element(am), index=1
  ROOT out = (f32[3], s32[3], f32[3], f32[7], f32[]) tuple(v, i, mean, colsum, all)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {3, 7})});
}

TEST(Partitioner, ReduceWindowWithPaddingStridesAndDilation) {
  ExpectMatchesReference(R"(
HloModule pool
max {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[1,5,6,2] parameter(0)
  ninf = f32[] constant(-inf)
  zero = f32[] constant(0)
  mp = f32[1,3,3,2] reduce-window(x, ninf), window={size=1x3x3x1 stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, to_apply=max
  ap = f32[1,8,5,2] reduce-window(x, zero), window={size=1x2x2x1 lhs_dilate=1x2x1x1 rhs_dilate=1x1x2x1 pad=0_0x0_0x1_0x0_0}, to_apply=add
  ROOT out = (f32[1,3,3,2], f32[1,8,5,2]) tuple(mp, ap)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {1, 5, 6, 2})});
}

TEST(Partitioner, MlpDotsWithBiasAndReluEpilogues) {
  ExpectMatchesReference(R"(
HloModule mlp
ENTRY main {
  x = f32[4,8] parameter(0)
  w1 = f32[8,16] parameter(1)
  b1 = f32[16] parameter(2)
  w2 = f32[16,3] parameter(3)
  h = f32[4,16] dot(x, w1), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  bb = f32[4,16] broadcast(b1), dimensions={1}
  hb = f32[4,16] add(h, bb)
  zero = f32[] constant(0)
  zeros = f32[4,16] broadcast(zero), dimensions={}
  r = f32[4,16] maximum(hb, zeros)
  ROOT y = f32[4,3] dot(r, w2), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {4, 8}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {8, 16}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {16}, 2),
                          TestData(PHAL_ELEMENT_TYPE_F32, {16, 3}, 3)});
}

// The s32 sum of an integer dot dies in the loop that converts it to f32:
// that loop must not write its f32 result in place over the s32 buffer,
// whose description then disagrees with what the kernel writes.
TEST(Partitioner, LoopsWriteInPlaceOnlyOverBuffersOfTheirElementType) {
  const std::string text = R"(
HloModule int8_dot
ENTRY main {
  a = s8[8,16] parameter(0)
  b = s8[16,10] parameter(1)
  d = s32[8,10] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  c = f32[8,10] convert(d)
  k = f32[] constant(0.25)
  kb = f32[8,10] broadcast(k), dimensions={}
  ROOT m = f32[8,10] multiply(c, kb)
}
)";
  std::unique_ptr<Program> program = CompileText(text);
  ASSERT_NE(program, nullptr);
  for (const std::unique_ptr<KirKernel>& kernel : program->kernels) {
    const Status checked = CheckKernelStructure(kernel->Desc());
    EXPECT_TRUE(checked.ok()) << checked.ToString();
  }
  ExpectMatchesReference(text, {TestData(PHAL_ELEMENT_TYPE_S8, {8, 16}, 0),
                                TestData(PHAL_ELEMENT_TYPE_S8, {16, 10}, 1)});
}

// A quantized layer as JAX writes it for the CPU: both 8-bit operands
// widened to s32, the weights' widened values also summed by columns (the
// zero-point correction). The dot still reads the 8-bit buffers, and the
// column sums convert on the fly too: no kernel writes the widened
// weights.
TEST(Partitioner, ConvertsADotFoldsAreRecomputedWhereOthersReadThem) {
  const std::string text = R"(
HloModule quantized
add {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
ENTRY main {
  x = u8[8,40] parameter(0)
  w = s8[40,12] parameter(1)
  xw = s32[8,40] convert(x)
  ww = s32[40,12] convert(w)
  d = s32[8,12] dot(xw, ww), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  zero = s32[] constant(0)
  sums = s32[12] reduce(ww, zero), dimensions={0}, to_apply=add
  z = s32[] constant(3)
  zs = s32[12] broadcast(z), dimensions={}
  corr = s32[12] multiply(sums, zs)
  cb = s32[8,12] broadcast(corr), dimensions={1}
  ROOT out = s32[8,12] subtract(d, cb)
}
)";
  std::unique_ptr<Program> program = CompileText(text);
  ASSERT_NE(program, nullptr);
  for (const std::unique_ptr<KirKernel>& kernel : program->kernels) {
    for (const KirBuffer& buffer : kernel->buffers()) {
      EXPECT_FALSE(buffer.element_type == PHAL_ELEMENT_TYPE_S32 &&
                   (buffer.dims == std::vector<int64_t>{40, 12}))
          << "kernel " << kernel->name() << " has the widened weights";
    }
  }
  ExpectMatchesReference(text, {TestData(PHAL_ELEMENT_TYPE_U8, {8, 40}, 0),
                                TestData(PHAL_ELEMENT_TYPE_S8, {40, 12}, 1)});
}

// A chain of diamonds (each value read twice, both readers in the same
// kernel, as a hash's multiply-shift-xor rounds are) is one kernel that
// writes only its result: no value whose readers all join it is written.
TEST(Partitioner, DiamondsInsideAKernelWriteOnlyItsResult) {
  const std::string text = R"(
HloModule hash
ENTRY main {
  x = u32[64,32] parameter(0)
  k1 = u32[] constant(2654435761)
  b1 = u32[64,32] broadcast(k1), dimensions={}
  m1 = u32[64,32] multiply(x, b1)
  s15 = u32[] constant(15)
  b15 = u32[64,32] broadcast(s15), dimensions={}
  r1 = u32[64,32] shift-right-logical(m1, b15)
  x1 = u32[64,32] xor(m1, r1)
  k2 = u32[] constant(2246822519)
  b2 = u32[64,32] broadcast(k2), dimensions={}
  m2 = u32[64,32] multiply(x1, b2)
  s13 = u32[] constant(13)
  b13 = u32[64,32] broadcast(s13), dimensions={}
  r2 = u32[64,32] shift-right-logical(m2, b13)
  ROOT x2 = u32[64,32] xor(m2, r2)
}
)";
  std::unique_ptr<Program> program = CompileText(text);
  ASSERT_NE(program, nullptr);
  ASSERT_EQ(program->kernels.size(), 1u);
  int written = 0;
  for (const KirBuffer& buffer : program->kernels[0]->buffers()) {
    written += buffer.access != PHAL_KIR_ACCESS_READ ? 1 : 0;
  }
  EXPECT_EQ(written, 1) << "the multiplies are computed inline, not written";
  ExpectMatchesReference(text, {TestData(PHAL_ELEMENT_TYPE_U32, {64, 32}, 0)});
}

// Fused reshapes that split and merge dimensions in groups ([2,6,4] and
// [3,4,4] share the boundary after 12 elements), that regroup everything
// ([6,4] as [4,6]), that add and drop unit dimensions, and a dot's
// epilogue reading a residual of the dot's unflattened shape.
TEST(Partitioner, FusedReshapesIndexEachGroupOfDimensionsApart) {
  ExpectMatchesReference(R"(
HloModule regroup
ENTRY main {
  a = f32[2,6,4] parameter(0)
  b = f32[3,4,4] parameter(1)
  c = f32[6,4] parameter(2)
  d = f32[4,6] parameter(3)
  ra = f32[3,4,4] reshape(a)
  s = f32[3,4,4] add(ra, b)
  rc = f32[4,6] reshape(c)
  t = f32[4,6] multiply(rc, d)
  u = f32[1,4,1,6,1] reshape(t)
  x = f32[2,3,5,8] parameter(4)
  w = f32[8,7] parameter(5)
  r = f32[2,3,5,7] parameter(6)
  y = f32[2,3,5,7] dot(x, w), lhs_contracting_dims={3}, rhs_contracting_dims={0}
  z = f32[2,3,5,7] add(y, r)
  ROOT out = (f32[3,4,4], f32[1,4,1,6,1], f32[2,3,5,7]) tuple(s, u, z)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 6, 4}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3, 4, 4}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {6, 4}, 2),
                          TestData(PHAL_ELEMENT_TYPE_F32, {4, 6}, 3),
                          TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 5, 8}, 4),
                          TestData(PHAL_ELEMENT_TYPE_F32, {8, 7}, 5),
                          TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 5, 7}, 6)});
}

// Counted loops run their body a known number of times without evaluating
// the condition (Step::trip_count): one of three steps, one of none (its
// counter starts past the bound), and one whose bound is a parameter,
// which the executor still tests before every step.
TEST(Partitioner, CountedLoopsKnowTheirTripsAndOthersTestTheirCondition) {
  const std::string text = R"(
HloModule loops
below_three {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  c = s32[] constant(3)
  ROOT lt = pred[] compare(i, c), direction=LT
}
below_parameter {
  s = (s32[], f32[4], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] get-tuple-element(s), index=2
  ROOT lt = pred[] compare(i, n), direction=LT
}
step {
  s = (s32[], f32[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[4] get-tuple-element(s), index=1
  f = f32[] convert(next)
  fb = f32[4] broadcast(f), dimensions={}
  y = f32[4] multiply(x, fb)
  ROOT r = (s32[], f32[4]) tuple(next, y)
}
step_n {
  s = (s32[], f32[4], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  one = s32[] constant(1)
  next = s32[] add(i, one)
  x = f32[4] get-tuple-element(s), index=1
  y = f32[4] add(x, x)
  n = s32[] get-tuple-element(s), index=2
  ROOT r = (s32[], f32[4], s32[]) tuple(next, y, n)
}
ENTRY main {
  x = f32[4] parameter(0)
  n = s32[] parameter(1)
  zero = s32[] constant(0)
  seven = s32[] constant(7)
  ia = (s32[], f32[4]) tuple(zero, x)
  a = (s32[], f32[4]) while(ia), condition=below_three, body=step
  ib = (s32[], f32[4]) tuple(seven, x)
  b = (s32[], f32[4]) while(ib), condition=below_three, body=step
  ic = (s32[], f32[4], s32[]) tuple(zero, x, n)
  c = (s32[], f32[4], s32[]) while(ic), condition=below_parameter, body=step_n
  ax = f32[4] get-tuple-element(a), index=1
  bi = s32[] get-tuple-element(b), index=0
  bx = f32[4] get-tuple-element(b), index=1
  cx = f32[4] get-tuple-element(c), index=1
  ROOT out = (f32[4], s32[], f32[4], f32[4]) tuple(ax, bi, bx, cx)
}
)";
  std::unique_ptr<Program> program = CompileText(text);
  ASSERT_NE(program, nullptr);
  std::vector<int64_t> trips;
  for (const Step& step :
       program->computations[static_cast<size_t>(program->entry)].steps) {
    if (step.kind == StepKind::kWhile) trips.push_back(step.trip_count);
  }
  EXPECT_EQ(trips, (std::vector<int64_t>{3, 0, -1}));
  Literal n(Shape(PHAL_ELEMENT_TYPE_S32, {}));
  const int32_t four = 4;
  std::memcpy(n.data(), &four, sizeof(four));
  ExpectMatchesReference(text, {TestData(PHAL_ELEMENT_TYPE_F32, {4}, 0), n});
}

TEST(Partitioner, BatchedDotOfTransposedOperandsAndConvertedInputs) {
  ExpectMatchesReference(R"(
HloModule batched
ENTRY main {
  a = bf16[3,2,5] parameter(0)
  b = f32[2,4,5] parameter(1)
  ca = f32[3,2,5] convert(a)
  d = f32[2,3,4] dot(ca, b), lhs_batch_dims={1}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={2}
  i = s32[2,3] parameter(2)
  j = s32[3,4] parameter(3)
  ij = s32[2,4] dot(i, j), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  h = f16[2,3] convert(i)
  hj = f16[3,4] convert(j)
  hh = f16[2,4] dot(h, hj), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT out = (f32[2,3,4], s32[2,4], f16[2,4]) tuple(d, ij, hh)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_BF16, {3, 2, 5}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {2, 4, 5}, 1),
                          TestData(PHAL_ELEMENT_TYPE_S32, {2, 3}, 2),
                          TestData(PHAL_ELEMENT_TYPE_S32, {3, 4}, 3)});
}

TEST(Partitioner, ConvolutionWithBiasEpilogue) {
  ExpectMatchesReference(R"(
HloModule conv
ENTRY main {
  x = f32[2,6,6,3] parameter(0)
  k = f32[3,3,3,4] parameter(1)
  b = f32[4] parameter(2)
  c = f32[2,3,3,4] convolution(x, k), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  bb = f32[2,3,3,4] broadcast(b), dimensions={3}
  ROOT y = f32[2,3,3,4] add(c, bb)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 6, 6, 3}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3, 3, 3, 4}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {4}, 2)});
}

TEST(Partitioner, GatherScatterAndSortKernels) {
  ExpectMatchesReference(kGatherScatterSortModule,
                         GatherScatterSortArguments());
}

TEST(Partitioner, MapIsInlinedAndBatchNormIsDecomposed) {
  ExpectMatchesReference(R"(
HloModule bn
square_plus {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] multiply(a, a)
  ROOT s = f32[] add(m, b)
}
ENTRY main {
  x = f32[2,3,4] parameter(0)
  scale = f32[3] parameter(1)
  offset = f32[3] parameter(2)
  mean = f32[3] parameter(3)
  var = f32[3] parameter(4)
  mp = f32[2,3,4] map(x, x), dimensions={0,1,2}, to_apply=square_plus
  av = f32[3] abs(var)
  inf = f32[2,3,4] batch-norm-inference(x, scale, offset, mean, av), epsilon=0.001, feature_index=1
  tr = (f32[2,3,4], f32[3], f32[3]) batch-norm-training(x, scale, offset), epsilon=0.001, feature_index=1
  y = f32[2,3,4] get-tuple-element(tr), index=0
  m = f32[3] get-tuple-element(tr), index=1
  v = f32[3] get-tuple-element(tr), index=2
  ROOT out = (f32[2,3,4], f32[2,3,4], f32[2,3,4], f32[3], f32[3]) tuple(mp, inf, y, m, v)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 4}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 2),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 3),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 4)},
                         1e-5);
}

}  // namespace
}  // namespace phal::testing
