// `polyhal compile MODULE --plugin NAME [--target T] --output FILE
// [--dump-dir DIR]`: compiles a module ahead of time on a compile-only
// device of the plugin (no hardware needed) and writes the serialized
// executable that `polyhal run FILE` and phal_executable_deserialize load.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "cli/plugin_program.h"
#include "cli/run_support.h"

namespace phal::cli {
namespace {

struct CompileOptions {
  std::string module_path;
  std::string plugin;
  std::string target;  // "": the plugin's default
  std::string output;
  std::string dump_dir;  // "": no dump
};

struct SerializedBytesDeleter {
  void operator()(void* data) const { phal_free(data); }
};

Status CreateDirectory(const std::string& path, const char* what) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error) {
    return Unavailable(std::string("cannot create the ") + what + " " + path +
                       ": " + error.message());
  }
  return OkStatus();
}

// Writes beside `path` first and renames, so a failed write never leaves a
// truncated executable under the name.
Status WriteFileAtomically(const std::string& path, const void* data,
                           size_t size) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data),
              static_cast<std::streamsize>(size));
    if (!out) return Unavailable("cannot write " + partial);
  }
  std::error_code error;
  std::filesystem::rename(partial, path, error);
  if (error) {
    std::filesystem::remove(partial, error);
    return Unavailable("cannot write " + path + ": " + error.message());
  }
  return OkStatus();
}

Status Compile(const CompileOptions& options) {
  PHAL_ASSIGN_OR_RETURN(std::string text, ReadTextFile(options.module_path));
  if (!options.dump_dir.empty()) {
    PHAL_RETURN_IF_ERROR(CreateDirectory(options.dump_dir, "dump directory"));
  }
  Result<Client> client = Client::Create();
  PHAL_RETURN_IF_ERROR(StatusFromError(client.error()));
  phal_device_t* device = nullptr;
  PHAL_RETURN_IF_ERROR(StatusFromError(Error(
      phal_client_open_target_device(client->get(), options.plugin.c_str(),
                                     options.target.c_str(), &device))));
  phal_compile_options_t compile{};
  compile.struct_size = sizeof(compile);
  compile.format = ProgramFormatOf(options.module_path);
  compile.source_name = options.module_path.c_str();
  compile.dump_directory =
      options.dump_dir.empty() ? nullptr : options.dump_dir.c_str();
  Executable executable;
  {
    phal_executable_t* compiled = nullptr;
    PHAL_RETURN_IF_ERROR(StatusFromError(Error(phal_executable_compile(
        device, text.data(), text.size(), &compile, &compiled))));
    executable = Executable(compiled);
  }
  void* data = nullptr;
  size_t size = 0;
  PHAL_RETURN_IF_ERROR(StatusFromError(
      Error(phal_executable_serialize(executable.get(), &data, &size))));
  std::unique_ptr<void, SerializedBytesDeleter> owned(data);
  PHAL_RETURN_IF_ERROR(WriteFileAtomically(options.output, data, size));
  phal_device_properties_t properties{};
  properties.struct_size = sizeof(properties);
  PHAL_RETURN_IF_ERROR(
      StatusFromError(Error(phal_device_get_properties(device, &properties))));
  std::printf("compiled %s for %s (plugin '%s'): %zu bytes in %s\n",
              options.module_path.c_str(), properties.name,
              options.plugin.c_str(), size, options.output.c_str());
  return OkStatus();
}

}  // namespace

int RunCompile(const Arguments& arguments) {
  ArgumentReader reader("compile", arguments);
  CompileOptions options;
  options.plugin = reader.Value("--plugin");
  options.target = reader.Value("--target");
  options.output = reader.Value("--output");
  options.dump_dir = reader.Value("--dump-dir");
  if (const int read = reader.ModuleFile(&options.module_path);
      read != kExitSuccess) {
    return read;
  }
  if (options.plugin.empty()) return reader.UsageError("missing --plugin NAME");
  if (options.output.empty()) return reader.UsageError("missing --output FILE");
  Status status = Compile(options);
  if (status.ok()) return kExitSuccess;
  std::fprintf(stderr, "polyhal compile: %s\n", status.message().c_str());
  return kExitFailure;
}

}  // namespace phal::cli
