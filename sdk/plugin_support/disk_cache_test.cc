// The disk cache: where it lives, what it keeps, and what it never shows.
#include "sdk/plugin_support/disk_cache.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_testing/fake_host.h"

namespace phal {
namespace {

namespace fs = std::filesystem;

// Sets environment variables for one test and restores them after.
class ScopedEnvironment {
 public:
  void Set(const char* name, const char* value) {
    const char* old = std::getenv(name);
    saved_.push_back({name, old != nullptr, old != nullptr ? old : ""});
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnvironment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->was_set) {
        setenv(it->name, it->value.c_str(), 1);
      } else {
        unsetenv(it->name);
      }
    }
  }

 private:
  struct Saved {
    const char* name;
    bool was_set;
    std::string value;
  };
  std::vector<Saved> saved_;
};

class DiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern =
        (fs::temp_directory_path() / "phal-disk-cache-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    ASSERT_TRUE(InstallHostServices(&plugin_testing::FakeHost(), "cache"));
    plugin_testing::ClearRecordedLogLines();
  }
  void TearDown() override {
    UninstallHostServices();
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }

  // Rewrites the file of `key`'s entry with `change` applied to its bytes.
  template <typename Change>
  static void Damage(const DiskCache& cache, uint64_t key,
                     const Change& change) {
    std::string bytes;
    {
      std::ifstream file(cache.PathFor(key), std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(file), {});
    }
    change(bytes);
    std::ofstream(cache.PathFor(key), std::ios::binary | std::ios::trunc)
        << bytes;
  }

  DiskCache Cache(uint64_t max_bytes = uint64_t{1} << 30) const {
    return DiskCache({(root_ / "plugin").string(), max_bytes});
  }

  // Entry files, temporaries excluded.
  static std::vector<std::string> Entries(const DiskCache& cache) {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(cache.directory(), error)) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with(".bin")) names.push_back(name);
    }
    return names;
  }

  // Marks `key`'s entry as last used `age` ago.
  static void Age(const DiskCache& cache, uint64_t key,
                  std::chrono::seconds age) {
    fs::last_write_time(cache.PathFor(key),
                        fs::file_time_type::clock::now() - age);
  }

  fs::path root_;
};

TEST_F(DiskCacheTest, StoredBytesComeBackUnderTheirKey) {
  const DiskCache cache = Cache();
  EXPECT_FALSE(cache.Load(1).has_value());
  const std::string bytes("binary\0with zeros", 17);
  cache.Store(1, bytes);
  cache.Store(2, "other");
  EXPECT_EQ(cache.Load(1), bytes);
  EXPECT_EQ(cache.Load(2), "other");
  EXPECT_FALSE(cache.Load(3).has_value());
}

TEST_F(DiskCacheTest, StoreReplacesAnEntry) {
  const DiskCache cache = Cache();
  cache.Store(7, "stale");
  cache.Store(7, "fresh");
  EXPECT_EQ(cache.Load(7), "fresh");
  EXPECT_EQ(Entries(cache).size(), 1u);
}

TEST_F(DiskCacheTest, WritesLeaveNoTemporaryFilesBehind) {
  const DiskCache cache = Cache();
  for (uint64_t key = 0; key < 8; ++key) cache.Store(key, "entry");
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(cache.directory())) {
    EXPECT_TRUE(entry.path().filename().string().ends_with(".bin"))
        << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 8u);
}

TEST_F(DiskCacheTest, ReadersNeverSeeHalfAnEntry) {
  const DiskCache cache = Cache();
  const std::string a(1 << 20, 'a');
  const std::string b(1 << 20, 'b');
  cache.Store(5, a);
  std::atomic<bool> done{false};
  std::atomic<int> torn{0};
  std::thread reader([&] {
    while (!done.load()) {
      const std::optional<std::string> bytes = cache.Load(5);
      if (!bytes.has_value() || (*bytes != a && *bytes != b)) ++torn;
    }
  });
  for (int i = 0; i < 50; ++i) cache.Store(5, i % 2 == 0 ? b : a);
  done = true;
  reader.join();
  EXPECT_EQ(torn.load(), 0);
}

TEST_F(DiskCacheTest, EvictsTheEntriesUsedLongestAgoToFitTheLimit) {
  const DiskCache cache = Cache(/*max_bytes=*/400);
  const std::string hundred(100, 'x');
  for (uint64_t key = 1; key <= 4; ++key) cache.Store(key, hundred);
  Age(cache, 1, std::chrono::seconds(40));
  Age(cache, 2, std::chrono::seconds(30));
  Age(cache, 3, std::chrono::seconds(20));
  Age(cache, 4, std::chrono::seconds(10));
  ASSERT_TRUE(cache.Load(1).has_value());  // 1 is now the most recent use
  // 500 bytes: the entries used longest ago go until three quarters of
  // the limit are left.
  cache.Store(5, hundred);
  EXPECT_TRUE(cache.Load(1).has_value());
  EXPECT_FALSE(cache.Load(2).has_value()) << "2 was used longest ago";
  EXPECT_FALSE(cache.Load(3).has_value()) << "3 was used next longest ago";
  EXPECT_TRUE(cache.Load(4).has_value());
  EXPECT_TRUE(cache.Load(5).has_value());
  // A quarter of the limit is free again: the next store evicts nothing.
  cache.Store(6, hundred);
  EXPECT_TRUE(cache.Load(4).has_value());
  EXPECT_TRUE(cache.Load(6).has_value());
}

TEST_F(DiskCacheTest, AnEntryLargerThanTheLimitIsNotStored) {
  const DiskCache cache = Cache(/*max_bytes=*/10);
  cache.Store(1, std::string(11, 'x'));
  EXPECT_FALSE(cache.Load(1).has_value());
}

TEST_F(DiskCacheTest, AnUnwritableDirectoryOnlyMakesLookupsMiss) {
  const fs::path file = root_ / "not-a-directory";
  std::ofstream(file) << "x";
  const DiskCache cache({(file / "plugin").string(), 1 << 20});
  cache.Store(1, "bytes");
  EXPECT_FALSE(cache.Load(1).has_value());
}

TEST_F(DiskCacheTest, AnUnwritableDirectoryIsReportedOnceAsAWarning) {
  const fs::path file = root_ / "not-a-directory";
  std::ofstream(file) << "x";
  const DiskCache cache({(file / "plugin").string(), 1 << 20});
  cache.Store(1, "bytes");
  cache.Store(2, "bytes");
  size_t failures = 0;
  size_t warnings = 0;
  for (const std::string& line : plugin_testing::RecordedLogLines()) {
    if (line.find("cannot create " + (file / "plugin").string()) ==
        std::string::npos) {
      continue;
    }
    ++failures;
    if (line.find("compiles still succeed") != std::string::npos) ++warnings;
  }
  EXPECT_EQ(failures, 2u);
  EXPECT_EQ(warnings, 1u) << "the first failure is explained, later ones not";
}

// A full disk, as a file size limit makes one: writes past the limit fail
// with EFBIG. In a child process, so that the limit binds nothing else.
TEST_F(DiskCacheTest, AFullDiskMakesStoresVanishWithoutAHalfEntry) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const DiskCache cache = Cache();
  cache.Store(1, "small entry, stored before the disk fills");
  auto fill_disk_and_store = [&] {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) std::_Exit(2);
    cache.Store(2, std::string(64 << 10, 'x'));
    const bool missed = !cache.Load(2).has_value();
    const bool kept = cache.Load(1).has_value();
    bool temporaries = false;
    for (const auto& entry : fs::directory_iterator(cache.directory())) {
      temporaries = temporaries || !entry.path().string().ends_with(".bin");
    }
    const bool warned = plugin_testing::LogsContain("File too large");
    std::error_code ignored;
    fs::remove_all(root_, ignored);
    std::_Exit(missed && kept && !temporaries && warned ? 0 : 1);
  };
  EXPECT_EXIT(fill_disk_and_store(), ::testing::ExitedWithCode(0), "");
}

TEST_F(DiskCacheTest, ATruncatedEntryIsRemovedAndReadAsAMiss) {
  const DiskCache cache = Cache();
  cache.Store(1, std::string(1000, 'k'));
  Damage(cache, 1, [](std::string& bytes) { bytes.resize(bytes.size() / 2); });
  EXPECT_FALSE(cache.Load(1).has_value());
  EXPECT_FALSE(fs::exists(cache.PathFor(1)));
  EXPECT_TRUE(plugin_testing::LogsContain("damaged entry " + cache.PathFor(1)));
  cache.Store(1, std::string(1000, 'k'));
  EXPECT_EQ(cache.Load(1), std::string(1000, 'k'));
}

TEST_F(DiskCacheTest, AChangedByteIsCaughtByTheHash) {
  const DiskCache cache = Cache();
  cache.Store(1, std::string(1000, 'k'));
  Damage(cache, 1, [](std::string& bytes) { bytes[bytes.size() - 10] ^= 1; });
  EXPECT_FALSE(cache.Load(1).has_value());
  EXPECT_TRUE(plugin_testing::LogsContain("do not match the header's hash"));
}

TEST_F(DiskCacheTest, AFileWithoutTheHeaderIsRemovedQuietly) {
  const DiskCache cache = Cache();
  cache.Store(1, "x");
  std::ofstream(cache.PathFor(2), std::ios::binary) << "an older entry";
  std::ofstream(cache.PathFor(3), std::ios::binary) << "";
  EXPECT_FALSE(cache.Load(2).has_value());
  EXPECT_FALSE(cache.Load(3).has_value());
  EXPECT_FALSE(fs::exists(cache.PathFor(2)));
  EXPECT_FALSE(plugin_testing::LogsContain("damaged"))
      << "an entry of an older release is no damage";
  EXPECT_EQ(cache.Load(1), "x");
}

TEST_F(DiskCacheTest, DisabledCacheKeepsNothing) {
  const DiskCache cache({"", 1 << 20});
  EXPECT_FALSE(cache.enabled());
  cache.Store(1, "bytes");
  EXPECT_FALSE(cache.Load(1).has_value());
}

TEST(DiskCacheConfigTest, PhalCacheDirHoldsOneDirectoryPerPlugin) {
  ScopedEnvironment environment;
  environment.Set("PHAL_CACHE_DIR", "/var/cache/phal");
  environment.Set("PHAL_CACHE_MAX_BYTES", nullptr);
  const DiskCacheConfig config = DiskCacheConfigFromEnvironment("cpu");
  EXPECT_EQ(config.directory, "/var/cache/phal/cpu");
  EXPECT_EQ(config.max_bytes, uint64_t{1} << 30);
}

TEST(DiskCacheConfigTest, OffDisablesTheCache) {
  ScopedEnvironment environment;
  environment.Set("PHAL_CACHE_DIR", "off");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("cpu").directory, "");
}

TEST(DiskCacheConfigTest, FallsBackToXdgCacheHomeThenHome) {
  ScopedEnvironment environment;
  environment.Set("PHAL_CACHE_DIR", nullptr);
  environment.Set("XDG_CACHE_HOME", "/xdg");
  environment.Set("HOME", "/home/user");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("intel").directory,
            "/xdg/polyhal/intel");
  environment.Set("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(DiskCacheConfigFromEnvironment("intel").directory,
            "/home/user/.cache/polyhal/intel");
}

TEST(DiskCacheConfigTest, MaxBytesTakesBinarySuffixes) {
  ScopedEnvironment environment;
  environment.Set("PHAL_CACHE_MAX_BYTES", "4096");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("cpu").max_bytes, 4096u);
  environment.Set("PHAL_CACHE_MAX_BYTES", "64M");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("cpu").max_bytes, 64u << 20);
  environment.Set("PHAL_CACHE_MAX_BYTES", "2G");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("cpu").max_bytes, uint64_t{2} << 30);
  environment.Set("PHAL_CACHE_MAX_BYTES", "lots");
  EXPECT_EQ(DiskCacheConfigFromEnvironment("cpu").max_bytes, uint64_t{1} << 30)
      << "an unreadable limit keeps the default";
}

}  // namespace
}  // namespace phal
