// The element types a module computes with, and those a device lacks: what
// decides that a case or a module is NotSupported on a device.
#ifndef POLYHAL_CONFORMANCE_RUNNER_MODULE_TYPES_H_
#define POLYHAL_CONFORMANCE_RUNNER_MODULE_TYPES_H_

#include <cstdint>
#include <set>
#include <string>

#include "core/hlo/module.h"

namespace phal::conformance {

// The element types of every value `module` computes, tuples opened.
std::set<ElementType> ModuleTypes(const HloModule& module);

// The names of `types` missing from a device's element type mask
// (PHAL_ELEMENT_TYPE_BIT of each type it has), comma-separated; "" when
// none is missing.
std::string MissingTypes(const std::set<ElementType>& types, uint64_t mask);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_RUNNER_MODULE_TYPES_H_
