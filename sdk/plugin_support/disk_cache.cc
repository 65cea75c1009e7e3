#include "sdk/plugin_support/disk_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

#include "sdk/base/hash.h"
#include "sdk/base/log.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kEntrySuffix = ".bin";
constexpr std::string_view kTemporaryMarker = ".tmp";
// A temporary file this old belongs to a writer that died mid-store.
constexpr auto kAbandonedTemporaryAge = std::chrono::hours(1);

// Every entry file starts with this header: the magic, then the payload's
// size and its FNV-1a hash, each 8 bytes little-endian. A file cut short
// (a full disk, a crash of another writer's machine, a copy gone wrong) or
// changed afterwards fails the check and is never handed to the plugin.
constexpr std::string_view kEntryMagic = "PHALDC01";
constexpr size_t kHeaderBytes = kEntryMagic.size() + 2 * sizeof(uint64_t);

void LogDebug(const std::string& message) {
  Log(PHAL_LOG_LEVEL_DEBUG, ("disk cache: " + message).c_str());
}

void LogWarning(const std::string& message) {
  Log(PHAL_LOG_LEVEL_WARNING, ("disk cache: " + message).c_str());
}

void AppendUint64(uint64_t value, std::string* out) {
  for (int i = 0; i < 8; ++i) {
    out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

uint64_t ReadUint64(std::string_view bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  }
  return value;
}

std::string EntryHeader(std::string_view payload) {
  std::string header(kEntryMagic);
  AppendUint64(payload.size(), &header);
  AppendUint64(Fnv1a(payload), &header);
  return header;
}

// Whether `file` starts as every entry does. A file that does not was
// written by an older release of the cache (or is no entry at all).
bool HasEntryMagic(std::string_view file) {
  return file.substr(0, kEntryMagic.size()) == kEntryMagic;
}

// Why `file` (a whole entry file with the magic) is not a sound entry; ""
// when it is.
std::string EntryDamage(std::string_view file) {
  if (file.size() < kHeaderBytes) {
    return std::to_string(file.size()) + " bytes, shorter than the " +
           std::to_string(kHeaderBytes) + "-byte header";
  }
  const uint64_t size = ReadUint64(file.substr(kEntryMagic.size()));
  const std::string_view payload = file.substr(kHeaderBytes);
  if (size != payload.size()) {
    return "the header promises " + std::to_string(size) +
           " bytes and the file holds " + std::to_string(payload.size());
  }
  if (ReadUint64(file.substr(kEntryMagic.size() + 8)) != Fnv1a(payload)) {
    return "the bytes do not match the header's hash";
  }
  return "";
}

std::string ErrnoText() {
  return errno != 0 ? std::string(": ") + std::strerror(errno) : "";
}

std::string CacheRootFromEnvironment() {
  const std::string configured = GetEnv("PHAL_CACHE_DIR");
  if (!configured.empty()) return configured == "off" ? "" : configured;
  const std::string xdg = GetEnv("XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/polyhal";
  const std::string home = GetEnv("HOME");
  if (!home.empty()) return home + "/.cache/polyhal";
  return "";
}

// "1048576", "512K", "64M", "2G"; nullopt for anything else.
std::optional<uint64_t> ParseByteCount(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  const std::string_view suffix(end, text.data() + text.size() - end);
  unsigned shift = 0;
  if (suffix == "K") {
    shift = 10;
  } else if (suffix == "M") {
    shift = 20;
  } else if (suffix == "G") {
    shift = 30;
  } else if (!suffix.empty()) {
    return std::nullopt;
  }
  if (value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

bool IsEntry(const fs::path& path) {
  const std::string name = path.filename().string();
  return name.size() > kEntrySuffix.size() && name.ends_with(kEntrySuffix) &&
         name.find(kTemporaryMarker) == std::string::npos;
}

bool IsTemporary(const fs::path& path) {
  return path.filename().string().find(kTemporaryMarker) != std::string::npos;
}

struct EntryFile {
  fs::path path;
  uint64_t size;
  fs::file_time_type last_used;
};

}  // namespace

DiskCacheConfig DiskCacheConfigFromEnvironment(std::string_view plugin_name) {
  DiskCacheConfig config;
  const std::string root = CacheRootFromEnvironment();
  if (!root.empty()) config.directory = root + "/" + std::string(plugin_name);
  const std::string limit = GetEnv("PHAL_CACHE_MAX_BYTES");
  if (limit.empty()) return config;
  if (std::optional<uint64_t> bytes = ParseByteCount(limit)) {
    config.max_bytes = *bytes;
  } else {
    LogDebug("PHAL_CACHE_MAX_BYTES='" + limit +
             "' is not a byte count; keeping " +
             std::to_string(config.max_bytes));
  }
  return config;
}

DiskCache::DiskCache(DiskCacheConfig config) : config_(std::move(config)) {}

std::string DiskCache::PathFor(uint64_t key) const {
  char name[32];
  std::snprintf(name, sizeof(name), "%016llx",
                static_cast<unsigned long long>(key));
  return config_.directory + "/" + name + std::string(kEntrySuffix);
}

std::optional<std::string> DiskCache::Load(uint64_t key) const {
  if (!enabled()) return std::nullopt;
  const std::string path = PathFor(key);
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return std::nullopt;
  const std::streamoff size = file.tellg();
  std::string bytes(size > 0 ? static_cast<size_t>(size) : 0, '\0');
  file.seekg(0);
  file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (size < 0 || !file) {
    LogDebug("cannot read " + path);
    return std::nullopt;
  }
  std::error_code error;
  if (!HasEntryMagic(bytes)) {
    LogDebug("removes " + path + ", which is not an entry of this format");
    fs::remove(path, error);
    return std::nullopt;
  }
  if (const std::string damage = EntryDamage(bytes); !damage.empty()) {
    LogWarning("ignores and removes the damaged entry " + path + " (" + damage +
               "); the code is compiled again");
    fs::remove(path, error);
    return std::nullopt;
  }
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);
  return bytes.substr(kHeaderBytes);
}

void DiskCache::ReportStoreFailure(const std::string& message) const {
  if (store_failure_reported_.exchange(true)) {
    LogDebug(message);
    return;
  }
  LogWarning(message +
             "; compiled code is not cached, compiles still succeed "
             "(later failures are logged at debug level)");
}

void DiskCache::Store(uint64_t key, std::string_view bytes) const {
  if (!enabled()) return;
  if (bytes.size() > config_.max_bytes) {
    LogDebug("an entry of " + std::to_string(bytes.size()) +
             " bytes exceeds the limit of " +
             std::to_string(config_.max_bytes));
    return;
  }
  std::error_code error;
  fs::create_directories(config_.directory, error);
  if (error) {
    ReportStoreFailure("cannot create " + config_.directory + ": " +
                       error.message());
    return;
  }
  static std::atomic<uint64_t> next_temporary{0};
  const std::string path = PathFor(key);
  const std::string temporary =
      path + std::string(kTemporaryMarker) + std::to_string(::getpid()) + "-" +
      std::to_string(next_temporary.fetch_add(1, std::memory_order_relaxed));
  {
    const std::string header = EntryHeader(bytes);
    errno = 0;
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(header.data(), static_cast<std::streamsize>(header.size()));
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    file.close();
    if (!file) {
      ReportStoreFailure("cannot write " + temporary + ErrnoText());
      fs::remove(temporary, error);
      return;
    }
  }
  fs::rename(temporary, path, error);
  if (error) {
    ReportStoreFailure("cannot rename " + temporary + " to " + path + ": " +
                       error.message());
    fs::remove(temporary, error);
    return;
  }
  Evict(bytes.size());
}

void DiskCache::Evict(uint64_t stored_bytes) const {
  std::lock_guard lock(eviction_mutex_);
  estimated_bytes_ += stored_bytes;
  if (scanned_ && estimated_bytes_ <= config_.max_bytes) return;
  scanned_ = true;
  std::error_code error;
  std::vector<EntryFile> entries;
  uint64_t total = 0;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(config_.directory, error), end;
       !error && it != end; it.increment(error)) {
    const fs::path& path = it->path();
    std::error_code stat_error;
    const fs::file_time_type used = it->last_write_time(stat_error);
    if (stat_error) continue;
    if (IsTemporary(path) && now - used > kAbandonedTemporaryAge) {
      fs::remove(path, stat_error);
      continue;
    }
    if (!IsEntry(path)) continue;
    // The limit counts what the plugins stored, not the headers.
    const uint64_t size =
        std::max<uint64_t>(it->file_size(stat_error), kHeaderBytes) -
        kHeaderBytes;
    if (stat_error) continue;
    entries.push_back({path, size, used});
    total += size;
  }
  if (error) {
    LogDebug("cannot list " + config_.directory + ": " + error.message());
    return;
  }
  estimated_bytes_ = total;
  if (total <= config_.max_bytes) return;
  std::sort(entries.begin(), entries.end(),
            [](const EntryFile& a, const EntryFile& b) {
              return a.last_used < b.last_used;
            });
  // Down to three quarters of the limit, so that the next scan waits for a
  // quarter of it to be stored again instead of coming with the next store.
  const uint64_t target = config_.max_bytes / 4 * 3;
  for (const EntryFile& entry : entries) {
    if (total <= target) break;
    fs::remove(entry.path, error);
    if (error) {
      LogDebug("cannot evict " + entry.path.string() + ": " + error.message());
      continue;
    }
    total -= entry.size;
    estimated_bytes_ = total;
    LogDebug("evicted " + entry.path.string() + " (" +
             std::to_string(entry.size) + " bytes)");
  }
}

}  // namespace phal
