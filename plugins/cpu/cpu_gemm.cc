#include "plugins/cpu/cpu_gemm.h"

#include <cblas.h>
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "plugins/cpu/cpu_features.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::cpu {
namespace {

using SgemmFunction = decltype(&cblas_sgemm);
using DgemmFunction = decltype(&cblas_dgemm);

struct Blas {
  SgemmFunction sgemm = nullptr;
  DgemmFunction dgemm = nullptr;
};

// OpenBLAS picks its kernels once, when the library initialises, from the
// CPU model it reads; in virtual machines the model is often unknown and it
// falls back to its SSE3 "Prescott" kernels, a quarter of the speed AVX-512
// gives. The plugin therefore opens OpenBLAS itself, on first use, after
// naming the kernels for the ISA features the CPU has (unless the user set
// OPENBLAS_CORETYPE). A process that loaded OpenBLAS before keeps its
// choice.
const char* CoreTypeForFeatures(const std::string& features) {
  auto has = [&](const char* name) {
    return (" " + features + " ").find(std::string(" ") + name + " ") !=
           std::string::npos;
  };
  if (has("avx512f") && has("avx512dq") && has("avx512bw") && has("avx512vl")) {
    return "SkylakeX";
  }
  if (has("avx2") && has("fma")) return "Haswell";
  return nullptr;
}

Blas LoadBlas() {
  Blas blas;
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    if (const char* core = CoreTypeForFeatures(DetectIsaFeatures())) {
      setenv("OPENBLAS_CORETYPE", core, 0);
    }
  }
  void* library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const std::string message =
        std::string("cpu plugin: OpenBLAS could not be loaded (") + dlerror() +
        "); f32/f64 dot sums use portable loops";
    Log(PHAL_LOG_LEVEL_WARNING, message.c_str());
    return blas;
  }
  blas.sgemm = reinterpret_cast<SgemmFunction>(dlsym(library, "cblas_sgemm"));
  blas.dgemm = reinterpret_cast<DgemmFunction>(dlsym(library, "cblas_dgemm"));
  return blas;
}

const Blas& TheBlas() {
  static const Blas blas = LoadBlas();
  return blas;
}

// The same sums without a BLAS: correct, and slow.
template <typename T>
void PortableGemm(CBLAS_ORDER, CBLAS_TRANSPOSE transpose_a,
                  CBLAS_TRANSPOSE transpose_b, blasint m, blasint n, blasint k,
                  T, const T* a, blasint lda, const T* b, blasint ldb, T, T* c,
                  blasint ldc) {
  for (blasint i = 0; i < m; ++i) {
    for (blasint j = 0; j < n; ++j) {
      T sum{0};
      for (blasint p = 0; p < k; ++p) {
        const T left =
            transpose_a == CblasTrans ? a[p * lda + i] : a[i * lda + p];
        const T right =
            transpose_b == CblasTrans ? b[j * ldb + p] : b[p * ldb + j];
        sum += left * right;
      }
      c[i * ldc + j] = sum;
    }
  }
}

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
  const Blas& blas = TheBlas();
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    auto* out = static_cast<float*>(sums);
    if (blas.sgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.sgemm);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<float>);
    }
  } else {
    auto* out = static_cast<double*>(sums);
    if (blas.dgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.dgemm);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<double>);
    }
  }
}

}  // namespace phal::cpu
