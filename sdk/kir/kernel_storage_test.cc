// The one deep copy of a kernel description: what it keeps, and what it
// refuses to walk.
#include "sdk/kir/kernel_storage.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "sdk/kir/kernel.h"
#include "sdk/kir/printer.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal {
namespace {

using plugin_testing::HasCode;
using plugin_testing::IsOk;

constexpr phal_element_type_t kF32 = PHAL_ELEMENT_TYPE_F32;

// out[i] = in[i] * 2 over 4 f32 elements.
void BuildDoubling(KirKernel& kernel) {
  const uint32_t in = kernel.AddBuffer(kF32, {4}, PHAL_KIR_ACCESS_READ);
  kernel.outputs = {kernel.AddBuffer(kF32, {4}, PHAL_KIR_ACCESS_WRITE)};
  kernel.dims = {4};
  const uint32_t i = kernel.body.Index(0);
  const uint32_t x = kernel.body.Read(kF32, in, {&i, 1});
  kernel.body.AddResult(kernel.body.Add(
      PHAL_KIR_OP_MULTIPLY, kF32, {x, kernel.body.Constant(kF32, 0x40000000)}));
}

TEST(KernelStorageTest, CopyOutlivesTheDescriptionItWasMadeFrom) {
  std::unique_ptr<KernelStorage> copy;
  std::string original_text;
  {
    KirKernel kernel("doubling", PHAL_KERNEL_KIND_LOOP);
    BuildDoubling(kernel);
    original_text = KernelToText(kernel.Desc());
    StatusOr<std::unique_ptr<KernelStorage>> copied =
        KernelStorage::Copy(kernel.Desc());
    ASSERT_TRUE(IsOk(copied.status()));
    copy = std::move(*copied);
    EXPECT_NE(copy->desc().buffers, kernel.Desc().buffers);
    EXPECT_NE(copy->desc().u.loop->body.nodes,
              kernel.Desc().u.loop->body.nodes);
  }
  EXPECT_EQ(copy->name(), "doubling");
  EXPECT_EQ(KernelToText(copy->desc()), original_text);
}

TEST(KernelStorageTest, ArrayThatIsNullButCountedIsNamed) {
  KirKernel kernel("broken", PHAL_KERNEL_KIND_LOOP);
  BuildDoubling(kernel);
  phal_kernel_desc_t desc = kernel.Desc();
  phal_kir_loop_t loop = *desc.u.loop;
  loop.dims = nullptr;
  desc.u.loop = &loop;
  EXPECT_TRUE(
      HasCode(KernelStorage::Copy(desc).status(), PHAL_INVALID_ARGUMENT,
              {"kernel broken", "loop dims is NULL but has 1 entries"}));
}

TEST(KernelStorageTest, DescriptionOfAnOlderSizeIsRefused) {
  KirKernel kernel("old", PHAL_KERNEL_KIND_COPY);
  phal_kernel_desc_t desc = kernel.Desc();
  desc.struct_size = 8;
  EXPECT_TRUE(HasCode(KernelStorage::Copy(desc).status(), PHAL_INVALID_ARGUMENT,
                      {"struct_size 8"}));
}

TEST(KernelStorageTest, KindOfANewerAbiIsUnimplemented) {
  KirKernel kernel("future", PHAL_KERNEL_KIND_COPY);
  phal_kernel_desc_t desc = kernel.Desc();
  const uint32_t kind = 42;
  std::memcpy(&desc.kind, &kind, sizeof(kind));
  EXPECT_TRUE(HasCode(KernelStorage::Copy(desc).status(), PHAL_UNIMPLEMENTED,
                      {"kernel kind 42 is unknown"}));
}

}  // namespace
}  // namespace phal
