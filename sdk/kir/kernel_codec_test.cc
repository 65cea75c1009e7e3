// The canonical encoding of a kernel: little-endian whatever the host, a
// round trip that changes nothing, and truncated or corrupt bytes refused
// with the field named.
#include "sdk/kir/kernel_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sdk/kir/kernel.h"
#include "sdk/kir/kernel_storage.h"
#include "sdk/kir/printer.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal {
namespace {

using plugin_testing::HasCode;
using plugin_testing::IsOk;

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;
constexpr phal_element_type_t kS32 = PHAL_ELEMENT_TYPE_S32;

std::unique_ptr<KernelStorage> Stored(KirKernel& kernel) {
  StatusOr<std::unique_ptr<KernelStorage>> copy =
      KernelStorage::Copy(kernel.Desc());
  EXPECT_TRUE(IsOk(copy.status()));
  return copy.ok() ? std::move(*copy) : nullptr;
}

// A loop, a sort, a copy and an fft: bodies, arrays and kind structs.
std::vector<std::unique_ptr<KernelStorage>> KernelsOfSeveralKinds() {
  std::vector<std::unique_ptr<KernelStorage>> kernels;
  KirKernel loop("affine", PHAL_KERNEL_KIND_LOOP);
  const uint32_t in = loop.AddBuffer(kS32, {3}, PHAL_KIR_ACCESS_READ);
  loop.outputs = {loop.AddBuffer(kS32, {3}, PHAL_KIR_ACCESS_WRITE)};
  loop.dims = {3};
  const uint32_t i = loop.body.Index(0);
  const uint32_t x = loop.body.Read(kS32, in, {&i, 1});
  loop.body.AddResult(
      loop.body.Add(PHAL_KIR_OP_ADD, kS32, {x, loop.body.Constant(kS32, 7)}));
  kernels.push_back(Stored(loop));

  KirKernel sort("sort", PHAL_KERNEL_KIND_SORT);
  sort.operands = {sort.AddBuffer(kF32, {5}, PHAL_KIR_ACCESS_READ)};
  sort.outputs = {sort.AddBuffer(kF32, {5}, PHAL_KIR_ACCESS_WRITE)};
  sort.sort.is_stable = 1;
  KirBody& c = sort.reducer;
  c.AddResult(c.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_TOTALORDER,
                        c.Parameter(kF32, 0), c.Parameter(kF32, 1)));
  kernels.push_back(Stored(sort));

  KirKernel copy("copy", PHAL_KERNEL_KIND_COPY);
  copy.copy.source = copy.AddBuffer(kS32, {2}, PHAL_KIR_ACCESS_READ);
  copy.copy.destination = copy.AddBuffer(kS32, {2}, PHAL_KIR_ACCESS_WRITE);
  kernels.push_back(Stored(copy));

  KirKernel fft("fft", PHAL_KERNEL_KIND_FFT);
  fft.fft.input =
      fft.AddBuffer(PHAL_ELEMENT_TYPE_C128, {4, 5, 3}, PHAL_KIR_ACCESS_READ);
  fft.fft.output =
      fft.AddBuffer(PHAL_ELEMENT_TYPE_F64, {4, 5, 4}, PHAL_KIR_ACCESS_WRITE);
  fft.fft.fft_type = PHAL_KIR_FFT_TYPE_IRFFT;
  fft.arrays[KirKernel::kFftLength] = {5, 4};
  kernels.push_back(Stored(fft));

  KirKernel lu("lu", PHAL_KERNEL_KIND_LINALG);
  lu.linalg.op = PHAL_KIR_LINALG_LU;
  lu.linalg.operand_count = 1;
  lu.linalg.operands[0] = lu.AddBuffer(kF32, {2, 3, 4}, PHAL_KIR_ACCESS_READ);
  lu.linalg.result_count = 2;
  lu.linalg.results[0] = lu.AddBuffer(kF32, {2, 3, 4}, PHAL_KIR_ACCESS_WRITE);
  lu.linalg.results[1] = lu.AddBuffer(kS32, {2, 3}, PHAL_KIR_ACCESS_WRITE);
  kernels.push_back(Stored(lu));
  return kernels;
}

TEST(KernelCodecTest, RoundTripChangesNothing) {
  for (const std::unique_ptr<KernelStorage>& kernel : KernelsOfSeveralKinds()) {
    const std::string bytes = EncodeKernel(*kernel);
    StatusOr<std::unique_ptr<KernelStorage>> decoded = DecodeKernel(bytes);
    ASSERT_TRUE(IsOk(decoded.status())) << kernel->name();
    EXPECT_EQ(KernelToText((*decoded)->desc()), KernelToText(kernel->desc()));
    EXPECT_EQ(EncodeKernel(**decoded), bytes);
  }
}

TEST(KernelCodecTest, BytesAreLittleEndianAfterTheHeader) {
  const std::string bytes = EncodeKernel(*KernelsOfSeveralKinds()[0]);
  // "PKIR", version 1, the name's length 6 and "affine", kind 1 (loop).
  const std::string expected("PKIR\x01\0\0\0\x06\0\0\0affine\x01\0\0\0", 22);
  EXPECT_EQ(bytes.substr(0, expected.size()), expected);
}

TEST(KernelCodecTest, BytesThatAreNotAKernelOrOfAnotherVersionAreRefused) {
  EXPECT_TRUE(HasCode(DecodeKernel("").status(), PHAL_INVALID_ARGUMENT,
                      {"not a serialized KIR kernel"}));
  std::string bytes = EncodeKernel(*KernelsOfSeveralKinds()[0]);
  bytes[4] = 9;
  EXPECT_TRUE(HasCode(DecodeKernel(bytes).status(), PHAL_INVALID_ARGUMENT,
                      {"format version 9"}));
}

TEST(KernelCodecTest, EveryTruncationIsDataLossNamingAField) {
  for (const std::unique_ptr<KernelStorage>& kernel : KernelsOfSeveralKinds()) {
    const std::string bytes = EncodeKernel(*kernel);
    for (std::size_t length = 8; length < bytes.size(); ++length) {
      EXPECT_TRUE(HasCode(DecodeKernel(bytes.substr(0, length)).status(),
                          PHAL_DATA_LOSS,
                          {"serialized KIR kernel ends inside"}))
          << "prefix of " << length << " of " << bytes.size() << " bytes";
    }
  }
}

TEST(KernelCodecTest, TruncatedNodesAreNamedByTheirBody) {
  const std::string bytes = EncodeKernel(*KernelsOfSeveralKinds()[0]);
  EXPECT_TRUE(HasCode(DecodeKernel(bytes.substr(0, bytes.size() - 70)).status(),
                      PHAL_DATA_LOSS, {"loop body nodes"}));
}

TEST(KernelCodecTest, BytesAfterTheLastFieldAreDataLoss) {
  const std::string bytes = EncodeKernel(*KernelsOfSeveralKinds()[2]);
  EXPECT_TRUE(HasCode(DecodeKernel(bytes + "xy").status(), PHAL_DATA_LOSS,
                      {"2 bytes after its last field"}));
}

TEST(KernelCodecTest, ACountLargerThanTheBytesAllocatesNothing) {
  std::string bytes = EncodeKernel(*KernelsOfSeveralKinds()[2]);
  // The buffer count follows the header (8), the name (4 + 4) and the kind.
  const std::size_t buffer_count = 8 + 4 + 4 + 4;
  bytes[buffer_count + 3] = '\x7f';
  EXPECT_TRUE(HasCode(DecodeKernel(bytes).status(), PHAL_DATA_LOSS,
                      {"ends inside buffers"}));
}

}  // namespace
}  // namespace phal
