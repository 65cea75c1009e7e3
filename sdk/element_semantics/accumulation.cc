#include "sdk/element_semantics/accumulation.h"

namespace phal::element_semantics {

// In i-p-j order, so the inner loop streams rows of B and C.
template <typename D>
std::vector<D> MultiplyBatched(std::span<const D> a, std::span<const D> b,
                               int64_t batches, int64_t m, int64_t k,
                               int64_t n) {
  std::vector<D> c(static_cast<std::size_t>(batches * m * n), D{});
  for (int64_t batch = 0; batch < batches; ++batch) {
    const D* a_batch = a.data() + batch * m * k;
    const D* b_batch = b.data() + batch * k * n;
    D* c_batch = c.data() + batch * m * n;
    for (int64_t i = 0; i < m; ++i) {
      D* c_row = c_batch + i * n;
      for (int64_t p = 0; p < k; ++p) {
        const D a_value = a_batch[i * k + p];
        const D* b_row = b_batch + p * n;
        for (int64_t j = 0; j < n; ++j) {
          c_row[j] = MultiplyAdd(c_row[j], a_value, b_row[j]);
        }
      }
    }
  }
  return c;
}

template std::vector<double> MultiplyBatched(std::span<const double>,
                                             std::span<const double>, int64_t,
                                             int64_t, int64_t, int64_t);
template std::vector<float> MultiplyBatched(std::span<const float>,
                                            std::span<const float>, int64_t,
                                            int64_t, int64_t, int64_t);
template std::vector<std::complex<float>> MultiplyBatched(
    std::span<const std::complex<float>>, std::span<const std::complex<float>>,
    int64_t, int64_t, int64_t, int64_t);
template std::vector<Complex> MultiplyBatched(std::span<const Complex>,
                                              std::span<const Complex>, int64_t,
                                              int64_t, int64_t, int64_t);
template std::vector<uint64_t> MultiplyBatched(std::span<const uint64_t>,
                                               std::span<const uint64_t>,
                                               int64_t, int64_t, int64_t,
                                               int64_t);
template std::vector<PredDomain> MultiplyBatched(std::span<const PredDomain>,
                                                 std::span<const PredDomain>,
                                                 int64_t, int64_t, int64_t,
                                                 int64_t);

}  // namespace phal::element_semantics
