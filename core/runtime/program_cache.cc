#include "core/runtime/program_cache.h"

#include <utility>

namespace phal {
namespace {

// What an entry holds beyond its key: the constants (the program's largest
// part for a module with weights in it), and 4 KiB for each kernel's KIR.
uint64_t ProgramBytes(const Program& program) {
  uint64_t bytes = sizeof(Program);
  for (const Literal& constant : program.constants) {
    bytes += constant.byte_size();
  }
  bytes += program.kernels.size() * 4096;
  return bytes;
}

}  // namespace

ProgramCache& ProgramCache::Global() {
  // Never destroyed: executables freed while the process exits may still
  // hold programs, and a cache destroyed first would leave them alone.
  static ProgramCache* const cache = new ProgramCache;
  return *cache;
}

std::string ProgramCache::Key(std::string_view text,
                              phal_program_format_t format,
                              std::string_view source_name,
                              const CompilerOptions& options) {
  std::string key = std::to_string(static_cast<int>(format));
  key += '\0';
  key += std::to_string(options.max_folded_elements);
  key += '\0';
  // A program with FFT kernels runs only on devices that take them.
  key += options.fft_kernels ? "fft-kernels" : "fft-decomposed";
  key += '\0';
  // So does one with LINALG kernels.
  key += options.linalg_kernels ? "linalg-kernels" : "linalg-expanded";
  key += '\0';
  // A program with offloaded parts runs only on devices that take them.
  key += options.offload_identity;
  key += '\0';
  key += source_name;
  key += '\0';
  key += text;
  return key;
}

std::shared_ptr<const Program> ProgramCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = index_.find(key);
  if (found == index_.end()) return nullptr;
  entries_.splice(entries_.begin(), entries_, found->second);
  return found->second->program;
}

void ProgramCache::Store(const std::string& key,
                         std::shared_ptr<const Program> program) {
  const uint64_t bytes = key.size() + ProgramBytes(*program);
  if (bytes > kMaxBytes) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (index_.count(key) != 0) return;
  entries_.push_front(Entry{key, std::move(program), bytes});
  index_.emplace(entries_.front().key, entries_.begin());
  bytes_ += bytes;
  Evict();
}

void ProgramCache::Evict() {
  while (entries_.size() > kMaxEntries || bytes_ > kMaxBytes) {
    const Entry& oldest = entries_.back();
    bytes_ -= oldest.bytes;
    index_.erase(oldest.key);
    entries_.pop_back();
  }
}

std::size_t ProgramCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return entries_.size();
}

void ProgramCache::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  index_.clear();
  entries_.clear();
  bytes_ = 0;
}

}  // namespace phal
