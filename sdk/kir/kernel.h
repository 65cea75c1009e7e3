// KirKernel: one kernel of the kernel IR (sdk/include/polyhal/kernel.h) under
// construction, with storage of its own. The C structs a plugin receives
// point into std::vectors held here, so a kernel can be built incrementally
// (by the compiler, or by hand in a test) and handed out as a
// phal_kernel_desc_t that stays valid until the kernel is next modified. A
// description received over the ABI is kept with KernelStorage
// (kernel_storage.h) instead.
#ifndef POLYHAL_SDK_KIR_KERNEL_H_
#define POLYHAL_SDK_KIR_KERNEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "polyhal/kernel.h"
#include "sdk/kir/body.h"

namespace phal {

// One buffer of a kernel, with owned dimensions.
struct KirBuffer {
  phal_element_type_t element_type = PHAL_ELEMENT_TYPE_INVALID;
  phal_kir_access_t access = PHAL_KIR_ACCESS_READ;
  std::vector<int64_t> dims;
};

// A kernel of any kind. Fill the members of the kind, then call Desc().
class KirKernel {
 public:
  // `arrays` gets the count of arrays the kind has (below), a reduce one
  // accumulator.
  KirKernel(std::string name, phal_kernel_kind_t kind);

  // The description points into the kernel: a moved kernel builds it again
  // with Desc().
  KirKernel(const KirKernel&) = delete;
  KirKernel& operator=(const KirKernel&) = delete;
  KirKernel(KirKernel&&) = default;
  KirKernel& operator=(KirKernel&&) = default;

  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  phal_kernel_kind_t kind() const { return kind_; }
  std::vector<KirBuffer>& buffers() { return buffers_; }
  const std::vector<KirBuffer>& buffers() const { return buffers_; }
  uint32_t AddBuffer(phal_element_type_t type, std::vector<int64_t> dims,
                     phal_kir_access_t access = PHAL_KIR_ACCESS_READ);

  // Iteration space (loop, reduce), outputs (loop, reduce, sort) and the
  // bodies by role. Unused members of a kind stay empty.
  std::vector<int64_t> dims;
  std::vector<int64_t> reduced_dims;
  std::vector<uint32_t> outputs;
  std::vector<uint32_t> operands;  // sort
  uint32_t accumulator_count = 0;  // 1 for a new reduce
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
  phal_kir_fft_t fft{};
  phal_kir_linalg_t linalg{};
  // Owned arrays of conv, gather, scatter and fft, in the order of their
  // members in kernel.h, at the positions below. Desc() sets the counts
  // that size them (a conv's spatial_count is its input spatial
  // dimensions', an fft's fft_rank its fft_length's).
  std::vector<std::vector<int64_t>> arrays;
  std::vector<uint8_t> window_reversal;
  enum ConvArray : std::size_t {
    kConvInputSpatialDimensions,
    kConvKernelSpatialDimensions,
    kConvOutputSpatialDimensions,
    kConvWindowStrides,
    kConvPadding,
    kConvLhsDilation,
    kConvRhsDilation,
    kConvArrayCount
  };
  enum GatherArray : std::size_t {
    kGatherOffsetDims,
    kGatherCollapsedSliceDims,
    kGatherStartIndexMap,
    kGatherOperandBatchingDims,
    kGatherStartIndicesBatchingDims,
    kGatherSliceSizes,
    kGatherArrayCount
  };
  enum ScatterArray : std::size_t {
    kScatterUpdateWindowDims,
    kScatterInsertedWindowDims,
    kScatterScatterDimsToOperandDims,
    kScatterInputBatchingDims,
    kScatterScatterIndicesBatchingDims,
    kScatterArrayCount
  };
  enum FftArray : std::size_t { kFftLength, kFftArrayCount };

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

#endif  // POLYHAL_SDK_KIR_KERNEL_H_
