// How a REDUCE kernel splits its index space: the dimensions it reduces and
// those it keeps (the output's), in order. The emitters and the KIR
// interpreter all start from it.
#ifndef POLYHAL_SDK_KIR_REDUCE_GEOMETRY_H_
#define POLYHAL_SDK_KIR_REDUCE_GEOMETRY_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "polyhal/kernel.h"

namespace phal {

struct ReduceGeometry {
  std::vector<bool> reduced;          // per dimension of the space
  std::vector<int64_t> kept_dims;     // the output's extents
  std::vector<int64_t> reduced_dims;  // the reduced extents
  int64_t outputs = 1;                // elements of the output
  int64_t inner = 1;                  // elements reduced into each
};

// The geometry of `reduce`, whose reduced_dims the KIR checks have
// validated (each below rank).
inline ReduceGeometry GeometryOf(const phal_kir_reduce_t& reduce) {
  ReduceGeometry g;
  g.reduced.assign(reduce.rank, false);
  for (uint32_t i = 0; i < reduce.reduced_count; ++i) {
    g.reduced[static_cast<std::size_t>(reduce.reduced_dims[i])] = true;
  }
  for (uint32_t d = 0; d < reduce.rank; ++d) {
    if (g.reduced[d]) {
      g.reduced_dims.push_back(reduce.dims[d]);
      g.inner *= reduce.dims[d];
    } else {
      g.kept_dims.push_back(reduce.dims[d]);
      g.outputs *= reduce.dims[d];
    }
  }
  return g;
}

}  // namespace phal

#endif  // POLYHAL_SDK_KIR_REDUCE_GEOMETRY_H_
