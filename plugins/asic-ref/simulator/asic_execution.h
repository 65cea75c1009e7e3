// One run of one program on the simulated chip: the state the machine keeps
// between runs, the scoreboard and the unit queues, and the instructions of
// each hardware unit, each unit in its own file (asic_scalar_unit.cc,
// asic_vector_unit.cc, asic_matrix_unit.cc, asic_dma_unit.cc). Internal to
// the simulator.
#ifndef PHAL_ASIC_REF_SIMULATOR_ASIC_EXECUTION_H_
#define PHAL_ASIC_REF_SIMULATOR_ASIC_EXECUTION_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "isa/asic_assembler.h"
#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/scalar_ops.h"
#include "simulator/asic_simulator.h"

namespace phal::asic_ref::simulation {

using ::phal::kir_interpreter::ScalarOp;

constexpr uint64_t kGranuleShift = 6;  // the scoreboard's 64-byte granules
constexpr uint64_t kVectorLatency = 8;

using ReduceFn = void (*)(const uint8_t* a, uint8_t* d, int64_t n);

// -- What each vector instruction computes, resolved before a run

struct VectorPlan {
  ScalarOp scalar_op = nullptr;
  ReduceFn reduce = nullptr;
  phal_kir_node_t node{};
  int source_count = 0;  // SRAM sources: [a], [b], [c]
  uint32_t result_size = 0;
  std::array<uint32_t, 3> source_sizes{};
  uint64_t lanes_per_element = 1;
  uint64_t cost_factor = 1;
};

// Resolves the computation of vector instruction `in` (validated).
StatusOr<VectorPlan> PlanVector(const Instruction& in);

inline uint32_t SizeOf(phal_element_type_t type) {
  return static_cast<uint32_t>(ElementTypeByteSize(type));
}

inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// An SRAM byte range an instruction reads or writes.
struct Access {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool write = false;
};

// -- The machine

// What persists between runs: the configuration, SRAM and reusable buffers.
struct MachineState {
  explicit MachineState(const ArchConfig& c)
      : config(c), sram(static_cast<uint8_t*>(std::calloc(c.sram_bytes, 1))) {}
  ~MachineState() { std::free(sram); }
  MachineState(const MachineState&) = delete;
  MachineState& operator=(const MachineState&) = delete;

  ArchConfig config;
  uint8_t* sram;
  uint64_t sram_dirty = 0;  // bytes [0, sram_dirty) may be non-zero

  // Reused across runs so that a run allocates only when it outgrows them.
  std::vector<VectorPlan> plans;
  std::vector<uint64_t> last_write;  // per granule: finish of its last writer
  std::vector<uint64_t> last_read;   // per granule: latest finish of a reader
  uint64_t granules_used = 0;
  std::array<std::vector<uint64_t>, 4> scratch;
  std::array<std::vector<uint64_t>, kUnitCount> queues;

  uint8_t* Scratch(int slot, uint64_t bytes) {
    std::vector<uint64_t>& s = scratch[slot];
    const uint64_t words = std::max<uint64_t>(1, CeilDiv(bytes, 8));
    if (s.size() < words) s.resize(words);
    return reinterpret_cast<uint8_t*>(s.data());
  }
};

// One run of one program.
class Execution {
 public:
  Execution(MachineState& state, const Program& program, DramView& dram,
            uint64_t max_instructions)
      : s_(state),
        config_(state.config),
        program_(program),
        dram_(dram),
        max_instructions_(max_instructions),
        sram_(state.sram) {}

  StatusOr<KernelCounters> Run(std::span<const uint64_t> buffer_addresses);

 private:
  // -- Faults
  Status Fault(phal_status_code_t code, uint64_t index,
               const std::string& message) const {
    std::string text = "asic-ref program '" + program_.name +
                       "': instruction " + std::to_string(index);
    if (index < program_.instructions.size()) {
      text += " (" + DisassembleInstruction(program_.instructions[index]) + ")";
    }
    return Status(code, text + ": " + message);
  }

  // -- SRAM
  Status CheckSram(uint64_t address, uint64_t bytes, const char* what) const {
    if (address <= config_.sram_bytes &&
        bytes <= config_.sram_bytes - address) {
      return OkStatus();
    }
    return OutOfRange(std::string(what) + " [" + std::to_string(address) +
                      ", +" + std::to_string(bytes) + ") is outside SRAM (" +
                      std::to_string(config_.sram_bytes) + " bytes)");
  }
  void MarkWritten(uint64_t end) {
    s_.sram_dirty = std::max(s_.sram_dirty, end);
  }
  // Register value as a count (non-negative).
  Status Count(uint8_t reg, const char* what, uint64_t* out) const {
    const auto value = static_cast<int64_t>(x_[reg]);
    if (value < 0) {
      return InvalidArgument(std::string(what) + " x" + std::to_string(reg) +
                             " is negative (" + std::to_string(value) + ")");
    }
    *out = static_cast<uint64_t>(value);
    return OkStatus();
  }

  // -- Timing
  void EnsureGranules(uint64_t end_granule) {
    if (end_granule <= s_.last_write.size()) return;
    const uint64_t size =
        std::max<uint64_t>(end_granule, 2 * s_.last_write.size());
    s_.last_write.resize(size, 0);
    s_.last_read.resize(size, 0);
  }
  // When every access of the instruction may start (the scoreboard).
  uint64_t HazardReady(const Access* accesses, int count) {
    uint64_t ready = 0;
    for (int i = 0; i < count; ++i) {
      const Access& a = accesses[i];
      if (a.end <= a.begin) continue;
      const uint64_t first = a.begin >> kGranuleShift;
      const uint64_t last = (a.end - 1) >> kGranuleShift;
      EnsureGranules(last + 1);
      s_.granules_used = std::max(s_.granules_used, last + 1);
      const uint64_t* writes = s_.last_write.data();
      const uint64_t* reads = s_.last_read.data();
      for (uint64_t g = first; g <= last; ++g) {
        ready = std::max(ready, writes[g]);
        if (a.write) ready = std::max(ready, reads[g]);
      }
    }
    return ready;
  }
  void RecordAccesses(const Access* accesses, int count, uint64_t finish) {
    for (int i = 0; i < count; ++i) {
      const Access& a = accesses[i];
      if (a.end <= a.begin) continue;
      const uint64_t first = a.begin >> kGranuleShift;
      const uint64_t last = (a.end - 1) >> kGranuleShift;
      uint64_t* times = a.write ? s_.last_write.data() : s_.last_read.data();
      for (uint64_t g = first; g <= last; ++g) {
        times[g] = std::max(times[g], finish);
      }
    }
  }
  // Issues a unit instruction that takes `cost` cycles and touches
  // `accesses`; returns when it starts and finishes.
  struct Interval {
    uint64_t start;
    uint64_t finish;
  };
  Interval Issue(Unit unit, uint64_t cost, const Access* accesses, int count) {
    const int u = static_cast<int>(unit);
    Ring& queue = rings_[u];
    while (queue.size > 0 && queue.Front() <= scalar_time_) queue.Pop();
    if (queue.size >= queue.capacity) {
      scalar_time_ = queue.Front();
      while (queue.size > 0 && queue.Front() <= scalar_time_) queue.Pop();
    }
    scalar_time_ += 1;
    counters_.busy[static_cast<int>(Unit::kScalar)] += 1;
    const uint64_t start =
        std::max({scalar_time_, unit_free_[u], HazardReady(accesses, count)});
    const uint64_t finish = start + cost;
    RecordAccesses(accesses, count, finish);
    unit_free_[u] = finish;
    queue.Push(start);
    counters_.busy[u] += cost;
    counters_.instructions[u] += 1;
    return {start, finish};
  }
  // DRAM is not tracked by the scoreboard: a DMA load of DRAM bytes that an
  // earlier DMA store may still be writing, or a DMA store of bytes an
  // earlier DMA load may still be reading, is a race the program must order
  // (a fence, or an SRAM dependence). Ranges are the transfers' DRAM spans.
  Status CheckDramOrder(uint64_t begin, uint64_t end, bool write,
                        Interval when) {
    if (end <= begin) return OkStatus();
    size_t kept = 0;
    for (const DramSpan& other : dram_spans_) {
      if (other.finish <= scalar_time_) continue;
      dram_spans_[kept++] = other;
      if (other.write == write || other.end <= begin || end <= other.begin ||
          other.finish <= when.start) {
        continue;
      }
      return FailedPrecondition(
          std::string("DRAM race: ") + (write ? "writes" : "reads") +
          " DRAM [" + std::to_string(begin) + ", " + std::to_string(end) +
          ") from cycle " + std::to_string(when.start) + " while instruction " +
          std::to_string(other.index) + " (" +
          DisassembleInstruction(program_.instructions[other.index]) +
          ") still " + (other.write ? "writes" : "reads") + " it until cycle " +
          std::to_string(other.finish) + "; order them with a fence");
    }
    dram_spans_.resize(kept);
    dram_spans_.push_back({begin, end, when.finish, pc_, write});
    return OkStatus();
  }
  // A scalar load (writes false) or store of the granule holding `address`.
  void ScalarAccess(uint64_t address, uint64_t bytes, bool write) {
    const Access access{address, address + bytes, write};
    const uint64_t start = std::max(scalar_time_, HazardReady(&access, 1));
    RecordAccesses(&access, 1, start + 1);
    scalar_time_ = start;
  }
  uint64_t Drained() const {
    uint64_t t = scalar_time_;
    for (uint64_t f : unit_free_) t = std::max(t, f);
    return t;
  }

  // -- Instructions
  Status Step(uint64_t pc, const Instruction& in, uint64_t* next, bool* halt);
  Status Scalar(const Instruction& in, uint64_t* next, bool* halt);
  Status Vector(const Instruction& in, const VectorPlan& plan);
  Status VectorOwn(const Instruction& in, const VectorPlan& plan, uint64_t n,
                   const uint64_t* addr, Access* accesses, int* access_count);
  Status MatMul(const Instruction& in);
  Status DmaBox(const Instruction& in);
  Status DmaIndirect(const Instruction& in);
  // The same whose DRAM side is the scratchpad aperture (kScratchpadAperture).
  Status DmaBoxOnChip(const Instruction& in,
                      const std::array<uint64_t, 3>& counts);
  Status DmaIndirectOnChip(const Instruction& in, uint64_t count);

  struct DramSpan {
    uint64_t begin;
    uint64_t end;
    uint64_t finish;
    uint64_t index;
    bool write;
  };

  struct Ring {
    std::vector<uint64_t>* storage = nullptr;
    uint64_t head = 0;
    uint64_t size = 0;
    uint64_t capacity = 0;
    uint64_t Front() const { return (*storage)[head]; }
    void Pop() {
      head = head + 1 == capacity ? 0 : head + 1;
      --size;
    }
    void Push(uint64_t value) {
      uint64_t at = head + size;
      if (at >= capacity) at -= capacity;
      (*storage)[at] = value;
      ++size;
    }
  };

  MachineState& s_;
  const ArchConfig& config_;
  const Program& program_;
  DramView& dram_;
  uint64_t max_instructions_;
  uint8_t* sram_;
  std::array<uint64_t, 32> x_{};
  uint64_t scalar_time_ = 0;
  std::array<uint64_t, kUnitCount> unit_free_{};
  std::array<Ring, kUnitCount> rings_{};
  KernelCounters counters_;
  uint64_t pc_ = 0;
  std::vector<DramSpan> dram_spans_;  // DMA transfers that may be in flight
};

}  // namespace phal::asic_ref::simulation

#endif  // PHAL_ASIC_REF_SIMULATOR_ASIC_EXECUTION_H_
