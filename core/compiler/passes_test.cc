// The HLO passes: what each removes, keeps and writes to PHAL_DUMP.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "core/compiler/passes.h"
#include "core/hlo/printer.h"
#include "core/testing/compiler_test_util.h"
#include "core/testing/temp_dir.h"

namespace phal::testing {
namespace {

std::string RunPass(HloPass& pass, const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return "";
  StatusOr<std::unique_ptr<HloModule>> result = pass.Run(*module);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return "";
  EXPECT_TRUE(VerifyModule(**result).ok());
  return HloComputationToText(*(*result)->entry_computation());
}

TEST(AlgebraicSimplification, RemovesExactIdentitiesOnly) {
  auto pass = MakeAlgebraicSimplificationPass();
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  i = s32[4] parameter(1)
  one = f32[] constant(1)
  ones = f32[4] broadcast(one), dimensions={}
  zero = f32[] constant(0)
  zeros = f32[4] broadcast(zero), dimensions={}
  izero = s32[] constant(0)
  izeros = s32[4] broadcast(izero), dimensions={}
  a = f32[4] multiply(x, ones)
  b = f32[4] add(a, zeros)
  c = f32[4] multiply(b, zeros)
  j = s32[4] add(i, izeros)
  r = f32[2,2] reshape(c)
  rr = f32[4] reshape(r)
  ROOT out = (f32[4], s32[4]) tuple(rr, j)
}
)");
  EXPECT_EQ(text.find("multiply(%x, %ones)"), std::string::npos) << text;
  EXPECT_NE(text.find("add(%x, %zeros)"), std::string::npos)
      << "x + 0 turns -0 into +0 and must stay\n"
      << text;
  EXPECT_NE(text.find("multiply(%b, %zeros)"), std::string::npos)
      << "x * 0 is not 0 for NaN and must stay\n"
      << text;
  EXPECT_EQ(text.find("add(%i, %izeros)"), std::string::npos) << text;
  EXPECT_EQ(text.find("reshape(%r)"), std::string::npos)
      << "reshape of reshape reads the first operand\n"
      << text;
}

TEST(AlgebraicSimplification, DropsABitcastConvertToItsOwnType) {
  // No emitter needs to reinterpret a complex value as itself.
  auto pass = MakeAlgebraicSimplificationPass();
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  x = c128[2,3] parameter(0)
  b = c128[2,3] bitcast-convert(x)
  ROOT n = c128[2,3] negate(b)
}
)");
  EXPECT_NE(text.find("negate(%x)"), std::string::npos) << text;
}

TEST(AlgebraicSimplification, ABroadcastThatOnlyAddsUnitDimensionsIsAReshape) {
  // A reshape of a value no loop kernel computes is a view, not a copy.
  auto pass = MakeAlgebraicSimplificationPass();
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  x = f32[8,64] parameter(0)
  y = f32[64,8] parameter(1)
  unit = f32[1,8,1,64] broadcast(x), dimensions={1,3}
  swapped = f32[64,1,8] broadcast(x), dimensions={2,0}
  wider = f32[8,64,2] broadcast(x), dimensions={0,1}
  ROOT out = (f32[1,8,1,64], f32[64,1,8], f32[8,64,2]) tuple(unit, swapped, wider)
}
)");
  EXPECT_NE(text.find("f32[1,8,1,64] reshape(%x)"), std::string::npos) << text;
  EXPECT_EQ(text.find("f32[64,1,8] reshape"), std::string::npos)
      << "a broadcast that reorders dimensions is a transpose\n"
      << text;
  EXPECT_EQ(text.find("f32[8,64,2] reshape"), std::string::npos) << text;
}

TEST(AlgebraicSimplification, FoldsATransposedTriangleIntoItsSolve) {
  // The solve reads a's other triangle with op(a) transposed once more; a
  // complex adjoint would need a's conjugate and keeps the transpose.
  auto pass = MakeAlgebraicSimplificationPass();
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  a = f32[2,5,5] parameter(0)
  b = f32[2,5,3] parameter(1)
  c = c64[5,5] parameter(2)
  d = c64[5,3] parameter(3)
  t = f32[2,5,5] transpose(a), dimensions={0,2,1}
  u = c64[5,5] transpose(c), dimensions={1,0}
  x = f32[2,5,3] triangular-solve(t, b), left_side=true, lower=false, unit_diagonal=true, transpose_a=TRANSPOSE
  y = f32[2,5,3] triangular-solve(t, b), left_side=true, lower=true, unit_diagonal=false, transpose_a=ADJOINT
  z = c64[5,3] triangular-solve(u, d), left_side=true, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE
  w = c64[5,3] triangular-solve(u, d), left_side=true, lower=true, unit_diagonal=false, transpose_a=ADJOINT
  ROOT out = (f32[2,5,3], f32[2,5,3], c64[5,3], c64[5,3]) tuple(x, y, z, w)
}
)");
  EXPECT_NE(text.find("triangular-solve(%a, %b), left_side=true, lower=true, "
                      "unit_diagonal=true, transpose_a=NO_TRANSPOSE"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("triangular-solve(%a, %b), left_side=true, lower=false, "
                      "unit_diagonal=false, transpose_a=NO_TRANSPOSE"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("triangular-solve(%c, %d), left_side=true, lower=false, "
                      "unit_diagonal=false, transpose_a=TRANSPOSE"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("triangular-solve(%u, %d), left_side=true, lower=true, "
                      "unit_diagonal=false, transpose_a=ADJOINT"),
            std::string::npos)
      << text;
}

TEST(ConstantFolding, EvaluatesConstantSubgraphsButNotBroadcasts) {
  auto pass = MakeConstantFoldingPass(1 << 16);
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  a = f32[2] constant({1, 2})
  b = f32[2] constant({3, 4})
  s = f32[2] add(a, b)
  e = f32[2] exponential(s)
  c = f32[] constant(1)
  big = f32[100] broadcast(c), dimensions={}
  ROOT out = (f32[2], f32[100]) tuple(e, big)
}
)");
  EXPECT_EQ(text.find("add("), std::string::npos) << text;
  EXPECT_EQ(text.find("exponential("), std::string::npos) << text;
  EXPECT_NE(text.find("broadcast("), std::string::npos) << text;
}

TEST(CommonSubexpressionElimination, MergesIdenticalInstructions) {
  auto pass = MakeCommonSubexpressionEliminationPass();
  auto dce = MakeDeadCodeEliminationPass();
  const std::string hlo = R"(
HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  a = f32[4] exponential(x)
  b = f32[4] exponential(x)
  c = f32[4] add(a, b)
  d = f32[4] add(b, a)
  ROOT out = (f32[4], f32[4]) tuple(c, d)
}
)";
  std::unique_ptr<HloModule> module = ParseVerified(hlo);
  auto merged = pass->Run(*module);
  ASSERT_TRUE(merged.ok());
  auto cleaned = dce->Run(**merged);
  ASSERT_TRUE(cleaned.ok());
  // b merges into a, which makes d identical to c: x, a, c and the tuple.
  EXPECT_EQ((*cleaned)->entry_computation()->instruction_count(), 4)
      << HloModuleToText(**cleaned);
}

// JAX writes one reducer region per reduce: two maxima over the same rows
// call computations that differ only in their names, and merge; a reduce
// whose reducer computes something else (minimum) or the same ops on
// swapped parameters (a - b against b - a) does not.
TEST(CommonSubexpressionElimination,
     MergesReducesWhoseReducersDifferOnlyInNames) {
  auto pass = MakeCommonSubexpressionEliminationPass();
  auto dce = MakeDeadCodeEliminationPass();
  std::unique_ptr<HloModule> module = ParseVerified(R"(
HloModule m
region_0 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
region_1 {
  p = f32[] parameter(0)
  q = f32[] parameter(1)
  ROOT r = f32[] maximum(p, q)
}
region_2 {
  s = f32[] parameter(0)
  t = f32[] parameter(1)
  ROOT u = f32[] minimum(s, t)
}
sub_0 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT d = f32[] subtract(a, b)
}
sub_1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT d = f32[] subtract(b, a)
}
ENTRY main {
  x = f32[8,16] parameter(0)
  init = f32[] constant(-inf)
  m0 = f32[8] reduce(x, init), dimensions={1}, to_apply=region_0
  m1 = f32[8] reduce(x, init), dimensions={1}, to_apply=region_1
  m2 = f32[8] reduce(x, init), dimensions={1}, to_apply=region_2
  d0 = f32[8] reduce(x, init), dimensions={1}, to_apply=sub_0
  d1 = f32[8] reduce(x, init), dimensions={1}, to_apply=sub_1
  ROOT out = (f32[8], f32[8], f32[8], f32[8], f32[8]) tuple(m0, m1, m2, d0, d1)
}
)");
  auto merged = pass->Run(*module);
  ASSERT_TRUE(merged.ok()) << merged.status().ToString();
  auto cleaned = dce->Run(**merged);
  ASSERT_TRUE(cleaned.ok());
  const HloInstruction* root =
      (*cleaned)->entry_computation()->root_instruction();
  EXPECT_EQ(root->operand(0), root->operand(1)) << HloModuleToText(**cleaned);
  EXPECT_NE(root->operand(0), root->operand(2));
  EXPECT_NE(root->operand(3), root->operand(4));
}

TEST(DeadCodeElimination, DropsUnusedInstructionsAndComputations) {
  auto pass = MakeDeadCodeEliminationPass();
  std::unique_ptr<HloModule> module = ParseVerified(R"(
HloModule m
unused {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
ENTRY main {
  x = f32[4] parameter(0)
  y = f32[4] parameter(1)
  dead = f32[4] exponential(y)
  ROOT n = f32[4] negate(x)
}
)");
  auto result = pass->Run(*module);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ((*result)->computations().size(), 1u);
  EXPECT_EQ((*result)->entry_computation()->instruction_count(), 3);
}

// A scan stacking rows into its loop state, with a second update of a
// state element the body reads elsewhere, which must stay a
// dynamic-update-slice.
constexpr char kScanStackingRows[] = R"(
HloModule scan
cond {
  s = (s32[], f32[16,4], f32[16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(16)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[16,4], f32[16,4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  ys = f32[16,4] get-tuple-element(s), index=1
  zs = f32[16,4] get-tuple-element(s), index=2
  zero = s32[] constant(0)
  row = f32[1,4] dynamic-slice(zs, i, zero), dynamic_slice_sizes={1,4}
  e = f32[1,4] exponential(row)
  ys2 = f32[16,4] dynamic-update-slice(ys, e, i, zero)
  zs2 = f32[16,4] dynamic-update-slice(zs, e, i, zero)
  one = s32[] constant(1)
  i2 = s32[] add(i, one)
  ROOT t = (s32[], f32[16,4], f32[16,4]) tuple(i2, ys2, zs2)
}
ENTRY main {
  ys = f32[16,4] parameter(0)
  zs = f32[16,4] parameter(1)
  zero = s32[] constant(0)
  init = (s32[], f32[16,4], f32[16,4]) tuple(zero, ys, zs)
  w = (s32[], f32[16,4], f32[16,4]) while(init), condition=cond, body=body
  ROOT r = f32[16,4] get-tuple-element(w), index=1
}
)";

// The text of computation "body" after the scatter-loop-updates pass.
std::string ScanBodyAfterPass(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return "";
  StatusOr<std::unique_ptr<HloModule>> result =
      MakeLoopUpdateScatterPass()->Run(*module);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return "";
  EXPECT_TRUE(VerifyModule(**result).ok());
  return HloComputationToText(*(*result)->GetComputationWithName("body"));
}

TEST(LoopUpdateScatter, StackedRowsOfAScanBecomeAScatterOfOneWindow) {
  const std::string body = ScanBodyAfterPass(kScanStackingRows);
  const std::size_t scatter = body.find(" scatter(");
  ASSERT_NE(scatter, std::string::npos) << body;
  EXPECT_EQ(body.find(" scatter(", scatter + 1), std::string::npos) << body;
  const std::size_t kept = body.find(" dynamic-update-slice(");
  ASSERT_NE(kept, std::string::npos) << body;
  EXPECT_EQ(body.find(" dynamic-update-slice(", kept + 1), std::string::npos)
      << body;
}

TEST(LoopUpdateScatter, ACountedScansRowIndexIsItsCounterUnclamped) {
  // Rows 0 to 15 of 16: the counter is always a row, and the columns are
  // whole, so the scatter's index vector is a reshape of the counter.
  const std::string body = ScanBodyAfterPass(kScanStackingRows);
  EXPECT_EQ(body.find(" clamp("), std::string::npos) << body;
  EXPECT_EQ(body.find(" concatenate("), std::string::npos) << body;
  EXPECT_NE(body.find("s32[1] reshape(%i)"), std::string::npos) << body;
  // Counted past the last row, the counter needs its clamp.
  std::string longer = kScanStackingRows;
  longer.replace(longer.find("constant(16)"), 12, "constant(17)");
  EXPECT_NE(ScanBodyAfterPass(longer).find(" clamp("), std::string::npos);
  ExpectMatchesReference(longer, {TestData(PHAL_ELEMENT_TYPE_F32, {16, 4}),
                                  TestData(PHAL_ELEMENT_TYPE_F32, {16, 4}, 1)});
  ExpectMatchesReference(kScanStackingRows,
                         {TestData(PHAL_ELEMENT_TYPE_F32, {16, 4}),
                          TestData(PHAL_ELEMENT_TYPE_F32, {16, 4}, 1)});
}

TEST(LoopUpdateScatter, LeavesUpdatesOutsideWhileBodiesAlone) {
  auto pass = MakeLoopUpdateScatterPass();
  const std::string text = RunPass(*pass, R"(
HloModule m
ENTRY main {
  x = f32[16,4] parameter(0)
  u = f32[1,4] parameter(1)
  i = s32[] parameter(2)
  zero = s32[] constant(0)
  ROOT d = f32[16,4] dynamic-update-slice(x, u, i, zero)
}
)");
  EXPECT_NE(text.find("dynamic-update-slice"), std::string::npos) << text;
}

TEST(CallInlining, ReducerCallingAFunctionRunsInAKernel) {
  // What JAX exports for jax.lax.cumlogsumexp: a reduce-window whose
  // reducer calls a private logaddexp function.
  const std::string hlo = R"(
HloModule m
logaddexp {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  m = f32[] maximum(a, b)
  d = f32[] subtract(a, b)
  nan = pred[] compare(d, d), direction=NE
  s = f32[] add(a, b)
  ad = f32[] abs(d)
  n = f32[] negate(ad)
  e = f32[] exponential(n)
  l = f32[] log-plus-one(e)
  r = f32[] add(m, l)
  ROOT out = f32[] select(nan, s, r)
}
reducer {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT c = f32[] call(x, y), to_apply=logaddexp
}
ENTRY main {
  x = f32[8,3] parameter(0)
  init = f32[] constant(-inf)
  ROOT w = f32[8,3] reduce-window(x, init), window={size=8x1 pad=7_0x0_0},
    to_apply=reducer
}
)";
  auto pass = MakeCallInliningPass();
  std::unique_ptr<HloModule> module = ParseVerified(hlo);
  ASSERT_NE(module, nullptr);
  StatusOr<std::unique_ptr<HloModule>> inlined = pass->Run(*module);
  ASSERT_TRUE(inlined.ok()) << inlined.status().ToString();
  for (const HloComputation* computation : (*inlined)->computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      EXPECT_NE(instruction->opcode(), HloOpcode::kCall)
          << "%" << instruction->name() << " in %" << computation->name();
    }
  }
  // The cumulative window becomes a logarithmic scan (decompose-ops),
  // which adds the logarithms in another order than the window does.
  ExpectMatchesReference(hlo, {TestData(PHAL_ELEMENT_TYPE_F32, {8, 3})}, 1e-6);
}

TEST(CallInlining, CallsInAnElementwiseChainFuseIntoOneKernel) {
  const std::string hlo = R"(
HloModule m
square {
  p = f32[4] parameter(0)
  ROOT s = f32[4] multiply(p, p)
}
map_body {
  a = f32[] parameter(0)
  ROOT n = f32[] negate(a)
}
negated {
  q = f32[4] parameter(0)
  ROOT m = f32[4] map(q), dimensions={0}, to_apply=map_body
}
ENTRY main {
  x = f32[4] parameter(0)
  c = f32[4] call(x), to_apply=square
  n = f32[4] call(c), to_apply=negated
  ROOT e = f32[4] exponential(n)
}
)";
  std::unique_ptr<Program> program = CompileText(hlo);
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->kernels.size(), 1u)
      << "square, negate and exponential make one loop kernel";
  ExpectMatchesReference(hlo, {TestData(PHAL_ELEMENT_TYPE_F32, {4})});
}

TEST(LayoutNormalization, MakesEveryShapeRowMajorWithoutChangingValues) {
  const std::string hlo = R"(
HloModule m
ENTRY main {
  x = f32[2,3]{0,1} parameter(0)
  ROOT t = f32[3,2]{0,1} transpose(x), dimensions={1,0}
}
)";
  auto pass = MakeLayoutNormalizationPass();
  const std::string text = RunPass(*pass, hlo);
  EXPECT_EQ(text.find("{0,1}"), std::string::npos) << text;
  ExpectMatchesReference(hlo, {TestData(PHAL_ELEMENT_TYPE_F32, {2, 3})});
}

TEST(LayoutNormalization, BitcastBetweenLayoutsReinterpretsMemoryOrder) {
  // As XLA's compiled dumps write a transpose: the bytes of f32[2,3,4] in
  // row-major order read as f32[4,2,3] in layout {0,2,1}, then the same
  // bytes as f32[6,4] with layout {0,1}, and a retyping bitcast.
  const std::string hlo = R"(
HloModule m
ENTRY main {
  x = f32[2,3,4]{2,1,0} parameter(0)
  b = f32[4,2,3]{0,2,1} bitcast(x)
  c = f32[4,2,3]{2,1,0} copy(b)
  y = f32[6,4]{0,1} bitcast(x)
  z = s32[4,6]{1,0} bitcast(y)
  ROOT out = (f32[4,2,3], f32[6,4], s32[4,6]) tuple(c, y, z)
}
)";
  ExpectMatchesReference(hlo, {TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 4})});
}

TEST(PhalDump, WritesTheModuleAfterEachPassAndEveryKernel) {
  TempDir dir;
  CompilerOptions options;
  options.dump_directory = dir.path();
  std::unique_ptr<HloModule> module = ParseVerified(R"(
HloModule m
ENTRY main {
  x = f32[4] parameter(0)
  ROOT e = f32[4] exponential(x)
}
)");
  ASSERT_TRUE(CompileModule(std::move(module), options).ok());
  const std::filesystem::path path(dir.path());
  EXPECT_TRUE(std::filesystem::exists(path / "01-expand-linear-algebra.hlo"));
  EXPECT_TRUE(std::filesystem::exists(path / "02-inline-calls.hlo"));
  EXPECT_TRUE(std::filesystem::exists(path / "13-dce.hlo"));
  EXPECT_TRUE(std::filesystem::exists(path / "kernel-00-e.kir"));
}

}  // namespace
// A program for several processes is refused, naming its grid, until the
// compiler compiles for several devices; the reference runs it.
TEST(CompileModule, KeepsTheGridAndMakesProcessOpsHostSteps) {
  std::unique_ptr<HloModule> module = ParseVerified(R"(
HloModule spmd, replica_count=2, num_partitions=3

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[4] parameter(0)
  c = f32[2] constant({1, 2})
  g = f32[4] all-gather(c), replica_groups={}, dimensions={0}
  y = f32[4] add(x, g)
  sum = f32[4] all-reduce(y), replica_groups={}, to_apply=add
  id = u32[] replica-id()
  ROOT out = (f32[4], u32[]) tuple(sum, id)
}
)");
  ASSERT_NE(module, nullptr);
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(std::move(module), CompilerOptions());
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  EXPECT_EQ((*program)->replica_count, 2);
  EXPECT_EQ((*program)->num_partitions, 3);
  // The all-gather of a constant is not folded: its value depends on the
  // processes. Each process op is a module of its own on the same grid.
  std::vector<std::string> ops;
  for (const auto& op : (*program)->process_ops) {
    EXPECT_EQ(op->replica_count(), 2);
    EXPECT_EQ(op->num_partitions(), 3);
    ops.emplace_back(
        HloOpcodeName(op->entry_computation()->root_instruction()->opcode()));
  }
  std::sort(ops.begin(), ops.end());
  EXPECT_EQ(ops, (std::vector<std::string>{"all-gather", "all-reduce",
                                           "replica-id"}));
  int steps = 0;
  for (const ComputationPlan& plan : (*program)->computations) {
    for (const Step& step : plan.steps) {
      steps += step.kind == StepKind::kProcessOp;
    }
  }
  EXPECT_EQ(steps, 3);
}

}  // namespace phal::testing
