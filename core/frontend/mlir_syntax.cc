#include "core/frontend/mlir_syntax.h"

namespace phal {
namespace {

const MlirAttribute* FindNamed(const std::vector<MlirNamedAttribute>& named,
                               const std::string& name) {
  for (const auto& [key, value] : named) {
    if (key == name) return &value;
  }
  return nullptr;
}

}  // namespace

const MlirAttribute* MlirAttribute::Field(const std::string& name) const {
  return FindNamed(fields, name);
}

int64_t MlirOperation::ResultCount() const {
  int64_t count = 0;
  for (const MlirResultGroup& group : results) count += group.count;
  return count;
}

const MlirAttribute* MlirOperation::Attribute(const std::string& name) const {
  return FindNamed(attributes, name);
}

}  // namespace phal
