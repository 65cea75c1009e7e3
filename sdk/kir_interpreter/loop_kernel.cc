// LOOP: the body at every point of the iteration space, result i written to
// buffer outputs[i] at that point. Points are evaluated in row-major
// batches, and a batch's results are written after all its reads, so an
// output bound to a buffer the body reads at the same point (an in-place
// update) sees the old values.
#include <algorithm>
#include <cstring>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

class LoopKernel final : public CompiledKernel {
 public:
  LoopKernel(const phal_kernel_desc_t& kernel, CompiledBody body)
      : kernel_(kernel), loop_(*kernel.u.loop), body_(std::move(body)) {}

  Status Run(std::span<uint8_t* const> buffers) const override {
    const std::span<const int64_t> dims(loop_.dims, loop_.rank);
    const int64_t points = ElementCount(dims);
    if (points == 0) return OkStatus();
    const std::span<const uint32_t> outputs(loop_.outputs, loop_.output_count);
    OutputTargets targets(kernel_, buffers, outputs, body_.read_buffers());
    const int64_t batch = std::min(points, kMaxBatch);
    BodyFrame frame(body_, batch);
    std::vector<int64_t> index_storage(
        static_cast<std::size_t>(std::max<int64_t>(batch * loop_.rank, 1)));
    std::vector<int64_t*> indices;
    for (uint32_t d = 0; d < loop_.rank; ++d) {
      indices.push_back(index_storage.data() + d * batch);
    }
    const std::vector<const int64_t*> index_view(indices.begin(),
                                                 indices.end());
    for (int64_t start = 0; start < points; start += batch) {
      const int64_t count = std::min(batch, points - start);
      FillRowMajorIndices(dims, start, count, indices);
      PHAL_RETURN_IF_ERROR(frame.Evaluate(buffers, count, index_view, {}));
      for (uint32_t r = 0; r < loop_.output_count; ++r) {
        const auto size =
            static_cast<int64_t>(ElementTypeByteSize(body_.result_type(r)));
        std::memcpy(targets[outputs[r]] + start * size, frame.result(r),
                    static_cast<std::size_t>(count * size));
      }
    }
    targets.Commit();
    return OkStatus();
  }

 private:
  const phal_kernel_desc_t& kernel_;
  const phal_kir_loop_t& loop_;
  CompiledBody body_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileLoopKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_loop_t& loop = *kernel.u.loop;
  const std::span<const int64_t> dims(loop.dims, loop.rank);
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, dims, "loop dims"));
  BodySignature signature;
  signature.role = "loop";
  signature.rank = loop.rank;
  signature.result_count = loop.output_count;
  PHAL_ASSIGN_OR_RETURN(CompiledBody body,
                        CompiledBody::Compile(kernel, loop.body, signature));
  for (uint32_t r = 0; r < loop.output_count; ++r) {
    const std::string role = "loop output " + std::to_string(r);
    PHAL_RETURN_IF_ERROR(
        CheckOutputBuffer(kernel, loop.outputs[r], role, dims));
    PHAL_RETURN_IF_ERROR(
        body.CheckResultType(r, kernel.buffers[loop.outputs[r]].element_type,
                             role + " buf" + std::to_string(loop.outputs[r])));
  }
  return std::unique_ptr<CompiledKernel>(
      new LoopKernel(kernel, std::move(body)));
}

}  // namespace phal::kir_interpreter
