// The asic-ref simulator: runs a Program functionally (bit-exact to the ISA
// of isa/asic_isa.h) and counts cycles per unit with the timing model of
// docs/plugins/asic-ref.md ("Timing"):
//
//   scalar core  1 cycle per instruction, 2 more for a taken branch; issuing
//                to a unit whose queue holds queue_depth instructions that
//                have not started stalls it until the oldest starts; a
//                scalar load (ld, lde) waits for the SRAM it reads.
//   vector unit  8 cycles of latency + ceil(n * lanes_per_element /
//                vector_lanes) (lanes_per_element 1 for elements of 32 bits
//                or fewer, 2 for 64-bit), times 4 for divide, remainder and
//                the SFU primitives, times 2 for vperm.
//   matrix unit  array_size cycles of latency + ceil(k / A) * ceil(n / A) *
//                (m + A) cycles, A = array_size (the weights of each A x A
//                block load while the previous block's rows stream).
//   DMA          per channel: dma_latency_cycles + max(bytes /
//                dma_bytes_per_cycle, rows) for a box (rows: contiguous runs
//                of the box), + count cycles for a gather or scatter (one
//                DRAM transaction per element).
//
// An instruction starts at the latest of: when the scalar core issued it,
// when its unit finished the previous one, and when every earlier
// instruction it has an SRAM hazard with finished (the scoreboard, tracked
// on 64-byte granules). The kernel's cycle count is when the last unit
// finishes.
#ifndef POLYHAL_PLUGINS_ASIC_REF_SIMULATOR_ASIC_SIMULATOR_H_
#define POLYHAL_PLUGINS_ASIC_REF_SIMULATOR_ASIC_SIMULATOR_H_

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "isa/asic_isa.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// Device DRAM as the simulator sees it: device addresses mapped to host
// bytes. Map returns the host address of [address, address + bytes), or
// nullptr when any byte of it is outside allocated DRAM (the DMA then
// faults with OUT_OF_RANGE naming the instruction).
class DramView {
 public:
  virtual ~DramView() = default;
  virtual uint8_t* Map(uint64_t address, uint64_t bytes) = 0;
};

// What one run of a program did.
struct KernelCounters {
  uint64_t cycles = 0;                              // start to last unit idle
  std::array<uint64_t, kUnitCount> busy{};          // cycles each unit worked
  std::array<uint64_t, kUnitCount> instructions{};  // executed per unit
  uint64_t dram_bytes_read = 0;                     // DMA in
  uint64_t dram_bytes_written = 0;                  // DMA out
  uint64_t macs = 0;                 // matrix unit multiply-adds (m * k * n)
  uint64_t vector_elements = 0;      // elements the vector unit produced
  uint64_t link_bytes_sent = 0;      // over the interconnect (collectives)
  uint64_t link_bytes_received = 0;  // over the interconnect (collectives)

  // busy / cycles of `unit`, 0 when nothing ran.
  double Utilization(Unit unit) const;
  // macs / (cycles * array_size^2): how much of the array's peak was used.
  double MatrixUtilization(const ArchConfig& config) const;
  // Adds another run's counters (cycles add up: runs are sequential).
  void Accumulate(const KernelCounters& other);
};

class Simulator {
 public:
  explicit Simulator(const ArchConfig& config);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  const ArchConfig& config() const;

  // Runs `program` with the argument area holding `buffer_addresses`.
  // Faults (an SRAM or DRAM access out of range, division by zero in the
  // scalar core, an invalid instruction, more than `max_instructions`
  // scalar steps, a vperm index outside SRAM) end the run with a status
  // naming the program, the instruction index and its text. One Simulator
  // runs one program at a time (its SRAM is its own).
  StatusOr<KernelCounters> Run(const Program& program, DramView& dram,
                               std::span<const uint64_t> buffer_addresses,
                               uint64_t max_instructions = 1ull << 40);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_SIMULATOR_ASIC_SIMULATOR_H_
