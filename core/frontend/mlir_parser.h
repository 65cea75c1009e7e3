// The MLIR text parser: reads a StableHLO program (a `module` or bare
// `func.func`s, as JAX and the StableHLO test suites print them) into the
// syntax tree of mlir_syntax.h. It knows the generic operation form, the
// pretty forms of the stablehlo, chlo, check, func and sdy ops, attributes,
// types and locations; what the ops mean is lowering's business.
#ifndef POLYHAL_CORE_FRONTEND_MLIR_PARSER_H_
#define POLYHAL_CORE_FRONTEND_MLIR_PARSER_H_

#include <cstddef>

#include "core/frontend/mlir_syntax.h"
#include "core/frontend/source_text.h"
#include "sdk/base/status.h"

namespace phal {

// Parses source.text()[begin, end). Errors carry the whole file's line and
// column (see SourceText::ErrorAt). Never crashes on malformed input.
StatusOr<MlirModule> ParseMlirModule(const SourceText& source,
                                     std::size_t begin, std::size_t end);

// Parses an element type name ("f32", "ui8", "complex<f64>" is not a name:
// see the parser) into an HLO element type; false when HLO has no such type.
bool MlirElementTypeFromName(std::string_view name, ElementType* type);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_MLIR_PARSER_H_
