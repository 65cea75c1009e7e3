// Files of the source tree the core's tests read: their paths below
// PHAL_TEST_SOURCE_DIR, which the test binary defines, and their text.
#ifndef POLYHAL_CORE_TESTING_SOURCE_FILES_H_
#define POLYHAL_CORE_TESTING_SOURCE_FILES_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace phal::testing {

// `relative` (as "core/compiler/testdata/mlp.hlo") in the source tree.
inline std::filesystem::path SourceFile(const std::string& relative) {
  return std::filesystem::path(PHAL_TEST_SOURCE_DIR) / relative;
}

// The whole file, byte for byte; "" when it cannot be read.
inline std::string ReadTextFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_SOURCE_FILES_H_
