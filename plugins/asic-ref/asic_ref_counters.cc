#include "asic_ref_counters.h"

#include <utility>

namespace phal::asic_ref {

void DeviceCounters::Add(const std::string& kernel, const KernelCounters& run) {
  std::lock_guard<std::mutex> lock(mutex_);
  totals_.counters.Accumulate(run);
  ++totals_.launches;
  Sums& sums = kernels_[kernel];
  sums.counters.Accumulate(run);
  ++sums.launches;
}

void DeviceCounters::Reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  totals_ = Sums();
  kernels_.clear();
}

std::vector<NamedCounter> DeviceCounters::Snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<NamedCounter> out;
  AppendSums("", totals_, out);
  for (const auto& [kernel, sums] : kernels_) AppendSums(kernel, sums, out);
  return out;
}

void DeviceCounters::AppendSums(const std::string& kernel, const Sums& sums,
                                std::vector<NamedCounter>& out) const {
  const KernelCounters& c = sums.counters;
  auto add = [&](std::string name, const char* unit, double value) {
    out.push_back({std::move(name), kernel, unit, value});
  };
  add("launches", "count", static_cast<double>(sums.launches));
  add("cycles", "cycles", static_cast<double>(c.cycles));
  for (int i = 0; i < kUnitCount; ++i) {
    const Unit unit = static_cast<Unit>(i);
    const std::string name = UnitName(unit);
    add("busy." + name, "cycles", static_cast<double>(c.busy[i]));
    add("utilization." + name, "ratio", c.Utilization(unit));
    add("instructions." + name, "count",
        static_cast<double>(c.instructions[i]));
  }
  add("efficiency.matrix", "ratio", c.MatrixUtilization(config_));
  add("macs", "count", static_cast<double>(c.macs));
  add("vector.elements", "count", static_cast<double>(c.vector_elements));
  add("dram.bytes_read", "bytes", static_cast<double>(c.dram_bytes_read));
  add("dram.bytes_written", "bytes", static_cast<double>(c.dram_bytes_written));
  add("link.bytes_sent", "bytes", static_cast<double>(c.link_bytes_sent));
  add("link.bytes_received", "bytes",
      static_cast<double>(c.link_bytes_received));
}

}  // namespace phal::asic_ref
