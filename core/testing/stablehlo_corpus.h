// Walking the StableHLO corpora of PHAL_TEST_CORPUS_DIR (the interpreter's
// test files, the JAX test data) the way the StableHLO interpreter's own
// suite counts them: every function of every part of every .mlir file.
#ifndef POLYHAL_CORE_TESTING_STABLEHLO_CORPUS_H_
#define POLYHAL_CORE_TESTING_STABLEHLO_CORPUS_H_

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/frontend/stablehlo_parser.h"
#include "core/testing/source_files.h"

namespace phal::testing {

// The directory of the corpus `name` (as "stablehlo-interpret").
inline std::filesystem::path CorpusDirectory(const std::string& name) {
  return std::filesystem::path(PHAL_TEST_CORPUS_DIR) / name;
}

// Why a test of the corpus `name` skips: it is not where it was looked for.
inline std::string CorpusAbsence(const std::string& name) {
  return "the StableHLO corpus " + name + " is not at " +
         CorpusDirectory(name).string();
}

// The .mlir files of the corpus `name`, sorted; none when it is absent.
inline std::vector<std::filesystem::path> CorpusFiles(const std::string& name) {
  const std::filesystem::path directory = CorpusDirectory(name);
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(directory)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(directory)) {
    if (entry.path().extension() == ".mlir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string FirstLine(const std::string& message) {
  const std::size_t newline = message.find('\n');
  return newline == std::string::npos ? message : message.substr(0, newline);
}

// The names of the functions a part declares, read from the text so that a
// part that fails to parse still counts its functions.
inline std::vector<std::string> DeclaredFunctions(std::string_view part) {
  static const std::regex kDeclaration(
      R"(func\.func\s+(?:public\s+|private\s+|nested\s+)?@([\w.$-]+))");
  std::vector<std::string> names;
  const std::string text(part);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kDeclaration);
       it != std::sregex_iterator(); ++it) {
    names.push_back((*it)[1].str());
  }
  return names;
}

// A test function: one without parameters that has its own computation
// (run_parallel programs run only inside the function that starts them).
inline bool IsTestFunction(const StableHloFunction& function) {
  return function.computation != nullptr && function.parameter_count == 0;
}

// Calls `visit(file_name, source, part)` for every part of every file of
// `files`.
template <typename Visit>
void ForEachPart(const std::vector<std::filesystem::path>& files, Visit visit) {
  for (const std::filesystem::path& path : files) {
    const std::string text = ReadTextFile(path);
    const SourceText source(text, path.filename().string());
    for (const StableHloPart& part : SplitStableHloParts(text)) {
      visit(path.filename().string(), source, part);
    }
  }
}

// The outcome of every function of a parsed part, in order, counted as the
// interpreter's suite counts them: a test function's is `run_test`'s; a
// function a test calls shares its caller's; any other function takes
// arguments the file supplies only on its RUN line and gets `uncalled`.
template <typename Outcome, typename RunTest>
std::vector<std::pair<std::string, Outcome>> FunctionOutcomes(
    const StableHloModule& listing, RunTest run_test, const Outcome& uncalled) {
  std::map<std::string, Outcome> tests;
  std::map<std::string, std::string> caller_of;
  for (const StableHloFunction& function : listing.functions) {
    for (const std::string& callee : function.callees) {
      caller_of.emplace(callee, function.name);
    }
    if (IsTestFunction(function)) tests[function.name] = run_test(function);
  }
  std::vector<std::pair<std::string, Outcome>> outcomes;
  for (const StableHloFunction& function : listing.functions) {
    if (IsTestFunction(function)) {
      outcomes.emplace_back(function.name, tests[function.name]);
    } else if (caller_of.count(function.name) > 0) {
      outcomes.emplace_back(function.name, tests[caller_of[function.name]]);
    } else {
      outcomes.emplace_back(function.name, uncalled);
    }
  }
  return outcomes;
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_STABLEHLO_CORPUS_H_
