// What the interpreter's tests share: the shared kernels and status
// assertions of sdk/plugin_testing under short names, host memory for a
// kernel's buffers, element values as raw bits, and one-node kernels that
// apply a single op elementwise.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_TEST_UTIL_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_TEST_UTIL_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/base/status.h"
#include "sdk/kir/kernel.h"
#include "sdk/kir_interpreter/kir_interpreter.h"
#include "sdk/plugin_testing/kir_builder_kernels.h"
#include "sdk/plugin_testing/plugin_test.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::kir_interpreter::testing {

using plugin_testing::BuildAddition;
using plugin_testing::BuildMatmul;
using plugin_testing::BuildSort;
using plugin_testing::BuildSum;
using plugin_testing::FromBytes;
using plugin_testing::HasCode;
using plugin_testing::IsOk;
using plugin_testing::ToBytes;

using namespace ::phal::element_type_names;  // NOLINT(build/namespaces)

// The bits of `value` as a KIR constant's first word.
template <typename T>
uint64_t Bits(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(value));
  return bits;
}

// f16 and bf16 values as their bits, and back.
inline std::vector<uint16_t> Halves(std::initializer_list<double> values) {
  std::vector<uint16_t> bits;
  for (double v : values) bits.push_back(DoubleToHalf(v));
  return bits;
}
inline std::vector<double> FromHalves(const std::vector<uint16_t>& bits) {
  std::vector<double> values;
  for (uint16_t b : bits) values.push_back(HalfToFloat(b));
  return values;
}
inline std::vector<uint16_t> BFloats(std::initializer_list<double> values) {
  std::vector<uint16_t> bits;
  for (double v : values) bits.push_back(DoubleToBFloat16(v));
  return bits;
}

// Host memory for every buffer of a kernel, sized from its description and
// filled with 0xEE so that unwritten bytes show.
class HostBuffers {
 public:
  explicit HostBuffers(const Kernel& kernel) {
    for (uint32_t i = 0; i < kernel.desc().buffer_count; ++i) {
      bytes_.emplace_back(kernel.BufferByteSize(i), 0xEE);
    }
  }

  template <typename T>
  void Set(uint32_t buffer, const std::vector<T>& values) {
    ASSERT_EQ(values.size() * sizeof(T), bytes_[buffer].size())
        << "values for buf" << buffer;
    bytes_[buffer] = ToBytes(values);
  }
  template <typename T>
  std::vector<T> Get(uint32_t buffer) const {
    return FromBytes<T>(bytes_[buffer]);
  }
  std::vector<uint8_t>& bytes(uint32_t buffer) { return bytes_[buffer]; }

  Status Run(const Kernel& kernel) {
    std::vector<uint8_t*> pointers;
    for (std::vector<uint8_t>& b : bytes_) pointers.push_back(b.data());
    return kernel.Run(pointers);
  }

 private:
  std::vector<std::vector<uint8_t>> bytes_;
};

// Rows of a [3, 2] s32 operand (buffer 0) picked by `count` indices of
// `index_type` (buffer 1) into buffer 2.
inline void BuildRowGather(KirKernel& gather, phal_element_type_t index_type,
                           int64_t count) {
  gather.gather.operand = gather.AddBuffer(kS32, {3, 2});
  gather.gather.start_indices = gather.AddBuffer(index_type, {count});
  gather.gather.output =
      gather.AddBuffer(kS32, {count, 2}, PHAL_KIR_ACCESS_WRITE);
  gather.arrays[KirKernel::kGatherOffsetDims] = {1};
  gather.arrays[KirKernel::kGatherCollapsedSliceDims] = {0};
  gather.arrays[KirKernel::kGatherStartIndexMap] = {0};
  gather.gather.index_vector_dim = 1;
  gather.arrays[KirKernel::kGatherSliceSizes] = {1, 2};
}

// An operand of an elementwise test: its element type and raw elements.
struct Operand {
  phal_element_type_t type;
  std::vector<uint8_t> bytes;
};

template <typename T>
Operand Values(phal_element_type_t type, const std::vector<T>& values) {
  return {type, ToBytes(values)};
}

// Applies `op` (with `attributes`) elementwise to the operands, all of one
// element count, through a loop kernel; returns the result's bytes.
inline std::vector<uint8_t> ApplyOp(phal_kir_op_t op,
                                    phal_element_type_t result_type,
                                    const std::vector<Operand>& operands,
                                    std::array<int64_t, 4> attributes = {}) {
  const int64_t count = static_cast<int64_t>(
      operands[0].bytes.size() / ElementTypeByteSize(operands[0].type));
  KirKernel loop("apply", PHAL_KERNEL_KIND_LOOP);
  loop.dims = {count};
  std::vector<uint32_t> reads;
  const uint32_t index = loop.body.Index(0);
  for (const Operand& operand : operands) {
    const uint32_t buffer = loop.AddBuffer(operand.type, {count});
    reads.push_back(loop.body.Read(operand.type, buffer, {index}));
  }
  const uint32_t output =
      loop.AddBuffer(result_type, {count}, PHAL_KIR_ACCESS_WRITE);
  loop.outputs = {output};
  loop.body.AddResult(loop.body.Add(op, result_type, reads, attributes));
  StatusOr<Kernel> kernel = Kernel::Create(loop.Desc());
  EXPECT_TRUE(IsOk(kernel.status()));
  if (!kernel.ok()) return {};
  HostBuffers buffers(*kernel);
  for (uint32_t i = 0; i < operands.size(); ++i) {
    buffers.bytes(i) = operands[i].bytes;
  }
  EXPECT_TRUE(IsOk(buffers.Run(*kernel)));
  return buffers.bytes(output);
}

}  // namespace phal::kir_interpreter::testing

#endif  // POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_TEST_UTIL_H_
