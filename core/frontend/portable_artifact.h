// StableHLO portable artifacts: MLIR bytecode of the VHLO dialect, what
// `jax.export` serializes, what JAX hands a PJRT plugin and what
// `stablehlo-translate --serialize` writes. The reader needs no MLIR: it
// reads the bytecode container (mlir_bytecode.h), decodes the builtin and
// VHLO attributes and types, and turns each VHLO op of any released version
// (0.9.0 on) into its StableHLO op, so the program is lowered by the same
// path as StableHLO text. Attributes of other dialects that the artifact
// carries in their text form (Shardy's meshes and shardings) are kept as
// written.
#ifndef POLYHAL_CORE_FRONTEND_PORTABLE_ARTIFACT_H_
#define POLYHAL_CORE_FRONTEND_PORTABLE_ARTIFACT_H_

#include <string>
#include <string_view>

#include "sdk/base/status.h"

namespace phal {

// The StableHLO text of the portable artifact `bytes`: a module of
// func.func functions in the generic op syntax. Malformed or truncated
// bytecode, a newer bytecode version, an unknown VHLO op, attribute or type
// are INVALID_ARGUMENT errors naming `file_name`, the byte offset and what
// was expected there.
StatusOr<std::string> PortableArtifactToStableHlo(std::string_view bytes,
                                                  std::string_view file_name);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_PORTABLE_ARTIFACT_H_
