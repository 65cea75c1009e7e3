// The parts of a kernel's IR every target emits alike, whatever shape its
// code runs in (host loops, kernel_emitter.h; GPU threads,
// spmd_kernel_emitter.h): loops, row-major indexing, the sums of dots and
// convolutions, and the index arithmetic of gather and scatter as the
// StableHLO specification defines it.
#ifndef POLYHAL_SDK_EMITTERS_LLVM_KERNEL_IR_BUILDER_H_
#define POLYHAL_SDK_EMITTERS_LLVM_KERNEL_IR_BUILDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/emitters/llvm/body_emitter.h"
#include "sdk/emitters/llvm/module_target.h"

namespace phal::llvm_emitter {

int64_t Product(const int64_t* dims, uint32_t count);
int64_t ElementCount(const phal_kir_buffer_t& buffer);
phal_element_type_t ResultType(const phal_kir_body_t& body, uint32_t result);

class KernelIrBuilder {
 protected:
  using Emitter = std::function<Status(llvm::Value*)>;

  // An empty module named after the kernel.
  // Configures the module for `target`.
  KernelIrBuilder(const phal_kernel_desc_t& kernel, const ModuleTarget& target,
                  llvm::LLVMContext& context);

  // Makes `function` the one emitted into; `bases` are the addresses of the
  // kernel's buffers in order, as IR values of that function.
  void Bind(llvm::Function* function, const std::vector<llvm::Value*>& bases);

  // for (i = from; i < to; i += step) emit(i), leaving the builder after
  // the loop; step 1 when null.
  Status Loop(llvm::Value* from, llvm::Value* to, const Emitter& emit,
              llvm::Value* step = nullptr);
  // Loops over `extents` (the first over [first_from, first_to) when those
  // are given), setting indices[d] to each loop's index, and calls `emit`
  // in the innermost.
  Status Nest(const std::vector<int64_t>& extents, llvm::Value* first_from,
              llvm::Value* first_to, std::vector<llvm::Value*>& indices,
              const std::function<Status()>& emit, size_t level = 0);
  // The row-major linear index of `indices` in `extents`, and back.
  llvm::Value* Linear(const std::vector<llvm::Value*>& indices,
                      const std::vector<int64_t>& extents);
  std::vector<llvm::Value*> Unravel(llvm::Value* linear,
                                    const std::vector<int64_t>& extents);
  // A stack slot in the function's entry block (promoted to a register).
  llvm::Value* EntrySlot(llvm::Type* type);
  // Stores a body's results at `linear` of buffers `outputs`.
  Status StoreResults(const phal_kir_body_t& body,
                      const std::vector<IrValue>& results,
                      const uint32_t* outputs, llvm::Value* linear);
  // sum + a * b in the accumulation `type` of a dot or convolution.
  StatusOr<IrValue> MultiplyAdd(phal_element_type_t type, IrValue sum,
                                IrValue a, IrValue b);
  // The operand index one output element of a gather reads, as the
  // StableHLO specification computes it: start indices (clamped so the
  // slice fits), batching indices, and offsets within the slice.
  std::vector<llvm::Value*> GatherOperandIndex(
      const phal_kir_gather_t& gather, const std::vector<llvm::Value*>& out);
  // The operand index one update element goes to, as the StableHLO
  // specification computes it (no clamping: the caller skips indices out of
  // bounds).
  std::vector<llvm::Value*> ScatterResultIndex(
      const phal_kir_scatter_t& scatter,
      const std::vector<llvm::Value*>& update);
  // The dimensions of the kernel's buffer `buffer`.
  std::vector<int64_t> BufferDims(uint32_t buffer) const;
  // b * strides[0] + x * strides[1] + y * strides[2]: an element of a
  // batched matrix with those strides.
  llvm::Value* Offset3(const int64_t* strides, llvm::Value* b, llvm::Value* x,
                       llvm::Value* y);
  // if (condition) then() else otherwise(), leaving the builder after both.
  Status If(llvm::Value* condition, const std::function<Status()>& then,
            const std::function<Status()>& otherwise = nullptr);
  // Copies into the gather's output element `out`, at linear position
  // `out_linear` of the output, the operand element it reads.
  void GatherElement(const phal_kir_gather_t& gather,
                     const std::vector<llvm::Value*>& out,
                     llvm::Value* out_linear);
  // Combines the update element `update`, at linear position
  // `update_linear` of the updates, into the output element it targets;
  // an update whose target is out of bounds is skipped.
  Status ScatterElement(const phal_kir_scatter_t& scatter,
                        const std::vector<llvm::Value*>& update,
                        llvm::Value* update_linear);
  // One output element's sum: over the kernel's input features and spatial
  // window, input positions in the padded, dilated input that fall on an
  // input element.
  StatusOr<IrValue> ConvSum(const phal_kir_conv_t& conv,
                            const std::vector<llvm::Value*>& out);
  // Whether element `a` of a sort's slice sorts before element `b`: the
  // comparator over every operand's two elements, the slice starting at
  // linear index `base` with its elements `stride` apart. `bodies` reads
  // the buffers.
  StatusOr<llvm::Value*> CompareElements(const phal_kir_sort_t& sort,
                                         BodyEmitter& bodies, llvm::Value* base,
                                         llvm::Value* stride, llvm::Value* a,
                                         llvm::Value* b);

  const phal_kernel_desc_t& kernel_;
  std::unique_ptr<llvm::Module> module_;
  llvm::IRBuilder<> builder_;
  llvm::Function* function_ = nullptr;
  std::vector<BoundBuffer> bound_buffers_;
  std::optional<BodyEmitter> bodies_;
  bool half_conversions_;
};

}  // namespace phal::llvm_emitter

#endif  // POLYHAL_SDK_EMITTERS_LLVM_KERNEL_IR_BUILDER_H_
