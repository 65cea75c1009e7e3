// KIR (kernel.h) -> the source of one compute kernel in a C-like language
// (dialect.h), and how to launch it. Every kernel kind and element type;
// the semantics are those of docs/emitters.md ("Semantics of the node ops"),
// shared with the LLVM toolkit.
#ifndef POLYHAL_SDK_EMITTERS_SOURCE_SOURCE_EMITTER_H_
#define POLYHAL_SDK_EMITTERS_SOURCE_SOURCE_EMITTER_H_

#include <cstdint>
#include <string>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/source/dialect.h"

namespace phal::source_emitter {

// The name of the kernel function in every emitted source.
inline constexpr const char* kEntryName = "phal_kernel";

// How a runtime launches an emitted kernel. Its arguments are the KIR's
// buffers in order, then, when scratch_bytes > 0, a scratch buffer of that
// many bytes the runtime allocates per launch (contents undefined).
struct LaunchShape {
  uint32_t dimensions = 1;              // 1 to 3
  uint64_t global_size[3] = {0, 1, 1};  // work-items; 0 anywhere: no launch
  uint64_t local_size[3] = {0, 1, 1};   // 0 in [0]: the runtime chooses
  uint64_t scratch_bytes = 0;
};

struct SourceKernel {
  std::string source;  // one complete translation unit
  LaunchShape launch;
};

// Prints `kernel` for a device with `features`. UNIMPLEMENTED names a kind,
// op or element type the dialect or the device cannot run (f64 and c128
// without cl_khr_fp64, ...); INVALID_ARGUMENT a malformed kernel.
StatusOr<SourceKernel> EmitSource(const phal_kernel_desc_t& kernel,
                                  const Dialect& dialect,
                                  const DeviceFeatures& features);

// PHAL_KERNEL_KIND_BIT mask of the kinds EmitSource prints: all of ABI 1.1.
uint64_t SupportedKernelKinds();

}  // namespace phal::source_emitter

#endif  // POLYHAL_SDK_EMITTERS_SOURCE_SOURCE_EMITTER_H_
