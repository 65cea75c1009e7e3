#include "core/hlo/verifier.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/frontend/hlo_parser.h"

namespace phal {
namespace {

std::unique_ptr<HloModule> Parse(std::string_view text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "v.hlo");
  EXPECT_TRUE(module.ok()) << module.status().message();
  return module.ok() ? std::move(module).value() : nullptr;
}

// The verifier's message for `text`, which must parse but not verify.
std::string VerifyError(std::string_view text) {
  std::unique_ptr<HloModule> module = Parse(text);
  if (module == nullptr) return "<parse failed>";
  const Status status = VerifyModule(*module);
  EXPECT_FALSE(status.ok()) << "verified without error:\n" << text;
  EXPECT_EQ(status.code(), PHAL_INVALID_ARGUMENT);
  return status.message();
}

// A module whose entry computation is `body` after two parameters.
std::string EntryWith(const std::string& body) {
  return "HloModule m\n"
         "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\n"
         "less {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT c = pred[] compare(a, b), direction=LT\n}\n"
         "ENTRY main {\n  x = f32[2,3] parameter(0)\n"
         "  i = s32[] parameter(1)\n" +
         body + "\n}\n";
}

TEST(HloVerifierTest, AcceptsEveryTestDataModule) {
  const std::filesystem::path testdata =
      std::filesystem::path(PHAL_TEST_SOURCE_DIR) / "core/frontend/testdata";
  for (const auto& entry : std::filesystem::directory_iterator(testdata)) {
    if (entry.path().extension() != ".hlo") continue;
    const std::string name = entry.path().filename().string();
    SCOPED_TRACE(name);
    std::ifstream file(entry.path());
    std::stringstream text;
    text << file.rdbuf();
    std::unique_ptr<HloModule> module = Parse(text.str());
    ASSERT_NE(module, nullptr);
    const Status status = VerifyModule(*module);
    EXPECT_TRUE(status.ok()) << status.message();
  }
}

TEST(HloVerifierTest, AcceptsAWellFormedProgramOfManyOps) {
  std::unique_ptr<HloModule> module = Parse(EntryWith(
      "  zero = f32[] constant(0)\n"
      "  t = f32[3,2] transpose(x), dimensions={1,0}\n"
      "  d = f32[2,2] dot(x, t), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={0}\n"
      "  r = f32[2] reduce(x, zero), dimensions={1}, to_apply=add\n"
      "  b = f32[2,3] broadcast(r), dimensions={0}\n"
      "  p = f32[4,7] pad(x, zero), padding=1_1x0_2_1\n"
      "  s = f32[1,2] slice(x), slice={[0:1], [0:3:2]}\n"
      "  ds = f32[1,2] dynamic-slice(x, i, i), dynamic_slice_sizes={1,2}\n"
      "  so = f32[2,3] sort(x), dimensions={1}, to_apply=less\n"
      "  rw = f32[1,2] reduce-window(x, zero), window={size=2x2}, "
      "to_apply=add\n"
      "  c = f32[4,3] concatenate(x, b), dimensions={0}\n"
      "  ROOT out = (f32[2,2], f32[4,7], f32[1,2]) tuple(d, p, s)"));
  ASSERT_NE(module, nullptr);
  const Status status = VerifyModule(*module);
  EXPECT_TRUE(status.ok()) << status.message();
}

TEST(HloVerifierTest, RejectsWrongOperandCount) {
  EXPECT_EQ(VerifyError(EntryWith("  ROOT n = f32[2,3] add(x)")),
            "in computation %main, add %n: expects 2 operands, got 1");
}

TEST(HloVerifierTest, RejectsMismatchedElementTypes) {
  EXPECT_EQ(
      VerifyError(EntryWith("  y = s32[2,3] parameter(2)\n"
                            "  ROOT n = f32[2,3] add(x, y)")),
      "in computation %main, add %n: operands must have the same shape, got "
      "f32[2,3] and s32[2,3]");
}

TEST(HloVerifierTest, RejectsElementTypeTheOpDoesNotAccept) {
  EXPECT_EQ(VerifyError(EntryWith("  ROOT n = s32[] sqrt(i)")),
            "in computation %main, sqrt %n: sqrt does not accept s32 operands");
}

TEST(HloVerifierTest, RejectsStatedShapeThatDiffersFromInferred) {
  EXPECT_EQ(VerifyError(EntryWith("  ROOT n = f32[3,2] negate(x)")),
            "in computation %main, negate %n: stated shape f32[3,2] differs "
            "from the inferred shape f32[2,3]");
}

TEST(HloVerifierTest, RejectsFftOfTheWrongTypesAndShapes) {
  const auto fft = [](const std::string& line) {
    return VerifyError(
        "HloModule m\nENTRY main {\n  x = c64[8,8] parameter(0)\n"
        "  r = f32[8,8] parameter(1)\n  ROOT f = " +
        line + "\n}\n");
  };
  EXPECT_EQ(fft("c64[8,5] fft(x), fft_type=RFFT, fft_length={8}"),
            "in computation %main, fft %f: RFFT needs an f32 or f64 operand, "
            "got c64[8,8]");
  EXPECT_EQ(fft("c64[8,8] fft(r), fft_type=FFT, fft_length={8}"),
            "in computation %main, fft %f: FFT needs a c64 or c128 operand, "
            "got f32[8,8]");
  EXPECT_EQ(fft("c64[8,8] fft(r), fft_type=RFFT, fft_length={8}"),
            "in computation %main, fft %f: stated shape c64[8,8] differs from "
            "the inferred shape c64[8,5]");
  EXPECT_EQ(fft("f32[8,16] fft(x), fft_type=IRFFT, fft_length={16}"),
            "in computation %main, fft %f: IRFFT with fft_length {16} needs "
            "trailing operand dimensions {9}, got c64[8,8]");
  EXPECT_EQ(fft("c64[8,8] fft(x), fft_type=FFT, fft_length={4}"),
            "in computation %main, fft %f: FFT with fft_length {4} needs "
            "trailing operand dimensions {4}, got c64[8,8]");
  EXPECT_EQ(fft("c64[8,8] fft(x), fft_type=FFT, fft_length={}"),
            "in computation %main, fft %f: fft_length {} must name 1 to 3 "
            "dimensions");
  EXPECT_EQ(fft("c64[8,8] fft(x), fft_type=FFT, fft_length={1,1,8,8}"),
            "in computation %main, fft %f: fft_length {1,1,8,8} must name 1 to "
            "3 dimensions");
  EXPECT_EQ(fft("c64[8,8] fft(x), fft_type=FFT, fft_length={2,8,8}"),
            "in computation %main, fft %f: fft_length {2,8,8} names 3 "
            "dimensions of the operand c64[8,8], which has fewer");
}

TEST(HloVerifierTest, RejectsDimensionNumbersOutOfRange) {
  EXPECT_EQ(VerifyError(EntryWith(
                "  ROOT t = f32[3,2] transpose(x), dimensions={1,2}")),
            "in computation %main, transpose %t: dimensions {1,2} has 2, out "
            "of range [0, 2)");
  EXPECT_NE(VerifyError(EntryWith("  zero = f32[] constant(0)\n  ROOT r = "
                                  "f32[2] reduce(x, zero), dimensions={1,1}, "
                                  "to_apply=add"))
                .find("dimensions {1,1} repeats 1"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsBroadcastOfIncompatibleSizes) {
  EXPECT_NE(VerifyError(
                EntryWith("  ROOT b = f32[2,4] broadcast(x), dimensions={0,1}"))
                .find("operand dimension 1 (size 3) cannot broadcast to "
                      "result dimension 1 (size 4)"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsReducerWithWrongSignature) {
  EXPECT_EQ(
      VerifyError(EntryWith("  zero = f32[] constant(0)\n  ROOT r = f32[2] "
                            "reduce(x, zero), dimensions={1}, to_apply=less")),
      "in computation %main, reduce %r: to_apply computation %less must be "
      "(f32[], f32[]) -> f32[], but it returns pred[]");
}

TEST(HloVerifierTest, RejectsWhileWhoseConditionIsNotAPredicate) {
  EXPECT_EQ(
      VerifyError(
          "HloModule m\ncond {\n  s = f32[] parameter(0)\n  ROOT c = f32[] "
          "copy(s)\n}\nbody {\n  s = f32[] parameter(0)\n  ROOT n = f32[] "
          "negate(s)\n}\nENTRY main {\n  x = f32[] parameter(0)\n  ROOT w = "
          "f32[] while(x), condition=cond, body=body\n}\n"),
      "in computation %main, while %w: condition computation %cond must be "
      "(f32[]) -> pred[], but it returns f32[]");
}

TEST(HloVerifierTest, RejectsWhileBodyThatChangesTheState) {
  EXPECT_NE(
      VerifyError(
          "HloModule m\ncond {\n  s = f32[] parameter(0)\n  ROOT c = pred[] "
          "compare(s, s), direction=LT\n}\nbody {\n  s = f32[] parameter(0)\n"
          "  ROOT n = s32[] convert(s)\n}\nENTRY main {\n  x = f32[] "
          "parameter(0)\n  ROOT w = f32[] while(x), condition=cond, "
          "body=body\n}\n")
          .find("body computation %body must be (f32[]) -> f32[], but it "
                "returns s32[]"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsSortComparatorWithWrongArity) {
  EXPECT_NE(VerifyError(EntryWith("  ROOT s = (f32[2,3], f32[2,3]) sort(x, x), "
                                  "dimensions={1}, to_apply=less"))
                .find("comparator computation %less must be (f32[], f32[], "
                      "f32[], f32[]) -> pred[], but it takes 2 parameters"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsConditionalBranchesThatDisagree) {
  EXPECT_NE(
      VerifyError(
          "HloModule m\nb0 {\n  p = f32[] parameter(0)\n  ROOT n = f32[] "
          "negate(p)\n}\nb1 {\n  p = f32[] parameter(0)\n  ROOT n = s32[] "
          "convert(p)\n}\nENTRY main {\n  i = s32[] parameter(0)\n  x = f32[] "
          "parameter(1)\n  ROOT c = f32[] conditional(i, x, x), "
          "branch_computations={b0, b1}\n}\n")
          .find("branch 1 computation %b1 must be (f32[]) -> f32[], but it "
                "returns s32[]"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsGatherWithBadDimensionNumbers) {
  EXPECT_NE(
      VerifyError(
          EntryWith(
              "  idx = s32[4,1] parameter(2)\n  ROOT g = f32[4,3] gather(x, "
              "idx), offset_dims={1}, collapsed_slice_dims={0}, "
              "start_index_map={0,1}, index_vector_dim=1, "
              "slice_sizes={1,3}"))
          .find("start_index_map {0,1} must have one entry per index "
                "vector element (1)"),
      std::string::npos);
  EXPECT_NE(
      VerifyError(
          EntryWith(
              "  idx = s32[4,1] parameter(2)\n  ROOT g = f32[4,3] gather(x, "
              "idx), offset_dims={1}, collapsed_slice_dims={0}, "
              "start_index_map={0}, index_vector_dim=1, slice_sizes={2,3}"))
          .find("slice size of collapsed or batching dimension 0 must be "
                "at most 1"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsScatterWhoseUpdatesDoNotFit) {
  EXPECT_NE(
      VerifyError(
          EntryWith(
              "  idx = s32[4,1] parameter(2)\n  u = f32[5,3] parameter(3)\n"
              "  ROOT s = f32[2,3] scatter(x, idx, u), "
              "update_window_dims={1}, inserted_window_dims={0}, "
              "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
              "to_apply=add"))
          .find("update scatter dimension 0 must match the indices' "
                "batch dimensions"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsDotWithMismatchedContractingSizes) {
  EXPECT_NE(VerifyError(EntryWith("  ROOT d = f32[2,2] dot(x, x), "
                                  "lhs_contracting_dims={1}, "
                                  "rhs_contracting_dims={0}"))
                .find("contracting dimension sizes differ"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsConvolutionWithMismatchedFeatures) {
  EXPECT_NE(
      VerifyError(
          "HloModule m\nENTRY main {\n  in = f32[1,5,5,3] parameter(0)\n  k = "
          "f32[3,3,2,4] parameter(1)\n  ROOT c = f32[1,3,3,4] "
          "convolution(in, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n"
          "}\n")
          .find("input feature size 3 must be the kernel's input feature "
                "size 2 times feature_group_count 1"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsSliceOutOfBoundsAndNegativePadding) {
  EXPECT_NE(
      VerifyError(
          EntryWith("  ROOT s = f32[1,3] slice(x), slice={[0:1], [1:4]}"))
          .find("slice range [1:4:1] is invalid for dimension 1 of size 3"),
      std::string::npos);
  EXPECT_NE(VerifyError(EntryWith("  zero = f32[] constant(0)\n  ROOT p = "
                                  "f32[0,3] pad(x, zero), padding=-2_-1x0_0"))
                .find("padding dimension 0 to a negative size -1"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsComparisonTypeInconsistentWithElements) {
  EXPECT_NE(VerifyError(EntryWith("  ROOT c = pred[] compare(i, i), "
                                  "direction=LT, type=FLOAT"))
                .find("comparison type FLOAT does not apply to s32 operands"),
            std::string::npos);
}

TEST(HloVerifierTest, RejectsRecursiveCalls) {
  EXPECT_NE(
      VerifyError("HloModule m\nloop {\n  p = f32[] parameter(0)\n  ROOT "
                  "c = f32[] call(p), to_apply=loop\n}\nENTRY main {\n  x "
                  "= f32[] parameter(0)\n  ROOT c = f32[] call(x), "
                  "to_apply=loop\n}\n")
          .find("which is already on the call stack"),
      std::string::npos);
}

TEST(HloVerifierTest, RejectsGetTupleElementOutOfRange) {
  EXPECT_EQ(VerifyError(EntryWith("  t = (f32[2,3]) tuple(x)\n  ROOT g = "
                                  "f32[2,3] get-tuple-element(t), index=1")),
            "in computation %main, get-tuple-element %g: index 1 is out of "
            "range for (f32[2,3])");
}

TEST(HloVerifierTest, RejectsIRWithOperandFromAnotherComputation) {
  HloModule module("m");
  auto other = std::make_unique<HloComputation>("other");
  HloInstruction* foreign =
      other->AddInstruction(std::make_unique<HloInstruction>(
          HloOpcode::kParameter, "p", Shape(PHAL_ELEMENT_TYPE_F32, {})));
  module.AddComputation(std::move(other));
  auto entry = std::make_unique<HloComputation>("main");
  auto negate = std::make_unique<HloInstruction>(
      HloOpcode::kNegate, "n", Shape(PHAL_ELEMENT_TYPE_F32, {}));
  negate->AppendOperand(foreign);
  entry->AddInstruction(std::move(negate));
  module.set_entry_computation(module.AddComputation(std::move(entry)));
  EXPECT_EQ(VerifyModule(module).message(),
            "in computation %main, negate %n: operand %p is not defined "
            "earlier in the same computation");
}

TEST(HloVerifierTest, RejectsParameterNumberGapAndMissingEntry) {
  HloModule module("m");
  EXPECT_EQ(VerifyModule(module).message(),
            "module m has no entry computation");
  auto entry = std::make_unique<HloComputation>("main");
  auto parameter = std::make_unique<HloInstruction>(
      HloOpcode::kParameter, "p", Shape(PHAL_ELEMENT_TYPE_F32, {}));
  parameter->set_parameter_number(1);
  entry->AddInstruction(std::move(parameter));
  module.set_entry_computation(module.AddComputation(std::move(entry)));
  EXPECT_EQ(VerifyModule(module).message(),
            "computation %main: has no parameter 0");
}

}  // namespace
}  // namespace phal
