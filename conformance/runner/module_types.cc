#include "conformance/runner/module_types.h"

#include "polyhal/types.h"
#include "sdk/base/element_types.h"

namespace phal::conformance {
namespace {

void CollectTypes(const Shape& shape, std::set<ElementType>* types) {
  if (shape.IsTuple()) {
    for (const Shape& element : shape.tuple_shapes()) {
      CollectTypes(element, types);
    }
    return;
  }
  types->insert(shape.element_type());
}

}  // namespace

std::set<ElementType> ModuleTypes(const HloModule& module) {
  std::set<ElementType> types;
  for (const HloComputation* computation : module.computations()) {
    for (const HloInstruction* instruction : computation->instructions()) {
      CollectTypes(instruction->shape(), &types);
    }
  }
  return types;
}

std::string MissingTypes(const std::set<ElementType>& types, uint64_t mask) {
  std::string missing;
  for (ElementType type : types) {
    if ((mask & PHAL_ELEMENT_TYPE_BIT(type)) != 0) continue;
    missing +=
        (missing.empty() ? "" : ", ") + std::string(ElementTypeName(type));
  }
  return missing;
}

}  // namespace phal::conformance
