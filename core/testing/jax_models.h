// The JAX models of samples/models/jax: each NAME.hlo saved beside the
// arguments it was run on (NAME.input_<i>.npy) and the results XLA:CPU
// computed (NAME.output_<i>.npy). The reference and every plugin are
// compared with XLA on them.
#ifndef POLYHAL_CORE_TESTING_JAX_MODELS_H_
#define POLYHAL_CORE_TESTING_JAX_MODELS_H_

#include <filesystem>
#include <string>
#include <vector>

#include "core/hlo/literal.h"
#include "core/io/npy.h"
#include "core/testing/source_files.h"
#include "sdk/base/status.h"

namespace phal::testing {

// The NAME of every model.
inline const std::vector<std::string> kJaxModels = {
    "mlp",        "transformer_block", "convnet",
    "while_loop", "sort_gather",       "integer_ops",
    "f64_ops",    "mixed_precision",   "fft_ops"};

// The NAME of every SPMD model: a program for four devices, whose inputs
// and outputs are the global arrays. NAME.hlo is XLA's per-device module
// after its SPMD partitioning, with the shardings of the entry parameters
// and the root (scripts/export_spmd_models.py).
inline const std::vector<std::string> kJaxSpmdModels = {
    "spmd_collectives", "spmd_exchange", "spmd_grid", "spmd_data_parallel",
    "spmd_tensor_parallel"};
// Those that also come as StableHLO, NAME.mlir (Shardy) and NAME.gspmd.mlir
// (GSPMD): shard_map programs, global programs around a manual
// computation.
inline const std::vector<std::string> kJaxSpmdStableHloModels = {
    "spmd_collectives", "spmd_exchange", "spmd_grid"};
// The sharded models: jax.jit programs with in_shardings / out_shardings
// over four devices as JAX lowers them, before partitioning: NAME.mlir
// (StableHLO with Shardy's shardings), NAME.gspmd.mlir (with GSPMD's
// mhlo.sharding), NAME.hlo (HLO text with sharding=),
// and NAME.xla.hlo, XLA's partitioned module, for what its collectives send
// (scripts/export_sharded_models.py).
inline const std::vector<std::string> kJaxShardedModels = {
    "sharded_data_parallel", "sharded_megatron_mlp", "sharded_attention",
    "sharded_layer_norm",    "sharded_embedding",    "sharded_fsdp",
    "sharded_moe",           "sharded_scan_layers",  "sharded_transformer_step"};

struct JaxModel {
  std::string text;                // the HLO (or StableHLO) module
  std::vector<Literal> arguments;  // in parameter order
  std::vector<Literal> results;    // XLA's, one per result leaf
};

// NAME.<kind>_0.npy, NAME.<kind>_1.npy, ... while they exist.
inline StatusOr<std::vector<Literal>> ReadNpySequence(const std::string& base,
                                                      const std::string& kind) {
  std::vector<Literal> literals;
  for (int i = 0;; ++i) {
    const std::string path =
        base + "." + kind + "_" + std::to_string(i) + ".npy";
    if (!std::filesystem::exists(path)) return literals;
    StatusOr<Literal> literal = ReadNpy(path);
    if (!literal.ok()) return literal.status();
    literals.push_back(std::move(literal).value());
  }
}

// The model from its HLO text (`extension` ".hlo") or its StableHLO text
// (".mlir", left as StableHLO).
inline StatusOr<JaxModel> ReadJaxModel(const std::string& name,
                                       const std::string& extension = ".hlo") {
  const std::string base = SourceFile("samples/models/jax/" + name).string();
  JaxModel model;
  model.text = ReadTextFile(base + extension);
  if (model.text.empty()) return NotFound("cannot read " + base + extension);
  PHAL_ASSIGN_OR_RETURN(model.arguments, ReadNpySequence(base, "input"));
  PHAL_ASSIGN_OR_RETURN(model.results, ReadNpySequence(base, "output"));
  return model;
}

// How far XLA's results may be from ours, relative to max(1, |expected|):
// XLA:CPU uses fast approximations of the transcendental functions. 0 is
// exact.
inline double XlaTolerance(ElementType type) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F64:
    case PHAL_ELEMENT_TYPE_C128:
      return 1e-12;
    case PHAL_ELEMENT_TYPE_F32:
    case PHAL_ELEMENT_TYPE_C64:
      return 2e-5;
    case PHAL_ELEMENT_TYPE_F16:
      return 1e-3;
    case PHAL_ELEMENT_TYPE_BF16:
      return 8e-3;
    default:
      return 0;
  }
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_JAX_MODELS_H_
