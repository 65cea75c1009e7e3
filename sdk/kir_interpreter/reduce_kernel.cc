// REDUCE: N variadic reductions. For each output point, the accumulators
// start at the init values and take the reducer with the values at every
// reduced point in row-major order, one after another, as the reference
// does (so float sums round exactly as the reference's). Batches span many
// output points (and, when there are few of them, many reduced points of
// the values body), so op dispatch stays per batch.
#include <algorithm>
#include <cstring>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

// `count` index arrays of `length` s64 each, and the pointer views the
// frames take.
class IndexArrays {
 public:
  IndexArrays(std::size_t count, int64_t length)
      : storage_(count * static_cast<std::size_t>(length)) {
    for (std::size_t d = 0; d < count; ++d) {
      pointers_.push_back(storage_.data() + d * length);
    }
    views_.assign(pointers_.begin(), pointers_.end());
  }
  std::span<int64_t* const> pointers() const { return pointers_; }
  std::span<const int64_t* const> views() const { return views_; }
  int64_t* operator[](std::size_t d) const { return pointers_[d]; }

 private:
  std::vector<int64_t> storage_;
  std::vector<int64_t*> pointers_;
  std::vector<const int64_t*> views_;
};

class ReduceKernel final : public CompiledKernel {
 public:
  struct Bodies {
    CompiledBody init, values, reducer, epilogue;
  };

  ReduceKernel(const phal_kernel_desc_t& kernel, Bodies bodies)
      : kernel_(kernel), reduce_(*kernel.u.reduce), bodies_(std::move(bodies)) {
    reduced_.assign(reduce_.rank, false);
    for (uint32_t i = 0; i < reduce_.reduced_count; ++i) {
      reduced_[static_cast<std::size_t>(reduce_.reduced_dims[i])] = true;
    }
    for (uint32_t d = 0; d < reduce_.rank; ++d) {
      (reduced_[d] ? reduced_sizes_ : output_dims_).push_back(reduce_.dims[d]);
    }
    for (uint32_t k = 0; k < reduce_.accumulator_count; ++k) {
      accumulator_sizes_.push_back(static_cast<int64_t>(
          ElementTypeByteSize(bodies_.init.result_type(k))));
      value_sizes_.push_back(static_cast<int64_t>(
          ElementTypeByteSize(bodies_.values.result_type(k))));
    }
    for (const CompiledBody* body : {&bodies_.init, &bodies_.values,
                                     &bodies_.reducer, &bodies_.epilogue}) {
      inputs_.insert(inputs_.end(), body->read_buffers().begin(),
                     body->read_buffers().end());
    }
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const int64_t outputs = ElementCount(output_dims_);
    const int64_t steps = ElementCount(reduced_sizes_);
    if (outputs == 0) return OkStatus();
    const std::span<const uint32_t> output_buffers(reduce_.outputs,
                                                   reduce_.output_count);
    OutputTargets targets(kernel_, buffers, output_buffers, inputs_);
    const uint32_t n = reduce_.accumulator_count;

    BodyFrame init(bodies_.init, 1);
    PHAL_RETURN_IF_ERROR(init.Evaluate(buffers, 1, {}, {}));

    const int64_t output_batch = std::min(outputs, kMaxBatch);
    const int64_t step_batch =
        std::max<int64_t>(1, std::min(steps, kMaxBatch / output_batch));
    BodyFrame values(bodies_.values, output_batch * step_batch);
    BodyFrame reducer(bodies_.reducer, output_batch);
    BodyFrame epilogue(bodies_.epilogue, output_batch);

    std::vector<std::vector<uint8_t>> accumulators(n);
    std::vector<const uint8_t*> accumulator_views(n);
    for (uint32_t k = 0; k < n; ++k) {
      accumulators[k].resize(
          static_cast<std::size_t>(output_batch * accumulator_sizes_[k]));
      accumulator_views[k] = accumulators[k].data();
    }
    const IndexArrays output_index(output_dims_.size(), output_batch);
    const IndexArrays reduced_index(reduced_sizes_.size(), step_batch);
    const IndexArrays values_index(reduced_.size(), output_batch * step_batch);
    std::vector<const uint8_t*> parameters(2 * n);

    for (int64_t first = 0; first < outputs; first += output_batch) {
      const int64_t count = std::min(output_batch, outputs - first);
      for (uint32_t k = 0; k < n; ++k) {
        const auto size = static_cast<std::size_t>(accumulator_sizes_[k]);
        for (int64_t i = 0; i < count; ++i) {
          std::memcpy(accumulators[k].data() + i * size, init.result(k), size);
        }
      }
      FillRowMajorIndices(output_dims_, first, count, output_index.pointers());
      for (int64_t step = 0; step < steps; step += step_batch) {
        const int64_t step_count = std::min(step_batch, steps - step);
        FillRowMajorIndices(reduced_sizes_, step, step_count,
                            reduced_index.pointers());
        FillValuesIndices(output_index, count, reduced_index, step_count,
                          values_index);
        PHAL_RETURN_IF_ERROR(values.Evaluate(buffers, count * step_count,
                                             values_index.views(), {}));
        for (int64_t j = 0; j < step_count; ++j) {
          for (uint32_t k = 0; k < n; ++k) {
            parameters[k] = accumulators[k].data();
            parameters[n + k] = values.result(k) + j * count * value_sizes_[k];
          }
          PHAL_RETURN_IF_ERROR(
              reducer.Evaluate(buffers, count, {}, parameters));
          for (uint32_t k = 0; k < n; ++k) {
            std::memmove(
                accumulators[k].data(), reducer.result(k),
                static_cast<std::size_t>(count * accumulator_sizes_[k]));
          }
        }
      }
      PHAL_RETURN_IF_ERROR(epilogue.Evaluate(
          buffers, count, output_index.views(), accumulator_views));
      for (uint32_t r = 0; r < reduce_.output_count; ++r) {
        const auto size = static_cast<int64_t>(
            ElementTypeByteSize(bodies_.epilogue.result_type(r)));
        std::memcpy(targets[output_buffers[r]] + first * size,
                    epilogue.result(r), static_cast<std::size_t>(count * size));
      }
    }
    targets.Commit();
    return OkStatus();
  }

 private:
  // INDEX d of the values body at point (j, i) = j * output_count + i: the
  // j-th reduced position's index for a reduced d, the i-th output
  // position's for a kept one.
  void FillValuesIndices(const IndexArrays& output_index, int64_t count,
                         const IndexArrays& reduced_index, int64_t step_count,
                         const IndexArrays& values_index) const {
    std::size_t kept = 0, reduced = 0;
    for (std::size_t d = 0; d < reduced_.size(); ++d) {
      int64_t* out = values_index[d];
      if (reduced_[d]) {
        const int64_t* source = reduced_index[reduced++];
        for (int64_t j = 0; j < step_count; ++j) {
          std::fill(out + j * count, out + (j + 1) * count, source[j]);
        }
      } else {
        const int64_t* source = output_index[kept++];
        for (int64_t j = 0; j < step_count; ++j) {
          std::copy(source, source + count, out + j * count);
        }
      }
    }
  }

  const phal_kernel_desc_t& kernel_;
  const phal_kir_reduce_t& reduce_;
  Bodies bodies_;
  std::vector<bool> reduced_;
  std::vector<int64_t> output_dims_, reduced_sizes_;
  std::vector<int64_t> accumulator_sizes_, value_sizes_;
  std::vector<uint32_t> inputs_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileReduceKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_reduce_t& reduce = *kernel.u.reduce;
  const std::span<const int64_t> dims(reduce.dims, reduce.rank);
  PHAL_RETURN_IF_ERROR(CheckDims(kernel, dims, "reduce dims"));
  PHAL_RETURN_IF_ERROR(
      CheckDimensionNumbers(kernel, {reduce.reduced_dims, reduce.reduced_count},
                            reduce.rank, true, "reduce reduced_dims"));
  const uint32_t n = reduce.accumulator_count;
  const uint32_t output_rank = reduce.rank - reduce.reduced_count;

  BodySignature init_signature{"init", 0, {}, n};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody init,
      CompiledBody::Compile(kernel, reduce.init, init_signature));
  BodySignature values_signature{"values", reduce.rank, {}, n};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody values,
      CompiledBody::Compile(kernel, reduce.values, values_signature));
  std::vector<ElementType> accumulators, reducer_parameters;
  for (uint32_t k = 0; k < n; ++k) accumulators.push_back(init.result_type(k));
  reducer_parameters = accumulators;
  for (uint32_t k = 0; k < n; ++k) {
    reducer_parameters.push_back(values.result_type(k));
  }
  BodySignature reducer_signature{"reducer", 0, reducer_parameters, n};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody reducer,
      CompiledBody::Compile(kernel, reduce.reducer, reducer_signature));
  for (uint32_t k = 0; k < n; ++k) {
    PHAL_RETURN_IF_ERROR(reducer.CheckResultType(
        k, accumulators[k], "accumulator " + std::to_string(k)));
  }
  BodySignature epilogue_signature{"epilogue", output_rank, accumulators,
                                   reduce.output_count};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody epilogue,
      CompiledBody::Compile(kernel, reduce.epilogue, epilogue_signature));

  std::vector<int64_t> output_dims;
  for (uint32_t d = 0; d < reduce.rank; ++d) {
    const int64_t* reduced_end = reduce.reduced_dims + reduce.reduced_count;
    if (std::find(reduce.reduced_dims, reduced_end, d) == reduced_end) {
      output_dims.push_back(reduce.dims[d]);
    }
  }
  for (uint32_t r = 0; r < reduce.output_count; ++r) {
    const std::string role = "reduce output " + std::to_string(r);
    const uint32_t buffer = reduce.outputs[r];
    PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, buffer, role, output_dims));
    PHAL_RETURN_IF_ERROR(
        epilogue.CheckResultType(r, kernel.buffers[buffer].element_type,
                                 role + " buf" + std::to_string(buffer)));
  }
  return std::unique_ptr<CompiledKernel>(new ReduceKernel(
      kernel, ReduceKernel::Bodies{std::move(init), std::move(values),
                                   std::move(reducer), std::move(epilogue)}));
}

}  // namespace phal::kir_interpreter
