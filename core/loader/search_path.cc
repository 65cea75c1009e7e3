#include "core/loader/search_path.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>

namespace phal {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> SplitPathList(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ':')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// The directory of the binary this code is linked into: libpolyhal.so, or
// the executable when the core is linked statically.
fs::path CoreBinaryDirectory() {
  std::error_code error;
  fs::path location = boost::dll::this_line_location(error);
  if (error) return {};
  fs::path absolute = fs::weakly_canonical(fs::absolute(location), error);
  if (error) return {};
  return absolute.parent_path();
}

std::vector<fs::path> JsonFilesIn(const fs::path& directory,
                                  std::error_code& error) {
  std::vector<fs::path> files;
  for (fs::directory_iterator it(directory, error), end; !error && it != end;
       it.increment(error)) {
    if (it->path().extension() == ".json") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class ManifestCollector {
 public:
  ManifestCollector(const Logger& log, std::vector<ManifestLocation>* out)
      : log_(log), out_(out) {}

  void AddFile(const fs::path& file) {
    std::error_code error;
    fs::path canonical = fs::canonical(file, error);
    std::string key =
        error ? file.lexically_normal().string() : canonical.string();
    if (!seen_.insert(key).second) {
      log_.Debug("manifest " + file.string() + " already found; skipped");
      return;
    }
    fs::path absolute = fs::absolute(file, error).lexically_normal();
    log_.Debug("found manifest " + absolute.string());
    out_->push_back({absolute.string(), OkStatus()});
  }

  void AddEntry(const std::string& entry, bool report_missing) {
    std::error_code error;
    fs::file_status status = fs::status(entry, error);
    if (fs::is_directory(status)) {
      log_.Debug("searching " + entry);
      std::vector<fs::path> files = JsonFilesIn(entry, error);
      if (error) {
        Report(entry, "cannot list directory: " + error.message(),
               report_missing);
        return;
      }
      for (const fs::path& file : files) AddFile(file);
      return;
    }
    if (fs::is_regular_file(status)) {
      AddFile(entry);
      return;
    }
    Report(entry, "no such file or directory", report_missing);
  }

 private:
  void Report(const std::string& entry, const std::string& why, bool report) {
    log_.Debug("search path entry " + entry + ": " + why);
    if (!report) return;
    std::error_code error;
    std::string absolute = fs::absolute(entry, error).lexically_normal();
    out_->push_back({absolute, NotFound("plugin search path entry " + absolute +
                                        ": " + why)});
  }

  const Logger& log_;
  std::vector<ManifestLocation>* out_;
  std::set<std::string> seen_;
};

}  // namespace

SearchPath MakeSearchPath(const std::string& override_path) {
  SearchPath search;
  if (!override_path.empty()) {
    search.entries = SplitPathList(override_path);
    search.is_override = true;
    return search;
  }
  const fs::path relative = fs::path("share") / "polyhal" / "plugins.d";
  fs::path core_directory = CoreBinaryDirectory();
  if (!core_directory.empty()) {
    search.entries.push_back(
        (core_directory.parent_path() / relative).lexically_normal().string());
  }
  search.entries.push_back(
      (fs::path(PHAL_INSTALL_DATADIR) / "polyhal" / "plugins.d").string());
  std::string xdg = GetEnv("XDG_DATA_DIRS");
  if (xdg.empty()) xdg = "/usr/local/share:/usr/share";
  for (const std::string& directory : SplitPathList(xdg)) {
    std::string entry =
        (fs::path(directory) / "polyhal" / "plugins.d").string();
    if (std::find(search.entries.begin(), search.entries.end(), entry) ==
        search.entries.end()) {
      search.entries.push_back(entry);
    }
  }
  return search;
}

std::vector<ManifestLocation> FindManifests(const SearchPath& search,
                                            const Logger& log) {
  std::vector<ManifestLocation> found;
  ManifestCollector collector(log, &found);
  for (const std::string& entry : search.entries) {
    collector.AddEntry(entry, search.is_override);
  }
  return found;
}

}  // namespace phal
