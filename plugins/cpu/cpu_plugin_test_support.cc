#include "plugins/cpu/cpu_plugin_test_support.h"

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>

namespace phal::cpu::testing_support {
namespace {

std::mutex g_log_mutex;
std::vector<std::string> g_log_lines;

phal_status_t* TestStatusCreate(phal_status_code_t code, const char* message) {
  return new phal_status{code, message != nullptr ? message : ""};
}

void TestLog(phal_log_level_t level, const char* message) {
  if (level <= PHAL_LOG_LEVEL_INFO) {
    std::fprintf(stderr, "[cpu plugin log %d] %s\n", static_cast<int>(level),
                 message);
  }
  std::lock_guard lock(g_log_mutex);
  g_log_lines.emplace_back(message);
}

void* TestHostAllocate(size_t byte_size, size_t alignment) {
  void* pointer = nullptr;
  return posix_memalign(&pointer, std::max(alignment, sizeof(void*)),
                        byte_size) == 0
             ? pointer
             : nullptr;
}

void TestHostFree(void* pointer) { std::free(pointer); }

const testing::Environment* const kPluginEnvironment =
    testing::AddGlobalTestEnvironment(new LoadedPlugin);

}  // namespace

const phal_host_services_t kHost = {
    .struct_size = sizeof(phal_host_services_t),
    .next = nullptr,
    .status_create = TestStatusCreate,
    .log = TestLog,
    .host_allocate = TestHostAllocate,
    .host_free = TestHostFree,
    .status_free = nullptr,
};

std::vector<std::string> RecordedLogLines() {
  std::lock_guard lock(g_log_mutex);
  return g_log_lines;
}

void ClearRecordedLogLines() {
  std::lock_guard lock(g_log_mutex);
  g_log_lines.clear();
}

testing::AssertionResult IsOk(phal_status_t* raw) {
  StatusPtr status(raw);
  if (status == nullptr) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "expected success, got code "
                                     << status->code << ": " << status->message;
}

testing::AssertionResult HasCode(phal_status_t* raw, phal_status_code_t code) {
  StatusPtr status(raw);
  if (status == nullptr) {
    return testing::AssertionFailure()
           << "expected code " << code << ", got success";
  }
  if (status->code != code) {
    return testing::AssertionFailure()
           << "expected code " << code << ", got " << status->code << ": "
           << status->message;
  }
  return testing::AssertionSuccess();
}

phal_plugin_negotiation_t Negotiation(uint32_t core_min, uint32_t core_max,
                                      const phal_host_services_t* host) {
  phal_plugin_negotiation_t negotiation{};
  negotiation.struct_size = sizeof(negotiation);
  negotiation.core_min_version = core_min;
  negotiation.core_max_version = core_max;
  negotiation.host = host;
  return negotiation;
}

void LoadedPlugin::SetUp() {
  char pattern[] = "/tmp/phal-cpu-cache-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  cache_directory_ = pattern;
  ASSERT_EQ(setenv("PHAL_CACHE_DIR", pattern, 1), 0);
  int mode = RTLD_NOW | RTLD_LOCAL;
#if defined(__SANITIZE_ADDRESS__)
  // As the core's loader does under AddressSanitizer: an unmapped plugin's
  // thread-local storage trips LeakSanitizer's thread scan at exit.
  mode |= RTLD_NODELETE;
#endif
  library_ = dlopen(PHAL_CPU_PLUGIN_PATH, mode);
  ASSERT_NE(library_, nullptr) << dlerror();
  entry_ = reinterpret_cast<phal_plugin_entry_fn>(
      dlsym(library_, PHAL_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(entry_, nullptr) << dlerror();
  phal_plugin_negotiation_t negotiation = Negotiation(kAbi10, kAbi12, &kHost);
  api_ = entry_(&negotiation);
  ASSERT_NE(api_, nullptr);
}

void LoadedPlugin::TearDown() {
  if (api_ != nullptr) api_->shutdown();
  if (library_ != nullptr) dlclose(library_);
  std::error_code ignored;
  if (!cache_directory_.empty()) {
    std::filesystem::remove_all(cache_directory_, ignored);
  }
}

void CpuPluginTest::SetUp() {
  ASSERT_TRUE(IsOk(api().device_open(0, &device_)));
  properties_.struct_size = sizeof(properties_);
  ASSERT_TRUE(IsOk(api().device_get_properties(device_, &properties_)));
}

void CpuPluginTest::TearDown() {
  // Streams first: destroying one drains it, and the core frees buffers
  // only once no queued work uses them.
  for (phal_plugin_stream_t* stream : streams_) api().stream_destroy(stream);
  for (phal_plugin_event_t* event : events_) api().event_destroy(event);
  for (phal_plugin_buffer_t* buffer : buffers_) api().buffer_free(buffer);
  if (device_ != nullptr) api().device_close(device_);
}

phal_plugin_buffer_t* CpuPluginTest::Allocate(uint64_t byte_size) {
  phal_plugin_buffer_t* buffer = nullptr;
  EXPECT_TRUE(IsOk(api().buffer_allocate(device_, 0, byte_size, &buffer)));
  if (buffer != nullptr) buffers_.push_back(buffer);
  return buffer;
}

phal_plugin_stream_t* CpuPluginTest::CreateStream() {
  phal_plugin_stream_t* stream = nullptr;
  EXPECT_TRUE(IsOk(api().stream_create(device_, &stream)));
  if (stream != nullptr) streams_.push_back(stream);
  return stream;
}

phal_plugin_event_t* CpuPluginTest::CreateEvent() {
  phal_plugin_event_t* event = nullptr;
  EXPECT_TRUE(IsOk(api().event_create(device_, &event)));
  if (event != nullptr) events_.push_back(event);
  return event;
}

void CpuPluginTest::QueueBusyWork(phal_plugin_stream_t* stream) {
  constexpr uint64_t kBusyBytes = 128 * kMiB;
  if (busy_source_ == nullptr) {
    busy_source_ = Allocate(kBusyBytes);
    busy_destination_ = Allocate(kBusyBytes);
  }
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(IsOk(api().stream_copy_buffer(
        stream, busy_source_, 0, busy_destination_, 0, kBusyBytes)));
  }
}

int CpuPluginTest::Query(phal_plugin_event_t* event) {
  int done = -1;
  EXPECT_TRUE(IsOk(api().event_query(event, &done)));
  return done;
}

void KernelTest::TearDown() {
  for (phal_plugin_kernel_t* kernel : kernels_) api().kernel_destroy(kernel);
  CpuPluginTest::TearDown();
}

phal_plugin_kernel_t* KernelTest::Emit(const phal_kernel_desc_t& desc) {
  phal_plugin_kernel_t* kernel = nullptr;
  EXPECT_TRUE(IsOk(api().kernel_emit(device_, &desc, nullptr, &kernel)));
  if (kernel != nullptr) kernels_.push_back(kernel);
  return kernel;
}

void KernelTest::Run(phal_plugin_kernel_t* kernel,
                     std::vector<std::vector<uint8_t>>& contents) {
  ASSERT_NE(kernel, nullptr);
  phal_plugin_stream_t* stream = CreateStream();
  std::vector<phal_plugin_buffer_t*> buffers;
  for (std::vector<uint8_t>& bytes : contents) {
    phal_plugin_buffer_t* buffer = Allocate(bytes.size());
    ASSERT_NE(buffer, nullptr);
    ASSERT_TRUE(IsOk(api().stream_copy_from_host(stream, bytes.data(), buffer,
                                                 0, bytes.size())));
    buffers.push_back(buffer);
  }
  ASSERT_TRUE(IsOk(api().stream_launch(stream, kernel, buffers.data(),
                                       static_cast<uint32_t>(buffers.size()))));
  for (size_t i = 0; i < contents.size(); ++i) {
    ASSERT_TRUE(IsOk(api().stream_copy_to_host(
        stream, buffers[i], 0, contents[i].data(), contents[i].size())));
  }
  ASSERT_TRUE(IsOk(api().stream_synchronize(stream)));
}

}  // namespace phal::cpu::testing_support
