// The KIR facts: names the dump prints, and the structural checks every
// emitter and plugin relies on before it reads a kernel.
#include "sdk/kir/facts.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal {
namespace {

using plugin_testing::BuildMatmul;
using plugin_testing::BuildSort;
using plugin_testing::HasCode;
using plugin_testing::IsOk;

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

// out[i] = in[i] + in[i] over 8 f32 elements.
KirKernel DoublingLoop() {
  KirKernel kernel("double_it", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = kernel.AddBuffer(kF32, {8});
  const uint32_t out = kernel.AddBuffer(kF32, {8}, PHAL_KIR_ACCESS_WRITE);
  kernel.dims = {8};
  kernel.outputs = {out};
  const uint32_t x = kernel.body.Read(kF32, in, {kernel.body.Index(0)});
  kernel.body.AddResult(kernel.body.Add(PHAL_KIR_OP_ADD, kF32, {x, x}));
  return kernel;
}

TEST(KirFactsTest, NamesOpsAsTheDumpSpellsThem) {
  EXPECT_STREQ(KirOpName(PHAL_KIR_OP_ROUND_NEAREST_EVEN), "round_nearest_even");
  EXPECT_STREQ(KirOpName(PHAL_KIR_OP_ERF), "erf");
  EXPECT_STREQ(KirOpName(static_cast<phal_kir_op_t>(5)), "invalid");
  EXPECT_STREQ(KirOpName(static_cast<phal_kir_op_t>(100000)), "invalid");
  EXPECT_STREQ(KernelKindName(PHAL_KERNEL_KIND_SCATTER), "scatter");
  EXPECT_STREQ(KernelKindName(PHAL_KERNEL_KIND_FFT), "fft");
  EXPECT_STREQ(KernelKindName(PHAL_KERNEL_KIND_LINALG), "linalg");
  EXPECT_STREQ(KernelKindName(static_cast<phal_kernel_kind_t>(11)), "invalid");
  EXPECT_STREQ(KirFftTypeName(PHAL_KIR_FFT_TYPE_IRFFT), "IRFFT");
  EXPECT_STREQ(KirFftTypeName(4u), "invalid");
  EXPECT_STREQ(KirLinalgOpName(PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT),
               "householder-product");
  EXPECT_STREQ(KirLinalgOpName(7u), "invalid");
  EXPECT_STREQ(KirTransposeName(PHAL_KIR_TRANSPOSE_ADJOINT), "ADJOINT");
  EXPECT_STREQ(KirTransposeName(3u), "invalid");
}

TEST(KirFactsTest, ClassifiesOpsByOperandCount) {
  EXPECT_EQ(KirOpClassOf(PHAL_KIR_OP_READ), KirOpClass::kLeaf);
  EXPECT_EQ(KirOpClassOf(PHAL_KIR_OP_ERF), KirOpClass::kUnary);
  EXPECT_EQ(KirOpClassOf(PHAL_KIR_OP_COMPARE), KirOpClass::kBinary);
  EXPECT_EQ(KirOpClassOf(PHAL_KIR_OP_CLAMP), KirOpClass::kTernary);
  EXPECT_EQ(KirOpClassOf(PHAL_KIR_OP_INVALID), KirOpClass::kUnknown);
}

TEST(KirFactsTest, NumberOverloadsNameValuesOutsideTheEnumsInvalid) {
  for (const uint32_t op : {0u, 5u, 15u, 45u, 63u, 81u, 95u, 98u, 127u, 128u,
                            100000u, 0xFFFFFFFFu}) {
    EXPECT_STREQ(KirOpName(op), "invalid") << "op " << op;
    EXPECT_EQ(KirOpClassOf(op), KirOpClass::kUnknown) << "op " << op;
  }
  for (const uint32_t kind : {0u, 11u, 64u, 0xFFFFFFFFu}) {
    EXPECT_STREQ(KernelKindName(kind), "invalid") << "kind " << kind;
  }
}

TEST(KirFactsTest, NumberOverloadsNameTheValuesOfTheEnums) {
  EXPECT_STREQ(KirOpName(uint32_t{PHAL_KIR_OP_CONSTANT}), "constant");
  EXPECT_STREQ(KirOpName(uint32_t{PHAL_KIR_OP_ERF}), "erf");
  EXPECT_STREQ(KirOpName(uint32_t{PHAL_KIR_OP_CLAMP}), "clamp");
  EXPECT_EQ(KirOpClassOf(uint32_t{PHAL_KIR_OP_PARAMETER}), KirOpClass::kLeaf);
  EXPECT_EQ(KirOpClassOf(uint32_t{PHAL_KIR_OP_REDUCE_PRECISION}),
            KirOpClass::kUnary);
  EXPECT_EQ(KirOpClassOf(uint32_t{PHAL_KIR_OP_COMPARE}), KirOpClass::kBinary);
  EXPECT_EQ(KirOpClassOf(uint32_t{PHAL_KIR_OP_SELECT}), KirOpClass::kTernary);
  EXPECT_STREQ(KernelKindName(uint32_t{PHAL_KERNEL_KIND_LOOP}), "loop");
  EXPECT_STREQ(KernelKindName(uint32_t{PHAL_KERNEL_KIND_COPY}), "copy");
}

TEST(KirFactsTest, EnumAndNumberOverloadsAgreeOverTheEnumsRange) {
  // Every value the enums can hold: 0..127 for ops, 0..15 for kinds.
  for (uint32_t op = 0; op < 128; ++op) {
    const auto as_enum = static_cast<phal_kir_op_t>(op);
    EXPECT_STREQ(KirOpName(as_enum), KirOpName(op)) << "op " << op;
    EXPECT_EQ(KirOpClassOf(as_enum), KirOpClassOf(op)) << "op " << op;
  }
  for (uint32_t kind = 0; kind < 16; ++kind) {
    EXPECT_STREQ(KernelKindName(static_cast<phal_kernel_kind_t>(kind)),
                 KernelKindName(kind))
        << "kind " << kind;
  }
}

TEST(KirFactsTest, EachOpNeedsTheAbiVersionThatAppendedIt) {
  EXPECT_EQ(KirOpAbiVersion(PHAL_KIR_OP_ADD), PHAL_MAKE_VERSION(1, 1));
  EXPECT_EQ(KirOpAbiVersion(PHAL_KIR_OP_CLAMP), PHAL_MAKE_VERSION(1, 1));
  EXPECT_EQ(KirOpAbiVersion(PHAL_KIR_OP_ERF), PHAL_MAKE_VERSION(1, 2));
  EXPECT_EQ(KirOpAbiVersion(5u), 0u) << "not an op of this ABI";
  EXPECT_EQ(KirOpAbiVersion(100000u), 0u);
}

TEST(KirFactsTest, EachKindNeedsTheAbiVersionThatAppendedIt) {
  EXPECT_EQ(KernelKindAbiVersion(PHAL_KERNEL_KIND_LOOP),
            PHAL_MAKE_VERSION(1, 1));
  EXPECT_EQ(KernelKindAbiVersion(PHAL_KERNEL_KIND_COPY),
            PHAL_MAKE_VERSION(1, 1));
  EXPECT_EQ(KernelKindAbiVersion(PHAL_KERNEL_KIND_FFT),
            PHAL_MAKE_VERSION(1, 6));
  EXPECT_EQ(KernelKindAbiVersion(PHAL_KERNEL_KIND_LINALG),
            PHAL_MAKE_VERSION(1, 14));
  EXPECT_EQ(KernelKindAbiVersion(0u), 0u) << "not a kind of this ABI";
  EXPECT_EQ(KernelKindAbiVersion(11u), 0u);
}

TEST(KirFactsTest, OperandCountFollowsTheOpClass) {
  EXPECT_EQ(KirOperandCount(KirOpClass::kUnknown), 0u);
  EXPECT_EQ(KirOperandCount(KirOpClass::kLeaf), 0u);
  EXPECT_EQ(KirOperandCount(KirOpClass::kUnary), 1u);
  EXPECT_EQ(KirOperandCount(KirOpClass::kBinary), 2u);
  EXPECT_EQ(KirOperandCount(KirOpClass::kTernary), 3u);
  EXPECT_EQ(KirOperandCount(KirOpClassOf(uint32_t{PHAL_KIR_OP_CLAMP})), 3u);
  EXPECT_EQ(KirOperandCount(KirOpClassOf(uint32_t{PHAL_KIR_OP_ERF})), 1u);
  EXPECT_EQ(KirOperandCount(KirOpClassOf(uint32_t{200})), 0u);
}

TEST(KirFactsTest, KernelKindValueReadsAKindOutsideTheEnum) {
  phal_kernel_desc_t desc{};
  const uint32_t newer_kind = 70;
  std::memcpy(&desc.kind, &newer_kind, sizeof(newer_kind));
  EXPECT_EQ(KernelKindValue(desc), 70u);
  EXPECT_STREQ(KernelKindName(KernelKindValue(desc)), "invalid");
}

TEST(KirFactsTest, KindOutsideTheSupportedSetIsUnimplemented) {
  constexpr uint64_t kLoopOnly = PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LOOP);
  KirKernel kernel = DoublingLoop();
  phal_kernel_desc_t desc = kernel.Desc();
  EXPECT_TRUE(IsOk(CheckKernelKind(desc, kLoopOnly, "the test emitter")));
  desc.kind = static_cast<phal_kernel_kind_t>(9);
  EXPECT_TRUE(HasCode(
      CheckKernelKind(desc, kLoopOnly, "the test emitter"), PHAL_UNIMPLEMENTED,
      {"kernel kind 9 is not implemented by the test emitter"}));
  desc.kind = static_cast<phal_kernel_kind_t>(70);
  EXPECT_TRUE(HasCode(CheckKernelKind(desc, ~uint64_t{0}, "the test emitter"),
                      PHAL_UNIMPLEMENTED, {"kernel kind 70"}));
}

TEST(KirFactsTest, WellFormedLoopPasses) {
  KirKernel kernel = DoublingLoop();
  EXPECT_TRUE(IsOk(CheckKernelStructure(kernel.Desc())));
}

TEST(KirFactsTest, OperandAfterItsUserNamesKernelBodyAndNode) {
  KirKernel kernel = DoublingLoop();
  kernel.body = {};
  const uint32_t index = kernel.body.Index(0);
  kernel.body.Add(PHAL_KIR_OP_NEGATE, kF32, {2});
  kernel.body.AddResult(kernel.body.Read(kF32, 0, {index}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel 'double_it': body node 1 uses node 2, which "
                       "does not come before it"}));
}

TEST(KirFactsTest, WrongOperandCountIsInvalid) {
  KirKernel kernel = DoublingLoop();
  kernel.body = {};
  const uint32_t x = kernel.body.Read(kF32, 0, {kernel.body.Index(0)});
  kernel.body.AddResult(kernel.body.Add(PHAL_KIR_OP_ADD, kF32, {x}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"node 2 (add) takes 2 operands, not 1"}));
}

TEST(KirFactsTest, ReadsAreCheckedAgainstTheirBuffer) {
  KirKernel kernel = DoublingLoop();
  kernel.body = {};
  kernel.body.AddResult(kernel.body.Read(kF32, 5, {kernel.body.Index(0)}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"node 1 reads buffer 5, which does not exist"}));
  kernel.body = {};
  kernel.body.AddResult(kernel.body.Read(kF32, 0, {}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"reads buffer 0 of rank 1 with 0 indices"}));
  kernel.body = {};
  kernel.body.AddResult(
      kernel.body.Read(PHAL_ELEMENT_TYPE_S32, 0, {kernel.body.Index(0)}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"reads a f32 buffer as s32"}));
}

TEST(KirFactsTest, NodeOfNoElementTypeOrUnknownOpIsRefused) {
  KirKernel kernel = DoublingLoop();
  kernel.body = {};
  kernel.body.AddResult(kernel.body.Add(PHAL_KIR_OP_CONSTANT,
                                        static_cast<phal_element_type_t>(99)));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"node 0 has no valid element type"}));
  kernel.body = {};
  kernel.body.AddResult(
      kernel.body.Add(static_cast<phal_kir_op_t>(120), kF32, {}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()), PHAL_UNIMPLEMENTED,
                      {"has KIR op 120"}));
}

TEST(KirFactsTest, LoopNeedsOneResultPerOutputOfItsType) {
  KirKernel kernel = DoublingLoop();
  kernel.body.AddResult(0);
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the body yields 2 results, not 1"}));
  kernel = DoublingLoop();
  kernel.outputs = {3};
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the loop's output 0 names buffer 3, which does not "
                       "exist; the kernel has 2 buffers"}));
  kernel = DoublingLoop();
  kernel.dims = {4};
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"output buffer 1 holds 8 f32 elements; the kernel "
                       "writes 4 f32"}));
}

TEST(KirFactsTest, ResultNamingNoNodeIsInvalid) {
  KirKernel kernel = DoublingLoop();
  kernel.body = {};
  kernel.body.Index(0);
  kernel.body.AddResult(4);
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"body result 0 names node 4; the body has 1 node"}));
}

TEST(KirFactsTest, BufferWithNegativeDimensionIsInvalid) {
  KirKernel kernel = DoublingLoop();
  kernel.AddBuffer(kF32, {2, -1});
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"buffer 2 has a negative dimension"}));
}

TEST(KirFactsTest, DotChecksItsBuffersAndAccumulationType) {
  KirKernel kernel("matmul", PHAL_KERNEL_KIND_DOT);
  BuildMatmul(kernel, kF32, kF32, 2, 4, 3);
  EXPECT_TRUE(IsOk(CheckKernelStructure(kernel.Desc())));
  kernel.dot.rhs = 9;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"kernel 'matmul': the dot's rhs names buffer 9"}));
  kernel.dot.rhs = 1;
  kernel.dot.accumulation_type = PHAL_ELEMENT_TYPE_INVALID;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"a dot needs a valid accumulation type"}));
}

TEST(KirFactsTest, SortComparatorMustYieldOnePred) {
  KirKernel kernel("sort", PHAL_KERNEL_KIND_SORT);
  BuildSort(kernel, {kF32}, {5}, 0);
  kernel.reducer = KirBody();
  const uint32_t left = kernel.reducer.Parameter(kF32, 0);
  const uint32_t right = kernel.reducer.Parameter(kF32, 1);
  kernel.reducer.AddResult(
      kernel.reducer.Add(PHAL_KIR_OP_ADD, kF32, {left, right}));
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the sort's comparator must yield a pred"}));
}

TEST(KirFactsTest, KernelOfAnUnknownKindHasNothingToCheck) {
  KirKernel kernel = DoublingLoop();
  phal_kernel_desc_t desc = kernel.Desc();
  desc.kind = static_cast<phal_kernel_kind_t>(11);
  desc.u.loop = nullptr;
  EXPECT_TRUE(IsOk(CheckKernelStructure(desc)));
}

// An RFFT of f32[2,3,10] over its last two dimensions into c64[2,3,6].
KirKernel RealFft() {
  KirKernel kernel("rfft", PHAL_KERNEL_KIND_FFT);
  kernel.fft.input = kernel.AddBuffer(PHAL_ELEMENT_TYPE_F32, {2, 3, 10});
  kernel.fft.output =
      kernel.AddBuffer(PHAL_ELEMENT_TYPE_C64, {2, 3, 6}, PHAL_KIR_ACCESS_WRITE);
  kernel.fft.fft_type = PHAL_KIR_FFT_TYPE_RFFT;
  kernel.arrays[KirKernel::kFftLength] = {3, 10};
  return kernel;
}

TEST(KirFactsTest, FftBuffersMustFitItsTypeAndLengths) {
  KirKernel kernel = RealFft();
  EXPECT_TRUE(IsOk(CheckKernelStructure(kernel.Desc())));
  kernel.fft.fft_type = PHAL_KIR_FFT_TYPE_FFT;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the FFT reads f32 and writes c64"}));
  kernel = RealFft();
  kernel.arrays[KirKernel::kFftLength] = {3, 11};
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the RFFT of fft_length [3,11] does not fit its "
                       "buffers' dimensions [2,3,10] and [2,3,6]"}));
  kernel = RealFft();
  kernel.arrays[KirKernel::kFftLength] = {2, 3, 10, 1};
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"it transforms 1 to 3"}));
  kernel = RealFft();
  kernel.fft.output = kernel.fft.input;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"input and output are one"}));
  kernel = RealFft();
  kernel.fft.fft_type = static_cast<phal_kir_fft_type_t>(7);
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"fft_type 7"}));
}

// An svd of f64[3,5,2] (tall, not full_matrices): u [3,5,2], s [3,2],
// vt [3,2,2].
KirKernel Svd() {
  constexpr phal_element_type_t kF64 = PHAL_ELEMENT_TYPE_F64;
  KirKernel kernel("svd", PHAL_KERNEL_KIND_LINALG);
  phal_kir_linalg_t& svd = kernel.linalg;
  svd.op = PHAL_KIR_LINALG_SVD;
  svd.operand_count = 1;
  svd.operands[0] = kernel.AddBuffer(kF64, {3, 5, 2});
  svd.result_count = 3;
  svd.results[0] = kernel.AddBuffer(kF64, {3, 5, 2}, PHAL_KIR_ACCESS_WRITE);
  svd.results[1] = kernel.AddBuffer(kF64, {3, 2}, PHAL_KIR_ACCESS_WRITE);
  svd.results[2] = kernel.AddBuffer(kF64, {3, 2, 2}, PHAL_KIR_ACCESS_WRITE);
  return kernel;
}

TEST(KirFactsTest, LinalgBuffersMustFitItsOp) {
  KirKernel kernel = Svd();
  EXPECT_TRUE(IsOk(CheckKernelStructure(kernel.Desc())));
  kernel.linalg.flags = PHAL_KIR_LINALG_FULL_MATRICES;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the svd's result 0 is f64[3,5,2]; for a f64[3,5,2] "
                       "it is f64[3,5,5]"}));
  kernel = Svd();
  kernel.linalg.result_count = 2;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the svd has 1 operand and 2 results; it takes 1 and "
                       "gives 3"}));
  kernel = Svd();
  kernel.linalg.results[2] = kernel.linalg.operands[0];
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"shares buffer 0"}));
  kernel = Svd();
  kernel.linalg.results[1] = 9;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the svd's result 1 names buffer 9"}));
  kernel = Svd();
  kernel.linalg.op = PHAL_KIR_LINALG_CHOLESKY;
  kernel.linalg.result_count = 1;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the cholesky's operand f64[3,5,2] must be square"}));
  kernel = Svd();
  kernel.linalg.op = static_cast<phal_kir_linalg_op_t>(12);
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"op 12"}));
  kernel = Svd();
  kernel.linalg.flags = 64;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT, {"unknown flags 64"}));
  kernel = Svd();
  kernel.buffers()[0].element_type = PHAL_ELEMENT_TYPE_S32;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the svd reads s32; it takes f32, f64, c64 or c128"}));
}

TEST(KirFactsTest, TriangularSolveFitsBOnTheSideItNames) {
  constexpr phal_element_type_t kC64 = PHAL_ELEMENT_TYPE_C64;
  KirKernel kernel("solve", PHAL_KERNEL_KIND_LINALG);
  phal_kir_linalg_t& solve = kernel.linalg;
  solve.op = PHAL_KIR_LINALG_TRIANGULAR_SOLVE;
  solve.flags = PHAL_KIR_LINALG_LEFT_SIDE | PHAL_KIR_LINALG_LOWER;
  solve.transpose_a = PHAL_KIR_TRANSPOSE_ADJOINT;
  solve.operand_count = 2;
  solve.operands[0] = kernel.AddBuffer(kC64, {2, 4, 4});
  solve.operands[1] = kernel.AddBuffer(kC64, {2, 4, 3});
  solve.result_count = 1;
  solve.results[0] = kernel.AddBuffer(kC64, {2, 4, 3}, PHAL_KIR_ACCESS_WRITE);
  EXPECT_TRUE(IsOk(CheckKernelStructure(kernel.Desc())));
  solve.flags = PHAL_KIR_LINALG_LOWER;
  EXPECT_TRUE(HasCode(CheckKernelStructure(kernel.Desc()),
                      PHAL_INVALID_ARGUMENT,
                      {"the triangular-solve's b c64[2,4,3] does not fit a "
                       "c64[2,4,4] on the right"}));
}

TEST(KirFactsTest, MissingDescriptionIsInvalid) {
  KirKernel kernel = DoublingLoop();
  phal_kernel_desc_t desc = kernel.Desc();
  desc.u.loop = nullptr;
  EXPECT_TRUE(HasCode(CheckKernelStructure(desc), PHAL_INVALID_ARGUMENT,
                      {"the loop kernel has no description"}));
}

}  // namespace
}  // namespace phal
