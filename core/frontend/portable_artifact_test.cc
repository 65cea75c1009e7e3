// The portable-artifact reader against the StableHLO project's VHLO
// serialization tests (PHAL_TEST_CORPUS_DIR/vhlo): each released version's
// artifact must read to the module of the StableHLO text it was written
// from. Both are lowered function by function and the HLO compared; a
// function the front end does not support from text (dynamic shapes,
// tokens, ...) must be refused from the artifact too, with an error rather
// than a crash. Malformed artifacts (truncated, corrupted, newer) are refused
// with the byte offset at fault.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/frontend/mlir_bytecode.h"
#include "core/frontend/portable_artifact.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/testing/stablehlo_corpus.h"

namespace phal {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream out;
  out << file.rdbuf();
  return out.str();
}

// The text of each top-level function, keyed by name: from a line starting
// "func.func" to the next one (or the end).
std::map<std::string, std::string> FunctionChunks(const std::string& text) {
  static const std::regex kStart(
      R"(^\s*func\.func\s+(?:public\s+|private\s+)?@([\w.$-]+))");
  std::map<std::string, std::string> chunks;
  std::istringstream lines(text);
  std::string line;
  std::string name;
  std::string chunk;
  auto flush = [&] {
    if (!name.empty()) chunks[name] = chunk;
  };
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_search(line, match, kStart)) {
      flush();
      name = match[1].str();
      chunk.clear();
    }
    if (!name.empty()) chunk += line + "\n";
  }
  flush();
  return chunks;
}

// The module of `name` and the functions it calls, transitively.
std::string ModuleOf(const std::map<std::string, std::string>& chunks,
                     const std::string& name) {
  static const std::regex kSymbol(R"(@([\w.$-]+))");
  std::set<std::string> included;
  std::vector<std::string> pending = {name};
  std::string body;
  while (!pending.empty()) {
    const std::string next = pending.back();
    pending.pop_back();
    const auto it = chunks.find(next);
    if (it == chunks.end() || !included.insert(next).second) continue;
    body += it->second;
    for (auto m = std::sregex_iterator(it->second.begin(), it->second.end(),
                                       kSymbol);
         m != std::sregex_iterator(); ++m) {
      pending.push_back((*m)[1].str());
    }
  }
  return "module {\n" + body + "}\n";
}

// HLO text with every instruction and computation name replaced by its
// unique number, so that SSA names (%arg0 in text, %arg0 or %v3 from an
// artifact) do not matter.
std::string Canonical(const std::string& hlo) {
  static const std::regex kName(R"([A-Za-z_][\w-]*\.(\d+))");
  return std::regex_replace(hlo, kName, "n.$1");
}

StatusOr<std::string> LowerToHlo(const std::string& text,
                                 const std::string& name) {
  PHAL_ASSIGN_OR_RETURN(StableHloModule module, ParseStableHlo(text, name));
  return Canonical(HloModuleToText(*module.module));
}

// The module text of a whole file without its "module {" and "}" lines.
std::string ModuleBody(const std::string& text) {
  const std::size_t open = text.find('\n');
  const std::size_t close = text.rfind("}\n");
  if (open == std::string::npos || close == std::string::npos) return text;
  return text.substr(open + 1, close - open - 1);
}

TEST(PortableArtifactCorpus, EveryVersionReadsToTheModuleOfItsText) {
  const std::filesystem::path directory = testing::CorpusDirectory("vhlo");
  if (!std::filesystem::is_directory(directory)) {
    GTEST_SKIP() << testing::CorpusAbsence("vhlo");
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("stablehlo_legalize_to_vhlo.", 0) != 0 ||
        entry.path().extension() != ".bc") {
      continue;
    }
    ++files;
    const std::filesystem::path text_path =
        entry.path().parent_path() / entry.path().stem();
    StatusOr<std::string> artifact_text =
        PortableArtifactToStableHlo(ReadFile(entry.path()), file);
    ASSERT_TRUE(artifact_text.ok()) << artifact_text.status().message();
    const auto expected = FunctionChunks(ReadFile(text_path));
    const auto actual = FunctionChunks(ModuleBody(*artifact_text));
    int compared = 0;
    int unsupported = 0;
    for (const auto& [name, chunk] : expected) {
      ASSERT_EQ(actual.count(name), 1u)
          << file << ": @" << name << " is missing from the artifact";
      StatusOr<std::string> want =
          LowerToHlo(ModuleOf(expected, name), text_path.filename().string());
      StatusOr<std::string> got = LowerToHlo(ModuleOf(actual, name), file);
      if (!want.ok()) {
        ++unsupported;
        EXPECT_FALSE(got.ok())
            << file << ": @" << name
            << " is refused from text but read from the artifact:\n"
            << testing::FirstLine(want.status().message());
        continue;
      }
      ASSERT_TRUE(got.ok()) << file << ": @" << name << ": "
                            << got.status().message() << "\nartifact text:\n"
                            << ModuleOf(actual, name);
      EXPECT_EQ(*got, *want) << file << ": @" << name << "\nartifact text:\n"
                             << ModuleOf(actual, name) << "\ntext:\n"
                             << ModuleOf(expected, name);
      ++compared;
    }
    EXPECT_EQ(expected.size(), actual.size()) << file;
    // Most of each file is ops the front end lowers; the rest (dynamic
    // shapes, tokens, unsupported types) is refused on both paths.
    EXPECT_GE(compared, static_cast<int>(expected.size()) * 6 / 10)
        << file << ": " << compared << " of " << expected.size()
        << " functions compared, " << unsupported << " unsupported";
    std::cout << file << ": " << compared << " functions identical, "
              << unsupported << " refused on both paths\n";
  }
  EXPECT_EQ(files, 32) << "one artifact per released version, 0.9.0 to "
                          "1.20.0 less 1.17.0";
}

TEST(PortableArtifactCorpus, AnArtifactOfAFutureVersionIsRefused) {
  const std::filesystem::path path =
      testing::CorpusDirectory("vhlo") / "invalid_vhlo_future.mlir.bc";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << testing::CorpusAbsence("vhlo");
  }
  StatusOr<std::string> text =
      PortableArtifactToStableHlo(ReadFile(path), "future.bc");
  ASSERT_FALSE(text.ok());
  const std::string message = text.status().message();
  EXPECT_NE(message.find("future.bc: byte "), std::string::npos) << message;
  EXPECT_NE(message.find("vhlo.constant_v99"), std::string::npos) << message;
  EXPECT_NE(message.find("StableHLO 2.0.0"), std::string::npos) << message;
}

// Every truncation and many single-byte corruptions of a real artifact are
// refused or read, never a crash (ASan and UBSan watch this test).
TEST(PortableArtifactCorpus, TruncatedAndCorruptedArtifactsAreRefusedCleanly) {
  const std::filesystem::path path =
      testing::CorpusDirectory("vhlo") /
      "stablehlo_legalize_to_vhlo.1_20_0.mlir.bc";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << testing::CorpusAbsence("vhlo");
  }
  const std::string bytes = ReadFile(path);
  for (std::size_t size = 0; size < bytes.size(); size += 97) {
    StatusOr<std::string> text =
        PortableArtifactToStableHlo(bytes.substr(0, size), "cut.bc");
    ASSERT_FALSE(text.ok()) << "a prefix of " << size << " bytes was read";
    EXPECT_NE(text.status().message().find("cut.bc: byte "), std::string::npos)
        << text.status().message();
  }
  for (std::size_t at = 4; at < bytes.size(); at += 61) {
    for (unsigned char value : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string corrupt = bytes;
      corrupt[at] = static_cast<char>(value);
      StatusOr<std::string> text =
          PortableArtifactToStableHlo(corrupt, "corrupt.bc");
      if (text.ok()) continue;
      EXPECT_NE(text.status().message().find("corrupt.bc: byte "),
                std::string::npos)
          << text.status().message();
    }
  }
}

TEST(MlirBytecode, VarIntsOfEveryLengthAreRead) {
  // 1 byte: 7 bits; 2 bytes: 14; ...; 9 bytes: a full 64-bit value.
  struct Case {
    std::string bytes;
    uint64_t value;
  };
  const Case cases[] = {
      {std::string("\x03", 1), 1},
      {std::string("\xff", 1), 127},
      {std::string("\x02\x02", 2), 128},
      {std::string("\x04\x00\x02", 3), uint64_t{1} << 14},
      {std::string("\x00\xff\xff\xff\xff\xff\xff\xff\xff", 9), ~uint64_t{0}},
  };
  for (const Case& c : cases) {
    BytecodeCursor cursor(c.bytes, 0, c.bytes.size(), "v");
    uint64_t value = 0;
    ASSERT_TRUE(cursor.ReadVarInt(&value, "a varint").ok());
    EXPECT_EQ(value, c.value);
    EXPECT_TRUE(cursor.empty());
  }
  const std::string cut("\x04\x00", 2);
  BytecodeCursor cursor(cut, 0, cut.size(), "v");
  uint64_t value = 0;
  const Status status = cursor.ReadVarInt(&value, "a count");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("v: byte 0: expected a count"),
            std::string::npos)
      << status.message();
}

TEST(MlirBytecode, ZigzagSignedVarInts) {
  const std::string bytes("\x03\x05\x07", 3);  // 1, 2, 3 -> -1, 1, -2
  BytecodeCursor cursor(bytes, 0, bytes.size(), "v");
  int64_t a = 0;
  int64_t b = 0;
  int64_t c = 0;
  ASSERT_TRUE(cursor.ReadSignedVarInt(&a, "a").ok());
  ASSERT_TRUE(cursor.ReadSignedVarInt(&b, "b").ok());
  ASSERT_TRUE(cursor.ReadSignedVarInt(&c, "c").ok());
  EXPECT_EQ(a, -1);
  EXPECT_EQ(b, 1);
  EXPECT_EQ(c, -2);
}

TEST(MlirBytecode, NotBytecodeAndNewerVersionsAreRefused) {
  StatusOr<MlirBytecode> text = ReadMlirBytecode("module {}", "m.mlir");
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("magic number"), std::string::npos);
  const std::string newer(
      "ML\xEFR\x0F"
      "producer\0",
      14);
  StatusOr<MlirBytecode> bc = ReadMlirBytecode(newer, "new.bc");
  ASSERT_FALSE(bc.ok());
  EXPECT_NE(
      bc.status().message().find("new.bc: byte 4: bytecode version 7 is newer"),
      std::string::npos)
      << bc.status().message();
}

// A minimal bytecode file written by hand: one builtin.module (an empty
// region) whose attribute dictionary holds {k = <value>}, where <value> is
// `depth` VHLO arrays nested around `true`.
std::string PrefixVarInt(uint64_t value) {
  for (int bytes = 1; bytes <= 8; ++bytes) {
    if (bytes < 8 ? value < (uint64_t{1} << (7 * bytes))
                  : value < (uint64_t{1} << 56)) {
      const uint64_t encoded = (value << bytes) | (uint64_t{1} << (bytes - 1));
      std::string out;
      for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<char>((encoded >> (8 * i)) & 0xff));
      }
      return out;
    }
  }
  std::string out(1, '\0');
  for (int i = 0; i < 8; ++i) {
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  return out;
}

std::string Section(int id, const std::string& data) {
  return std::string(1, static_cast<char>(id)) + PrefixVarInt(data.size()) +
         data;
}

std::string NestedArrayArtifact(int depth) {
  const std::vector<std::string> strings = {"builtin", "vhlo", "module", "k"};
  std::string lengths;
  std::string data;
  for (auto it = strings.rbegin(); it != strings.rend(); ++it) {
    lengths += PrefixVarInt(it->size() + 1);
  }
  for (const std::string& text : strings) data += text + '\0';
  const std::string string_section =
      PrefixVarInt(strings.size()) + lengths + data;
  // Dialects builtin (string 0) and vhlo (1), unversioned; one op name:
  // builtin.module (string 2), registered.
  const std::string dialect_section = PrefixVarInt(2) + PrefixVarInt(0 << 1) +
                                      PrefixVarInt(1 << 1) + PrefixVarInt(1) +
                                      PrefixVarInt(0) + PrefixVarInt(1) +
                                      PrefixVarInt(2 << 1 | 1);
  // Attributes: 0 UnknownLoc, 1 "k", 2 {k = attr 3}, 3.. the arrays, last
  // the boolean.
  std::vector<std::string> builtin = {
      PrefixVarInt(15), PrefixVarInt(2) + PrefixVarInt(3),
      PrefixVarInt(1) + PrefixVarInt(1) + PrefixVarInt(1) + PrefixVarInt(3)};
  std::vector<std::string> vhlo;
  for (int i = 0; i < depth; ++i) {
    vhlo.push_back(PrefixVarInt(1) + PrefixVarInt(1) + PrefixVarInt(4 + i));
  }
  vhlo.push_back(PrefixVarInt(2) + PrefixVarInt(1));
  std::string attributes;
  std::string offsets = PrefixVarInt(builtin.size() + vhlo.size()) +
                        PrefixVarInt(0) + PrefixVarInt(0) +
                        PrefixVarInt(builtin.size());
  for (const std::string& entry : builtin) {
    attributes += entry;
    offsets += PrefixVarInt(entry.size() << 1 | 1);
  }
  offsets += PrefixVarInt(1) + PrefixVarInt(vhlo.size());
  for (const std::string& entry : vhlo) {
    attributes += entry;
    offsets += PrefixVarInt(entry.size() << 1 | 1);
  }
  // The top block: one op, builtin.module, with attributes (mask 0x01) and
  // one isolated region (0x10) of no blocks, in its own IR section.
  const std::string ir = PrefixVarInt(1 << 1) + PrefixVarInt(0) +
                         std::string(1, '\x11') + PrefixVarInt(0) +
                         PrefixVarInt(2) + PrefixVarInt(1 << 1 | 1) +
                         Section(4, PrefixVarInt(0));
  return std::string("ML\xEFR", 4) + PrefixVarInt(6) +
         std::string("test\0", 5) + Section(0, string_section) +
         Section(1, dialect_section) + Section(2, attributes) +
         Section(3, offsets) + Section(4, ir);
}

TEST(PortableArtifact, NestedAttributesAreReadUpToABound) {
  StatusOr<std::string> shallow =
      PortableArtifactToStableHlo(NestedArrayArtifact(3), "nested.bc");
  ASSERT_TRUE(shallow.ok()) << shallow.status().message();
  EXPECT_NE(shallow->find("module attributes {k = [[[true]]]} {"),
            std::string::npos)
      << *shallow;
  StatusOr<std::string> deep =
      PortableArtifactToStableHlo(NestedArrayArtifact(5000), "deep.bc");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("nested deeper than 256"),
            std::string::npos)
      << deep.status().message();
}

// The fuzzer's seeds and the inputs it once failed on (kept among the seeds)
// read or fail cleanly.
TEST(PortableArtifact, FuzzerSeedsAndRegressionsAreHandled) {
  const std::filesystem::path directory =
      std::filesystem::path(PHAL_TEST_SOURCE_DIR) / "fuzz" /
      "portable_artifact_fuzzer" / "corpus";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    ++files;
    const std::string name = entry.path().filename().string();
    StatusOr<std::string> text =
        PortableArtifactToStableHlo(ReadFile(entry.path()), name);
    if (name.rfind("regression-", 0) == 0) {
      ASSERT_FALSE(text.ok()) << name;
      EXPECT_NE(text.status().message().find(name + ": byte "),
                std::string::npos)
          << text.status().message();
      continue;
    }
    ASSERT_TRUE(text.ok()) << name << ": " << text.status().message();
    StatusOr<StableHloModule> module = ParseStableHlo(*text, name);
    EXPECT_TRUE(module.ok()) << name << ": " << module.status().message();
  }
  EXPECT_GE(files, 10);
}

TEST(StableHloParser, PortableArtifactsAreReadByTheirMagicNumber) {
  const std::filesystem::path path =
      testing::CorpusDirectory("vhlo") / "vhlo_emit_version_api.1_1_0.mlir.bc";
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << testing::CorpusAbsence("vhlo");
  }
  const std::string bytes = ReadFile(path);
  EXPECT_EQ(SplitStableHloParts(bytes).size(), 1u);
  StatusOr<StableHloModule> module = ParseStableHlo(bytes, "add.mlirbc");
  ASSERT_TRUE(module.ok()) << module.status().message();
  ASSERT_NE(module->EntryFunction(), nullptr);
  EXPECT_EQ(module->EntryFunction()->name, "main");
  EXPECT_NE(HloModuleToText(*module->module).find(" add(%arg0.0, %arg0.0)"),
            std::string::npos)
      << HloModuleToText(*module->module);
}

}  // namespace
}  // namespace phal
