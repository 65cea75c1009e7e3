#include "plugins/cpu/cpu_fft.h"

#include <algorithm>
#include <atomic>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "plugins/cpu/cpu_block_cache.h"
#include "plugins/cpu/cpu_fft_plan.h"
#include "plugins/cpu/cpu_vector_clones.h"

namespace phal::cpu {
namespace {

using fft_internal::Add;
using fft_internal::Conj;
using fft_internal::Mul;
using fft_internal::MulMinusI;
using fft_internal::Scale;
using fft_internal::Sub;

// The vectors whose lanes hold lines side by side: AVX2's width (the
// AVX-512 clone uses it too, the baseline one splits it in two).
constexpr size_t kVectorBytes = 32;

template <typename T>
struct VectorOf;
template <>
struct VectorOf<float> {
  typedef float type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct VectorOf<double> {
  typedef double type __attribute__((vector_size(kVectorBytes)));
};
template <typename T>
using Vector = typename VectorOf<T>::type;
template <typename T>
constexpr int64_t kLanes = static_cast<int64_t>(kVectorBytes / sizeof(T));

// The integer vectors that select elements of two Vector<T>s in
// __builtin_shuffle: indices 0..W-1 into the first, W..2W-1 the second.
template <typename T>
struct MaskOf;
template <>
struct MaskOf<float> {
  using element = int32_t;
  typedef element type __attribute__((vector_size(kVectorBytes)));
};
template <>
struct MaskOf<double> {
  using element = int64_t;
  typedef element type __attribute__((vector_size(kVectorBytes)));
};

// Lines are transformed a vector's worth at a time while their two scratch
// buffers fit in this (about L2), longer ones one by one.
constexpr uint64_t kVectorScratchBytes = uint64_t{4} << 20;
// Scratch a thread keeps for its next run; more is freed after the run.
constexpr uint64_t kKeptScratchBytes = uint64_t{16} << 20;
// The least work a pool task gets.
constexpr int64_t kMinimumWorkPerTask = int64_t{1} << 15;

int64_t Log2Ceiling(int64_t n) {
  int64_t bits = 0;
  while ((int64_t{1} << bits) < n) ++bits;
  return bits;
}

// About the scalar operations of transforming `lines` lines of `length`.
int64_t PassWork(int64_t lines, int64_t length) {
  return lines * length * 5 * std::max<int64_t>(1, Log2Ceiling(length));
}

bool IsReal(phal_kir_fft_type_t type) {
  return type == PHAL_KIR_FFT_TYPE_RFFT || type == PHAL_KIR_FFT_TYPE_IRFFT;
}

// The complex array a transform works on: the lengths, with the last one
// n/2 + 1 for a real transform. Its element count, batch included.
struct ComplexExtents {
  int64_t dims[3] = {0, 0, 0};
  int64_t elements = 0;
};

ComplexExtents ExtentsOf(const FftShape& shape) {
  ComplexExtents extents;
  extents.elements = shape.batch;
  for (uint32_t a = 0; a < shape.rank; ++a) {
    int64_t d = shape.lengths[a];
    if (a + 1 == shape.rank && IsReal(shape.type)) d = d == 0 ? 0 : d / 2 + 1;
    extents.dims[a] = d;
    extents.elements *= d;
  }
  return extents;
}

// ---- lines in memory --------------------------------------------------------

// Where the lines of a pass lie in an array of T's: line g starts at
// element (g / inner) * length * inner + g % inner, its elements `inner`
// apart, each `width` T's (2: complex, real part first; 1: real).
struct LineLayout {
  int64_t length = 0;
  int64_t inner = 1;
  int64_t width = 2;

  int64_t Start(int64_t line) const {
    return ((line / inner) * length * inner + line % inner) * width;
  }
  int64_t step() const { return inner * width; }
};

template <typename V, typename T>
PHAL_FFT_INLINE void SetLane(V& vector, int64_t lane, T value) {
  if constexpr (std::is_same_v<V, T>) {
    vector = value;
  } else {
    vector[lane] = value;
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE T GetLane(const V& vector, int64_t lane) {
  if constexpr (std::is_same_v<V, T>) {
    return vector;
  } else {
    return vector[lane];
  }
}

// ---- whole vectors in and out of lines --------------------------------------

// (An out parameter: returning a 32-byte vector by value would change the
// baseline ABI, which GCC warns about.)
template <typename V, typename T>
PHAL_FFT_INLINE void LoadVector(const T* at, V* value) {
  std::memcpy(value, at, sizeof(V));
}

template <typename V, typename T>
PHAL_FFT_INLINE void StoreVector(T* at, const V& value) {
  std::memcpy(at, &value, sizeof(V));
}

// Mask of one step of Transpose: for the pair (a, b) of vectors `step`
// apart, the first result takes a's elements j with (j & step) == 0 and
// b's shifted up by `step` between them; the second the rest.
template <typename T, bool kSecond, int64_t kStep, size_t... J>
constexpr typename MaskOf<T>::type TransposeMask(std::index_sequence<J...>) {
  constexpr auto w = static_cast<size_t>(kLanes<T>);
  constexpr auto step = static_cast<size_t>(kStep);
  return typename MaskOf<T>::type{static_cast<typename MaskOf<T>::element>(
      kSecond ? ((J & step) == 0 ? J + step : w + J)
              : ((J & step) == 0 ? J : w + J - step))...};
}

// Transposes the W x W matrix of T whose rows are v[0..W): v[i][j] becomes
// v[j][i], in log2(W) steps of W shuffles, each swapping the off-diagonal
// blocks of size `kStep`.
template <typename T, int64_t kStep = kLanes<T> / 2>
PHAL_FFT_INLINE void Transpose(Vector<T>* v) {
  using Mask = typename MaskOf<T>::type;
  constexpr auto sequence = std::make_index_sequence<kLanes<T>>();
  constexpr Mask first = TransposeMask<T, false, kStep>(sequence);
  constexpr Mask second = TransposeMask<T, true, kStep>(sequence);
  for (int64_t i = 0; i < kLanes<T>; ++i) {
    if ((i & kStep) != 0) continue;
    const Vector<T> a = v[i];
    const Vector<T> b = v[i + kStep];
    v[i] = __builtin_shuffle(a, b, first);
    v[i + kStep] = __builtin_shuffle(a, b, second);
  }
  if constexpr (kStep > 1) Transpose<T, kStep / 2>(v);
}

// The even (kOdd false) or odd elements of the 2W T's a, b.
template <typename T, bool kOdd, size_t... J>
constexpr typename MaskOf<T>::type HalfMask(std::index_sequence<J...>) {
  return typename MaskOf<T>::type{
      static_cast<typename MaskOf<T>::element>(2 * J + (kOdd ? 1 : 0))...};
}

// The first (kHigh false) or second half of re and im interleaved.
template <typename T, bool kHigh, size_t... J>
constexpr typename MaskOf<T>::type InterleaveMask(std::index_sequence<J...>) {
  constexpr auto w = static_cast<size_t>(kLanes<T>);
  return typename MaskOf<T>::type{static_cast<typename MaskOf<T>::element>(
      (J / 2) + (kHigh ? w / 2 : 0) + (J % 2 == 1 ? w : 0))...};
}

// Full groups of W lines that are rows (complex elements one after the
// other): W/2 positions at a time, a vector of each row transposed into
// the positions' real and imaginary parts; the tail element by element.
template <typename T>
PHAL_FFT_INLINE int64_t GatherRows(const T* const* lines, int64_t length,
                                   T sign, Lane<Vector<T>>* out) {
  using V = Vector<T>;
  constexpr int64_t block = kLanes<T> / 2;
  int64_t t = 0;
  for (; t + block <= length; t += block) {
    V v[kLanes<T>];
    for (int64_t lane = 0; lane < kLanes<T>; ++lane) {
      LoadVector(lines[lane] + 2 * t, &v[lane]);
    }
    Transpose<T>(v);
    for (int64_t c = 0; c < block; ++c) {
      out[t + c] = Lane<V>{v[2 * c], v[2 * c + 1] * sign};
    }
  }
  return t;
}

template <typename T>
PHAL_FFT_INLINE int64_t ScatterRows(const Lane<Vector<T>>* in, int64_t length,
                                    T scale, T imag_scale, T* const* lines) {
  using V = Vector<T>;
  constexpr int64_t block = kLanes<T> / 2;
  int64_t t = 0;
  for (; t + block <= length; t += block) {
    V v[kLanes<T>];
    for (int64_t c = 0; c < block; ++c) {
      v[2 * c] = in[t + c].re * scale;
      v[2 * c + 1] = in[t + c].im * imag_scale;
    }
    Transpose<T>(v);
    for (int64_t lane = 0; lane < kLanes<T>; ++lane) {
      StoreVector(lines[lane] + 2 * t, v[lane]);
    }
  }
  return t;
}

// Full groups of W lines side by side in memory (columns of complex
// elements): each position is 2W consecutive T's, split into real and
// imaginary parts.
template <typename T>
PHAL_FFT_INLINE void GatherColumns(const T* first, int64_t length, int64_t step,
                                   T sign, Lane<Vector<T>>* out) {
  using V = Vector<T>;
  constexpr auto sequence = std::make_index_sequence<kLanes<T>>();
  constexpr typename MaskOf<T>::type even = HalfMask<T, false>(sequence);
  constexpr typename MaskOf<T>::type odd = HalfMask<T, true>(sequence);
  for (int64_t t = 0; t < length; ++t) {
    V a;
    V b;
    LoadVector(first + t * step, &a);
    LoadVector(first + t * step + kLanes<T>, &b);
    out[t] = Lane<V>{__builtin_shuffle(a, b, even),
                     __builtin_shuffle(a, b, odd) * sign};
  }
}

template <typename T>
PHAL_FFT_INLINE void ScatterColumns(const Lane<Vector<T>>* in, int64_t length,
                                    int64_t step, T scale, T imag_scale,
                                    T* first) {
  using V = Vector<T>;
  constexpr auto sequence = std::make_index_sequence<kLanes<T>>();
  constexpr typename MaskOf<T>::type low = InterleaveMask<T, false>(sequence);
  constexpr typename MaskOf<T>::type high = InterleaveMask<T, true>(sequence);
  for (int64_t t = 0; t < length; ++t) {
    const V re = in[t].re * scale;
    const V im = in[t].im * imag_scale;
    StoreVector(first + t * step, __builtin_shuffle(re, im, low));
    StoreVector(first + t * step + kLanes<T>, __builtin_shuffle(re, im, high));
  }
}

// Whether lines first.. of `layout` hold W complex elements side by side
// at every position (W columns of one block).
PHAL_FFT_INLINE bool AreColumns(const LineLayout& layout, int64_t first,
                                int64_t lanes) {
  return layout.inner > 1 && first % layout.inner + lanes <= layout.inner;
}

// Lanes [0, count) of out[0, layout.length) from lines first.. of `in`
// (real elements with imaginary part 0), conjugated when asked; the other
// lanes are zeros.
template <typename V, typename T>
PHAL_FFT_INLINE void Gather(const T* in, const LineLayout& layout,
                            int64_t first, int64_t count, bool conjugate,
                            Lane<V>* out) {
  const int64_t step = layout.step();
  const T sign = conjugate ? T(-1) : T(1);
  int64_t begin = 0;  // positions the vector paths did
  if constexpr (!std::is_same_v<V, T>) {
    if (count == kLanes<T> && layout.width == 2) {
      if (AreColumns(layout, first, count)) {
        GatherColumns(in + layout.Start(first), layout.length, step, sign, out);
        return;
      }
      if (layout.inner == 1) {
        const T* lines[kLanes<T>];
        for (int64_t lane = 0; lane < count; ++lane) {
          lines[lane] = in + layout.Start(first + lane);
        }
        begin = GatherRows(lines, layout.length, sign, out);
      }
    }
  }
  if (count < static_cast<int64_t>(sizeof(V) / sizeof(T))) {
    for (int64_t t = 0; t < layout.length; ++t) out[t] = Lane<V>{V{}, V{}};
  }
  for (int64_t lane = 0; lane < count; ++lane) {
    const T* line = in + layout.Start(first + lane);
    if (layout.width == 1) {
      for (int64_t t = begin; t < layout.length; ++t) {
        SetLane(out[t].re, lane, line[t * step]);
        SetLane(out[t].im, lane, T(0));
      }
      continue;
    }
    for (int64_t t = begin; t < layout.length; ++t) {
      SetLane(out[t].re, lane, line[t * step]);
      SetLane(out[t].im, lane, sign * line[t * step + 1]);
    }
  }
}

// Lanes [0, count) of in[0, layout.length), times `scale` and conjugated
// when asked, into lines first.. of `out` (the real parts alone for real
// elements).
template <typename V, typename T>
PHAL_FFT_INLINE void Scatter(const Lane<V>* in, const LineLayout& layout,
                             int64_t first, int64_t count, bool conjugate,
                             T scale, T* out) {
  const int64_t step = layout.step();
  const T imag_scale = conjugate ? -scale : scale;
  int64_t begin = 0;  // positions the vector paths did
  if constexpr (!std::is_same_v<V, T>) {
    if (count == kLanes<T> && layout.width == 2) {
      if (AreColumns(layout, first, count)) {
        ScatterColumns(in, layout.length, step, scale, imag_scale,
                       out + layout.Start(first));
        return;
      }
      if (layout.inner == 1) {
        T* lines[kLanes<T>];
        for (int64_t lane = 0; lane < count; ++lane) {
          lines[lane] = out + layout.Start(first + lane);
        }
        begin = ScatterRows(in, layout.length, scale, imag_scale, lines);
      }
    }
  }
  for (int64_t lane = 0; lane < count; ++lane) {
    T* line = out + layout.Start(first + lane);
    if (layout.width == 1) {
      for (int64_t t = 0; t < layout.length; ++t) {
        line[t * step] = GetLane<V, T>(in[t].re, lane) * scale;
      }
      continue;
    }
    for (int64_t t = begin; t < layout.length; ++t) {
      line[t * step] = GetLane<V, T>(in[t].re, lane) * scale;
      line[t * step + 1] = GetLane<V, T>(in[t].im, lane) * imag_scale;
    }
  }
}

// ---- passes -----------------------------------------------------------------

enum class PassMode {
  kComplex,      // a complex transform along a dimension
  kRealForward,  // RFFT along the last dimension
  kRealInverse,  // IRFFT along the last dimension
};

// One pass over an array: its lines, where they are read and written, and
// how they are transformed.
template <typename T>
struct PassJob {
  PassMode mode = PassMode::kComplex;
  const FftPlan<T>* plan = nullptr;
  // Real passes of even length n: exp(-2 pi i k / n) for k <= n/2.
  const std::complex<T>* real_twiddles = nullptr;
  const T* source = nullptr;
  T* destination = nullptr;
  LineLayout in;
  LineLayout out;
  int64_t lines = 0;
  int64_t real_length = 0;  // real passes: n
  bool inverse = false;     // complex passes
  T scale = T(1);
  int64_t lanes = 1;     // lines per group: kLanes<T>, or 1
  int64_t capacity = 0;  // elements of each of the two scratch buffers
};

// RFFT of even n from the n/2-point transform z of the packed reals:
// X_k = E_k + exp(-2 pi i k / n) O_k, with E_k = (z_k + conj z_{h-k}) / 2
// and O_k = -i (z_k - conj z_{h-k}) / 2 (indices mod h), for k <= h.
template <typename V, typename T>
PHAL_FFT_INLINE void Untangle(const Lane<V>* z, int64_t h,
                              const std::complex<T>* twiddles, Lane<V>* x) {
  const T half = T(0.5);
  for (int64_t k = 0; k <= h; ++k) {
    const Lane<V> a = z[k == h ? 0 : k];
    const Lane<V> b = Conj(z[k == 0 ? 0 : h - k]);
    const Lane<V> even = Scale(Add(a, b), half);
    const Lane<V> odd = Scale(MulMinusI(Sub(a, b)), half);
    x[k] = Add(even, Mul(odd, twiddles[k]));
  }
}

// IRFFT of even n: the conjugate of Z'_k = (X_k + conj X_{h-k}) +
// i conj(exp(-2 pi i k / n)) (X_k - conj X_{h-k}) for k < h, whose
// h-point inverse transform over n holds the reals in pairs; X_0 and X_h
// are taken as real.
template <typename V, typename T>
PHAL_FFT_INLINE void Tangle(Lane<V>* x, int64_t h,
                            const std::complex<T>* twiddles, Lane<V>* z) {
  x[0].im = V{};
  x[h].im = V{};
  for (int64_t k = 0; k < h; ++k) {
    const Lane<V> a = x[k];
    const Lane<V> b = Conj(x[h - k]);
    const Lane<V> turned = Mul(Sub(a, b), std::conj(twiddles[k]));
    // i * turned is -(-i * turned).
    const Lane<V> i_turned = Scale(MulMinusI(turned), T(-1));
    z[k] = Conj(Add(Add(a, b), i_turned));
  }
}

// IRFFT of odd n: X_0..X_{(n-1)/2} in x[0..] extended to the conjugate of
// the Hermitian spectrum (X_0 taken as real), ready for a forward
// transform whose real parts over n are the result.
template <typename V, typename T>
PHAL_FFT_INLINE void ExtendConjugated(Lane<V>* x, int64_t n) {
  x[0].im = V{};
  for (int64_t k = 1; k <= (n - 1) / 2; ++k) {
    x[n - k] = x[k];
    x[k].im = -x[k].im;
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void TransformGroup(const PassJob<T>& job, int64_t first,
                                    int64_t count, Lane<V>* a, Lane<V>* b) {
  const FftPlan<T>& plan = *job.plan;
  switch (job.mode) {
    case PassMode::kComplex: {
      Gather(job.source, job.in, first, count, job.inverse, a);
      const Lane<V>* result = ExecuteFft(plan, a, b);
      Scatter(result, job.out, first, count, job.inverse, job.scale,
              job.destination);
      return;
    }
    case PassMode::kRealForward: {
      Gather(job.source, job.in, first, count, false, a);
      Lane<V>* spectrum = ExecuteFft(plan, a, b);
      if (job.real_length % 2 == 0) {
        Lane<V>* untangled = spectrum == a ? b : a;
        Untangle(spectrum, plan.length, job.real_twiddles, untangled);
        spectrum = untangled;
      }
      Scatter(spectrum, job.out, first, count, false, T(1), job.destination);
      return;
    }
    case PassMode::kRealInverse: {
      Gather(job.source, job.in, first, count, false, a);
      Lane<V>* values;
      if (job.real_length % 2 == 0) {
        Tangle(a, plan.length, job.real_twiddles, b);
        values = ExecuteFft(plan, b, a);
      } else {
        ExtendConjugated<V, T>(a, job.real_length);
        values = ExecuteFft(plan, a, b);
      }
      Scatter(values, job.out, first, count, true, job.scale, job.destination);
      return;
    }
  }
}

// Groups [begin, end) of `job`'s lines. `scratch` holds the two buffers of
// job.capacity lanes each; a vector group of one line runs in scalar lanes.
template <typename T>
PHAL_FFT_INLINE void TransformGroups(const PassJob<T>& job, int64_t begin,
                                     int64_t end, std::byte* scratch) {
  using V = Vector<T>;
  for (int64_t group = begin; group < end; ++group) {
    const int64_t first = group * job.lanes;
    const int64_t count = std::min(job.lanes, job.lines - first);
    if (job.lanes == 1 || count == 1) {
      auto* a = reinterpret_cast<Lane<T>*>(scratch);
      TransformGroup<T, T>(job, first, count, a, a + job.capacity);
    } else {
      auto* a = reinterpret_cast<Lane<V>*>(scratch);
      TransformGroup<V, T>(job, first, count, a, a + job.capacity);
    }
  }
}

PHAL_CPU_VECTOR_CLONES(TransformGroupsF32,
                       (const PassJob<float>& job, int64_t begin, int64_t end,
                        std::byte* scratch),
                       TransformGroups, (job, begin, end, scratch))

PHAL_CPU_VECTOR_CLONES(TransformGroupsF64,
                       (const PassJob<double>& job, int64_t begin, int64_t end,
                        std::byte* scratch),
                       TransformGroups, (job, begin, end, scratch))

void TransformGroupsOf(const PassJob<float>& job, int64_t begin, int64_t end,
                       std::byte* scratch) {
  TransformGroupsF32(job, begin, end, scratch);
}

void TransformGroupsOf(const PassJob<double>& job, int64_t begin, int64_t end,
                       std::byte* scratch) {
  TransformGroupsF64(job, begin, end, scratch);
}

// ---- scratch memory ---------------------------------------------------------

struct ScratchBlock {
  std::byte* data = nullptr;
  uint64_t bytes = 0;

  ScratchBlock() = default;
  ScratchBlock(const ScratchBlock&) = delete;
  ScratchBlock& operator=(const ScratchBlock&) = delete;
  ~ScratchBlock() { std::free(data); }

  bool Reserve(uint64_t size) {
    if (size <= bytes) return true;
    std::free(data);
    const uint64_t rounded = (size + 63) / 64 * 64;
    data = static_cast<std::byte*>(std::aligned_alloc(64, rounded));
    bytes = data != nullptr ? rounded : 0;
    return data != nullptr;
  }
};

// `bytes` of scratch for the calling thread: the block it keeps between
// runs, or `temporary` for more than kKeptScratchBytes. Null when out of
// memory.
std::byte* ThreadScratch(uint64_t bytes, ScratchBlock& temporary) {
  thread_local ScratchBlock kept;
  ScratchBlock& block = bytes <= kKeptScratchBytes ? kept : temporary;
  return block.Reserve(bytes) ? block.data : nullptr;
}

// ---- the kernel -------------------------------------------------------------

template <typename T>
class TypedFftKernel final : public FftKernel {
 public:
  explicit TypedFftKernel(const FftShape& shape) : FftKernel(shape) {
    for (uint32_t a = 0; a < shape.rank; ++a) {
      int64_t length = shape.lengths[a];
      const bool packed = a + 1 == shape.rank && IsReal(shape.type) &&
                          length % 2 == 0 && length > 0;
      if (packed) {
        for (int64_t k = 0; k <= length / 2; ++k) {
          const std::complex<double> w = UnitRoot(k, length);
          real_twiddles_.emplace_back(static_cast<T>(w.real()),
                                      static_cast<T>(w.imag()));
        }
        length /= 2;
      }
      plans_.push_back(MakeFftPlan<T>(length));
    }
  }

  Status Run(void* const* buffers, ThreadPool& pool) const override {
    const FftShape& s = shape();
    const ComplexExtents extents = ExtentsOf(s);
    if (extents.elements == 0) return OkStatus();
    const auto* input = static_cast<const T*>(buffers[s.input]);
    auto* output = static_cast<T*>(buffers[s.output]);
    const int last = static_cast<int>(s.rank) - 1;
    switch (s.type) {
      case PHAL_KIR_FFT_TYPE_FFT:
        for (int a = last; a >= 0; --a) {
          PHAL_RETURN_IF_ERROR(
              RunPass(ComplexPass(a, extents, a == last ? input : output,
                                  output, false),
                      pool));
        }
        return OkStatus();
      case PHAL_KIR_FFT_TYPE_IFFT:
        for (int a = 0; a <= last; ++a) {
          PHAL_RETURN_IF_ERROR(RunPass(
              ComplexPass(a, extents, a == 0 ? input : output, output, true),
              pool));
        }
        return OkStatus();
      case PHAL_KIR_FFT_TYPE_RFFT:
        PHAL_RETURN_IF_ERROR(RunPass(
            RealPass(PassMode::kRealForward, extents, input, output), pool));
        for (int a = last - 1; a >= 0; --a) {
          PHAL_RETURN_IF_ERROR(
              RunPass(ComplexPass(a, extents, output, output, false), pool));
        }
        return OkStatus();
      case PHAL_KIR_FFT_TYPE_IRFFT:
        return RunRealInverse(extents, input, output, pool);
    }
    return Internal("cpu plugin: FFT kernel of unknown fft_type");
  }

 private:
  // IRFFT: the inverse transforms of the other dimensions into a
  // temporary complex array (the input is read-only), then the last.
  Status RunRealInverse(const ComplexExtents& extents, const T* input,
                        T* output, ThreadPool& pool) const {
    const int last = static_cast<int>(shape().rank) - 1;
    if (last == 0) {
      return RunPass(RealPass(PassMode::kRealInverse, extents, input, output),
                     pool);
    }
    BlockCache& cache = BlockCache::Instance();
    const uint64_t bytes =
        (static_cast<uint64_t>(extents.elements) * 2 * sizeof(T) + 63) / 64 *
        64;
    std::byte* block = cache.Allocate(bytes, 64);
    if (block == nullptr) {
      return ResourceExhausted("cpu plugin: no memory for an IRFFT's " +
                               std::to_string(bytes) + " temporary bytes");
    }
    auto* temporary = reinterpret_cast<T*>(block);
    Status status = OkStatus();
    for (int a = 0; a < last && status.ok(); ++a) {
      status = RunPass(
          ComplexPass(a, extents, a == 0 ? input : temporary, temporary, true),
          pool);
    }
    if (status.ok()) {
      status = RunPass(
          RealPass(PassMode::kRealInverse, extents, temporary, output), pool);
    }
    cache.Free(block, bytes);
    return status;
  }

  // The complex transform along dimension `a` of the complex array.
  PassJob<T> ComplexPass(int a, const ComplexExtents& extents, const T* source,
                         T* destination, bool inverse) const {
    PassJob<T> job;
    job.mode = PassMode::kComplex;
    job.plan = &plans_[static_cast<size_t>(a)];
    job.source = source;
    job.destination = destination;
    const int64_t length = extents.dims[a];
    int64_t inner = 1;
    for (uint32_t b = static_cast<uint32_t>(a) + 1; b < shape().rank; ++b) {
      inner *= extents.dims[b];
    }
    job.in = LineLayout{length, inner, 2};
    job.out = job.in;
    job.lines = extents.elements / length;
    job.inverse = inverse;
    job.scale =
        inverse ? static_cast<T>(1.0 / static_cast<double>(length)) : T(1);
    job.capacity = std::max(job.plan->buffer_length(), length);
    return job;
  }

  // The real transform along the last dimension, between the real array
  // and the complex one.
  PassJob<T> RealPass(PassMode mode, const ComplexExtents& extents,
                      const T* source, T* destination) const {
    const uint32_t last = shape().rank - 1;
    const int64_t n = shape().lengths[last];
    const int64_t frequencies = extents.dims[last];  // n/2 + 1
    PassJob<T> job;
    job.mode = mode;
    job.plan = &plans_[last];
    job.real_twiddles = real_twiddles_.data();
    job.source = source;
    job.destination = destination;
    job.real_length = n;
    job.lines = extents.elements / frequencies;
    // Even n: the reals as n/2 complex pairs; odd n: one by one.
    const LineLayout reals =
        n % 2 == 0 ? LineLayout{n / 2, 1, 2} : LineLayout{n, 1, 1};
    const LineLayout spectrum{frequencies, 1, 2};
    job.in = mode == PassMode::kRealForward ? reals : spectrum;
    job.out = mode == PassMode::kRealForward ? spectrum : reals;
    job.scale = mode == PassMode::kRealInverse
                    ? static_cast<T>(1.0 / static_cast<double>(n))
                    : T(1);
    job.capacity = std::max({job.plan->buffer_length(), frequencies, n});
    return job;
  }

  Status RunPass(PassJob<T> job, ThreadPool& pool) const {
    using V = Vector<T>;
    const bool vectors =
        job.lines > 1 &&
        2 * static_cast<uint64_t>(job.capacity) * sizeof(Lane<V>) <=
            kVectorScratchBytes;
    job.lanes = vectors ? kLanes<T> : 1;
    const uint64_t bytes = 2 * static_cast<uint64_t>(job.capacity) *
                           (vectors ? sizeof(Lane<V>) : sizeof(Lane<T>));
    const int64_t groups = (job.lines + job.lanes - 1) / job.lanes;
    const int64_t group_work = PassWork(job.lanes, job.capacity);
    const int64_t grain = std::max<int64_t>(
        1, kMinimumWorkPerTask / std::max<int64_t>(1, group_work));
    std::atomic<bool> out_of_memory{false};
    pool.ParallelFor(groups, grain, [&](int64_t begin, int64_t end) {
      ScratchBlock temporary;
      std::byte* scratch = ThreadScratch(bytes, temporary);
      if (scratch == nullptr) {
        out_of_memory = true;
        return;
      }
      TransformGroupsOf(job, begin, end, scratch);
    });
    if (out_of_memory) {
      return ResourceExhausted("cpu plugin: no memory for " +
                               std::to_string(bytes) + " bytes of FFT scratch");
    }
    return OkStatus();
  }

  // plans_[a]: the transform along dimension a (of n/2 points for the
  // last dimension of a real transform of even length n).
  std::vector<FftPlan<T>> plans_;
  std::vector<std::complex<T>> real_twiddles_;
};

bool MultipliesWithin(int64_t a, int64_t b, int64_t* product) {
  return !__builtin_mul_overflow(a, b, product);
}

}  // namespace

FftShape FftShapeOf(const phal_kernel_desc_t& kernel) {
  const phal_kir_fft_t& fft = *kernel.u.fft;
  const phal_kir_buffer_t& input = kernel.buffers[fft.input];
  FftShape shape;
  shape.type = fft.fft_type;
  shape.real_type = input.element_type == PHAL_ELEMENT_TYPE_F32 ||
                            input.element_type == PHAL_ELEMENT_TYPE_C64
                        ? PHAL_ELEMENT_TYPE_F32
                        : PHAL_ELEMENT_TYPE_F64;
  shape.input = fft.input;
  shape.output = fft.output;
  shape.rank = fft.fft_rank;
  for (uint32_t a = 0; a < fft.fft_rank; ++a) {
    shape.lengths[a] = fft.fft_length[a];
  }
  shape.batch = 1;
  for (uint32_t d = 0; d + fft.fft_rank < input.rank; ++d) {
    shape.batch *= input.dims[d];
  }
  return shape;
}

Status CheckFftShape(const FftShape& shape, uint32_t buffer_count) {
  const auto fail = [](const std::string& what) {
    return InvalidArgument("cpu plugin: the FFT kernel's " + what);
  };
  if (static_cast<uint32_t>(shape.type) > PHAL_KIR_FFT_TYPE_IRFFT) {
    return fail("fft_type is not one of ABI 1.6");
  }
  if (shape.real_type != PHAL_ELEMENT_TYPE_F32 &&
      shape.real_type != PHAL_ELEMENT_TYPE_F64) {
    return fail("precision is neither f32 nor f64");
  }
  if (shape.input >= buffer_count || shape.output >= buffer_count ||
      shape.input == shape.output) {
    return fail("input and output are not two of its buffers");
  }
  if (shape.rank < 1 || shape.rank > 3) {
    return fail("rank is not 1 to 3");
  }
  // The real and the complex arrays, in T's, fit in int64.
  int64_t elements = shape.batch;
  if (elements < 0) return fail("batch is negative");
  for (uint32_t a = 0; a < shape.rank; ++a) {
    const int64_t n = shape.lengths[a];
    if (n < 0 || !MultipliesWithin(elements, n + 2, &elements)) {
      return fail("lengths are negative or too large");
    }
  }
  if (!MultipliesWithin(elements, 2, &elements)) {
    return fail("lengths are too large");
  }
  return OkStatus();
}

int64_t FftKernel::work() const {
  const ComplexExtents extents = ExtentsOf(shape_);
  int64_t work = 0;
  for (uint32_t a = 0; a < shape_.rank; ++a) {
    const int64_t length = shape_.lengths[a];
    if (length == 0 || extents.dims[a] == 0) return 0;
    work += PassWork(extents.elements / extents.dims[a], length);
  }
  return work;
}

std::unique_ptr<const FftKernel> FftKernel::Create(const FftShape& shape) {
  if (shape.real_type == PHAL_ELEMENT_TYPE_F32) {
    return std::make_unique<const TypedFftKernel<float>>(shape);
  }
  return std::make_unique<const TypedFftKernel<double>>(shape);
}

}  // namespace phal::cpu
