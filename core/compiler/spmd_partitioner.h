// The SPMD partitioner: turns a global program whose values carry
// shardings (what jax.jit lowers with in_shardings, out_shardings and
// with_sharding_constraint, before any compiler partitions it) into the
// per-device program every device runs on its own pieces, with the
// collectives that move data between them. Plugins never see shardings:
// they get the per-device program, as they would from XLA's partitioner.
//
// The shardings come from the entry parameters (how the global arguments
// are split), the root (how the results are), and any instruction that
// carries one (a constraint: sharding custom calls, sdy.sharding_constraint).
// Every other value gets its sharding from its operands, op by op (forward
// propagation, docs/multi-device.md lists the rules): elementwise ops keep
// the most split operand's; broadcast, transpose and reshape carry the
// split dimensions along; dot_general keeps split batch and free
// dimensions and turns a split contracting dimension into a partial sum;
// reduce turns split reduced dimensions into a partial result; slice, pad,
// concatenate, dynamic slices and reverse keep the dimensions they leave
// whole; convolutions keep a split batch and output-feature dimension. An
// op without a rule runs on whole (replicated) operands, which is never
// wrong. Values are split only evenly; a requested split that does not
// divide a dimension is dropped for that dimension.
//
// Where a value's sharding differs from what its user needs, the
// partitioner reshards: all-reduce (or reduce-scatter) for partial
// results, all-gather to join pieces, and a dynamic-slice at an offset
// computed from partition-id to take a device's piece of a whole value.
#ifndef POLYHAL_CORE_COMPILER_SPMD_PARTITIONER_H_
#define POLYHAL_CORE_COMPILER_SPMD_PARTITIONER_H_

#include <cstdint>
#include <memory>

#include "core/hlo/module.h"
#include "sdk/base/status.h"

namespace phal {

// The per-device program of `module`, a global program
// (module.spmd_global()) for module.num_partitions() devices: its entry
// parameters and results are the devices' pieces, annotated with the
// shardings that split the global arguments and assemble the global
// results (core/hlo/sharded_array.h). Errors: a program that is not
// global, a sharding over another number of devices, manual subgroups
// (partially manual computations), and collectives written in the global
// program (UNIMPLEMENTED).
StatusOr<std::unique_ptr<HloModule>> PartitionSpmd(const HloModule& module);

// `module` unless it is global, else its per-device program, which
// PHAL_DUMP=<dir> also writes to <dir>/00-spmd-partitioning.hlo.
StatusOr<std::unique_ptr<HloModule>> PartitionIfGlobal(
    std::unique_ptr<HloModule> module);

// What the collectives of a per-device program send, per device and per
// execution, counted the way ring algorithms move data: an all-reduce of B
// bytes over g devices sends 2 (g - 1) / g B, an all-gather (g - 1) / g of
// its result, a reduce-scatter and an all-to-all (g - 1) / g of their
// operand, a collective-permute and a collective-broadcast their operand.
// Collectives inside loops and conditionals count once. The same count
// applies to XLA's partitioned HLO, so the two compare.
struct CommunicationCost {
  int64_t bytes_sent = 0;
  int64_t collective_count = 0;
};
StatusOr<CommunicationCost> CommunicationCostOf(const HloModule& module);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_SPMD_PARTITIONER_H_
