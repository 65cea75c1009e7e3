#include "sdk/plugin_support/compile_targets.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

namespace phal {

phal_status_t* ListCompileTargets(std::span<const char* const> targets,
                                  const char* const** out_names,
                                  size_t* out_count) noexcept {
  *out_names = targets.data();
  *out_count = targets.size();
  return nullptr;
}

StatusOr<size_t> FindCompileTarget(std::span<const char* const> targets,
                                   const char* requested,
                                   std::string_view plugin) {
  const std::string_view name = requested != nullptr ? requested : "";
  if (name.empty() && !targets.empty()) return 0;
  std::string listed;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (name == targets[i]) return i;
    listed += (i == 0 ? "" : ", ") + std::string(targets[i]);
  }
  return NotFound(std::string(plugin) + ": no target '" + std::string(name) +
                  "'; the targets are " + (listed.empty() ? "none" : listed));
}

Status CompileOnlyDeviceError(std::string_view plugin, std::string_view target,
                              std::string_view what) {
  return FailedPrecondition(
      std::string(plugin) + ": the device is compile-only (target '" +
      std::string(target) + "'); it cannot " + std::string(what));
}

std::string_view KernelDumpDirectory(const phal_kernel_options_t* options) {
  constexpr size_t kEnd =
      PHAL_STRUCT_SIZE(phal_kernel_options_t, dump_directory);
  if (options == nullptr || options->struct_size < kEnd ||
      options->dump_directory == nullptr) {
    return {};
  }
  return options->dump_directory;
}

Status WriteKernelDump(std::string_view directory, std::string_view kernel,
                       std::string_view extension, std::string_view text) {
  if (directory.empty()) return OkStatus();
  std::string file(kernel.empty() ? "kernel" : kernel);
  for (char& c : file) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                      c == '_';
    if (!safe) c = '_';
  }
  const std::string path =
      std::string(directory) + "/" + file + "." + std::string(extension);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    return Unavailable("cannot write the kernel dump " + path + ": " +
                       std::strerror(errno));
  }
  return OkStatus();
}

}  // namespace phal
