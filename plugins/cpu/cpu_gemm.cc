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

using SetThreadsFunction = void (*)(int);

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
  // The thread pool cuts every GEMM into single-threaded calls: threads of
  // OpenBLAS's own would only spin beside the pool's (and a threaded
  // OpenBLAS serialises calls made from several threads at once).
  setenv("OPENBLAS_NUM_THREADS", "1", 0);
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
  if (auto set_threads = reinterpret_cast<SetThreadsFunction>(
          dlsym(library, "openblas_set_num_threads"))) {
    set_threads(1);
  }
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

// Multiply-adds below which a GEMM call is not worth a task of its own.
constexpr int64_t kMinimumGemmWork = int64_t{1} << 20;

// Tasks per thread, so uneven progress on a loaded machine still balances:
// a convolution's tasks gather their own patches and share only the kernel,
// a dot's repack an operand each.
constexpr int64_t kConvTasksPerThread = 4;
constexpr int64_t kGemmTasksPerThread = 2;

// Rows (or columns) of C per task: as many tasks as the pool can use, none
// smaller than kMinimumGemmWork.
int64_t RowsPerTask(int64_t rows, int64_t work_per_row, int64_t tasks_wanted) {
  const int64_t by_count = (rows + tasks_wanted - 1) / tasks_wanted;
  const int64_t by_work = (kMinimumGemmWork + work_per_row - 1) /
                          std::max<int64_t>(1, work_per_row);
  return std::clamp<int64_t>(std::max(by_count, by_work), 1, rows);
}

// Each batch's C = A * B is cut along its longer side, into blocks of rows
// or of columns; each block is one single-threaded GEMM on a pool task.
// Every task packs the whole of the other operand again, so the cut runs
// across the larger one (a task copies only its share of it), and there are
// only a few tasks per thread.
template <typename T, typename Gemm>
void RunTypedGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                  T* sums, Gemm gemm, ThreadPool& pool) {
  const auto* lhs = static_cast<const T*>(buffers[shape.lhs]);
  const auto* rhs = static_cast<const T*>(buffers[shape.rhs]);
  const int64_t output_size = shape.m * shape.n;
  if (shape.k == 0) {
    std::memset(sums, 0,
                sizeof(T) * static_cast<size_t>(shape.batch * output_size));
    return;
  }
  const int64_t tasks_wanted =
      std::max<int64_t>(1, pool.thread_count() * kGemmTasksPerThread /
                               std::max<int64_t>(1, shape.batch));
  const bool split_columns = shape.n > shape.m;
  const int64_t extent = split_columns ? shape.n : shape.m;
  const int64_t block = RowsPerTask(
      extent, (split_columns ? shape.m : shape.n) * shape.k, tasks_wanted);
  const int64_t blocks = (extent + block - 1) / block;
  pool.ParallelFor(shape.batch * blocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / blocks;
      const int64_t first = (task % blocks) * block;
      const int64_t count = std::min(block, extent - first);
      const T* a = lhs + b * shape.lhs_batch_stride;
      const T* bm = rhs + b * shape.rhs_batch_stride;
      T* c = sums + b * output_size;
      int64_t m = shape.m;
      int64_t n = shape.n;
      if (split_columns) {
        bm += shape.rhs_transposed ? first * shape.rhs_leading : first;
        c += first;
        n = count;
      } else {
        a += shape.lhs_transposed ? first : first * shape.lhs_leading;
        c += first * shape.n;
        m = count;
      }
      gemm(CblasRowMajor, shape.lhs_transposed ? CblasTrans : CblasNoTrans,
           shape.rhs_transposed ? CblasTrans : CblasNoTrans,
           static_cast<blasint>(m), static_cast<blasint>(n),
           static_cast<blasint>(shape.k), T{1}, a,
           static_cast<blasint>(shape.lhs_leading), bm,
           static_cast<blasint>(shape.rhs_leading), T{0}, c,
           static_cast<blasint>(shape.n));
    }
  });
}

// Bytes of patches one task gathers before its GEMM: small enough to stay
// in a core's L2 cache between the gather and the multiply.
constexpr int64_t kPatchBlockBytes = int64_t{256} << 10;

// Fills `rows` rows of patches, starting at output position `first`
// (counted over all images), `depth` elements each.
template <typename T>
void GatherPatches(const llvm_emitter::ConvGemmShape& s, const T* input,
                   int64_t first, int64_t rows, T* patches) {
  const int64_t positions = s.out_height * s.out_width;
  const int64_t depth = s.kernel_height * s.kernel_width * s.channels;
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t b = (first + r) / positions;
    const int64_t position = (first + r) % positions;
    const int64_t y = position / s.out_width;
    const int64_t x = position % s.out_width;
    const T* image = input + b * s.height * s.width * s.channels;
    T* row = patches + r * depth;
    for (int64_t ky = 0; ky < s.kernel_height; ++ky) {
      const int64_t iy = y * s.stride_h - s.pad_h + ky * s.dilation_h;
      T* taps = row + ky * s.kernel_width * s.channels;
      if (iy < 0 || iy >= s.height) {
        std::fill(taps, taps + s.kernel_width * s.channels, T{0});
        continue;
      }
      const T* line = image + iy * s.width * s.channels;
      for (int64_t kx = 0; kx < s.kernel_width; ++kx) {
        const int64_t ix = x * s.stride_w - s.pad_w + kx * s.dilation_w;
        T* tap = taps + kx * s.channels;
        if (ix < 0 || ix >= s.width) {
          std::fill(tap, tap + s.channels, T{0});
        } else {
          std::memcpy(tap, line + ix * s.channels,
                      sizeof(T) * static_cast<size_t>(s.channels));
        }
      }
    }
  }
}

// A 1x1 window at stride 1 without padding reads each input pixel once:
// the input already is the patch matrix.
bool InputIsPatchMatrix(const llvm_emitter::ConvGemmShape& s) {
  return s.kernel_height == 1 && s.kernel_width == 1 && s.stride_h == 1 &&
         s.stride_w == 1 && s.pad_h == 0 && s.pad_w == 0 &&
         s.out_height == s.height && s.out_width == s.width;
}

// One GEMM over the output positions of all images (M = batch * out_height
// * out_width), cut into row blocks; each pool task gathers its block's
// patches and multiplies them by the kernel single-threaded.
template <typename T, typename Gemm>
void RunTypedConvGemm(const llvm_emitter::ConvGemmShape& s,
                      void* const* buffers, T* sums, Gemm gemm,
                      ThreadPool& pool) {
  const auto* input = static_cast<const T*>(buffers[s.input]);
  const auto* kernel = static_cast<const T*>(buffers[s.kernel]);
  const int64_t depth = s.kernel_height * s.kernel_width * s.channels;
  const int64_t rows = s.batch * s.out_height * s.out_width;
  if (depth == 0) {
    std::memset(sums, 0, sizeof(T) * static_cast<size_t>(rows * s.features));
    return;
  }
  const bool direct = InputIsPatchMatrix(s);
  const int64_t by_cache = std::max<int64_t>(
      1, kPatchBlockBytes / (depth * static_cast<int64_t>(sizeof(T))));
  const int64_t block = std::min(
      by_cache, RowsPerTask(rows, depth * s.features,
                            pool.thread_count() * kConvTasksPerThread));
  const int64_t blocks = (rows + block - 1) / block;
  pool.ParallelFor(blocks, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> patches(direct ? 0 : static_cast<size_t>(block * depth));
    for (int64_t task = begin; task < end; ++task) {
      const int64_t first = task * block;
      const int64_t count = std::min(block, rows - first);
      const T* a = input + first * depth;
      if (!direct) {
        GatherPatches(s, input, first, count, patches.data());
        a = patches.data();
      }
      gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
           static_cast<blasint>(count), static_cast<blasint>(s.features),
           static_cast<blasint>(depth), T{1}, a, static_cast<blasint>(depth),
           kernel, static_cast<blasint>(s.features), T{0},
           sums + first * s.features, static_cast<blasint>(s.features));
    }
  });
}

}  // namespace

void RunConvGemm(const llvm_emitter::ConvGemmShape& shape, void* const* buffers,
                 void* sums, ThreadPool& pool) {
  if (shape.batch * shape.out_height * shape.out_width * shape.features == 0) {
    return;
  }
  const Blas& blas = TheBlas();
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    auto* out = static_cast<float*>(sums);
    if (blas.sgemm != nullptr) {
      RunTypedConvGemm(shape, buffers, out, blas.sgemm, pool);
    } else {
      RunTypedConvGemm(shape, buffers, out, PortableGemm<float>, pool);
    }
  } else {
    auto* out = static_cast<double*>(sums);
    if (blas.dgemm != nullptr) {
      RunTypedConvGemm(shape, buffers, out, blas.dgemm, pool);
    } else {
      RunTypedConvGemm(shape, buffers, out, PortableGemm<double>, pool);
    }
  }
}

void RunGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
             void* sums, ThreadPool& pool) {
  if (shape.batch * shape.m * shape.n == 0) return;
  const Blas& blas = TheBlas();
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    auto* out = static_cast<float*>(sums);
    if (blas.sgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.sgemm, pool);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<float>, pool);
    }
  } else {
    auto* out = static_cast<double*>(sums);
    if (blas.dgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.dgemm, pool);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<double>, pool);
    }
  }
}

}  // namespace phal::cpu
