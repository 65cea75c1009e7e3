// What a plugin that compiles ahead of time (plugin.h, ABI 1.4) needs
// beyond its compiler: finding a requested target in its list, refusing
// work a compile-only device cannot do, and writing kernels' device code
// to the dump directory of phal_kernel_options_t.
//
//   constexpr const char* kTargets[] = {"sm_75", "sm_80", "sm_90"};
//   phal_status_t* TargetGetNames(const char* const** out_names,
//                                 size_t* out_count) noexcept {
//     return ListCompileTargets(kTargets, out_names, out_count);
//   }
//   ... FindCompileTarget(kTargets, target, "acme plugin") in
//   TargetDeviceOpen, and in kernel_emit:
//   WriteKernelDump(KernelDumpDirectory(options), desc->name, "ptx", ptx)
#ifndef POLYHAL_SDK_PLUGIN_SUPPORT_COMPILE_TARGETS_H_
#define POLYHAL_SDK_PLUGIN_SUPPORT_COMPILE_TARGETS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "polyhal/plugin.h"
#include "sdk/base/status.h"

namespace phal {

// target_get_names's answer: `targets`, which must outlive the plugin (a
// static array), in *out_names and their number in *out_count. Never fails.
phal_status_t* ListCompileTargets(std::span<const char* const> targets,
                                  const char* const** out_names,
                                  size_t* out_count) noexcept;

// The index of `requested` in `targets` (NULL or "" is 0, the default
// target). NOT_FOUND listing the targets otherwise; `plugin` ("acme
// plugin") begins the message.
StatusOr<size_t> FindCompileTarget(std::span<const char* const> targets,
                                   const char* requested,
                                   std::string_view plugin);

// The FAILED_PRECONDITION a compile-only device of `target` answers to
// `what` ("allocate buffers", "create streams", "create events").
Status CompileOnlyDeviceError(std::string_view plugin, std::string_view target,
                              std::string_view what);

// The dump directory `options` names, or "" when it names none (NULL
// options, a NULL member, or options of a core older than ABI 1.4, whose
// struct_size ends before the member).
std::string_view KernelDumpDirectory(const phal_kernel_options_t* options);

// Writes `text` to `<directory>/<kernel>.<extension>`, replacing the file;
// characters of the kernel name other than letters, digits, '.', '-' and
// '_' become '_'. Does nothing when `directory` is empty. UNAVAILABLE
// naming the file when it cannot be written.
Status WriteKernelDump(std::string_view directory, std::string_view kernel,
                       std::string_view extension, std::string_view text);

}  // namespace phal

#endif  // POLYHAL_SDK_PLUGIN_SUPPORT_COMPILE_TARGETS_H_
