#include "core/reference/reduce.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "core/reference/scalar_function.h"
#include "core/reference/strided_copy.h"

namespace phal::reference {
namespace {

std::size_t ElementSize(const Literal& literal) {
  return ElementTypeByteSize(literal.element_type());
}

const uint8_t* ElementAt(const Literal& literal, int64_t index) {
  return literal.data() + index * static_cast<int64_t>(ElementSize(literal));
}

uint8_t* ElementAt(Literal& literal, int64_t index) {
  return literal.data() + index * static_cast<int64_t>(ElementSize(literal));
}

// The running values of a variadic reduction, one element per input, and
// the argument list (accumulators, then inputs) passed to the reducer.
class Accumulators {
 public:
  explicit Accumulators(std::span<const Literal* const> inits)
      : inits_(inits), values_(inits.size()), arguments_(2 * inits.size()) {
    for (std::size_t k = 0; k < inits.size(); ++k) {
      values_[k].resize(ElementSize(*inits[k]));
      arguments_[k] = values_[k].data();
    }
  }

  void Reset() {
    for (std::size_t k = 0; k < inits_.size(); ++k) {
      std::memcpy(values_[k].data(), inits_[k]->data(), values_[k].size());
    }
  }

  // Combines input k's element at `inputs[k]` into the accumulators.
  Status Combine(ScalarFunction& reducer,
                 std::span<const uint8_t* const> inputs) {
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      arguments_[inits_.size() + k] = inputs[k];
    }
    PHAL_RETURN_IF_ERROR(reducer.Call(arguments_));
    if (reducer.result_count() != static_cast<int64_t>(values_.size())) {
      return InvalidArgument(
          "the reducer returns " + std::to_string(reducer.result_count()) +
          " values for " + std::to_string(values_.size()) + " inputs");
    }
    for (std::size_t k = 0; k < values_.size(); ++k) {
      std::memcpy(values_[k].data(), reducer.result(static_cast<int64_t>(k)),
                  values_[k].size());
    }
    return OkStatus();
  }

  const uint8_t* value(std::size_t k) const { return values_[k].data(); }

 private:
  std::span<const Literal* const> inits_;
  std::vector<std::vector<uint8_t>> values_;
  std::vector<const uint8_t*> arguments_;
};

// The results of a variadic op: one array per input, shaped like the
// instruction's shape or its tuple elements.
std::vector<Literal> MakeResults(const HloInstruction& instruction) {
  std::vector<Literal> results;
  if (instruction.shape().IsTuple()) {
    for (const Shape& shape : instruction.shape().tuple_shapes()) {
      results.emplace_back(shape);
    }
  } else {
    results.emplace_back(instruction.shape());
  }
  return results;
}

Literal PackResults(std::vector<Literal> results,
                    const HloInstruction& instruction) {
  if (instruction.shape().IsTuple()) return Literal::Tuple(std::move(results));
  return std::move(results[0]);
}

// A variadic reduction's operands split into its inputs and their init
// values, checked to pair up and to agree in dimensions, with one result
// array per input.
struct VariadicOperands {
  std::vector<Literal> results;
  std::span<const Literal* const> inputs;
  std::span<const Literal* const> inits;
};

StatusOr<VariadicOperands> SplitVariadic(
    const HloInstruction& instruction,
    std::span<const Literal* const> operands) {
  VariadicOperands split{MakeResults(instruction), {}, {}};
  const std::size_t n = split.results.size();
  if (operands.size() % 2 != 0 || operands.size() / 2 != n) {
    return InvalidArgument("expected " + std::to_string(n) +
                           " inputs and as many init values, got " +
                           std::to_string(operands.size()) + " operands");
  }
  for (std::size_t k = 1; k < n; ++k) {
    if (operands[k]->shape().dims() != operands[0]->shape().dims()) {
      return InvalidArgument("all inputs must have the same dimensions");
    }
  }
  split.inputs = operands.first(n);
  split.inits = operands.subspan(n);
  return split;
}

}  // namespace

StatusOr<Literal> EvaluateReduce(const HloInstruction& instruction,
                                 std::span<const Literal* const> operands,
                                 ComputationRunner* runner) {
  PHAL_ASSIGN_OR_RETURN(VariadicOperands split,
                        SplitVariadic(instruction, operands));
  const std::size_t n = split.results.size();
  const std::vector<int64_t>& dims = split.inputs[0]->shape().dims();
  const StridedView input_view = RowMajorView(dims);

  std::vector<int64_t> kept_dims, kept_strides, reduced_dims, reduced_strides;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const auto& reduced = instruction.dimensions();
    if (std::find(reduced.begin(), reduced.end(), static_cast<int64_t>(d)) !=
        reduced.end()) {
      reduced_dims.push_back(dims[d]);
      reduced_strides.push_back(input_view.strides[d]);
    } else {
      kept_dims.push_back(dims[d]);
      kept_strides.push_back(input_view.strides[d]);
    }
  }
  if (ElementCount(kept_dims) != split.results[0].ElementCount()) {
    return InvalidArgument("the result shape " +
                           instruction.shape().ToString() +
                           " does not match reducing dimensions of " +
                           split.inputs[0]->shape().ToString());
  }
  ScalarFunction reducer(*instruction.to_apply(), runner);
  Accumulators accumulators(split.inits);
  std::vector<const uint8_t*> elements(n);
  std::vector<int64_t> kept_index(kept_dims.size(), 0);
  std::vector<int64_t> reduced_index(reduced_dims.size(), 0);
  const int64_t reduced_count = ElementCount(reduced_dims);
  for (int64_t out = 0; out < split.results[0].ElementCount(); ++out) {
    int64_t base = 0;
    for (std::size_t d = 0; d < kept_dims.size(); ++d) {
      base += kept_index[d] * kept_strides[d];
    }
    accumulators.Reset();
    std::fill(reduced_index.begin(), reduced_index.end(), 0);
    for (int64_t r = 0; r < reduced_count; ++r) {
      int64_t offset = base;
      for (std::size_t d = 0; d < reduced_dims.size(); ++d) {
        offset += reduced_index[d] * reduced_strides[d];
      }
      for (std::size_t k = 0; k < n; ++k)
        elements[k] = ElementAt(*split.inputs[k], offset);
      PHAL_RETURN_IF_ERROR(accumulators.Combine(reducer, elements));
      NextIndex(reduced_dims, reduced_index);
    }
    for (std::size_t k = 0; k < n; ++k) {
      std::memcpy(ElementAt(split.results[k], out), accumulators.value(k),
                  ElementSize(split.results[k]));
    }
    NextIndex(kept_dims, kept_index);
  }
  return PackResults(std::move(split.results), instruction);
}

namespace {

// Where window element `window_index` of output `output_index` falls in
// the (unpadded, undilated) input along one dimension, or -1 when it falls
// on padding or a base-dilation hole.
int64_t WindowSource(const WindowDimension& window, int64_t input_size,
                     int64_t output_index, int64_t window_index) {
  const int64_t dilated = output_index * window.stride +
                          window_index * window.window_dilation -
                          window.padding_low;
  if (dilated < 0 || dilated % window.base_dilation != 0) return -1;
  const int64_t source = dilated / window.base_dilation;
  return source < input_size ? source : -1;
}

Status CheckWindow(const Window& window, int64_t rank) {
  if (static_cast<int64_t>(window.dimensions.size()) != rank) {
    return InvalidArgument("the window has " +
                           std::to_string(window.dimensions.size()) +
                           " dimensions, the operand " + std::to_string(rank));
  }
  for (const WindowDimension& dimension : window.dimensions) {
    if (dimension.stride < 1 || dimension.base_dilation < 1 ||
        dimension.window_dilation < 1 || dimension.size < 0) {
      return InvalidArgument("window strides and dilations must be >= 1");
    }
  }
  return OkStatus();
}

// Visits every output element and its window: start_output(out) first,
// then visit(out, source) for each window element, with source the input's
// linear index or -1 for padding and dilation holes, then
// finish_output(out).
template <typename OutputFn, typename ElementFn, typename DoneFn>
Status ForEachWindowElement(const Window& window,
                            const std::vector<int64_t>& input_dims,
                            const std::vector<int64_t>& output_dims,
                            OutputFn start_output, ElementFn visit,
                            DoneFn finish_output) {
  const std::size_t rank = input_dims.size();
  const StridedView input_view = RowMajorView(input_dims);
  std::vector<int64_t> window_dims;
  for (const WindowDimension& dimension : window.dimensions) {
    window_dims.push_back(dimension.size);
  }
  const int64_t window_count = ElementCount(window_dims);
  const int64_t output_count = ElementCount(output_dims);
  std::vector<int64_t> output_index(rank, 0);
  std::vector<int64_t> window_index(rank, 0);
  for (int64_t out = 0; out < output_count; ++out) {
    start_output(out);
    std::fill(window_index.begin(), window_index.end(), 0);
    for (int64_t w = 0; w < window_count; ++w) {
      int64_t source = 0;
      for (std::size_t d = 0; d < rank && source >= 0; ++d) {
        const int64_t position =
            WindowSource(window.dimensions[d], input_dims[d], output_index[d],
                         window_index[d]);
        source = position < 0 ? -1 : source + position * input_view.strides[d];
      }
      PHAL_RETURN_IF_ERROR(visit(out, source));
      NextIndex(window_dims, window_index);
    }
    PHAL_RETURN_IF_ERROR(finish_output(out));
    NextIndex(output_dims, output_index);
  }
  return OkStatus();
}

}  // namespace

StatusOr<Literal> EvaluateReduceWindow(const HloInstruction& instruction,
                                       std::span<const Literal* const> operands,
                                       ComputationRunner* runner) {
  PHAL_ASSIGN_OR_RETURN(VariadicOperands split,
                        SplitVariadic(instruction, operands));
  PHAL_RETURN_IF_ERROR(
      CheckWindow(instruction.window(), split.inputs[0]->shape().rank()));
  std::vector<Literal>& results = split.results;
  const std::span<const Literal* const> inputs = split.inputs;
  const std::span<const Literal* const> inits = split.inits;
  const std::size_t n = results.size();
  ScalarFunction reducer(*instruction.to_apply(), runner);
  Accumulators accumulators(inits);
  std::vector<const uint8_t*> elements(n);
  PHAL_RETURN_IF_ERROR(ForEachWindowElement(
      instruction.window(), inputs[0]->shape().dims(),
      results[0].shape().dims(), [&](int64_t) { accumulators.Reset(); },
      [&](int64_t, int64_t source) {
        for (std::size_t k = 0; k < n; ++k) {
          elements[k] =
              source < 0 ? inits[k]->data() : ElementAt(*inputs[k], source);
        }
        return accumulators.Combine(reducer, elements);
      },
      [&](int64_t out) {
        for (std::size_t k = 0; k < n; ++k) {
          std::memcpy(ElementAt(results[k], out), accumulators.value(k),
                      ElementSize(results[k]));
        }
        return OkStatus();
      }));
  return PackResults(std::move(results), instruction);
}

StatusOr<Literal> EvaluateSelectAndScatter(
    const HloInstruction& instruction, std::span<const Literal* const> operands,
    ComputationRunner* runner) {
  if (operands.size() != 3) {
    return InvalidArgument("select-and-scatter takes operand, source and init");
  }
  const Literal& operand = *operands[0];
  const Literal& source = *operands[1];
  const Literal& init = *operands[2];
  PHAL_RETURN_IF_ERROR(
      CheckWindow(instruction.window(), operand.shape().rank()));
  Literal result(instruction.shape());
  const std::size_t size = ElementSize(result);
  for (int64_t i = 0; i < result.ElementCount(); ++i) {
    std::memcpy(ElementAt(result, i), init.data(), size);
  }
  ScalarFunction select(*instruction.select(), runner);
  ScalarFunction scatter(*instruction.scatter(), runner);
  int64_t selected = -1;
  PHAL_RETURN_IF_ERROR(ForEachWindowElement(
      instruction.window(), operand.shape().dims(), source.shape().dims(),
      [&](int64_t) { selected = -1; },
      [&](int64_t, int64_t candidate) -> Status {
        if (candidate < 0) return OkStatus();
        if (selected < 0) {
          selected = candidate;
          return OkStatus();
        }
        const uint8_t* arguments[] = {ElementAt(operand, selected),
                                      ElementAt(operand, candidate)};
        PHAL_RETURN_IF_ERROR(select.Call(arguments));
        if (*select.result(0) == 0) selected = candidate;
        return OkStatus();
      },
      [&](int64_t out) -> Status {
        if (selected < 0) return OkStatus();
        const uint8_t* arguments[] = {ElementAt(result, selected),
                                      ElementAt(source, out)};
        PHAL_RETURN_IF_ERROR(scatter.Call(arguments));
        std::memcpy(ElementAt(result, selected), scatter.result(0), size);
        return OkStatus();
      }));
  return result;
}

}  // namespace phal::reference
