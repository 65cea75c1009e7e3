#include "sdk/plugin_support/virtual_devices.h"

#include <charconv>
#include <cstdlib>
#include <mutex>
#include <set>
#include <system_error>

#include "sdk/base/hash.h"

namespace phal {

StatusOr<size_t> ParseVirtualDeviceCount(const char* text,
                                         size_t default_count) {
  if (text == nullptr) return default_count;
  const std::string_view digits(text);
  size_t count = 0;
  const auto [end, error] =
      std::from_chars(digits.data(), digits.data() + digits.size(), count);
  const bool whole_number = error == std::errc() && !digits.empty() &&
                            end == digits.data() + digits.size();
  if (whole_number && count >= 1 && count <= kMaxVirtualDevices) return count;
  return InvalidArgument(std::string(kVirtualDevicesVariable) + "=\"" +
                         std::string(digits) +
                         "\" is not a device count: it takes a whole number "
                         "from 1 to " +
                         std::to_string(kMaxVirtualDevices) +
                         ", or leave it unset for the plugin's default");
}

StatusOr<size_t> VirtualDeviceCount(size_t default_count) {
  return ParseVirtualDeviceCount(std::getenv(kVirtualDevicesVariable),
                                 default_count);
}

const char* StaticReason(const std::string& text) {
  static std::mutex mutex;
  static auto* reasons = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(mutex);
  return reasons->insert(text).first->c_str();
}

void CountVirtualDevices(size_t default_count, size_t* out_count,
                         const char** out_reason) {
  *out_count = 0;
  if (out_reason != nullptr) *out_reason = nullptr;
  StatusOr<size_t> count = VirtualDeviceCount(default_count);
  if (count.ok()) {
    *out_count = *count;
  } else if (out_reason != nullptr) {
    *out_reason = StaticReason(count.status().message());
  }
}

Status CheckVirtualDeviceOrdinal(std::string_view plugin, size_t ordinal,
                                 size_t default_count) {
  StatusOr<size_t> count = VirtualDeviceCount(default_count);
  if (!count.ok()) {
    return InvalidArgument(std::string(plugin) + ": device ordinal " +
                           std::to_string(ordinal) +
                           " does not exist; the plugin has no device: " +
                           count.status().message());
  }
  return CheckDeviceOrdinal(plugin, ordinal, *count);
}

std::array<uint8_t, 16> NameBasedUuid(std::string_view identity) {
  const uint64_t high = MixBits(Fnv1a(identity));
  const uint64_t low = MixBits(Fnv1a(identity, high));
  std::array<uint8_t, 16> uuid;
  for (int i = 0; i < 8; ++i) {
    uuid[i] = static_cast<uint8_t>(high >> (56 - 8 * i));
    uuid[8 + i] = static_cast<uint8_t>(low >> (56 - 8 * i));
  }
  uuid[6] = static_cast<uint8_t>((uuid[6] & 0x0f) | 0x80);  // version 8
  uuid[8] = static_cast<uint8_t>((uuid[8] & 0x3f) | 0x80);  // RFC variant
  return uuid;
}

std::array<uint8_t, 16> VirtualDeviceUuid(const std::array<uint8_t, 16>& base,
                                          size_t ordinal) {
  if (ordinal == 0) return base;
  std::string identity(base.begin(), base.end());
  identity += "\nvirtual device " + std::to_string(ordinal);
  return NameBasedUuid(identity);
}

std::string VirtualDeviceName(std::string_view name, size_t ordinal,
                              size_t count) {
  if (count == 1) return std::string(name);
  return std::string(name) + " (virtual device " + std::to_string(ordinal) +
         " of " + std::to_string(count) + ")";
}

}  // namespace phal
