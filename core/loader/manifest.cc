#include "core/loader/manifest.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "polyhal/types.h"

namespace phal {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// 1-based line and column of byte `offset` in `text`.
std::pair<size_t, size_t> LineAndColumn(const std::string& text,
                                        size_t offset) {
  size_t line = 1;
  size_t column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// The part of nlohmann's parse_error message after its position prefix.
std::string ParseErrorDetail(const json::parse_error& error) {
  std::string message = error.what();
  size_t colon = message.find(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

// nlohmann's exception message after its "[json.exception.<kind>.<id>] ".
std::string ExceptionDetail(const json::exception& error) {
  std::string message = error.what();
  size_t bracket = message.find("] ");
  return bracket == std::string::npos ? message : message.substr(bracket + 2);
}

Status ManifestError(const std::string& path, const std::string& what) {
  return InvalidArgument("manifest " + path + ": " + what);
}

// Reads an optional string member; an absent member leaves `out` unchanged.
Status ReadString(const json& object, const char* key, bool required,
                  const std::string& path, std::string* out) {
  auto it = object.find(key);
  if (it == object.end()) {
    if (!required) return OkStatus();
    return ManifestError(path, std::string("missing \"plugin.") + key + "\"");
  }
  if (!it->is_string()) {
    return ManifestError(path, std::string("\"plugin.") + key +
                                   "\" must be a string, not " +
                                   it->type_name());
  }
  *out = it->get<std::string>();
  if (required && out->empty()) {
    return ManifestError(path, std::string("\"plugin.") + key + "\" is empty");
  }
  return OkStatus();
}

std::string ResolveLibraryPath(const std::string& manifest_path,
                               const std::string& library_path) {
  if (library_path.find('/') == std::string::npos) return library_path;
  fs::path library(library_path);
  if (library.is_relative()) {
    library = fs::path(manifest_path).parent_path() / library;
  }
  return library.lexically_normal().string();
}

}  // namespace

bool ParseVersion(const std::string& text, uint32_t* out) {
  uint32_t major = 0;
  uint32_t minor = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [dot, major_error] = std::from_chars(begin, end, major);
  if (major_error != std::errc() || dot == end || *dot != '.') return false;
  auto [last, minor_error] = std::from_chars(dot + 1, end, minor);
  if (minor_error != std::errc() || last != end) return false;
  if (major > 0xFFFF || minor > 0xFFFF) return false;
  *out = PHAL_MAKE_VERSION(major, minor);
  return true;
}

std::string VersionToString(uint32_t version) {
  return std::to_string(PHAL_VERSION_MAJOR(version)) + "." +
         std::to_string(PHAL_VERSION_MINOR(version));
}

StatusOr<PluginManifest> ParseManifest(const std::string& manifest_path,
                                       const std::string& text) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& error) {
    auto [line, column] =
        LineAndColumn(text, error.byte == 0 ? 0 : error.byte - 1);
    return InvalidArgument(manifest_path + ":" + std::to_string(line) + ":" +
                           std::to_string(column) +
                           ": invalid JSON: " + ParseErrorDetail(error));
  } catch (const json::exception& error) {
    // Errors without a position, such as a number too large for a double.
    return ManifestError(manifest_path,
                         "invalid JSON: " + ExceptionDetail(error));
  }
  if (!document.is_object()) {
    return ManifestError(manifest_path, "top level must be a JSON object");
  }
  auto format = document.find("file_format_version");
  uint32_t format_version = 0;
  if (format == document.end() || !format->is_string() ||
      !ParseVersion(format->get<std::string>(), &format_version)) {
    return ManifestError(manifest_path,
                         "\"file_format_version\" must be a string such as "
                         "\"1.0\"");
  }
  if (PHAL_VERSION_MAJOR(format_version) != 1) {
    return ManifestError(manifest_path, "unsupported file_format_version \"" +
                                            format->get<std::string>() +
                                            "\" (this loader reads 1.x)");
  }
  auto plugin = document.find("plugin");
  if (plugin == document.end() || !plugin->is_object()) {
    return ManifestError(manifest_path, "missing object \"plugin\"");
  }
  PluginManifest manifest;
  manifest.manifest_path = manifest_path;
  PHAL_RETURN_IF_ERROR(
      ReadString(*plugin, "name", true, manifest_path, &manifest.name));
  std::string library;
  PHAL_RETURN_IF_ERROR(
      ReadString(*plugin, "library_path", true, manifest_path, &library));
  std::string abi;
  PHAL_RETURN_IF_ERROR(
      ReadString(*plugin, "abi_version", true, manifest_path, &abi));
  if (!ParseVersion(abi, &manifest.abi_version)) {
    return ManifestError(manifest_path, "\"plugin.abi_version\" \"" + abi +
                                            "\" is not of the form "
                                            "\"major.minor\"");
  }
  PHAL_RETURN_IF_ERROR(ReadString(*plugin, "description", false, manifest_path,
                                  &manifest.description));
  PHAL_RETURN_IF_ERROR(
      ReadString(*plugin, "version", false, manifest_path, &manifest.version));
  manifest.library_path = ResolveLibraryPath(manifest_path, library);
  return manifest;
}

StatusOr<PluginManifest> ReadManifest(const std::string& manifest_path) {
  std::ifstream file(manifest_path, std::ios::binary);
  if (!file) {
    return NotFound("manifest " + manifest_path + ": cannot be read");
  }
  std::ostringstream text;
  text << file.rdbuf();
  return ParseManifest(manifest_path, text.str());
}

}  // namespace phal
