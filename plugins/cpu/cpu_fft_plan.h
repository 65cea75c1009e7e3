// One-dimensional discrete Fourier transforms of one length: the plan,
// built once per kernel, and its execution over lanes.
//
// A plan computes X[k] = sum_j x[j] exp(-2 pi i j k / n) (the inverse is
// the conjugate of the forward transform of the conjugate, which the
// caller applies). A length whose prime factors are all at most
// kLargestRadix is a mixed-radix Stockham FFT: one pass per factor (radix
// 4 first, then 2, 3, 5 and any other prime as a generic radix), each
// reading one buffer and writing the other in natural order, so no
// bit-reversal pass is needed. Any other length runs Bluestein's algorithm:
// the transform as a circular convolution with a chirp, computed by a
// power-of-two plan. Every length thus costs O(n log n).
//
// Twiddle factors are computed once, in double with the angle reduced to
// within pi/4 of a multiple of pi/2 by integer arithmetic, and rounded to
// the working precision T (float or double).
//
// Execution works on lanes: a value of type V holds one position of W
// independent transforms (V a GCC vector of W T's, or T itself for one),
// so every operation is a vector operation over transforms and a pass
// needs no shuffles. Plans are immutable once built; any number of threads
// may execute one at once.
#ifndef POLYHAL_PLUGINS_CPU_CPU_FFT_PLAN_H_
#define POLYHAL_PLUGINS_CPU_CPU_FFT_PLAN_H_

#include <algorithm>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

namespace phal::cpu {

// The largest prime factor a Stockham pass handles (generic radices cost
// O(p) per point); lengths with a larger one run Bluestein's algorithm.
inline constexpr int64_t kLargestRadix = 64;

// exp(-2 pi i m / n), accurate to the rounding of double: 4m = qn + r with
// |r| <= n/2, so sin and cos see an angle within pi/4 of zero, and the
// quarter turns q are exact swaps and negations.
std::complex<double> UnitRoot(int64_t m, int64_t n);

// One pass of a Stockham FFT of length n = stride * radix * span. Its input
// holds `stride` interleaved sub-transforms of length radix * span (element
// t of sub-transform s at t * stride + s); its output `stride * radix` of
// length span, the same way.
template <typename T>
struct FftPass {
  int64_t radix = 0;
  int64_t stride = 0;
  int64_t span = 0;
  // exp(-2 pi i t k / (radix * span)) at t * (radix - 1) + k - 1, for
  // t < span and 1 <= k < radix.
  std::vector<std::complex<T>> twiddles;
  // A generic radix p: exp(-2 pi i j k / p) at (j - 1) * (p - 1) / 2 + k - 1
  // for 1 <= j, k <= (p - 1) / 2.
  std::vector<std::complex<T>> roots;
};

template <typename T>
struct FftPlan {
  int64_t length = 0;
  // Stockham passes; none for lengths 0 and 1, and for Bluestein.
  std::vector<FftPass<T>> passes;
  // Bluestein: the convolution length M (a power of two of at least
  // 2n - 1), 0 for a Stockham plan; the chirp exp(-pi i j^2 / n) for j < n;
  // the M-point transform of the conjugate chirp wrapped around M, over M;
  // and the M-point plan.
  int64_t convolution_length = 0;
  std::vector<std::complex<T>> chirp;
  std::vector<std::complex<T>> kernel;
  std::unique_ptr<const FftPlan<T>> convolution;

  // The elements each of the two buffers ExecuteFft is given must hold.
  int64_t buffer_length() const { return std::max(length, convolution_length); }
};

// The plan of length n >= 0 (float and double are instantiated).
template <typename T>
FftPlan<T> MakeFftPlan(int64_t n);

// ---- execution --------------------------------------------------------------

// One position of W transforms, as real and imaginary parts.
template <typename V>
struct Lane {
  V re;
  V im;
};

// The helpers are forced inline so that each of the caller's clones for an
// instruction set (cpu_fft.cc) gets them compiled for that set.
#define PHAL_FFT_INLINE inline __attribute__((always_inline))

namespace fft_internal {

template <typename V>
PHAL_FFT_INLINE Lane<V> Add(const Lane<V>& a, const Lane<V>& b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename V>
PHAL_FFT_INLINE Lane<V> Sub(const Lane<V>& a, const Lane<V>& b) {
  return {a.re - b.re, a.im - b.im};
}
// a * -i.
template <typename V>
PHAL_FFT_INLINE Lane<V> MulMinusI(const Lane<V>& a) {
  return {a.im, -a.re};
}
template <typename V, typename T>
PHAL_FFT_INLINE Lane<V> Mul(const Lane<V>& a, const std::complex<T>& w) {
  const T wr = w.real();
  const T wi = w.imag();
  return {a.re * wr - a.im * wi, a.re * wi + a.im * wr};
}
template <typename V, typename T>
PHAL_FFT_INLINE Lane<V> Scale(const Lane<V>& a, T s) {
  return {a.re * s, a.im * s};
}
template <typename V>
PHAL_FFT_INLINE Lane<V> Conj(const Lane<V>& a) {
  return {a.re, -a.im};
}

// Writes y[k] * twiddle(k) to out[k * stride] for k < p, twiddle(0) = 1.
template <typename V, typename T>
PHAL_FFT_INLINE void Store(const Lane<V>* y, int64_t p,
                           const std::complex<T>* twiddles, Lane<V>* out,
                           int64_t stride) {
  out[0] = y[0];
  for (int64_t k = 1; k < p; ++k) {
    out[k * stride] = Mul(y[k], twiddles[k - 1]);
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void Radix2Pass(const FftPass<T>& pass, const Lane<V>* in,
                                Lane<V>* out) {
  const int64_t l = pass.stride;
  const int64_t m = pass.span;
  for (int64_t t = 0; t < m; ++t) {
    const std::complex<T> w1 = pass.twiddles[static_cast<size_t>(t)];
    const Lane<V>* x0 = in + t * l;
    const Lane<V>* x1 = in + (t + m) * l;
    Lane<V>* y = out + t * 2 * l;
    for (int64_t s = 0; s < l; ++s) {
      const Lane<V> a = x0[s];
      const Lane<V> b = x1[s];
      y[s] = Add(a, b);
      y[l + s] = Mul(Sub(a, b), w1);
    }
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void Radix4Pass(const FftPass<T>& pass, const Lane<V>* in,
                                Lane<V>* out) {
  const int64_t l = pass.stride;
  const int64_t m = pass.span;
  for (int64_t t = 0; t < m; ++t) {
    const std::complex<T>* w = pass.twiddles.data() + 3 * t;
    const std::complex<T> w1 = w[0];
    const std::complex<T> w2 = w[1];
    const std::complex<T> w3 = w[2];
    const Lane<V>* x0 = in + t * l;
    const Lane<V>* x1 = in + (t + m) * l;
    const Lane<V>* x2 = in + (t + 2 * m) * l;
    const Lane<V>* x3 = in + (t + 3 * m) * l;
    Lane<V>* y = out + t * 4 * l;
    for (int64_t s = 0; s < l; ++s) {
      const Lane<V> a = Add(x0[s], x2[s]);
      const Lane<V> b = Sub(x0[s], x2[s]);
      const Lane<V> c = Add(x1[s], x3[s]);
      const Lane<V> d = MulMinusI(Sub(x1[s], x3[s]));
      y[s] = Add(a, c);
      y[l + s] = Mul(Add(b, d), w1);
      y[2 * l + s] = Mul(Sub(a, c), w2);
      y[3 * l + s] = Mul(Sub(b, d), w3);
    }
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void Radix3Pass(const FftPass<T>& pass, const Lane<V>* in,
                                Lane<V>* out) {
  // exp(-2 pi i / 3) = -1/2 - i sqrt(3)/2.
  const T half = T(0.5);
  const T sine = T(0.86602540378443864676);
  const int64_t l = pass.stride;
  const int64_t m = pass.span;
  for (int64_t t = 0; t < m; ++t) {
    const std::complex<T>* w = pass.twiddles.data() + 2 * t;
    const Lane<V>* x0 = in + t * l;
    const Lane<V>* x1 = in + (t + m) * l;
    const Lane<V>* x2 = in + (t + 2 * m) * l;
    Lane<V>* y = out + t * 3 * l;
    for (int64_t s = 0; s < l; ++s) {
      const Lane<V> sum = Add(x1[s], x2[s]);
      const Lane<V> rest = Sub(x0[s], Scale(sum, half));
      const Lane<V> turn = Scale(MulMinusI(Sub(x1[s], x2[s])), sine);
      y[s] = Add(x0[s], sum);
      y[l + s] = Mul(Add(rest, turn), w[0]);
      y[2 * l + s] = Mul(Sub(rest, turn), w[1]);
    }
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void Radix5Pass(const FftPass<T>& pass, const Lane<V>* in,
                                Lane<V>* out) {
  // cos and sin of 2 pi / 5 and 4 pi / 5.
  const T c1 = T(0.30901699437494742410);
  const T c2 = T(-0.80901699437494742410);
  const T s1 = T(0.95105651629515357212);
  const T s2 = T(0.58778525229247312917);
  const int64_t l = pass.stride;
  const int64_t m = pass.span;
  for (int64_t t = 0; t < m; ++t) {
    const std::complex<T>* w = pass.twiddles.data() + 4 * t;
    const Lane<V>* x = in + t * l;
    Lane<V>* y = out + t * 5 * l;
    for (int64_t s = 0; s < l; ++s) {
      const Lane<V> x0 = x[s];
      const Lane<V> x1 = x[m * l + s];
      const Lane<V> x2 = x[2 * m * l + s];
      const Lane<V> x3 = x[3 * m * l + s];
      const Lane<V> x4 = x[4 * m * l + s];
      const Lane<V> t1 = Add(x1, x4);
      const Lane<V> t2 = Add(x2, x3);
      const Lane<V> d1 = Sub(x1, x4);
      const Lane<V> d2 = Sub(x2, x3);
      const Lane<V> a1 = Add(x0, Add(Scale(t1, c1), Scale(t2, c2)));
      const Lane<V> a2 = Add(x0, Add(Scale(t1, c2), Scale(t2, c1)));
      // -i (s1 d1 + s2 d2) and -i (s2 d1 - s1 d2).
      const Lane<V> b1 = MulMinusI(Add(Scale(d1, s1), Scale(d2, s2)));
      const Lane<V> b2 = MulMinusI(Sub(Scale(d1, s2), Scale(d2, s1)));
      y[s] = Add(x0, Add(t1, t2));
      y[l + s] = Mul(Add(a1, b1), w[0]);
      y[2 * l + s] = Mul(Add(a2, b2), w[1]);
      y[3 * l + s] = Mul(Sub(a2, b2), w[2]);
      y[4 * l + s] = Mul(Sub(a1, b1), w[3]);
    }
  }
}

// Any odd radix p <= kLargestRadix, by pairs: with t_j = x_j + x_{p-j} and
// d_j = x_j - x_{p-j}, y_k = x_0 + sum_j cos(2 pi j k / p) t_j
// - i sum_j sin(2 pi j k / p) d_j and y_{p-k} its mirror.
template <typename V, typename T>
PHAL_FFT_INLINE void GenericPass(const FftPass<T>& pass, const Lane<V>* in,
                                 Lane<V>* out) {
  const int64_t p = pass.radix;
  const int64_t half = (p - 1) / 2;
  const int64_t l = pass.stride;
  const int64_t m = pass.span;
  Lane<V> sums[kLargestRadix / 2];
  Lane<V> differences[kLargestRadix / 2];
  Lane<V> y[kLargestRadix];
  for (int64_t t = 0; t < m; ++t) {
    const std::complex<T>* w = pass.twiddles.data() + (p - 1) * t;
    const Lane<V>* x = in + t * l;
    for (int64_t s = 0; s < l; ++s) {
      const Lane<V> x0 = x[s];
      Lane<V> total = x0;
      for (int64_t j = 1; j <= half; ++j) {
        const Lane<V> a = x[j * m * l + s];
        const Lane<V> b = x[(p - j) * m * l + s];
        sums[j - 1] = Add(a, b);
        differences[j - 1] = Sub(a, b);
        total = Add(total, sums[j - 1]);
      }
      y[0] = total;
      for (int64_t k = 1; k <= half; ++k) {
        Lane<V> even = x0;
        Lane<V> odd{V{}, V{}};
        const std::complex<T>* root = pass.roots.data() + (k - 1);
        for (int64_t j = 0; j < half; ++j) {
          const std::complex<T> r = root[j * half];
          even = Add(even, Scale(sums[j], r.real()));
          odd = Add(odd, Scale(differences[j], -r.imag()));
        }
        const Lane<V> turn = MulMinusI(odd);
        y[k] = Add(even, turn);
        y[p - k] = Sub(even, turn);
      }
      Store(y, p, w, out + t * p * l + s, l);
    }
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE void RunPass(const FftPass<T>& pass, const Lane<V>* in,
                             Lane<V>* out) {
  switch (pass.radix) {
    case 2:
      return Radix2Pass(pass, in, out);
    case 3:
      return Radix3Pass(pass, in, out);
    case 4:
      return Radix4Pass(pass, in, out);
    case 5:
      return Radix5Pass(pass, in, out);
    default:
      return GenericPass(pass, in, out);
  }
}

template <typename V, typename T>
PHAL_FFT_INLINE Lane<V>* RunStockham(const FftPlan<T>& plan, Lane<V>* a,
                                     Lane<V>* b) {
  for (const FftPass<T>& pass : plan.passes) {
    RunPass(pass, a, b);
    std::swap(a, b);
  }
  return a;
}

// The transform of a's first n elements as a circular convolution of
// length M: a * chirp, padded with zeros, transformed, times the kernel,
// transformed back (as the conjugate of the forward transform of the
// conjugate), times the chirp.
template <typename V, typename T>
PHAL_FFT_INLINE Lane<V>* RunBluestein(const FftPlan<T>& plan, Lane<V>* a,
                                      Lane<V>* b) {
  const int64_t n = plan.length;
  const int64_t size = plan.convolution_length;
  for (int64_t j = 0; j < n; ++j) {
    b[j] = Mul(a[j], plan.chirp[static_cast<size_t>(j)]);
  }
  for (int64_t j = n; j < size; ++j) b[j] = Lane<V>{V{}, V{}};
  Lane<V>* spectrum = RunStockham(*plan.convolution, b, a);
  for (int64_t k = 0; k < size; ++k) {
    spectrum[k] = Conj(Mul(spectrum[k], plan.kernel[static_cast<size_t>(k)]));
  }
  Lane<V>* other = spectrum == a ? b : a;
  Lane<V>* result = RunStockham(*plan.convolution, spectrum, other);
  for (int64_t k = 0; k < n; ++k) {
    result[k] = Mul(Conj(result[k]), plan.chirp[static_cast<size_t>(k)]);
  }
  return result;
}

}  // namespace fft_internal

// Transforms the first plan.length elements of `a` (W transforms side by
// side). `a` and `b` each hold plan.buffer_length() elements; both are
// overwritten, and the result is in the one returned.
template <typename V, typename T>
PHAL_FFT_INLINE Lane<V>* ExecuteFft(const FftPlan<T>& plan, Lane<V>* a,
                                    Lane<V>* b) {
  if (plan.convolution_length > 0) {
    return fft_internal::RunBluestein(plan, a, b);
  }
  return fft_internal::RunStockham(plan, a, b);
}

}  // namespace phal::cpu

#endif  // POLYHAL_PLUGINS_CPU_CPU_FFT_PLAN_H_
