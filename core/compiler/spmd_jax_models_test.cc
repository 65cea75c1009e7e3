// The sharded models of samples/models/jax -- jax.jit programs with
// in_shardings / out_shardings over four devices, as JAX lowers them before
// any partitioning -- through the SPMD partitioner, from the StableHLO text
// (Shardy, and GSPMD's mhlo.sharding with Shardy off) and from the HLO text:
// the per-device program, run by the reference on four devices, assembles into
// XLA's outputs, and its collectives send at most 1.5 times what those of XLA's
// partitioned module (NAME.xla.hlo) send.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/spmd_partitioner.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/printer.h"
#include "core/hlo/verifier.h"
#include "core/testing/jax_models.h"
#include "core/testing/spmd_reference.h"

namespace phal::testing {
namespace {

constexpr int64_t kDevices = 4;

class ShardedJaxModelTest : public ::testing::TestWithParam<std::string> {
 protected:
  void Run(const std::string& extension) {
    StatusOr<JaxModel> model = ReadJaxModel(GetParam(), extension);
    ASSERT_TRUE(model.ok()) << model.status().ToString();
    const std::string source = GetParam() + extension;
    std::unique_ptr<HloModule> global;
    if (extension == ".hlo") {
      StatusOr<std::unique_ptr<HloModule>> parsed =
          ParseHloText(model->text, source);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      global = std::move(parsed).value();
    } else {
      StatusOr<StableHloModule> parsed = ParseStableHlo(model->text, source);
      ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
      global = std::move(parsed->module);
    }
    ASSERT_TRUE(global->spmd_global());
    ASSERT_EQ(global->num_partitions(), kDevices);
    StatusOr<std::unique_ptr<HloModule>> partitioned = PartitionSpmd(*global);
    ASSERT_TRUE(partitioned.ok()) << partitioned.status().ToString();
    const HloModule& local = **partitioned;
    ASSERT_TRUE(VerifyModule(local).ok());
    ExpectSpmdReferenceMatchesXla(local, *model);
    ExpectSendsNoMoreThanXla(local);
  }

  void ExpectSendsNoMoreThanXla(const HloModule& local) {
    StatusOr<JaxModel> xla_model = ReadJaxModel(GetParam(), ".xla.hlo");
    ASSERT_TRUE(xla_model.ok()) << xla_model.status().ToString();
    StatusOr<std::unique_ptr<HloModule>> xla =
        ParseHloText(xla_model->text, GetParam() + ".xla.hlo");
    ASSERT_TRUE(xla.ok()) << xla.status().ToString();
    StatusOr<CommunicationCost> theirs = CommunicationCostOf(**xla);
    StatusOr<CommunicationCost> ours = CommunicationCostOf(local);
    ASSERT_TRUE(theirs.ok() && ours.ok());
    std::printf(
        "%s: Polyhal sends %lld bytes per device in %lld collectives, "
        "XLA %lld in %lld\n",
        GetParam().c_str(), static_cast<long long>(ours->bytes_sent),
        static_cast<long long>(ours->collective_count),
        static_cast<long long>(theirs->bytes_sent),
        static_cast<long long>(theirs->collective_count));
    EXPECT_LE(2 * ours->bytes_sent, 3 * theirs->bytes_sent)
        << HloModuleToText(local);
  }
};

TEST_P(ShardedJaxModelTest, StableHloMatchesXlaOnFourDevices) { Run(".mlir"); }

TEST_P(ShardedJaxModelTest, GspmdStableHloMatchesXlaOnFourDevices) {
  Run(".gspmd.mlir");
}

TEST_P(ShardedJaxModelTest, HloMatchesXlaOnFourDevices) { Run(".hlo"); }

INSTANTIATE_TEST_SUITE_P(Models, ShardedJaxModelTest,
                         ::testing::ValuesIn(kJaxShardedModels));

}  // namespace
}  // namespace phal::testing
