#include "core/loader/handle_registry.h"

#include <algorithm>

namespace phal {
namespace {

std::vector<HandleRecord> InCreationOrder(std::vector<HandleRecord> records) {
  std::sort(records.begin(), records.end(),
            [](const HandleRecord& a, const HandleRecord& b) {
              return a.serial < b.serial;
            });
  return records;
}

}  // namespace

const char* HandleKindName(HandleKind kind) {
  switch (kind) {
    case HandleKind::kDevice:
      return "device";
    case HandleKind::kBuffer:
      return "buffer";
    case HandleKind::kStream:
      return "stream";
    case HandleKind::kEvent:
      return "event";
    case HandleKind::kKernel:
      return "kernel";
    case HandleKind::kCommunicator:
      return "communicator";
  }
  return "handle";
}

std::optional<HandleRecord> HandleRegistry::Add(const void* handle,
                                                HandleRecord record) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = records_.find(handle);
  if (it != records_.end()) return it->second;
  record.serial = next_serial_++;
  record.handle = handle;
  if (record.kind == HandleKind::kDevice) record.device = handle;
  records_.emplace(handle, std::move(record));
  return std::nullopt;
}

std::optional<HandleRecord> HandleRegistry::Find(const void* handle) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = records_.find(handle);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

void HandleRegistry::Remove(const void* handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  records_.erase(handle);
}

std::vector<HandleRecord> HandleRegistry::LiveOn(const void* device) const {
  std::vector<HandleRecord> live;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [handle, record] : records_) {
      if (record.device == device && handle != device) live.push_back(record);
    }
  }
  return InCreationOrder(std::move(live));
}

std::vector<HandleRecord> HandleRegistry::Live() const {
  std::vector<HandleRecord> live;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& entry : records_) live.push_back(entry.second);
  }
  return InCreationOrder(std::move(live));
}

std::string HandleRegistry::Describe(const HandleRecord& record) {
  return std::string(HandleKindName(record.kind)) + " #" +
         std::to_string(record.serial) + " created by " + record.origin;
}

}  // namespace phal
