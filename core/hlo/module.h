// An HLO module: the unit the front ends produce and the compiler and the
// reference interpreter consume. It owns its computations; one of them is
// the entry computation, whose parameters and result are the program's.
#ifndef POLYHAL_CORE_HLO_MODULE_H_
#define POLYHAL_CORE_HLO_MODULE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/hlo/computation.h"

namespace phal {

class HloModule {
 public:
  explicit HloModule(std::string name);
  HloModule(const HloModule&) = delete;
  HloModule& operator=(const HloModule&) = delete;

  // The name from the "HloModule <name>" header.
  const std::string& name() const { return name_; }

  // Takes ownership of `computation` and appends it. Computations are kept
  // in the order added; callers add a computation after those it calls, as
  // the text lists them. Returns the added computation.
  HloComputation* AddComputation(std::unique_ptr<HloComputation> computation);

  // All computations, callees before callers (the text's order).
  const std::vector<HloComputation*>& computations() const {
    return computations_;
  }
  // The computation called `name`, or null.
  HloComputation* GetComputationWithName(std::string_view name) const;

  // The program's entry point; null until set.
  HloComputation* entry_computation() const { return entry_; }
  void set_entry_computation(HloComputation* entry) { entry_ = entry; }

  // True when names, entry computations and the computations, pairwise in
  // order, are Identical().
  bool Identical(const HloModule& other) const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<HloComputation>> owned_computations_;
  std::vector<HloComputation*> computations_;
  HloComputation* entry_ = nullptr;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_MODULE_H_
