// The asic-ref architecture and its instruction set (docs/plugins/asic-ref.md
// is the specification in prose; this header is the specification in code).
//
// The machine: device DRAM (separate from the host, addressed by 64-bit
// device addresses), an on-chip scratchpad SRAM of `sram_bytes`, and four
// units that a scalar control core drives:
//
//   scalar core  32 registers x0..x31 of 64 bits (x0 reads 0, writes are
//                dropped), loops and branches, loads and stores to SRAM.
//                It executes its own instructions in order and issues every
//                other instruction, in program order, to its unit's queue.
//   vector unit  memory-to-memory operations over SRAM: `n` elements of one
//                element type at [dst] computed from [a], [b], [c]; lanes of
//                32 bits (a 64-bit element takes two lanes); a special
//                function unit (SFU) for nine transcendental primitives.
//   matrix unit  a weight-stationary systolic array of array_size x
//                array_size processing elements: acc[m x n] (+)= a[m x k] x
//                b[k x n], all dense row-major tiles in SRAM, bf16/f16/f32
//                inputs with f32 accumulation, s8 inputs with s32.
//   DMA engine   two channels: `in` (DRAM to SRAM: dense boxes of up to
//                three dimensions described by strides, and gathers by an
//                offset list) and `out` (SRAM to DRAM: the same shapes, and
//                scatters).
//
// Ordering: every unit runs its queue in order; units run concurrently. The
// hardware tracks hazards between instructions on SRAM byte ranges (a
// scoreboard): an instruction starts only after every earlier instruction
// that writes bytes it reads or writes, or reads bytes it writes, has
// finished. So a program means what it says in program order, and overlap
// (double buffering) comes from giving the DMA of the next tile different
// SRAM than the compute of this one. DRAM is not tracked: a program orders
// a DMA store before a DMA load of the same DRAM through an SRAM dependence
// or a FENCE.
//
// Element semantics: every vector operation on an element type computes
// what the StableHLO op of the same name computes on that type (the KIR
// node semantics of polyhal/kernel.h), bit for bit; the SFU primitives
// return the exact function rounded once to the element type. Types: pred,
// s8..s64, u8..u64, f16, bf16, f32. f64, c64 and c128 do not exist on this
// machine.
#ifndef POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ISA_H_
#define POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ISA_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "polyhal/types.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

// The architecture's parameters: the device's properties and the compiler's
// and simulator's limits come from here (configurable per device).
struct ArchConfig {
  uint64_t sram_bytes = 4ull << 20;  // at most 1 << 30
  uint32_t array_size = 32;          // matrix unit: array_size^2 MACs/cycle
  uint32_t vector_lanes = 64;        // 32-bit lanes per cycle
  uint32_t clock_mhz = 1000;
  uint32_t dma_bytes_per_cycle = 64;  // per channel
  uint32_t dma_latency_cycles = 256;  // first byte of a transfer
  uint32_t queue_depth = 32;          // instructions a unit queue holds
  uint64_t dram_bytes = 16ull << 30;
  // The interconnect between the chips of one host (PHAL_VIRTUAL_DEVICES of
  // them): every two are joined by a link of their own, in each direction
  // (a fully connected topology), moving DRAM to DRAM. LinkTransferCycles
  // gives what a transfer costs, in the sending chip's cycles.
  uint32_t link_bytes_per_cycle = 32;   // per link and direction
  uint32_t link_latency_cycles = 1000;  // first byte of a transfer
};

// Parses "sram=4M,array=32,lanes=64,clock=1000,dma=64,latency=256,
// queue=32,dram=16G,link=32,link_latency=1000" (any subset, any order; K, M
// and G suffixes) over `config`. Errors name the key and the text at fault.
Status ParseArchConfig(const std::string& text, ArchConfig* config);
std::string ArchConfigToString(const ArchConfig& config);

// The cycles a transfer of `bytes` over one link takes from its start to
// its last byte's arrival: link_latency_cycles + ceil(bytes /
// link_bytes_per_cycle); 0 for no bytes.
uint64_t LinkTransferCycles(const ArchConfig& config, uint64_t bytes);

// Device addresses from kScratchpadAperture up name the scratchpad itself:
// address kScratchpadAperture + a is SRAM byte a. A DMA whose DRAM side lies
// there moves bytes within SRAM: it reads and writes no DRAM, the
// scoreboard orders both of its SRAM ranges as it does any SRAM access,
// and it costs kScratchpadDmaLatencyCycles of latency instead of
// dma_latency_cycles. A graph program keeps values on chip this way
// (compiler/graph_compiler.h): the kernels address them as they address
// DRAM.
inline constexpr uint64_t kScratchpadAperture = uint64_t{1} << 62;
inline constexpr uint64_t kScratchpadDmaLatencyCycles = 16;

// Whether `type` exists on the machine (pred, s8..s64, u8..u64, f16, bf16,
// f32).
bool IsMachineType(phal_element_type_t type);

// The units. Counters are kept per unit.
enum class Unit : uint8_t { kScalar = 0, kVector, kMatrix, kDmaIn, kDmaOut };
inline constexpr int kUnitCount = 5;
const char* UnitName(Unit unit);

// Opcodes. The encoding's first byte; values are part of the binary format.
// Operand fields are those of `Instruction`; "[d]" means the SRAM address
// rb + offset[0], "[a]" rb + offset[1], "[b]" rb + offset[2], "[c]" rb +
// offset[3], and "n" the value of register rn.
enum class Opcode : uint8_t {
  kInvalid = 0,

  // -- scalar core (format S: rd, ra, rb, imm) -------------------------------
  kHalt = 1,   // ends the program once every unit's queue has drained
  kFence = 2,  // waits until every unit's queue has drained
  kLi = 3,     // rd = imm
  kAdd = 4,    // rd = ra + rb   (all scalar arithmetic wraps modulo 2^64)
  kAddi = 5,   // rd = ra + imm
  kSub = 6,    // rd = ra - rb
  kMul = 7,    // rd = ra * rb
  kMuli = 8,   // rd = ra * imm
  kDiv = 9,    // rd = ra / rb, signed, toward zero; rb == 0 faults
  kRem = 10,   // rd = ra % rb, signed; rb == 0 faults
  kMin = 11,   // rd = min(ra, rb), signed
  kMax = 12,   // rd = max(ra, rb), signed
  kAnd = 13,   // rd = ra & rb
  kOr = 14,    // rd = ra | rb
  kXor = 15,   // rd = ra ^ rb
  kShli = 16,  // rd = ra << imm (imm in 0..63)
  kShri = 17,  // rd = ra >> imm, logical
  kSlt = 18,   // rd = ra < rb ? 1 : 0, signed
  kLd = 19,    // rd = u64 at SRAM [ra + imm] (8-byte aligned)
  kSt = 20,    // u64 at SRAM [ra + imm] = rb (8-byte aligned)
  // rd = the element of `type` at SRAM [ra + imm], sign-extended (signed
  // types), zero-extended (unsigned, pred) or as its bits (floats).
  kLde = 21,
  kSte = 22,  // the element of `type` at SRAM [ra + imm] = low bits of rb
  kBeq = 23,  // if ra == rb, continue at instruction imm
  kBne = 24,
  kBlt = 25,  // signed
  kBge = 26,  // signed
  kJmp = 27,  // continue at instruction imm

  // -- vector unit (format V) ------------------------------------------------
  // Elementwise, `type` the element type of operands and result (compare,
  // select, convert and is_finite say otherwise). A destination may equal a
  // source exactly; partial overlap is undefined.
  kVAdd = 64,  // d = a + b
  kVSub = 65,
  kVMul = 66,
  kVDiv = 67,
  kVRem = 68,
  kVMax = 69,
  kVMin = 70,
  kVAnd = 71,
  kVOr = 72,
  kVXor = 73,
  kVShl = 74,
  kVShra = 75,
  kVShrl = 76,
  kVNeg = 77,  // d = -a
  kVAbs = 78,
  kVSign = 79,
  kVFloor = 80,
  kVCeil = 81,
  kVRoundAfz = 82,   // round half away from zero
  kVRoundEven = 83,  // round half to even
  kVNot = 84,
  kVPopcnt = 85,
  kVClz = 86,
  // pred d = is_finite(a); `type` is a's type.
  kVIsFinite = 87,
  // pred d = a <dir> b; `type` is the operands' type, flags bits 0..2 the
  // phal_kir_comparison_direction_t, bits 3..4 the
  // phal_kir_comparison_type_t.
  kVCmp = 88,
  kVSel = 89,      // d = a (pred) ? b : c
  kVClamp = 90,    // d = min(max(b, a), c): a the lower bound, c the upper
  kVCvt = 91,      // d (type) = convert(a (type2))
  kVBitcast = 92,  // d (type) = the bits of a (type2), equal widths
  // d = reduce_precision(a); offset[2] holds exponent bits, offset[3]
  // mantissa bits (not addresses).
  kVReducePrecision = 93,
  kVMov = 94,    // d = a
  kVFill = 95,   // d[i] = the low bits of register rx, as `type`
  kVIota = 96,   // d[i] = rx + i (s64 or s32)
  kVBcast = 97,  // d[i] = a[0]
  // d[i] = a[b[i]], b holding s64 element indices into a (SRAM-local
  // gather); every b[i] must address SRAM.
  kVPerm = 98,
  // Reductions along a tile: d[0] = a[0] op a[1] op ... op a[n-1], in that
  // order, each step rounded to `type` (n >= 1).
  kVRedAdd = 99,
  kVRedMax = 100,
  kVRedMin = 101,
  // The SFU's primitives: the exact function rounded once to `type`
  // (floats; vpow also on integers, as KIR's power defines it). Everything
  // else (expm1, log1p, logistic, tanh, tan, cbrt, ...) is built from these
  // by the compiler.
  kVExp = 112,
  kVLog = 113,
  kVSin = 114,
  kVCos = 115,
  kVErf = 116,
  kVSqrt = 117,
  kVRsqrt = 118,
  kVPow = 119,    // d = a ^ b
  kVAtan2 = 120,  // d = atan2(a, b)

  // -- matrix unit (format M) ------------------------------------------------
  // [d] (m x n, f32; s32 for s8 inputs) = (flags bit 0 ? 0 : [d]) + [a] (m x
  // k, `type`) x [b] (k x n, `type2`); m, k and n in registers rm, rk, rn.
  // Inputs: bf16, f16, f32 (any pair), accumulating in f32 (each product
  // exact, each sum rounded to f32, in k order); or s8 x s8 into s32.
  kMatMul = 128,

  // -- DMA (format D) --------------------------------------------------------
  // Boxes: for i < count(r0), j < count(r1), l < count(r2) (a count
  // register of x0 counts 1), the element of `type` at DRAM address
  // rm + (i*ds0 + j*ds1 + l*ds2) * size moves to or from SRAM rb + offset[0]
  // + (i*ss0 + j*ss1 + l*ss2) * size; strides in elements, from descriptor
  // `descriptor` of the program.
  kDmaLoad = 160,   // DRAM box -> SRAM (channel in)
  kDmaStore = 161,  // SRAM box -> DRAM (channel out)
  // Indirect: for i < count(r0): SRAM [rb + offset[0] + i*size] = DRAM
  // [rm + off[i]*size], off the s64 list at SRAM rb + offset[1]; a negative
  // off[i] writes zero instead (padding).
  kDmaGather = 162,
  // DRAM [rm + off[i]*size] = SRAM [rb + offset[0] + i*size], in order of
  // i, skipping negative off[i].
  kDmaScatter = 163,
};

// The text form's name of an opcode ("vadd", "dma.ld", ...); nullptr for a
// value that names none.
const char* OpcodeName(Opcode op);
// The unit an opcode runs on.
Unit OpcodeUnit(Opcode op);

// One decoded instruction. Which fields mean something depends on the
// opcode's format; the rest are zero.
//   S: rd, ra, rb, imm.
//   V: type, type2, rb (base), rn (count), rx (scalar operand), flags,
//      offset[0..3] (d, a, b, c).
//   M: type, type2, rb, rm, rk, rn, flags, offset[0..2] (d, a, b).
//   D: type, rb (SRAM base), rm (DRAM address), r0, r1, r2 (counts),
//      offset[0] (SRAM), offset[1] (offset list), descriptor.
struct Instruction {
  Opcode op = Opcode::kInvalid;
  phal_element_type_t type = PHAL_ELEMENT_TYPE_INVALID;
  phal_element_type_t type2 = PHAL_ELEMENT_TYPE_INVALID;
  uint8_t rd = 0, ra = 0, rb = 0, rn = 0, rx = 0, rm = 0, rk = 0;
  uint8_t r0 = 0, r1 = 0, r2 = 0;
  uint8_t flags = 0;                 // 7 bits
  std::array<uint32_t, 4> offset{};  // 22 bits each (SRAM byte offsets)
  uint16_t descriptor = 0;
  int64_t imm = 0;

  bool operator==(const Instruction&) const = default;
};

inline constexpr uint32_t kOffsetBits = 22;
inline constexpr uint32_t kMaxOffset = (1u << kOffsetBits) - 1;

// A DMA box's strides, in elements.
struct DmaDescriptor {
  std::array<int64_t, 3> dram_strides{};
  std::array<int64_t, 3> sram_strides{};
  bool operator==(const DmaDescriptor&) const = default;
};

// A compiled kernel: what the device runs. At launch, SRAM [8*i, 8*i + 8)
// holds the DRAM address of the kernel's buffer i (the argument area), and
// every register is 0; the program begins at instruction 0.
struct Program {
  std::string name;
  std::vector<Instruction> instructions;
  std::vector<DmaDescriptor> descriptors;
  // Comments the disassembler prints before instruction i (labels, what a
  // block does); not part of the binary.
  std::vector<std::pair<uint32_t, std::string>> comments;
};

// The binary form: each instruction 16 bytes, little-endian (bit layout in
// docs/plugins/asic-ref.md), after a header and the descriptor table.
// Encode never fails for an instruction whose fields fit; Decode checks
// everything and names the word at fault.
std::array<uint8_t, 16> EncodeInstruction(const Instruction& instruction);
StatusOr<Instruction> DecodeInstruction(const uint8_t* word, uint64_t index);
std::string EncodeProgram(const Program& program);
StatusOr<Program> DecodeProgram(const std::string& bytes);

// -- Operand shapes and validation --------------------------------------------

// The encoding format of an opcode (bit layouts in docs/plugins/asic-ref.md).
enum class Format : uint8_t { kS, kV, kM, kD };
Format OpcodeFormat(Opcode op);

// Which fields an opcode uses and how its text form lists them; every field
// an opcode does not use is zero in a valid instruction.
enum class Operands : uint8_t {
  kNone,              // halt, fence
  kRdImm,             // li rd, imm
  kRdRaRb,            // add rd, ra, rb
  kRdRaImm,           // addi rd, ra, imm
  kLoad,              // ld rd, [ra+imm]; lde also uses type
  kStore,             // st rb, [ra+imm]; ste also uses type
  kBranch,            // beq ra, rb, imm
  kJump,              // jmp imm
  kVUnary,            // [d], [a], n: rb, rn, offset[0..1], type (vcvt: type2)
  kVBinary,           // [d], [a], [b], n (vcmp: flags)
  kVTernary,          // [d], [a], [b], [c], n
  kVScalar,           // [d], rx, n (vfill, viota)
  kVReducePrecision,  // [d], [a], exponent offset[2], mantissa offset[3], n
  kMatMul,            // [d], [a], [b], rm, rk, rn, flags bit 0
  kDmaBox,            // type, rb, offset[0], rm, r0, r1, r2, descriptor
  kDmaIndirect,       // type, rb, offset[0], offset[1], rm, r0
};
Operands OpcodeOperands(Opcode op);
// Whether the opcode takes a second element type (vcvt, vbitcast, mm).
bool OpcodeUsesType2(Opcode op);
// Whether the opcode takes an element type at all.
bool OpcodeUsesType(Opcode op);

// Flags of kVCmp and kMatMul.
inline constexpr uint8_t kMatMulZeroFlag = 1;
inline uint8_t CompareFlags(uint32_t direction, uint32_t comparison_type) {
  return static_cast<uint8_t>((direction & 7u) | ((comparison_type & 3u) << 3));
}
inline uint32_t CompareDirection(uint8_t flags) { return flags & 7u; }
inline uint32_t CompareType(uint8_t flags) { return (flags >> 3) & 3u; }

// Checks one instruction against the ISA: a known opcode, registers below
// 32, element types on the machine where the opcode takes them (zero where
// it does not), offsets of 22 bits, flags the opcode defines, shift amounts
// in 0..63, every unused field zero; branch targets below
// `instruction_count` and descriptors below `descriptor_count`. Errors name
// `index`.
Status ValidateInstruction(const Instruction& instruction, uint64_t index,
                           uint64_t instruction_count,
                           uint64_t descriptor_count);
// ValidateInstruction of every instruction of `program`.
Status ValidateProgram(const Program& program);

// `value` in hexadecimal as the assembly text writes it: "0x1f".
std::string Hex(uint64_t value);

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_ISA_ASIC_ISA_H_
