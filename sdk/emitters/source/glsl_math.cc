#include "sdk/emitters/source/glsl_math.h"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace phal::source_emitter {
namespace {

constexpr std::string_view kMarker = "// phal-block:";

// The first marker at the start of a line at or after `from`.
std::size_t FindMarker(std::string_view source, std::size_t from) {
  for (std::size_t pos = source.find(kMarker, from);
       pos != std::string_view::npos; pos = source.find(kMarker, pos + 1)) {
    if (pos == 0 || source[pos - 1] == '\n') return pos;
  }
  return std::string_view::npos;
}

struct Block {
  std::vector<std::string> dependencies;
  std::string_view text;
};

// The blocks of GlslMathSource() by name: each runs from its marker line to
// the next marker (or the end).
const std::map<std::string, Block, std::less<>>& Blocks() {
  static const auto* const blocks = [] {
    auto* result = new std::map<std::string, Block, std::less<>>;
    std::string_view source = GlslMathSource();
    std::size_t start = FindMarker(source, 0);
    while (start != std::string_view::npos) {
      std::size_t next = FindMarker(source, start + kMarker.size());
      std::string_view text = source.substr(
          start, next == std::string_view::npos ? next : next - start);
      std::size_t line_end = text.find('\n');
      std::string_view line =
          text.substr(kMarker.size(), line_end - kMarker.size());
      std::vector<std::string> words;
      std::size_t pos = 0;
      while (pos < line.size()) {
        std::size_t begin = line.find_first_not_of(' ', pos);
        if (begin == std::string_view::npos) break;
        std::size_t end = line.find(' ', begin);
        if (end == std::string_view::npos) end = line.size();
        words.emplace_back(line.substr(begin, end - begin));
        pos = end;
      }
      if (!words.empty()) {
        Block block;
        block.dependencies.assign(words.begin() + 1, words.end());
        block.text = text;
        (*result)[words.front()] = std::move(block);
      }
      start = next;
    }
    return result;
  }();
  return *blocks;
}

// Appends `name`'s dependencies, then `name`, to `out` (depth first, each
// block once). `state`: 1 while visiting, 2 when done.
Status Visit(const std::string& name, std::map<std::string, int>& state,
             std::string& out) {
  int& mark = state[name];
  if (mark == 2) return OkStatus();
  if (mark == 1) {
    return Internal("GLSL math block dependency cycle through " + name);
  }
  const auto& blocks = Blocks();
  auto it = blocks.find(name);
  if (it == blocks.end()) {
    return NotFound("no GLSL math block named " + name);
  }
  mark = 1;
  for (const std::string& dependency : it->second.dependencies) {
    PHAL_RETURN_IF_ERROR(Visit(dependency, state, out));
  }
  state[name] = 2;
  out.append(it->second.text);
  return OkStatus();
}

}  // namespace

StatusOr<GlslMathBlock> FindGlslMathBlock(std::string_view name) {
  const auto& blocks = Blocks();
  const auto it = blocks.find(name);
  if (it == blocks.end()) {
    return NotFound("no GLSL math block named " + std::string(name));
  }
  return GlslMathBlock{it->second.text, it->second.dependencies};
}

StatusOr<std::string> GlslMathFunctions(const std::vector<std::string>& names) {
  std::map<std::string, int> state;
  std::string out;
  PHAL_RETURN_IF_ERROR(Visit("phal_m_macros", state, out));
  for (const std::string& name : names) {
    PHAL_RETURN_IF_ERROR(Visit(name, state, out));
  }
  return out;
}

}  // namespace phal::source_emitter
