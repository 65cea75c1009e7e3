#include "simulator/asic_simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

#include "isa/asic_assembler.h"
#include "polyhal/kernel.h"
#include "sdk/base/element_types.h"
#include "sdk/element_semantics/element_traits.h"
#include "sdk/element_semantics/integer_functions.h"
#include "sdk/element_semantics/real_functions.h"
#include "sdk/kir_interpreter/scalar_ops.h"

namespace phal::asic_ref {
namespace {

namespace es = ::phal::element_semantics;
using ::phal::kir_interpreter::ScalarOp;
using ::phal::kir_interpreter::ScalarOpArgs;

constexpr uint64_t kGranuleShift = 6;  // the scoreboard's 64-byte granules
constexpr uint64_t kVectorLatency = 8;

// -- Reductions along a tile

using ReduceFn = void (*)(const uint8_t* a, uint8_t* d, int64_t n);

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

uint32_t SizeOf(phal_element_type_t type) {
  return static_cast<uint32_t>(ElementTypeByteSize(type));
}

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

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// An SRAM byte range an instruction reads or writes.
struct Access {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool write = false;
};

// Copies `count` elements of kSize bytes between strided arrays.
template <size_t kSize>
void CopyStrided(uint8_t* dst, int64_t dst_stride, const uint8_t* src,
                 int64_t src_stride, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    std::memcpy(dst + i * dst_stride, src + i * src_stride, kSize);
  }
}

void CopyElements(size_t size, uint8_t* dst, int64_t dst_stride,
                  const uint8_t* src, int64_t src_stride, int64_t count) {
  switch (size) {
    case 1:
      return CopyStrided<1>(dst, dst_stride, src, src_stride, count);
    case 2:
      return CopyStrided<2>(dst, dst_stride, src, src_stride, count);
    case 4:
      return CopyStrided<4>(dst, dst_stride, src, src_stride, count);
    default:
      return CopyStrided<8>(dst, dst_stride, src, src_stride, count);
  }
}

float LoadAsFloat(phal_element_type_t type, const uint8_t* p) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_BF16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return BFloat16ToFloat(bits);
    }
    case PHAL_ELEMENT_TYPE_F16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return HalfToFloat(bits);
    }
    default: {
      float value;
      std::memcpy(&value, p, 4);
      return value;
    }
  }
}

void ToFloats(phal_element_type_t type, const uint8_t* src, int64_t count,
              float* out) {
  const int64_t size = static_cast<int64_t>(SizeOf(type));
  if (type == PHAL_ELEMENT_TYPE_F32) {
    std::memcpy(out, src, static_cast<size_t>(count) * 4);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    out[i] = LoadAsFloat(type, src + i * size);
}

// acc[m x n] += a[m x k] * b[k x n]: for each output, the products in k
// order, each added with one rounding (a fused multiply-add). The loop runs
// along n, so independent outputs may share a vector instruction.
template <typename Fma>
inline void MatMulFloatLoop(const float* a, const float* b, float* acc,
                            int64_t m, int64_t k, int64_t n, Fma fma) {
  for (int64_t i = 0; i < m; ++i) {
    float* __restrict row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const float a_ik = a[i * k + kk];
      const float* __restrict b_row = b + kk * n;
      for (int64_t j = 0; j < n; ++j) row[j] = fma(a_ik, b_row[j], row[j]);
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same loop with eight outputs per AVX2 fused multiply-add, for
// processors that have them (the build's baseline target may not); each
// lane rounds exactly as the scalar fma does.
__attribute__((target("avx2,fma"))) void MatMulFloatFma(const float* a,
                                                        const float* b,
                                                        float* acc, int64_t m,
                                                        int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    float* row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const float a_ik = a[i * k + kk];
      const __m256 a_lanes = _mm256_set1_ps(a_ik);
      const float* b_row = b + kk * n;
      int64_t j = 0;
      for (; j + 8 <= n; j += 8) {
        const __m256 sum = _mm256_fmadd_ps(a_lanes, _mm256_loadu_ps(b_row + j),
                                           _mm256_loadu_ps(row + j));
        _mm256_storeu_ps(row + j, sum);
      }
      for (; j < n; ++j) row[j] = __builtin_fmaf(a_ik, b_row[j], row[j]);
    }
  }
}
#endif

void MatMulFloat(const float* a, const float* b, float* acc, int64_t m,
                 int64_t k, int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool kHasFma =
      __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
  if (kHasFma) return MatMulFloatFma(a, b, acc, m, k, n);
#endif
  MatMulFloatLoop(a, b, acc, m, k, n,
                  [](float x, float y, float z) { return std::fma(x, y, z); });
}

// The accumulator never overlaps the inputs (it is scratch memory).
inline void MatMulS8Loop(const int8_t* a, const int8_t* b, uint32_t* acc,
                         int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    uint32_t* __restrict row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t a_ik = a[i * k + kk];
      const int8_t* __restrict b_row = b + kk * n;
      for (int64_t j = 0; j < n; ++j) {
        row[j] += static_cast<uint32_t>(a_ik * static_cast<int32_t>(b_row[j]));
      }
    }
  }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Eight outputs per AVX2 instruction; 32-bit lanes wrap as the scalar loop's
// unsigned arithmetic does.
__attribute__((target("avx2"))) void MatMulS8Avx2(const int8_t* a,
                                                  const int8_t* b,
                                                  uint32_t* acc, int64_t m,
                                                  int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    uint32_t* row = acc + i * n;
    for (int64_t kk = 0; kk < k; ++kk) {
      const int32_t a_ik = a[i * k + kk];
      const __m256i a_lanes = _mm256_set1_epi32(a_ik);
      const int8_t* b_row = b + kk * n;
      int64_t j = 0;
      for (; j + 8 <= n; j += 8) {
        int64_t eight;
        std::memcpy(&eight, b_row + j, 8);
        const __m256i b_lanes = _mm256_cvtepi8_epi32(_mm_cvtsi64_si128(eight));
        __m256i* out = reinterpret_cast<__m256i*>(row + j);
        _mm256_storeu_si256(
            out, _mm256_add_epi32(_mm256_loadu_si256(out),
                                  _mm256_mullo_epi32(a_lanes, b_lanes)));
      }
      for (; j < n; ++j) {
        row[j] += static_cast<uint32_t>(a_ik * static_cast<int32_t>(b_row[j]));
      }
    }
  }
}
#endif

// acc[m x n] += a[m x k] * b[k x n] in s32 arithmetic that wraps.
void MatMulS8(const int8_t* a, const int8_t* b, uint32_t* acc, int64_t m,
              int64_t k, int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  static const bool kHasAvx2 = __builtin_cpu_supports("avx2");
  if (kHasAvx2) return MatMulS8Avx2(a, b, acc, m, k, n);
#endif
  MatMulS8Loop(a, b, acc, m, k, n);
}

}  // namespace

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
}

// -- The machine

namespace {

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

Status Execution::MatMul(const Instruction& in) {
  uint64_t m = 0, k = 0, n = 0;
  PHAL_RETURN_IF_ERROR(Count(in.rm, "m", &m));
  PHAL_RETURN_IF_ERROR(Count(in.rk, "k", &k));
  PHAL_RETURN_IF_ERROR(Count(in.rn, "n", &n));
  const uint64_t limit = config_.sram_bytes;
  if (m > limit || k > limit || n > limit || (m * k) > limit ||
      (k * n) > limit || (m * n) > limit) {
    return OutOfRange("tile " + std::to_string(m) + "x" + std::to_string(k) +
                      "x" + std::to_string(n) + " exceeds SRAM");
  }
  const uint64_t base = x_[in.rb];
  const uint64_t d = base + in.offset[0];
  const uint64_t a = base + in.offset[1];
  const uint64_t b = base + in.offset[2];
  const uint64_t a_bytes = m * k * SizeOf(in.type);
  const uint64_t b_bytes = k * n * SizeOf(in.type2);
  const uint64_t d_bytes = m * n * 4;
  PHAL_RETURN_IF_ERROR(CheckSram(d, d_bytes, "accumulator"));
  PHAL_RETURN_IF_ERROR(CheckSram(a, a_bytes, "lhs"));
  PHAL_RETURN_IF_ERROR(CheckSram(b, b_bytes, "rhs"));
  const bool zero = (in.flags & kMatMulZeroFlag) != 0;
  Access accesses[4] = {{a, a + a_bytes, false},
                        {b, b + b_bytes, false},
                        {d, d + d_bytes, true},
                        {d, zero ? d : d + d_bytes, false}};
  if (d_bytes > 0) {
    uint8_t* acc = s_.Scratch(0, d_bytes);
    if (zero) {
      std::memset(acc, 0, d_bytes);
    } else {
      std::memcpy(acc, sram_ + d, d_bytes);
    }
    const auto mi = static_cast<int64_t>(m), ki = static_cast<int64_t>(k),
               ni = static_cast<int64_t>(n);
    if (in.type == PHAL_ELEMENT_TYPE_S8) {
      MatMulS8(reinterpret_cast<const int8_t*>(sram_ + a),
               reinterpret_cast<const int8_t*>(sram_ + b),
               reinterpret_cast<uint32_t*>(acc), mi, ki, ni);
    } else {
      auto* fa = reinterpret_cast<float*>(s_.Scratch(1, m * k * 4));
      auto* fb = reinterpret_cast<float*>(s_.Scratch(2, k * n * 4));
      ToFloats(in.type, sram_ + a, mi * ki, fa);
      ToFloats(in.type2, sram_ + b, ki * ni, fb);
      MatMulFloat(fa, fb, reinterpret_cast<float*>(acc), mi, ki, ni);
    }
    std::memcpy(sram_ + d, acc, d_bytes);
    MarkWritten(d + d_bytes);
  }
  counters_.macs += m * k * n;
  const uint64_t array = config_.array_size;
  const uint64_t cost =
      array + CeilDiv(k, array) * CeilDiv(n, array) * (m + array);
  Issue(Unit::kMatrix, cost, accesses, 4);
  return OkStatus();
}

Status Execution::DmaBox(const Instruction& in) {
  const bool load = in.op == Opcode::kDmaLoad;
  const DmaDescriptor& desc = program_.descriptors[in.descriptor];
  const uint64_t size = SizeOf(in.type);
  std::array<uint64_t, 3> counts{};
  const uint8_t regs[3] = {in.r0, in.r1, in.r2};
  for (int i = 0; i < 3; ++i) {
    if (regs[i] == 0) {
      counts[i] = 1;
    } else {
      PHAL_RETURN_IF_ERROR(Count(regs[i], "box count", &counts[i]));
      if (counts[i] > (uint64_t{1} << 40)) {
        return OutOfRange("box count " + std::to_string(counts[i]) +
                          " is too large");
      }
    }
  }
  const uint64_t sram_base = x_[in.rb] + in.offset[0];
  const uint64_t dram_base = x_[in.rm];
  using Wide = __int128;
  const Wide elements = Wide{counts[0]} * counts[1] * counts[2];
  // The box's extent in elements relative to its base, in DRAM and SRAM.
  Wide dram_low = 0, dram_high = 0, sram_low = 0, sram_high = 0;
  struct Dim {
    int64_t count;
    int64_t dram;  // strides in bytes
    int64_t sram;
  };
  Dim dims[3];
  int dim_count = 0;
  for (int i = 0; i < 3 && elements > 0; ++i) {
    const Wide last = Wide{counts[i]} - 1;
    const Wide dram_span = last * desc.dram_strides[i];
    const Wide sram_span = last * desc.sram_strides[i];
    dram_low += std::min<Wide>(0, dram_span);
    dram_high += std::max<Wide>(0, dram_span);
    sram_low += std::min<Wide>(0, sram_span);
    sram_high += std::max<Wide>(0, sram_span);
    if (counts[i] > 1) {
      dims[dim_count++] = {static_cast<int64_t>(counts[i]),
                           desc.dram_strides[i] * static_cast<int64_t>(size),
                           desc.sram_strides[i] * static_cast<int64_t>(size)};
    }
  }
  const Wide wide_size = size;
  const Wide sram_begin = Wide{sram_base} + sram_low * wide_size;
  const Wide sram_end = Wide{sram_base} + (sram_high + 1) * wide_size;
  const Wide dram_begin = Wide{dram_base} + dram_low * wide_size;
  const Wide dram_end = Wide{dram_base} + (dram_high + 1) * wide_size;
  Access access{0, 0, load};
  uint64_t dram_span[2] = {0, 0};  // the DRAM bytes the box spans
  uint64_t rows = 0;
  const uint64_t bytes = static_cast<uint64_t>(elements) * size;
  if (elements * wide_size > Wide{config_.dram_bytes}) {
    return OutOfRange("the box moves more bytes than DRAM holds (" +
                      std::to_string(config_.dram_bytes) + ")");
  }
  if (elements > 0) {
    if (sram_begin < 0 || sram_end > Wide{config_.sram_bytes}) {
      return OutOfRange("the box covers SRAM bytes outside [0, " +
                        std::to_string(config_.sram_bytes) + ")");
    }
    if (dram_begin < 0 ||
        dram_end > Wide{std::numeric_limits<uint64_t>::max()}) {
      return OutOfRange("the box's DRAM addresses wrap around");
    }
    access = {static_cast<uint64_t>(sram_begin),
              static_cast<uint64_t>(sram_end), load};
    // Merge the innermost dimensions that are contiguous on both sides.
    int64_t run = static_cast<int64_t>(size);
    while (dim_count > 0 && dims[dim_count - 1].dram == run &&
           dims[dim_count - 1].sram == run) {
      run *= dims[dim_count - 1].count;
      --dim_count;
    }
    rows = bytes / static_cast<uint64_t>(run);
    const auto dram_first = static_cast<uint64_t>(dram_begin);
    const uint64_t dram_bytes = static_cast<uint64_t>(dram_end - dram_begin);
    dram_span[0] = dram_first;
    dram_span[1] = dram_first + dram_bytes;
    uint8_t* mapped = dram_.Map(dram_first, dram_bytes);
    // The element loop runs along the innermost remaining dimension when
    // the box is not contiguous there.
    const bool strided_inner =
        run == static_cast<int64_t>(size) && dim_count > 0;
    const int outer = strided_inner ? dim_count - 1 : dim_count;
    int64_t index[3] = {0, 0, 0};
    for (;;) {
      int64_t dram_off = static_cast<int64_t>(dram_base - dram_first);
      int64_t sram_off = 0;
      for (int i = 0; i < outer; ++i) {
        dram_off += index[i] * dims[i].dram;
        sram_off += index[i] * dims[i].sram;
      }
      uint8_t* sram_at = sram_ + sram_base + sram_off;
      const int64_t inner_count = strided_inner ? dims[dim_count - 1].count : 1;
      const int64_t inner_dram = strided_inner ? dims[dim_count - 1].dram : 0;
      const int64_t inner_sram = strided_inner ? dims[dim_count - 1].sram : 0;
      if (mapped != nullptr) {
        uint8_t* dram_at = mapped + dram_off;
        if (strided_inner) {
          if (load) {
            CopyElements(size, sram_at, inner_sram, dram_at, inner_dram,
                         inner_count);
          } else {
            CopyElements(size, dram_at, inner_dram, sram_at, inner_sram,
                         inner_count);
          }
        } else if (load) {
          std::memcpy(sram_at, dram_at, static_cast<size_t>(run));
        } else {
          std::memcpy(dram_at, sram_at, static_cast<size_t>(run));
        }
      } else {
        for (int64_t e = 0; e < inner_count; ++e) {
          const uint64_t address = dram_first +
                                   static_cast<uint64_t>(dram_off) +
                                   static_cast<uint64_t>(e * inner_dram);
          const uint64_t length =
              strided_inner ? size : static_cast<uint64_t>(run);
          uint8_t* dram_at = dram_.Map(address, length);
          if (dram_at == nullptr) {
            return OutOfRange("DRAM [" + std::to_string(address) + ", +" +
                              std::to_string(length) +
                              ") is outside allocated memory");
          }
          uint8_t* s = sram_at + e * inner_sram;
          if (load) {
            std::memcpy(s, dram_at, length);
          } else {
            std::memcpy(dram_at, s, length);
          }
        }
      }
      int i = outer - 1;
      while (i >= 0 && ++index[i] == dims[i].count) {
        index[i] = 0;
        --i;
      }
      if (i < 0) break;
    }
    if (load) MarkWritten(access.end);
  }
  if (load) {
    counters_.dram_bytes_read += bytes;
  } else {
    counters_.dram_bytes_written += bytes;
  }
  const uint64_t cost =
      config_.dma_latency_cycles +
      std::max(CeilDiv(bytes, config_.dma_bytes_per_cycle), rows);
  const Interval when =
      Issue(load ? Unit::kDmaIn : Unit::kDmaOut, cost, &access, 1);
  return CheckDramOrder(dram_span[0], dram_span[1], !load, when);
}

Status Execution::DmaIndirect(const Instruction& in) {
  const bool gather = in.op == Opcode::kDmaGather;
  const uint64_t size = SizeOf(in.type);
  uint64_t count = 1;
  if (in.r0 != 0) PHAL_RETURN_IF_ERROR(Count(in.r0, "count", &count));
  if (count > config_.sram_bytes) {
    return OutOfRange("count " + std::to_string(count) + " exceeds SRAM");
  }
  const uint64_t data = x_[in.rb] + in.offset[0];
  const uint64_t list = x_[in.rb] + in.offset[1];
  PHAL_RETURN_IF_ERROR(CheckSram(data, count * size, "data"));
  PHAL_RETURN_IF_ERROR(CheckSram(list, count * 8, "offset list"));
  const Access accesses[2] = {{data, data + count * size, gather},
                              {list, list + count * 8, false}};
  const uint64_t dram_base = x_[in.rm];
  const uint8_t* offsets = sram_ + list;
  // One mapping for the span of every addressed element, when it maps.
  int64_t lowest = std::numeric_limits<int64_t>::max(), highest = -1;
  for (uint64_t i = 0; i < count; ++i) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (off < 0) continue;
    lowest = std::min(lowest, off);
    highest = std::max(highest, off);
  }
  uint8_t* mapped = nullptr;
  uint64_t dram_span[2] = {0, 0};  // the DRAM bytes the elements span
  using Wide = __int128;
  if (highest >= 0) {
    const Wide begin = Wide{dram_base} + Wide{lowest} * size;
    const Wide end = Wide{dram_base} + (Wide{highest} + 1) * size;
    if (end <= Wide{std::numeric_limits<uint64_t>::max()}) {
      dram_span[0] = static_cast<uint64_t>(begin);
      dram_span[1] = static_cast<uint64_t>(end);
      mapped = dram_.Map(dram_span[0], dram_span[1] - dram_span[0]);
    }
  }
  uint64_t moved = 0;
  uint8_t* element = sram_ + data;
  for (uint64_t i = 0; i < count; ++i, element += size) {
    int64_t off;
    std::memcpy(&off, offsets + 8 * i, 8);
    if (off < 0) {
      if (gather) std::memset(element, 0, size);
      continue;
    }
    uint8_t* at;
    if (mapped != nullptr) {
      at = mapped + static_cast<uint64_t>(off - lowest) * size;
    } else {
      const Wide address = Wide{dram_base} + Wide{off} * size;
      at = address + size > Wide{std::numeric_limits<uint64_t>::max()}
               ? nullptr
               : dram_.Map(static_cast<uint64_t>(address), size);
      if (at == nullptr) {
        return OutOfRange("element " + std::to_string(i) + " (offset " +
                          std::to_string(off) +
                          ") addresses DRAM outside allocated memory");
      }
    }
    if (gather) {
      std::memcpy(element, at, size);
    } else {
      std::memcpy(at, element, size);
    }
    ++moved;
  }
  if (gather) {
    MarkWritten(data + count * size);
    counters_.dram_bytes_read += moved * size;
  } else {
    counters_.dram_bytes_written += moved * size;
  }
  const uint64_t cost =
      config_.dma_latency_cycles +
      std::max(CeilDiv(count * size, config_.dma_bytes_per_cycle), count);
  const Interval when =
      Issue(gather ? Unit::kDmaIn : Unit::kDmaOut, cost, accesses, 2);
  return CheckDramOrder(dram_span[0], dram_span[1], !gather, when);
}

}  // namespace

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
