// Evaluates a KIR body over a tile of lanes on the vector unit: each node
// becomes vector instructions over SRAM slots of the tile's capacity, READ
// nodes become DMA (a box where the lanes read consecutive elements, a
// gather by computed offsets otherwise), and the functions the SFU lacks
// are built from its primitives (docs/plugins/asic-ref.md, "The compiler").
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_VECTOR_BODY_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_VECTOR_BODY_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "compiler/program_builder.h"
#include "compiler/sram_allocator.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::asic_ref {

inline constexpr uint32_t kNoSlot = 0xffffffffu;

// A slot: where a vector of the tile lives, and its element type.
struct Slot {
  uint32_t offset = kNoSlot;
  phal_element_type_t type = PHAL_ELEMENT_TYPE_INVALID;
};

// The leaves of a body over one tile.
struct TileLeaves {
  // INDEX d: an s64 slot (kNoSlot where the body may not use dimension d).
  std::vector<uint32_t> index;
  // PARAMETER p.
  std::vector<Slot> parameters;
  // When the lanes are consecutive points of a row-major iteration space of
  // shape `linear_dims`, the first at the point held in register
  // `linear_start`: a READ of a buffer of that shape at INDEX 0..rank-1 is
  // one box DMA. Empty when the lanes are not.
  std::vector<int64_t> linear_dims;
  uint8_t linear_start = 0;
  // When lane = r * columns + c and a READ of a buffer of shape
  // `box_dims` at INDEX 0..rank-1 reads the element at
  // (c_start + c) * c_stride + (r_start + r) * r_stride: one 2-D box of
  // r_count x c_count (registers) elements. Empty box_dims when not.
  struct Box {
    std::vector<int64_t> dims;
    int64_t columns = 0;
    int64_t c_stride = 0, r_stride = 0;
    uint8_t c_start = 0, r_start = 0, c_count = 0, r_count = 0;
    // When set, the box loads column-major (c * rows + r, contiguous where
    // the buffer's rows are) and `transpose` (s64 lane -> element) puts it
    // in the lanes' order with one vperm.
    uint32_t transpose = kNoSlot;
    int64_t rows = 0;
    // A third, outer term: + b_start * b_stride (x0: none).
    uint8_t b_start = 0;
    int64_t b_stride = 0;
    // Also a buffer of the trailing dimensions of `dims` read at their
    // INDEX values (a bias of [n] or a residual of [m, n] in a dot's
    // [batch, m, n] epilogue): its own strides, no outer term.
    bool trailing = false;
  } box;
};

// The dimensions below `rank` whose INDEX values some node of `body`
// needs, given that a READ of a buffer of shape `box_dims` at INDEX
// 0..rank-1 is a box and needs none (empty `box_dims`: no read is).
std::vector<bool> UsedIndexDims(const phal_kir_body_t& body,
                                std::span<const phal_kir_buffer_t> buffers,
                                uint32_t rank,
                                std::span<const int64_t> box_dims);

class VectorBody {
 public:
  // `buffers` are the kernel's; `lanes` the tile's capacity (the count
  // register reg::kLanes holds how many are live, at most `lanes`).
  VectorBody(ProgramBuilder& program, SramAllocator& sram,
             std::span<const phal_kir_buffer_t> buffers, int64_t lanes);

  // Emits `body`; returns its result slots, which the caller frees (Free).
  // `what` names the body in errors ("loop body of kernel f.3").
  StatusOr<std::vector<Slot>> Emit(const phal_kir_body_t& body,
                                   const TileLeaves& leaves,
                                   const std::string& what);

  // A new slot of the tile's capacity.
  StatusOr<Slot> NewSlot(phal_element_type_t type, const std::string& what);
  void Free(const Slot& slot) { sram_.Free(slot.offset); }
  // A slot filled with `bits` as `type`.
  StatusOr<Slot> Constant(phal_element_type_t type, uint64_t bits);
  StatusOr<Slot> FloatConstant(float value);
  StatusOr<Slot> IndexConstant(int64_t value) {
    return Constant(PHAL_ELEMENT_TYPE_S64, static_cast<uint64_t>(value));
  }
  // An s64 slot holding register `reg` in every lane.
  StatusOr<Slot> Broadcast(uint8_t reg);
  // d = a op b over the live lanes.
  void Op(Opcode op, const Slot& d, const Slot& a, const Slot& b = {},
          const Slot& c = {}, uint8_t flags = 0);
  // Splits the s64 linear positions in `linear` into the row-major
  // coordinates of `dims`, into index[d] for each d with used[d].
  Status Decompose(const Slot& linear, std::span<const int64_t> dims,
                   const std::vector<bool>& used, std::vector<uint32_t>* index);

  ProgramBuilder& program() { return program_; }
  int64_t lanes() const { return lanes_; }

 private:
  StatusOr<Slot> EmitNode(const phal_kir_body_t& body, uint32_t node_index,
                          const std::vector<Slot>& values,
                          const TileLeaves& leaves, const std::string& what);
  StatusOr<Slot> EmitRead(const phal_kir_body_t& body,
                          const phal_kir_node_t& node,
                          const std::vector<Slot>& values,
                          const TileLeaves& leaves, const std::string& what);
  // The functions the SFU lacks, for f32 `x` into `d`.
  Status EmitDerived(phal_kir_op_t op, const Slot& d, const Slot& x);
  Status Expm1(const Slot& d, const Slot& x);
  Status Log1p(const Slot& d, const Slot& x);
  Status Logistic(const Slot& d, const Slot& x);
  Status Tanh(const Slot& d, const Slot& x);
  Status Tan(const Slot& d, const Slot& x);
  Status Cbrt(const Slot& d, const Slot& x);

  ProgramBuilder& program_;
  SramAllocator& sram_;
  std::span<const phal_kir_buffer_t> buffers_;
  int64_t lanes_;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_VECTOR_BODY_H_
