// Files and bytes a plugin's tests handle: a scratch directory removed at
// the end of its scope, a whole file read back, kernel options naming a
// dump directory (ABI 1.4), and a kernel's serialized bytes.
#ifndef POLYHAL_SDK_PLUGIN_TESTING_TEST_FILES_H_
#define POLYHAL_SDK_PLUGIN_TESTING_TEST_FILES_H_

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"
#include "sdk/plugin_testing/fake_host.h"
#include "sdk/plugin_testing/status_assertions.h"

namespace phal::plugin_testing {

// A fresh directory under the system's temporary one, named after `name`
// and the process, removed with everything in it at the end of the scope.
class ScratchDirectory {
 public:
  explicit ScratchDirectory(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("phal_test_" + name + "_" + std::to_string(getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() { std::filesystem::remove_all(path_); }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The whole file, or "" when it cannot be read.
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)),
                     std::istreambuf_iterator<char>());
}

// Kernel options of ABI 1.4 naming `directory` for the dumps; valid while
// `directory` lives.
inline phal_kernel_options_t DumpOptions(
    const std::filesystem::path& directory) {
  phal_kernel_options_t options{};
  options.struct_size = sizeof(options);
  options.dump_directory = directory.c_str();
  return options;
}

// kernel_serialize's bytes, or "" after a failure (which fails the test).
inline std::string SerializeKernel(const phal_plugin_api_t& api,
                                   phal_plugin_kernel_t* kernel) {
  void* data = nullptr;
  uint64_t size = 0;
  EXPECT_TRUE(IsOk(api.kernel_serialize(kernel, &data, &size)));
  if (data == nullptr) return "";
  std::string bytes(static_cast<const char*>(data), size);
  FakeHost().host_free(data);
  return bytes;
}

}  // namespace phal::plugin_testing

#endif  // POLYHAL_SDK_PLUGIN_TESTING_TEST_FILES_H_
