// A device mesh: named axes over the devices (Shardy's sdy.mesh, and the
// mesh['x'=2,'y'=2] of XLA's mesh-axes replica groups), and references to
// its axes or to sub-axes of them ('x':(1)2: the size-2 part of axis x whose
// more major part has size 1).
#ifndef POLYHAL_CORE_HLO_DEVICE_MESH_H_
#define POLYHAL_CORE_HLO_DEVICE_MESH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/hlo/text_cursor.h"
#include "core/hlo/tile_assignment.h"
#include "sdk/base/status.h"

namespace phal {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
  bool operator==(const MeshAxis& other) const {
    return name == other.name && size == other.size;
  }
};

class DeviceMesh {
 public:
  DeviceMesh() = default;
  // Axes major to minor. `device_ids`, when given, lists the device at
  // each row-major mesh position; otherwise position i is device i.
  static StatusOr<DeviceMesh> Create(std::vector<MeshAxis> axes,
                                     std::optional<TileAssignment> device_ids);

  const std::vector<MeshAxis>& axes() const { return axes_; }
  // The index of the axis called `name`, or -1.
  int64_t AxisIndex(const std::string& name) const;
  int64_t device_count() const;
  // The device at row-major mesh position `position`.
  int64_t device(int64_t position) const;
  const std::optional<TileAssignment>& device_ids() const {
    return device_ids_;
  }

  // "mesh['x'=2,'y'=2]", then ", device_ids=(...)" when not the identity.
  std::string ToString() const;
  bool operator==(const DeviceMesh& other) const {
    return axes_ == other.axes_ && device_ids_ == other.device_ids_;
  }

 private:
  std::vector<MeshAxis> axes_;
  std::optional<TileAssignment> device_ids_;
};

// A whole axis of a mesh, or the sub-axis of size `size` whose more major
// part of the axis has size `pre_size`.
struct MeshAxisRef {
  int64_t axis = 0;
  std::optional<int64_t> pre_size;
  int64_t size = 0;  // sub-axes only
  bool operator==(const MeshAxisRef& other) const {
    return axis == other.axis && pre_size == other.pre_size &&
           size == other.size;
  }
};

// "'x'" or "'x':(1)2".
std::string MeshAxisRefToString(const DeviceMesh& mesh, const MeshAxisRef& ref);

// The devices that differ only in the coordinates of `axes`, one group per
// position of the other axes (row-major), each listed row-major over
// `axes` in the order given. Errors for unknown axes, sub-axes that do not
// divide their axis, and axes used twice.
StatusOr<std::vector<std::vector<int64_t>>> GroupsAlongMeshAxes(
    const DeviceMesh& mesh, const std::vector<MeshAxisRef>& axes);

// Reads "mesh['x'=2,'y'=2]" with an optional ", device_ids=(0,2,1,3)".
StatusOr<DeviceMesh> ReadDeviceMesh(TextCursor& cursor);
// Reads "'x'" or "'x':(1)2" of `mesh`.
StatusOr<MeshAxisRef> ReadMeshAxisRef(TextCursor& cursor,
                                      const DeviceMesh& mesh);

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_DEVICE_MESH_H_
