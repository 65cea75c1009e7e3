// The decompositions of ops no kernel kind computes (decompositions.h,
// batch-norm-grad in batch_norm_decomposition.cc) and tuple-shaped entry
// parameters: each program runs on the evaluator device and matches the
// reference interpreter, edge values included.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/passes.h"
#include "core/testing/compiler_test_util.h"
#include "sdk/kir/facts.h"

namespace phal::testing {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(TopKDecomposition, OrdersTotallyAndKeepsTiesInIndexOrder) {
  const Literal x = Literal::FromValues<double>(
      PHAL_ELEMENT_TYPE_F32, {3, 6},
      {1, 3, 3, 2, 3, 0,                  // ties: indices 1, 2, 4 in that order
       -0.0, 0.0, kNan, -kInf, kInf, -1,  // NaN above inf, -0 below +0
       5, 5, 5, 5, 5, 5});
  for (const char* largest : {"true", "false"}) {
    ExpectMatchesReference(std::string(R"(
HloModule topk
ENTRY main {
  x = f32[3,6] parameter(0)
  t = (f32[3,4], s32[3,4]) topk(x), k=4, largest=)") +
                               largest + R"(
  v = f32[3,4] get-tuple-element(t), index=0
  i = s32[3,4] get-tuple-element(t), index=1
  ROOT out = (f32[3,4], s32[3,4]) tuple(v, i)
}
)",
                           {x});
  }
}

// Long rows go through blocks (BlockTopK): rows of 3000 (not a whole
// number of blocks), many ties, NaNs of both signs and infinities, both
// directions, batch dimensions; integers too.
TEST(TopKDecomposition, LongRowsSelectTheSameByBlocks) {
  Literal x = TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 3000});
  const uint32_t negative_nan = 0xFFC00001u;
  for (int64_t i : {7, 2999, 5000, 12000}) {
    std::memcpy(x.data() + 4 * i, &negative_nan, 4);
  }
  for (int64_t i : {11, 3001, 9000}) x.SetFromDouble(i, kNan);
  for (int64_t i : {13, 4500, 17999}) x.SetFromDouble(i, kInf);
  for (int64_t i : {14, 6001}) x.SetFromDouble(i, -kInf);
  for (const char* largest : {"true", "false"}) {
    ExpectMatchesReference(std::string(R"(
HloModule topk
ENTRY main {
  x = f32[2,3,3000] parameter(0)
  ROOT t = (f32[2,3,7], s32[2,3,7]) topk(x), k=7, largest=)") +
                               largest + "\n}\n",
                           {x});
  }
  ExpectMatchesReference(R"(
HloModule topk
ENTRY main {
  x = s32[4,5000] parameter(0)
  ROOT t = (s32[4,3], s32[4,3]) topk(x), k=3, largest=true
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_S32, {4, 5000})});
}

TEST(TopKDecomposition, IntegerValues) {
  ExpectMatchesReference(
      R"(
HloModule topk
ENTRY main {
  x = s32[2,5] parameter(0)
  ROOT t = (s32[2,2], s32[2,2]) topk(x), k=2, largest=true
}
)",
      {Literal::FromValues<int64_t>(
          PHAL_ELEMENT_TYPE_S32, {2, 5},
          {-4, 7, 7, -2147483648, 2147483647, 0, 0, 0, 0, 0})});
}

TEST(BitcastConvertDecomposition, SplitsAndJoinsLittleEndianPieces) {
  const Literal f32 = Literal::FromValues<double>(PHAL_ELEMENT_TYPE_F32, {4},
                                                  {1.5, -0.0, kNan, -kInf});
  ExpectMatchesReference(R"(
HloModule split
ENTRY main {
  x = f32[4] parameter(0)
  bytes = u8[4,4] bitcast-convert(x)
  halves = s16[4,2] bitcast-convert(x)
  back = f32[4] bitcast-convert(bytes)
  ROOT out = (u8[4,4], s16[4,2], f32[4]) tuple(bytes, halves, back)
}
)",
                         {f32});
  ExpectMatchesReference(R"(
HloModule join
ENTRY main {
  x = u8[3,8] parameter(0)
  wide = f64[3] bitcast-convert(x)
  pairs = s32[3,2] bitcast-convert(wide)
  ROOT out = (f64[3], s32[3,2]) tuple(wide, pairs)
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_U8, {3, 8}, 5)});
}

TEST(BitcastConvertDecomposition, PredIsTheByteZeroOrOne) {
  ExpectMatchesReference(
      R"(
HloModule pred_bytes
ENTRY main {
  p = pred[4] parameter(0)
  u = u8[4] bitcast-convert(p)
  s = s8[4] bitcast-convert(p)
  ROOT out = (u8[4], s8[4]) tuple(u, s)
}
)",
      {Literal::FromValues<double>(PHAL_ELEMENT_TYPE_PRED, {4}, {1, 0, 0, 1})});
}

TEST(BitcastConvertDecomposition, ComplexValuesAreTheirPartsInMemory) {
  ExpectMatchesReference(
      R"(
HloModule complex
ENTRY main {
  x = f64[2,2] parameter(0)
  z = c128[2] bitcast-convert(x)
  narrow = c64[2,2] bitcast-convert(z)
  wide = c128[2] bitcast-convert(narrow)
  words = u32[2,2,2] bitcast-convert(narrow)
  floats = f32[2,2,2] bitcast-convert(narrow)
  ROOT out = (c128[2], c64[2,2], c128[2], u32[2,2,2], f32[2,2,2]) tuple(z, narrow, wide, words, floats)
}
)",
      {Literal::FromValues<double>(PHAL_ELEMENT_TYPE_F64, {2, 2},
                                   {1.25, -2.5, 1e300, -0.0})});
}

constexpr char kVariadicScatter[] = R"(
HloModule scatter2
combine {
  a = f32[] parameter(0)
  b = s32[] parameter(1)
  u = f32[] parameter(2)
  v = s32[] parameter(3)
  s = f32[] add(a, u)
  m = s32[] maximum(b, v)
  ROOT t = (f32[], s32[]) tuple(s, m)
}
ENTRY main {
  x = f32[5,2] parameter(0)
  y = s32[5,2] parameter(1)
  idx = s32[4,1] parameter(2)
  ux = f32[4,2] parameter(3)
  uy = s32[4,2] parameter(4)
  ROOT s = (f32[5,2], s32[5,2]) scatter(x, y, idx, ux, uy), update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine
}
)";

// Distance in units in the last place of `type` (f32 or f64); 0 for two
// NaNs, infinite when only one is NaN.
double UlpDistance(ElementType type, double actual, double expected) {
  if (std::isnan(actual) || std::isnan(expected)) {
    return std::isnan(actual) && std::isnan(expected) ? 0 : kInf;
  }
  if (actual == expected) return 0;
  const double ulp =
      type == PHAL_ELEMENT_TYPE_F32
          ? std::nextafter(static_cast<float>(std::fabs(expected)),
                           std::numeric_limits<float>::infinity()) -
                std::fabs(static_cast<float>(expected))
          : std::nextafter(std::fabs(expected), kInf) - std::fabs(expected);
  return std::fabs(actual - expected) / ulp;
}

// Runs `op` on `xs` in `type` on the evaluator device and checks each
// element against the reference within `ulps`; `reference`, when given,
// receives the reference's results.
void ExpectUnaryWithinUlps(const std::string& op, ElementType type,
                           const std::vector<double>& xs, double ulps,
                           std::vector<double>* reference = nullptr) {
  const std::string name = ElementTypeName(type);
  const std::string shape = name + "[" + std::to_string(xs.size()) + "]";
  const std::string text =
      "HloModule " + op + "\nENTRY main {\n  x = " + shape +
      " parameter(0)\n  ROOT r = " + shape + " " + op + "(x)\n}\n";
  const Literal x =
      Literal::FromValues<double>(type, {static_cast<int64_t>(xs.size())}, xs);
  const std::vector<Literal> expected = ReferenceLeaves(text, {x});
  ASSERT_EQ(expected.size(), 1u);
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, {x});
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    const double want = expected[0].GetAsDouble(i);
    const double got = (*actual)[0].GetAsDouble(i);
    if (reference != nullptr) reference->push_back(want);
    const bool both_infinite = std::isinf(want) && got == want;
    EXPECT_TRUE(both_infinite || UlpDistance(type, got, want) <= ulps)
        << name << " " << op << "(" << x.GetAsDouble(i) << "): expected "
        << want << ", got " << got;
  }
}

// Runs `op` on `xs` in f32 and in f64, as ExpectUnaryWithinUlps.
void ExpectUnaryWithinUlps(const std::string& op, const std::vector<double>& xs,
                           double ulps) {
  for (const ElementType type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
    ExpectUnaryWithinUlps(op, type, xs, ulps);
  }
}

// erfc(x) on a grid from -6 to where it underflows, and its edge values:
// the decomposition's worst error, measured with the evaluator's
// correctly rounded erf and exp, is 4.6 ulp in f32 and 10.1 ulp in f64.
TEST(ErfcDecomposition, StaysWithinItsMeasuredUlpsUpToUnderflow) {
  struct Precision {
    ElementType type;
    double high;
    double ulps;
  };
  for (const Precision& p : {Precision{PHAL_ELEMENT_TYPE_F32, 10.6, 5},
                             Precision{PHAL_ELEMENT_TYPE_F64, 27.6, 11}}) {
    std::vector<double> xs = {kNan, kInf, -kInf, 0.0, -0.0, 1.0, -1.0};
    for (double x = -6; x < p.high; x += 0.0137) xs.push_back(x);
    std::vector<double> reference;
    ExpectUnaryWithinUlps("erfc", p.type, xs, p.ulps, &reference);
    ASSERT_EQ(reference.size(), xs.size());
    EXPECT_EQ(reference[2], 2.0) << "erfc(-inf)";
    EXPECT_EQ(reference[1], 0.0) << "erfc(inf)";
  }
}

// Values in [-2, 2) with imaginary parts for complex types.
Literal FftInput(ElementType type, std::vector<int64_t> dims) {
  Literal literal(Shape(type, std::move(dims)));
  for (int64_t i = 0; i < literal.ElementCount(); ++i) {
    const double re = static_cast<double>((i * 7 + 3) % 17) / 4.0 - 2.0;
    const double im = static_cast<double>((i * 5 + 1) % 13) / 3.0 - 2.0;
    literal.SetFromComplex(i, {re, im});
  }
  return literal;
}

TEST(FftDecomposition, EveryTypeAndRankMatchesTheReference) {
  struct FftCase {
    const char* operand;
    const char* result;
    const char* attributes;
    ElementType type;
    std::vector<int64_t> dims;
    // Relative to max(1, |expected|) per element: error grows with the
    // length of the sums, so the long transforms get more.
    double tolerance = 0;
  };
  const ElementType c64 = PHAL_ELEMENT_TYPE_C64;
  const ElementType c128 = PHAL_ELEMENT_TYPE_C128;
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  const ElementType f64 = PHAL_ELEMENT_TYPE_F64;
  const std::vector<FftCase> cases = {
      {"c64[3,7]", "c64[3,7]", "fft_type=FFT, fft_length={7}", c64, {3, 7}},
      {"c128[4,6]",
       "c128[4,6]",
       "fft_type=IFFT, fft_length={4,6}",
       c128,
       {4, 6}},
      {"c64[2,3,5]",
       "c64[2,3,5]",
       "fft_type=FFT, fft_length={2,3,5}",
       c64,
       {2, 3, 5}},
      {"f32[2,3,10]",
       "c64[2,3,6]",
       "fft_type=RFFT, fft_length={2,3,10}",
       f32,
       {2, 3, 10}},
      {"f64[97]", "c128[49]", "fft_type=RFFT, fft_length={97}", f64, {97}},
      {"c64[3,5]", "f32[3,8]", "fft_type=IRFFT, fft_length={8}", c64, {3, 5}},
      {"c128[5,4]",
       "f64[5,7]",
       "fft_type=IRFFT, fft_length={5,7}",
       c128,
       {5, 4}},
      {"c128[2,3,3]",
       "f64[2,3,5]",
       "fft_type=IRFFT, fft_length={2,3,5}",
       c128,
       {2, 3, 3}},
      {"c64[0,4]", "c64[0,4]", "fft_type=IFFT, fft_length={4}", c64, {0, 4}},
      // Twiddle grids beyond the host-computed tables: computed in place.
      {"c64[1,1100]",
       "c64[1,1100]",
       "fft_type=FFT, fft_length={1100}",
       c64,
       {1, 1100},
       4e-4},
      {"f64[1,2100]",
       "c128[1,1051]",
       "fft_type=RFFT, fft_length={2100}",
       f64,
       {1, 2100},
       2e-12},
      {"c64[1,1051]",
       "f32[1,2100]",
       "fft_type=IRFFT, fft_length={2100}",
       c64,
       {1, 1051},
       8e-4},
      // Composite lengths above 64, split into shorter transforms
      // (Cooley-Tukey), some more than once: 4096 = 64 x 64, 225 = 15 x 15
      // (odd, so IRFFT mirrors all but X_0), 96 = 8 x 12, 1000 = 25 x 40.
      {"c64[2,4096]",
       "c64[2,4096]",
       "fft_type=IFFT, fft_length={4096}",
       c64,
       {2, 4096},
       2e-5},
      {"c64[96,128]",
       "c64[96,128]",
       "fft_type=FFT, fft_length={96,128}",
       c64,
       {96, 128},
       1e-4},
      {"f32[3,4096]",
       "c64[3,2049]",
       "fft_type=RFFT, fft_length={4096}",
       f32,
       {3, 4096},
       4e-4},
      {"c64[3,113]",
       "f32[3,225]",
       "fft_type=IRFFT, fft_length={225}",
       c64,
       {3, 113},
       2e-5},
      {"c128[2,2049]",
       "f64[2,4096]",
       "fft_type=IRFFT, fft_length={4096}",
       c128,
       {2, 2049},
       1e-12},
      {"c128[1000]",
       "c128[1000]",
       "fft_type=FFT, fft_length={1000}",
       c128,
       {1000},
       1e-12},
  };
  for (const FftCase& c : cases) {
    const std::string text =
        std::string("HloModule fft\nENTRY main {\n  x = ") + c.operand +
        " parameter(0)\n  ROOT f = " + c.result + " fft(x), " + c.attributes +
        "\n}\n";
    SCOPED_TRACE(text);
    const bool single = c.type == c64 || c.type == f32;
    ExpectMatchesReference(
        text, {FftInput(c.type, c.dims)},
        c.tolerance > 0 ? c.tolerance : (single ? 2e-5 : 1e-13));
  }
}

// A device that runs FFT kernels (ABI 1.6) gets each fft as one FFT
// kernel from the operand's buffer into the result's; any other device the
// decomposition above.
TEST(FftDecomposition, LeavesFftWholeForADeviceThatRunsFftKernels) {
  const std::string text =
      "HloModule fft\nENTRY main {\n  x = f32[2,3,10] parameter(0)\n"
      "  ROOT f = c64[2,3,6] fft(x), fft_type=RFFT, fft_length={3,10}\n}\n";
  CompilerOptions options;
  options.fft_kernels = true;
  StatusOr<std::unique_ptr<Program>> kernels =
      CompileModule(ParseVerified(text), options);
  ASSERT_TRUE(kernels.ok()) << kernels.status().ToString();
  ASSERT_EQ((*kernels)->kernels.size(), 1u);
  const phal_kernel_desc_t& desc = (*kernels)->kernels[0]->built_desc();
  ASSERT_EQ(desc.kind, PHAL_KERNEL_KIND_FFT);
  EXPECT_EQ(desc.u.fft->fft_type, PHAL_KIR_FFT_TYPE_RFFT);
  ASSERT_EQ(desc.u.fft->fft_rank, 2u);
  EXPECT_EQ(desc.u.fft->fft_length[0], 3);
  EXPECT_EQ(desc.u.fft->fft_length[1], 10);
  EXPECT_EQ(desc.buffers[desc.u.fft->input].element_type,
            PHAL_ELEMENT_TYPE_F32);
  EXPECT_EQ(desc.buffers[desc.u.fft->output].element_type,
            PHAL_ELEMENT_TYPE_C64);
  EXPECT_TRUE(CheckKernelStructure(desc).ok());

  StatusOr<std::unique_ptr<Program>> decomposed =
      CompileModule(ParseVerified(text), CompilerOptions());
  ASSERT_TRUE(decomposed.ok()) << decomposed.status().ToString();
  for (const std::unique_ptr<KirKernel>& kernel : (*decomposed)->kernels) {
    EXPECT_NE(kernel->kind(), PHAL_KERNEL_KIND_FFT);
  }
}

TEST(FftDecomposition, OnlyDevicesReportingTheKindAtAbi16RunFftKernels) {
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  properties.kernel_kinds = ~uint64_t{0};
  EXPECT_TRUE(RunsFftKernels(properties, PHAL_MAKE_VERSION(1, 6)));
  EXPECT_FALSE(RunsFftKernels(properties, PHAL_MAKE_VERSION(1, 5)))
      << "a plugin of ABI 1.5 never gets an FFT kernel";
  properties.kernel_kinds &= ~PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_FFT);
  EXPECT_FALSE(RunsFftKernels(properties, PHAL_MAKE_VERSION(1, 6)));
}

TEST(FftDecomposition, AnFftKernelIsRefusedToAPluginOfAbi15) {
  CompilerOptions options;
  options.fft_kernels = true;
  StatusOr<std::unique_ptr<Program>> program = CompileModule(
      ParseVerified("HloModule fft\nENTRY main {\n  x = c64[8] parameter(0)\n"
                    "  ROOT f = c64[8] fft(x), fft_type=FFT, "
                    "fft_length={8}\n}\n"),
      options);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  properties.kernel_kinds = ~uint64_t{0};
  properties.element_types = ~uint64_t{0};
  const Status refused = CheckDeviceCapabilities(
      **program, properties, PHAL_MAKE_VERSION(1, 5), "old");
  EXPECT_EQ(refused.code(), PHAL_UNIMPLEMENTED);
  EXPECT_EQ(refused.message(),
            "device 'old' cannot run this program: kernel kinds [fft] need "
            "ABI 1.6 and the plugin negotiated ABI 1.5");
  EXPECT_TRUE(CheckDeviceCapabilities(**program, properties,
                                      PHAL_MAKE_VERSION(1, 6), "new")
                  .ok());
}

// A device that runs LINALG kernels (ABI 1.14) gets each linear-algebra
// op as one LINALG kernel with its attributes as flags; any other device
// the expansion into loops.
TEST(LinearAlgebraExpansion, LeavesOpsWholeForADeviceThatRunsLinalgKernels) {
  const std::string text =
      "HloModule linalg\nENTRY main {\n  a = f32[2,6,4] parameter(0)\n"
      "  b = f32[2,4,4] parameter(1)\n  c = f32[2,3,4] parameter(2)\n"
      "  s = (f32[2,6,6], f32[2,4], f32[2,4,4]) svd(a), full_matrices=true\n"
      "  x = f32[2,3,4] triangular-solve(b, c), left_side=false, lower=false, "
      "unit_diagonal=true, transpose_a=ADJOINT\n"
      "  ROOT r = ((f32[2,6,6], f32[2,4], f32[2,4,4]), f32[2,3,4]) "
      "tuple(s, x)\n}\n";
  CompilerOptions options;
  options.linalg_kernels = true;
  StatusOr<std::unique_ptr<Program>> kernels =
      CompileModule(ParseVerified(text), options);
  ASSERT_TRUE(kernels.ok()) << kernels.status().ToString();
  ASSERT_EQ((*kernels)->kernels.size(), 2u);
  const phal_kernel_desc_t& svd = (*kernels)->kernels[0]->built_desc();
  const phal_kernel_desc_t& solve = (*kernels)->kernels[1]->built_desc();
  ASSERT_EQ(svd.kind, PHAL_KERNEL_KIND_LINALG);
  ASSERT_EQ(solve.kind, PHAL_KERNEL_KIND_LINALG);
  EXPECT_EQ(svd.u.linalg->op, PHAL_KIR_LINALG_SVD);
  EXPECT_EQ(svd.u.linalg->flags, PHAL_KIR_LINALG_FULL_MATRICES);
  EXPECT_EQ(svd.u.linalg->result_count, 3u);
  EXPECT_EQ(svd.buffers[svd.u.linalg->results[0]].dims[2], 6);
  EXPECT_EQ(solve.u.linalg->op, PHAL_KIR_LINALG_TRIANGULAR_SOLVE);
  EXPECT_EQ(solve.u.linalg->flags, PHAL_KIR_LINALG_UNIT_DIAGONAL)
      << "right side, upper triangle, unit diagonal";
  EXPECT_EQ(solve.u.linalg->transpose_a, PHAL_KIR_TRANSPOSE_ADJOINT);
  EXPECT_EQ(solve.u.linalg->operand_count, 2u);
  EXPECT_TRUE(CheckKernelStructure(svd).ok());
  EXPECT_TRUE(CheckKernelStructure(solve).ok());

  StatusOr<std::unique_ptr<Program>> expanded =
      CompileModule(ParseVerified(text), CompilerOptions());
  ASSERT_TRUE(expanded.ok()) << expanded.status().ToString();
  for (const std::unique_ptr<KirKernel>& kernel : (*expanded)->kernels) {
    EXPECT_NE(kernel->kind(), PHAL_KERNEL_KIND_LINALG);
  }
}

TEST(LinearAlgebraExpansion, OnlyDevicesReportingTheKindAtAbi114RunLinalg) {
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  properties.kernel_kinds = ~uint64_t{0};
  EXPECT_TRUE(RunsLinalgKernels(properties, PHAL_MAKE_VERSION(1, 14)));
  EXPECT_FALSE(RunsLinalgKernels(properties, PHAL_MAKE_VERSION(1, 13)))
      << "a plugin of ABI 1.13 never gets a LINALG kernel";
  properties.kernel_kinds &= ~PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LINALG);
  EXPECT_FALSE(RunsLinalgKernels(properties, PHAL_MAKE_VERSION(1, 14)));
  EXPECT_FALSE(CompilerOptionsForDevice(properties, PHAL_MAKE_VERSION(1, 14))
                   .linalg_kernels);
}

TEST(LinearAlgebraExpansion, ALinalgKernelIsRefusedToAPluginOfAbi113) {
  CompilerOptions options;
  options.linalg_kernels = true;
  StatusOr<std::unique_ptr<Program>> program = CompileModule(
      ParseVerified("HloModule chol\nENTRY main {\n  a = f64[3,3] "
                    "parameter(0)\n  ROOT l = f64[3,3] cholesky(a), "
                    "lower=true\n}\n"),
      options);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  properties.kernel_kinds = ~uint64_t{0};
  properties.element_types = ~uint64_t{0};
  const Status refused = CheckDeviceCapabilities(
      **program, properties, PHAL_MAKE_VERSION(1, 13), "old");
  EXPECT_EQ(refused.code(), PHAL_UNIMPLEMENTED);
  EXPECT_EQ(refused.message(),
            "device 'old' cannot run this program: kernel kinds [linalg] need "
            "ABI 1.14 and the plugin negotiated ABI 1.13");
  EXPECT_TRUE(CheckDeviceCapabilities(**program, properties,
                                      PHAL_MAKE_VERSION(1, 14), "new")
                  .ok());
}

// The real inverse and hyperbolic functions near their edges: tiny
// arguments (no cancellation), |x| near 1, and arguments whose squares
// or exponentials overflow while the result does not.
TEST(InverseAndHyperbolicDecomposition, StaysWithinThreeUlpsAtTheEdges) {
  const std::vector<double> edges = {
      kNan,     0.0,   -0.0, 1e-30,     -3e-20, 1e-8, 0.5,   -0.75,
      0.999999, 1.0,   -1.0, 1.0000001, 2.0,    30.0, -88.0, 89.0,
      1e10,     -3e19, 1e30, 1e300,     kInf,   -kInf};
  for (const char* op :
       {"asinh", "acosh", "atanh", "sinh", "cosh", "asin", "acos", "atan"}) {
    ExpectUnaryWithinUlps(op, edges, 3);
  }
}

// lgamma and digamma away from their zeros, bessel-i1e everywhere, and
// the values at poles and infinities.
TEST(GammaFamilyDecomposition, StaysWithinItsMeasuredUlps) {
  std::vector<double> positive = {2.5, 3.0, 10.0, 100.0, 1e10, 1e30, kInf};
  for (double x = 2.5; x < 60; x += 0.731) positive.push_back(x);
  ExpectUnaryWithinUlps("lgamma", positive, 16);
  ExpectUnaryWithinUlps("digamma", positive, 16);
  ExpectUnaryWithinUlps("lgamma", {0.0, -1.0, -2.0, -kInf, 1e-40}, 1);
  std::vector<double> i1e = {kNan, 0.0,   -0.0,  1e-300, 7.99, 8.0,
                             8.01, 500.0, -1e30, kInf,   -kInf};
  for (double x = -40; x < 40; x += 0.377) i1e.push_back(x);
  ExpectUnaryWithinUlps("bessel-i1e", i1e, 16);
}

TEST(VariadicScatterSplitting, ScattersEachOperandWithItsOwnCombiner) {
  ExpectMatchesReference(
      kVariadicScatter,
      {TestData(PHAL_ELEMENT_TYPE_F32, {5, 2}, 0),
       TestData(PHAL_ELEMENT_TYPE_S32, {5, 2}, 1),
       Literal::FromValues<int64_t>(PHAL_ELEMENT_TYPE_S32, {4, 1},
                                    {3, 0, 3, 7}),  // a collision, one outside
       TestData(PHAL_ELEMENT_TYPE_F32, {4, 2}, 2),
       TestData(PHAL_ELEMENT_TYPE_S32, {4, 2}, 3)});
}

TEST(VariadicScatterSplitting, RefusesACombinerThatMixesOperands) {
  std::string text = kVariadicScatter;
  const std::string mixed = "s = f32[] add(a, u)";
  text.replace(text.find(mixed), mixed.size(),
               "c = f32[] convert(v)\n  s = f32[] add(a, c)");
  std::unique_ptr<HloModule> module = ParseVerified(text);
  ASSERT_NE(module, nullptr);
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(std::move(module), CompilerOptions());
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.status().code(), PHAL_UNIMPLEMENTED);
  EXPECT_EQ(program.status().message(),
            "scatter of several operands (instruction %s): result 0 of its "
            "update computation reads parameter 3, so the operands cannot be "
            "scattered one at a time");
}

TEST(BatchNormGradDecomposition, MatchesTheReferenceFormulas) {
  ExpectMatchesReference(R"(
HloModule bng
ENTRY main {
  x = f32[2,3,4] parameter(0)
  scale = f32[3] parameter(1)
  mean = f32[3] parameter(2)
  var = f32[3] parameter(3)
  dy = f32[2,3,4] parameter(4)
  av = f32[3] abs(var)
  ROOT g = (f32[2,3,4], f32[3], f32[3]) batch-norm-grad(x, scale, mean, av, dy), epsilon=0.001, feature_index=1
}
)",
                         {TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 4}, 0),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 1),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 2),
                          TestData(PHAL_ELEMENT_TYPE_F32, {3}, 3),
                          TestData(PHAL_ELEMENT_TYPE_F32, {2, 3, 4}, 4)},
                         1e-5);
}

std::string SelectAndScatter(const std::string& direction) {
  return R"(
HloModule sas
select {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=)" +
         direction + R"(
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY main {
  x = f32[4,6] parameter(0)
  src = f32[2,3] parameter(1)
  init = f32[] constant(0.5)
  ROOT r = f32[4,6] select-and-scatter(x, src, init), window={size=2x3 stride=2x2 pad=0_0x1_1}, select=select, scatter=add
}
)";
}

TEST(SelectAndScatterDecomposition, SelectsFirstOnTiesSkipsPaddingAndAdds) {
  // Ties inside windows, windows that overlap (size 3, stride 2) and
  // padded windows at both edges.
  const Literal x =
      Literal::FromValues<double>(PHAL_ELEMENT_TYPE_F32, {4, 6},
                                  {1,     1,     2,     2,     0,     0,  //
                                   1,     1,     2,     2,     0,     0,  //
                                   -1,    3,     3,     3,     7,     7,  //
                                   -kInf, -kInf, -kInf, -kInf, -kInf, -kInf});
  for (const char* direction : {"GE", "GT", "LE"}) {
    ExpectMatchesReference(SelectAndScatter(direction),
                           {x, TestData(PHAL_ELEMENT_TYPE_F32, {2, 3}, 1)});
  }
}

// reduce-window over the last dimension of a [rows, n] `type` array with
// the scalar `op` and `init`, as JAX writes cumsum, cumprod, cummax and
// cummin: a window of `size`, padded before the row (after it when
// `reverse`).
std::string CumulativeModule(const std::string& type, const std::string& op,
                             const std::string& init, int64_t rows, int64_t n,
                             int64_t size, bool reverse) {
  const std::string shape =
      type + "[" + std::to_string(rows) + "," + std::to_string(n) + "]";
  const std::string pad = reverse ? "0_" + std::to_string(size - 1)
                                  : std::to_string(size - 1) + "_0";
  return "HloModule cumulative\nreducer {\n  a = " + type +
         "[] parameter(0)\n  b = " + type +
         "[] parameter(1)\n  ROOT r = " + type + "[] " + op +
         "(a, b)\n}\nENTRY main {\n  x = " + shape +
         " parameter(0)\n  i = " + type + "[] constant(" + init +
         ")\n  ROOT c = " + shape + " reduce-window(x, i), window={size=1x" +
         std::to_string(size) + " pad=0_0x" + pad + "}, to_apply=reducer\n}\n";
}

// Whether `text` still has a reduce-window after the decompose-ops pass.
bool KeepsReduceWindow(const std::string& text) {
  std::unique_ptr<HloModule> module = ParseVerified(text);
  if (module == nullptr) return true;
  StatusOr<std::unique_ptr<HloModule>> decomposed =
      MakeOpDecompositionPass()->Run(*module);
  EXPECT_TRUE(decomposed.ok()) << decomposed.status().ToString();
  if (!decomposed.ok()) return true;
  for (const HloInstruction* instruction :
       (*decomposed)->entry_computation()->instructions()) {
    if (instruction->opcode() == HloOpcode::kReduceWindow) return true;
  }
  return false;
}

TEST(CumulativeReduceWindowDecomposition, ScansMatchTheReferenceBothWays) {
  struct Scan {
    const char* type;
    ElementType element;
    const char* op;
    const char* init;
  };
  for (const Scan& scan :
       {Scan{"f32", PHAL_ELEMENT_TYPE_F32, "add", "0"},
        Scan{"s32", PHAL_ELEMENT_TYPE_S32, "multiply", "1"},
        Scan{"f32", PHAL_ELEMENT_TYPE_F32, "maximum", "-inf"},
        Scan{"s8", PHAL_ELEMENT_TYPE_S8, "minimum", "127"},
        Scan{"f64", PHAL_ELEMENT_TYPE_F64, "add", "0"}}) {
    for (const bool reverse : {false, true}) {
      // Rows of 37: no power of two, so the last step's shift overhangs.
      for (const int64_t size : {int64_t{37}, int64_t{40}}) {
        const std::string text = CumulativeModule(scan.type, scan.op, scan.init,
                                                  3, 37, size, reverse);
        SCOPED_TRACE(text);
        EXPECT_FALSE(KeepsReduceWindow(text));
        ExpectMatchesReference(text, {TestData(scan.element, {3, 37})});
      }
    }
  }
}

// StableHLO's cumsum hands the init value through a broadcast to a scalar.
TEST(CumulativeReduceWindowDecomposition, TakesAnInitBroadcastToAScalar) {
  const std::string text =
      "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] "
      "parameter(1)\n  ROOT r = f32[] add(a, b)\n}\nENTRY main {\n  x = "
      "f32[4,9] parameter(0)\n  z = f32[] constant(0)\n  i = f32[] "
      "broadcast(z), dimensions={}\n  ROOT c = f32[4,9] reduce-window(x, i), "
      "window={size=9x1 pad=8_0x0_0}, to_apply=add\n}\n";
  EXPECT_FALSE(KeepsReduceWindow(text));
  ExpectMatchesReference(text, {TestData(PHAL_ELEMENT_TYPE_F32, {4, 9})});
}

TEST(CumulativeReduceWindowDecomposition, OtherWindowsStayReduceWindows) {
  // A sliding window shorter than the row.
  EXPECT_TRUE(
      KeepsReduceWindow(CumulativeModule("f32", "add", "0", 2, 16, 3, false)));
  // An init that is not the reducer's identity counts once per window.
  EXPECT_TRUE(
      KeepsReduceWindow(CumulativeModule("f32", "add", "1", 2, 16, 16, false)));
  // A reducer that is not associative.
  EXPECT_TRUE(KeepsReduceWindow(
      CumulativeModule("f32", "subtract", "0", 2, 16, 16, false)));
  // Padding on both sides.
  const std::string both =
      "HloModule m\nadd {\n  a = f32[] parameter(0)\n  b = f32[] "
      "parameter(1)\n  ROOT r = f32[] add(a, b)\n}\nENTRY main {\n  x = "
      "f32[8] parameter(0)\n  z = f32[] constant(0)\n  ROOT c = f32[8] "
      "reduce-window(x, z), window={size=8 pad=4_3}, to_apply=add\n}\n";
  EXPECT_TRUE(KeepsReduceWindow(both));
  ExpectMatchesReference(
      CumulativeModule("f32", "subtract", "0", 2, 16, 16, false),
      {TestData(PHAL_ELEMENT_TYPE_F32, {2, 16})});
}

// reduce-window with jax.lax.cumlogsumexp's reducer (logaddexp, NaN-safe
// where both are infinite) and `init` over rows of 37.
std::string CumLogSumExpModule(const std::string& init) {
  return "HloModule m\nlogaddexp {\n  a = f32[] parameter(0)\n  b = f32[] "
         "parameter(1)\n  m = f32[] maximum(a, b)\n  d = f32[] subtract(a, "
         "b)\n  n = pred[] compare(d, d), direction=NE\n  s = f32[] add(a, "
         "b)\n  ad = f32[] abs(d)\n  nd = f32[] negate(ad)\n  e = f32[] "
         "exponential(nd)\n  l = f32[] log-plus-one(e)\n  r = f32[] add(m, "
         "l)\n  ROOT o = f32[] select(n, s, r)\n}\nENTRY main {\n  x = "
         "f32[3,37] parameter(0)\n  i = f32[] constant(" +
         init +
         ")\n  ROOT c = f32[3,37] reduce-window(x, i), window={size=1x37 "
         "pad=0_0x36_0}, to_apply=logaddexp\n}\n";
}

TEST(CumulativeReduceWindowDecomposition, ScansAnyReducerWithAnIdentity) {
  Literal x = TestData(PHAL_ELEMENT_TYPE_F32, {3, 37});
  // Infinities and a NaN inside the rows.
  x.SetFromDouble(5, kInf);
  x.SetFromDouble(40, -kInf);
  x.SetFromDouble(80, std::nan(""));
  const std::string text = CumLogSumExpModule("-inf");
  EXPECT_FALSE(KeepsReduceWindow(text));
  // The scan adds the logarithms in another order than the window does.
  ExpectMatchesReference(text, {x}, 1e-5);
  // From 0, which logaddexp does not leave unchanged, every window counts
  // its padding: the reduce-window stays.
  EXPECT_TRUE(KeepsReduceWindow(CumLogSumExpModule("0")));
}

// Convolutions the canonicalize-convolutions pass rewrites (layouts, lhs
// dilation, window reversal, 3-D split over depth) against the reference.
TEST(ConvolutionCanonicalization, EveryRewrittenFormMatchesTheReference) {
  struct ConvCase {
    const char* input;
    std::vector<int64_t> input_dims;
    const char* kernel;
    std::vector<int64_t> kernel_dims;
    const char* result;
    const char* attributes;
  };
  const std::vector<ConvCase> cases = {
      // PyTorch's layouts (NCHW, OIHW).
      {"f32[2,3,6,5]",
       {2, 3, 6, 5},
       "f32[4,3,3,3]",
       {4, 3, 3, 3},
       "f32[2,4,6,5]",
       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"},
      // A transposed convolution: lhs dilation, stride-2 upsampling.
      {"f32[1,4,4,3]",
       {1, 4, 4, 3},
       "f32[2,2,3,5]",
       {2, 2, 3, 5},
       "f32[1,8,8,5]",
       "window={size=2x2 pad=1_1x1_1 lhs_dilate=2x2}, "
       "dim_labels=b01f_01io->b01f"},
      // Transposed convolutions as phases: stride 3 with a kernel shorter
      // than the stride (phases of no taps), cropping (negative padding),
      // padding wider than the kernel, a dilation along one dimension only,
      // and the input gradient of a stride-2 convolution, reversed.
      {"f32[2,5,3]",
       {2, 5, 3},
       "f32[2,3,4]",
       {2, 3, 4},
       "f32[2,13,4]",
       "window={size=2 pad=1_0 lhs_dilate=3}, dim_labels=b0f_0io->b0f"},
      {"f32[1,6,5,2]",
       {1, 6, 5, 2},
       "f32[3,3,2,3]",
       {3, 3, 2, 3},
       "f32[1,7,16,3]",
       "window={size=3x3 pad=-1_-1x3_2 lhs_dilate=2x3}, "
       "dim_labels=b01f_01io->b01f"},
      {"f32[2,4,5,3]",
       {2, 4, 5, 3},
       "f32[3,3,3,2]",
       {3, 3, 3, 2},
       "f32[2,7,5,2]",
       "window={size=3x3 pad=1_1x1_1 lhs_dilate=2x1}, "
       "dim_labels=b01f_01io->b01f"},
      {"f32[2,3,7,7]",
       {2, 3, 7, 7},
       "f32[3,4,3,3]",
       {3, 4, 3, 3},
       "f32[2,4,14,14]",
       "window={size=3x3 pad=1_2x1_2 lhs_dilate=2x2 rhs_reversal=1x1}, "
       "dim_labels=bf01_io01->bf01"},
      // A reversed window, and the output in another layout.
      {"f32[2,5,5,3]",
       {2, 5, 5, 3},
       "f32[3,3,3,4]",
       {3, 3, 3, 4},
       "f32[4,5,5,2]",
       "window={size=3x3 pad=1_1x1_1 rhs_reversal=1x0}, "
       "dim_labels=b01f_01io->f01b"},
      // 3-D: strided and padded depth, then dilated depth.
      {"f32[2,5,6,6,3]",
       {2, 5, 6, 6, 3},
       "f32[3,3,3,3,4]",
       {3, 3, 3, 3, 4},
       "f32[2,3,6,6,4]",
       "window={size=3x3x3 stride=2x1x1 pad=1_1x1_1x1_1}, "
       "dim_labels=b012f_012io->b012f"},
      {"f32[2,3,5,4,6]",
       {2, 3, 5, 4, 6},
       "f32[4,3,2,3,3]",
       {4, 3, 2, 3, 3},
       "f32[2,4,3,4,6]",
       "window={size=2x3x3 pad=0_0x1_1x1_1 rhs_dilate=2x1x1}, "
       "dim_labels=bf012_oi012->bf012"},
  };
  for (const ConvCase& c : cases) {
    const std::string text =
        std::string("HloModule conv\nENTRY main {\n  x = ") + c.input +
        " parameter(0)\n  k = " + c.kernel +
        " parameter(1)\n  ROOT c = " + c.result + " convolution(x, k), " +
        c.attributes + "\n}\n";
    SCOPED_TRACE(text);
    ExpectMatchesReference(text,
                           {TestData(PHAL_ELEMENT_TYPE_F32, c.input_dims),
                            TestData(PHAL_ELEMENT_TYPE_F32, c.kernel_dims, 1)},
                           1e-5);
  }
}

// An input padded with zeros at its spatial edges (WaveNet's causal
// padding) becomes the convolution's own padding: no kernel copies it. A pad
// of another value, of the batch or feature dimension, cropping or
// interior padding stays a pad.
TEST(ConvolutionCanonicalization, ZeroPaddingOfTheInputBecomesTheWindows) {
  struct PadCase {
    const char* value;
    const char* padding;
    const char* padded;
    const char* result;
    bool folds;
  };
  const std::vector<PadCase> cases = {
      {"s32[] constant(0)", "0_0x2_0x0_0", "f32[2,11,3]", "f32[2,9,4]", true},
      {"s32[] constant(0)", "0_0x1_3x0_0", "f32[2,13,3]", "f32[2,11,4]", true},
      {"s32[] constant(1)", "0_0x2_0x0_0", "f32[2,11,3]", "f32[2,9,4]", false},
      {"s32[] constant(0)", "0_0x2_0x0_1", "f32[2,11,4]", "f32[2,9,4]", false},
      {"s32[] constant(0)", "0_0x-1_0x0_0", "f32[2,8,3]", "f32[2,6,4]", false},
      {"s32[] constant(0)", "0_0x0_0_1x0_0", "f32[2,17,3]", "f32[2,15,4]",
       false},
  };
  for (const PadCase& c : cases) {
    const bool widens_features = std::string(c.padded) == "f32[2,11,4]";
    const std::string text =
        std::string(
            "HloModule conv\nENTRY main {\n  x = f32[2,9,3] "
            "parameter(0)\n  k = f32[2,") +
        (widens_features ? "4" : "3") + ",4] parameter(1)\n  v = " + c.value +
        "\n  z = f32[] convert(v)\n  p = " + c.padded +
        " pad(x, z), padding=" + c.padding + "\n  ROOT c = " + c.result +
        " convolution(p, k), window={size=2 rhs_dilate=2}, "
        "dim_labels=b0f_0io->b0f\n}\n";
    SCOPED_TRACE(text);
    std::unique_ptr<Program> program = CompileText(text);
    ASSERT_NE(program, nullptr);
    EXPECT_EQ(program->kernels.size() == 1, c.folds);
    ExpectMatchesReference(
        text,
        {TestData(PHAL_ELEMENT_TYPE_F32, {2, 9, 3}),
         TestData(PHAL_ELEMENT_TYPE_F32, {2, widens_features ? 4 : 3, 4}, 1)},
        1e-5);
  }
}

TEST(TupleEntryParameters, AreTakenAsTheirLeavesDepthFirst) {
  const std::string text = R"(
HloModule tuple_parameter
ENTRY main {
  p = (f32[2], (s32[], f32[3])) parameter(0)
  a = f32[2] get-tuple-element(p), index=0
  inner = (s32[], f32[3]) get-tuple-element(p), index=1
  n = s32[] get-tuple-element(inner), index=0
  v = f32[3] get-tuple-element(inner), index=1
  two = s32[] constant(2)
  m = s32[] multiply(n, two)
  ROOT out = (f32[3], s32[], f32[2]) tuple(v, m, a)
}
)";
  std::vector<Literal> leaves = {TestData(PHAL_ELEMENT_TYPE_F32, {2}, 0),
                                 Literal::Scalar(PHAL_ELEMENT_TYPE_S32, 21),
                                 TestData(PHAL_ELEMENT_TYPE_F32, {3}, 1)};
  std::vector<Literal> inner = {leaves[1], leaves[2]};
  std::vector<Literal> outer = {leaves[0], Literal::Tuple(std::move(inner))};
  const Literal parameter = Literal::Tuple(std::move(outer));
  const std::vector<Literal> expected = ReferenceLeaves(text, {parameter});
  ASSERT_FALSE(expected.empty());
  std::unique_ptr<LoadedProgram> loaded = LoadText(text);
  ASSERT_NE(loaded, nullptr);
  ASSERT_EQ(loaded->program().parameter_shapes.size(), 3u)
      << "one parameter per leaf of the tuple";
  EXPECT_EQ(loaded->program().parameter_shapes[1].ToString(), "s32[]");
  StatusOr<std::vector<Literal>> actual = RunOnDevice(*loaded, leaves);
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  ExpectLeavesMatch(*actual, expected, 0, text);
}

}  // namespace
}  // namespace phal::testing
