#include "plugins/cpu/cpu_gemm.h"

#include <cblas.h>

#include <cstring>

namespace phal::cpu {
namespace {

template <typename T, typename Gemm>
void RunTypedGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                  T* sums, Gemm gemm) {
  const auto* lhs = static_cast<const T*>(buffers[shape.lhs]);
  const auto* rhs = static_cast<const T*>(buffers[shape.rhs]);
  const int64_t output_size = shape.m * shape.n;
  if (shape.k == 0) {
    std::memset(sums, 0,
                sizeof(T) * static_cast<size_t>(shape.batch * output_size));
    return;
  }
  for (int64_t b = 0; b < shape.batch; ++b) {
    gemm(CblasRowMajor, shape.lhs_transposed ? CblasTrans : CblasNoTrans,
         shape.rhs_transposed ? CblasTrans : CblasNoTrans,
         static_cast<blasint>(shape.m), static_cast<blasint>(shape.n),
         static_cast<blasint>(shape.k), T{1}, lhs + b * shape.lhs_batch_stride,
         static_cast<blasint>(shape.lhs_leading),
         rhs + b * shape.rhs_batch_stride,
         static_cast<blasint>(shape.rhs_leading), T{0}, sums + b * output_size,
         static_cast<blasint>(shape.n));
  }
}

}  // namespace

void RunGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
             void* sums) {
  if (shape.batch * shape.m * shape.n == 0) return;
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    RunTypedGemm(shape, buffers, static_cast<float*>(sums), cblas_sgemm);
  } else {
    RunTypedGemm(shape, buffers, static_cast<double*>(sums), cblas_dgemm);
  }
}

}  // namespace phal::cpu
