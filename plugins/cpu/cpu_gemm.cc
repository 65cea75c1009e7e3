#include "plugins/cpu/cpu_gemm.h"

#include <cblas.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "plugins/cpu/cpu_bf16_gemm.h"
#include "plugins/cpu/cpu_features.h"
#include "plugins/cpu/cpu_int8_gemm.h"
#include "plugins/cpu/cpu_scratch.h"
#include "plugins/cpu/cpu_vector_clones.h"
#include "sdk/base/float16.h"
#include "sdk/plugin_support/plugin_host.h"

namespace phal::cpu {
namespace {

// While one lives, the calling thread's float arithmetic reads denormal
// operands as zero and writes denormal results as zero (x86-64: MXCSR's
// DAZ and FTZ bits; AArch64: FPCR.FZ), as XLA:CPU computes whole programs.
// The GEMMs of dots and convolutions run under it: a processor takes a
// microcode assist, a hundred cycles, for every denormal it multiplies,
// which made training steps whose gradients underflow twice as slow, and a
// product's error of at most 2^-126 (2^-1022) per term is inside the
// absolute tolerance every dot and convolution is held to. Elementwise
// kernels keep IEEE semantics.
class ScopedFlushDenormals {
 public:
  ScopedFlushDenormals() {
#if defined(__x86_64__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
#elif defined(__aarch64__)
    saved_ = __builtin_aarch64_get_fpcr64();
    __builtin_aarch64_set_fpcr64(saved_ | kFlushToZero);
#endif
  }
  ~ScopedFlushDenormals() {
#if defined(__x86_64__)
    _mm_setcsr(saved_);
#elif defined(__aarch64__)
    __builtin_aarch64_set_fpcr64(saved_);
#endif
  }
  ScopedFlushDenormals(const ScopedFlushDenormals&) = delete;
  ScopedFlushDenormals& operator=(const ScopedFlushDenormals&) = delete;

 private:
#if defined(__x86_64__)
  static constexpr unsigned kFlushToZero = 0x8000;
  static constexpr unsigned kDenormalsAreZero = 0x0040;
  unsigned saved_ = 0;
#elif defined(__aarch64__)
  static constexpr uint64_t kFlushToZero = uint64_t{1} << 24;
  uint64_t saved_ = 0;
#endif
};

using SgemmFunction = decltype(&cblas_sgemm);
using DgemmFunction = decltype(&cblas_dgemm);
using SgemvFunction = decltype(&cblas_sgemv);
using DgemvFunction = decltype(&cblas_dgemv);

using SetThreadsFunction = void (*)(int);

struct Blas {
  void* library = nullptr;  // the dlopen handle; null without OpenBLAS
  SgemmFunction sgemm = nullptr;
  DgemmFunction dgemm = nullptr;
  SgemvFunction sgemv = nullptr;
  DgemvFunction dgemv = nullptr;
};

// OpenBLAS picks its kernels once, when the library initialises, from the
// CPU model it reads; in virtual machines the model is often unknown and it
// falls back to its SSE3 "Prescott" kernels, a quarter of the speed AVX-512
// gives. The plugin therefore opens OpenBLAS itself, on first use, after
// naming the kernels for the ISA features the CPU has (unless the user set
// OPENBLAS_CORETYPE). A process that loaded OpenBLAS before keeps its
// choice.
const char* CoreTypeForFeatures(const std::string& features) {
  auto has = [&](const char* name) { return HasIsaFeature(features, name); };
  if (has("avx512f") && has("avx512dq") && has("avx512bw") && has("avx512vl")) {
    return "SkylakeX";
  }
  if (has("avx2") && has("fma")) return "Haswell";
  return nullptr;
}

Blas LoadBlas() {
  Blas blas;
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    if (const char* core = CoreTypeForFeatures(TargetIsaFeatures())) {
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
  blas.library = library;
  blas.sgemm = reinterpret_cast<SgemmFunction>(dlsym(library, "cblas_sgemm"));
  blas.dgemm = reinterpret_cast<DgemmFunction>(dlsym(library, "cblas_dgemm"));
  blas.sgemv = reinterpret_cast<SgemvFunction>(dlsym(library, "cblas_sgemv"));
  blas.dgemv = reinterpret_cast<DgemvFunction>(dlsym(library, "cblas_dgemv"));
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

}  // namespace

void* OpenBlasSymbol(const char* name) {
  const Blas& blas = TheBlas();
  return blas.library == nullptr ? nullptr : dlsym(blas.library, name);
}

namespace {

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

// The same for a matrix-vector product, whose time is the matrix's bytes
// read once: smaller tasks, so every core's share of the memory bandwidth
// is used.
constexpr int64_t kMinimumGemvWork = int64_t{1} << 17;

// Tasks per thread, so uneven progress on a loaded machine still balances:
// a convolution's tasks gather their own patches and share only the kernel,
// a dot's repack an operand each.
constexpr int64_t kConvTasksPerThread = 4;
constexpr int64_t kGemmTasksPerThread = 2;

// Rows (or columns) of C per task: as many tasks as the pool can use, none
// smaller than kMinimumGemmWork.
int64_t RowsPerTask(int64_t rows, int64_t work_per_row, int64_t tasks_wanted,
                    int64_t minimum_work = kMinimumGemmWork) {
  const int64_t by_count = (rows + tasks_wanted - 1) / tasks_wanted;
  const int64_t by_work =
      (minimum_work + work_per_row - 1) / std::max<int64_t>(1, work_per_row);
  return std::clamp<int64_t>(std::max(by_count, by_work), 1, rows);
}

// One block of a product with one row (m = 1) or one column (n = 1) as a
// matrix-vector product: `first` and `count` are the block's columns of C
// (m = 1) or rows (n = 1). A GEMM would pack the whole matrix first, which
// costs as much as reading it for the product (the KV-cache decode step of
// a transformer is such products only).
template <typename T, typename Gemv>
void VectorProduct(const llvm_emitter::GemmShape& shape, const T* lhs,
                   const T* rhs, T* sums, int64_t first, int64_t count,
                   Gemv gemv) {
  // Zeros first: OpenBLAS scales y by beta = 0 before adding, and some of
  // its versions keep a NaN already in the scratch there.
  std::memset(sums, 0, sizeof(T) * static_cast<size_t>(count));
  const auto lhs_leading = static_cast<blasint>(shape.lhs_leading);
  const auto rhs_leading = static_cast<blasint>(shape.rhs_leading);
  const auto k = static_cast<blasint>(shape.k);
  const auto columns = static_cast<blasint>(count);
  if (shape.m == 1) {
    // C's row = A's row times B: B (k x n) transposed, or B's rows when
    // it is stored as n x k.
    const blasint x_step = shape.lhs_transposed ? lhs_leading : 1;
    if (shape.rhs_transposed) {
      gemv(CblasRowMajor, CblasNoTrans, columns, k, T{1},
           rhs + first * shape.rhs_leading, rhs_leading, lhs, x_step, T{0},
           sums, 1);
    } else {
      gemv(CblasRowMajor, CblasTrans, k, columns, T{1}, rhs + first,
           rhs_leading, lhs, x_step, T{0}, sums, 1);
    }
    return;
  }
  // C's column = A times B's column.
  const blasint x_step = shape.rhs_transposed ? 1 : rhs_leading;
  if (shape.lhs_transposed) {
    gemv(CblasRowMajor, CblasTrans, k, columns, T{1}, lhs + first, lhs_leading,
         rhs, x_step, T{0}, sums, 1);
  } else {
    gemv(CblasRowMajor, CblasNoTrans, columns, k, T{1},
         lhs + first * shape.lhs_leading, lhs_leading, rhs, x_step, T{0}, sums,
         1);
  }
}

// Each batch's C = A * B is cut along its longer side, into blocks of rows
// or of columns; each block is one single-threaded GEMM on a pool task.
// Every task packs the whole of the other operand again, so the cut runs
// across the larger one (a task copies only its share of it), and there are
// only a few tasks per thread. Products with one row or one column are
// matrix-vector products (`gemv`, when there is one) instead.
template <typename T, typename Gemm, typename Gemv>
void RunTypedGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                  T* sums, Gemm gemm, Gemv gemv, ThreadPool& pool) {
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
  const bool vector = gemv != nullptr && (shape.m == 1 || shape.n == 1);
  const int64_t extent = split_columns ? shape.n : shape.m;
  const int64_t block =
      RowsPerTask(extent, (split_columns ? shape.m : shape.n) * shape.k,
                  tasks_wanted, vector ? kMinimumGemvWork : kMinimumGemmWork);
  const int64_t blocks = (extent + block - 1) / block;
  pool.ParallelFor(shape.batch * blocks, 1, [&](int64_t begin, int64_t end) {
    const ScopedFlushDenormals flush;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t b = task / blocks;
      const int64_t first = (task % blocks) * block;
      const int64_t count = std::min(block, extent - first);
      const T* lhs_block = lhs + b * shape.lhs_batch_stride;
      const T* rhs_block = rhs + b * shape.rhs_batch_stride;
      T* sums_block = sums + b * output_size;
      if (vector) {
        VectorProduct(shape, lhs_block, rhs_block, sums_block + first, first,
                      count, gemv);
        continue;
      }
      int64_t m = shape.m;
      int64_t n = shape.n;
      if (split_columns) {
        rhs_block += shape.rhs_transposed ? first * shape.rhs_leading : first;
        sums_block += first;
        n = count;
      } else {
        lhs_block += shape.lhs_transposed ? first : first * shape.lhs_leading;
        sums_block += first * shape.n;
        m = count;
      }
      gemm(CblasRowMajor, shape.lhs_transposed ? CblasTrans : CblasNoTrans,
           shape.rhs_transposed ? CblasTrans : CblasNoTrans,
           static_cast<blasint>(m), static_cast<blasint>(n),
           static_cast<blasint>(shape.k), T{1}, lhs_block,
           static_cast<blasint>(shape.lhs_leading), rhs_block,
           static_cast<blasint>(shape.rhs_leading), T{0}, sums_block,
           static_cast<blasint>(shape.n));
    }
  });
}

// Elements one task widens from 16-bit floats.
constexpr int64_t kWidenGrain = int64_t{1} << 16;

// Bytes of patches one task gathers before its GEMM: small enough to stay
// in a core's L2 cache between the gather and the multiply.
constexpr int64_t kPatchBlockBytes = int64_t{256} << 10;

// Without kernel dilation the taps of one window row are adjacent pixels:
// one copy for those inside the image, zeros for those on padding.
template <typename T>
void GatherSpan(const llvm_emitter::ConvGemmShape& s, const T* line,
                int64_t first_x, T* taps) {
  const int64_t inside_begin = std::clamp<int64_t>(-first_x, 0, s.kernel_width);
  const int64_t inside_end =
      std::clamp<int64_t>(s.width - first_x, inside_begin, s.kernel_width);
  std::fill(taps, taps + inside_begin * s.channels, T{0});
  if (inside_end > inside_begin) {
    std::memcpy(taps + inside_begin * s.channels,
                line + (first_x + inside_begin) * s.channels,
                sizeof(T) * static_cast<size_t>((inside_end - inside_begin) *
                                                s.channels));
  }
  std::fill(taps + inside_end * s.channels, taps + s.kernel_width * s.channels,
            T{0});
}

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
      if (s.dilation_w == 1) {
        GatherSpan(s, line, x * s.stride_w - s.pad_w, taps);
        continue;
      }
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

// Output rows from this long, with this many channels, are computed one
// kernel tap at a time (RunTypedTapGemms) instead of over gathered patches.
constexpr int64_t kTapGemmMinimumWidth = 256;
constexpr int64_t kTapGemmMinimumChannels = 32;
// Output positions one task of RunTypedTapGemms computes: its sums stay in
// L2 across the taps.
constexpr int64_t kTapGemmBlockBytes = int64_t{128} << 10;

bool TapGemmsApply(const llvm_emitter::ConvGemmShape& s) {
  return s.stride_w == 1 && s.out_width >= kTapGemmMinimumWidth &&
         s.channels >= kTapGemmMinimumChannels &&
         s.kernel_height * s.kernel_width > 1;
}

// At stride 1 along the width, kernel tap (ky, kx) reads for a run of
// output positions of one output row a run of input positions of one input
// row, shifted by the tap's offset: the input itself, channels innermost,
// is that tap's patch matrix. So each task (a block of one output row)
// sums one GEMM per tap, over the positions whose input lies inside the
// image (padding contributes nothing), reading no gathered copy of the
// input: a 1-D convolution over long sequences (WaveNet) reads its input
// once per tap instead of gathering every window.
template <typename T, typename Gemm>
void RunTypedTapGemms(const llvm_emitter::ConvGemmShape& s,
                      void* const* buffers, T* sums, Gemm gemm,
                      ThreadPool& pool) {
  const auto* input = static_cast<const T*>(buffers[s.input]);
  const auto* kernel = static_cast<const T*>(buffers[s.kernel]);
  const int64_t block = std::clamp<int64_t>(
      kTapGemmBlockBytes / (s.features * static_cast<int64_t>(sizeof(T))), 16,
      s.out_width);
  const int64_t blocks_per_row = (s.out_width + block - 1) / block;
  const int64_t rows = s.batch * s.out_height;
  pool.ParallelFor(rows * blocks_per_row, 1, [&](int64_t begin, int64_t end) {
    const ScopedFlushDenormals flush;
    for (int64_t task = begin; task < end; ++task) {
      const int64_t row = task / blocks_per_row;
      const int64_t b = row / s.out_height;
      const int64_t y = row % s.out_height;
      const int64_t first = (task % blocks_per_row) * block;
      const int64_t count = std::min(block, s.out_width - first);
      T* out = sums + (row * s.out_width + first) * s.features;
      std::fill(out, out + count * s.features, T{0});
      for (int64_t ky = 0; ky < s.kernel_height; ++ky) {
        const int64_t iy = y * s.stride_h - s.pad_h + ky * s.dilation_h;
        if (iy < 0 || iy >= s.height) continue;
        const T* line = input + ((b * s.height + iy) * s.width) * s.channels;
        for (int64_t kx = 0; kx < s.kernel_width; ++kx) {
          // Output x reads input x + shift.
          const int64_t shift = kx * s.dilation_w - s.pad_w;
          const int64_t lo = std::clamp<int64_t>(-shift, first, first + count);
          const int64_t hi =
              std::clamp<int64_t>(s.width - shift, lo, first + count);
          if (hi <= lo) continue;
          const T* taps =
              kernel + (ky * s.kernel_width + kx) * s.channels * s.features;
          gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
               static_cast<blasint>(hi - lo), static_cast<blasint>(s.features),
               static_cast<blasint>(s.channels), T{1},
               line + (lo + shift) * s.channels,
               static_cast<blasint>(s.channels), taps,
               static_cast<blasint>(s.features), T{1},
               out + (lo - first) * s.features,
               static_cast<blasint>(s.features));
        }
      }
    }
  });
}

// Winograd's minimal filtering F(2x2, 3x3) for 3x3 windows at stride 1:
// each 2x2 block of outputs (a tile) comes from its 4x4 input patch d as
// Y = A^T [(G g G^T) . (B^T d B)] A, so the sums over channels become 16
// GEMMs of tiles x channels by channels x features, one per element of the
// 4x4 transformed tile: 4 multiplies per output and channel instead of 9.
// With fewer channels or features the transforms cost more than they save.
constexpr int64_t kWinogradMinimumChannels = 32;

// Bytes of transformed patches and products one task keeps in L2.
constexpr int64_t kWinogradBlockBytes = int64_t{1} << 20;

bool WinogradApplies(const llvm_emitter::ConvGemmShape& s) {
  return s.kernel_height == 3 && s.kernel_width == 3 && s.stride_h == 1 &&
         s.stride_w == 1 && s.dilation_h == 1 && s.dilation_w == 1 &&
         s.channels >= kWinogradMinimumChannels &&
         s.features >= kWinogradMinimumChannels;
}

// G g G^T for every channel and feature: u[16][channels][features].
template <typename T>
std::vector<T> WinogradKernel(const llvm_emitter::ConvGemmShape& s,
                              const T* kernel) {
  const int64_t c_count = s.channels, f_count = s.features;
  const int64_t plane = c_count * f_count;
  std::vector<T> u(static_cast<size_t>(16 * plane));
  const T half{0.5};
  for (int64_t c = 0; c < c_count; ++c) {
    for (int64_t f = 0; f < f_count; ++f) {
      T g[3][3];
      for (int64_t ky = 0; ky < 3; ++ky) {
        for (int64_t kx = 0; kx < 3; ++kx) {
          g[ky][kx] = kernel[((ky * 3 + kx) * c_count + c) * f_count + f];
        }
      }
      T t[4][3];
      for (int64_t kx = 0; kx < 3; ++kx) {
        t[0][kx] = g[0][kx];
        t[1][kx] = (g[0][kx] + g[1][kx] + g[2][kx]) * half;
        t[2][kx] = (g[0][kx] - g[1][kx] + g[2][kx]) * half;
        t[3][kx] = g[2][kx];
      }
      for (int64_t i = 0; i < 4; ++i) {
        const T row[4] = {t[i][0], (t[i][0] + t[i][1] + t[i][2]) * half,
                          (t[i][0] - t[i][1] + t[i][2]) * half, t[i][2]};
        for (int64_t j = 0; j < 4; ++j) {
          u[static_cast<size_t>((i * 4 + j) * plane + c * f_count + f)] =
              row[j];
        }
      }
    }
  }
  return u;
}

// Where the tiles of the output are: `per_row` across, `per_image` in all.
struct WinogradTiles {
  int64_t per_row = 0;
  int64_t per_image = 0;
};

// Channels (or features) a transform handles at once: 64 bytes, in local
// arrays of a fixed length, so that the compiler vectorises the arithmetic
// without checking whether the pixels and the output overlap.
template <typename T>
constexpr int64_t kLanes = 64 / sizeof(T);

// Copies `lanes` elements; a whole kLanes<T> is a copy of a constant size,
// which the compiler inlines.
template <typename T>
[[gnu::always_inline]] inline void CopyLanes(T* to, const T* from,
                                             int64_t lanes) {
  if (lanes == kLanes<T>) {
    std::memcpy(to, from, sizeof(T) * kLanes<T>);
  } else {
    std::memcpy(to, from, sizeof(T) * static_cast<size_t>(lanes));
  }
}

// B^T d B for `lanes` channels from c on (at most kLanes<T>): d[r][col]
// points at the channels of the tile's pixel (r, col); the 16 results go
// to out + e * stride.
template <typename T>
[[gnu::always_inline]] inline void TransformInputLanes(
    const T* const (&d)[4][4], int64_t c, int64_t lanes, T* out,
    int64_t stride) {
  constexpr int64_t kL = kLanes<T>;
  T in[4][4][kL];
  if (lanes < kL) std::fill_n(&in[0][0][0], 16 * kL, T{0});
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t col = 0; col < 4; ++col) {
      CopyLanes(in[r][col], d[r][col] + c, lanes);
    }
  }
  T w[4][4][kL];
  for (int64_t col = 0; col < 4; ++col) {
    for (int64_t l = 0; l < kL; ++l) {
      w[0][col][l] = in[0][col][l] - in[2][col][l];
      w[1][col][l] = in[1][col][l] + in[2][col][l];
      w[2][col][l] = in[2][col][l] - in[1][col][l];
      w[3][col][l] = in[1][col][l] - in[3][col][l];
    }
  }
  T v[16][kL];
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t l = 0; l < kL; ++l) {
      v[i * 4 + 0][l] = w[i][0][l] - w[i][2][l];
      v[i * 4 + 1][l] = w[i][1][l] + w[i][2][l];
      v[i * 4 + 2][l] = w[i][2][l] - w[i][1][l];
      v[i * 4 + 3][l] = w[i][1][l] - w[i][3][l];
    }
  }
  for (int64_t e = 0; e < 16; ++e) CopyLanes(out + e * stride + c, v[e], lanes);
}

// B^T d B of the tiles [first, first + count), into v[16][count][channels];
// pixels on padding read `zeros`.
template <typename T>
[[gnu::always_inline]] inline void WinogradInputs(
    const llvm_emitter::ConvGemmShape& s, const WinogradTiles& tiles,
    const T* input, const T* zeros, int64_t first, int64_t count, T* v) {
  const int64_t c_count = s.channels;
  const int64_t stride = count * c_count;
  for (int64_t t = 0; t < count; ++t) {
    const int64_t b = (first + t) / tiles.per_image;
    const int64_t in_image = (first + t) % tiles.per_image;
    const int64_t y = (in_image / tiles.per_row) * 2 - s.pad_h;
    const int64_t x = (in_image % tiles.per_row) * 2 - s.pad_w;
    const T* image = input + b * s.height * s.width * c_count;
    const T* d[4][4];
    for (int64_t r = 0; r < 4; ++r) {
      for (int64_t col = 0; col < 4; ++col) {
        const bool inside =
            y + r >= 0 && y + r < s.height && x + col >= 0 && x + col < s.width;
        d[r][col] =
            inside ? image + ((y + r) * s.width + x + col) * c_count : zeros;
      }
    }
    T* out = v + t * c_count;
    int64_t c = 0;
    for (; c + kLanes<T> <= c_count; c += kLanes<T>) {
      TransformInputLanes(d, c, kLanes<T>, out, stride);
    }
    if (c < c_count) TransformInputLanes(d, c, c_count - c, out, stride);
  }
}

// A^T m A for `lanes` features from f on (at most kLanes<T>): the 16
// products at in + e * stride, the 2x2 outputs (`rows` x `columns` of them
// inside the output) at out, rows `row_stride` apart, features innermost.
template <typename T>
[[gnu::always_inline]] inline void TransformOutputLanes(
    const T* in, int64_t stride, int64_t f, int64_t lanes, int64_t rows,
    int64_t columns, T* out, int64_t row_stride, int64_t f_count) {
  constexpr int64_t kL = kLanes<T>;
  T m[16][kL];
  if (lanes < kL) std::fill_n(&m[0][0], 16 * kL, T{0});
  for (int64_t e = 0; e < 16; ++e) CopyLanes(m[e], in + e * stride + f, lanes);
  T z[2][4][kL];
  for (int64_t j = 0; j < 4; ++j) {
    for (int64_t l = 0; l < kL; ++l) {
      z[0][j][l] = m[j][l] + m[4 + j][l] + m[8 + j][l];
      z[1][j][l] = m[4 + j][l] - m[8 + j][l] - m[12 + j][l];
    }
  }
  T y[2][2][kL];
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t l = 0; l < kL; ++l) {
      y[i][0][l] = z[i][0][l] + z[i][1][l] + z[i][2][l];
      y[i][1][l] = z[i][1][l] - z[i][2][l] - z[i][3][l];
    }
  }
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t k = 0; k < columns; ++k) {
      CopyLanes(out + i * row_stride + k * f_count + f, y[i][k], lanes);
    }
  }
}

// A^T m A of the products m[16][count][features] into the sums, laid out as
// the output; a tile's row or column past the output's edge is dropped.
template <typename T>
[[gnu::always_inline]] inline void WinogradOutputs(
    const llvm_emitter::ConvGemmShape& s, const WinogradTiles& tiles,
    const T* m, int64_t first, int64_t count, T* sums) {
  const int64_t f_count = s.features;
  const int64_t stride = count * f_count;
  const int64_t row_stride = s.out_width * f_count;
  for (int64_t t = 0; t < count; ++t) {
    const int64_t b = (first + t) / tiles.per_image;
    const int64_t in_image = (first + t) % tiles.per_image;
    const int64_t y = (in_image / tiles.per_row) * 2;
    const int64_t x = (in_image % tiles.per_row) * 2;
    const int64_t rows = std::min<int64_t>(2, s.out_height - y);
    const int64_t columns = std::min<int64_t>(2, s.out_width - x);
    const T* in = m + t * f_count;
    T* out = sums + ((b * s.out_height + y) * s.out_width + x) * f_count;
    int64_t f = 0;
    for (; f + kLanes<T> <= f_count; f += kLanes<T>) {
      TransformOutputLanes(in, stride, f, kLanes<T>, rows, columns, out,
                           row_stride, f_count);
    }
    if (f < f_count) {
      TransformOutputLanes(in, stride, f, f_count - f, rows, columns, out,
                           row_stride, f_count);
    }
  }
}

// The transforms are most of a Winograd convolution's time besides the
// GEMMs: they are compiled for each instruction set of
// cpu_vector_clones.h (the templates above are inlined into each clone).

PHAL_CPU_VECTOR_CLONES(WinogradInputsF32,
                       (const llvm_emitter::ConvGemmShape& s,
                        const WinogradTiles& tiles, const float* input,
                        const float* zeros, int64_t first, int64_t count,
                        float* v),
                       WinogradInputs,
                       (s, tiles, input, zeros, first, count, v))

PHAL_CPU_VECTOR_CLONES(WinogradInputsF64,
                       (const llvm_emitter::ConvGemmShape& s,
                        const WinogradTiles& tiles, const double* input,
                        const double* zeros, int64_t first, int64_t count,
                        double* v),
                       WinogradInputs,
                       (s, tiles, input, zeros, first, count, v))

PHAL_CPU_VECTOR_CLONES(WinogradOutputsF32,
                       (const llvm_emitter::ConvGemmShape& s,
                        const WinogradTiles& tiles, const float* m,
                        int64_t first, int64_t count, float* sums),
                       WinogradOutputs, (s, tiles, m, first, count, sums))

PHAL_CPU_VECTOR_CLONES(WinogradOutputsF64,
                       (const llvm_emitter::ConvGemmShape& s,
                        const WinogradTiles& tiles, const double* m,
                        int64_t first, int64_t count, double* sums),
                       WinogradOutputs, (s, tiles, m, first, count, sums))

// The tiles of all images in blocks; each pool task transforms its block's
// patches, runs the 16 GEMMs single-threaded and transforms the products
// into the sums.
template <typename T, typename Gemm>
void RunTypedWinograd(const llvm_emitter::ConvGemmShape& s,
                      void* const* buffers, T* sums, Gemm gemm,
                      ThreadPool& pool) {
  const auto* input = static_cast<const T*>(buffers[s.input]);
  const std::vector<T> u =
      WinogradKernel(s, static_cast<const T*>(buffers[s.kernel]));
  const std::vector<T> zeros(static_cast<size_t>(s.channels));
  WinogradTiles tiles;
  tiles.per_row = (s.out_width + 1) / 2;
  tiles.per_image = ((s.out_height + 1) / 2) * tiles.per_row;
  const int64_t tile_count = s.batch * tiles.per_image;
  const int64_t by_cache = std::max<int64_t>(
      1, kWinogradBlockBytes / (16 * (s.channels + s.features) *
                                static_cast<int64_t>(sizeof(T))));
  const int64_t block = std::min(
      by_cache, RowsPerTask(tile_count, 16 * s.channels * s.features,
                            pool.thread_count() * kConvTasksPerThread));
  const int64_t blocks = (tile_count + block - 1) / block;
  const int64_t plane = s.channels * s.features;
  pool.ParallelFor(blocks, 1, [&](int64_t begin, int64_t end) {
    const ScopedFlushDenormals flush;
    std::vector<T> v(static_cast<size_t>(16 * block * s.channels));
    std::vector<T> m(static_cast<size_t>(16 * block * s.features));
    for (int64_t task = begin; task < end; ++task) {
      const int64_t first = task * block;
      const int64_t count = std::min(block, tile_count - first);
      if constexpr (std::is_same_v<T, float>) {
        WinogradInputsF32(s, tiles, input, zeros.data(), first, count,
                          v.data());
      } else {
        WinogradInputsF64(s, tiles, input, zeros.data(), first, count,
                          v.data());
      }
      for (int64_t e = 0; e < 16; ++e) {
        gemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
             static_cast<blasint>(count), static_cast<blasint>(s.features),
             static_cast<blasint>(s.channels), T{1},
             v.data() + e * count * s.channels,
             static_cast<blasint>(s.channels), u.data() + e * plane,
             static_cast<blasint>(s.features), T{0},
             m.data() + e * count * s.features,
             static_cast<blasint>(s.features));
      }
      if constexpr (std::is_same_v<T, float>) {
        WinogradOutputsF32(s, tiles, m.data(), first, count, sums);
      } else {
        WinogradOutputsF64(s, tiles, m.data(), first, count, sums);
      }
    }
  });
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
  if (WinogradApplies(s)) {
    RunTypedWinograd(s, buffers, sums, gemm, pool);
    return;
  }
  if (TapGemmsApply(s)) {
    RunTypedTapGemms(s, buffers, sums, gemm, pool);
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
    const ScopedFlushDenormals flush;
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

// Every f16 bit pattern's value as f32, computed once.
const std::vector<float>& HalfValues() {
  static const std::vector<float> values = [] {
    std::vector<float> table(size_t{1} << 16);
    for (size_t bits = 0; bits < table.size(); ++bits) {
      table[bits] = HalfToFloat(static_cast<uint16_t>(bits));
    }
    return table;
  }();
  return values;
}

// f16 elements widened by the F16C instruction, exactly (a signalling NaN
// comes out quiet: a NaN either way in a product).
#if defined(__x86_64__)
__attribute__((target("avx,f16c"))) void WidenHalvesWithF16c(
    const uint16_t* bits, float* out, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    const __m128i half =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i));
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(half));
  }
  for (; i < end; ++i) out[i] = _cvtsh_ss(bits[i]);
}

bool TargetHasF16c() {
  static const bool has = HasIsaFeature(TargetIsaFeatures(), "f16c");
  return has;
}
#endif

// Elements of a 16-bit float (or 8-bit integer) operand widened to f32, in
// pool tasks, into `wide` (at least `count` floats).
void Widen(const void* data, phal_element_type_t type, int64_t count,
           ThreadPool& pool, float* wide) {
  const auto* bits = static_cast<const uint16_t*>(data);
  float* out = wide;
  if (type == PHAL_ELEMENT_TYPE_S8 || type == PHAL_ELEMENT_TYPE_U8) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    const bool is_signed = type == PHAL_ELEMENT_TYPE_S8;
    pool.ParallelFor(count, kWidenGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        out[i] = is_signed ? static_cast<float>(static_cast<int8_t>(bytes[i]))
                           : static_cast<float>(bytes[i]);
      }
    });
  } else if (type == PHAL_ELEMENT_TYPE_BF16) {
    // A bf16 is the upper half of the f32 of the same value.
    pool.ParallelFor(count, kWidenGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const uint32_t word = uint32_t{bits[i]} << 16;
        std::memcpy(out + i, &word, sizeof(word));
      }
    });
#if defined(__x86_64__)
  } else if (TargetHasF16c()) {
    pool.ParallelFor(count, kWidenGrain, [&](int64_t begin, int64_t end) {
      WidenHalvesWithF16c(bits, out, begin, end);
    });
#endif
  } else {
    const float* table = HalfValues().data();
    pool.ParallelFor(count, kWidenGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) out[i] = table[bits[i]];
    });
  }
}

// An operand widened to f32 into the calling thread's scratch for `slot`.
struct WideOperand {
  WideOperand(ScratchSlot slot, const void* data, phal_element_type_t type,
              int64_t count, ThreadPool& pool)
      : scratch(slot, sizeof(float) * static_cast<size_t>(count)) {
    Widen(data, type, count, pool, scratch.As<float>());
  }
  float* data() const { return scratch.As<float>(); }
  Scratch scratch;
};

// The elements an operand of `rows` x `columns` per batch, with the given
// leading dimension and batch stride, spans.
int64_t OperandExtent(int64_t batch, int64_t batch_stride, int64_t rows,
                      int64_t columns, int64_t leading) {
  if (batch == 0 || rows == 0 || columns == 0) return 0;
  return (batch - 1) * batch_stride + (rows - 1) * leading + columns;
}

int64_t LhsExtent(const llvm_emitter::GemmShape& shape) {
  return OperandExtent(shape.batch, shape.lhs_batch_stride,
                       shape.lhs_transposed ? shape.k : shape.m,
                       shape.lhs_transposed ? shape.m : shape.k,
                       shape.lhs_leading);
}

int64_t RhsExtent(const llvm_emitter::GemmShape& shape) {
  return OperandExtent(shape.batch, shape.rhs_batch_stride,
                       shape.rhs_transposed ? shape.n : shape.k,
                       shape.rhs_transposed ? shape.k : shape.n,
                       shape.rhs_leading);
}

// The largest magnitude of an s8 or u8 element.
int64_t LargestMagnitude(phal_element_type_t type) {
  return type == PHAL_ELEMENT_TYPE_S8 ? 128 : 255;
}

// An s32 GEMM of s8 and u8 operands: both widened to f32, the sums over
// slices of k short enough that every partial sum stays within 2^24 (so
// f32 holds each exactly, whatever order the GEMM adds in), each slice's
// sums added into the s32 ones modulo 2^32 as an s32 accumulation wraps.
void RunIntegerGemm(const llvm_emitter::GemmShape& shape, void* const* buffers,
                    int32_t* sums, ThreadPool& pool) {
  const int64_t count = shape.batch * shape.m * shape.n;
  if (shape.k == 0) {
    std::memset(sums, 0, sizeof(int32_t) * static_cast<size_t>(count));
    return;
  }
  const WideOperand lhs(ScratchSlot::kLhs, buffers[shape.lhs], shape.lhs_type,
                        LhsExtent(shape), pool);
  const WideOperand rhs(ScratchSlot::kRhs, buffers[shape.rhs], shape.rhs_type,
                        RhsExtent(shape), pool);
  const int64_t slice = std::max<int64_t>(
      1, (int64_t{1} << 24) / (LargestMagnitude(shape.lhs_type) *
                               LargestMagnitude(shape.rhs_type)));
  llvm_emitter::GemmShape part = shape;
  part.type = PHAL_ELEMENT_TYPE_F32;
  part.lhs_type = part.rhs_type = PHAL_ELEMENT_TYPE_INVALID;
  part.lhs = 0;
  part.rhs = 1;
  const Scratch partial_scratch(ScratchSlot::kPartial,
                                sizeof(float) * static_cast<size_t>(count));
  const float* partial = partial_scratch.As<float>();
  for (int64_t first = 0; first < shape.k; first += slice) {
    part.k = std::min(slice, shape.k - first);
    void* parts[] = {
        lhs.data() + (shape.lhs_transposed ? first * shape.lhs_leading : first),
        rhs.data() +
            (shape.rhs_transposed ? first : first * shape.rhs_leading)};
    RunGemm(part, parts, partial_scratch.As<float>(), pool);
    const bool initial = first == 0;
    pool.ParallelFor(count, kWidenGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const auto value =
            static_cast<uint32_t>(static_cast<int32_t>(partial[i]));
        const uint32_t before = initial ? 0u : static_cast<uint32_t>(sums[i]);
        sums[i] = static_cast<int32_t>(before + value);
      }
    });
  }
}

}  // namespace

void RunConvGemm(const llvm_emitter::ConvGemmShape& shape, void* const* buffers,
                 void* sums, ThreadPool& pool) {
  if (shape.batch * shape.out_height * shape.out_width * shape.features == 0) {
    return;
  }
  const Blas& blas = TheBlas();
  if (shape.input_type != PHAL_ELEMENT_TYPE_INVALID ||
      shape.kernel_type != PHAL_ELEMENT_TYPE_INVALID) {
    // 16-bit float operands: widened to f32 once, then as f32 ones.
    std::vector<void*> wide_buffers(
        buffers, buffers + std::max(shape.input, shape.kernel) + 1);
    std::optional<WideOperand> input, kernel;
    if (shape.input_type != PHAL_ELEMENT_TYPE_INVALID) {
      input.emplace(ScratchSlot::kLhs, buffers[shape.input], shape.input_type,
                    shape.batch * shape.height * shape.width * shape.channels,
                    pool);
      wide_buffers[shape.input] = input->data();
    }
    if (shape.kernel_type != PHAL_ELEMENT_TYPE_INVALID) {
      kernel.emplace(ScratchSlot::kRhs, buffers[shape.kernel],
                     shape.kernel_type,
                     shape.kernel_height * shape.kernel_width * shape.channels *
                         shape.features,
                     pool);
      wide_buffers[shape.kernel] = kernel->data();
    }
    llvm_emitter::ConvGemmShape wide = shape;
    wide.input_type = wide.kernel_type = PHAL_ELEMENT_TYPE_INVALID;
    RunConvGemm(wide, wide_buffers.data(), sums, pool);
    return;
  }
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
  if (shape.type == PHAL_ELEMENT_TYPE_S32) {
    static const bool vnni = HasInt8GemmFeatures(TargetIsaFeatures());
    if (vnni) {
      RunInt8Gemm(shape, buffers, static_cast<int32_t*>(sums), pool);
      return;
    }
    RunIntegerGemm(shape, buffers, static_cast<int32_t*>(sums), pool);
    return;
  }
  if (shape.lhs_type == PHAL_ELEMENT_TYPE_BF16 &&
      shape.rhs_type == PHAL_ELEMENT_TYPE_BF16) {
    static const bool bf16 = HasBf16GemmFeatures(TargetIsaFeatures());
    if (bf16) {
      RunBf16Gemm(shape, buffers, static_cast<float*>(sums), pool);
      return;
    }
  }
  if (shape.lhs_type != PHAL_ELEMENT_TYPE_INVALID ||
      shape.rhs_type != PHAL_ELEMENT_TYPE_INVALID) {
    // 16-bit float operands: widened to f32 once (as far as the GEMM
    // reads them), then as f32 ones.
    std::vector<void*> wide_buffers(
        buffers, buffers + std::max(shape.lhs, shape.rhs) + 1);
    std::optional<WideOperand> lhs, rhs;
    if (shape.lhs_type != PHAL_ELEMENT_TYPE_INVALID) {
      lhs.emplace(ScratchSlot::kLhs, buffers[shape.lhs], shape.lhs_type,
                  LhsExtent(shape), pool);
      wide_buffers[shape.lhs] = lhs->data();
    }
    if (shape.rhs_type != PHAL_ELEMENT_TYPE_INVALID) {
      rhs.emplace(ScratchSlot::kRhs, buffers[shape.rhs], shape.rhs_type,
                  RhsExtent(shape), pool);
      wide_buffers[shape.rhs] = rhs->data();
    }
    llvm_emitter::GemmShape wide = shape;
    wide.lhs_type = wide.rhs_type = PHAL_ELEMENT_TYPE_INVALID;
    RunGemm(wide, wide_buffers.data(), sums, pool);
    return;
  }
  const Blas& blas = TheBlas();
  if (shape.type == PHAL_ELEMENT_TYPE_F32) {
    auto* out = static_cast<float*>(sums);
    if (blas.sgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.sgemm, blas.sgemv, pool);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<float>,
                   SgemvFunction{nullptr}, pool);
    }
  } else {
    auto* out = static_cast<double*>(sums);
    if (blas.dgemm != nullptr) {
      RunTypedGemm(shape, buffers, out, blas.dgemm, blas.dgemv, pool);
    } else {
      RunTypedGemm(shape, buffers, out, PortableGemm<double>,
                   DgemvFunction{nullptr}, pool);
    }
  }
}

}  // namespace phal::cpu
