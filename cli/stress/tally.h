// What the threads of `polyhal stress` count, and the first failures in
// full.
#ifndef POLYHAL_CLI_STRESS_TALLY_H_
#define POLYHAL_CLI_STRESS_TALLY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace phal::cli::stress {

// The mismatches and errors printed in full; the rest are counted.
constexpr size_t kReportedFailures = 10;

// What the threads count, and the first failures in full.
class Tally {
 public:
  explicit Tally(size_t devices) : executions_by_device_(devices) {}

  void Execution(size_t device) {
    executions_.fetch_add(1, std::memory_order_relaxed);
    executions_by_device_[device].fetch_add(1, std::memory_order_relaxed);
  }
  void Compile() { compiles_.fetch_add(1, std::memory_order_relaxed); }
  void Mismatch(const std::string& what) {
    mismatches_.fetch_add(1, std::memory_order_relaxed);
    Keep(what);
  }
  void Error(const std::string& what) {
    errors_.fetch_add(1, std::memory_order_relaxed);
    Keep(what);
  }

  int64_t executions() const { return executions_.load(); }
  int64_t executions(size_t device) const {
    return executions_by_device_[device].load();
  }
  int64_t compiles() const { return compiles_.load(); }
  int64_t mismatches() const { return mismatches_.load(); }
  int64_t errors() const { return errors_.load(); }
  std::vector<std::string> failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
  }

 private:
  void Keep(const std::string& what) {
    std::lock_guard lock(mutex_);
    if (failures_.size() < kReportedFailures) failures_.push_back(what);
  }

  std::atomic<int64_t> executions_{0};
  std::vector<std::atomic<int64_t>> executions_by_device_;
  std::atomic<int64_t> compiles_{0};
  std::atomic<int64_t> mismatches_{0};
  std::atomic<int64_t> errors_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> failures_;
};

}  // namespace phal::cli::stress

#endif  // POLYHAL_CLI_STRESS_TALLY_H_
