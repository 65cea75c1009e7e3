// The device's performance counters (plugin.h, device_get_counters, ABI
// 1.5): what the simulator counted over every kernel run since the device
// was opened or its counters reset, in total and per kernel name.
//
// Names, per scope (the device's totals, and each kernel's):
//   launches                count   kernel runs
//   cycles                  cycles  start of a run to its last unit idle,
//                                   summed over runs (runs are sequential)
//   busy.<unit>             cycles  cycles the unit worked (scalar, vector,
//                                   matrix, dma_in, dma_out)
//   utilization.<unit>      ratio   busy.<unit> / cycles
//   instructions.<unit>     count   instructions the unit executed
//   efficiency.matrix       ratio   macs / (cycles * array_size^2): the
//                                   share of the array's peak used
//   macs                    count   matrix-unit multiply-adds
//   vector.elements         count   elements the vector unit produced
//   dram.bytes_read         bytes   DMA from DRAM
//   dram.bytes_written      bytes   DMA to DRAM
//   link.bytes_sent         bytes   to other chips over the interconnect
//   link.bytes_received     bytes   from other chips over the interconnect
//
// A collective (ABI 1.8) counts as a run of the kernel named after its
// kind ("all-reduce", "all-gather", ...): its cycles are the interconnect's
// (asic_ref_collectives.cc), its bytes the link counters.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_COUNTERS_H_
#define POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_COUNTERS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "isa/asic_isa.h"
#include "simulator/asic_simulator.h"

namespace phal::asic_ref {

// One counter with its strings owned.
struct NamedCounter {
  std::string name;
  std::string kernel;  // "" for the device's totals
  const char* unit;    // static
  double value;
};

// Thread-safe.
class DeviceCounters {
 public:
  // `config` decides the matrix unit's peak (efficiency.matrix).
  explicit DeviceCounters(const ArchConfig& config) : config_(config) {}

  // Counts one finished run of kernel `kernel`.
  void Add(const std::string& kernel, const KernelCounters& run);
  // Zero totals, and no kernel counted.
  void Reset();
  // Every counter: the totals first, then each kernel's in name order.
  std::vector<NamedCounter> Snapshot() const;

 private:
  struct Sums {
    KernelCounters counters;
    uint64_t launches = 0;
  };
  void AppendSums(const std::string& kernel, const Sums& sums,
                  std::vector<NamedCounter>& out) const;

  const ArchConfig config_;
  mutable std::mutex mutex_;
  Sums totals_;
  std::map<std::string, Sums> kernels_;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ASIC_REF_COUNTERS_H_
