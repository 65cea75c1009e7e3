// The replica_groups of a collective instruction, in the three forms XLA
// prints: an explicit list "{{0,1},{2,3}}", an iota "[2,2]<=[4]" (one row
// per group, "[2,2]<=[2,2]T(1,0)" with a transpose) and mesh axes
// "mesh['x'=2,'y'=2] {'y'}" (one group per position of the other axes).
// The value keeps the form it was written in, so that it prints back the
// same way, and the groups of ids it stands for. Which ids those are
// (replicas, partitions or flattened ids) depends on the instruction: see
// process_groups.h.
#ifndef POLYHAL_CORE_HLO_REPLICA_GROUPS_H_
#define POLYHAL_CORE_HLO_REPLICA_GROUPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/hlo/device_mesh.h"
#include "core/hlo/text_cursor.h"
#include "core/hlo/tile_assignment.h"
#include "sdk/base/status.h"

namespace phal {

class ReplicaGroups {
 public:
  enum class Form { kList, kIota, kMeshAxes };

  // No groups ("{}"): one group of every id.
  ReplicaGroups() = default;
  static ReplicaGroups FromList(std::vector<std::vector<int64_t>> groups);
  // `iota` must have two dimensions: groups x group size.
  static StatusOr<ReplicaGroups> FromIota(TileAssignment iota);
  static StatusOr<ReplicaGroups> FromMeshAxes(DeviceMesh mesh,
                                              std::vector<MeshAxisRef> axes);

  Form form() const { return form_; }
  // The groups, each listing its ids in order (the order matters to
  // all-gather, all-to-all and collective-broadcast).
  const std::vector<std::vector<int64_t>>& groups() const { return groups_; }
  bool empty() const { return groups_.empty(); }

  const TileAssignment& iota() const { return iota_; }
  const DeviceMesh& mesh() const { return mesh_; }
  const std::vector<MeshAxisRef>& mesh_axes() const { return mesh_axes_; }

  // The text of the form it was written in: "{{0,1},{2,3}}",
  // "[2,2]<=[4]", "mesh['x'=2,'y'=2] {'y'}".
  std::string ToString() const;

  bool operator==(const ReplicaGroups& other) const;
  bool operator!=(const ReplicaGroups& other) const {
    return !(*this == other);
  }

 private:
  Form form_ = Form::kList;
  std::vector<std::vector<int64_t>> groups_;
  TileAssignment iota_;
  DeviceMesh mesh_;
  std::vector<MeshAxisRef> mesh_axes_;
};

// "{{0,1},{2,3}}" or "{0,1}" style lists of lists of integers, as used by
// replica_groups and source_target_pairs.
std::string IntGroupsToString(const std::vector<std::vector<int64_t>>& groups);
StatusOr<std::vector<std::vector<int64_t>>> ReadIntGroups(
    TextCursor& cursor, std::string_view what);

// Reads any of the three forms.
StatusOr<ReplicaGroups> ReadReplicaGroups(TextCursor& cursor);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_REPLICA_GROUPS_H_
