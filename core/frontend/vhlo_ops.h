// The operations of the VHLO dialect, the versioned form of StableHLO that
// portable artifacts hold: for each op version, the StableHLO versions that
// have it and the names of its attributes. A registered op's properties in
// bytecode are these attributes' values in the order of their names, so the
// names are kept sorted.
#ifndef POLYHAL_CORE_FRONTEND_VHLO_OPS_H_
#define POLYHAL_CORE_FRONTEND_VHLO_OPS_H_

#include <string>
#include <string_view>
#include <vector>

namespace phal {

struct VhloOpInfo {
  std::string_view name;             // "compare_v1"
  std::string_view first_version;    // "0.9.0"
  std::string_view last_version;     // "current" or the last that has it
  std::string_view attribute_names;  // space-separated, sorted
};

// The op called `name` ("compare_v1", without "vhlo."), or null.
const VhloOpInfo* FindVhloOp(std::string_view name);

// The attribute names of `op`, sorted.
std::vector<std::string> VhloOpAttributeNames(const VhloOpInfo& op);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_VHLO_OPS_H_
