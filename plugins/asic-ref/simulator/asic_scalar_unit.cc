// The scalar unit: registers, arithmetic, branches, SRAM loads and stores,
// fences and halt.
#include "simulator/asic_execution.h"

#include <cstring>
#include <limits>

namespace phal::asic_ref::simulation {

Status Execution::Scalar(const Instruction& in, uint64_t* next, bool* halt) {
  const uint64_t a = x_[in.ra];
  const uint64_t b = x_[in.rb];
  const auto sa = static_cast<int64_t>(a);
  const auto sb = static_cast<int64_t>(b);
  const auto imm = static_cast<uint64_t>(in.imm);
  uint64_t result = 0;
  bool writes = true;
  uint64_t cycles = 1;
  counters_.instructions[static_cast<int>(Unit::kScalar)] += 1;
  switch (in.op) {
    case Opcode::kHalt:
    case Opcode::kFence:
      scalar_time_ = Drained();
      *halt = in.op == Opcode::kHalt;
      writes = false;
      break;
    case Opcode::kLi:
      result = imm;
      break;
    case Opcode::kAdd:
      result = a + b;
      break;
    case Opcode::kAddi:
      result = a + imm;
      break;
    case Opcode::kSub:
      result = a - b;
      break;
    case Opcode::kMul:
      result = a * b;
      break;
    case Opcode::kMuli:
      result = a * imm;
      break;
    case Opcode::kDiv:
    case Opcode::kRem: {
      if (b == 0) return InvalidArgument("division by zero");
      const bool overflow =
          sa == std::numeric_limits<int64_t>::min() && sb == -1;
      if (in.op == Opcode::kDiv) {
        result = overflow ? a : static_cast<uint64_t>(sa / sb);
      } else {
        result = overflow ? 0 : static_cast<uint64_t>(sa % sb);
      }
      break;
    }
    case Opcode::kMin:
      result = static_cast<uint64_t>(std::min(sa, sb));
      break;
    case Opcode::kMax:
      result = static_cast<uint64_t>(std::max(sa, sb));
      break;
    case Opcode::kAnd:
      result = a & b;
      break;
    case Opcode::kOr:
      result = a | b;
      break;
    case Opcode::kXor:
      result = a ^ b;
      break;
    case Opcode::kShli:
      result = a << (imm & 63);
      break;
    case Opcode::kShri:
      result = a >> (imm & 63);
      break;
    case Opcode::kSlt:
      result = sa < sb ? 1 : 0;
      break;
    case Opcode::kLd:
    case Opcode::kLde:
    case Opcode::kSt:
    case Opcode::kSte: {
      const bool element = in.op == Opcode::kLde || in.op == Opcode::kSte;
      const bool store = in.op == Opcode::kSt || in.op == Opcode::kSte;
      const uint64_t size = element ? SizeOf(in.type) : 8;
      const uint64_t address = a + imm;
      if (address % size != 0) {
        return InvalidArgument("SRAM address " + std::to_string(address) +
                               " is not aligned to " + std::to_string(size) +
                               " bytes");
      }
      PHAL_RETURN_IF_ERROR(CheckSram(address, size, "scalar access"));
      ScalarAccess(address, size, store);
      if (store) {
        std::memcpy(sram_ + address, &b, size);
        MarkWritten(address + size);
        writes = false;
        break;
      }
      uint64_t bits = 0;
      std::memcpy(&bits, sram_ + address, size);
      if (element && IsSigned(in.type) && size < 8) {
        const int shift = static_cast<int>(64 - 8 * size);
        bits =
            static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift);
      }
      result = bits;
      break;
    }
    case Opcode::kBeq:
    case Opcode::kBne:
    case Opcode::kBlt:
    case Opcode::kBge:
    case Opcode::kJmp: {
      writes = false;
      bool taken = true;
      if (in.op == Opcode::kBeq) taken = a == b;
      if (in.op == Opcode::kBne) taken = a != b;
      if (in.op == Opcode::kBlt) taken = sa < sb;
      if (in.op == Opcode::kBge) taken = sa >= sb;
      if (taken) {
        *next = static_cast<uint64_t>(in.imm);
        cycles += 2;
      }
      break;
    }
    default:
      return InvalidArgument("not a scalar instruction");
  }
  if (writes) x_[in.rd] = result;
  x_[0] = 0;
  scalar_time_ += cycles;
  counters_.busy[static_cast<int>(Unit::kScalar)] += cycles;
  return OkStatus();
}

}  // namespace phal::asic_ref::simulation
