#include "plugins/cpu/cpu_features.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "plugins/cpu/cpu_jit.h"
#include "sdk/emitters/llvm/host_cpu_target.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace phal::cpu {
namespace {

[[maybe_unused]] void Append(std::string& list, const char* name) {
  if (!list.empty()) list += ' ';
  list += name;
}

#if defined(__x86_64__) || defined(__i386__)

// Register state the OS must save for an extension to be usable (XCR0).
enum class OsState : uint64_t {
  kNone = 0,
  kAvx = 0x6,      // XMM and YMM
  kAvx512 = 0xE6,  // XMM, YMM, opmask, ZMM0-15 upper halves, ZMM16-31
};

enum class Register { kEax, kEbx, kEcx, kEdx };

struct X86Feature {
  uint32_t leaf;
  uint32_t subleaf;
  Register reg;
  uint32_t bit;
  OsState state;
  const char* name;
};

constexpr X86Feature kX86Features[] = {
    {1, 0, Register::kEdx, 25, OsState::kNone, "sse"},
    {1, 0, Register::kEdx, 26, OsState::kNone, "sse2"},
    {1, 0, Register::kEcx, 0, OsState::kNone, "sse3"},
    {1, 0, Register::kEcx, 1, OsState::kNone, "pclmul"},
    {1, 0, Register::kEcx, 9, OsState::kNone, "ssse3"},
    {1, 0, Register::kEcx, 12, OsState::kAvx, "fma"},
    {1, 0, Register::kEcx, 13, OsState::kNone, "cx16"},
    {1, 0, Register::kEcx, 19, OsState::kNone, "sse4.1"},
    {1, 0, Register::kEcx, 20, OsState::kNone, "sse4.2"},
    {1, 0, Register::kEcx, 22, OsState::kNone, "movbe"},
    {1, 0, Register::kEcx, 23, OsState::kNone, "popcnt"},
    {1, 0, Register::kEcx, 25, OsState::kNone, "aes"},
    {1, 0, Register::kEcx, 28, OsState::kAvx, "avx"},
    {1, 0, Register::kEcx, 29, OsState::kAvx, "f16c"},
    {7, 0, Register::kEbx, 3, OsState::kNone, "bmi"},
    {7, 0, Register::kEbx, 5, OsState::kAvx, "avx2"},
    {7, 0, Register::kEbx, 8, OsState::kNone, "bmi2"},
    {7, 0, Register::kEbx, 16, OsState::kAvx512, "avx512f"},
    {7, 0, Register::kEbx, 17, OsState::kAvx512, "avx512dq"},
    {7, 0, Register::kEbx, 21, OsState::kAvx512, "avx512ifma"},
    {7, 0, Register::kEbx, 28, OsState::kAvx512, "avx512cd"},
    {7, 0, Register::kEbx, 30, OsState::kAvx512, "avx512bw"},
    {7, 0, Register::kEbx, 31, OsState::kAvx512, "avx512vl"},
    {7, 0, Register::kEcx, 1, OsState::kAvx512, "avx512vbmi"},
    {7, 0, Register::kEcx, 6, OsState::kAvx512, "avx512vbmi2"},
    {7, 0, Register::kEcx, 8, OsState::kNone, "gfni"},
    {7, 0, Register::kEcx, 9, OsState::kAvx, "vaes"},
    {7, 0, Register::kEcx, 10, OsState::kAvx, "vpclmulqdq"},
    {7, 0, Register::kEcx, 11, OsState::kAvx512, "avx512vnni"},
    {7, 0, Register::kEcx, 12, OsState::kAvx512, "avx512bitalg"},
    {7, 0, Register::kEcx, 14, OsState::kAvx512, "avx512vpopcntdq"},
    {7, 0, Register::kEdx, 23, OsState::kAvx512, "avx512fp16"},
    {7, 1, Register::kEax, 4, OsState::kAvx, "avxvnni"},
    {7, 1, Register::kEax, 5, OsState::kAvx512, "avx512bf16"},
};

struct CpuidResult {
  bool valid = false;
  uint32_t reg[4] = {};
};

CpuidResult Cpuid(uint32_t leaf, uint32_t subleaf) {
  CpuidResult result;
  result.valid =
      __get_cpuid_count(leaf, subleaf, &result.reg[0], &result.reg[1],
                        &result.reg[2], &result.reg[3]) != 0;
  return result;
}

// XCR0, or 0 when the OS has not enabled XSAVE (then no AVX state is saved
// and AVX code would fault).
uint64_t EnabledOsState() {
  constexpr uint32_t kOsxsaveBit = 1u << 27;
  const CpuidResult leaf1 = Cpuid(1, 0);
  if (!leaf1.valid || (leaf1.reg[2] & kOsxsaveBit) == 0) return 0;
  uint32_t low = 0;
  uint32_t high = 0;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return (static_cast<uint64_t>(high) << 32) | low;
}

std::string DetectX86Features() {
  const uint64_t os_state = EnabledOsState();
  const CpuidResult leaves[] = {Cpuid(1, 0), Cpuid(7, 0), Cpuid(7, 1)};
  auto leaf_for = [&](const X86Feature& feature) -> const CpuidResult& {
    if (feature.leaf == 1) return leaves[0];
    return feature.subleaf == 0 ? leaves[1] : leaves[2];
  };
  std::string list;
  for (const X86Feature& feature : kX86Features) {
    const CpuidResult& leaf = leaf_for(feature);
    const uint32_t value = leaf.reg[static_cast<int>(feature.reg)];
    const auto needed = static_cast<uint64_t>(feature.state);
    if (leaf.valid && (value >> feature.bit & 1u) != 0 &&
        (os_state & needed) == needed) {
      Append(list, feature.name);
    }
  }
  return list;
}

#elif defined(__aarch64__) && defined(__linux__)

struct HwcapFeature {
  int word;  // AT_HWCAP or AT_HWCAP2
  unsigned long mask;
  const char* name;
};

// The bits the Linux arm64 ABI gives each feature in AT_HWCAP and
// AT_HWCAP2 (arch/arm64/include/uapi/asm/hwcap.h), written out: older
// kernel headers lack the newer names, and the bits never change.
constexpr HwcapFeature kAarch64Features[] = {
    {AT_HWCAP, 1UL << 0, "fp-armv8"},  {AT_HWCAP, 1UL << 1, "neon"},
    {AT_HWCAP, 1UL << 3, "aes"},       {AT_HWCAP, 1UL << 6, "sha2"},
    {AT_HWCAP, 1UL << 7, "crc"},       {AT_HWCAP, 1UL << 8, "lse"},
    {AT_HWCAP, 1UL << 10, "fullfp16"}, {AT_HWCAP, 1UL << 12, "rdm"},
    {AT_HWCAP, 1UL << 20, "dotprod"},  {AT_HWCAP, 1UL << 22, "sve"},
    {AT_HWCAP, 1UL << 23, "fp16fml"},  {AT_HWCAP2, 1UL << 1, "sve2"},
    {AT_HWCAP2, 1UL << 13, "i8mm"},    {AT_HWCAP2, 1UL << 14, "bf16"},
    {AT_HWCAP2, 1UL << 23, "sme"},
};

std::string DetectAarch64Features() {
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  std::string list;
  for (const HwcapFeature& feature : kAarch64Features) {
    const unsigned long word = feature.word == AT_HWCAP ? hwcap : hwcap2;
    if ((word & feature.mask) != 0) Append(list, feature.name);
  }
  return list;
}

#endif

}  // namespace

std::string DetectIsaFeatures() {
#if defined(__x86_64__) || defined(__i386__)
  return DetectX86Features();
#elif defined(__aarch64__) && defined(__linux__)
  return DetectAarch64Features();
#else
  return std::string();
#endif
}

std::string TargetIsaFeatures() {
  std::string host = DetectIsaFeatures();
  const char* forced = std::getenv(llvm_emitter::kCpuTargetVariable);
  if (forced == nullptr || *forced == '\0') return host;
  const StatusOr<JitTarget> target = HostJitTarget();
  if (!target.ok()) return host;
  const std::string on = "," + target->features + ",";
  std::istringstream names(host);
  std::string list, name;
  while (names >> name) {
    if (on.find(",+" + name + ",") != std::string::npos) {
      Append(list, name.c_str());
    }
  }
  return list;
}

}  // namespace phal::cpu
