#include "plugins/cpu/cpu_fft_plan.h"

#include <cmath>
#include <numbers>
#include <type_traits>
#include <utility>

namespace phal::cpu {
namespace {

// The prime factors of n >= 2 in the order the passes take them: fours
// first (one radix-4 pass does the work of two radix-2 ones), then a
// remaining two, then the odd primes ascending.
std::vector<int64_t> Radices(int64_t n) {
  std::vector<int64_t> radices;
  for (; n % 4 == 0; n /= 4) radices.push_back(4);
  if (n % 2 == 0) {
    radices.push_back(2);
    n /= 2;
  }
  for (int64_t p = 3; p <= n / p; p += 2) {
    for (; n % p == 0; n /= p) radices.push_back(p);
  }
  if (n > 1) radices.push_back(n);
  return radices;
}

template <typename T>
std::complex<T> Rounded(std::complex<double> value) {
  return {static_cast<T>(value.real()), static_cast<T>(value.imag())};
}

template <typename T>
FftPass<T> MakePass(int64_t radix, int64_t stride, int64_t span) {
  FftPass<T> pass;
  pass.radix = radix;
  pass.stride = stride;
  pass.span = span;
  pass.twiddles.reserve(static_cast<size_t>(span * (radix - 1)));
  for (int64_t t = 0; t < span; ++t) {
    for (int64_t k = 1; k < radix; ++k) {
      pass.twiddles.push_back(Rounded<T>(UnitRoot(t * k, radix * span)));
    }
  }
  if (radix > 5) {
    const int64_t half = (radix - 1) / 2;
    for (int64_t j = 1; j <= half; ++j) {
      for (int64_t k = 1; k <= half; ++k) {
        pass.roots.push_back(Rounded<T>(UnitRoot(j * k % radix, radix)));
      }
    }
  }
  return pass;
}

// Bluestein's algorithm for length n: the chirp c_j = exp(-pi i j^2 / n),
// with j^2 mod 2n kept exact by a running sum of odd numbers, and the
// transform of the conjugate chirp laid out circularly over M, computed in
// double by a double plan and rounded once.
template <typename T>
void MakeBluestein(int64_t n, FftPlan<T>* plan) {
  int64_t size = 1;
  while (size < 2 * n - 1) size *= 2;
  std::vector<std::complex<double>> chirp(static_cast<size_t>(n));
  int64_t square = 0;  // j^2 mod 2n
  for (int64_t j = 0; j < n; ++j) {
    chirp[static_cast<size_t>(j)] = UnitRoot(square, 2 * n);
    square += 2 * j + 1;
    if (square >= 2 * n) square -= 2 * n;
  }
  FftPlan<double> exact = MakeFftPlan<double>(size);
  std::vector<Lane<double>> a(static_cast<size_t>(size), Lane<double>{0, 0});
  std::vector<Lane<double>> b(static_cast<size_t>(size));
  for (int64_t j = 0; j < n; ++j) {
    const std::complex<double> c = std::conj(chirp[static_cast<size_t>(j)]);
    a[static_cast<size_t>(j)] = {c.real(), c.imag()};
    if (j > 0) a[static_cast<size_t>(size - j)] = {c.real(), c.imag()};
  }
  const Lane<double>* spectrum = ExecuteFft(exact, a.data(), b.data());
  plan->convolution_length = size;
  for (const std::complex<double>& c : chirp) {
    plan->chirp.push_back(Rounded<T>(c));
  }
  const double scale = 1.0 / static_cast<double>(size);
  for (int64_t k = 0; k < size; ++k) {
    const Lane<double>& value = spectrum[k];
    plan->kernel.push_back(
        Rounded<T>(std::complex<double>(value.re, value.im) * scale));
  }
  if constexpr (std::is_same_v<T, double>) {
    plan->convolution =
        std::make_unique<const FftPlan<double>>(std::move(exact));
  } else {
    plan->convolution =
        std::make_unique<const FftPlan<T>>(MakeFftPlan<T>(size));
  }
}

}  // namespace

std::complex<double> UnitRoot(int64_t m, int64_t n) {
  m %= n;
  if (m < 0) m += n;
  const int64_t quarter_turns = (4 * m + n / 2) / n;
  const int64_t rest = 4 * m - quarter_turns * n;  // |rest| <= n / 2
  const double angle = std::numbers::pi / 2 *
                       (static_cast<double>(rest) / static_cast<double>(n));
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  // exp(-i (q pi/2 + angle)) = (-i)^q (c - i s).
  switch (quarter_turns & 3) {
    case 0:
      return {c, -s};
    case 1:
      return {-s, -c};
    case 2:
      return {-c, s};
    default:
      return {s, c};
  }
}

template <typename T>
FftPlan<T> MakeFftPlan(int64_t n) {
  FftPlan<T> plan;
  plan.length = n;
  if (n < 2) return plan;
  const std::vector<int64_t> radices = Radices(n);
  if (radices.back() > kLargestRadix) {
    MakeBluestein(n, &plan);
    return plan;
  }
  int64_t stride = 1;
  for (int64_t radix : radices) {
    plan.passes.push_back(MakePass<T>(radix, stride, n / (stride * radix)));
    stride *= radix;
  }
  return plan;
}

template FftPlan<float> MakeFftPlan<float>(int64_t n);
template FftPlan<double> MakeFftPlan<double>(int64_t n);

}  // namespace phal::cpu
