#include "core/frontend/hlo_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "core/hlo/printer.h"
#include "core/hlo/replica_groups.h"
#include "core/hlo/verifier.h"
#include "core/reference/interpreter.h"
#include "core/testing/source_files.h"

namespace phal {
namespace {

std::string ReadTestData(const std::string& name) {
  return testing::ReadTextFile(
      testing::SourceFile("core/frontend/testdata/" + name));
}

std::unique_ptr<HloModule> ParseOrDie(std::string_view text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "test.hlo");
  EXPECT_TRUE(module.ok()) << module.status().message();
  return module.ok() ? std::move(module).value() : nullptr;
}

std::string ParseError(std::string_view text) {
  StatusOr<std::unique_ptr<HloModule>> module = ParseHloText(text, "bad.hlo");
  EXPECT_FALSE(module.ok()) << "parsed without error:\n" << text;
  return module.ok() ? "" : module.status().message();
}

// Parses, prints, parses the print again and expects the same module.
void ExpectRoundTrip(std::string_view text) {
  std::unique_ptr<HloModule> first = ParseOrDie(text);
  ASSERT_NE(first, nullptr);
  const std::string printed = HloModuleToText(*first);
  StatusOr<std::unique_ptr<HloModule>> second =
      ParseHloText(printed, "printed.hlo");
  ASSERT_TRUE(second.ok()) << second.status().message() << "\nprinted:\n"
                           << printed;
  EXPECT_TRUE(first->Identical(**second)) << "printed:\n" << printed;
  EXPECT_EQ(HloModuleToText(**second), printed);
}

const HloInstruction* Find(const HloModule& module, std::string_view name) {
  for (const HloComputation* computation : module.computations()) {
    if (const HloInstruction* found =
            computation->GetInstructionWithName(name)) {
      return found;
    }
  }
  ADD_FAILURE() << "no instruction " << name;
  return nullptr;
}

// Every module under testdata/: what JAX printed for a few programs, before
// (as_text) and after (compile().as_text()) XLA's optimizations, and
// every_op.hlo, written by hand to use every opcode and attribute.
std::vector<std::string> TestDataNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::string(PHAL_TEST_SOURCE_DIR) + "/core/frontend/testdata")) {
    if (entry.path().extension() == ".hlo") {
      names.push_back(entry.path().filename().string());
    }
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(HloParserTest, ParsesEveryTestDataModuleAndRoundTripsIt) {
  const std::vector<std::string> names = TestDataNames();
  EXPECT_GE(names.size(), 15u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const std::string text = ReadTestData(name);
    ASSERT_FALSE(text.empty()) << "missing test data " << name;
    ExpectRoundTrip(text);
  }
}

TEST(HloParserTest, TestDataUsesEveryOpcode) {
  std::set<HloOpcode> seen;
  for (const std::string& name : TestDataNames()) {
    std::unique_ptr<HloModule> module = ParseOrDie(ReadTestData(name));
    ASSERT_NE(module, nullptr) << name;
    for (const HloComputation* computation : module->computations()) {
      for (const HloInstruction* instruction : computation->instructions()) {
        seen.insert(instruction->opcode());
      }
    }
  }
  for (int i = 0; i < kHloOpcodeCount; ++i) {
    const auto opcode = static_cast<HloOpcode>(i);
    EXPECT_EQ(seen.count(opcode), 1u)
        << "no test module uses " << HloOpcodeName(opcode);
  }
}

TEST(HloPrinterTest, PrintsXlaSyntaxWithOnlyNonDefaultLayoutsAndAttributes) {
  std::unique_ptr<HloModule> module =
      ParseOrDie(R"(HloModule m, is_scheduled=true
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b), metadata={op_name="add"}
}
ENTRY main {
  x = f32[2,3]{0,1} parameter(0)
  zero = f32[] constant(0)
  k = f32[2,2]{1,0} constant({ {0.1, -inf}, {1e+30, -0} })
  r = f32[2] reduce(x, zero), dimensions={1}, to_apply=add
  c = pred[2] compare(r, r), direction=LT
  ROOT w = f32[1,1] reduce-window(k, zero), window={size=2x2 stride=1x1 pad=0_0x0_0}, to_apply=add
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(HloModuleToText(*module),
            "HloModule m\n"
            "\n"
            "%add (a: f32[], b: f32[]) -> f32[] {\n"
            "  %a = f32[] parameter(0)\n"
            "  %b = f32[] parameter(1)\n"
            "  ROOT %s = f32[] add(%a, %b)\n"
            "}\n"
            "\n"
            "ENTRY %main (x: f32[2,3]{0,1}) -> f32[1,1] {\n"
            "  %x = f32[2,3]{0,1} parameter(0)\n"
            "  %zero = f32[] constant(0)\n"
            "  %k = f32[2,2] constant({ {0.1, -inf}, {1e+30, -0} })\n"
            "  %r = f32[2] reduce(%x, %zero), dimensions={1}, to_apply=%add\n"
            "  %c = pred[2] compare(%r, %r), direction=LT\n"
            "  ROOT %w = f32[1,1] reduce-window(%k, %zero), window={size=2x2}, "
            "to_apply=%add\n"
            "}\n");
}

TEST(HloParserTest, EntryIsTheEntryComputationWithItsParameters) {
  std::unique_ptr<HloModule> module =
      ParseOrDie(ReadTestData("jax_control.hlo"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->name(), "jit_control");
  const HloComputation* entry = module->entry_computation();
  EXPECT_EQ(entry->name(), "main.11");
  ASSERT_EQ(entry->num_parameters(), 2);
  EXPECT_EQ(entry->parameter_instruction(1)->name(), "i.1");
  EXPECT_EQ(entry->root_instruction()->opcode(), HloOpcode::kTuple);
  const HloInstruction* loop = Find(*module, "while.5");
  EXPECT_EQ(loop->while_condition()->name(), "region_1.2");
  EXPECT_EQ(loop->while_body()->name(), "region_0.1");
  const HloInstruction* cond = Find(*module, "cond.1");
  ASSERT_EQ(cond->branch_computations().size(), 3u);
  EXPECT_EQ(cond->branch_computations()[2]->name(), "region_6.8");
}

TEST(HloParserTest, LastComputationIsEntryWithoutEntryKeyword) {
  std::unique_ptr<HloModule> module = ParseOrDie(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
main {
  x = f32[] parameter(0)
  ROOT y = f32[] call(x, x), to_apply=add
})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->entry_computation()->name(), "main");
  EXPECT_EQ(Find(*module, "y")->to_apply()->name(), "add");
}

TEST(HloParserTest, AcceptsOldStyleOperandShapesAndPercentNames) {
  std::unique_ptr<HloModule> module = ParseOrDie(R"(HloModule old
ENTRY %main (a: f32[2], b: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} parameter(1)
  ROOT %sum = f32[2]{0} add(f32[2]{0} %a, f32[2]{0} %b)
})");
  ASSERT_NE(module, nullptr);
  const HloInstruction* sum = Find(*module, "sum");
  EXPECT_EQ(sum->operand(1)->name(), "b");
  EXPECT_EQ(sum->shape(), Shape(PHAL_ELEMENT_TYPE_F32, {2}));
}

TEST(HloParserTest, ReadsEveryLiteralForm) {
  std::unique_ptr<HloModule> module = ParseOrDie(R"(HloModule literals
ENTRY main {
  matrix = s32[2,2] constant({ {1, 2}, {3, -4} })
  floats = f32[4] constant({inf, -inf, nan, 1.5e-05})
  flags = pred[2] constant({true, false})
  half = f16[2] constant({0.5, -2})
  brain = bf16[] constant(3)
  wide = u64[] constant(18446744073709551615)
  complex = c64[2] constant({(1, 2), (-3.5, 0)})
  tuple = (s32[1], f32[]) constant(( {7}, 2.5 ))
  empty = f32[0,3] constant({})
  ROOT result = (s32[2,2], f32[4]) tuple(matrix, floats)
})");
  ASSERT_NE(module, nullptr);
  const Literal& matrix = Find(*module, "matrix")->literal();
  EXPECT_EQ(matrix.data_as<int32_t>()[3], -4);
  const float* floats = Find(*module, "floats")->literal().data_as<float>();
  EXPECT_TRUE(std::isinf(floats[0]) && floats[0] > 0);
  EXPECT_TRUE(std::isinf(floats[1]) && floats[1] < 0);
  EXPECT_TRUE(std::isnan(floats[2]));
  EXPECT_FLOAT_EQ(floats[3], 1.5e-05f);
  EXPECT_EQ(Find(*module, "flags")->literal().data()[0], 1);
  EXPECT_EQ(Find(*module, "half")->literal().data_as<uint16_t>()[1], 0xC000);
  EXPECT_EQ(Find(*module, "brain")->literal().data_as<uint16_t>()[0], 0x4040);
  EXPECT_EQ(Find(*module, "wide")->literal().data_as<uint64_t>()[0],
            UINT64_MAX);
  const float* complex = Find(*module, "complex")->literal().data_as<float>();
  EXPECT_EQ(complex[1], 2.0f);
  EXPECT_EQ(complex[2], -3.5f);
  const Literal& tuple = Find(*module, "tuple")->literal();
  ASSERT_EQ(tuple.tuple_elements().size(), 2u);
  EXPECT_EQ(tuple.tuple_elements()[0].data_as<int32_t>()[0], 7);
  EXPECT_EQ(tuple.tuple_elements()[1].data_as<float>()[0], 2.5f);
}

TEST(HloParserTest, ToleratesTilingLayoutsAndIgnoredAttributes) {
  std::unique_ptr<HloModule> module = ParseOrDie(
      R"(HloModule m, is_scheduled=true, entry_computation_layout={(f32[8,128]{1,0})->f32[8,128]{1,0}}
ENTRY main {
  p = f32[8,128]{0,1:T(8,128)} parameter(0), sharding={replicated}, metadata={op_name="x" source_file="a, b.py" source_line=3}
  ROOT n = f32[8,128]{1,0:T(8,128)S(1)} negate(p), backend_config="{\"k\":\"v,}\"}", frontend_attributes={a="b"}, origin={{"x"}}
}
FileNames
1 "a.py"
StackFrames
1 {file_location_id=1 parent_frame_id=1})");
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(Find(*module, "p")->shape().minor_to_major(),
            (std::vector<int64_t>{0, 1}));
}

TEST(HloParserTest, ReadsEveryAttributeOfTheOpsItSupports) {
  constexpr const char* kText = R"(HloModule attributes
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
ENTRY main {
  x = f32[4,6] parameter(0)
  i = s32[2,1] parameter(1)
  s = f32[] constant(0)
  bcast = f32[3,4,6] broadcast(x), dimensions={1,2}
  t = f32[6,4] transpose(x), dimensions={1,0}
  sl = f32[2,2] slice(x), slice={[0:4:2], [1:3]}
  pd = f32[5,13] pad(x, s), padding=0_1x-1_2_2
  rw = f32[2,3] reduce-window(x, s), window={size=2x2 stride=2x2 pad=0_0x0_0 lhs_dilate=1x1 rhs_dilate=1x1}, to_apply=add
  img = f32[1,4,6,1] reshape(x)
  kernel = f32[3,3,1,2] parameter(2)
  cv = f32[1,4,6,2] convolution(img, kernel), window={size=3x3 pad=1_1x1_1 rhs_reversal=0x1}, dim_labels=b01f_01io->b01f, feature_group_count=1, batch_group_count=1
  d = f32[4,4] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={1}
  g = f32[2,6] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,6}, indices_are_sorted=true
  u = f32[2,6] parameter(3)
  sc = f32[4,6] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, indices_are_sorted=true, unique_indices=true, to_apply=add
  cmp = pred[4,6] compare(x, x), direction=LT, type=TOTALORDER
  io = s32[4,6] iota(), iota_dimension=1
  rp = f32[4,6] reduce-precision(x), exponent_bits=5, mantissa_bits=10
  so = f32[4,6] sort(x), dimensions={1}, is_stable=true, to_apply=ge
  ss = f32[4,6] select-and-scatter(x, rw, s), window={size=2x2 stride=2x2}, select=ge, scatter=add
  ROOT r = (f32[3,4,6], f32[6,4]) tuple(bcast, t)
})";
  std::unique_ptr<HloModule> module = ParseOrDie(kText);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(Find(*module, "bcast")->dimensions(), (std::vector<int64_t>{1, 2}));
  const HloInstruction* slice = Find(*module, "sl");
  EXPECT_EQ(slice->slice_strides(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(slice->slice_limits(), (std::vector<int64_t>{4, 3}));
  const PaddingConfig& padding = Find(*module, "pd")->padding_config();
  ASSERT_EQ(padding.dimensions.size(), 2u);
  EXPECT_EQ(padding.dimensions[1], (PaddingDimension{-1, 2, 2}));
  const Window& window = Find(*module, "rw")->window();
  ASSERT_EQ(window.dimensions.size(), 2u);
  EXPECT_EQ(window.dimensions[0].stride, 2);
  const HloInstruction* conv = Find(*module, "cv");
  EXPECT_TRUE(conv->window().dimensions[1].window_reversal);
  EXPECT_EQ(conv->window().dimensions[0].padding_high, 1);
  const ConvolutionDimensionNumbers& labels =
      conv->convolution_dimension_numbers();
  EXPECT_EQ(labels.input_feature_dimension, 3);
  EXPECT_EQ(labels.kernel_output_feature_dimension, 3);
  EXPECT_EQ(labels.kernel_input_feature_dimension, 2);
  EXPECT_EQ(labels.output_spatial_dimensions, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(
      Find(*module, "d")->dot_dimension_numbers().rhs_contracting_dimensions,
      (std::vector<int64_t>{1}));
  const HloInstruction* gather = Find(*module, "g");
  EXPECT_EQ(gather->gather_slice_sizes(), (std::vector<int64_t>{1, 6}));
  EXPECT_EQ(gather->gather_dimension_numbers().index_vector_dim, 1);
  EXPECT_TRUE(gather->indices_are_sorted());
  const HloInstruction* scatter = Find(*module, "sc");
  EXPECT_EQ(scatter->scatter_dimension_numbers().inserted_window_dims,
            (std::vector<int64_t>{0}));
  EXPECT_TRUE(scatter->unique_indices());
  EXPECT_EQ(scatter->to_apply()->name(), "add");
  const HloInstruction* compare = Find(*module, "cmp");
  EXPECT_EQ(compare->comparison_direction(), ComparisonDirection::kLt);
  EXPECT_EQ(compare->comparison_type(), ComparisonType::kTotalOrder);
  EXPECT_EQ(Find(*module, "io")->iota_dimension(), 1);
  EXPECT_EQ(Find(*module, "rp")->mantissa_bits(), 10);
  EXPECT_TRUE(Find(*module, "so")->is_stable());
  const HloInstruction* select_and_scatter = Find(*module, "ss");
  EXPECT_EQ(select_and_scatter->select()->name(), "ge");
  EXPECT_EQ(select_and_scatter->scatter()->name(), "add");
  ExpectRoundTrip(kText);
}

TEST(HloParserTest, ReadsControlFlowAndBatchNormAttributes) {
  constexpr const char* kText = R"(HloModule control
yes {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
no {
  p = f32[] parameter(0)
  ROOT cp = f32[] copy(p)
}
ENTRY main {
  flag = pred[] parameter(0)
  v = f32[] parameter(1)
  c = f32[] conditional(flag, v, v), true_computation=yes, false_computation=no
  x = f32[2,3] parameter(2)
  scale = f32[3] parameter(3)
  bn = f32[2,3] batch-norm-inference(x, scale, scale, scale, scale), epsilon=0.001, feature_index=1
  t = (f32[], f32[2,3]) tuple(c, bn)
  ROOT ob = (f32[], f32[2,3]) opt-barrier(t)
})";
  std::unique_ptr<HloModule> module = ParseOrDie(kText);
  ASSERT_NE(module, nullptr);
  const HloInstruction* conditional = Find(*module, "c");
  EXPECT_EQ(conditional->true_computation()->name(), "yes");
  EXPECT_EQ(conditional->false_computation()->name(), "no");
  const HloInstruction* batch_norm = Find(*module, "bn");
  EXPECT_FLOAT_EQ(batch_norm->epsilon(), 0.001f);
  EXPECT_EQ(batch_norm->feature_index(), 1);
  EXPECT_EQ(module->entry_computation()->root_instruction()->opcode(),
            HloOpcode::kOptimizationBarrier);
  ExpectRoundTrip(kText);
}

// hlo_parser_fuzzer's finding: a parameter whose name starts with a digit
// (legal after '%') printed in the computation's signature without its '%'
// did not parse back.
TEST(HloParserTest, ParameterNamesStartingWithADigitRoundTrip) {
  ExpectRoundTrip(R"(HloModule m

ENTRY %main (%9x.2: f32[]) -> f32[] {
  ROOT %9x.2 = f32[] parameter(0)
})");
}

TEST(HloParserTest, FuzzerFindingRoundTrips) {
  ExpectRoundTrip(
      "HloModule jit_cnnloss, entry_compation_layout={(f32ter.2, "
      "seleccatte\xf2.,e6s lect_and_tr\n)e7}.\n\nENTRY mc63.4 {\n"
      "  x.1 = f32[2,2,6,6]{3,2,1,0} parameter(0)\n"
      ", window={size=3x3 pad=1_1x1_1}, dim.1 = f32[2,2,6,6]{3,201\n"
      "  codi5)\n}\n\n");
}

TEST(HloParserTest, ReadsFftTypesAndLengths) {
  constexpr const char* kText = R"(HloModule fft
ENTRY main {
  x = c64[8,8] parameter(0)
  r = f32[2,3,8] parameter(1)
  rfft = c64[8,5] fft(x), fft_type=RFFT, fft_length={8}
  f = c64[8,8] fft(x), fft_type=FFT, fft_length={8,8}
  i = c64[8,8] fft(x), fft_type=IFFT, fft_length={8}
  real = c64[2,3,5] fft(r), fft_type=RFFT, fft_length={2,3,8}
  ROOT back = f32[2,3,8] fft(real), fft_type=IRFFT, fft_length={2,3,8}
})";
  StatusOr<std::unique_ptr<HloModule>> parsed = ParseHloText(kText, "fft.hlo");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  // c64[8,8] as an RFFT operand is the issue's example: the parser reads
  // it; the verifier, not the parser, rejects its type.
  EXPECT_EQ(Find(**parsed, "rfft")->fft_type(), FftType::kRfft);
  EXPECT_EQ(Find(**parsed, "f")->fft_length(), (std::vector<int64_t>{8, 8}));
  EXPECT_EQ(Find(**parsed, "i")->fft_type(), FftType::kIfft);
  const HloInstruction* back = Find(**parsed, "back");
  EXPECT_EQ(back->fft_type(), FftType::kIrfft);
  EXPECT_EQ(back->fft_length(), (std::vector<int64_t>{2, 3, 8}));
  EXPECT_NE(HloModuleToText(**parsed).find(
                "fft(%real), fft_type=IRFFT, fft_length={2,3,8}"),
            std::string::npos);
}

// --- LAPACK custom calls
// ---------------------------------------------------------------

TEST(HloParserLapackTest, GetrfAsJaxPrintsItIsACallWithLapacksOutputs) {
  std::unique_ptr<HloModule> module = ParseOrDie(
      "HloModule m\nENTRY main {\n  a = f64[2,2]{0,1} parameter(0)\n"
      "  ROOT lu = (f64[2,2]{0,1}, s32[2]{0}, s32[]) custom-call(a), "
      "custom_call_target=\"lapack_dgetrf_ffi\", "
      "operand_layout_constraints={f64[2,2]{0,1}}, "
      "output_to_operand_aliasing={{0}: (0, {})}, "
      "api_version=API_VERSION_TYPED_FFI, "
      "frontend_attributes={num_batch_dims=\"0\"}, backend_config={}\n}\n");
  ASSERT_NE(module, nullptr);
  ASSERT_TRUE(VerifyModule(*module).ok());
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_EQ(root->opcode(), HloOpcode::kCall);
  EXPECT_EQ(root->name(), "lu");
  Literal a(Shape(PHAL_ELEMENT_TYPE_F64, {2, 2}));
  const double values[] = {1, 2, 4, 2};
  for (int64_t i = 0; i < 4; ++i) a.SetFromDouble(i, values[i]);
  StatusOr<Literal> result = Evaluate(*module, {a});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const std::vector<Literal>& parts = result->tuple_elements();
  // Rows swapped: [[4, 2], [1, 2]] = [[1, 0], [1/4, 1]] [[4, 2], [0, 1.5]].
  const double factors[] = {4, 2, 0.25, 1.5};
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(parts[0].GetAsDouble(i), factors[i]);
  EXPECT_EQ(parts[1].GetAsInt64(0), 2);
  EXPECT_EQ(parts[1].GetAsInt64(1), 2);
  EXPECT_EQ(parts[2].GetAsInt64(0), 0);
}

TEST(HloParserLapackTest, TrsmReadsItsBackendConfig) {
  std::unique_ptr<HloModule> module = ParseOrDie(
      "HloModule m\nENTRY main {\n  a = f64[2,2]{0,1} parameter(0)\n"
      "  b = f64[2,1]{0,1} parameter(1)\n"
      "  ROOT x = f64[2,1]{0,1} custom-call(a, b), "
      "custom_call_target=\"lapack_dtrsm_ffi\", "
      "api_version=API_VERSION_TYPED_FFI, backend_config={diag = 78 : ui8, "
      "side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}\n}\n");
  ASSERT_NE(module, nullptr);
  Literal a(Shape(PHAL_ELEMENT_TYPE_F64, {2, 2}));
  Literal b(Shape(PHAL_ELEMENT_TYPE_F64, {2, 1}));
  const double a_values[] = {2, 1, 99, 4};
  for (int64_t i = 0; i < 4; ++i) a.SetFromDouble(i, a_values[i]);
  b.SetFromDouble(0, 2);
  b.SetFromDouble(1, 9);
  // The upper triangle [[2, 1], [0, 4]] transposed: [[2, 0], [1, 4]] x =
  // [2, 9] -> x = [1, 2].
  StatusOr<Literal> result = Evaluate(*module, {a, b});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->GetAsDouble(0), 1);
  EXPECT_EQ(result->GetAsDouble(1), 2);
}

TEST(HloParserLapackTest, ARoutineNotLoweredIsALocatedError) {
  const std::string error = ParseError(
      "HloModule m\nENTRY main {\n  a = f32[2,2] parameter(0)\n"
      "  ROOT e = (f32[2,2], f32[2], f32[2], f32[2,2], s32[]) custom-call(a), "
      "custom_call_target=\"lapack_sgeev_ffi\"\n}\n");
  EXPECT_NE(error.find("bad.hlo:4:"), std::string::npos) << error;
  EXPECT_NE(error.find("LAPACK's geev is not lowered yet"), std::string::npos)
      << error;
}

// --- ragged-dot
// ---------------------------------------------------------------

// A module whose root is `ragged` (a ragged-dot of lhs f32[4,2], rhs
// f32[2,2,3] and group sizes s32[2], as JAX prints it), stated to return
// `result`.
std::string RaggedDotModule(const std::string& ragged,
                            const std::string& result = "f32[4,3]{1,0}") {
  return "HloModule m\n"
         "ENTRY main {\n"
         "  lhs = f32[4,2]{1,0} parameter(0)\n"
         "  rhs = f32[2,2,3]{2,1,0} parameter(1)\n"
         "  sizes = s32[2]{0} parameter(2)\n"
         "  ROOT r = " +
         result + " " + ragged +
         "\n"
         "}\n";
}

TEST(HloParserRaggedDotTest, RowsOfEachGroupMultiplyTheirGroupsMatrix) {
  std::unique_ptr<HloModule> module = ParseOrDie(RaggedDotModule(
      "ragged-dot(lhs, rhs, sizes), lhs_contracting_dims={1}, "
      "rhs_contracting_dims={1}, lhs_ragged_dims={0}, rhs_group_dims={0}, "
      "metadata={op_name=\"jit(f)/ragged_dot_general\"}"));
  ASSERT_NE(module, nullptr);
  ASSERT_TRUE(VerifyModule(*module).ok());
  const HloInstruction* root = module->entry_computation()->root_instruction();
  EXPECT_EQ(root->opcode(), HloOpcode::kCall);
  EXPECT_EQ(root->name(), "r");
  Literal lhs(Shape(PHAL_ELEMENT_TYPE_F32, {4, 2}));
  Literal rhs(Shape(PHAL_ELEMENT_TYPE_F32, {2, 2, 3}));
  Literal sizes(Shape(PHAL_ELEMENT_TYPE_S32, {2}));
  const double lhs_values[] = {1, 2, 3, 4, 5, 6, 7, 8};
  // Group 0 keeps the two inputs as the first two outputs; group 1 sends
  // the second input to output 0 and the first to output 2.
  const double rhs_values[] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0};
  for (int64_t i = 0; i < 8; ++i) lhs.SetFromDouble(i, lhs_values[i]);
  for (int64_t i = 0; i < 12; ++i) rhs.SetFromDouble(i, rhs_values[i]);
  // Row 0 in group 0, rows 1 and 2 in group 1, row 3 in none.
  sizes.SetFromDouble(0, 1);
  sizes.SetFromDouble(1, 2);
  StatusOr<Literal> result = Evaluate(*module, {lhs, rhs, sizes});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const double expected[] = {1, 2, 0, 4, 0, 3, 6, 0, 5, 0, 0, 0};
  for (int64_t i = 0; i < 12; ++i) {
    EXPECT_EQ(result->GetAsDouble(i), expected[i]) << "element " << i;
  }
}

TEST(HloParserRaggedDotTest, RaggedContractingDimensionGainsAGroupDimension) {
  std::unique_ptr<HloModule> module = ParseOrDie(
      "HloModule m\nENTRY main {\n  x = f32[3,8]{1,0} parameter(0)\n"
      "  w = f32[8,5]{1,0} parameter(1)\n  g = s32[2]{0} parameter(2)\n"
      "  ROOT r = f32[2,3,5]{2,1,0} ragged-dot(x, w, g), "
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}, "
      "lhs_ragged_dims={1}\n}\n");
  ASSERT_NE(module, nullptr);
  EXPECT_TRUE(VerifyModule(*module).ok());
}

TEST(HloParserRaggedDotTest, ModuleWithARaggedDotRoundTrips) {
  ExpectRoundTrip(
      RaggedDotModule("ragged-dot(lhs, rhs, sizes), lhs_contracting_dims={1}, "
                      "rhs_contracting_dims={1}, lhs_ragged_dims={0}, "
                      "rhs_group_dims={0}"));
}

TEST(HloParserRaggedDotTest, MalformedRaggedDotsAreLocatedErrors) {
  const std::string dims =
      "lhs_contracting_dims={1}, rhs_contracting_dims={1}, ";
  EXPECT_EQ(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "rhs_group_dims={0}")),
            "bad.hlo:6:3: error: ragged-dot %r needs attribute "
            "'lhs_ragged_dims'\n"
            "  ROOT r = f32[4,3]{1,0} ragged-dot(lhs, rhs, sizes), " +
                dims + "rhs_group_dims={0}\n  ^");
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "lhs_ragged_dims={0,1}, "
                                       "rhs_group_dims={0}"))
                .find("bad.hlo:6:3: error: ragged-dot %r: ragged_dot needs "
                      "exactly one lhs ragged dimension"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "lhs_ragged_dims={a}"))
                .find("bad.hlo:6:124: error: expected an integer for "
                      "lhs_ragged_dims"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs), " + dims +
                                       "lhs_ragged_dims={0}"))
                .find("bad.hlo:6:3: error: ragged-dot %r takes three operands "
                      "(lhs, rhs, group_sizes), got 2"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                           "lhs_ragged_dims={0}, "
                                           "rhs_group_dims={0}",
                                       "f32[4,4]{1,0}"))
                .find("ragged-dot %r computes f32[4,3], the text states "
                      "f32[4,4]"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "lhs_ragged_dims={0}, "
                                       "rhs_group_dims={0}, "
                                       "lhs_ragged_dims={0}"))
                .find("attribute 'lhs_ragged_dims' is given twice"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "lhs_ragged_dims={0}, "
                                       "rhs_group_dims={0}, to_apply=main"))
                .find("attribute 'to_apply' is not used by ragged-dot"),
            std::string::npos);
  EXPECT_NE(ParseError(RaggedDotModule("ragged-dot(lhs, rhs, sizes), " + dims +
                                       "lhs_ragged_dims={0}, "
                                       "rhs_group_dims={1}"))
                .find("rhs group dimension must be a dimension"),
            std::string::npos);
}

TEST(HloParserRaggedDotTest,
     EveryDimensionNumberCombinationIsAModuleOrAnError) {
  const std::vector<std::string> lists = {"{}",  "{0}",  "{1}",  "{2}",
                                          "{3}", "{-1}", "{0,1}"};
  int parsed = 0;
  for (const std::string& lhs_contracting : lists) {
    for (const std::string& rhs_contracting : lists) {
      for (const std::string& ragged : lists) {
        for (const std::string& group : lists) {
          const std::string text = RaggedDotModule(
              "ragged-dot(lhs, rhs, sizes), lhs_contracting_dims=" +
              lhs_contracting + ", rhs_contracting_dims=" + rhs_contracting +
              ", lhs_ragged_dims=" + ragged + ", rhs_group_dims=" + group);
          StatusOr<std::unique_ptr<HloModule>> module =
              ParseHloText(text, "any.hlo");
          if (!module.ok()) {
            EXPECT_EQ(module.status().message().rfind("any.hlo:6:", 0), 0u)
                << module.status().message();
            continue;
          }
          ++parsed;
          EXPECT_TRUE(VerifyModule(**module).ok()) << text;
        }
      }
    }
  }
  EXPECT_GE(parsed, 1);
}

TEST(HloParserRaggedDotTest, NeverCrashesOnTruncationsOfTheMoeLayer) {
  const std::string text = testing::ReadTextFile(
      testing::SourceFile("core/frontend/testdata/stablehlo/jax_moe.hlo"));
  ASSERT_FALSE(text.empty());
  for (std::size_t length = 0; length < text.size(); length += 5) {
    StatusOr<std::unique_ptr<HloModule>> module =
        ParseHloText(std::string_view(text).substr(0, length), "cut.hlo");
    if (!module.ok()) {
      EXPECT_EQ(module.status().message().rfind("cut.hlo:", 0), 0u);
    }
  }
}

// --- Errors -----------------------------------------------------------------

TEST(HloParserErrorTest, ReportsFileLineColumnSourceLineAndCaret) {
  const std::string message = ParseError(
      "HloModule m\nENTRY main {\n  p = f32[2] parameter(0)\n  ROOT n = "
      "f32[2] frobnicate(p)\n}\n");
  EXPECT_EQ(message,
            "bad.hlo:4:19: error: unknown or unsupported opcode 'frobnicate'\n"
            "  ROOT n = f32[2] frobnicate(p)\n"
            "                  ^");
}

TEST(HloParserErrorTest, UnknownElementTypeIsReportedAtTheType) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  p = f31[2] parameter(0)\n}"),
            "bad.hlo:3:7: error: unknown element type 'f31'\n"
            "  p = f31[2] parameter(0)\n"
            "      ^");
}

TEST(HloParserErrorTest, UndefinedOperandIsReportedAtItsUse) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  ROOT n = f32[] negate(q)\n}"),
            "bad.hlo:3:25: error: use of undefined instruction %q\n"
            "  ROOT n = f32[] negate(q)\n"
            "                        ^");
}

TEST(HloParserErrorTest, UndefinedComputationIsReportedAtTheReference) {
  EXPECT_EQ(
      ParseError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT c = "
                 "f32[] call(p), to_apply=nowhere\n}"),
      "bad.hlo:4:36: error: call of undefined computation %nowhere\n"
      "  ROOT c = f32[] call(p), to_apply=nowhere\n"
      "                                   ^");
}

TEST(HloParserErrorTest, TruncatedInputPointsAtTheEnd) {
  EXPECT_EQ(ParseError("HloModule m\nENTRY e {\n  p = f32[2] parameter(0"),
            "bad.hlo:3:25: error: expected ')' to close the parameter number, "
            "found end of input\n"
            "  p = f32[2] parameter(0\n"
            "                        ^");
}

TEST(HloParserErrorTest, LiteralWithTooFewElementsSaysHowManyTheShapeWants) {
  EXPECT_EQ(
      ParseError("HloModule m\nENTRY e {\n  c = s32[3] constant({1, 2})\n}"),
      "bad.hlo:3:28: error: literal dimension 0 has 2 elements, the "
      "shape s32[3] says 3\n"
      "  c = s32[3] constant({1, 2})\n"
      "                           ^");
}

TEST(HloParserErrorTest, OutOfRangeIntegerLiteralIsRejected) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  c = s8[] constant(200)\n}")
                .find("3:21: error: '200' is not a valid s8 value"),
            std::string::npos);
}

TEST(HloParserErrorTest, ElidedConstantIsRejectedWithAdvice) {
  EXPECT_NE(
      ParseError("HloModule m\nENTRY e {\n  c = s32[9] constant({...})\n}")
          .find("value was elided"),
      std::string::npos);
}

TEST(HloParserErrorTest, UnknownFftTypeIsReportedAtTheWord) {
  EXPECT_EQ(
      ParseError("HloModule m\nENTRY e {\n  x = c64[4] parameter(0)\n  "
                 "ROOT f = c64[4] fft(x), fft_type=DCT, fft_length={4}\n}"),
      "bad.hlo:4:36: error: unknown fft_type 'DCT' (expected FFT, IFFT, "
      "RFFT or IRFFT)\n"
      "  ROOT f = c64[4] fft(x), fft_type=DCT, fft_length={4}\n"
      "                                   ^");
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  x = c64[4] parameter(0)\n  "
                       "ROOT f = c64[4] fft(x), fft_type=FFT\n}")
                .find("4:3: error: fft %f needs attribute 'fft_length'"),
            std::string::npos);
}

TEST(HloParserErrorTest, MissingRequiredAttributeNamesIt) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  "
                       "ROOT b = f32[3,2] broadcast(p)\n}")
                .find("4:3: error: broadcast %b needs attribute 'dimensions'"),
            std::string::npos);
}

TEST(HloParserErrorTest, DuplicateNamesAndParametersAreRejected) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  p "
                       "= f32[] parameter(1)\n}")
                .find("4:3: error: instruction %p is defined twice"),
            std::string::npos);
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n  q "
                       "= f32[] parameter(0)\n}")
                .find("4:3: error: parameter number 0 is used twice"),
            std::string::npos);
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[] parameter(1)\n}")
                .find("2:7: error: computation %e has no parameter 0"),
            std::string::npos);
}

TEST(HloParserErrorTest, BadWindowPaddingAndDimLabelsAreExplained) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  "
                       "ROOT r = f32[2] reduce-window(p, p), window={size=2 "
                       "stride=2x2}, to_apply=e\n}")
                .find("window field 'stride' has 2 dimensions, size has 1"),
            std::string::npos);
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  "
                       "ROOT r = f32[4] pad(p, p), padding=1x2\n}")
                .find("expected '_' after the low padding"),
            std::string::npos);
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[1,1,1] "
                       "parameter(0)\n  ROOT c = f32[1,1,1] convolution(p, p), "
                       "dim_labels=b0f_0io->bb0\n}")
                .find("invalid dim_labels 'b0f_0io->bb0': the output part"),
            std::string::npos);
}

TEST(HloParserErrorTest, BadLayoutIsRejected) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[2,3]{0,0} "
                       "parameter(0)\n}")
                .find("3:15: error: layout is not a permutation"),
            std::string::npos);
}

TEST(HloParserErrorTest, SizesThatWouldExhaustMemoryOrStackAreRejected) {
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  p = f32[] "
                       "parameter(2000000000)\n}")
                .find("parameter number 2000000000 is out of range"),
            std::string::npos);
  std::string deep_rank = "f32[";
  for (int i = 0; i < 100; ++i) deep_rank += i > 0 ? ",1" : "1";
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  c = " + deep_rank +
                       "] constant(0)\n}")
                .find("shape has more than 64 dimensions"),
            std::string::npos);
  std::string deep_tuple = "c = ";
  for (int i = 0; i < 100; ++i) deep_tuple += "(";
  EXPECT_NE(ParseError("HloModule m\nENTRY e {\n  " + deep_tuple + "\n}")
                .find("shape nested too deeply"),
            std::string::npos);
}

TEST(HloParserErrorTest, NeverCrashesOnTruncationsOfARealDump) {
  const std::string text = ReadTestData("jax_control_compiled.hlo");
  ASSERT_FALSE(text.empty());
  for (std::size_t length = 0; length < text.size(); length += 7) {
    StatusOr<std::unique_ptr<HloModule>> module =
        ParseHloText(std::string_view(text).substr(0, length), "cut.hlo");
    if (!module.ok()) {
      EXPECT_EQ(module.status().message().rfind("cut.hlo:", 0), 0u);
    }
  }
}

TEST(HloParserErrorTest, NeverCrashesOnRandomBytes) {
  uint32_t state = 12345;
  const std::string alphabet = "HloModule ENTRY{}()[]=,%:->_x0123456789f32s";
  for (int trial = 0; trial < 300; ++trial) {
    std::string text = "HloModule r\n";
    for (int i = 0; i < 200; ++i) {
      state = state * 1664525u + 1013904223u;
      text += alphabet[(state >> 8) % alphabet.size()];
    }
    EXPECT_FALSE(ParseHloText(text, "random.hlo").ok());
  }
  EXPECT_FALSE(ParseHloText(std::string(10000, '('), "deep.hlo").ok());
  EXPECT_FALSE(ParseHloText("HloModule m\nENTRY e {\n  p = " +
                                std::string(10000, '(') + "\n}",
                            "deep.hlo")
                   .ok());
}

// --- Collectives and shardings ----------------------------------------------

// A module on `grid` ("replica_count=2, num_partitions=2") whose entry
// takes x: f32[4,2] and holds `body` (two-space indented lines, from
// line 11 on).
std::string SpmdModule(const std::string& grid, const std::string& body) {
  return "HloModule spmd, " + grid +
         "\n\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
         "  ROOT s = f32[] add(a, b)\n}\n\nENTRY main {\n"
         "  x = f32[4,2] parameter(0)\n" +
         body + "\n}\n";
}

TEST(HloCollectiveParserTest, ReadsTheGridGroupsChannelAndSharding) {
  std::unique_ptr<HloModule> module =
      ParseOrDie(ReadTestData("collectives.hlo"));
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->replica_count(), 2);
  EXPECT_EQ(module->num_partitions(), 2);
  const HloInstruction* iota = Find(*module, "sum.iota");
  ASSERT_NE(iota, nullptr);
  EXPECT_EQ(iota->opcode(), HloOpcode::kAllReduce);
  EXPECT_EQ(iota->channel_id(), 1);
  EXPECT_TRUE(iota->use_global_device_ids());
  EXPECT_EQ(iota->replica_groups().form(), ReplicaGroups::Form::kIota);
  EXPECT_EQ(iota->replica_groups().groups(),
            (std::vector<std::vector<int64_t>>{{0, 2}, {1, 3}}));
  EXPECT_EQ(iota->to_apply()->name(), "add");
  const HloInstruction* mesh = Find(*module, "sum.mesh");
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(mesh->replica_groups().form(), ReplicaGroups::Form::kMeshAxes);
  EXPECT_EQ(mesh->replica_groups().groups(),
            (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}));
  const HloInstruction* permute = Find(*module, "shifted");
  ASSERT_NE(permute, nullptr);
  EXPECT_EQ(permute->source_target_pairs(),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 0}}));
  const HloInstruction* x = Find(*module, "x");
  ASSERT_NE(x, nullptr);
  ASSERT_TRUE(x->sharding().has_value());
  EXPECT_EQ(x->sharding()->ToString(),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(Find(*module, "gathered")->shape().ToString(), "f32[8,2]");
  EXPECT_EQ(Find(*module, "gathered")->dimensions(), std::vector<int64_t>{0});
}

TEST(HloCollectiveParserTest, PrintsTheGridAndCollectiveAttributes) {
  std::unique_ptr<HloModule> module = ParseOrDie(SpmdModule(
      "replica_count=1, num_partitions=4",
      "  ROOT g = f32[16,2] all-gather(x), channel_id=1, "
      "replica_groups=[1,4]<=[4], dimensions={0}, use_global_device_ids=true, "
      "sharding={devices=[4,1]<=[4]}"));
  ASSERT_NE(module, nullptr);
  const std::string text = HloModuleToText(*module);
  EXPECT_NE(text.find("HloModule spmd, num_partitions=4\n"), std::string::npos)
      << text;
  EXPECT_NE(
      text.find("all-gather(%x), channel_id=1, replica_groups=[1,4]<=[4], "
                "dimensions={0}, use_global_device_ids=true, "
                "sharding={devices=[4,1]<=[4]}"),
      std::string::npos)
      << text;
  ExpectRoundTrip(text);
}

TEST(HloCollectiveParserTest, ShapesFollowTheGroupSize) {
  const std::string grid = "replica_count=2, num_partitions=2";
  EXPECT_NE(ParseOrDie(SpmdModule(grid,
                                  "  ROOT r = f32[1,2] reduce-scatter(x), "
                                  "channel_id=1, replica_groups={{0,1,2,3}}, "
                                  "use_global_device_ids=true, "
                                  "dimensions={0}, to_apply=add")),
            nullptr);
  // Without a channel all-gather groups replicas: two per group.
  EXPECT_NE(ParseOrDie(SpmdModule(grid,
                                  "  ROOT g = f32[4,4] all-gather(x), "
                                  "replica_groups={}, dimensions={1}")),
            nullptr);
  // With a channel and no global ids, {0,1} takes both partitions too.
  EXPECT_NE(ParseOrDie(SpmdModule(grid,
                                  "  ROOT g = f32[16,2] all-gather(x), "
                                  "channel_id=1, replica_groups={{0,1}}, "
                                  "dimensions={0}")),
            nullptr);
}

TEST(HloCollectiveParserTest, BadGroupsAreReportedAtTheirLineAndColumn) {
  const std::string grid = "replica_count=1, num_partitions=4";
  const std::string two_groups = ParseError(
      SpmdModule(grid,
                 "  ROOT r = f32[4,2] all-reduce(x), channel_id=1, "
                 "replica_groups={{0,1},{1,2,3}}, use_global_device_ids=true, "
                 "to_apply=add"));
  EXPECT_NE(two_groups.find("bad.hlo:11:65: error: all-reduce %r: process 1 "
                            "is in more than one replica group"),
            std::string::npos)
      << two_groups;
  const std::string sizes = ParseError(
      SpmdModule(grid,
                 "  ROOT g = f32[8,2] all-gather(x), channel_id=1, "
                 "replica_groups={{0},{1,2,3}}, use_global_device_ids=true, "
                 "dimensions={0}"));
  EXPECT_NE(sizes.find("bad.hlo:11:65: error: all-gather %g: all-gather needs "
                       "replica groups of one size"),
            std::string::npos)
      << sizes;
  const std::string range = ParseError(
      SpmdModule(grid,
                 "  ROOT p = f32[4,2] collective-permute(x), channel_id=1, "
                 "source_target_pairs={{0,4}}"));
  EXPECT_NE(range.find("bad.hlo:11:78: error: collective-permute %p: "
                       "partition id 4 is out of range"),
            std::string::npos)
      << range;
  const std::string missing = ParseError(
      SpmdModule(grid,
                 "  ROOT r = f32[4,2] all-reduce(x), channel_id=1, "
                 "replica_groups={{0,1}}, use_global_device_ids=true, "
                 "to_apply=add"));
  EXPECT_NE(missing.find("leave out process 2"), std::string::npos) << missing;
  const std::string global = ParseError(
      SpmdModule(grid,
                 "  ROOT r = f32[4,2] all-reduce(x), replica_groups={}, "
                 "use_global_device_ids=true, to_apply=add"));
  EXPECT_NE(global.find("use_global_device_ids needs a channel_id"),
            std::string::npos)
      << global;
}

TEST(HloCollectiveParserTest, BadShapesAreReportedAtTheInstruction) {
  const std::string grid = "replica_count=1, num_partitions=3";
  const std::string split =
      ParseError(SpmdModule(grid,
                            "  ROOT a = f32[4,2] all-to-all(x), channel_id=1, "
                            "replica_groups={{0,1,2}}, dimensions={0}"));
  EXPECT_NE(split.find("bad.hlo:11:3: error: all-to-all %a: the split "
                       "dimension 0 of f32[4,2] does not split into 3 equal "
                       "parts"),
            std::string::npos)
      << split;
  const std::string stated = ParseError(
      SpmdModule(grid,
                 "  ROOT g = f32[8,2] all-gather(x), channel_id=1, "
                 "replica_groups={{0,1,2}}, use_global_device_ids=true, "
                 "dimensions={0}"));
  EXPECT_NE(stated.find("the text states f32[8,2], the operands give "
                        "f32[12,2]"),
            std::string::npos)
      << stated;
  const std::string tuple =
      ParseError(SpmdModule(grid,
                            "  ROOT a = (f32[4,2], f32[4,2]) all-to-all(x, x), "
                            "channel_id=1, replica_groups={{0,1,2}}"));
  EXPECT_NE(tuple.find("one operand to each of the 3 members"),
            std::string::npos)
      << tuple;
}

TEST(HloCollectiveParserTest, ShardingMustFitTheValue) {
  const std::string error = ParseError(
      SpmdModule("num_partitions=2",
                 "  ROOT y = f32[4,2] negate(x), sharding={devices=[2]0,1}"));
  EXPECT_NE(error.find("bad.hlo:11:41: error: the sharding {devices=[2]0,1} "
                       "splits 1 dimensions, the value f32[4,2] has 2"),
            std::string::npos)
      << error;
  const std::string syntax = ParseError(SpmdModule(
      "num_partitions=2",
      "  ROOT y = f32[4,2] negate(x), sharding={devices=[2,1]0,1,2}"));
  EXPECT_NE(syntax.find("bad.hlo:11:50: error: the tile assignment [2,1] "
                        "needs 2 devices, the list has 3"),
            std::string::npos)
      << syntax;
}

TEST(HloShapeTextTest, ParsesArrayTupleAndLayout) {
  StatusOr<Shape> shape = ParseShapeText("(f32[2,3]{0,1}, pred[])");
  ASSERT_TRUE(shape.ok()) << shape.status().message();
  EXPECT_EQ(shape->ToString(), "(f32[2,3]{0,1}, pred[])");
  EXPECT_FALSE(ParseShapeText("f32[2").ok());
  EXPECT_FALSE(ParseShapeText("f32[-1]").ok());
  EXPECT_FALSE(ParseShapeText("f32[99999999999,99999999999]").ok());
}

// What XLA dumps right after its SPMD partitioning of a JAX shard_map
// program: the per-device module, with sharding= on the entry parameters
// (and, as scripts/export_spmd_models.py adds it, the root), Shardy's
// names and frontend attributes, and the stack-frame tables.
constexpr char kAfterSpmdPartitioning[] =
    R"(HloModule jit_f, entry_computation_layout={(f32[2]{0})->f32[2]{0}}, allow_spmd_sharding_propagation_to_parameters={true}, allow_spmd_sharding_propagation_to_output={true}, num_partitions=4, frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<["x"=4]>}}

FileNames
1 "/tmp/f.py"

FunctionNames
1 "f"

FileLocations
1 {file_name_id=1 function_name_id=1 line=6 end_line=6 column=8 end_column=8}

StackFrames
1 {file_location_id=1 parent_frame_id=1}


%region_0.0 (psum.0: f32[], psum.1: f32[]) -> f32[] {
  %psum.0 = f32[] parameter(0)
  %psum.1 = f32[] parameter(1)
  ROOT %add.0 = f32[] add(%psum.0, %psum.1), metadata={op_name="add" stack_frame_id=1}
}

%xla.sdy.inlinable_manual_computation_body.2_spmd (param: f32[2]) -> f32[2] {
  %param = f32[2]{0} parameter(0)
  ROOT %psum.6 = f32[2]{0} all-reduce(%param), channel_id=1, replica_groups={{0,1,2,3}}, use_global_device_ids=true, to_apply=%region_0.0
}

ENTRY %main.0_spmd (param.2: f32[2]) -> f32[2] {
  %param.2 = f32[2]{0} parameter(0), sharding={devices=[4]<=[4]}, metadata={op_name="a"}
  %call = f32[2]{0} call(%param.2), to_apply=%xla.sdy.inlinable_manual_computation_body.2_spmd, frontend_attributes={xla.sdy.manual_axes="#sdy<manual_axes{\"x\"}>"}
  ROOT %copy = f32[2]{0} copy(%call), sharding={replicated}
}
)";

TEST(HloCollectiveParserTest, KeepsTheShardingsOfAPartitionedEntry) {
  std::unique_ptr<HloModule> module = ParseOrDie(kAfterSpmdPartitioning);
  ASSERT_NE(module, nullptr);
  EXPECT_EQ(module->num_partitions(), 4);
  const HloComputation& entry = *module->entry_computation();
  ASSERT_TRUE(entry.parameter_instruction(0)->sharding().has_value());
  EXPECT_EQ(entry.parameter_instruction(0)->sharding()->ToString(),
            "{devices=[4]<=[4]}");
  ASSERT_TRUE(entry.root_instruction()->sharding().has_value());
  EXPECT_EQ(entry.root_instruction()->sharding()->ToString(), "{replicated}");
  EXPECT_TRUE(VerifyModule(*module).ok());
}

}  // namespace
}  // namespace phal
