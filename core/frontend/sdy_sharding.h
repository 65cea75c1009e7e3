// Shardy's attributes as JAX writes them in StableHLO text: the mesh of
//   sdy.mesh @mesh = <["x"=2, "y"=2]>          (optionally ",
//   device_ids=[...]")
// the tensor shardings of #sdy.sharding<@mesh, [{"x"}, {}]> and of a
// manual computation's in_shardings=[<@mesh, [{"x"}]>, ...], and the axis
// sets of manual_axes={"x", "y"}; and their conversion to the HloSharding
// that lays the same array over the same devices. The parser reads them from
// the source text between offsets the MLIR parser recorded, so errors point
// into the file.
#ifndef POLYHAL_CORE_FRONTEND_SDY_SHARDING_H_
#define POLYHAL_CORE_FRONTEND_SDY_SHARDING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frontend/source_text.h"
#include "core/hlo/device_mesh.h"
#include "core/hlo/sharding.h"
#include "sdk/base/status.h"

namespace phal {

// An axis named in a sharding: a whole mesh axis "x", or its sub-axis
// "x":(pre_size)size.
struct SdyAxis {
  std::string name;
  bool is_sub_axis = false;
  int64_t pre_size = 1;
  int64_t size = 0;
  std::size_t offset = 0;
};

// How one tensor dimension is split: over `axes`, major to minor. An open
// dimension ("{"x", ?}") may be split further by propagation, which
// changes nothing for a program that is already partitioned.
struct SdyDimensionSharding {
  std::vector<SdyAxis> axes;
  bool open = false;
};

struct SdyTensorSharding {
  std::string mesh_name;
  std::vector<SdyDimensionSharding> dimensions;
  std::vector<SdyAxis> replicated;  // replicated={...}: explicitly replicated
  std::vector<SdyAxis> unreduced;   // unreduced={...}: partial sums
  std::size_t offset = 0;
};

// The mesh between `begin` and `end` of `source`: "<["x"=4]>" or
// "<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>".
StatusOr<DeviceMesh> ParseSdyMesh(const SourceText& source, std::size_t begin,
                                  std::size_t end);

// One tensor sharding "<@mesh, [{"x"}, {}]>" (the body of #sdy.sharding).
StatusOr<SdyTensorSharding> ParseSdyTensorSharding(const SourceText& source,
                                                   std::size_t begin,
                                                   std::size_t end);

// A list of them, "[<@mesh, [...]>, <@mesh, [...]>]", as in_shardings and
// out_shardings write them.
StatusOr<std::vector<SdyTensorSharding>> ParseSdyTensorShardings(
    const SourceText& source, std::size_t begin, std::size_t end);

// An axis set "{"x", "y"}", as manual_axes writes it.
StatusOr<std::vector<SdyAxis>> ParseSdyAxisSet(const SourceText& source,
                                               std::size_t begin,
                                               std::size_t end);

// The HloSharding of a tensor of rank `rank` sharded as `sharding` over
// `mesh`, whose device ids are the HLO devices: dimension d is cut into as
// many tiles as its axes have devices together, and the mesh axes no
// dimension uses replicate the tiles. Errors at the sharding's place in
// `source`: a rank that differs from the tensor's or an axis that is not
// the mesh's or is used twice (INVALID_ARGUMENT); sub-axes and unreduced
// axes (UNIMPLEMENTED).
StatusOr<HloSharding> SdyShardingToHlo(const SdyTensorSharding& sharding,
                                       const DeviceMesh& mesh, int64_t rank,
                                       const SourceText& source);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_SDY_SHARDING_H_
