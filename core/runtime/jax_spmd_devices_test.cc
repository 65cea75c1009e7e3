// The SPMD models of samples/models/jax (exported from JAX with four host
// devices) compiled for four devices of each executing plugin that offers
// them -- cpu, template and asic-ref with PHAL_VIRTUAL_DEVICES=4, the
// emulated nvidia GPU with PHAL_GPU_EMULATION=1 too -- through the
// application API, from XLA's partitioned HLO and from the StableHLO
// shard_map programs, and the sharded jax.jit programs through the SPMD
// partitioner: the global inputs are split by the parameters' shardings, the
// four devices run at once, and the assembled results match XLA's within the
// model tolerances.
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/compiler/spmd_partitioner.h"
#include "core/frontend/hlo_parser.h"
#include "core/frontend/stablehlo_parser.h"
#include "core/hlo/sharded_array.h"
#include "core/hlo/verifier.h"
#include "core/testing/jax_models.h"
#include "core/testing/literal_comparison.h"
#include "polyhal/polyhal.hpp"
#include "polyhal/runtime.h"

namespace phal::testing {
namespace {

constexpr int64_t kDevices = 4;

HloSharding ShardingOf(const HloInstruction& instruction) {
  return instruction.sharding().value_or(HloSharding::Replicated());
}

struct Variant {
  std::string plugin;
  std::string model;
  std::string extension;  // ".hlo", ".mlir" or ".gspmd.mlir"
};

std::vector<Variant> Variants() {
  std::vector<Variant> variants;
  for (const char* plugin : {"cpu", "template", "asic-ref", "nvidia"}) {
    for (const std::string& model : kJaxSpmdModels) {
      variants.push_back({plugin, model, ".hlo"});
    }
    for (const std::string& model : kJaxSpmdStableHloModels) {
      variants.push_back({plugin, model, ".mlir"});
      variants.push_back({plugin, model, ".gspmd.mlir"});
    }
    for (const std::string& model : kJaxShardedModels) {
      variants.push_back({plugin, model, ".hlo"});
      variants.push_back({plugin, model, ".mlir"});
      variants.push_back({plugin, model, ".gspmd.mlir"});
    }
  }
  return variants;
}

std::string VariantName(const ::testing::TestParamInfo<Variant>& info) {
  std::string name = info.param.plugin + "_" + info.param.model + "_" +
                     info.param.extension.substr(1);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class JaxSpmdDevicesTest : public ::testing::TestWithParam<Variant> {
 protected:
  static void SetUpTestSuite() {
    setenv("PHAL_VIRTUAL_DEVICES", "4", 1);
    setenv("PHAL_GPU_EMULATION", "1", 1);
  }
  static void TearDownTestSuite() {
    unsetenv("PHAL_VIRTUAL_DEVICES");
    unsetenv("PHAL_GPU_EMULATION");
  }

  // The first four devices of `plugin`, or none (the test skips) when the
  // plugin offers fewer.
  std::vector<Device> PluginDevices(const Client& client,
                                    const std::string& plugin) {
    std::vector<Device> devices;
    const std::vector<phal_plugin_info_t> plugins = client.Plugins();
    for (const Device& device : client.Devices()) {
      size_t index = 0;
      if (phal_device_get_plugin_index(device.get(), &index) != nullptr) {
        continue;
      }
      if (index < plugins.size() && plugin == plugins[index].name &&
          static_cast<int64_t>(devices.size()) < kDevices) {
        devices.push_back(device);
      }
    }
    return devices;
  }
};

TEST_P(JaxSpmdDevicesTest, MatchesXlaOnFourDevices) {
  const Variant& variant = GetParam();
  StatusOr<JaxModel> model = ReadJaxModel(variant.model, variant.extension);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const std::string source = variant.model + variant.extension;
  std::unique_ptr<HloModule> module;
  if (variant.extension == ".hlo") {
    StatusOr<std::unique_ptr<HloModule>> parsed =
        ParseHloText(model->text, source);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    module = std::move(parsed).value();
  } else {
    StatusOr<StableHloModule> parsed = ParseStableHlo(model->text, source);
    ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
    module = std::move(parsed->module);
  }
  ASSERT_TRUE(VerifyModule(*module).ok());
  // A global program (the sharded models) runs as its per-device program,
  // whose parameters and root say how to split and assemble.
  StatusOr<std::unique_ptr<HloModule>> per_device =
      PartitionIfGlobal(std::move(module));
  ASSERT_TRUE(per_device.ok()) << per_device.status().ToString();
  module = std::move(per_device).value();

  phal_client_options_t options{};
  options.struct_size = sizeof(options);
  const std::string filter = variant.plugin;
  options.plugin_filter = filter.c_str();
  Result<Client> client = Client::Create(&options);
  ASSERT_TRUE(client.ok()) << client.error().ToString();
  std::vector<Device> devices = PluginDevices(*client, variant.plugin);
  if (static_cast<int64_t>(devices.size()) < kDevices) {
    GTEST_SKIP() << "plugin '" << variant.plugin << "' offers "
                 << devices.size() << " devices here";
  }
  Result<Executable> executable = Executable::CompileForDevices(
      devices, model->text,
      variant.extension == ".hlo" ? PHAL_PROGRAM_FORMAT_HLO_TEXT
                                  : PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT,
      source);
  ASSERT_TRUE(executable.ok()) << executable.error().ToString();

  const HloComputation& entry = *module->entry_computation();
  ASSERT_EQ(entry.num_parameters(),
            static_cast<int64_t>(model->arguments.size()));
  std::vector<std::vector<Buffer>> inputs(kDevices);
  for (int64_t d = 0; d < kDevices; ++d) {
    for (int64_t i = 0; i < entry.num_parameters(); ++i) {
      const HloInstruction& parameter = *entry.parameter_instruction(i);
      StatusOr<Literal> piece =
          ShardOf(model->arguments[static_cast<std::size_t>(i)],
                  ShardingOf(parameter), d, parameter.shape());
      ASSERT_TRUE(piece.ok()) << piece.status().ToString();
      Result<Buffer> buffer =
          Buffer::Allocate(devices[static_cast<std::size_t>(d)],
                           piece->element_type(), piece->shape().dims());
      ASSERT_TRUE(buffer.ok()) << buffer.error().ToString();
      ASSERT_TRUE(buffer->CopyFromHost(piece->data(), piece->byte_size()).ok());
      inputs[static_cast<std::size_t>(d)].push_back(std::move(*buffer));
    }
  }
  Result<std::vector<std::vector<Buffer>>> results =
      executable->ExecuteOnDevices(inputs);
  ASSERT_TRUE(results.ok()) << results.error().ToString();

  const HloInstruction& root = *entry.root_instruction();
  StatusOr<std::vector<HloSharding>> shardings =
      LeafShardings(ShardingOf(root), root.shape());
  ASSERT_TRUE(shardings.ok()) << shardings.status().ToString();
  ASSERT_EQ(shardings->size(), model->results.size());
  for (std::size_t k = 0; k < model->results.size(); ++k) {
    const Literal& expected = model->results[k];
    std::vector<Literal> pieces;
    for (int64_t d = 0; d < kDevices; ++d) {
      const Buffer& buffer = (*results)[static_cast<std::size_t>(d)][k];
      phal_buffer_desc_t desc{};
      desc.struct_size = sizeof(desc);
      ASSERT_EQ(phal_buffer_get_desc(buffer.get(), &desc), nullptr);
      Literal piece(
          Shape(desc.element_type,
                std::vector<int64_t>(desc.dims, desc.dims + desc.rank)));
      ASSERT_TRUE(buffer.CopyToHost(piece.data(), piece.byte_size()).ok());
      pieces.push_back(std::move(piece));
    }
    StatusOr<Literal> global =
        AssembleShards(pieces, (*shardings)[k], expected.shape());
    ASSERT_TRUE(global.ok()) << global.status().ToString();
    EXPECT_TRUE(
        Matches(*global, expected, XlaTolerance(expected.element_type())))
        << "output " << k << " on " << variant.plugin
        << ": XLA computed the expected";
  }
}

INSTANTIATE_TEST_SUITE_P(Models, JaxSpmdDevicesTest,
                         ::testing::ValuesIn(Variants()), VariantName);

}  // namespace
}  // namespace phal::testing
