#include "simulator/asic_simulator.h"

#include <cstring>
#include <memory>
#include <string>

#include "simulator/asic_execution.h"

namespace phal::asic_ref {

using simulation::Execution;
using simulation::MachineState;

// -- Counters

double KernelCounters::Utilization(Unit unit) const {
  if (cycles == 0) return 0.0;
  return static_cast<double>(busy[static_cast<int>(unit)]) /
         static_cast<double>(cycles);
}

double KernelCounters::MatrixUtilization(const ArchConfig& config) const {
  const double peak = static_cast<double>(cycles) *
                      static_cast<double>(config.array_size) *
                      static_cast<double>(config.array_size);
  return peak == 0.0 ? 0.0 : static_cast<double>(macs) / peak;
}

void KernelCounters::Accumulate(const KernelCounters& other) {
  cycles += other.cycles;
  for (int u = 0; u < kUnitCount; ++u) {
    busy[u] += other.busy[u];
    instructions[u] += other.instructions[u];
  }
  dram_bytes_read += other.dram_bytes_read;
  dram_bytes_written += other.dram_bytes_written;
  macs += other.macs;
  vector_elements += other.vector_elements;
  link_bytes_sent += other.link_bytes_sent;
  link_bytes_received += other.link_bytes_received;
}

namespace simulation {

StatusOr<KernelCounters> Execution::Run(
    std::span<const uint64_t> buffer_addresses) {
  const auto& instructions = program_.instructions;
  if (Status valid = ValidateProgram(program_); !valid.ok()) {
    return InvalidArgument("asic-ref program '" + program_.name +
                           "': " + valid.message());
  }
  s_.plans.assign(instructions.size(), VectorPlan{});
  for (size_t i = 0; i < instructions.size(); ++i) {
    if (OpcodeUnit(instructions[i].op) != Unit::kVector) continue;
    StatusOr<VectorPlan> plan = PlanVector(instructions[i]);
    if (!plan.ok()) {
      return Fault(plan.status().code(), i, plan.status().message());
    }
    s_.plans[i] = *plan;
  }
  if (buffer_addresses.size() * 8 > config_.sram_bytes) {
    return InvalidArgument("asic-ref program '" + program_.name +
                           "': " + std::to_string(buffer_addresses.size()) +
                           " buffer addresses do not fit in SRAM");
  }
  std::memset(sram_, 0, s_.sram_dirty);
  s_.sram_dirty = 0;
  std::fill(s_.last_write.begin(), s_.last_write.begin() + s_.granules_used, 0);
  std::fill(s_.last_read.begin(), s_.last_read.begin() + s_.granules_used, 0);
  s_.granules_used = 0;
  for (size_t i = 0; i < buffer_addresses.size(); ++i) {
    std::memcpy(sram_ + 8 * i, &buffer_addresses[i], 8);
  }
  MarkWritten(8 * buffer_addresses.size());
  for (int u = 0; u < kUnitCount; ++u) {
    s_.queues[u].resize(config_.queue_depth);
    rings_[u].storage = &s_.queues[u];
    rings_[u].capacity = config_.queue_depth;
  }

  uint64_t pc = 0;
  uint64_t steps = 0;
  for (;;) {
    if (pc >= instructions.size()) {
      return Fault(PHAL_INVALID_ARGUMENT, pc,
                   "execution ran past the last instruction without halt");
    }
    if (++steps > max_instructions_) {
      return Fault(PHAL_RESOURCE_EXHAUSTED, pc,
                   "more than " + std::to_string(max_instructions_) +
                       " instructions executed");
    }
    uint64_t next = pc + 1;
    bool halt = false;
    pc_ = pc;
    Status status = Step(pc, instructions[pc], &next, &halt);
    if (!status.ok()) return Fault(status.code(), pc, status.message());
    if (halt) break;
    pc = next;
  }
  counters_.cycles = Drained();
  return counters_;
}

Status Execution::Step(uint64_t pc, const Instruction& in, uint64_t* next,
                       bool* halt) {
  switch (OpcodeUnit(in.op)) {
    case Unit::kScalar:
      return Scalar(in, next, halt);
    case Unit::kVector:
      return Vector(in, s_.plans[pc]);
    case Unit::kMatrix:
      return MatMul(in);
    case Unit::kDmaIn:
    case Unit::kDmaOut:
      return in.op == Opcode::kDmaLoad || in.op == Opcode::kDmaStore
                 ? DmaBox(in)
                 : DmaIndirect(in);
  }
  return InvalidArgument("invalid instruction");
}

}  // namespace simulation

// -- Simulator

struct Simulator::State : MachineState {
  using MachineState::MachineState;
};

Simulator::Simulator(const ArchConfig& config)
    : state_(std::make_unique<State>(config)) {}

Simulator::~Simulator() = default;

const ArchConfig& Simulator::config() const { return state_->config; }

StatusOr<KernelCounters> Simulator::Run(
    const Program& program, DramView& dram,
    std::span<const uint64_t> buffer_addresses, uint64_t max_instructions) {
  if (state_->sram == nullptr) {
    return ResourceExhausted("asic-ref simulator: cannot allocate " +
                             std::to_string(state_->config.sram_bytes) +
                             " bytes of SRAM");
  }
  Execution execution(*state_, program, dram, max_instructions);
  return execution.Run(buffer_addresses);
}

}  // namespace phal::asic_ref
