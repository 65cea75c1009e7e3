// LINALG kernels (kernel.h, ABI 1.14): cholesky, triangular-solve, lu, qr,
// householder-product, eigh and svd over a batch of matrices, run by the
// plugin itself with the LAPACK routines of OpenBLAS (cpu_gemm.h opens it),
// as its FFT kernels run their own transforms.
//
// LAPACK works on column-major matrices, the buffers are row-major: each
// matrix is copied (transposed) into a column-major workspace, factored
// there, and copied back; the copies are O(n^2) against the O(n^3) of the
// factorisations. The matrices of the batch run in parallel on the
// device's thread pool, OpenBLAS itself single-threaded.
//
// Results follow the reference interpreter's conventions
// (core/reference/linear_algebra.h), not only LAPACK's: the zero triangle
// of a cholesky factor and the NaN columns from a failing pivot; lu's
// pivot rule where a column holds a NaN; eigenvectors and singular vectors
// scaled so that their entry of largest magnitude is real positive; wide
// svd through the adjoint; u's columns past the numerical rank completed
// by the reference's Householder QR. Where LAPACK cannot reproduce the
// reference's answer (a failing cholesky, NaN or infinite input, a zero
// on the diagonal of a triangular solve, a matrix the reference's Jacobi
// iterations leave untouched, a small lu whose pivot ties only roundings
// tell apart), the kernel runs the reference's own algorithm on that
// matrix, in double precision as the reference does.
#ifndef POLYHAL_PLUGINS_CPU_CPU_LINALG_H_
#define POLYHAL_PLUGINS_CPU_CPU_LINALG_H_

#include <cstdint>
#include <memory>

#include "plugins/cpu/cpu_thread_pool.h"
#include "polyhal/kernel.h"
#include "sdk/base/status.h"

namespace phal::cpu {

// What a LINALG kernel computes: plain data, which the kernel blob stores
// member by member (cpu_kernel_blob.h).
struct LinalgShape {
  phal_kir_linalg_op_t op = PHAL_KIR_LINALG_CHOLESKY;
  uint32_t flags = 0;  // PHAL_KIR_LINALG_* bits
  phal_kir_transpose_t transpose_a = PHAL_KIR_TRANSPOSE_NONE;
  // a's element type: f32, f64, c64 or c128.
  phal_element_type_t type = PHAL_ELEMENT_TYPE_F32;
  uint32_t operand_count = 0;
  uint32_t operands[2] = {0, 0};
  uint32_t result_count = 0;
  uint32_t results[3] = {0, 0, 0};
  int64_t batch = 0;  // the product of the batch dimensions
  int64_t m = 0;      // a's rows
  int64_t n = 0;      // a's columns
  // triangular-solve: b's dimension other than a's order (b is [.., m, k]
  // with LEFT_SIDE, [.., k, m] otherwise); householder-product: the taus
  // per matrix; 0 otherwise.
  int64_t k = 0;
};

// The shape of `kernel`, a LINALG kernel that passed CheckKernelStructure
// (buffers consistent with the op).
LinalgShape LinalgShapeOf(const phal_kernel_desc_t& kernel);

// INVALID_ARGUMENT, naming the member, unless `shape` (decoded from bytes)
// is one LinalgShapeOf could give for a kernel of `buffer_count` buffers:
// op, flags, transpose and type in range, operand and result counts those
// of the op, buffer indices below `buffer_count` (results distinct from
// each other and from the operands, unused entries 0), sizes non-negative
// and consistent with the op, and the buffers' element counts within
// int64.
Status CheckLinalgShape(const LinalgShape& shape, uint32_t buffer_count);

// A kernel of one shape; Run may be called from many threads at once.
class LinalgKernel {
 public:
  // The kernel for a shape that passed CheckLinalgShape.
  static std::unique_ptr<const LinalgKernel> Create(const LinalgShape& shape);
  virtual ~LinalgKernel() = default;
  LinalgKernel(const LinalgKernel&) = delete;
  LinalgKernel& operator=(const LinalgKernel&) = delete;

  // Computes the op on `buffers` (base addresses in the order of the
  // kernel's buffers), the matrices of the batch in parallel on `pool` and
  // the calling thread. RESOURCE_EXHAUSTED when workspace cannot be had;
  // FAILED_PRECONDITION, naming the routine, when OpenBLAS or one of its
  // LAPACK routines is missing; UNIMPLEMENTED for a matrix dimension beyond
  // LAPACK's 32-bit integers.
  virtual Status Run(void* const* buffers, ThreadPool& pool) const = 0;

  const LinalgShape& shape() const { return shape_; }
  // About the scalar operations of a run (batch * n^3 / 3 for cholesky),
  // for sizing launches.
  int64_t work() const;

 protected:
  explicit LinalgKernel(const LinalgShape& shape) : shape_(shape) {}

 private:
  LinalgShape shape_;
};

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_LINALG_H_
