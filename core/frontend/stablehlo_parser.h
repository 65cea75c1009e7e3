// The StableHLO text front end: reads StableHLO programs as MLIR text (what
// `jax.jit(f).lower(x).as_text()` prints, and the StableHLO interpreter's
// test files) in both the generic and the pretty op syntax, and lowers them
// to HLO IR. docs/stablehlo.md lists the syntax, ops, chlo decompositions
// and checks it supports.
#ifndef POLYHAL_CORE_FRONTEND_STABLEHLO_PARSER_H_
#define POLYHAL_CORE_FRONTEND_STABLEHLO_PARSER_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "core/frontend/source_text.h"
#include "core/frontend/stablehlo_module.h"
#include "sdk/base/status.h"

namespace phal {

// A byte range of a file holding one module.
struct StableHloPart {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Splits a file at lines consisting of "// -----" (the StableHLO test
// suites' -split-input-file convention); a file without such lines is one
// part.
std::vector<StableHloPart> SplitStableHloParts(std::string_view text);

// Parses and lowers one part of `source`. Errors read
// "file:line:column: error: message" with the whole file's line numbers,
// then the source line and a caret; malformed input never crashes. The
// module is checked op by op with shape inference while it is built.
StatusOr<StableHloModule> ParseStableHloPart(const SourceText& source,
                                             const StableHloPart& part);

// Parses a whole text as one module. `file_name` only labels errors.
StatusOr<StableHloModule> ParseStableHlo(std::string_view text,
                                         std::string_view file_name);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_STABLEHLO_PARSER_H_
