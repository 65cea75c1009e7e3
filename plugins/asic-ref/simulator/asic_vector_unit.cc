// The vector unit: elementwise operations through the KIR scalar ops,
// and the moves, fills, broadcasts, permutes and reductions it computes itself.
#include "simulator/asic_execution.h"

#include <cstring>
#include <limits>

#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/integer_functions.h"
#include "sdk/element_semantics/real_functions.h"

namespace phal::asic_ref::simulation {
namespace {

namespace es = ::phal::element_semantics;
using ::phal::kir_interpreter::ScalarOpArgs;

// -- Reductions along a tile

// d[0] = a[0] op a[1] op ... op a[n-1], each step rounded to the element type
// (stored and loaded again), as successive KIR binary ops compute it.
template <typename T, auto kFn>
void ReduceLoop(const uint8_t* a, uint8_t* d, int64_t n) {
  using Storage = typename T::Storage;
  Storage acc;
  std::memcpy(&acc, a, sizeof(Storage));
  for (int64_t i = 1; i < n; ++i) {
    Storage x;
    std::memcpy(&x, a + i * static_cast<int64_t>(sizeof(Storage)),
                sizeof(Storage));
    acc = T::Store(kFn(T::Load(acc), T::Load(x)));
  }
  std::memcpy(d, &acc, sizeof(Storage));
}

template <typename T>
ReduceFn SelectReduce(Opcode op) {
  if constexpr (es::kIsFloat<T>) {
    switch (op) {
      case Opcode::kVRedAdd:
        return &ReduceLoop<T, es::FloatAdd>;
      case Opcode::kVRedMax:
        return &ReduceLoop<T, es::FloatMaximum>;
      default:
        return &ReduceLoop<T, es::FloatMinimum>;
    }
  } else if constexpr (es::kIsPred<T>) {
    return op == Opcode::kVRedMin ? &ReduceLoop<T, es::PredAnd>
                                  : &ReduceLoop<T, es::PredOr>;
  } else if constexpr (es::kIsInteger<T>) {
    using I = typename T::Value;
    switch (op) {
      case Opcode::kVRedAdd:
        return &ReduceLoop<T, es::IntegerAdd<I>>;
      case Opcode::kVRedMax:
        return &ReduceLoop<T, es::IntegerMaximum<I>>;
      default:
        return &ReduceLoop<T, es::IntegerMinimum<I>>;
    }
  } else {
    return nullptr;
  }
}

bool MapKirOp(Opcode op, phal_kir_op_t* out) {
  static constexpr struct {
    Opcode op;
    phal_kir_op_t kir;
  } kMap[] = {
      {Opcode::kVAdd, PHAL_KIR_OP_ADD},
      {Opcode::kVSub, PHAL_KIR_OP_SUBTRACT},
      {Opcode::kVMul, PHAL_KIR_OP_MULTIPLY},
      {Opcode::kVDiv, PHAL_KIR_OP_DIVIDE},
      {Opcode::kVRem, PHAL_KIR_OP_REMAINDER},
      {Opcode::kVMax, PHAL_KIR_OP_MAXIMUM},
      {Opcode::kVMin, PHAL_KIR_OP_MINIMUM},
      {Opcode::kVAnd, PHAL_KIR_OP_AND},
      {Opcode::kVOr, PHAL_KIR_OP_OR},
      {Opcode::kVXor, PHAL_KIR_OP_XOR},
      {Opcode::kVShl, PHAL_KIR_OP_SHIFT_LEFT},
      {Opcode::kVShra, PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC},
      {Opcode::kVShrl, PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL},
      {Opcode::kVNeg, PHAL_KIR_OP_NEGATE},
      {Opcode::kVAbs, PHAL_KIR_OP_ABS},
      {Opcode::kVSign, PHAL_KIR_OP_SIGN},
      {Opcode::kVFloor, PHAL_KIR_OP_FLOOR},
      {Opcode::kVCeil, PHAL_KIR_OP_CEIL},
      {Opcode::kVRoundAfz, PHAL_KIR_OP_ROUND_NEAREST_AFZ},
      {Opcode::kVRoundEven, PHAL_KIR_OP_ROUND_NEAREST_EVEN},
      {Opcode::kVNot, PHAL_KIR_OP_NOT},
      {Opcode::kVPopcnt, PHAL_KIR_OP_POPCNT},
      {Opcode::kVClz, PHAL_KIR_OP_CLZ},
      {Opcode::kVIsFinite, PHAL_KIR_OP_IS_FINITE},
      {Opcode::kVCmp, PHAL_KIR_OP_COMPARE},
      {Opcode::kVSel, PHAL_KIR_OP_SELECT},
      {Opcode::kVClamp, PHAL_KIR_OP_CLAMP},
      {Opcode::kVCvt, PHAL_KIR_OP_CONVERT},
      {Opcode::kVBitcast, PHAL_KIR_OP_BITCAST_CONVERT},
      {Opcode::kVReducePrecision, PHAL_KIR_OP_REDUCE_PRECISION},
      {Opcode::kVExp, PHAL_KIR_OP_EXP},
      {Opcode::kVLog, PHAL_KIR_OP_LOG},
      {Opcode::kVSin, PHAL_KIR_OP_SIN},
      {Opcode::kVCos, PHAL_KIR_OP_COS},
      {Opcode::kVErf, PHAL_KIR_OP_ERF},
      {Opcode::kVSqrt, PHAL_KIR_OP_SQRT},
      {Opcode::kVRsqrt, PHAL_KIR_OP_RSQRT},
      {Opcode::kVPow, PHAL_KIR_OP_POWER},
      {Opcode::kVAtan2, PHAL_KIR_OP_ATAN2},
  };
  for (const auto& entry : kMap) {
    if (entry.op == op) {
      *out = entry.kir;
      return true;
    }
  }
  return false;
}

bool IsSfu(Opcode op) {
  return static_cast<uint8_t>(op) >= static_cast<uint8_t>(Opcode::kVExp) &&
         static_cast<uint8_t>(op) <= static_cast<uint8_t>(Opcode::kVAtan2);
}

}  // namespace

// Resolves the computation of vector instruction `in` (validated).
StatusOr<VectorPlan> PlanVector(const Instruction& in) {
  VectorPlan plan;
  const uint32_t size = SizeOf(in.type);
  plan.result_size = size;
  plan.lanes_per_element = size == 8 ? 2 : 1;
  if (in.op == Opcode::kVDiv || in.op == Opcode::kVRem || IsSfu(in.op)) {
    plan.cost_factor = 4;
  } else if (in.op == Opcode::kVPerm) {
    plan.cost_factor = 2;
  }
  switch (in.op) {
    case Opcode::kVMov:
    case Opcode::kVBcast:
      plan.source_count = 1;
      plan.source_sizes = {size, 0, 0};
      return plan;
    case Opcode::kVFill:
    case Opcode::kVIota:
      return plan;
    case Opcode::kVPerm:
      plan.source_count = 2;
      plan.source_sizes = {size, 8, 0};
      return plan;
    case Opcode::kVRedAdd:
    case Opcode::kVRedMax:
    case Opcode::kVRedMin:
      plan.source_count = 1;
      plan.source_sizes = {size, 0, 0};
      plan.reduce = es::DispatchElementType(in.type, [&](auto traits) {
        return SelectReduce<decltype(traits)>(in.op);
      });
      if (plan.reduce == nullptr) {
        return Unimplemented(std::string("no reduction over ") +
                             ElementTypeName(in.type));
      }
      return plan;
    default:
      break;
  }
  phal_kir_op_t kir_op;
  if (!MapKirOp(in.op, &kir_op)) {
    return InvalidArgument("not a vector operation");
  }
  if (IsSfu(in.op) && in.op != Opcode::kVPow && !IsFloat(in.type)) {
    return InvalidArgument(std::string("the SFU computes on floats, not ") +
                           ElementTypeName(in.type));
  }
  phal_kir_node_t& node = plan.node;
  node.op = kir_op;
  node.type = in.type;
  std::array<ElementType, 3> types{in.type, in.type, in.type};
  switch (OpcodeOperands(in.op)) {
    case Operands::kVUnary:
    case Operands::kVReducePrecision:
      plan.source_count = 1;
      break;
    case Operands::kVBinary:
      plan.source_count = 2;
      break;
    default:
      plan.source_count = 3;
      break;
  }
  if (in.op == Opcode::kVIsFinite || in.op == Opcode::kVCmp) {
    node.type = PHAL_ELEMENT_TYPE_PRED;
  }
  if (in.op == Opcode::kVCvt || in.op == Opcode::kVBitcast) {
    types[0] = in.type2;
  }
  if (in.op == Opcode::kVSel) types[0] = PHAL_ELEMENT_TYPE_PRED;
  if (in.op == Opcode::kVCmp) {
    node.attributes[0] = CompareDirection(in.flags);
    node.attributes[1] = CompareType(in.flags);
  }
  if (in.op == Opcode::kVReducePrecision) {
    node.attributes[0] = in.offset[2];
    node.attributes[1] = in.offset[3];
  }
  node.operand_count = static_cast<uint32_t>(plan.source_count);
  PHAL_ASSIGN_OR_RETURN(
      plan.scalar_op,
      kir_interpreter::SelectScalarOp(
          node, std::span<const ElementType>(
                    types.data(), static_cast<size_t>(plan.source_count))));
  plan.result_size = SizeOf(node.type);
  uint32_t widest = plan.result_size;
  for (int i = 0; i < plan.source_count; ++i) {
    plan.source_sizes[i] = SizeOf(types[i]);
    widest = std::max(widest, plan.source_sizes[i]);
  }
  plan.lanes_per_element = widest == 8 ? 2 : 1;
  return plan;
}

Status Execution::Vector(const Instruction& in, const VectorPlan& plan) {
  uint64_t n = 0;
  PHAL_RETURN_IF_ERROR(Count(in.rn, "element count", &n));
  if (n > config_.sram_bytes) {
    return OutOfRange("element count " + std::to_string(n) + " exceeds SRAM");
  }
  const uint64_t base = x_[in.rb];
  uint64_t addr[4];
  for (int i = 0; i < 4; ++i) addr[i] = base + in.offset[i];
  Access accesses[5];
  int access_count = 0;
  uint64_t produced = n;
  if (plan.scalar_op == nullptr) {
    PHAL_RETURN_IF_ERROR(VectorOwn(in, plan, n, addr, accesses, &access_count));
    if (plan.reduce != nullptr) produced = 1;
  } else {
    const uint64_t result_bytes = n * plan.result_size;
    PHAL_RETURN_IF_ERROR(CheckSram(addr[0], result_bytes, "destination"));
    accesses[access_count++] = {addr[0], addr[0] + result_bytes, true};
    ScalarOpArgs args;
    args.count = static_cast<int64_t>(n);
    args.node = &plan.node;
    uint8_t* dst = sram_ + addr[0];
    bool dst_in_scratch = addr[0] % plan.result_size != 0;
    for (int i = 0; i < plan.source_count; ++i) {
      const uint64_t size = plan.source_sizes[i];
      const uint64_t at = addr[i + 1];
      PHAL_RETURN_IF_ERROR(CheckSram(at, n * size, "source"));
      accesses[access_count++] = {at, at + n * size, false};
      const uint8_t* src = sram_ + at;
      if (at % size != 0) {
        uint8_t* copy = s_.Scratch(i + 1, n * size);
        std::memcpy(copy, src, n * size);
        src = copy;
      }
      args.operands[i] = src;
      const bool same = at == addr[0] && size == plan.result_size;
      const bool overlaps =
          at < addr[0] + result_bytes && addr[0] < at + n * size;
      if (overlaps && !same) dst_in_scratch = true;
    }
    if (in.op == Opcode::kVBitcast && n > 0) {
      std::memmove(dst, args.operands[0], result_bytes);
    } else if (n > 0) {
      args.result = dst_in_scratch ? s_.Scratch(0, result_bytes) : dst;
      plan.scalar_op(args);
      if (dst_in_scratch) std::memcpy(dst, args.result, result_bytes);
    }
    MarkWritten(addr[0] + result_bytes);
  }
  counters_.vector_elements += produced;
  const uint64_t cost =
      kVectorLatency + plan.cost_factor * CeilDiv(n * plan.lanes_per_element,
                                                  config_.vector_lanes);
  Issue(Unit::kVector, cost, accesses, access_count);
  return OkStatus();
}

// The vector operations the simulator computes itself: moves, fills,
// broadcasts, permutes and reductions.
Status Execution::VectorOwn(const Instruction& in, const VectorPlan& plan,
                            uint64_t n, const uint64_t* addr, Access* accesses,
                            int* access_count) {
  const uint64_t size = plan.result_size;
  const bool reduce = plan.reduce != nullptr;
  const uint64_t result_bytes = reduce ? (n > 0 ? size : 0) : n * size;
  if (reduce && n == 0) {
    return InvalidArgument("a reduction needs n >= 1");
  }
  PHAL_RETURN_IF_ERROR(CheckSram(addr[0], result_bytes, "destination"));
  uint8_t* dst = sram_ + addr[0];
  int count = 0;
  accesses[count++] = {addr[0], addr[0] + result_bytes, true};
  const uint64_t read_bytes =
      in.op == Opcode::kVBcast ? (n > 0 ? size : 0) : n * size;
  if (plan.source_count >= 1 && in.op != Opcode::kVPerm) {
    PHAL_RETURN_IF_ERROR(CheckSram(addr[1], read_bytes, "source"));
    accesses[count++] = {addr[1], addr[1] + read_bytes, false};
  }
  *access_count = count;
  MarkWritten(addr[0] + result_bytes);
  if (n == 0) return OkStatus();
  switch (in.op) {
    case Opcode::kVMov:
      std::memmove(dst, sram_ + addr[1], n * size);
      return OkStatus();
    case Opcode::kVFill:
    case Opcode::kVBcast: {
      uint8_t element[8];
      if (in.op == Opcode::kVFill) {
        std::memcpy(element, &x_[in.rx], 8);
        if (in.type == PHAL_ELEMENT_TYPE_PRED) element[0] &= 1;
      } else {
        std::memcpy(element, sram_ + addr[1], size);
      }
      for (uint64_t i = 0; i < n; ++i)
        std::memcpy(dst + i * size, element, size);
      return OkStatus();
    }
    case Opcode::kVIota: {
      const uint64_t start = x_[in.rx];
      if (size == 4) {
        for (uint64_t i = 0; i < n; ++i) {
          const auto value = static_cast<uint32_t>(start + i);
          std::memcpy(dst + 4 * i, &value, 4);
        }
      } else {
        for (uint64_t i = 0; i < n; ++i) {
          const uint64_t value = start + i;
          std::memcpy(dst + 8 * i, &value, 8);
        }
      }
      return OkStatus();
    }
    case Opcode::kVPerm: {
      PHAL_RETURN_IF_ERROR(CheckSram(addr[2], n * 8, "index list"));
      accesses[count++] = {addr[2], addr[2] + n * 8, false};
      const uint8_t* indices = sram_ + addr[2];
      // The result goes through scratch: [d] may overlap [a] or [b].
      uint8_t* out = s_.Scratch(0, n * size);
      uint64_t lowest = std::numeric_limits<uint64_t>::max(), highest = 0;
      for (uint64_t i = 0; i < n; ++i) {
        int64_t index;
        std::memcpy(&index, indices + 8 * i, 8);
        const uint64_t at = addr[1] + static_cast<uint64_t>(index) * size;
        if (index < -static_cast<int64_t>(config_.sram_bytes) ||
            index > static_cast<int64_t>(config_.sram_bytes) ||
            at > config_.sram_bytes || config_.sram_bytes - at < size) {
          return OutOfRange("vperm index " + std::to_string(index) +
                            " (element " + std::to_string(i) +
                            ") addresses outside SRAM");
        }
        lowest = std::min(lowest, at);
        highest = std::max(highest, at + size);
        std::memcpy(out + i * size, sram_ + at, size);
      }
      std::memcpy(dst, out, n * size);
      accesses[count++] = {lowest, highest, false};
      *access_count = count;
      return OkStatus();
    }
    default:
      plan.reduce(sram_ + addr[1], dst, static_cast<int64_t>(n));
      return OkStatus();
  }
}

}  // namespace phal::asic_ref::simulation
