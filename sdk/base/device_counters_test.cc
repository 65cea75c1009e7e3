// The counter block: one allocation holding the array and its strings,
// read back as written.
#include "sdk/base/device_counters.h"

#include <cstdlib>
#include <vector>

#include <gtest/gtest.h>

namespace phal {
namespace {

TEST(DeviceCountersTest, ABlockHoldsTheArrayAndEveryStringAfterIt) {
  const CounterView counters[] = {{"cycles", "", "cycles", 1234},
                                  {"busy.matrix", "fusion.3", "cycles", 56.5}};
  const size_t size = CounterBlockSize(counters);
  // "cycles", "", "cycles", "busy.matrix", "fusion.3", "cycles", each with
  // its NUL.
  EXPECT_EQ(size, 2 * sizeof(phal_device_counter_t) + 7 + 1 + 7 + 12 + 9 + 7);
  void* block = std::malloc(size);
  phal_device_counter_t* array = WriteCounterBlock(counters, block);
  ASSERT_EQ(static_cast<void*>(array), block);
  const char* end = static_cast<const char*>(block) + size;
  for (int i = 0; i < 2; ++i) {
    EXPECT_GE(array[i].name, reinterpret_cast<const char*>(array + 2));
    EXPECT_LT(array[i].unit, end) << "strings must stay inside the block";
  }
  EXPECT_STREQ(array[1].name, "busy.matrix");
  EXPECT_STREQ(array[1].kernel, "fusion.3");
  EXPECT_STREQ(array[0].kernel, "");
  EXPECT_EQ(array[1].value, 56.5);

  const std::vector<CounterView> read = ViewCounters(array, 2);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].name, "cycles");
  EXPECT_EQ(read[1].kernel, "fusion.3");
  EXPECT_EQ(read[0].value, 1234);
  std::free(block);
}

TEST(DeviceCountersTest, NullStringsOfAnotherSideReadAsEmpty) {
  phal_device_counter_t counter{nullptr, nullptr, nullptr, 7};
  const std::vector<CounterView> read = ViewCounters(&counter, 1);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].name, "");
  EXPECT_EQ(read[0].unit, "");
  EXPECT_EQ(read[0].value, 7);
}

TEST(DeviceCountersTest, NoCountersTakeNoBytes) {
  EXPECT_EQ(CounterBlockSize({}), 0u);
}

}  // namespace
}  // namespace phal
