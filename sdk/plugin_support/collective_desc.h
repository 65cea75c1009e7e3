// What a collective description (phal_collective_desc_t, plugin.h) means
// apart from the data: its names, the checks every description must pass,
// the byte sizes of each rank's send and receive ranges, and whether two
// ranks' descriptions agree. The core, the validation layer and every
// plugin's collective slots read descriptions through these functions, so
// that all of them agree on one reading.
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_COLLECTIVE_DESC_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_COLLECTIVE_DESC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

// "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "permute",
// "broadcast"; "collective kind N" for any other value.
std::string CollectiveKindName(uint32_t kind);
// "none", "sum", "product", "min", "max", "and", "or"; "reduction N" else.
std::string ReductionName(uint32_t reduction);

// A description as one value: the members of `desc` (up to its
// struct_size) with its pairs copied, for a plugin that runs the
// collective after the slot returned.
struct CollectiveDesc {
  uint32_t kind = PHAL_COLLECTIVE_ALL_REDUCE;
  uint32_t element_type = 0;
  uint32_t reduction = PHAL_REDUCTION_NONE;
  uint32_t root = 0;
  uint64_t outer_count = 1;
  uint64_t block_count = 0;
  std::vector<phal_collective_pair_t> pairs;
  uint64_t timeout_ms = 0;

  // Fails with INVALID_ARGUMENT when desc->struct_size does not reach
  // timeout_ms or a member is out of the enums' range.
  static StatusOr<CollectiveDesc> From(const phal_collective_desc_t* desc);
  // The C form, pointing at this value's pairs.
  phal_collective_desc_t ToC() const;
  // "all-reduce sum of 1 x 1024 f32".
  std::string ToString() const;
  // True when two ranks' descriptions name the same collective (every
  // member but timeout_ms; pairs in the same order).
  bool AgreesWith(const CollectiveDesc& other) const;
};

// The bytes of one rank's send and receive ranges on a communicator of
// `ranks` ranks.
struct CollectiveBytes {
  uint64_t send = 0;
  uint64_t recv = 0;
};

// INVALID_ARGUMENT naming the member at fault when `desc` cannot run on
// `ranks` ranks: a reduction on a kind that has none or none where one is
// needed, AND or OR on a floating or complex type, outer_count 0, a root
// outside the ranks, pairs out of range or repeating a source or a
// target, sizes that overflow 64 bits. Otherwise the byte sizes.
StatusOr<CollectiveBytes> CheckCollectiveDesc(const CollectiveDesc& desc,
                                              uint32_t ranks);

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_COLLECTIVE_DESC_H_
