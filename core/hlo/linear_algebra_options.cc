#include "core/hlo/linear_algebra_options.h"

namespace phal {

std::string_view TriangularSolveTransposeName(TriangularSolveTranspose value) {
  switch (value) {
    case TriangularSolveTranspose::kNone:
      return "NO_TRANSPOSE";
    case TriangularSolveTranspose::kTranspose:
      return "TRANSPOSE";
    case TriangularSolveTranspose::kAdjoint:
      return "ADJOINT";
  }
  return "NO_TRANSPOSE";
}

std::optional<TriangularSolveTranspose> TriangularSolveTransposeFromName(
    std::string_view name) {
  for (TriangularSolveTranspose value :
       {TriangularSolveTranspose::kNone, TriangularSolveTranspose::kTranspose,
        TriangularSolveTranspose::kAdjoint}) {
    if (TriangularSolveTransposeName(value) == name) return value;
  }
  return std::nullopt;
}

}  // namespace phal
