#include "core/loader/host_services.h"

#include <cstdlib>
#include <mutex>
#include <vector>

#include "core/abi/c_status.h"
#include "polyhal/runtime.h"

namespace phal {
namespace {

struct LogSinks {
  std::mutex mutex;
  std::vector<const Logger*> loggers;
};

LogSinks& Sinks() {
  static LogSinks* sinks = new LogSinks();  // never destroyed: plugins may
                                            // log during static teardown
  return *sinks;
}

void HostLog(phal_log_level_t level, const char* message) {
  std::string text = message ? message : "";
  LogSinks& sinks = Sinks();
  std::lock_guard<std::mutex> lock(sinks.mutex);
  if (sinks.loggers.empty()) {
    Logger fallback;
    fallback.Log(level, text);
    return;
  }
  for (const Logger* logger : sinks.loggers) logger->Log(level, text);
}

void* HostAllocate(size_t byte_size, size_t alignment) {
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if ((alignment & (alignment - 1)) != 0) return nullptr;
  void* pointer = nullptr;
  if (posix_memalign(&pointer, alignment, byte_size == 0 ? 1 : byte_size) !=
      0) {
    return nullptr;
  }
  return pointer;
}

void HostFree(void* pointer) { std::free(pointer); }

void HostStatusFree(phal_status_t* status) { phal_status_free(status); }

}  // namespace

const phal_host_services_t* HostServices() {
  static const phal_host_services_t services = {sizeof(phal_host_services_t),
                                                nullptr,
                                                HostStatusCreate,
                                                HostLog,
                                                HostAllocate,
                                                HostFree,
                                                HostStatusFree};
  return &services;
}

void RegisterPluginLogSink(const Logger* logger) {
  LogSinks& sinks = Sinks();
  std::lock_guard<std::mutex> lock(sinks.mutex);
  sinks.loggers.push_back(logger);
}

void UnregisterPluginLogSink(const Logger* logger) {
  LogSinks& sinks = Sinks();
  std::lock_guard<std::mutex> lock(sinks.mutex);
  std::erase(sinks.loggers, logger);
}

}  // namespace phal
