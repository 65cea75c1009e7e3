// Runs an SPMD program for four processes on the reference and compares
// it with what XLA computed for a JAX model: the model's global arguments
// are split by the entry parameters' shardings, EvaluateSpmd runs every
// process, and the results are assembled by the root's shardings.
#ifndef POLYHAL_CORE_TESTING_SPMD_REFERENCE_H_
#define POLYHAL_CORE_TESTING_SPMD_REFERENCE_H_

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/hlo/module.h"
#include "core/hlo/sharded_array.h"
#include "core/reference/spmd_interpreter.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"

namespace phal::testing {

inline HloSharding ShardingOrReplicated(const HloInstruction& instruction) {
  return instruction.sharding().value_or(HloSharding::Replicated());
}

// The module runs as kDevices processes.
inline void ExpectSpmdReferenceMatchesXla(const HloModule& module,
                                          const JaxModel& model) {
  constexpr int64_t kDevices = 4;
  ASSERT_EQ(module.replica_count() * module.num_partitions(), kDevices);
  const HloComputation& entry = *module.entry_computation();
  ASSERT_EQ(entry.num_parameters(),
            static_cast<int64_t>(model.arguments.size()));
  std::vector<std::vector<Literal>> arguments(kDevices);
  for (int64_t i = 0; i < entry.num_parameters(); ++i) {
    const HloInstruction& parameter = *entry.parameter_instruction(i);
    for (int64_t device = 0; device < kDevices; ++device) {
      StatusOr<Literal> piece =
          ShardOf(model.arguments[static_cast<std::size_t>(i)],
                  ShardingOrReplicated(parameter), device, parameter.shape());
      ASSERT_TRUE(piece.ok()) << "parameter " << i << ", device " << device
                              << ": " << piece.status().ToString();
      arguments[static_cast<std::size_t>(device)].push_back(*std::move(piece));
    }
  }
  StatusOr<std::vector<Literal>> results = EvaluateSpmd(module, arguments);
  ASSERT_TRUE(results.ok()) << results.status().ToString();
  const HloInstruction& root = *entry.root_instruction();
  StatusOr<std::vector<HloSharding>> shardings =
      LeafShardings(ShardingOrReplicated(root), root.shape());
  ASSERT_TRUE(shardings.ok()) << shardings.status().ToString();
  ASSERT_EQ(shardings->size(), model.results.size())
      << "the module returns another number of outputs than XLA";
  std::vector<std::vector<Literal>> leaves(model.results.size());
  for (const Literal& result : *results) {
    std::vector<Literal> flat;
    FlattenLiteral(result, &flat);
    ASSERT_EQ(flat.size(), model.results.size());
    for (std::size_t k = 0; k < flat.size(); ++k) {
      leaves[k].push_back(std::move(flat[k]));
    }
  }
  for (std::size_t k = 0; k < model.results.size(); ++k) {
    const Literal& expected = model.results[k];
    StatusOr<Literal> global =
        AssembleShards(leaves[k], (*shardings)[k], expected.shape());
    ASSERT_TRUE(global.ok())
        << "output " << k << ": " << global.status().ToString();
    EXPECT_TRUE(
        Matches(*global, expected, XlaTolerance(expected.element_type())))
        << "output " << k
        << ": XLA computed the expected, the reference the actual";
  }
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_SPMD_REFERENCE_H_
