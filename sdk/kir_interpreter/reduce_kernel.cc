// REDUCE: N variadic reductions. For each output point, the accumulators
// start at the init values and take the reducer with the values at every
// reduced point in row-major order, one after another, as the reference
// does (so float sums round exactly as the reference's). Batches span many
// output points (and, when there are few of them, many reduced points of
// the values body), so op dispatch stays per batch.
#include <algorithm>
#include <cstring>

#include "sdk/base/element_types.h"
#include "sdk/kir/reduce_geometry.h"
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

struct ReduceBodies {
  CompiledBody init, values, reducer, epilogue;
};

// What a reduce kernel knows once compiled: its bodies and its geometry.
struct ReducePlan {
  ReducePlan(const phal_kernel_desc_t& kernel, ReduceBodies bodies)
      : kernel(kernel),
        reduce(*kernel.u.reduce),
        bodies(std::move(bodies)),
        geometry(GeometryOf(reduce)) {
    for (uint32_t k = 0; k < reduce.accumulator_count; ++k) {
      accumulator_sizes.push_back(static_cast<int64_t>(
          ElementTypeByteSize(this->bodies.init.result_type(k))));
      value_sizes.push_back(static_cast<int64_t>(
          ElementTypeByteSize(this->bodies.values.result_type(k))));
    }
    for (const CompiledBody* body :
         {&this->bodies.init, &this->bodies.values, &this->bodies.reducer,
          &this->bodies.epilogue}) {
      inputs.insert(inputs.end(), body->read_buffers().begin(),
                    body->read_buffers().end());
    }
  }

  const phal_kernel_desc_t& kernel;
  const phal_kir_reduce_t& reduce;
  ReduceBodies bodies;
  ReduceGeometry geometry;
  std::vector<int64_t> accumulator_sizes, value_sizes;
  std::vector<uint32_t> inputs;
};

// The scratch of one run: frames for the bodies, the accumulators of a
// batch of output points, and the index arrays the bodies read.
class ReduceRun {
 public:
  ReduceRun(const ReducePlan& plan, std::span<uint8_t* const> buffers,
            int64_t outputs, int64_t steps)
      : plan_(plan),
        buffers_(buffers),
        steps_(steps),
        output_batch_(std::min(outputs, kMaxBatch)),
        step_batch_(
            std::max<int64_t>(1, std::min(steps, kMaxBatch / output_batch_))),
        init_(plan.bodies.init, 1),
        values_(plan.bodies.values, output_batch_ * step_batch_),
        reducer_(plan.bodies.reducer, output_batch_),
        epilogue_(plan.bodies.epilogue, output_batch_),
        output_index_(plan.geometry.kept_dims.size(), output_batch_),
        reduced_index_(plan.geometry.reduced_dims.size(), step_batch_),
        values_index_(plan.geometry.reduced.size(),
                      output_batch_ * step_batch_),
        parameters_(2 * plan.reduce.accumulator_count) {
    for (int64_t size : plan.accumulator_sizes) {
      accumulators_.emplace_back(
          static_cast<std::size_t>(output_batch_ * size));
      accumulator_views_.push_back(accumulators_.back().data());
    }
  }

  int64_t output_batch() const { return output_batch_; }

  Status EvaluateInit() { return init_.Evaluate(buffers_, 1, {}, {}); }

  // Reduces output points [first, first + count) and leaves the epilogue's
  // results in the epilogue frame.
  Status ReduceOutputs(int64_t first, int64_t count) {
    for (std::size_t k = 0; k < accumulators_.size(); ++k) {
      const auto size = static_cast<std::size_t>(plan_.accumulator_sizes[k]);
      for (int64_t i = 0; i < count; ++i) {
        std::memcpy(accumulators_[k].data() + i * size, init_.result(k), size);
      }
    }
    FillRowMajorIndices(plan_.geometry.kept_dims, first, count,
                        output_index_.pointers());
    for (int64_t step = 0; step < steps_; step += step_batch_) {
      PHAL_RETURN_IF_ERROR(
          FoldSteps(step, std::min(step_batch_, steps_ - step), count));
    }
    return epilogue_.Evaluate(buffers_, count, output_index_.views(),
                              accumulator_views_);
  }

  const uint8_t* result(uint32_t r) const { return epilogue_.result(r); }

 private:
  // Evaluates the values body at reduced points [step, step + step_count)
  // of every output point of the batch, then applies the reducer once per
  // reduced point, in order.
  Status FoldSteps(int64_t step, int64_t step_count, int64_t count) {
    FillRowMajorIndices(plan_.geometry.reduced_dims, step, step_count,
                        reduced_index_.pointers());
    FillValuesIndices(count, step_count);
    PHAL_RETURN_IF_ERROR(values_.Evaluate(buffers_, count * step_count,
                                          values_index_.views(), {}));
    const std::size_t n = accumulators_.size();
    for (int64_t j = 0; j < step_count; ++j) {
      for (std::size_t k = 0; k < n; ++k) {
        parameters_[k] = accumulators_[k].data();
        parameters_[n + k] = values_.result(static_cast<uint32_t>(k)) +
                             j * count * plan_.value_sizes[k];
      }
      PHAL_RETURN_IF_ERROR(reducer_.Evaluate(buffers_, count, {}, parameters_));
      for (std::size_t k = 0; k < n; ++k) {
        std::memmove(
            accumulators_[k].data(), reducer_.result(static_cast<uint32_t>(k)),
            static_cast<std::size_t>(count * plan_.accumulator_sizes[k]));
      }
    }
    return OkStatus();
  }

  // INDEX d of the values body at point (j, i) = j * count + i: the j-th
  // reduced position's index for a reduced d, the i-th output position's
  // for a kept one.
  void FillValuesIndices(int64_t count, int64_t step_count) {
    std::size_t kept = 0, reduced = 0;
    for (std::size_t d = 0; d < plan_.geometry.reduced.size(); ++d) {
      int64_t* out = values_index_[d];
      if (plan_.geometry.reduced[d]) {
        const int64_t* source = reduced_index_[reduced++];
        for (int64_t j = 0; j < step_count; ++j) {
          std::fill(out + j * count, out + (j + 1) * count, source[j]);
        }
      } else {
        const int64_t* source = output_index_[kept++];
        for (int64_t j = 0; j < step_count; ++j) {
          std::copy(source, source + count, out + j * count);
        }
      }
    }
  }

  const ReducePlan& plan_;
  std::span<uint8_t* const> buffers_;
  int64_t steps_, output_batch_, step_batch_;
  BodyFrame init_, values_, reducer_, epilogue_;
  IndexArrays output_index_, reduced_index_, values_index_;
  std::vector<std::vector<uint8_t>> accumulators_;
  std::vector<const uint8_t*> accumulator_views_;
  std::vector<const uint8_t*> parameters_;
};

class ReduceKernel final : public CompiledKernel {
 public:
  ReduceKernel(const phal_kernel_desc_t& kernel, ReduceBodies bodies)
      : plan_(kernel, std::move(bodies)) {}

  Status Run(std::span<uint8_t* const> buffers) const override {
    const int64_t outputs = plan_.geometry.outputs;
    if (outputs == 0) return OkStatus();
    const std::span<const uint32_t> output_buffers(plan_.reduce.outputs,
                                                   plan_.reduce.output_count);
    OutputTargets targets(plan_.kernel, buffers, output_buffers, plan_.inputs);
    ReduceRun run(plan_, buffers, outputs, plan_.geometry.inner);
    PHAL_RETURN_IF_ERROR(run.EvaluateInit());
    for (int64_t first = 0; first < outputs; first += run.output_batch()) {
      const int64_t count = std::min(run.output_batch(), outputs - first);
      PHAL_RETURN_IF_ERROR(run.ReduceOutputs(first, count));
      for (uint32_t r = 0; r < plan_.reduce.output_count; ++r) {
        const auto size = static_cast<int64_t>(
            ElementTypeByteSize(plan_.bodies.epilogue.result_type(r)));
        std::memcpy(targets[output_buffers[r]] + first * size, run.result(r),
                    static_cast<std::size_t>(count * size));
      }
    }
    targets.Commit();
    return OkStatus();
  }

 private:
  ReducePlan plan_;
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

  const std::vector<int64_t> output_dims = GeometryOf(reduce).kept_dims;
  for (uint32_t r = 0; r < reduce.output_count; ++r) {
    const std::string role = "reduce output " + std::to_string(r);
    const uint32_t buffer = reduce.outputs[r];
    PHAL_RETURN_IF_ERROR(CheckOutputBuffer(kernel, buffer, role, output_dims));
    PHAL_RETURN_IF_ERROR(
        epilogue.CheckResultType(r, kernel.buffers[buffer].element_type,
                                 role + " buf" + std::to_string(buffer)));
  }
  return std::unique_ptr<CompiledKernel>(new ReduceKernel(
      kernel, ReduceBodies{std::move(init), std::move(values),
                           std::move(reducer), std::move(epilogue)}));
}

}  // namespace phal::kir_interpreter
