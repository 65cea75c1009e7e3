#include "plugins/cpu/cpu_info.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include "plugins/cpu/cpu_features.h"
#include "sdk/plugin_support/device_queries.h"
#include "sdk/plugin_support/virtual_devices.h"

namespace phal::cpu {
namespace {

std::string Trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return std::string();
  const auto end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

std::string ReadFirstLine(const char* path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return Trim(line);
}

// "key : value" lines of /proc/cpuinfo; the first occurrence of a key wins,
// which is CPU 0's value for per-CPU keys.
std::map<std::string, std::string> ReadProcCpuinfo() {
  std::map<std::string, std::string> fields;
  std::ifstream file("/proc/cpuinfo");
  std::string line;
  while (std::getline(file, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    fields.emplace(Trim(line.substr(0, colon)), Trim(line.substr(colon + 1)));
  }
  return fields;
}

std::string Lookup(const std::map<std::string, std::string>& fields,
                   const char* key) {
  const auto it = fields.find(key);
  return it == fields.end() ? std::string() : it->second;
}

// Arm identifies a core by the implementer and part numbers of MIDR_EL1.
struct ArmCoreId {
  uint32_t implementer;
  uint32_t part;
};

const char* ArmImplementerName(uint32_t implementer) {
  switch (implementer) {
    case 0x41:
      return "ARM";
    case 0x42:
      return "Broadcom";
    case 0x43:
      return "Cavium";
    case 0x46:
      return "Fujitsu";
    case 0x48:
      return "HiSilicon";
    case 0x4e:
      return "NVIDIA";
    case 0x51:
      return "Qualcomm";
    case 0x53:
      return "Samsung";
    case 0x61:
      return "Apple";
    case 0xc0:
      return "Ampere";
    default:
      return nullptr;
  }
}

// Cores found in servers and boards a CI runs on; others print the numbers.
const char* ArmPartName(ArmCoreId id) {
  if (id.implementer == 0x41) {
    switch (id.part) {
      case 0xd03:
        return "Cortex-A53";
      case 0xd07:
        return "Cortex-A57";
      case 0xd08:
        return "Cortex-A72";
      case 0xd0b:
        return "Cortex-A76";
      case 0xd0c:
        return "Neoverse-N1";
      case 0xd40:
        return "Neoverse-V1";
      case 0xd49:
        return "Neoverse-N2";
      case 0xd4f:
        return "Neoverse-V2";
      default:
        return nullptr;
    }
  }
  if (id.implementer == 0xc0 && id.part == 0xac3) return "AmpereOne";
  return nullptr;
}

std::optional<uint32_t> ParseNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    return static_cast<uint32_t>(std::stoul(text, nullptr, 0));
  } catch (const std::logic_error&) {
    return std::nullopt;
  }
}

// From /proc/cpuinfo ("CPU implementer", "CPU part"), else from the MIDR_EL1
// the kernel exposes in sysfs.
std::optional<ArmCoreId> ReadArmCoreId(
    const std::map<std::string, std::string>& fields) {
  const auto implementer = ParseNumber(Lookup(fields, "CPU implementer"));
  const auto part = ParseNumber(Lookup(fields, "CPU part"));
  if (implementer && part) return ArmCoreId{*implementer, *part};
  const std::string midr = ReadFirstLine(
      "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1");
  if (midr.empty()) return std::nullopt;
  try {
    const uint64_t value = std::stoull(midr, nullptr, 16);
    return ArmCoreId{static_cast<uint32_t>(value >> 24 & 0xff),
                     static_cast<uint32_t>(value >> 4 & 0xfff)};
  } catch (const std::logic_error&) {
    return std::nullopt;
  }
}

std::string ArmModelName(ArmCoreId id) {
  const char* implementer = ArmImplementerName(id.implementer);
  if (const char* part = ArmPartName(id)) {
    return implementer ? std::string(implementer) + " " + part : part;
  }
  char text[64];
  std::snprintf(text, sizeof(text), "Arm implementer 0x%02x part 0x%03x",
                id.implementer, id.part);
  return text;
}

uint32_t CountOnlineCores() {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  const int capacity =
      static_cast<int>(std::max<long>(configured, CPU_SETSIZE));
  cpu_set_t* set = CPU_ALLOC(capacity);
  if (set != nullptr) {
    const size_t size = CPU_ALLOC_SIZE(capacity);
    CPU_ZERO_S(size, set);
    const int count =
        sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : 0;
    CPU_FREE(set);
    if (count > 0) return static_cast<uint32_t>(count);
  }
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<uint32_t>(online) : 1;
}

// At least 64 bytes, so buffers never share a cache line and AVX-512 loads
// stay aligned; more where the L1 line is longer (e.g. 128 on Apple cores).
uint64_t CacheLineBytes() {
  long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
  if (line <= 0) {
    const std::string text = ReadFirstLine(
        "/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size");
    line = ParseNumber(text).value_or(0);
  }
  return std::bit_ceil(std::max<uint64_t>(64, static_cast<uint64_t>(line)));
}

// A name-based UUID (RFC 9562 version 8) of the machine identity and CPU
// model: stable across runs, distinct across machines that have a
// machine-id. Without one, the model, core count and RAM stand in.
std::array<uint8_t, 16> DeriveUuid(const CpuInfo& info) {
  std::string identity = ReadFirstLine("/etc/machine-id");
  if (identity.empty()) identity = ReadFirstLine("/var/lib/dbus/machine-id");
  if (identity.empty()) {
    identity = std::to_string(sysconf(_SC_NPROCESSORS_CONF)) + "/" +
               std::to_string(info.physical_memory_bytes);
  }
  identity += "\n" + info.model_name;
  return NameBasedUuid(identity);
}

}  // namespace

CpuInfo ProbeCpuInfo() {
  CpuInfo info;
  utsname system{};
  const bool have_uname = uname(&system) == 0;
  if (have_uname) info.kernel_release = system.release;

  const auto fields = ReadProcCpuinfo();
  info.model_name = Lookup(fields, "model name");
  info.vendor = Lookup(fields, "vendor_id");
  if (const auto arm = ReadArmCoreId(fields)) {
    if (info.model_name.empty()) info.model_name = ArmModelName(*arm);
    if (info.vendor.empty()) {
      const char* implementer = ArmImplementerName(arm->implementer);
      info.vendor = implementer ? implementer : "";
    }
  }
  if (info.model_name.empty() && have_uname) info.model_name = system.machine;

  info.features = TargetIsaFeatures();
  info.online_cores = CountOnlineCores();
  info.physical_memory_bytes = HostPhysicalMemoryBytes();
  info.cache_line_bytes = CacheLineBytes();
  info.uuid = DeriveUuid(info);
  return info;
}

}  // namespace phal::cpu
