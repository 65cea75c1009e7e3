// What every test of phal_plugin_cpu_tests shares: a host-services table of
// the test's own (which records log lines), the plugin library loaded once
// per run through its entry point as the core's loader does, and a fixture
// that opens the device and releases what a test made.
#ifndef POLYHAL_PLUGINS_CPU_CPU_PLUGIN_TEST_SUPPORT_H_
#define POLYHAL_PLUGINS_CPU_CPU_PLUGIN_TEST_SUPPORT_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "polyhal/plugin.h"

// The core normally defines the status object; the plugin only ever holds
// pointers that the test's status_create made, so the tests define it.
struct phal_status {
  phal_status_code_t code;
  std::string message;
};

namespace phal::cpu::testing_support {

inline constexpr uint32_t kAbi10 = PHAL_MAKE_VERSION(1, 0);
inline constexpr uint32_t kAbi11 = PHAL_MAKE_VERSION(1, 1);
inline constexpr uint32_t kAbi12 = PHAL_MAKE_VERSION(1, 2);
inline constexpr uint64_t kMiB = uint64_t{1} << 20;

// The host services the tests hand the plugin. Log lines at every level are
// recorded; those at INFO and above are also printed.
extern const phal_host_services_t kHost;
std::vector<std::string> RecordedLogLines();
void ClearRecordedLogLines();

struct StatusDeleter {
  void operator()(phal_status_t* status) const { delete status; }
};
using StatusPtr = std::unique_ptr<phal_status_t, StatusDeleter>;

// Take ownership of `status`; IsOk succeeds when it is NULL, HasCode when it
// carries `code`.
testing::AssertionResult IsOk(phal_status_t* status);
testing::AssertionResult HasCode(phal_status_t* status,
                                 phal_status_code_t code);

phal_plugin_negotiation_t Negotiation(uint32_t core_min, uint32_t core_max,
                                      const phal_host_services_t* host);

// The plugin library, negotiated at ABI 1.0-1.2 once for the whole run and
// shut down at exit, as the core would. The disk kernel cache points at a
// fresh directory of the run's own ($PHAL_CACHE_DIR), removed at exit.
class LoadedPlugin : public testing::Environment {
 public:
  static phal_plugin_entry_fn entry() { return entry_; }
  static const phal_plugin_api_t& api() { return *api_; }
  static const std::string& cache_directory() { return cache_directory_; }

  void SetUp() override;
  void TearDown() override;

 private:
  void* library_ = nullptr;
  static inline phal_plugin_entry_fn entry_ = nullptr;
  static inline const phal_plugin_api_t* api_ = nullptr;
  static inline std::string cache_directory_;
};

// Opens the device for each test and closes it after, and offers small
// helpers that keep the tests about behaviour rather than plumbing.
class CpuPluginTest : public testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  static const phal_plugin_api_t& api() { return LoadedPlugin::api(); }

  // Each is released in TearDown.
  phal_plugin_buffer_t* Allocate(uint64_t byte_size);
  phal_plugin_stream_t* CreateStream();
  phal_plugin_event_t* CreateEvent();

  // Queues copies that keep `stream` busy for tens of milliseconds, so that
  // work queued after them is still pending when the test looks at it.
  void QueueBusyWork(phal_plugin_stream_t* stream);
  int Query(phal_plugin_event_t* event);

  phal_plugin_device_t* device_ = nullptr;
  phal_device_properties_t properties_{};

 private:
  std::vector<phal_plugin_buffer_t*> buffers_;
  std::vector<phal_plugin_stream_t*> streams_;
  std::vector<phal_plugin_event_t*> events_;
  phal_plugin_buffer_t* busy_source_ = nullptr;
  phal_plugin_buffer_t* busy_destination_ = nullptr;
};

// Adds kernels: emit KIR, run it over host vectors, release what was made.
class KernelTest : public CpuPluginTest {
 protected:
  void TearDown() override;

  // The kernel, or NULL after a failed expectation. Destroyed in TearDown.
  phal_plugin_kernel_t* Emit(const phal_kernel_desc_t& desc);
  // Copies contents[i] into a fresh buffer i, launches `kernel` on one
  // stream, and copies every buffer back into contents[i].
  void Run(phal_plugin_kernel_t* kernel,
           std::vector<std::vector<uint8_t>>& contents);

 private:
  std::vector<phal_plugin_kernel_t*> kernels_;
};

// Raw bytes of a vector of plain values, and back.
template <typename T>
std::vector<uint8_t> ToBytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T>
std::vector<T> FromBytes(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

}  // namespace phal::cpu::testing_support

#endif  // POLYHAL_PLUGINS_CPU_CPU_PLUGIN_TEST_SUPPORT_H_
