// Programs compiled in this process, kept for the next compile of the same
// text: compiling a module again (a framework retracing a function, a
// second client, a test suite compiling one module per case) skips the
// parse and the compiler's passes and goes straight to the plugin's kernel
// emission, whose own caches then find every kernel.
//
// A program depends only on its source text, its format, its source name
// and the compiler's options. Of the device it depends only on what those
// options take from it (whether it runs FFT kernels), so one entry serves
// every device of every client that compiles with the same options. Compiling
// is deterministic, so a hit gives the program a fresh compile would have
// given. Compiles that dump (PHAL_DUMP, phal_compile_options_t::dump_directory)
// bypass the cache, so that their files are written.
//
// Entries are kept in order of use and the one used longest ago is dropped
// once there are more than kMaxEntries or their source text and constants
// together exceed kMaxBytes; a program larger than kMaxBytes alone is not
// kept.
#ifndef POLYHAL_CORE_RUNTIME_PROGRAM_CACHE_H_
#define POLYHAL_CORE_RUNTIME_PROGRAM_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/compiler/compiler.h"
#include "core/compiler/program.h"
#include "polyhal/runtime.h"

namespace phal {

// Thread-safe.
class ProgramCache {
 public:
  static constexpr std::size_t kMaxEntries = 64;
  static constexpr uint64_t kMaxBytes = uint64_t{256} << 20;

  // The process's cache.
  static ProgramCache& Global();

  // Everything that decides the program compiled from `text`.
  static std::string Key(std::string_view text, phal_program_format_t format,
                         std::string_view source_name,
                         const CompilerOptions& options);

  // The program compiled under `key`, or null.
  std::shared_ptr<const Program> Find(const std::string& key);
  // Keeps `program` under `key` (a program already kept under it stays).
  void Store(const std::string& key, std::shared_ptr<const Program> program);

  // Entries kept now, for tests.
  std::size_t size() const;
  // Drops every entry, for tests.
  void Clear();

 private:
  struct Entry {
    std::string key;
    std::shared_ptr<const Program> program;
    uint64_t bytes = 0;
  };
  // Drops entries used longest ago until both limits hold.
  void Evict();

  mutable std::mutex mutex_;
  // Most recently used first.
  std::list<Entry> entries_;
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
  uint64_t bytes_ = 0;
};

}  // namespace phal

#endif  // POLYHAL_CORE_RUNTIME_PROGRAM_CACHE_H_
