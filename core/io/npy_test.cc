#include "core/io/npy.h"
#include "core/testing/element_type_params.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace phal {
namespace {

// A .npy file with the given version, header dict and raw data; the header
// is padded to 64 bytes like NumPy's.
std::string MakeNpy(int major, std::string dict, const std::string& data) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  const std::size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  for (std::size_t i = 0; i < prefix - 8; ++i) {
    out.push_back(static_cast<char>((dict.size() >> (8 * i)) & 0xFF));
  }
  return out + dict + data;
}

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

Literal Sample(ElementType type) {
  Literal literal(Shape(type, {2, 3}));
  for (int64_t i = 0; i < 6; ++i) {
    if (IsComplex(type)) {
      literal.SetFromComplex(i, {i - 2.5, i * 0.5});
    } else if (IsFloat(type)) {
      literal.SetFromDouble(i, (i - 2) * 1.5);
    } else {
      literal.SetFromInt64(i, i % 2 == 0 ? -i : i);
    }
  }
  return literal;
}

class NpyRoundTripTest : public ::testing::TestWithParam<ElementType> {};

TEST_P(NpyRoundTripTest, EncodeThenDecodeGivesTheSameLiteral) {
  const Literal original = Sample(GetParam());
  StatusOr<std::string> bytes = EncodeNpy(original);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(bytes->size() % 64, original.byte_size() % 64)
      << "header (magic, length and dict) must be a multiple of 64 bytes";
  StatusOr<Literal> decoded = DecodeNpy(*bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, original)
      << "expected " << original.ToString() << ", got " << decoded->ToString();
}

INSTANTIATE_TEST_SUITE_P(EveryElementType, NpyRoundTripTest,
                         testing::EveryArrayElementType(),
                         testing::ElementTypeParamName());

TEST(NpyTest, WritesTheHeaderNumpyWrites) {
  StatusOr<std::string> bytes =
      EncodeNpy(Literal::FromValues(PHAL_ELEMENT_TYPE_F32, {3}, {1, 2, 3}));
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(bytes->substr(0, 10),
            Bytes({0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 118, 0}));
  EXPECT_EQ(bytes->substr(10, 57),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_EQ((*bytes)[127], '\n');
  EXPECT_EQ(bytes->size(), 128u + 12u);
}

TEST(NpyTest, WritesScalarsAndBf16AsMlDtypesDoes) {
  StatusOr<std::string> bytes =
      EncodeNpy(Literal::Scalar(PHAL_ELEMENT_TYPE_BF16, 1.0));
  ASSERT_TRUE(bytes.ok());
  EXPECT_NE(bytes->find("'descr': '<V2'"), std::string::npos) << *bytes;
  EXPECT_NE(bytes->find("'shape': ()"), std::string::npos) << *bytes;
}

TEST(NpyTest, ReadsVersionTwoAndThreeHeaders) {
  for (int major : {2, 3}) {
    StatusOr<Literal> literal = DecodeNpy(MakeNpy(
        major, "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
        Bytes({1, 0, 0xFF, 0xFF})));
    ASSERT_TRUE(literal.ok()) << literal.status().ToString();
    EXPECT_EQ(*literal,
              Literal::FromValues(PHAL_ELEMENT_TYPE_S16, {2}, {1, -1}))
        << "version " << major << ": got " << literal->ToString();
  }
}

TEST(NpyTest, ReadsFortranOrderTransposedIntoRowMajor) {
  // Column-major [[1, 2, 3], [4, 5, 6]] is stored 1 4 2 5 3 6.
  StatusOr<Literal> literal = DecodeNpy(
      MakeNpy(1, "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3), }",
              Bytes({1, 4, 2, 5, 3, 6})));
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(*literal, Literal::FromValues(PHAL_ELEMENT_TYPE_U8, {2, 3},
                                          {1, 2, 3, 4, 5, 6}))
      << literal->ToString();
}

TEST(NpyTest, ReadsFortranOrderOfRankThree) {
  // Element (i, j, k) of shape (2, 2, 2) sits at i + 2j + 4k column-major.
  StatusOr<Literal> literal = DecodeNpy(MakeNpy(
      1, "{'descr': '|i1', 'fortran_order': True, 'shape': (2, 2, 2), }",
      Bytes({0, 4, 2, 6, 1, 5, 3, 7})));
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(*literal, Literal::FromValues(PHAL_ELEMENT_TYPE_S8, {2, 2, 2},
                                          {0, 1, 2, 3, 4, 5, 6, 7}))
      << literal->ToString();
}

TEST(NpyTest, ReadsBigEndianIntegersFloatsAndComplex) {
  StatusOr<Literal> ints = DecodeNpy(
      MakeNpy(1, "{'descr': '>i4', 'fortran_order': False, 'shape': (1,), }",
              Bytes({0x01, 0x02, 0x03, 0x04})));
  ASSERT_TRUE(ints.ok()) << ints.status().ToString();
  EXPECT_EQ(ints->GetAsInt64(0), 0x01020304);

  StatusOr<Literal> complex = DecodeNpy(
      MakeNpy(1, "{'descr': '>c8', 'fortran_order': False, 'shape': (), }",
              Bytes({0x3F, 0x80, 0, 0, 0xC0, 0, 0, 0})));
  ASSERT_TRUE(complex.ok()) << complex.status().ToString();
  EXPECT_EQ(complex->GetAsComplex(0), std::complex<double>(1.0, -2.0));
}

TEST(NpyTest, ReadsDoubleQuotedKeysInAnyOrder) {
  StatusOr<Literal> literal = DecodeNpy(MakeNpy(
      1, "{\"shape\": (1, 1), \"fortran_order\": False, \"descr\": \"<f8\"}",
      std::string(8, '\0')));
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(literal->shape(), Shape(PHAL_ELEMENT_TYPE_F64, {1, 1}));
}

TEST(NpyTest, ReadsEmptyArrays) {
  StatusOr<Literal> literal = DecodeNpy(MakeNpy(
      1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", ""));
  ASSERT_TRUE(literal.ok()) << literal.status().ToString();
  EXPECT_EQ(literal->ElementCount(), 0);
}

// Decoding `bytes` fails with a message containing every one of `parts`.
void ExpectDecodeError(const std::string& bytes,
                       std::initializer_list<std::string> parts) {
  StatusOr<Literal> literal = DecodeNpy(bytes, "input.npy");
  ASSERT_FALSE(literal.ok())
      << "expected an error, got " << literal->ToString();
  for (const std::string& part : parts) {
    EXPECT_NE(literal.status().message().find(part), std::string::npos)
        << "expected \"" << part << "\" in: " << literal.status().message();
  }
}

TEST(NpyErrorTest, BadMagic) {
  ExpectDecodeError("PK\x03\x04 not numpy", {"input.npy", "magic"});
}

TEST(NpyErrorTest, UnsupportedVersion) {
  std::string bytes = MakeNpy(
      1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "....");
  bytes[6] = 4;
  ExpectDecodeError(bytes, {"input.npy", "version 4.0"});
}

TEST(NpyErrorTest, TruncatedHeader) {
  const std::string bytes =
      MakeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", "");
  ExpectDecodeError(bytes.substr(0, 40),
                    {"input.npy", "truncated .npy header"});
  ExpectDecodeError(bytes.substr(0, 9), {"input.npy", "truncated"});
}

TEST(NpyErrorTest, UnknownDescr) {
  ExpectDecodeError(
      MakeNpy(1, "{'descr': '<U8', 'fortran_order': False, 'shape': (), }", ""),
      {"input.npy", "unknown dtype descr '<U8'"});
}

TEST(NpyErrorTest, StructuredDtype) {
  ExpectDecodeError(
      MakeNpy(1,
              "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (), "
              "}",
              ""),
      {"input.npy", "structured"});
}

TEST(NpyErrorTest, MissingKeyAndMalformedShape) {
  ExpectDecodeError(MakeNpy(1, "{'descr': '<f4', 'shape': (1,), }", "...."),
                    {"input.npy", "'fortran_order' is missing"});
  ExpectDecodeError(
      MakeNpy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
              ""),
      {"input.npy", "non-negative dimension"});
  ExpectDecodeError(
      MakeNpy(1, "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (), }", ""),
      {"input.npy", "True or False"});
}

TEST(NpyErrorTest, DataTooShortOrTooLong) {
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
  ExpectDecodeError(MakeNpy(1, dict, std::string(15, '\0')),
                    {"input.npy", "data too short", "16 bytes", "has 15"});
  ExpectDecodeError(MakeNpy(1, dict, std::string(17, '\0')),
                    {"input.npy", "data too long"});
}

TEST(NpyErrorTest, OverflowingShape) {
  ExpectDecodeError(MakeNpy(1,
                            "{'descr': '<f8', 'fortran_order': False, 'shape': "
                            "(4294967296, 4294967296), }",
                            ""),
                    {"input.npy", "overflows"});
}

TEST(NpyErrorTest, TupleCannotBeWritten) {
  const Literal tuple =
      Literal::Tuple({Literal::Scalar(PHAL_ELEMENT_TYPE_F32, 1.0)});
  EXPECT_FALSE(EncodeNpy(tuple).ok());
}

TEST(NpyFileTest, WriteThenReadAFile) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "phal_npy_test.npy").string();
  const Literal original = Sample(PHAL_ELEMENT_TYPE_C128);
  ASSERT_TRUE(WriteNpy(path, original).ok());
  StatusOr<Literal> read = ReadNpy(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, original);
}

TEST(NpyFileTest, MissingFileNamesThePath) {
  StatusOr<Literal> read = ReadNpy("/nonexistent/dir/x.npy");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("/nonexistent/dir/x.npy"),
            std::string::npos)
      << read.status().message();
}

}  // namespace
}  // namespace phal
