// Shape inference of fft.
#include "core/hlo/shape_inference_internal.h"

#include <string>

namespace phal {

namespace shape_inference_internal {

// fft: the StableHLO specification's constraints. The transformed
// dimensions are the trailing size(fft_length) ones; a real operand (RFFT)
// or result (IRFFT) has them equal to fft_length, and the complex side of a
// real transform has n/2+1 elements in the last one (0 when n is 0).
StatusOr<Shape> InferFftShape(const HloInstruction& fft) {
  const Shape& operand = fft.operand(0)->shape();
  PHAL_RETURN_IF_ERROR(ExpectArray(operand, "the operand"));
  const std::vector<int64_t>& length = fft.fft_length();
  const auto count = static_cast<int64_t>(length.size());
  const std::string type_name(FftTypeName(fft.fft_type()));
  if (count < 1 || count > 3) {
    return Fail("fft_length " + IntListToText(length) +
                " must name 1 to 3 dimensions");
  }
  if (operand.rank() < count) {
    return Fail("fft_length " + IntListToText(length) + " names " +
                std::to_string(count) + " dimensions of the operand " +
                operand.ToString() + ", which has fewer");
  }
  for (int64_t n : length) {
    if (n < 0) {
      return Fail("fft_length " + IntListToText(length) + " is negative");
    }
  }
  const ElementType type = operand.element_type();
  const bool real_operand = fft.fft_type() == FftType::kRfft;
  if (real_operand && type != PHAL_ELEMENT_TYPE_F32 &&
      type != PHAL_ELEMENT_TYPE_F64) {
    return Fail("RFFT needs an f32 or f64 operand, got " + operand.ToString());
  }
  if (!real_operand && !IsComplex(type)) {
    return Fail(type_name + " needs a c64 or c128 operand, got " +
                operand.ToString());
  }
  ElementType result_type = type;
  if (fft.fft_type() == FftType::kRfft) {
    result_type = type == PHAL_ELEMENT_TYPE_F32 ? PHAL_ELEMENT_TYPE_C64
                                                : PHAL_ELEMENT_TYPE_C128;
  } else if (fft.fft_type() == FftType::kIrfft) {
    result_type = ComplexComponentType(type);
  }
  const auto half_spectrum = [](int64_t n) { return n == 0 ? 0 : n / 2 + 1; };
  std::vector<int64_t> expected = operand.dims();
  std::vector<int64_t> result = operand.dims();
  const int64_t first = operand.rank() - count;
  for (int64_t i = 0; i < count; ++i) {
    expected[static_cast<std::size_t>(first + i)] =
        length[static_cast<std::size_t>(i)];
    result[static_cast<std::size_t>(first + i)] =
        length[static_cast<std::size_t>(i)];
  }
  if (fft.fft_type() == FftType::kIrfft) {
    expected.back() = half_spectrum(length.back());
  } else if (fft.fft_type() == FftType::kRfft) {
    result.back() = half_spectrum(length.back());
  }
  if (expected != operand.dims()) {
    return Fail(type_name + " with fft_length " + IntListToText(length) +
                " needs trailing operand dimensions " +
                IntListToText(std::vector<int64_t>(expected.begin() + first,
                                                   expected.end())) +
                ", got " + operand.ToString());
  }
  return Shape(result_type, result);
}

}  // namespace shape_inference_internal

}  // namespace phal
