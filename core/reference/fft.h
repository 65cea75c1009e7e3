// fft in the reference interpreter.
#ifndef POLYHAL_CORE_REFERENCE_FFT_H_
#define POLYHAL_CORE_REFERENCE_FFT_H_

#include <complex>
#include <cstdint>

#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "sdk/base/status.h"

namespace phal::reference {

// The discrete Fourier transform the StableHLO specification defines for
// fft: over the trailing size(fft_length) dimensions, one dimension at a
// time, each line by the direct sum (any length, not only powers of two) in
// complex<double>, rounded once to the result type. IFFT and IRFFT divide
// by each length; RFFT keeps the n/2+1 non-negative frequencies of the last
// dimension, and IRFFT extends its n/2+1 inputs to n by Hermitian symmetry
// (X[n-k] = conj(X[k])) and keeps the real part, so the imaginary parts of
// X[0] and, for even n, X[n/2] do not count, as in numpy and XLA.
StatusOr<Literal> EvaluateFft(const HloInstruction& instruction,
                              const Literal& operand);

// exp(sign * 2 pi i m / n) for 0 <= m < n and sign = +-1, accurate to the
// rounding of sin and cos near zero: the angle is split with integer
// arithmetic into a multiple of pi/2 and a remainder within pi/4 of zero.
std::complex<double> UnitRoot(int64_t m, int64_t n, double sign);

}  // namespace phal::reference

#endif  // POLYHAL_CORE_REFERENCE_FFT_H_
