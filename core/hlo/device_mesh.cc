#include "core/hlo/device_mesh.h"

#include <algorithm>
#include <set>

namespace phal {

StatusOr<DeviceMesh> DeviceMesh::Create(
    std::vector<MeshAxis> axes, std::optional<TileAssignment> device_ids) {
  int64_t count = 1;
  std::set<std::string> names;
  for (const MeshAxis& axis : axes) {
    if (axis.size <= 0 || count > (int64_t{1} << 32) / axis.size) {
      return InvalidArgument("mesh axis '" + axis.name +
                             "' has an invalid size " +
                             std::to_string(axis.size));
    }
    if (!names.insert(axis.name).second) {
      return InvalidArgument("mesh axis '" + axis.name + "' appears twice");
    }
    count *= axis.size;
  }
  if (device_ids.has_value()) {
    std::vector<int64_t> sorted = device_ids->devices();
    std::sort(sorted.begin(), sorted.end());
    bool permutation = static_cast<int64_t>(sorted.size()) == count;
    for (std::size_t i = 0; permutation && i < sorted.size(); ++i) {
      permutation = sorted[i] == static_cast<int64_t>(i);
    }
    if (!permutation) {
      return InvalidArgument(
          "the mesh's device_ids are not a permutation of "
          "its " +
          std::to_string(count) + " devices");
    }
  }
  DeviceMesh mesh;
  mesh.axes_ = std::move(axes);
  mesh.device_ids_ = std::move(device_ids);
  return mesh;
}

int64_t DeviceMesh::AxisIndex(const std::string& name) const {
  for (std::size_t i = 0; i < axes_.size(); ++i) {
    if (axes_[i].name == name) return static_cast<int64_t>(i);
  }
  return -1;
}

int64_t DeviceMesh::device_count() const {
  int64_t count = 1;
  for (const MeshAxis& axis : axes_) count *= axis.size;
  return count;
}

int64_t DeviceMesh::device(int64_t position) const {
  return device_ids_.has_value() ? device_ids_->device(position) : position;
}

std::string DeviceMesh::ToString() const {
  std::string text = "mesh[";
  for (std::size_t i = 0; i < axes_.size(); ++i) {
    if (i > 0) text += ",";
    text += "'" + axes_[i].name + "'=" + std::to_string(axes_[i].size);
  }
  text += "]";
  if (device_ids_.has_value()) {
    // The list alone: its dimensions are the mesh's.
    const std::string ids = device_ids_->ToString();
    text += ", device_ids=(" + ids.substr(ids.find(']') + 1) + ")";
  }
  return text;
}

std::string MeshAxisRefToString(const DeviceMesh& mesh,
                                const MeshAxisRef& ref) {
  std::string text =
      "'" + mesh.axes()[static_cast<std::size_t>(ref.axis)].name + "'";
  if (ref.pre_size.has_value()) {
    text +=
        ":(" + std::to_string(*ref.pre_size) + ")" + std::to_string(ref.size);
  }
  return text;
}

namespace {

// One axis split into factors, major to minor, at the boundaries of the
// sub-axes that refer to it.
struct SplitAxis {
  std::vector<int64_t> boundaries;  // 1, ..., size: sizes of major parts
};

// The range [first, last) of an axis' factors that `ref` covers.
std::pair<std::size_t, std::size_t> FactorRange(const SplitAxis& split,
                                                const MeshAxisRef& ref) {
  const std::vector<int64_t>& b = split.boundaries;
  if (!ref.pre_size.has_value()) return {0, b.size() - 1};
  const auto index = [&](int64_t value) {
    return static_cast<std::size_t>(std::find(b.begin(), b.end(), value) -
                                    b.begin());
  };
  return {index(*ref.pre_size), index(*ref.pre_size * ref.size)};
}

}  // namespace

StatusOr<std::vector<std::vector<int64_t>>> GroupsAlongMeshAxes(
    const DeviceMesh& mesh, const std::vector<MeshAxisRef>& axes) {
  const std::size_t axis_count = mesh.axes().size();
  std::vector<SplitAxis> splits(axis_count);
  for (std::size_t a = 0; a < axis_count; ++a) {
    splits[a].boundaries = {1, mesh.axes()[a].size};
  }
  for (const MeshAxisRef& ref : axes) {
    if (ref.axis < 0 || static_cast<std::size_t>(ref.axis) >= axis_count) {
      return InvalidArgument("axis " + std::to_string(ref.axis) +
                             " is not in the mesh");
    }
    if (!ref.pre_size.has_value()) continue;
    const MeshAxis& axis = mesh.axes()[static_cast<std::size_t>(ref.axis)];
    const int64_t pre = *ref.pre_size;
    if (pre <= 0 || ref.size <= 0 || axis.size % pre != 0 ||
        (axis.size / pre) % ref.size != 0) {
      return InvalidArgument("sub-axis " + MeshAxisRefToString(mesh, ref) +
                             " does not divide axis '" + axis.name +
                             "' of size " + std::to_string(axis.size));
    }
    std::vector<int64_t>& b =
        splits[static_cast<std::size_t>(ref.axis)].boundaries;
    b.push_back(pre);
    b.push_back(pre * ref.size);
  }
  // Factor sizes of every axis, major to minor, and where each axis'
  // factors start in that list.
  std::vector<int64_t> factor_sizes;
  std::vector<std::size_t> first_factor(axis_count);
  for (std::size_t a = 0; a < axis_count; ++a) {
    std::vector<int64_t>& b = splits[a].boundaries;
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    first_factor[a] = factor_sizes.size();
    for (std::size_t i = 0; i + 1 < b.size(); ++i) {
      if (b[i + 1] % b[i] != 0) {
        return InvalidArgument("sub-axes of '" + mesh.axes()[a].name +
                               "' overlap");
      }
      factor_sizes.push_back(b[i + 1] / b[i]);
    }
  }
  std::vector<bool> grouped(factor_sizes.size(), false);
  std::vector<std::size_t> inner;
  for (const MeshAxisRef& ref : axes) {
    const auto a = static_cast<std::size_t>(ref.axis);
    const auto [first, last] = FactorRange(splits[a], ref);
    for (std::size_t f = first_factor[a] + first; f < first_factor[a] + last;
         ++f) {
      if (grouped[f]) {
        return InvalidArgument("axis " + MeshAxisRefToString(mesh, ref) +
                               " overlaps another axis of the group");
      }
      grouped[f] = true;
      inner.push_back(f);
    }
  }
  std::vector<std::size_t> outer;
  for (std::size_t f = 0; f < factor_sizes.size(); ++f) {
    if (!grouped[f]) outer.push_back(f);
  }
  std::vector<int64_t> strides(factor_sizes.size(), 1);
  for (std::size_t f = factor_sizes.size(); f-- > 1;) {
    strides[f - 1] = strides[f] * factor_sizes[f];
  }
  // Visits every index of `factors` row-major, calling `visit` with the
  // mesh position offset of each.
  const auto for_each = [&](const std::vector<std::size_t>& factors,
                            const auto& visit) {
    std::vector<int64_t> index(factors.size(), 0);
    while (true) {
      int64_t offset = 0;
      for (std::size_t i = 0; i < factors.size(); ++i) {
        offset += index[i] * strides[factors[i]];
      }
      visit(offset);
      bool advanced = false;
      for (std::size_t i = factors.size(); i-- > 0 && !advanced;) {
        advanced = ++index[i] < factor_sizes[factors[i]];
        if (!advanced) index[i] = 0;
      }
      if (!advanced) return;
    }
  };
  std::vector<std::vector<int64_t>> groups;
  for_each(outer, [&](int64_t base) {
    std::vector<int64_t> group;
    for_each(inner, [&](int64_t offset) {
      group.push_back(mesh.device(base + offset));
    });
    groups.push_back(std::move(group));
  });
  return groups;
}

StatusOr<DeviceMesh> ReadDeviceMesh(TextCursor& cursor) {
  cursor.SkipSpaces();
  const std::size_t start = cursor.position();
  if (!cursor.TryConsumeWord("mesh")) return cursor.Error("expected 'mesh['");
  PHAL_RETURN_IF_ERROR(cursor.Expect('[', "to open the mesh axes"));
  std::vector<MeshAxis> axes;
  if (!cursor.TryConsume(']')) {
    do {
      MeshAxis axis;
      PHAL_ASSIGN_OR_RETURN(axis.name, cursor.ReadName("a mesh axis name"));
      PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after the mesh axis name"));
      PHAL_ASSIGN_OR_RETURN(axis.size, cursor.ReadInt("the mesh axis size"));
      axes.push_back(std::move(axis));
    } while (cursor.TryConsume(','));
    PHAL_RETURN_IF_ERROR(cursor.Expect(']', "to close the mesh axes"));
  }
  std::optional<TileAssignment> device_ids;
  const std::size_t comma = cursor.position();
  if (cursor.TryConsume(',')) {
    if (!cursor.TryConsumeWord("device_ids")) {
      cursor.set_position(comma);
    } else {
      PHAL_RETURN_IF_ERROR(cursor.Expect('=', "after device_ids"));
      PHAL_RETURN_IF_ERROR(cursor.Expect('(', "to open the device ids"));
      std::vector<int64_t> dimensions;
      for (const MeshAxis& axis : axes) dimensions.push_back(axis.size);
      if (cursor.Peek() == '[') {
        PHAL_ASSIGN_OR_RETURN(device_ids, ReadTileAssignment(cursor));
      } else {
        std::vector<int64_t> ids;
        do {
          PHAL_ASSIGN_OR_RETURN(int64_t id, cursor.ReadInt("a device id"));
          ids.push_back(id);
        } while (cursor.TryConsume(','));
        StatusOr<TileAssignment> list =
            TileAssignment::Explicit(dimensions, std::move(ids));
        if (!list.ok()) return cursor.ErrorAt(start, list.status().message());
        device_ids = std::move(list).value();
      }
      PHAL_RETURN_IF_ERROR(cursor.Expect(')', "to close the device ids"));
    }
  }
  StatusOr<DeviceMesh> mesh =
      DeviceMesh::Create(std::move(axes), std::move(device_ids));
  if (!mesh.ok()) return cursor.ErrorAt(start, mesh.status().message());
  return mesh;
}

StatusOr<MeshAxisRef> ReadMeshAxisRef(TextCursor& cursor,
                                      const DeviceMesh& mesh) {
  cursor.SkipSpaces();
  const std::size_t start = cursor.position();
  PHAL_ASSIGN_OR_RETURN(std::string name, cursor.ReadName("a mesh axis"));
  MeshAxisRef ref;
  ref.axis = mesh.AxisIndex(name);
  if (ref.axis < 0) {
    return cursor.ErrorAt(start,
                          "axis '" + name + "' is not in " + mesh.ToString());
  }
  if (cursor.TryConsume(':')) {
    PHAL_RETURN_IF_ERROR(cursor.Expect('(', "to open the sub-axis pre-size"));
    PHAL_ASSIGN_OR_RETURN(ref.pre_size, cursor.ReadInt("the pre-size"));
    PHAL_RETURN_IF_ERROR(cursor.Expect(')', "to close the pre-size"));
    PHAL_ASSIGN_OR_RETURN(ref.size, cursor.ReadInt("the sub-axis size"));
  }
  return ref;
}

}  // namespace phal
