// KirKernel: one kernel of the kernel IR (sdk/include/polyhal/kernel.h) with
// storage of its own. The C structs a plugin receives point into std::vectors
// held here, so a kernel can be built incrementally, copied from a
// description received over the ABI, and handed out as a
// phal_kernel_desc_t that stays valid for the kernel's lifetime.
#ifndef POLYHAL_CORE_COMPILER_KIR_KERNEL_H_
#define POLYHAL_CORE_COMPILER_KIR_KERNEL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "polyhal/kernel.h"

namespace phal {

// A scalar computation under construction. Nodes are value-numbered: adding
// a node equal to an existing one (same op, type, operands, attributes and
// constant) returns the existing index, so index arithmetic shared by many
// reads is computed once.
class KirBody {
 public:
  KirBody() = default;
  // Copies a body received over the ABI.
  explicit KirBody(const phal_kir_body_t& body);

  uint32_t Add(phal_kir_op_t op, phal_element_type_t type,
               std::span<const uint32_t> operands,
               std::span<const int64_t> attributes = {});
  uint32_t Constant(phal_element_type_t type, uint64_t low, uint64_t high = 0);
  // An s64 constant, for index arithmetic.
  uint32_t Index64(int64_t value);
  uint32_t Index(int64_t dimension);
  uint32_t Read(phal_element_type_t type, uint32_t buffer,
                std::span<const uint32_t> indices);
  uint32_t Parameter(phal_element_type_t type, int64_t number);

  // s64 arithmetic that folds constants and neutral operands, so identity
  // index maps stay identities in the dump.
  uint32_t AddIndex(uint32_t lhs, uint32_t rhs);
  uint32_t SubtractIndex(uint32_t lhs, uint32_t rhs);
  uint32_t MultiplyIndex(uint32_t lhs, int64_t factor);
  uint32_t DivideIndex(uint32_t lhs, int64_t divisor);
  uint32_t RemainderIndex(uint32_t lhs, int64_t divisor);
  uint32_t CompareIndex(phal_kir_comparison_direction_t direction, uint32_t lhs,
                        uint32_t rhs);
  uint32_t ClampIndex(int64_t low, uint32_t value, int64_t high);
  uint32_t And(uint32_t lhs, uint32_t rhs);
  // The value of an s64 constant node, if `node` is one.
  bool IsIndexConstant(uint32_t node, int64_t* value) const;

  void AddResult(uint32_t node) { results_.push_back(node); }
  void set_parameter_count(uint32_t count) { parameter_count_ = count; }

  const std::vector<phal_kir_node_t>& nodes() const { return nodes_; }
  const phal_kir_node_t& node(uint32_t index) const { return nodes_[index]; }
  std::span<const uint32_t> operands_of(uint32_t index) const;
  const std::vector<uint32_t>& results() const { return results_; }
  uint32_t parameter_count() const { return parameter_count_; }

  // Renumbers buffer attributes of READ nodes through `mapping`.
  void RemapBuffers(const std::vector<uint32_t>& mapping);

  // The C view; valid until the body is next modified.
  phal_kir_body_t View() const;

 private:
  using Key = std::tuple<int, int, std::vector<uint32_t>, std::vector<int64_t>,
                         uint64_t, uint64_t>;
  uint32_t Intern(phal_kir_node_t node, std::span<const uint32_t> operands);

  std::vector<phal_kir_node_t> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<uint32_t> results_;
  uint32_t parameter_count_ = 0;
  std::map<Key, uint32_t> numbering_;
};

// One buffer of a kernel, with owned dimensions.
struct KirBuffer {
  phal_element_type_t element_type = PHAL_ELEMENT_TYPE_INVALID;
  phal_kir_access_t access = PHAL_KIR_ACCESS_READ;
  std::vector<int64_t> dims;
};

// A kernel of any kind. Fill the members of the kind, then call Desc().
class KirKernel {
 public:
  KirKernel(std::string name, phal_kernel_kind_t kind);
  // A deep copy of `desc`, e.g. what a plugin keeps from kernel_emit.
  static std::unique_ptr<KirKernel> Copy(const phal_kernel_desc_t& desc);

  KirKernel(const KirKernel&) = delete;
  KirKernel& operator=(const KirKernel&) = delete;

  const std::string& name() const { return name_; }
  phal_kernel_kind_t kind() const { return kind_; }
  std::vector<KirBuffer>& buffers() { return buffers_; }
  const std::vector<KirBuffer>& buffers() const { return buffers_; }
  uint32_t AddBuffer(phal_element_type_t type, std::vector<int64_t> dims,
                     phal_kir_access_t access);

  // Iteration space (loop, reduce), outputs (loop, reduce, sort) and the
  // bodies by role. Unused members of a kind stay empty.
  std::vector<int64_t> dims;
  std::vector<int64_t> reduced_dims;
  std::vector<uint32_t> outputs;
  std::vector<uint32_t> operands;  // sort
  uint32_t accumulator_count = 0;
  KirBody body;      // loop body, reduce values, dot/conv epilogue
  KirBody init;      // reduce
  KirBody reducer;   // reduce reducer, scatter combiner, sort comparator
  KirBody epilogue;  // reduce
  // Kind parameters whose pointer members are filled in by Desc(); the
  // owned arrays below back them.
  phal_kir_dot_t dot{};
  phal_kir_conv_t conv{};
  phal_kir_gather_t gather{};
  phal_kir_scatter_t scatter{};
  phal_kir_sort_t sort{};
  phal_kir_copy_t copy{};
  // Owned arrays of conv, gather and scatter, in the order of their
  // members in kernel.h (conv: input, kernel and output spatial dimensions,
  // window strides, padding, lhs and rhs dilation; gather: offset dims,
  // collapsed slice dims, start index map, operand and start-indices
  // batching dims, slice sizes; scatter: update window dims, inserted
  // window dims, scatter dims to operand dims, input and indices batching
  // dims).
  std::vector<std::vector<int64_t>> arrays;
  std::vector<uint8_t> window_reversal;

  // Makes loop output `output` (a position in `outputs`) write into buffer
  // `input`, which becomes READ_WRITE, and drops the output's own buffer.
  // Only the last buffers may be outputs dropped this way.
  void AliasOutputToInput(uint32_t output, uint32_t input);

  // The description; valid until the kernel is next modified.
  const phal_kernel_desc_t& Desc();
  // The description Desc() last built, for a kernel no longer modified:
  // CompileModule builds every kernel's before it returns the program,
  // which threads then share (Desc() rebuilds, so only one thread may
  // call it).
  const phal_kernel_desc_t& built_desc() const { return desc_; }

 private:
  std::string name_;
  phal_kernel_kind_t kind_;
  std::vector<KirBuffer> buffers_;
  std::vector<phal_kir_buffer_t> buffer_views_;
  phal_kir_loop_t loop_{};
  phal_kir_reduce_t reduce_{};
  phal_kernel_desc_t desc_{};
};

}  // namespace phal

#endif  // POLYHAL_CORE_COMPILER_KIR_KERNEL_H_
