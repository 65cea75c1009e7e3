// Element-wise reductions of raw host memory, for the transports that
// reduce themselves (HostReductions: TCP's ring, the tests' in-process
// job), and the PHAL_*_REDUCTIONS switch they share with MPI's.
#ifndef POLYHAL_CORE_EXECUTOR_HOST_REDUCE_H_
#define POLYHAL_CORE_EXECUTOR_HOST_REDUCE_H_

#include <cstddef>

#include "polyhal/plugin.h"
#include "polyhal/types.h"
#include "sdk/base/status.h"

namespace phal {

// Whether ReduceInto runs `reduction` on `type`: every reduction of the
// integer types (sums and products wrapping as two's complement), and,
// or, minimum and maximum of pred, f32 and f64 sums and products.
bool HostReducible(phal_element_type_t type, phal_reduction_t reduction);

// x[i] = x[i] op y[i] for `count` elements of `type`; false (nothing
// written) where !HostReducible(type, reduction).
bool ReduceInto(phal_element_type_t type, phal_reduction_t reduction, void* x,
                const void* y, std::size_t count);

// What a transport reduces itself, from an environment variable: `all`
// (the default, when unset), `exact` (floats only over two ranks, where
// any order is the ranks' order) or `off`.
enum class TransportReductions { kAll, kExact, kOff };
StatusOr<TransportReductions> TransportReductionsFromEnv(const char* variable);

// Whether `mode` lets a transport reduce `type` over `rank_count` ranks.
bool ReductionsAllow(TransportReductions mode, phal_element_type_t type,
                     int rank_count);

}  // namespace phal

#endif  // POLYHAL_CORE_EXECUTOR_HOST_REDUCE_H_
