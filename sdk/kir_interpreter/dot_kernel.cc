// DOT: C[b, m, n] = sum_k A[b, m, k] * B[b, k, n] with operands read
// through their strides, then the epilogue over [batch, m, n]. Sums run
// over k in increasing order from zero in the accumulation domain, as the
// reference's dot does.
#include <vector>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/accumulation.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

class DotKernel final : public CompiledKernel {
 public:
  DotKernel(const phal_kernel_desc_t& kernel, CompiledBody epilogue)
      : kernel_(kernel), dot_(*kernel.u.dot), epilogue_(std::move(epilogue)) {
    inputs_ = epilogue_.read_buffers();
    inputs_.push_back(dot_.lhs);
    inputs_.push_back(dot_.rhs);
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const int64_t dims[] = {dot_.batch, dot_.m, dot_.n};
    return AccumulateThenRunEpilogue(kernel_, buffers, epilogue_, dims,
                                     dot_.accumulation_type, dot_.output,
                                     inputs_, [&](auto acc, uint8_t* sums) {
                                       Multiply<decltype(acc)>(buffers, sums);
                                     });
  }

 private:
  // The sums, rounded to Acc, into `out`: operands packed as [b, m, k] and
  // [b, k, n] in Acc's domain, then multiplied.
  template <typename Acc>
  void Multiply(std::span<uint8_t* const> buffers, uint8_t* out) const {
    using D = Domain<Acc>;
    const int64_t batches = dot_.batch, m = dot_.m, n = dot_.n, k = dot_.k;
    std::vector<D> a(static_cast<std::size_t>(batches * m * k));
    std::vector<D> b(static_cast<std::size_t>(batches * k * n));
    const int64_t* ls = dot_.lhs_strides;
    const int64_t* rs = dot_.rhs_strides;
    LoadIntoDomain<Acc>(
        kernel_.buffers[dot_.lhs].element_type, buffers[dot_.lhs],
        batches * m * k,
        [&](int64_t i) {
          return (i / (m * k)) * ls[0] + (i / k % m) * ls[1] + (i % k) * ls[2];
        },
        a.data());
    LoadIntoDomain<Acc>(
        kernel_.buffers[dot_.rhs].element_type, buffers[dot_.rhs],
        batches * k * n,
        [&](int64_t i) {
          return (i / (k * n)) * rs[0] + (i / n % k) * rs[1] + (i % n) * rs[2];
        },
        b.data());
    StoreFromDomain<Acc>(
        element_semantics::MultiplyBatched<D>(a, b, batches, m, k, n), out);
  }

  const phal_kernel_desc_t& kernel_;
  const phal_kir_dot_t& dot_;
  CompiledBody epilogue_;
  std::vector<uint32_t> inputs_;
};

// Checks that every offset b*s0 + i*s1 + j*s2 with b, i, j below `sizes`
// lies inside buffer `index`.
Status CheckStridedReads(const phal_kernel_desc_t& kernel, uint32_t index,
                         const int64_t (&sizes)[3], const int64_t* strides,
                         const char* role) {
  if (sizes[0] == 0 || sizes[1] == 0 || sizes[2] == 0) return OkStatus();
  __int128 lowest = 0, highest = 0;
  for (int d = 0; d < 3; ++d) {
    const __int128 extent = static_cast<__int128>(sizes[d] - 1) * strides[d];
    (extent < 0 ? lowest : highest) += extent;
  }
  const int64_t elements = ElementCount(BufferDims(kernel.buffers[index]));
  if (lowest >= 0 && highest < elements) return OkStatus();
  return KernelError(kernel, std::string("dot ") + role + " strides " +
                                 DimsText({strides, 3}) + " over " +
                                 DimsText(sizes) + " reach outside buf" +
                                 std::to_string(index) + " " +
                                 DimsText(BufferDims(kernel.buffers[index])));
}

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileDotKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_dot_t& dot = *kernel.u.dot;
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, dot.lhs, "dot lhs"));
  PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, dot.rhs, "dot rhs"));
  PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, dot.output, "dot output"));
  PHAL_RETURN_IF_ERROR(
      CheckElementType(kernel, dot.accumulation_type, "dot accumulation type"));
  const int64_t shape[] = {dot.batch, dot.m, dot.n, dot.k};
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, shape, "dot [batch, m, n, k]"));
  const int64_t lhs_sizes[] = {dot.batch, dot.m, dot.k};
  const int64_t rhs_sizes[] = {dot.batch, dot.k, dot.n};
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, lhs_sizes, "dot lhs [batch, m, k]"));
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, rhs_sizes, "dot rhs [batch, k, n]"));
  PHAL_RETURN_IF_ERROR(
      CheckStridedReads(kernel, dot.lhs, lhs_sizes, dot.lhs_strides, "lhs"));
  PHAL_RETURN_IF_ERROR(
      CheckStridedReads(kernel, dot.rhs, rhs_sizes, dot.rhs_strides, "rhs"));
  const int64_t points = dot.batch * dot.m * dot.n;
  const phal_kir_buffer_t& output = kernel.buffers[dot.output];
  if (ElementCount(BufferDims(output)) != points) {
    return KernelError(
        kernel, "dot output buf" + std::to_string(dot.output) + " " +
                    DimsText(BufferDims(output)) +
                    " does not hold [batch, m, n] = " + DimsText({shape, 3}));
  }
  BodySignature signature{"epilogue", 3, {dot.accumulation_type}, 1};
  PHAL_ASSIGN_OR_RETURN(CompiledBody epilogue,
                        CompiledBody::Compile(kernel, dot.epilogue, signature));
  PHAL_RETURN_IF_ERROR(epilogue.CheckResultType(
      0, output.element_type, "dot output buf" + std::to_string(dot.output)));
  return std::unique_ptr<CompiledKernel>(
      new DotKernel(kernel, std::move(epilogue)));
}

}  // namespace phal::kir_interpreter
