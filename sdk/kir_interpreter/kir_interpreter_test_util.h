// What the interpreter's tests share: host memory for a kernel's buffers,
// element values as raw bits, status assertions, and one-node kernels that
// apply a single op elementwise.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_TEST_UTIL_H_
#define POLYHAL_SDK_KIR_INTERPRETER_KIR_INTERPRETER_TEST_UTIL_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/base/status.h"
#include "sdk/kir_interpreter/kir_interpreter.h"
#include "sdk/plugin_testing/kir_builder.h"

namespace phal::kir_interpreter::testing {

inline ::testing::AssertionResult IsOk(const Status& status) {
  if (status.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.ToString();
}

// Succeeds when `status` has `code` and a message containing every part.
inline ::testing::AssertionResult HasError(
    const Status& status, phal_status_code_t code,
    std::initializer_list<std::string_view> parts) {
  if (status.code() != code) {
    return ::testing::AssertionFailure() << "expected " << StatusCodeName(code)
                                         << ", got " << status.ToString();
  }
  for (std::string_view part : parts) {
    if (status.message().find(part) == std::string::npos) {
      return ::testing::AssertionFailure() << "message \"" << status.message()
                                           << "\" lacks \"" << part << "\"";
    }
  }
  return ::testing::AssertionSuccess();
}

// The bits of `value` as a KIR constant's first word.
template <typename T>
uint64_t Bits(T value) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(value));
  return bits;
}

template <typename T>
std::vector<uint8_t> Bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
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
    bytes_[buffer] = Bytes(values);
  }
  template <typename T>
  std::vector<T> Get(uint32_t buffer) const {
    return As<T>(bytes_[buffer]);
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

// An operand of an elementwise test: its element type and raw elements.
struct Operand {
  phal_element_type_t type;
  std::vector<uint8_t> bytes;
};

template <typename T>
Operand Values(phal_element_type_t type, const std::vector<T>& values) {
  return {type, Bytes(values)};
}

// Applies `op` (with `attributes`) elementwise to the operands, all of one
// element count, through a loop kernel; returns the result's bytes.
inline std::vector<uint8_t> ApplyOp(phal_kir_op_t op,
                                    phal_element_type_t result_type,
                                    const std::vector<Operand>& operands,
                                    std::array<int64_t, 4> attributes = {}) {
  const int64_t count = static_cast<int64_t>(
      operands[0].bytes.size() / ElementTypeByteSize(operands[0].type));
  plugin_testing::LoopKernel loop;
  loop.name = "apply";
  loop.dims = {count};
  std::vector<uint32_t> reads;
  const uint32_t index = loop.body.Index(0);
  for (const Operand& operand : operands) {
    const uint32_t buffer = loop.AddBuffer(operand.type, {count});
    reads.push_back(loop.body.Read(buffer, operand.type, {index}));
  }
  const uint32_t output =
      loop.AddBuffer(result_type, {count}, PHAL_KIR_ACCESS_WRITE);
  loop.outputs = {output};
  loop.body.Result(loop.body.Node(op, result_type, reads, attributes));
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
