// The compiler driver: HLO module in, executable plan (program.h) out.
// Runs the pass pipeline (hlo_pass.h), partitions into KIR kernels
// (partitioner.h) and assigns buffers (buffer_assignment.h); checks a
// device's capabilities against what the plan needs.
#ifndef POLYHAL_CORE_COMPILER_COMPILER_H_
#define POLYHAL_CORE_COMPILER_COMPILER_H_

#include <memory>
#include <string>

#include "core/compiler/hlo_pass.h"
#include "core/compiler/offload.h"
#include "core/compiler/program.h"
#include "core/hlo/module.h"
#include "polyhal/types.h"
#include "sdk/base/status.h"

namespace phal {

struct CompilerOptions {
  // Where to write the module after each pass ("NN-<pass>.hlo") and each
  // kernel's KIR ("kernel-NN-<name>.kir"); empty writes nothing.
  std::string dump_directory;
  // The largest result constant folding computes at compile time; 0 keeps
  // every instruction for the device (tests of a device's kernels use it).
  int64_t max_folded_elements = kDefaultMaxFoldedElements;
  // Whether each fft instruction becomes one FFT kernel (ABI 1.6) instead of
  // being decomposed into reduces: for a device that runs them
  // (RunsFftKernels). A program compiled so runs on no other device.
  bool fft_kernels = false;
  // Whether each linear-algebra instruction (cholesky, triangular-solve,
  // lu, qr, householder-product, eigh, svd) becomes one LINALG kernel (ABI
  // 1.14) instead of being expanded into loops: for a device that runs
  // them (RunsLinalgKernels). A program compiled so runs on no other
  // device.
  bool linalg_kernels = false;
  // What the device's plugin takes whole (plugin.h, ABI 1.13); a null
  // offload.accepts offers nothing. An error of it fails the compile.
  OffloadRules offload;
  // What offload.accepts depends on (the plugin, its release, the device
  // and the formats it reads), for the program cache's key; empty when
  // nothing is offered.
  std::string offload_identity;
};

// Options with dump_directory taken from the PHAL_DUMP environment
// variable.
CompilerOptions CompilerOptionsFromEnvironment();

// Whether a device with `properties`, whose plugin negotiated ABI
// `abi_version`, is handed FFT kernels: it reports PHAL_KERNEL_KIND_FFT
// and the plugin speaks ABI 1.6 or later.
bool RunsFftKernels(const phal_device_properties_t& properties,
                    uint32_t abi_version);

// The same for LINALG kernels: PHAL_KERNEL_KIND_LINALG and ABI 1.14.
bool RunsLinalgKernels(const phal_device_properties_t& properties,
                       uint32_t abi_version);

// The options phal_executable_compile compiles with for such a device:
// CompilerOptionsFromEnvironment() with fft_kernels from RunsFftKernels
// and linalg_kernels from RunsLinalgKernels.
CompilerOptions CompilerOptionsForDevice(
    const phal_device_properties_t& properties, uint32_t abi_version);

// Compiles a verified module.
StatusOr<std::unique_ptr<Program>> CompileModule(
    std::unique_ptr<HloModule> module, const CompilerOptions& options);

// UNIMPLEMENTED, listing every kernel kind and element type `program` uses
// that `properties` (kernel_kinds, element_types) does not report, and
// every kernel kind and KIR node op newer than the ABI version the device's
// plugin negotiated (`abi_version`), when there is any; `device_name`
// labels the message.
Status CheckDeviceCapabilities(const Program& program,
                               const phal_device_properties_t& properties,
                               uint32_t abi_version,
                               const std::string& device_name);

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_COMPILER_H_
