// Small pieces of XLA HLO text the corpus builds its modules from.
#ifndef POLYHAL_CONFORMANCE_CASES_HLO_TEXT_H_
#define POLYHAL_CONFORMANCE_CASES_HLO_TEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/shape.h"

namespace phal::conformance {

// "f32[7,13]".
std::string ShapeText(ElementType type, const std::vector<int64_t>& dims);
// "{0,1}" (braces included).
std::string DimsText(const std::vector<int64_t>& values);
// A scalar constant's literal text in `type`: "0", "-inf", "false",
// "(0, 0)". `value` is one of the names "zero", "one", "lowest", "highest".
std::string ConstantText(ElementType type, const std::string& value);
// A computation `name` of two scalars of `type` returning `op` of them
// (`attributes` appended, e.g. ", direction=GT").
std::string BinaryComputation(const std::string& name, const std::string& op,
                              ElementType type,
                              const std::string& attributes = "");
// A whole module: `computations` first, then ENTRY main with `entry_lines`
// (the last must start with "ROOT").
std::string ModuleText(const std::string& case_id,
                       const std::vector<std::string>& computations,
                       const std::vector<std::string>& entry_lines);
// "p<index> = <shape> parameter(<index>)".
std::string ParameterLine(int index, ElementType type,
                          const std::vector<int64_t>& dims);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_HLO_TEXT_H_
