// Kernels of every shape the SPMD emitter (spmd_kernel_emitter.h) has, for
// the tests of its targets: each target's test compiles all of them.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_SPMD_TEST_KERNELS_H_
#define POLYHAL_SDK_EMITTERS_LLVM_SPMD_TEST_KERNELS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"

namespace phal::llvm_emitter {

// out = exp(in) * 2 + in over f32[dims] (buffers 0 and 1).
inline void BuildExpLoop(KirKernel& loop, const std::vector<int64_t>& dims) {
  const phal_element_type_t f32 = PHAL_ELEMENT_TYPE_F32;
  const uint32_t input = loop.AddBuffer(f32, dims);
  loop.outputs = {loop.AddBuffer(f32, dims, PHAL_KIR_ACCESS_WRITE)};
  loop.dims = dims;
  std::vector<uint32_t> indices;
  for (size_t d = 0; d < dims.size(); ++d) {
    indices.push_back(loop.body.Index(static_cast<int64_t>(d)));
  }
  const uint32_t x = loop.body.Read(f32, input, indices);
  const uint32_t e = loop.body.Add(PHAL_KIR_OP_EXP, f32, {x});
  const uint32_t two = loop.body.Constant(f32, 0x40000000u);
  const uint32_t scaled = loop.body.Add(PHAL_KIR_OP_MULTIPLY, f32, {e, two});
  loop.body.AddResult(loop.body.Add(PHAL_KIR_OP_ADD, f32, {scaled, x}));
}

struct NamedKernel {
  std::string name;
  std::function<const phal_kernel_desc_t&()> desc;
};

// The holders of the kernels; a test may rebuild any of them its own way.
struct SpmdTestKernels {
  // Builds one kernel of each shape: an elementwise loop calling the math
  // library, a long reduction (shared memory and shuffles), a short one, a
  // tiled matmul, a sort in scratch memory and a byte copy. The descriptions
  // point into this object.
  std::vector<NamedKernel> BuildEveryShape() {
    BuildExpLoop(loop, {3, 1000});
    plugin_testing::BuildSum(long_sum, PHAL_ELEMENT_TYPE_F32, {4, 5000}, {1});
    plugin_testing::BuildSum(short_sum, PHAL_ELEMENT_TYPE_F64, {300, 7}, {1});
    plugin_testing::BuildMatmul(matmul, PHAL_ELEMENT_TYPE_BF16,
                                PHAL_ELEMENT_TYPE_F32, 33, 17, 70);
    plugin_testing::BuildSort(
        sort, {PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_F32}, {5, 100}, 1);
    copy.copy.source = copy.AddBuffer(PHAL_ELEMENT_TYPE_U8, {1001});
    copy.copy.destination =
        copy.AddBuffer(PHAL_ELEMENT_TYPE_U8, {1001}, PHAL_KIR_ACCESS_WRITE);
    return {
        {"loop", [&]() -> const phal_kernel_desc_t& { return loop.Desc(); }},
        {"long_sum",
         [&]() -> const phal_kernel_desc_t& { return long_sum.Desc(); }},
        {"short_sum",
         [&]() -> const phal_kernel_desc_t& { return short_sum.Desc(); }},
        {"matmul",
         [&]() -> const phal_kernel_desc_t& { return matmul.Desc(); }},
        {"sort", [&]() -> const phal_kernel_desc_t& { return sort.Desc(); }},
        {"copy", [&]() -> const phal_kernel_desc_t& { return copy.Desc(); }}};
  }

  KirKernel loop{"test_kernel", PHAL_KERNEL_KIND_LOOP};
  KirKernel long_sum{"test_kernel", PHAL_KERNEL_KIND_REDUCE};
  KirKernel short_sum{"test_kernel", PHAL_KERNEL_KIND_REDUCE};
  KirKernel matmul{"test_kernel", PHAL_KERNEL_KIND_DOT};
  KirKernel sort{"test_kernel", PHAL_KERNEL_KIND_SORT};
  KirKernel copy{"test_kernel", PHAL_KERNEL_KIND_COPY};
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_SPMD_TEST_KERNELS_H_
