// The host target, and PHAL_CPU_TARGET naming another processor to compile
// for: its features where the host has them, a clear error where it names
// no processor or one the host cannot run.
#include "sdk/emitters/llvm/host_cpu_target.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace phal::llvm_emitter {
namespace {

// PHAL_CPU_TARGET for one test, unset afterwards.
class CpuTargetEnv {
 public:
  explicit CpuTargetEnv(const char* value) {
    setenv(kCpuTargetVariable, value, 1);
  }
  ~CpuTargetEnv() { unsetenv(kCpuTargetVariable); }
};

bool Has(const std::string& features, const std::string& feature) {
  return ("," + features + ",").find("," + feature + ",") != std::string::npos;
}

bool HostHas(const std::string& flag) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      if (word == flag) return true;
    }
    return false;
  }
  return false;
}

TEST(HostCpuTarget, WithoutAProcessorNamedItCompilesForTheHost) {
  unsetenv(kCpuTargetVariable);
  StatusOr<std::unique_ptr<HostCpuTarget>> target =
      HostCpuTarget::Create(false);
  ASSERT_TRUE(target.ok()) << target.status().ToString();
  EXPECT_FALSE((*target)->cpu_name().empty());
#if defined(__x86_64__)
  EXPECT_EQ(Has((*target)->features(), "+avx512f"), HostHas("avx512f"));
  EXPECT_EQ(Has((*target)->features(), "+avx2"), HostHas("avx2"));
#endif
}

#if defined(__x86_64__)
TEST(HostCpuTarget, ANamedProcessorGivesItsFeaturesAndNoOthers) {
  if (!HostHas("avx2") || !HostHas("fma") || !HostHas("bmi2") ||
      !HostHas("movbe")) {
    GTEST_SKIP() << "this processor cannot run x86-64-v3 code";
  }
  CpuTargetEnv env("x86-64-v3");
  StatusOr<std::unique_ptr<HostCpuTarget>> target =
      HostCpuTarget::Create(false);
  ASSERT_TRUE(target.ok()) << target.status().ToString();
  EXPECT_EQ((*target)->cpu_name(), "x86-64-v3");
  const std::string& features = (*target)->features();
  EXPECT_TRUE(Has(features, "+avx2")) << features;
  EXPECT_TRUE(Has(features, "+fma")) << features;
  EXPECT_TRUE(Has(features, "-avx512f")) << features;
  EXPECT_TRUE(Has(features, "-avx512bw")) << features;
}

TEST(HostCpuTarget, AProcessorTheHostCannotRunIsRefusedWithWhatItLacks) {
  if (HostHas("amx_tile")) GTEST_SKIP() << "this processor has AMX";
  CpuTargetEnv env("sapphirerapids");
  StatusOr<std::unique_ptr<HostCpuTarget>> target =
      HostCpuTarget::Create(false);
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.status().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(target.status().message().find("PHAL_CPU_TARGET=sapphirerapids "
                                           "needs features this processor "
                                           "lacks:"),
            std::string::npos)
      << target.status().ToString();
  EXPECT_NE(target.status().message().find("amx-tile"), std::string::npos)
      << target.status().ToString();
}
#endif

TEST(HostCpuTarget, AnUnknownProcessorIsRefusedByName) {
  CpuTargetEnv env("no-such-processor");
  StatusOr<std::unique_ptr<HostCpuTarget>> target =
      HostCpuTarget::Create(false);
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.status().code(), PHAL_INVALID_ARGUMENT);
  EXPECT_NE(target.status().message().find(
                "PHAL_CPU_TARGET=no-such-processor: LLVM knows no such"),
            std::string::npos)
      << target.status().ToString();
}

}  // namespace
}  // namespace phal::llvm_emitter
