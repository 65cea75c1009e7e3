// What the plugin learns about the machine it runs on. Probed when the device
// is opened, so the properties describe the machine as it is, not as it was
// when the library was built.
#ifndef POLYHAL_PLUGINS_CPU_CPU_INFO_H_
#define POLYHAL_PLUGINS_CPU_CPU_INFO_H_

#include <array>
#include <cstdint>
#include <string>

namespace phal::cpu {

struct CpuInfo {
  std::string model_name;      // e.g. "Intel(R) Xeon(R) Gold 6338 CPU"
  std::string vendor;          // e.g. "GenuineIntel", "ARM"; empty if unknown
  std::string features;        // space-separated, see cpu_features.h
  std::string kernel_release;  // uname -r
  uint32_t online_cores = 1;   // CPUs this process may run on
  uint64_t physical_memory_bytes = 0;
  uint64_t cache_line_bytes = 64;
  // Derived from /etc/machine-id and the model name: the same machine reports
  // the same UUID across runs and processes.
  std::array<uint8_t, 16> uuid{};
};

// Reads /proc, /sys, uname, sysconf and the CPU's own identification.
// Never fails: what cannot be read falls back to a safe value.
CpuInfo ProbeCpuInfo();

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_INFO_H_
