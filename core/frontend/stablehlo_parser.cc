#include "core/frontend/stablehlo_parser.h"

#include "core/frontend/mlir_bytecode.h"
#include "core/frontend/mlir_parser.h"
#include "core/frontend/portable_artifact.h"
#include "core/frontend/stablehlo_lowering.h"

namespace phal {
namespace {

bool IsSplitMarker(std::string_view line) {
  while (!line.empty() &&
         (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    line.remove_suffix(1);
  }
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
    line.remove_prefix(1);
  return line == "// -----";
}

}  // namespace

const StableHloFunction* StableHloModule::FindFunction(
    const std::string& name) const {
  for (const StableHloFunction& function : functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

const StableHloFunction* StableHloModule::EntryFunction() const {
  if (module == nullptr || module->entry_computation() == nullptr)
    return nullptr;
  for (const StableHloFunction& function : functions) {
    if (function.computation == module->entry_computation()) return &function;
  }
  return nullptr;
}

std::vector<StableHloPart> SplitStableHloParts(std::string_view text) {
  if (IsMlirBytecode(text)) return {{0, text.size()}};
  std::vector<StableHloPart> parts;
  std::size_t part_begin = 0;
  std::size_t line_begin = 0;
  while (line_begin < text.size()) {
    std::size_t line_end = text.find('\n', line_begin);
    if (line_end == std::string_view::npos) line_end = text.size();
    if (IsSplitMarker(text.substr(line_begin, line_end - line_begin))) {
      parts.push_back({part_begin, line_begin});
      part_begin = line_end;
    }
    line_begin = line_end + 1;
  }
  parts.push_back({part_begin, text.size()});
  return parts;
}

StatusOr<StableHloModule> ParseStableHloPart(const SourceText& source,
                                             const StableHloPart& part) {
  PHAL_ASSIGN_OR_RETURN(MlirModule syntax,
                        ParseMlirModule(source, part.begin, part.end));
  return LowerStableHlo(syntax, source);
}

StatusOr<StableHloModule> ParseStableHlo(std::string_view text,
                                         std::string_view file_name) {
  if (IsMlirBytecode(text)) {
    PHAL_ASSIGN_OR_RETURN(std::string converted,
                          PortableArtifactToStableHlo(text, file_name));
    const std::string name =
        std::string(file_name) + " (read as StableHLO text)";
    const SourceText source(converted, name);
    return ParseStableHloPart(source, {0, converted.size()});
  }
  const SourceText source(text, file_name);
  return ParseStableHloPart(source, {0, text.size()});
}

}  // namespace phal
