#include "core/hlo/replica_groups.h"

namespace phal {

ReplicaGroups ReplicaGroups::FromList(
    std::vector<std::vector<int64_t>> groups) {
  ReplicaGroups result;
  result.groups_ = std::move(groups);
  return result;
}

StatusOr<ReplicaGroups> ReplicaGroups::FromIota(TileAssignment iota) {
  if (iota.dimensions().size() != 2) {
    return InvalidArgument(
        "an iota of replica groups needs two dimensions (groups and group "
        "size), got " +
        iota.ToString());
  }
  ReplicaGroups result;
  result.form_ = Form::kIota;
  const int64_t size = iota.dimensions()[1];
  for (int64_t g = 0; g < iota.dimensions()[0]; ++g) {
    std::vector<int64_t> group;
    for (int64_t i = 0; i < size; ++i)
      group.push_back(iota.device(g * size + i));
    result.groups_.push_back(std::move(group));
  }
  result.iota_ = std::move(iota);
  return result;
}

StatusOr<ReplicaGroups> ReplicaGroups::FromMeshAxes(
    DeviceMesh mesh, std::vector<MeshAxisRef> axes) {
  ReplicaGroups result;
  result.form_ = Form::kMeshAxes;
  PHAL_ASSIGN_OR_RETURN(result.groups_, GroupsAlongMeshAxes(mesh, axes));
  result.mesh_ = std::move(mesh);
  result.mesh_axes_ = std::move(axes);
  return result;
}

std::string ReplicaGroups::ToString() const {
  switch (form_) {
    case Form::kIota:
      return iota_.ToString();
    case Form::kMeshAxes: {
      std::string text = mesh_.ToString() + " {";
      for (std::size_t i = 0; i < mesh_axes_.size(); ++i) {
        if (i > 0) text += ",";
        text += MeshAxisRefToString(mesh_, mesh_axes_[i]);
      }
      return text + "}";
    }
    case Form::kList:
      break;
  }
  return IntGroupsToString(groups_);
}

bool ReplicaGroups::operator==(const ReplicaGroups& other) const {
  return form_ == other.form_ && groups_ == other.groups_ &&
         iota_ == other.iota_ && mesh_ == other.mesh_ &&
         mesh_axes_ == other.mesh_axes_;
}

std::string IntGroupsToString(const std::vector<std::vector<int64_t>>& groups) {
  std::string text = "{";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g > 0) text += ",";
    text += "{";
    for (std::size_t i = 0; i < groups[g].size(); ++i) {
      if (i > 0) text += ",";
      text += std::to_string(groups[g][i]);
    }
    text += "}";
  }
  return text + "}";
}

StatusOr<std::vector<std::vector<int64_t>>> ReadIntGroups(
    TextCursor& cursor, std::string_view what) {
  PHAL_RETURN_IF_ERROR(cursor.Expect('{', "to open " + std::string(what)));
  std::vector<std::vector<int64_t>> groups;
  if (cursor.TryConsume('}')) return groups;
  do {
    PHAL_ASSIGN_OR_RETURN(std::vector<int64_t> group,
                          cursor.ReadIntList('{', '}', what));
    groups.push_back(std::move(group));
  } while (cursor.TryConsume(','));
  PHAL_RETURN_IF_ERROR(cursor.Expect('}', "to close " + std::string(what)));
  return groups;
}

StatusOr<ReplicaGroups> ReadReplicaGroups(TextCursor& cursor) {
  const char next = cursor.Peek();
  const std::size_t start = cursor.position();
  if (next == '{') {
    PHAL_ASSIGN_OR_RETURN(auto groups, ReadIntGroups(cursor, "replica groups"));
    return ReplicaGroups::FromList(std::move(groups));
  }
  if (next == '[') {
    PHAL_ASSIGN_OR_RETURN(
        std::vector<int64_t> dimensions,
        cursor.ReadIntList('[', ']', "the replica group dimensions"));
    PHAL_ASSIGN_OR_RETURN(TileAssignment iota,
                          ReadIotaTail(cursor, std::move(dimensions)));
    StatusOr<ReplicaGroups> groups = ReplicaGroups::FromIota(std::move(iota));
    if (!groups.ok()) return cursor.ErrorAt(start, groups.status().message());
    return groups;
  }
  PHAL_ASSIGN_OR_RETURN(DeviceMesh mesh, ReadDeviceMesh(cursor));
  PHAL_RETURN_IF_ERROR(
      cursor.Expect('{', "to open the mesh axes of the group"));
  std::vector<MeshAxisRef> axes;
  if (!cursor.TryConsume('}')) {
    do {
      PHAL_ASSIGN_OR_RETURN(MeshAxisRef axis, ReadMeshAxisRef(cursor, mesh));
      axes.push_back(axis);
    } while (cursor.TryConsume(','));
    PHAL_RETURN_IF_ERROR(
        cursor.Expect('}', "to close the mesh axes of the group"));
  }
  StatusOr<ReplicaGroups> groups =
      ReplicaGroups::FromMeshAxes(std::move(mesh), std::move(axes));
  if (!groups.ok()) return cursor.ErrorAt(start, groups.status().message());
  return groups;
}

}  // namespace phal
