// The hoist-scan-inputs pass: which loops' input projections leave the
// loop, and that the loops compute what the reference computes.
#include <string>

#include <gtest/gtest.h>

#include "core/compiler/passes.h"
#include "core/hlo/printer.h"
#include "core/testing/compiler_test_util.h"

namespace phal::testing {
namespace {

// An Elman RNN over `steps` of 12 input rows [2,3]: h = tanh(x_t W + h U),
// the loop running while i < `limit` from `start`; `rhs` is the input
// projection's right operand (`w`, the loop state's weights, or a constant).
std::string Rnn(const std::string& limit, const std::string& start = "0",
                const std::string& rhs = "w") {
  return R"(
HloModule rnn
cond {
  s = (f32[12,2,3], f32[3,4], f32[4,4], s32[], f32[2,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=3
  n = s32[] )" +
         limit + R"(
  ROOT c = pred[] compare(i, n), direction=LT
}
body {
  s = (f32[12,2,3], f32[3,4], f32[4,4], s32[], f32[2,4]) parameter(0)
  xs = f32[12,2,3] get-tuple-element(s), index=0
  w = f32[3,4] get-tuple-element(s), index=1
  u = f32[4,4] get-tuple-element(s), index=2
  i = s32[] get-tuple-element(s), index=3
  h = f32[2,4] get-tuple-element(s), index=4
  k = f32[3,4] constant({{0.5, -0.25, 0.125, 1}, {-1, 0.75, 0.5, -0.5}, {0.25, 0.25, -0.75, 0.5}})
  zero = s32[] constant(0)
  row = f32[1,2,3] dynamic-slice(xs, i, zero, zero), dynamic_slice_sizes={1,2,3}
  x = f32[2,3] reshape(row)
  xw = f32[2,4] dot(x, )" +
         rhs + R"(), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  hu = f32[2,4] dot(h, u), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  a = f32[2,4] add(xw, hu)
  h2 = f32[2,4] tanh(a)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (f32[12,2,3], f32[3,4], f32[4,4], s32[], f32[2,4]) tuple(xs, w, u, i2, h2)
}
ENTRY main {
  xs = f32[12,2,3] parameter(0)
  w = f32[3,4] parameter(1)
  u = f32[4,4] parameter(2)
  h = f32[2,4] parameter(3)
  start = s32[] constant()" +
         start + R"()
  init = (f32[12,2,3], f32[3,4], f32[4,4], s32[], f32[2,4]) tuple(xs, w, u, start, h)
  loop = (f32[12,2,3], f32[3,4], f32[4,4], s32[], f32[2,4]) while(init), condition=cond, body=body
  ROOT out = f32[2,4] get-tuple-element(loop), index=4
}
)";
}

// The body's text after the pass, or "" when the module did not verify.
std::string BodyAfterPass(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return "";
  StatusOr<std::unique_ptr<HloModule>> result =
      MakeScanInputHoistingPass()->Run(*module);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return "";
  EXPECT_TRUE(VerifyModule(**result).ok());
  return HloComputationToText(*(*result)->GetComputationWithName("body"));
}

std::vector<Literal> RnnInputs() {
  return {TestData(PHAL_ELEMENT_TYPE_F32, {12, 2, 3}, 0),
          TestData(PHAL_ELEMENT_TYPE_F32, {3, 4}, 1),
          TestData(PHAL_ELEMENT_TYPE_F32, {4, 4}, 2),
          TestData(PHAL_ELEMENT_TYPE_F32, {2, 4}, 3)};
}

TEST(ScanInputHoisting, TheInputProjectionLeavesACountedLoop) {
  for (const char* rhs : {"w", "k"}) {
    const std::string text = Rnn("constant(12)", "0", rhs);
    SCOPED_TRACE(text);
    const std::string body = BodyAfterPass(text);
    EXPECT_EQ(body.find("dot(%x,"), std::string::npos) << body;
    EXPECT_NE(body.find("dot(%h, %u)"), std::string::npos) << body;
    ExpectMatchesReference(text, RnnInputs(), 1e-5);
  }
  // Starting past the first row.
  ExpectMatchesReference(Rnn("constant(12)", "3"), RnnInputs(), 1e-5);
}

TEST(ScanInputHoisting, LoopsThatMayStopEarlyKeepTheirProjection) {
  // A bound that is not a constant, and a loop over fewer than half the
  // rows: hoisting could compute more than the loop ever reads.
  const std::string unbounded = Rnn("get-tuple-element(s), index=3");
  EXPECT_NE(BodyAfterPass(unbounded).find("dot(%x, %w)"), std::string::npos);
  const std::string short_loop = Rnn("constant(5)");
  EXPECT_NE(BodyAfterPass(short_loop).find("dot(%x, %w)"), std::string::npos);
  ExpectMatchesReference(short_loop, RnnInputs(), 1e-5);
}

TEST(ScanInputHoisting, StartsPastTheEndClampAsTheStepsSliceWould) {
  // Steps 6 to 17 of 12 rows: dynamic-slice clamps the later starts to the
  // last row, in the loop and in the hoisted product alike.
  const std::string text = Rnn("constant(18)", "6");
  EXPECT_EQ(BodyAfterPass(text).find("dot(%x,"), std::string::npos);
  ExpectMatchesReference(text, RnnInputs(), 1e-5);
}

}  // namespace
}  // namespace phal::testing
