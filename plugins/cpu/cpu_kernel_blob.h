// The bytes of a serialized kernel, as kernel_serialize returns them and the
// on-disk cache stores them:
//
//   "PHALCPUK" | u32 format | u64 KIR fingerprint | triple | features |
//   plugin build identity | name | LaunchPlan | [FftShape | LinalgShape] |
//   object file
//
// (written with the byte codec, sdk/base/byte_codec.h: little-endian, strings
// and the object as u64 length + bytes). The FftShape is there for an FFT
// kernel (plan kind PHAL_KERNEL_KIND_FFT), which the plugin runs itself
// (cpu_fft.h), the LinalgShape for a LINALG kernel (cpu_linalg.h), run with
// LAPACK: their objects are empty. The object is only valid for the
// triple, features and plugin build (cpu_build_identity.h) written beside
// it. Format 4 added the FftShape, format 5 the LinalgShape.
#ifndef POLYHAL_PLUGINS_CPU_CPU_KERNEL_BLOB_H_
#define POLYHAL_PLUGINS_CPU_CPU_KERNEL_BLOB_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "plugins/cpu/cpu_fft.h"
#include "plugins/cpu/cpu_jit.h"
#include "plugins/cpu/cpu_linalg.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/launch_plan.h"

namespace phal::cpu {

struct KernelBlob {
  uint64_t fingerprint = 0;
  JitTarget target;
  std::string plugin_version;  // PluginBuildIdentity() of the writer
  std::string name;
  llvm_emitter::LaunchPlan plan;
  FftShape fft;        // an FFT kernel's
  LinalgShape linalg;  // a LINALG kernel's
  std::string object;
};

std::string EncodeKernelBlob(const KernelBlob& blob);
// INVALID_ARGUMENT for bytes that are not a blob (an FFT kernel's shape
// checked by CheckFftShape, a LINALG kernel's by CheckLinalgShape);
// FAILED_PRECONDITION for a blob made for
// another target or by another plugin build.
StatusOr<KernelBlob> DecodeKernelBlob(std::string_view bytes,
                                      const JitTarget& target);

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_KERNEL_BLOB_H_
