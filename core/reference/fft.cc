#include "core/reference/fft.h"

#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "core/reference/accumulation.h"

namespace phal::reference {
namespace {

using Complex = std::complex<double>;

// Row-major values of dimensions `dims`.
struct Array {
  std::vector<int64_t> dims;
  std::vector<Complex> values;
};

int64_t Product(const std::vector<int64_t>& dims, std::size_t begin,
                std::size_t end) {
  int64_t product = 1;
  for (std::size_t i = begin; i < end; ++i) product *= dims[i];
  return product;
}

// out[k] = scale * sum_j in[j] exp(sign * 2 pi i j k / n) along `dimension`
// for every line, where `in` has `inputs` elements along it (the first
// `inputs` of a longer line that `extend` completes) and the result
// `outputs`. `extend` maps a line's inputs to its n values.
template <typename Extend>
Array TransformAlong(const Array& in, std::size_t dimension, int64_t n,
                     int64_t outputs, double sign, double scale,
                     Extend extend) {
  Array out;
  out.dims = in.dims;
  out.dims[dimension] = outputs;
  out.values.assign(
      static_cast<std::size_t>(Product(out.dims, 0, out.dims.size())),
      Complex());
  const int64_t inputs = in.dims[dimension];
  const int64_t outer = Product(in.dims, 0, dimension);
  const int64_t inner = Product(in.dims, dimension + 1, in.dims.size());
  std::vector<Complex> roots(static_cast<std::size_t>(n));
  for (int64_t m = 0; m < n; ++m) {
    roots[static_cast<std::size_t>(m)] = UnitRoot(m, n, sign);
  }
  std::vector<Complex> line(static_cast<std::size_t>(inputs));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < inputs; ++j) {
        line[static_cast<std::size_t>(j)] =
            in.values[static_cast<std::size_t>((o * inputs + j) * inner + i)];
      }
      const std::vector<Complex> full = extend(line);
      for (int64_t k = 0; k < outputs; ++k) {
        Complex sum = 0;
        for (int64_t j = 0; j < n; ++j) {
          sum += full[static_cast<std::size_t>(j)] *
                 roots[static_cast<std::size_t>((j * k) % n)];
        }
        out.values[static_cast<std::size_t>((o * outputs + k) * inner + i)] =
            sum * scale;
      }
    }
  }
  return out;
}

Array Transform(const Array& in, std::size_t dimension, bool inverse) {
  const int64_t n = in.dims[dimension];
  return TransformAlong(in, dimension, n, n, inverse ? 1.0 : -1.0,
                        inverse && n > 0 ? 1.0 / static_cast<double>(n) : 1.0,
                        [](const std::vector<Complex>& line) { return line; });
}

// The n/2+1 non-negative frequencies of a real line of n values.
Array RealForward(const Array& in, std::size_t dimension) {
  const int64_t n = in.dims[dimension];
  return TransformAlong(in, dimension, n, n == 0 ? 0 : n / 2 + 1, -1.0, 1.0,
                        [](const std::vector<Complex>& line) { return line; });
}

// n real values from the n/2+1 non-negative frequencies of their transform.
Array RealInverse(const Array& in, std::size_t dimension, int64_t n) {
  return TransformAlong(
      in, dimension, n, n, 1.0, n > 0 ? 1.0 / static_cast<double>(n) : 1.0,
      [n](const std::vector<Complex>& half) {
        std::vector<Complex> full(static_cast<std::size_t>(n));
        for (int64_t k = 0; k < n; ++k) {
          full[static_cast<std::size_t>(k)] =
              k < static_cast<int64_t>(half.size())
                  ? half[static_cast<std::size_t>(k)]
                  : std::conj(half[static_cast<std::size_t>(n - k)]);
        }
        return full;
      });
}

}  // namespace

Complex UnitRoot(int64_t m, int64_t n, double sign) {
  const int64_t quarter_turns = 4 * m;  // the angle is pi/2 * quarter_turns/n
  const int64_t q = (quarter_turns + n / 2) / n;
  const double phi = std::numbers::pi / 2 *
                     static_cast<double>(quarter_turns - q * n) /
                     static_cast<double>(n);
  const double c = std::cos(phi);
  const double s = std::sin(phi);
  switch (q % 4) {
    case 0:
      return {c, sign * s};
    case 1:
      return {-s, sign * c};
    case 2:
      return {-c, -sign * s};
    default:
      return {s, -sign * c};
  }
}

StatusOr<Literal> EvaluateFft(const HloInstruction& instruction,
                              const Literal& operand) {
  Array array;
  array.dims = operand.shape().dims();
  PHAL_RETURN_IF_ERROR(LoadInto(operand, &array.values));
  const std::vector<int64_t>& length = instruction.fft_length();
  const std::size_t rank = array.dims.size();
  const std::size_t first = rank - length.size();
  // The specification's order: forward transforms from the innermost
  // dimension out, inverse ones from the outermost in.
  switch (instruction.fft_type()) {
    case FftType::kFft:
      for (std::size_t d = rank; d-- > first;) {
        array = Transform(array, d, /*inverse=*/false);
      }
      break;
    case FftType::kIfft:
      for (std::size_t d = first; d < rank; ++d) {
        array = Transform(array, d, /*inverse=*/true);
      }
      break;
    case FftType::kRfft:
      array = RealForward(array, rank - 1);
      for (std::size_t d = rank - 1; d-- > first;) {
        array = Transform(array, d, /*inverse=*/false);
      }
      break;
    case FftType::kIrfft:
      for (std::size_t d = first; d + 1 < rank; ++d) {
        array = Transform(array, d, /*inverse=*/true);
      }
      array = RealInverse(array, rank - 1, length.back());
      break;
  }
  Literal result(instruction.shape());
  PHAL_RETURN_IF_ERROR(StoreFrom(array.values, &result));
  return result;
}

}  // namespace phal::reference
