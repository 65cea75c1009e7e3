// --corpus DIR: every .mlir file under DIR becomes a case whose expected
// values are the file's own checks (check.expect_eq, expect_close, ...).
#include <algorithm>
#include <filesystem>

#include "conformance/cases/corpus.h"
#include "conformance/report/verdict.h"

namespace phal::conformance {

StatusOr<std::vector<Case>> StableHloCorpusCases(const std::string& directory) {
  std::error_code error;
  std::vector<std::filesystem::path> files;
  for (std::filesystem::recursive_directory_iterator it(directory, error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_regular_file() && it->path().extension() == ".mlir") {
      files.push_back(it->path());
    }
  }
  if (error) return NotFound(directory + ": " + error.message());
  std::sort(files.begin(), files.end());
  std::vector<Case> cases;
  for (const std::filesystem::path& file : files) {
    Case c;
    c.kind = CaseKind::kCorpus;
    c.tier = kCorpusTier;
    c.corpus_path = file.string();
    c.id =
        "corpus." +
        std::filesystem::relative(file, directory).replace_extension().string();
    c.op = file.stem().string();
    c.dtype = "-";
    cases.push_back(std::move(c));
  }
  if (cases.empty()) return NotFound(directory + ": no .mlir files");
  return cases;
}

}  // namespace phal::conformance
