#include "plugins/intel/intel_program_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace phal::intel {
namespace {

// The longest build log an error carries.
constexpr size_t kMaxLogBytes = 8192;

std::string CacheDirectoryFromEnvironment() {
  const char* configured = std::getenv("PHAL_CACHE_DIR");
  if (configured != nullptr && *configured != '\0') {
    return std::string(configured) == "off" ? "" : configured;
  }
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/polyhal";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    return std::string(home) + "/.cache/polyhal";
  }
  return "";
}

// FNV-1a, continuing from `hash`.
uint64_t Hash(const std::string& bytes, uint64_t hash) {
  for (unsigned char byte : bytes) {
    hash = (hash ^ byte) * 0x100000001b3ull;
  }
  return hash;
}

std::string BuildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  Cl().GetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                           &size);
  std::string log(size, '\0');
  Cl().GetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size,
                           log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) {
    log.pop_back();
  }
  if (log.size() > kMaxLogBytes) log = log.substr(0, kMaxLogBytes) + "\n...";
  return log;
}

}  // namespace

ProgramCache::ProgramCache() : directory_(CacheDirectoryFromEnvironment()) {}

ProgramCache::~ProgramCache() {
  for (auto& [key, program] : programs_) Cl().ReleaseProgram(program);
}

uint64_t ProgramCache::compiled_count() const {
  std::lock_guard lock(mutex_);
  return compiled_count_;
}

std::string ProgramCache::PathFor(uint64_t key) const {
  char name[40];
  std::snprintf(name, sizeof(name), "intel-%016llx.bin",
                static_cast<unsigned long long>(key));
  return directory_ + "/" + name;
}

StatusOr<cl_program> ProgramCache::Compile(cl_context context,
                                           cl_device_id device,
                                           const std::string& source,
                                           const std::string& options) const {
  const char* text = source.c_str();
  const size_t length = source.size();
  cl_int error = CL_SUCCESS;
  cl_program program =
      Cl().CreateProgramWithSource(context, 1, &text, &length, &error);
  if (program == nullptr) return ClError("clCreateProgramWithSource", error);
  error =
      Cl().BuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
  if (error != CL_SUCCESS) {
    const std::string log = BuildLog(program, device);
    Cl().ReleaseProgram(program);
    return Internal("intel plugin: clBuildProgram failed with " +
                    ErrorName(error) + "; build log:\n" + log);
  }
  return program;
}

cl_program ProgramCache::LoadBinary(cl_context context, cl_device_id device,
                                    uint64_t key,
                                    const std::string& options) const {
  if (directory_.empty()) return nullptr;
  std::ifstream file(PathFor(key), std::ios::binary);
  if (!file) return nullptr;
  std::ostringstream contents;
  contents << file.rdbuf();
  const std::string binary = std::move(contents).str();
  if (binary.empty()) return nullptr;
  const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
  const size_t size = binary.size();
  cl_int status = CL_SUCCESS, error = CL_SUCCESS;
  cl_program program = Cl().CreateProgramWithBinary(context, 1, &device, &size,
                                                    &bytes, &status, &error);
  if (program == nullptr) return nullptr;
  if (status != CL_SUCCESS ||
      Cl().BuildProgram(program, 1, &device, options.c_str(), nullptr,
                        nullptr) != CL_SUCCESS) {
    Cl().ReleaseProgram(program);
    return nullptr;
  }
  return program;
}

void ProgramCache::StoreBinary(cl_program program, uint64_t key) const {
  if (directory_.empty()) return;
  size_t size = 0;
  if (Cl().GetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size,
                          nullptr) != CL_SUCCESS ||
      size == 0) {
    return;
  }
  std::vector<unsigned char> binary(size);
  unsigned char* pointer = binary.data();
  if (Cl().GetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointer),
                          &pointer, nullptr) != CL_SUCCESS) {
    return;
  }
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return;
  const std::string path = PathFor(key);
  const std::string temporary =
      path + ".tmp" + std::to_string(::getpid()) + "-" +
      std::to_string(reinterpret_cast<uintptr_t>(binary.data()));
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(reinterpret_cast<const char*>(binary.data()),
               static_cast<std::streamsize>(binary.size()));
    if (!file) {
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
}

StatusOr<cl_program> ProgramCache::Build(cl_context context,
                                         cl_device_id device,
                                         const std::string& source,
                                         const std::string& options,
                                         const std::string& compiler_identity) {
  uint64_t key = Hash(source, 0xcbf29ce484222325ull);
  key = Hash(options, key);
  key = Hash(compiler_identity, key);
  {
    std::lock_guard lock(mutex_);
    auto found = programs_.find(key);
    if (found != programs_.end()) {
      Cl().RetainProgram(found->second);
      return found->second;
    }
  }
  cl_program program = LoadBinary(context, device, key, options);
  if (program == nullptr) {
    PHAL_ASSIGN_OR_RETURN(program, Compile(context, device, source, options));
    StoreBinary(program, key);
    std::lock_guard lock(mutex_);
    ++compiled_count_;
  }
  std::lock_guard lock(mutex_);
  auto [slot, inserted] = programs_.emplace(key, program);
  if (!inserted) {
    Cl().ReleaseProgram(program);  // another thread built it meanwhile
  }
  Cl().RetainProgram(slot->second);
  return slot->second;
}

}  // namespace phal::intel
