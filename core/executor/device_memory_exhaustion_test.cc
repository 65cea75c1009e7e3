// Device memory running out in the middle of a program: the execution
// fails with RESOURCE_EXHAUSTED naming the buffer it could not allocate,
// frees everything it had allocated, and the client goes on running work
// that fits. The device is asic-ref with 1 MiB of DRAM
// (PHAL_ASIC_REF_CONFIG=dram=1M).
#include <cstdlib>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "polyhal/runtime.h"

namespace phal {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr int64_t kSide = 256;
constexpr uint64_t kMatrixBytes = kSide * kSide * sizeof(float);
constexpr uint64_t kDramBytes = uint64_t{1} << 20;
// Room for the loop's scalar constants, which stay on the device with the
// executable; far less than one intermediate buffer.
constexpr uint64_t kConstantBytes = 64;

// Each iteration of the loop body needs two 256 KiB intermediates beside
// the loop's state; the second one no longer fits in 1 MiB.
constexpr char kLoop[] = R"(HloModule loop

cond {
  s = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[256,256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[256,256] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  d = f32[256,256] dot(x, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  t = f32[256,256] tanh(d)
  e = f32[256,256] dot(t, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT r = (s32[], f32[256,256]) tuple(j, e)
}

ENTRY main {
  x = f32[256,256] parameter(0)
  zero = s32[] constant(0)
  t = (s32[], f32[256,256]) tuple(zero, x)
  w = (s32[], f32[256,256]) while(t), condition=cond, body=body
  ROOT r = f32[256,256] get-tuple-element(w), index=1
}
)";

constexpr char kDoubling[] = R"(HloModule doubling

ENTRY main {
  x = f32[256,256] parameter(0)
  ROOT y = f32[256,256] add(x, x)
}
)";

std::string MessageOf(phal_status_t* status) {
  std::string message = phal_status_get_message(status);
  phal_status_free(status);
  return message;
}

class DeviceMemoryExhaustionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    setenv("PHAL_ASIC_REF_CONFIG", "dram=1M", 1);
    // Kernel by kernel, so that the executor allocates the loop body's
    // intermediates (graph mode keeps them on chip).
    setenv("PHAL_ASIC_REF_MODE", "kernels", 1);
    phal_client_options_t options{};
    options.struct_size = sizeof(options);
    options.plugin_filter = "asic-ref";
    ASSERT_EQ(phal_client_create(&options, &client_), nullptr);
    size_t count = 0;
    ASSERT_EQ(phal_client_get_device_count(client_, &count), nullptr);
    if (count == 0) GTEST_SKIP() << "no asic-ref device";
    ASSERT_EQ(phal_client_get_device(client_, 0, &device_), nullptr);
  }

  void TearDown() override {
    phal_client_destroy(client_);
    unsetenv("PHAL_ASIC_REF_CONFIG");
    unsetenv("PHAL_ASIC_REF_MODE");
  }

  phal_executable_t* Compile(const std::string& text) {
    phal_compile_options_t options{};
    options.struct_size = sizeof(options);
    options.format = PHAL_PROGRAM_FORMAT_HLO_TEXT;
    phal_executable_t* executable = nullptr;
    EXPECT_EQ(phal_executable_compile(device_, text.data(), text.size(),
                                      &options, &executable),
              nullptr);
    return executable;
  }

  // A f32 buffer of `bytes` bytes; NULL with the status left in *status
  // when the device has no room.
  phal_buffer_t* Allocate(uint64_t bytes, phal_status_t** status) {
    const int64_t dims[] = {static_cast<int64_t>(bytes / sizeof(float))};
    phal_buffer_desc_t desc{sizeof(desc), nullptr, PHAL_ELEMENT_TYPE_F32, 1,
                            dims,         0};
    phal_buffer_t* buffer = nullptr;
    *status = phal_buffer_allocate(device_, &desc, &buffer);
    return buffer;
  }

  // The 256x256 matrix holding `value` everywhere.
  phal_buffer_t* Matrix(float value) {
    const int64_t dims[] = {kSide, kSide};
    phal_buffer_desc_t desc{sizeof(desc), nullptr, PHAL_ELEMENT_TYPE_F32, 2,
                            dims,         0};
    phal_buffer_t* buffer = nullptr;
    EXPECT_EQ(phal_buffer_allocate(device_, &desc, &buffer), nullptr);
    std::vector<float> values(kSide * kSide, value);
    EXPECT_EQ(
        phal_buffer_copy_from_host(buffer, 0, values.data(), kMatrixBytes),
        nullptr);
    return buffer;
  }

  phal_client_t* client_ = nullptr;
  phal_device_t* device_ = nullptr;
};

TEST_F(DeviceMemoryExhaustionTest,
       ALoopBodyThatDoesNotFitFailsNamingItsBuffer) {
  phal_executable_t* loop = Compile(kLoop);
  ASSERT_NE(loop, nullptr);
  phal_buffer_t* x = Matrix(0.01f);
  phal_buffer_t* result = nullptr;
  phal_status_t* status = phal_executable_execute(loop, &x, 1, &result, 1);
  ASSERT_EQ(phal_status_get_code(status), PHAL_RESOURCE_EXHAUSTED);
  EXPECT_THAT(MessageOf(status),
              AllOf(HasSubstr("intermediate buffer"),
                    HasSubstr("of computation 'body' (262144 bytes"),
                    HasSubstr("could not be allocated"),
                    HasSubstr("exceeds its 1048576 bytes")));
  EXPECT_EQ(result, nullptr);

  // Every buffer the failed run allocated is free again: all the DRAM but
  // the argument's and the constants' can be had in one piece.
  phal_buffer_t* rest =
      Allocate(kDramBytes - kMatrixBytes - kConstantBytes, &status);
  EXPECT_EQ(status, nullptr) << phal_status_get_message(status);
  phal_buffer_free(rest);

  // The same failure again, not a different one: nothing leaked.
  status = phal_executable_execute(loop, &x, 1, &result, 1);
  EXPECT_EQ(phal_status_get_code(status), PHAL_RESOURCE_EXHAUSTED);
  phal_status_free(status);
  phal_buffer_free(x);
  phal_executable_free(loop);
}

TEST_F(DeviceMemoryExhaustionTest, TheClientRunsWorkThatFitsAfterwards) {
  phal_executable_t* loop = Compile(kLoop);
  phal_executable_t* doubling = Compile(kDoubling);
  ASSERT_NE(loop, nullptr);
  ASSERT_NE(doubling, nullptr);
  phal_buffer_t* x = Matrix(1.5f);
  phal_buffer_t* result = nullptr;
  phal_status_t* status = phal_executable_execute(loop, &x, 1, &result, 1);
  ASSERT_EQ(phal_status_get_code(status), PHAL_RESOURCE_EXHAUSTED);
  phal_status_free(status);

  ASSERT_EQ(phal_executable_execute(doubling, &x, 1, &result, 1), nullptr);
  std::vector<float> values(kSide * kSide);
  ASSERT_EQ(phal_buffer_copy_to_host(result, 0, values.data(), kMatrixBytes),
            nullptr);
  EXPECT_EQ(values.front(), 3.0f);
  EXPECT_EQ(values.back(), 3.0f);
  phal_buffer_free(result);
  phal_buffer_free(x);
  phal_executable_free(doubling);
  phal_executable_free(loop);
}

TEST_F(DeviceMemoryExhaustionTest, AnArgumentThatDoesNotFitIsRefusedByName) {
  phal_status_t* status = nullptr;
  phal_buffer_t* whole = Allocate(kDramBytes, &status);
  ASSERT_EQ(status, nullptr) << phal_status_get_message(status);
  phal_buffer_t* more = Allocate(4, &status);
  EXPECT_EQ(more, nullptr);
  ASSERT_EQ(phal_status_get_code(status), PHAL_RESOURCE_EXHAUSTED);
  EXPECT_THAT(MessageOf(status),
              HasSubstr("allocating 4 bytes of device DRAM exceeds its "
                        "1048576 bytes (1048576 in use)"));
  phal_buffer_free(whole);
}

}  // namespace
}  // namespace phal
