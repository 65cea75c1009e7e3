// Golden tests of the KIR text dump: each testdata/*.hlo compiles to the
// kernels written in testdata/*.kir (fft_kernels.hlo for a device that runs
// FFT kernels, linalg_kernels.hlo for one that runs LINALG kernels). Set
// PHAL_UPDATE_GOLDENS=1 to rewrite
// the goldens after an intended change, and review the diff.
#include <cstdlib>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "core/testing/compiler_test_util.h"
#include "core/testing/source_files.h"
#include "sdk/kir/printer.h"

namespace phal::testing {
namespace {

class KirGolden : public ::testing::TestWithParam<const char*> {};

TEST_P(KirGolden, DumpMatchesGolden) {
  const std::string base =
      SourceFile(std::string("core/compiler/testdata/") + GetParam()).string();
  std::unique_ptr<Program> program = CompileText(ReadTextFile(base + ".hlo"));
  ASSERT_NE(program, nullptr);
  std::string dump;
  for (const auto& kernel : program->kernels) {
    dump += KernelToText(kernel->Desc()) + "\n";
  }
  if (std::getenv("PHAL_UPDATE_GOLDENS") != nullptr) {
    std::ofstream(base + ".kir") << dump;
  }
  EXPECT_EQ(dump, ReadTextFile(base + ".kir")) << "golden " << base << ".kir";
}

TEST_P(KirGolden, ProgramMatchesReference) {
  const std::string text = ReadTextFile(
      SourceFile(std::string("core/compiler/testdata/") + GetParam() + ".hlo"));
  std::unique_ptr<Program> program = CompileText(text);
  ASSERT_NE(program, nullptr);
  std::vector<Literal> arguments;
  int64_t seed = 0;
  for (const Shape& shape : program->parameter_shapes) {
    arguments.push_back(TestData(shape.element_type(), shape.dims(), seed++));
  }
  ExpectMatchesReference(text, arguments, 1e-6);
}

// testdata/<name>.hlo compiled with `options` against testdata/<name>.kir.
void ExpectDumpMatchesGolden(const std::string& name,
                             const CompilerOptions& options) {
  const std::string base =
      SourceFile("core/compiler/testdata/" + name).string();
  StatusOr<std::unique_ptr<Program>> program =
      CompileModule(ParseVerified(ReadTextFile(base + ".hlo")), options);
  ASSERT_TRUE(program.ok()) << program.status().ToString();
  std::string dump;
  for (const auto& kernel : (*program)->kernels) {
    dump += KernelToText(kernel->Desc()) + "\n";
  }
  if (std::getenv("PHAL_UPDATE_GOLDENS") != nullptr) {
    std::ofstream(base + ".kir") << dump;
  }
  EXPECT_EQ(dump, ReadTextFile(base + ".kir")) << "golden " << base << ".kir";
}

// testdata/fft_kernels.hlo compiled for a device that runs FFT kernels
// (ABI 1.6): each fft one FFT kernel, the ops between them loops.
TEST(KirGoldenFftKernels, DumpMatchesGolden) {
  CompilerOptions options;
  options.fft_kernels = true;
  ExpectDumpMatchesGolden("fft_kernels", options);
}

// testdata/linalg_kernels.hlo compiled for a device that runs LINALG
// kernels (ABI 1.14): each linear-algebra op one LINALG kernel.
TEST(KirGoldenLinalgKernels, DumpMatchesGolden) {
  CompilerOptions options;
  options.linalg_kernels = true;
  ExpectDumpMatchesGolden("linalg_kernels", options);
}

INSTANTIATE_TEST_SUITE_P(Compiler, KirGolden,
                         ::testing::Values("mlp", "softmax", "conv",
                                           "while_loop", "reduce_fused"));

}  // namespace
}  // namespace phal::testing
