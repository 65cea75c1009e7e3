// SORT: every slice along `dimension` is ordered by the comparator with the
// reference's algorithm, a bottom-up stable merge sort in which a right
// element moves ahead of a left one only when the comparator says it sorts
// strictly before it. Using the same algorithm keeps results identical even
// for comparators that are not strict weak orders (NaN under a float LT).
// The merges of all slices and blocks advance in lock step, so each round
// of comparisons is one batch through the comparator.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "sdk/base/element_types.h"
#include "sdk/kir_interpreter/body.h"
#include "sdk/kir_interpreter/compiled_kernel.h"
#include "sdk/kir_interpreter/kernel_checks.h"

namespace phal::kir_interpreter {
namespace {

// One merge of the runs [left, middle) and [right, high) of a slice's
// order into merged[out...], positions relative to the slice.
struct Merge {
  int64_t slice;
  int64_t left, middle, right, high, out;
};

class SortKernel final : public CompiledKernel {
 public:
  SortKernel(const phal_kernel_desc_t& kernel, CompiledBody comparator)
      : kernel_(kernel),
        sort_(*kernel.u.sort),
        comparator_(std::move(comparator)) {
    inputs_ = comparator_.read_buffers();
    inputs_.insert(inputs_.end(), sort_.operands,
                   sort_.operands + sort_.operand_count);
    for (uint32_t k = 0; k < sort_.operand_count; ++k) {
      sizes_.push_back(static_cast<int64_t>(
          ElementTypeByteSize(kernel.buffers[sort_.operands[k]].element_type)));
    }
  }

  Status Run(std::span<uint8_t* const> buffers) const override {
    const std::span<const int64_t> dims =
        BufferDims(kernel_.buffers[sort_.operands[0]]);
    if (ElementCount(dims) == 0) return OkStatus();
    const auto axis = static_cast<std::size_t>(sort_.dimension);
    const int64_t length = dims[axis];
    const int64_t stride = RowMajorStrides(dims)[axis];
    std::vector<int64_t> bases;
    std::vector<int64_t> outer_dims(dims.begin(), dims.end());
    outer_dims[axis] = 1;
    std::vector<int64_t> outer_index(dims.size(), 0);
    const std::vector<int64_t> strides = RowMajorStrides(dims);
    do {
      int64_t base = 0;
      for (std::size_t d = 0; d < dims.size(); ++d) {
        base += outer_index[d] * strides[d];
      }
      bases.push_back(base);
    } while (NextIndex(outer_dims, outer_index));

    std::vector<int64_t> order(bases.size() * static_cast<std::size_t>(length));
    for (std::size_t s = 0; s < bases.size(); ++s) {
      std::iota(order.begin() + static_cast<int64_t>(s) * length,
                order.begin() + static_cast<int64_t>(s + 1) * length, 0);
    }
    PHAL_RETURN_IF_ERROR(MergeSort(buffers, bases, stride, length, order));

    const std::span<const uint32_t> outputs(sort_.outputs, sort_.operand_count);
    OutputTargets targets(kernel_, buffers, outputs, inputs_,
                          /*stage_in_place=*/true);
    for (uint32_t k = 0; k < sort_.operand_count; ++k) {
      const auto size = static_cast<std::size_t>(sizes_[k]);
      const uint8_t* source = buffers[sort_.operands[k]];
      uint8_t* out = targets[outputs[k]];
      for (std::size_t s = 0; s < bases.size(); ++s) {
        const int64_t* slice_order = order.data() + s * length;
        for (int64_t i = 0; i < length; ++i) {
          std::memcpy(out + (bases[s] + i * stride) * sizes_[k],
                      source + (bases[s] + slice_order[i] * stride) * sizes_[k],
                      size);
        }
      }
    }
    targets.Commit();
    return OkStatus();
  }

 private:
  Status MergeSort(std::span<uint8_t* const> buffers,
                   const std::vector<int64_t>& bases, int64_t stride,
                   int64_t length, std::vector<int64_t>& order) const {
    const uint32_t n = sort_.operand_count;
    BodyFrame frame(comparator_, kMaxBatch);
    std::vector<std::vector<uint8_t>> arguments(2 * n);
    std::vector<const uint8_t*> parameters(2 * n);
    for (uint32_t k = 0; k < n; ++k) {
      for (uint32_t side = 0; side < 2; ++side) {
        arguments[2 * k + side].resize(
            static_cast<std::size_t>(kMaxBatch * sizes_[k]));
        parameters[2 * k + side] = arguments[2 * k + side].data();
      }
    }
    std::vector<int64_t> merged(order.size());
    std::vector<Merge> active;
    for (int64_t width = 1; width < length; width *= 2) {
      active.clear();
      for (std::size_t s = 0; s < bases.size(); ++s) {
        for (int64_t low = 0; low < length; low += 2 * width) {
          const int64_t middle = std::min(low + width, length);
          const int64_t high = std::min(low + 2 * width, length);
          active.push_back(
              {static_cast<int64_t>(s), low, middle, middle, high, low});
        }
      }
      while (!active.empty()) {
        FinishExhausted(order, merged, length, active);
        for (std::size_t first = 0; first < active.size(); first += kMaxBatch) {
          const int64_t count = std::min<int64_t>(
              kMaxBatch, static_cast<int64_t>(active.size() - first));
          const std::span<Merge> batch(active.data() + first,
                                       static_cast<std::size_t>(count));
          for (int64_t i = 0; i < count; ++i) {
            const Merge& m = batch[i];
            const int64_t* slice_order = order.data() + m.slice * length;
            const int64_t base = bases[static_cast<std::size_t>(m.slice)];
            for (uint32_t k = 0; k < n; ++k) {
              const uint8_t* operand = buffers[sort_.operands[k]];
              const int64_t size = sizes_[k];
              std::memcpy(
                  arguments[2 * k].data() + i * size,
                  operand + (base + slice_order[m.right] * stride) * size,
                  static_cast<std::size_t>(size));
              std::memcpy(
                  arguments[2 * k + 1].data() + i * size,
                  operand + (base + slice_order[m.left] * stride) * size,
                  static_cast<std::size_t>(size));
            }
          }
          PHAL_RETURN_IF_ERROR(frame.Evaluate(buffers, count, {}, parameters));
          const uint8_t* right_first = frame.result(0);
          for (int64_t i = 0; i < count; ++i) {
            Merge& m = batch[i];
            const int64_t* slice_order = order.data() + m.slice * length;
            int64_t& taken = right_first[i] != 0 ? m.right : m.left;
            merged[m.slice * length + m.out++] = slice_order[taken++];
          }
        }
      }
      order.swap(merged);
    }
    return OkStatus();
  }

  // Copies the rest of every merge with one run exhausted and drops it.
  static void FinishExhausted(const std::vector<int64_t>& order,
                              std::vector<int64_t>& merged, int64_t length,
                              std::vector<Merge>& active) {
    auto finished = [&](Merge& m) {
      if (m.left < m.middle && m.right < m.high) return false;
      const int64_t* slice_order = order.data() + m.slice * length;
      int64_t* out = merged.data() + m.slice * length;
      while (m.left < m.middle) out[m.out++] = slice_order[m.left++];
      while (m.right < m.high) out[m.out++] = slice_order[m.right++];
      return true;
    };
    active.erase(std::remove_if(active.begin(), active.end(), finished),
                 active.end());
  }

  const phal_kernel_desc_t& kernel_;
  const phal_kir_sort_t& sort_;
  CompiledBody comparator_;
  std::vector<uint32_t> inputs_;
  std::vector<int64_t> sizes_;
};

}  // namespace

StatusOr<std::unique_ptr<CompiledKernel>> CompileSortKernel(
    const phal_kernel_desc_t& kernel) {
  const phal_kir_sort_t& sort = *kernel.u.sort;
  if (sort.operand_count == 0) {
    return KernelError(kernel, "sort has no operands");
  }
  std::vector<ElementType> parameters;
  for (uint32_t k = 0; k < sort.operand_count; ++k) {
    const std::string role = "sort operand " + std::to_string(k);
    PHAL_RETURN_IF_ERROR(CheckBufferIndex(kernel, sort.operands[k], role));
    const phal_kir_buffer_t& operand = kernel.buffers[sort.operands[k]];
    const std::span<const int64_t> dims =
        BufferDims(kernel.buffers[sort.operands[0]]);
    if (!std::ranges::equal(BufferDims(operand), dims)) {
      return KernelError(kernel, role + " " + DimsText(BufferDims(operand)) +
                                     " differs from operand 0 " +
                                     DimsText(dims));
    }
    const std::string output_role = "sort output " + std::to_string(k);
    PHAL_RETURN_IF_ERROR(
        CheckOutputBuffer(kernel, sort.outputs[k], output_role, dims));
    if (kernel.buffers[sort.outputs[k]].element_type != operand.element_type) {
      return KernelError(
          kernel,
          output_role + " is " +
              ElementTypeName(kernel.buffers[sort.outputs[k]].element_type) +
              ", its operand " + ElementTypeName(operand.element_type));
    }
    parameters.push_back(operand.element_type);
    parameters.push_back(operand.element_type);
  }
  const int64_t rank = kernel.buffers[sort.operands[0]].rank;
  if (sort.dimension < 0 || sort.dimension >= rank) {
    return KernelError(
        kernel, "sort dimension " + std::to_string(sort.dimension) +
                    " is outside the operands' rank " + std::to_string(rank));
  }
  BodySignature signature{"comparator", 0, parameters, 1};
  PHAL_ASSIGN_OR_RETURN(
      CompiledBody comparator,
      CompiledBody::Compile(kernel, sort.comparator, signature));
  PHAL_RETURN_IF_ERROR(comparator.CheckResultType(0, PHAL_ELEMENT_TYPE_PRED,
                                                  "a comparator's result"));
  return std::unique_ptr<CompiledKernel>(
      new SortKernel(kernel, std::move(comparator)));
}

}  // namespace phal::kir_interpreter
