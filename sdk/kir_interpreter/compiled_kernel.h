// A validated kernel ready to run: one implementation per kernel kind (in
// <kind>_kernel.cc), each checking its part of the description when
// compiled and running it over batches of points. What the kinds share is
// here: buffer checks, and the staging of outputs that overlap inputs.
#ifndef POLYHAL_SDK_KIR_INTERPRETER_COMPILED_KERNEL_H_
#define POLYHAL_SDK_KIR_INTERPRETER_COMPILED_KERNEL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/base/status.h"
#include "sdk/kir/facts.h"

namespace phal::kir_interpreter {

class CompiledKernel {
 public:
  virtual ~CompiledKernel() = default;
  // `buffers` has one address per kernel buffer, each holding the
  // buffer's bytes. Const: runs may overlap on several threads.
  virtual Status Run(std::span<uint8_t* const> buffers) const = 0;
};

// Validates `kernel` (its buffers, then its kind) and prepares it. The
// description and everything it points at must outlive the result.
StatusOr<std::unique_ptr<CompiledKernel>> CompileKernel(
    const phal_kernel_desc_t& kernel);

// One per kind; the buffers are validated when these are called.
StatusOr<std::unique_ptr<CompiledKernel>> CompileLoopKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileReduceKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileDotKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileConvKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileGatherKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileScatterKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileSortKernel(
    const phal_kernel_desc_t& kernel);
StatusOr<std::unique_ptr<CompiledKernel>> CompileCopyKernel(
    const phal_kernel_desc_t& kernel);

// Checks that an element type field holds one of the enum's types.
Status CheckElementType(const phal_kernel_desc_t& kernel,
                        const phal_element_type_t& type,
                        const std::string& what);

// Checks that `index` names a buffer; `role` says which ("dot lhs").
Status CheckBufferIndex(const phal_kernel_desc_t& kernel, uint64_t index,
                        const std::string& role);

// Checks that buffer `index` may be written and, if `dims` is given, has
// exactly those dimensions.
Status CheckOutputBuffer(
    const phal_kernel_desc_t& kernel, uint32_t index, const std::string& role,
    std::optional<std::span<const int64_t>> dims = std::nullopt);

// Checks that iteration-space dims are non-negative with a product that
// fits in int64_t.
Status CheckDims(const phal_kernel_desc_t& kernel,
                 std::span<const int64_t> dims, const std::string& what);

// Checks that `values` are dimension numbers of an array of `rank`: in
// range and, when `distinct`, each at most once.
Status CheckDimensionNumbers(const phal_kernel_desc_t& kernel,
                             std::span<const int64_t> values, int64_t rank,
                             bool distinct, const std::string& what);

// The address each output is written at during one run: the bound buffer,
// or, when the output's memory overlaps another buffer the kernel reads
// (bound twice in a way kernel.h does not provide for), a temporary that
// Commit copies into place, so results are those of reading every input
// before writing. An output that is itself one of `inputs` (an in-place
// update) is written in place unless `stage_in_place` is set, for kinds
// whose writes would overtake their own reads.
class OutputTargets {
 public:
  OutputTargets(const phal_kernel_desc_t& kernel,
                std::span<uint8_t* const> buffers,
                std::span<const uint32_t> outputs,
                std::span<const uint32_t> inputs, bool stage_in_place = false);

  uint8_t* operator[](uint32_t buffer) const { return targets_[buffer]; }
  void Commit();

 private:
  struct Staged {
    uint32_t buffer;
    std::vector<uint8_t> bytes;
  };
  std::span<uint8_t* const> buffers_;
  std::vector<uint8_t*> targets_;
  std::vector<Staged> staged_;
};

}  // namespace phal::kir_interpreter

#endif  // POLYHAL_SDK_KIR_INTERPRETER_COMPILED_KERNEL_H_
