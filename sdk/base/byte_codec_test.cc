// Byte records: what ByteWriter writes ByteReader reads back, little-endian,
// and a record cut short reads as false, never past its end.
#include "sdk/base/byte_codec.h"

#include <cmath>

#include <gtest/gtest.h>

namespace phal {
namespace {

TEST(ByteCodecTest, WhatIsWrittenReadsBackInOrder) {
  ByteWriter out;
  out.AddRaw("MAGC");
  out.AddU32(0x01020304u);
  out.AddString("name");
  out.AddU64(0x1122334455667788ull);
  const std::string bytes = out.Take();
  EXPECT_EQ(bytes.size(), 4u + 4 + 8 + 4 + 8);
  EXPECT_EQ(bytes.substr(4, 4), std::string("\x04\x03\x02\x01", 4))
      << "integers are little-endian";

  ByteReader in(bytes);
  std::string_view magic, name;
  uint32_t small = 0;
  uint64_t large = 0;
  ASSERT_TRUE(in.ReadRaw(4, &magic));
  ASSERT_TRUE(in.ReadU32(&small));
  ASSERT_TRUE(in.ReadString(&name));
  ASSERT_TRUE(in.ReadU64(&large));
  EXPECT_EQ(magic, "MAGC");
  EXPECT_EQ(small, 0x01020304u);
  EXPECT_EQ(name, "name");
  EXPECT_EQ(large, 0x1122334455667788ull);
  EXPECT_TRUE(in.at_end());
}

TEST(ByteCodecTest, ARecordCutShortReadsAsFalse) {
  ByteWriter out;
  out.AddString("a longer string");
  const std::string bytes = out.Take();
  for (size_t size = 0; size < bytes.size(); ++size) {
    ByteReader in(std::string_view(bytes).substr(0, size));
    std::string_view text;
    EXPECT_FALSE(in.ReadString(&text)) << size << " bytes";
  }
  const std::string huge_length(8, '\xff');
  ByteReader huge(huge_length);
  std::string_view text;
  EXPECT_FALSE(huge.ReadString(&text)) << "a length beyond the bytes";
  const std::string three_bytes = "abc";
  ByteReader short_reader(three_bytes);
  uint32_t value = 0;
  EXPECT_FALSE(short_reader.ReadU32(&value));
  std::string_view all;
  EXPECT_TRUE(short_reader.ReadRaw(3, &all)) << "a failed read reads nothing";
}

TEST(ByteCodecTest, HeadersAndSignedAndFloatFieldsReadBack) {
  ByteWriter out;
  out.AddHeader("PHALTEST", 3);
  out.AddU8(0xAB);
  out.AddI64(-5);
  out.AddF64(-0.0);
  const std::string bytes = out.Take();
  EXPECT_EQ(bytes.size(), 8u + 4 + 1 + 8 + 8);

  ByteReader other(bytes);
  uint32_t version = 0;
  EXPECT_FALSE(other.ReadHeader("PHALELSE", &version));
  EXPECT_EQ(other.remaining(), bytes.size()) << "a wrong magic reads nothing";

  ByteReader in(bytes);
  uint8_t byte = 0;
  int64_t integer = 0;
  double real = 1;
  ASSERT_TRUE(in.ReadHeader("PHALTEST", &version));
  EXPECT_EQ(version, 3u);
  ASSERT_TRUE(in.ReadU8(&byte));
  ASSERT_TRUE(in.ReadI64(&integer));
  ASSERT_TRUE(in.ReadF64(&real));
  EXPECT_EQ(byte, 0xAB);
  EXPECT_EQ(integer, -5);
  EXPECT_TRUE(real == 0.0 && std::signbit(real)) << "the bits, sign included";
  EXPECT_TRUE(in.at_end());
}

TEST(ByteCodecTest, IntegersAndEnumsKeepTheirWidth) {
  enum class Small : uint8_t { kValue = 7 };
  enum Wide : int32_t { kNegative = -3 };
  ByteWriter out;
  out.AddInteger(Small::kValue);
  out.AddInteger(kNegative);
  out.AddInteger(int16_t{-2});
  out.AddInteger(uint64_t{1} << 63);
  const std::string bytes = out.Take();
  EXPECT_EQ(bytes.size(), 1u + 4 + 2 + 8);

  ByteReader in(bytes);
  Small small{};
  Wide wide{};
  int16_t half = 0;
  uint64_t top = 0;
  ASSERT_TRUE(in.ReadInteger(&small));
  ASSERT_TRUE(in.ReadInteger(&wide));
  ASSERT_TRUE(in.ReadInteger(&half));
  ASSERT_TRUE(in.ReadInteger(&top));
  EXPECT_EQ(small, Small::kValue);
  EXPECT_EQ(wide, kNegative);
  EXPECT_EQ(half, -2);
  EXPECT_EQ(top, uint64_t{1} << 63);
  EXPECT_FALSE(in.ReadInteger(&half)) << "nothing is left";
}

}  // namespace
}  // namespace phal
