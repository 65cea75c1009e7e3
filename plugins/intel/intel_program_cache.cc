#include "plugins/intel/intel_program_cache.h"

#include <optional>
#include <string_view>
#include <vector>

#include "sdk/base/hash.h"

namespace phal::intel {
namespace {

// The longest build log an error carries.
constexpr size_t kMaxLogBytes = 8192;

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

ProgramCache::ProgramCache() : disk_(DiskCacheConfigFromEnvironment("intel")) {}

ProgramCache::~ProgramCache() {
  for (auto& [key, program] : programs_) Cl().ReleaseProgram(program);
}

StatusOr<cl_program> CompileProgram(cl_context context, cl_device_id device,
                                    const std::string& source,
                                    const std::string& options) {
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
  const std::optional<std::string> binary = disk_.Load(key);
  if (!binary.has_value() || binary->empty()) return nullptr;
  const auto* bytes = reinterpret_cast<const unsigned char*>(binary->data());
  const size_t size = binary->size();
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
  if (!disk_.enabled()) return;
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
  disk_.Store(key, std::string_view(reinterpret_cast<const char*>(pointer),
                                    binary.size()));
}

StatusOr<cl_program> ProgramCache::Build(cl_context context,
                                         cl_device_id device,
                                         const std::string& source,
                                         const std::string& options,
                                         const std::string& compiler_identity) {
  const uint64_t key = Fnv1a(compiler_identity, Fnv1a(options, Fnv1a(source)));
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
    PHAL_ASSIGN_OR_RETURN(program,
                          CompileProgram(context, device, source, options));
    StoreBinary(program, key);
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
