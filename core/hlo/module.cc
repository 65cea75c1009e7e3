#include "core/hlo/module.h"

namespace phal {

HloModule::HloModule(std::string name) : name_(std::move(name)) {}

HloComputation* HloModule::AddComputation(
    std::unique_ptr<HloComputation> computation) {
  HloComputation* added = computation.get();
  added->set_parent(this);
  owned_computations_.push_back(std::move(computation));
  computations_.push_back(added);
  return added;
}

HloComputation* HloModule::GetComputationWithName(std::string_view name) const {
  for (HloComputation* computation : computations_) {
    if (computation->name() == name) return computation;
  }
  return nullptr;
}

bool HloModule::Identical(const HloModule& other) const {
  if (name_ != other.name_ || replica_count_ != other.replica_count_ ||
      num_partitions_ != other.num_partitions_ ||
      spmd_global_ != other.spmd_global_ ||
      computations_.size() != other.computations_.size()) {
    return false;
  }
  if ((entry_ == nullptr) != (other.entry_ == nullptr)) return false;
  if (entry_ != nullptr && entry_->name() != other.entry_->name()) return false;
  for (std::size_t i = 0; i < computations_.size(); ++i) {
    if (!computations_[i]->Identical(*other.computations_[i])) return false;
  }
  return true;
}

}  // namespace phal
