#include "plugins/cpu/cpu_gemm.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

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

// Rows of output positions per GEMM: the patches of a block take at most
// 64 MiB.
constexpr int64_t kPatchBytes = int64_t{64} << 20;

template <typename T, typename Gemm>
void RunTypedConvGemm(const llvm_emitter::ConvGemmShape& s,
                      void* const* buffers, T* sums, Gemm gemm) {
  const auto* input = static_cast<const T*>(buffers[s.input]);
  const auto* kernel = static_cast<const T*>(buffers[s.kernel]);
  const int64_t depth = s.kernel_height * s.kernel_width * s.channels;
  const int64_t positions = s.out_height * s.out_width;
  if (depth == 0) {
    std::memset(
        sums, 0,
        sizeof(T) * static_cast<size_t>(s.batch * positions * s.features));
    return;
  }
  const int64_t block = std::max<int64_t>(
      1,
      std::min<int64_t>(
          positions, kPatchBytes / (depth * static_cast<int64_t>(sizeof(T)))));
  std::vector<T> patches(static_cast<size_t>(block * depth));
  for (int64_t b = 0; b < s.batch; ++b) {
    const T* image = input + b * s.height * s.width * s.channels;
    for (int64_t first = 0; first < positions; first += block) {
      const int64_t rows = std::min(block, positions - first);
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t y = (first + r) / s.out_width;
        const int64_t x = (first + r) % s.out_width;
        T* row = patches.data() + r * depth;
        for (int64_t ky = 0; ky < s.kernel_height; ++ky) {
          const int64_t iy = y * s.stride_h - s.pad_h + ky * s.dilation_h;
          for (int64_t kx = 0; kx < s.kernel_width; ++kx) {
            const int64_t ix = x * s.stride_w - s.pad_w + kx * s.dilation_w;
            T* tap = row + (ky * s.kernel_width + kx) * s.channels;
            if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width) {
              std::fill(tap, tap + s.channels, T{0});
            } else {
              std::memcpy(tap, image + (iy * s.width + ix) * s.channels,
                          sizeof(T) * static_cast<size_t>(s.channels));
            }
          }
        }
      }
      gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
           static_cast<blasint>(rows), static_cast<blasint>(s.features),
           static_cast<blasint>(depth), T{1}, patches.data(),
           static_cast<blasint>(depth), kernel,
           static_cast<blasint>(s.features), T{0},
           sums + (b * positions + first) * s.features,
           static_cast<blasint>(s.features));
    }
  }
}

}  // namespace

void RunConvGemm(const llvm_emitter::ConvGemmShape& shape, void* const* buffers,
                 void* sums) {
  if (shape.batch * shape.out_height * shape.out_width * shape.features == 0) {
    return;
  }
  const Blas& blas = TheBlas();
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    auto* out = static_cast<float*>(sums);
    if (blas.sgemm != nullptr) {
      RunTypedConvGemm(shape, buffers, out, blas.sgemm);
    } else {
      RunTypedConvGemm(shape, buffers, out, PortableGemm<float>);
    }
  } else {
    auto* out = static_cast<double*>(sums);
    if (blas.dgemm != nullptr) {
      RunTypedConvGemm(shape, buffers, out, blas.dgemm);
    } else {
      RunTypedConvGemm(shape, buffers, out, PortableGemm<double>);
    }
  }
}

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
