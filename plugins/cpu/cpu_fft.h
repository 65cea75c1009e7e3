// FFT kernels (kernel.h, ABI 1.6): StableHLO fft of a buffer over its 1 to
// 3 trailing dimensions, run by the plugin itself instead of emitted code,
// as its dot kernels run their GEMMs.
//
// Each transformed dimension is one pass over the array: the lines along
// it (the rows for the last dimension, the columns for the others) are
// gathered a block at a time into a contiguous scratch buffer, W lines side
// by side in the lanes of a vector, transformed there by the dimension's
// plan (cpu_fft_plan.h) and written back; blocks run in parallel on the
// device's thread pool. Forward transforms go from the last dimension out,
// inverse ones from the first in, as the specification orders them. A real
// transform of even length n packs its n reals into n/2 complex values
// and transforms those (RFFT: the n/2 + 1 frequencies untangled afterwards;
// IRFFT: tangled before, the imaginary parts of the first and, for even n,
// the middle frequency dropped), so it costs half a complex one; odd
// lengths go through a complex transform of length n.
#ifndef POLYHAL_PLUGINS_CPU_CPU_FFT_H_
#define POLYHAL_PLUGINS_CPU_CPU_FFT_H_

#include <cstdint>
#include <memory>

#include "plugins/cpu/cpu_thread_pool.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// What an FFT kernel computes: plain data, which the kernel blob stores
// member by member (cpu_kernel_blob.h).
struct FftShape {
  phal_kir_fft_type_t type = PHAL_KIR_FFT_TYPE_FFT;
  // f32 or f64: the precision of the transform.
  phal_element_type_t real_type = PHAL_ELEMENT_TYPE_F32;
  uint32_t input = 0;
  uint32_t output = 0;
  uint32_t rank = 0;               // transformed dimensions, 1 to 3
  int64_t lengths[3] = {0, 0, 0};  // their lengths, outermost first
  // The transforms side by side: the product of the other dimensions.
  int64_t batch = 0;
};

// The shape of `kernel`, an FFT kernel that passed CheckKernelStructure.
FftShape FftShapeOf(const phal_kernel_desc_t& kernel);

// INVALID_ARGUMENT, naming the member, unless `shape` (decoded from bytes)
// is one FftShapeOf gives for a kernel of `buffer_count` buffers whose
// element counts fit in int64.
Status CheckFftShape(const FftShape& shape, uint32_t buffer_count);

// A kernel's plans, built once; Run may be called from many threads at
// once.
class FftKernel {
 public:
  // Plans every transformed dimension of a shape that passed CheckFftShape.
  static std::unique_ptr<const FftKernel> Create(const FftShape& shape);
  virtual ~FftKernel() = default;
  FftKernel(const FftKernel&) = delete;
  FftKernel& operator=(const FftKernel&) = delete;

  // Transforms buffers[input] into buffers[output] (base addresses in the
  // order of the kernel's buffers) on `pool` and the calling thread.
  // RESOURCE_EXHAUSTED when scratch memory cannot be had.
  virtual Status Run(void* const* buffers, ThreadPool& pool) const = 0;

  const FftShape& shape() const { return shape_; }
  // About the scalar operations of a run: 5 n log2 n per transform of n
  // points, summed over the passes.
  int64_t work() const;

 protected:
  explicit FftKernel(const FftShape& shape) : shape_(shape) {}

 private:
  FftShape shape_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_FFT_H_
