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

  // The grid an SPMD program runs on: replica_count=R and num_partitions=P
  // of the text (mhlo.num_replicas and mhlo.num_partitions in StableHLO);
  // 1 when not stated. Every one of the R x P processes runs the entry
  // computation; see process_groups.h.
  int64_t replica_count() const { return replica_count_; }
  void set_replica_count(int64_t count) { replica_count_ = count; }
  int64_t num_partitions() const { return num_partitions_; }
  void set_num_partitions(int64_t count) { num_partitions_ = count; }

  // True for a global SPMD program: the entry computation works on whole
  // arrays, and the shardings its values carry say how to split them over
  // num_partitions() devices; the SPMD partitioner
  // (core/compiler/spmd_partitioner.h) makes the program each device runs.
  // jax.jit's programs with in_shardings are global; XLA's partitioned
  // output and shard_map bodies are per-device programs already (false).
  bool spmd_global() const { return spmd_global_; }
  void set_spmd_global(bool global) { spmd_global_ = global; }

  // True when names, process grids, entry computations and the
  // computations, pairwise in order, are Identical().
  bool Identical(const HloModule& other) const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<HloComputation>> owned_computations_;
  std::vector<HloComputation*> computations_;
  HloComputation* entry_ = nullptr;
  int64_t replica_count_ = 1;
  int64_t num_partitions_ = 1;
  bool spmd_global_ = false;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_MODULE_H_
