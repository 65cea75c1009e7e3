// The XLA HLO text front end: reads the text XLA and JAX print
// (`HloModule::ToString()`, `jax.jit(f).lower(x).as_text(dialect="hlo")`,
// `...compile().as_text()`) into an HloModule. docs/hlo.md lists the syntax
// it accepts and the attributes it ignores.
#ifndef POLYHAL_CORE_FRONTEND_HLO_PARSER_H_
#define POLYHAL_CORE_FRONTEND_HLO_PARSER_H_

#include <memory>
#include <string_view>

#include "core/hlo/module.h"
#include "core/hlo/shape.h"
#include "sdk/base/status.h"

namespace phal {

// Parses a whole module. `file_name` only labels error messages, which read
// "file:line:column: error: message", then the offending source line and a
// caret under the column. The module is not verified: call VerifyModule().
StatusOr<std::unique_ptr<HloModule>> ParseHloText(std::string_view text,
                                                  std::string_view file_name);

// Parses one shape such as "f32[2,3]{1,0}" or "(s32[], pred[4])".
StatusOr<Shape> ParseShapeText(std::string_view text);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_HLO_PARSER_H_
