#include "sdk/kir/facts.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "sdk/base/element_types.h"

namespace phal {
namespace {

struct KirOpFacts {
  phal_kir_op_t op;
  const char* name;
  KirOpClass op_class;
  // The ABI version that appended the op to phal_kir_op_t.
  uint32_t abi_version = PHAL_MAKE_VERSION(1, 1);
};

constexpr KirOpFacts kKirOps[] = {
    {PHAL_KIR_OP_CONSTANT, "constant", KirOpClass::kLeaf},
    {PHAL_KIR_OP_INDEX, "index", KirOpClass::kLeaf},
    {PHAL_KIR_OP_READ, "read", KirOpClass::kLeaf},
    {PHAL_KIR_OP_PARAMETER, "parameter", KirOpClass::kLeaf},
    {PHAL_KIR_OP_ABS, "abs", KirOpClass::kUnary},
    {PHAL_KIR_OP_NEGATE, "negate", KirOpClass::kUnary},
    {PHAL_KIR_OP_SIGN, "sign", KirOpClass::kUnary},
    {PHAL_KIR_OP_FLOOR, "floor", KirOpClass::kUnary},
    {PHAL_KIR_OP_CEIL, "ceil", KirOpClass::kUnary},
    {PHAL_KIR_OP_ROUND_NEAREST_AFZ, "round_nearest_afz", KirOpClass::kUnary},
    {PHAL_KIR_OP_ROUND_NEAREST_EVEN, "round_nearest_even", KirOpClass::kUnary},
    {PHAL_KIR_OP_EXP, "exp", KirOpClass::kUnary},
    {PHAL_KIR_OP_EXPM1, "expm1", KirOpClass::kUnary},
    {PHAL_KIR_OP_LOG, "log", KirOpClass::kUnary},
    {PHAL_KIR_OP_LOG1P, "log1p", KirOpClass::kUnary},
    {PHAL_KIR_OP_LOGISTIC, "logistic", KirOpClass::kUnary},
    {PHAL_KIR_OP_SQRT, "sqrt", KirOpClass::kUnary},
    {PHAL_KIR_OP_RSQRT, "rsqrt", KirOpClass::kUnary},
    {PHAL_KIR_OP_CBRT, "cbrt", KirOpClass::kUnary},
    {PHAL_KIR_OP_TANH, "tanh", KirOpClass::kUnary},
    {PHAL_KIR_OP_SIN, "sin", KirOpClass::kUnary},
    {PHAL_KIR_OP_COS, "cos", KirOpClass::kUnary},
    {PHAL_KIR_OP_TAN, "tan", KirOpClass::kUnary},
    {PHAL_KIR_OP_NOT, "not", KirOpClass::kUnary},
    {PHAL_KIR_OP_POPCNT, "popcnt", KirOpClass::kUnary},
    {PHAL_KIR_OP_CLZ, "clz", KirOpClass::kUnary},
    {PHAL_KIR_OP_IS_FINITE, "is_finite", KirOpClass::kUnary},
    {PHAL_KIR_OP_REAL, "real", KirOpClass::kUnary},
    {PHAL_KIR_OP_IMAG, "imag", KirOpClass::kUnary},
    {PHAL_KIR_OP_CONVERT, "convert", KirOpClass::kUnary},
    {PHAL_KIR_OP_BITCAST_CONVERT, "bitcast_convert", KirOpClass::kUnary},
    {PHAL_KIR_OP_REDUCE_PRECISION, "reduce_precision", KirOpClass::kUnary},
    {PHAL_KIR_OP_ADD, "add", KirOpClass::kBinary},
    {PHAL_KIR_OP_SUBTRACT, "subtract", KirOpClass::kBinary},
    {PHAL_KIR_OP_MULTIPLY, "multiply", KirOpClass::kBinary},
    {PHAL_KIR_OP_DIVIDE, "divide", KirOpClass::kBinary},
    {PHAL_KIR_OP_REMAINDER, "remainder", KirOpClass::kBinary},
    {PHAL_KIR_OP_MAXIMUM, "maximum", KirOpClass::kBinary},
    {PHAL_KIR_OP_MINIMUM, "minimum", KirOpClass::kBinary},
    {PHAL_KIR_OP_POWER, "power", KirOpClass::kBinary},
    {PHAL_KIR_OP_ATAN2, "atan2", KirOpClass::kBinary},
    {PHAL_KIR_OP_AND, "and", KirOpClass::kBinary},
    {PHAL_KIR_OP_OR, "or", KirOpClass::kBinary},
    {PHAL_KIR_OP_XOR, "xor", KirOpClass::kBinary},
    {PHAL_KIR_OP_SHIFT_LEFT, "shift_left", KirOpClass::kBinary},
    {PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, "shift_right_arithmetic",
     KirOpClass::kBinary},
    {PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL, "shift_right_logical",
     KirOpClass::kBinary},
    {PHAL_KIR_OP_COMPLEX, "complex", KirOpClass::kBinary},
    {PHAL_KIR_OP_COMPARE, "compare", KirOpClass::kBinary},
    {PHAL_KIR_OP_SELECT, "select", KirOpClass::kTernary},
    {PHAL_KIR_OP_CLAMP, "clamp", KirOpClass::kTernary},
    {PHAL_KIR_OP_ERF, "erf", KirOpClass::kUnary, PHAL_MAKE_VERSION(1, 2)},
};

// Op values are small: a direct index from value to table row.
constexpr size_t kOpValueLimit = 128;
constexpr std::array<int8_t, kOpValueLimit> kOpRow = [] {
  std::array<int8_t, kOpValueLimit> rows{};
  rows.fill(-1);
  for (size_t i = 0; i < std::size(kKirOps); ++i) {
    rows[static_cast<size_t>(kKirOps[i].op)] = static_cast<int8_t>(i);
  }
  return rows;
}();

const KirOpFacts* FindOp(uint32_t value) {
  if (value >= kOpValueLimit || kOpRow[value] < 0) return nullptr;
  return &kKirOps[kOpRow[value]];
}

constexpr const char* kKernelKindNames[] = {
    "invalid", "loop", "reduce", "dot", "conv",  "gather",
    "scatter", "sort", "copy",   "fft", "linalg"};
static_assert(std::size(kKernelKindNames) == PHAL_KERNEL_KIND_LINALG + 1);

constexpr const char* kFftTypeNames[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static_assert(std::size(kFftTypeNames) == PHAL_KIR_FFT_TYPE_IRFFT + 1);

constexpr const char* kLinalgOpNames[] = {
    "cholesky", "triangular-solve", "lu", "qr", "householder-product", "eigh",
    "svd"};
static_assert(std::size(kLinalgOpNames) == PHAL_KIR_LINALG_SVD + 1);

constexpr const char* kTransposeNames[] = {"NO_TRANSPOSE", "TRANSPOSE",
                                           "ADJOINT"};
static_assert(std::size(kTransposeNames) == PHAL_KIR_TRANSPOSE_ADJOINT + 1);

constexpr uint32_t kLinalgFlags =
    PHAL_KIR_LINALG_LOWER | PHAL_KIR_LINALG_LEFT_SIDE |
    PHAL_KIR_LINALG_UNIT_DIAGONAL | PHAL_KIR_LINALG_FULL_MATRICES;

// "1 buffer", "3 buffers".
std::string Count(uint64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

// The product of `count` extents, or -1 when it overflows int64.
int64_t Product(const int64_t* dims, uint32_t count) {
  int64_t product = 1;
  for (uint32_t d = 0; d < count; ++d) {
    if (__builtin_mul_overflow(product, dims[d], &product)) return -1;
  }
  return product;
}

int64_t ElementCount(const phal_kir_buffer_t& buffer) {
  return Product(buffer.dims, buffer.rank);
}

phal_element_type_t ResultType(const phal_kir_body_t& body, uint32_t result) {
  return body.nodes[body.results[result]].type;
}

bool IsInteger(phal_element_type_t type) {
  return IsSigned(type) || IsUnsigned(type);
}

// The checks of one kernel; every failure names the kernel.
class KernelChecker {
 public:
  explicit KernelChecker(const phal_kernel_desc_t& kernel) : kernel_(kernel) {}

  Status Check() {
    PHAL_RETURN_IF_ERROR(Buffers());
    const uint32_t kind = KernelKindValue(kernel_);
    if (kind == 0 || kind > PHAL_KERNEL_KIND_LINALG) return OkStatus();
    if (kernel_.u.loop == nullptr) {
      return Fail(std::string("the ") + kKernelKindNames[kind] +
                  " kernel has no description");
    }
    switch (kernel_.kind) {
      case PHAL_KERNEL_KIND_LOOP:
        return Loop(*kernel_.u.loop);
      case PHAL_KERNEL_KIND_REDUCE:
        return Reduce(*kernel_.u.reduce);
      case PHAL_KERNEL_KIND_DOT:
        return Dot(*kernel_.u.dot);
      case PHAL_KERNEL_KIND_CONV:
        return Conv(*kernel_.u.conv);
      case PHAL_KERNEL_KIND_GATHER:
        return Gather(*kernel_.u.gather);
      case PHAL_KERNEL_KIND_SCATTER:
        return Scatter(*kernel_.u.scatter);
      case PHAL_KERNEL_KIND_SORT:
        return Sort(*kernel_.u.sort);
      case PHAL_KERNEL_KIND_COPY:
        return Copy(*kernel_.u.copy);
      case PHAL_KERNEL_KIND_FFT:
        return Fft(*kernel_.u.fft);
      case PHAL_KERNEL_KIND_LINALG:
        return Linalg(*kernel_.u.linalg);
    }
    return OkStatus();
  }

 private:
  Status Fail(const std::string& what) const {
    const std::string name = kernel_.name != nullptr ? kernel_.name : "";
    return InvalidArgument("kernel '" + name + "': " + what);
  }

  Status Buffers() const {
    if (kernel_.buffer_count > 0 && kernel_.buffers == nullptr) {
      return Fail("the kernel has buffers but no buffer descriptions");
    }
    for (uint32_t b = 0; b < kernel_.buffer_count; ++b) {
      const phal_kir_buffer_t& buffer = kernel_.buffers[b];
      const std::string what = "buffer " + std::to_string(b);
      if (ElementTypeByteSize(EnumValue(buffer.element_type)) == 0) {
        return Fail(what + " has no valid element type");
      }
      if (buffer.rank > 0 && buffer.dims == nullptr) {
        return Fail(what + " has rank " + std::to_string(buffer.rank) +
                    " but no dimensions");
      }
      for (uint32_t d = 0; d < buffer.rank; ++d) {
        if (buffer.dims[d] < 0) return Fail(what + " has a negative dimension");
      }
    }
    return OkStatus();
  }

  // `role` names the member in messages: "the dot's lhs".
  Status Buffer(uint32_t buffer, const std::string& role) const {
    if (buffer < kernel_.buffer_count) return OkStatus();
    return Fail(role + " names buffer " + std::to_string(buffer) +
                ", which does not exist; the kernel has " +
                Count(kernel_.buffer_count, "buffer", "buffers"));
  }

  // Buffer `buffer` exists and holds `element_count` elements of `type`.
  Status Output(uint32_t buffer, const std::string& role, int64_t element_count,
                phal_element_type_t type) const {
    PHAL_RETURN_IF_ERROR(Buffer(buffer, role));
    const phal_kir_buffer_t& desc = kernel_.buffers[buffer];
    if (ElementCount(desc) == element_count && desc.element_type == type) {
      return OkStatus();
    }
    return Fail("output buffer " + std::to_string(buffer) + " holds " +
                std::to_string(ElementCount(desc)) + " " +
                ElementTypeName(desc.element_type) +
                " elements; the kernel writes " +
                std::to_string(element_count) + " " + ElementTypeName(type));
  }

  template <typename T>
  Status Array(const T* values, uint64_t count, const char* what) const {
    if (count == 0 || values != nullptr) return OkStatus();
    return Fail(std::string(what) + " has " + std::to_string(count) +
                " entries but no array");
  }

  // Every entry of `dims` lies in [0, rank).
  Status Dimensions(const int64_t* dims, uint32_t count, uint32_t rank,
                    const char* what) const {
    PHAL_RETURN_IF_ERROR(Array(dims, count, what));
    for (uint32_t i = 0; i < count; ++i) {
      if (dims[i] < 0 || dims[i] >= rank) {
        return Fail(std::string(what) + " names dimension " +
                    std::to_string(dims[i]) + " of a rank-" +
                    std::to_string(rank) + " space");
      }
    }
    return OkStatus();
  }
  Status Dimension(int64_t dim, uint32_t rank, const char* what) const {
    return Dimensions(&dim, 1, rank, what);
  }

  struct NamedBuffer {
    uint32_t index;
    const char* role;
  };
  Status Buffers(std::initializer_list<NamedBuffer> buffers) const {
    for (const NamedBuffer& buffer : buffers) {
      PHAL_RETURN_IF_ERROR(Buffer(buffer.index, buffer.role));
    }
    return OkStatus();
  }

  // Dimension numbers `dims[0..count)` of a rank-`rank` space.
  struct DimensionList {
    const int64_t* dims;
    uint32_t count;
    uint32_t rank;
    const char* what;
  };
  Status Dimensions(std::initializer_list<DimensionList> lists) const {
    for (const DimensionList& list : lists) {
      PHAL_RETURN_IF_ERROR(
          Dimensions(list.dims, list.count, list.rank, list.what));
    }
    return OkStatus();
  }

  Status Body(const phal_kir_body_t& body, const char* name,
              uint32_t result_count) const {
    PHAL_RETURN_IF_ERROR(CheckKirBody(kernel_, body, name));
    if (body.result_count == result_count) return OkStatus();
    return Fail(std::string("the ") + name + " yields " +
                Count(body.result_count, "result", "results") + ", not " +
                std::to_string(result_count));
  }
  // An optional body yielding one value: absent (no results) or one result.
  Status OptionalBody(const phal_kir_body_t& body, const char* name) const {
    return body.result_count == 0 ? CheckKirBody(kernel_, body, name)
                                  : Body(body, name, 1);
  }

  Status AccumulationType(const phal_element_type_t& type,
                          const char* kind) const {
    if (ElementTypeByteSize(EnumValue(type)) != 0) return OkStatus();
    return Fail(std::string("a ") + kind + " needs a valid accumulation type");
  }

  // The type an optional epilogue writes: its result's, else `otherwise`.
  static phal_element_type_t WrittenType(const phal_kir_body_t& epilogue,
                                         phal_element_type_t otherwise) {
    return epilogue.result_count > 0 ? ResultType(epilogue, 0) : otherwise;
  }

  Status Loop(const phal_kir_loop_t& loop) const {
    PHAL_RETURN_IF_ERROR(Array(loop.dims, loop.rank, "the loop's dims"));
    PHAL_RETURN_IF_ERROR(
        Array(loop.outputs, loop.output_count, "the loop's outputs"));
    PHAL_RETURN_IF_ERROR(Body(loop.body, "body", loop.output_count));
    const int64_t elements = Product(loop.dims, loop.rank);
    for (uint32_t i = 0; i < loop.output_count; ++i) {
      PHAL_RETURN_IF_ERROR(Output(loop.outputs[i],
                                  "the loop's output " + std::to_string(i),
                                  elements, ResultType(loop.body, i)));
    }
    return OkStatus();
  }

  Status Reduce(const phal_kir_reduce_t& reduce) const {
    const uint32_t n = reduce.accumulator_count;
    PHAL_RETURN_IF_ERROR(Array(reduce.dims, reduce.rank, "the reduce's dims"));
    PHAL_RETURN_IF_ERROR(Dimensions(reduce.reduced_dims, reduce.reduced_count,
                                    reduce.rank, "the reduce's reduced_dims"));
    PHAL_RETURN_IF_ERROR(
        Array(reduce.outputs, reduce.output_count, "the reduce's outputs"));
    PHAL_RETURN_IF_ERROR(Body(reduce.init, "init", n));
    PHAL_RETURN_IF_ERROR(Body(reduce.values, "values", n));
    PHAL_RETURN_IF_ERROR(Body(reduce.reducer, "reducer", n));
    PHAL_RETURN_IF_ERROR(
        Body(reduce.epilogue, "epilogue", reduce.output_count));
    for (uint32_t j = 0; j < n; ++j) {
      if (ResultType(reduce.values, j) != ResultType(reduce.init, j)) {
        return Fail(
            "the reduce's values and init differ in element type at "
            "accumulator " +
            std::to_string(j));
      }
    }
    int64_t elements = 1;
    for (uint32_t d = 0; d < reduce.rank; ++d) {
      bool reduced = false;
      for (uint32_t i = 0; i < reduce.reduced_count; ++i) {
        reduced = reduced || reduce.reduced_dims[i] == d;
      }
      if (!reduced &&
          __builtin_mul_overflow(elements, reduce.dims[d], &elements)) {
        elements = -1;
        break;
      }
    }
    for (uint32_t i = 0; i < reduce.output_count; ++i) {
      PHAL_RETURN_IF_ERROR(Output(reduce.outputs[i],
                                  "the reduce's output " + std::to_string(i),
                                  elements, ResultType(reduce.epilogue, i)));
    }
    return OkStatus();
  }

  Status Dot(const phal_kir_dot_t& dot) const {
    PHAL_RETURN_IF_ERROR(Buffer(dot.lhs, "the dot's lhs"));
    PHAL_RETURN_IF_ERROR(Buffer(dot.rhs, "the dot's rhs"));
    PHAL_RETURN_IF_ERROR(AccumulationType(dot.accumulation_type, "dot"));
    if (dot.batch < 0 || dot.m < 0 || dot.n < 0 || dot.k < 0) {
      return Fail("the dot has a negative extent");
    }
    PHAL_RETURN_IF_ERROR(OptionalBody(dot.epilogue, "epilogue"));
    int64_t elements = 0;
    if (__builtin_mul_overflow(dot.batch, dot.m, &elements) ||
        __builtin_mul_overflow(elements, dot.n, &elements)) {
      elements = -1;
    }
    return Output(dot.output, "the dot's output", elements,
                  WrittenType(dot.epilogue, dot.accumulation_type));
  }

  Status Conv(const phal_kir_conv_t& conv) const {
    PHAL_RETURN_IF_ERROR(Buffers({{conv.input, "the conv's input"},
                                  {conv.kernel, "the conv's kernel"},
                                  {conv.output, "the conv's output"}}));
    const phal_kir_buffer_t& input = kernel_.buffers[conv.input];
    const phal_kir_buffer_t& weights = kernel_.buffers[conv.kernel];
    const phal_kir_buffer_t& output = kernel_.buffers[conv.output];
    const uint32_t count = conv.spatial_count;
    const uint32_t rank = count + 2;
    if (input.rank != rank || weights.rank != rank || output.rank != rank) {
      return Fail("the conv's buffers must have spatial_count + 2 = " +
                  std::to_string(rank) + " dimensions");
    }
    PHAL_RETURN_IF_ERROR(AccumulationType(conv.accumulation_type, "conv"));
    PHAL_RETURN_IF_ERROR(ConvDimensions(conv, rank));
    PHAL_RETURN_IF_ERROR(
        Array(conv.window_strides, count, "the conv's window_strides"));
    PHAL_RETURN_IF_ERROR(Array(conv.padding, 2 * count, "the conv's padding"));
    PHAL_RETURN_IF_ERROR(
        Array(conv.lhs_dilation, count, "the conv's lhs_dilation"));
    PHAL_RETURN_IF_ERROR(
        Array(conv.rhs_dilation, count, "the conv's rhs_dilation"));
    const int64_t output_features =
        weights.dims[conv.kernel_output_feature_dimension];
    if (conv.feature_group_count < 1 || conv.batch_group_count < 1 ||
        output_features % conv.feature_group_count != 0 ||
        output_features % conv.batch_group_count != 0 ||
        input.dims[conv.input_feature_dimension] !=
            weights.dims[conv.kernel_input_feature_dimension] *
                conv.feature_group_count) {
      return Fail("the conv's feature and batch groups do not fit its buffers");
    }
    PHAL_RETURN_IF_ERROR(OptionalBody(conv.epilogue, "epilogue"));
    return Output(conv.output, "the conv's output", ElementCount(output),
                  WrittenType(conv.epilogue, conv.accumulation_type));
  }

  Status ConvDimensions(const phal_kir_conv_t& conv, uint32_t rank) const {
    const uint32_t count = conv.spatial_count;
    const int64_t single[] = {conv.input_batch_dimension,
                              conv.input_feature_dimension,
                              conv.kernel_input_feature_dimension,
                              conv.kernel_output_feature_dimension,
                              conv.output_batch_dimension,
                              conv.output_feature_dimension};
    return Dimensions({
        {single, std::size(single), rank, "the conv's dimensions"},
        {conv.input_spatial_dimensions, count, rank,
         "the conv's input_spatial_dimensions"},
        {conv.kernel_spatial_dimensions, count, rank,
         "the conv's kernel_spatial_dimensions"},
        {conv.output_spatial_dimensions, count, rank,
         "the conv's output_spatial_dimensions"},
    });
  }

  Status Gather(const phal_kir_gather_t& gather) const {
    PHAL_RETURN_IF_ERROR(
        Buffers({{gather.operand, "the gather's operand"},
                 {gather.start_indices, "the gather's start_indices"},
                 {gather.output, "the gather's output"}}));
    const phal_kir_buffer_t& operand = kernel_.buffers[gather.operand];
    const phal_kir_buffer_t& indices = kernel_.buffers[gather.start_indices];
    const phal_kir_buffer_t& output = kernel_.buffers[gather.output];
    if (!IsInteger(indices.element_type)) {
      return Fail("the gather's start indices must be integers");
    }
    if (output.element_type != operand.element_type) {
      return Fail("the gather's output and operand differ in type");
    }
    PHAL_RETURN_IF_ERROR(Dimensions({
        {gather.offset_dims, gather.offset_dims_count, output.rank,
         "the gather's offset_dims"},
        {gather.collapsed_slice_dims, gather.collapsed_slice_dims_count,
         operand.rank, "the gather's collapsed_slice_dims"},
        {gather.start_index_map, gather.start_index_map_count, operand.rank,
         "the gather's start_index_map"},
        {gather.operand_batching_dims, gather.operand_batching_dims_count,
         operand.rank, "the gather's operand_batching_dims"},
        {gather.start_indices_batching_dims,
         gather.start_indices_batching_dims_count, indices.rank,
         "the gather's start_indices_batching_dims"},
    }));
    PHAL_RETURN_IF_ERROR(
        Array(gather.slice_sizes, operand.rank, "the gather's slice_sizes"));
    const uint32_t offset_operand_dims = operand.rank -
                                         gather.collapsed_slice_dims_count -
                                         gather.operand_batching_dims_count;
    const uint32_t index_vector_rank = gather.index_vector_dim < indices.rank
                                           ? indices.rank - 1
                                           : indices.rank;
    if (gather.offset_dims_count != offset_operand_dims ||
        output.rank != gather.offset_dims_count + index_vector_rank ||
        gather.index_vector_dim < 0 || gather.index_vector_dim > indices.rank) {
      return Fail(
          "the gather's offset, collapsed and batching dimensions do not fit "
          "its buffers' ranks");
    }
    return OkStatus();
  }

  Status Scatter(const phal_kir_scatter_t& scatter) const {
    PHAL_RETURN_IF_ERROR(
        Buffers({{scatter.operand, "the scatter's operand"},
                 {scatter.scatter_indices, "the scatter's scatter_indices"},
                 {scatter.updates, "the scatter's updates"}}));
    const phal_kir_buffer_t& operand = kernel_.buffers[scatter.operand];
    const phal_kir_buffer_t& indices = kernel_.buffers[scatter.scatter_indices];
    const phal_kir_buffer_t& updates = kernel_.buffers[scatter.updates];
    if (!IsInteger(indices.element_type)) {
      return Fail("the scatter's indices must be integers");
    }
    if (updates.element_type != operand.element_type) {
      return Fail("the scatter's updates and operand differ in type");
    }
    PHAL_RETURN_IF_ERROR(Output(scatter.output, "the scatter's output",
                                ElementCount(operand), operand.element_type));
    PHAL_RETURN_IF_ERROR(ScatterDimensions(scatter, operand, indices, updates));
    return Body(scatter.combiner, "combiner", 1);
  }

  Status ScatterDimensions(const phal_kir_scatter_t& scatter,
                           const phal_kir_buffer_t& operand,
                           const phal_kir_buffer_t& indices,
                           const phal_kir_buffer_t& updates) const {
    PHAL_RETURN_IF_ERROR(Dimensions({
        {scatter.update_window_dims, scatter.update_window_dims_count,
         updates.rank, "the scatter's update_window_dims"},
        {scatter.inserted_window_dims, scatter.inserted_window_dims_count,
         operand.rank, "the scatter's inserted_window_dims"},
        {scatter.scatter_dims_to_operand_dims,
         scatter.scatter_dims_to_operand_dims_count, operand.rank,
         "the scatter's scatter_dims_to_operand_dims"},
        {scatter.input_batching_dims, scatter.input_batching_dims_count,
         operand.rank, "the scatter's input_batching_dims"},
        {scatter.scatter_indices_batching_dims,
         scatter.scatter_indices_batching_dims_count, indices.rank,
         "the scatter's scatter_indices_batching_dims"},
    }));
    const uint32_t window_operand_dims = operand.rank -
                                         scatter.inserted_window_dims_count -
                                         scatter.input_batching_dims_count;
    if (scatter.update_window_dims_count != window_operand_dims ||
        scatter.index_vector_dim < 0 ||
        scatter.index_vector_dim > indices.rank) {
      return Fail(
          "the scatter's window, inserted and batching dimensions do not fit "
          "its buffers' ranks");
    }
    return OkStatus();
  }

  Status Sort(const phal_kir_sort_t& sort) const {
    if (sort.operand_count == 0) {
      return Fail("the sort needs at least one operand");
    }
    PHAL_RETURN_IF_ERROR(
        Array(sort.operands, sort.operand_count, "the sort's operands"));
    PHAL_RETURN_IF_ERROR(
        Array(sort.outputs, sort.operand_count, "the sort's outputs"));
    PHAL_RETURN_IF_ERROR(Buffer(sort.operands[0], "the sort's operand 0"));
    const phal_kir_buffer_t& first = kernel_.buffers[sort.operands[0]];
    for (uint32_t i = 0; i < sort.operand_count; ++i) {
      const std::string role = "the sort's operand " + std::to_string(i);
      PHAL_RETURN_IF_ERROR(Buffer(sort.operands[i], role));
      const phal_kir_buffer_t& operand = kernel_.buffers[sort.operands[i]];
      if (operand.rank != first.rank ||
          !std::equal(operand.dims, operand.dims + operand.rank, first.dims)) {
        return Fail("the sort's operands differ in shape");
      }
      PHAL_RETURN_IF_ERROR(Output(sort.outputs[i],
                                  "the sort's output " + std::to_string(i),
                                  ElementCount(operand), operand.element_type));
    }
    PHAL_RETURN_IF_ERROR(
        Dimension(sort.dimension, first.rank, "the sort's dimension"));
    PHAL_RETURN_IF_ERROR(Body(sort.comparator, "comparator", 1));
    if (ResultType(sort.comparator, 0) != PHAL_ELEMENT_TYPE_PRED) {
      return Fail("the sort's comparator must yield a pred");
    }
    return OkStatus();
  }

  Status Copy(const phal_kir_copy_t& copy) const {
    PHAL_RETURN_IF_ERROR(
        Buffers({{copy.source, "the copy's source"},
                 {copy.destination, "the copy's destination"}}));
    const phal_kir_buffer_t& source = kernel_.buffers[copy.source];
    const phal_kir_buffer_t& destination = kernel_.buffers[copy.destination];
    if (ElementCount(source) * StorageBytes(source.element_type) !=
        ElementCount(destination) * StorageBytes(destination.element_type)) {
      return Fail("the copy's source and destination differ in byte size");
    }
    return OkStatus();
  }

  Status Fft(const phal_kir_fft_t& fft) const {
    PHAL_RETURN_IF_ERROR(Buffers(
        {{fft.input, "the fft's input"}, {fft.output, "the fft's output"}}));
    const uint32_t type = EnumValue(fft.fft_type);
    if (type > PHAL_KIR_FFT_TYPE_IRFFT) {
      return Fail("the fft has fft_type " + std::to_string(type) +
                  ", which this ABI does not define");
    }
    if (fft.fft_rank < 1 || fft.fft_rank > 3) {
      return Fail("the fft transforms " + std::to_string(fft.fft_rank) +
                  " dimensions; it transforms 1 to 3");
    }
    PHAL_RETURN_IF_ERROR(
        Array(fft.fft_length, fft.fft_rank, "the fft's fft_length"));
    for (uint32_t i = 0; i < fft.fft_rank; ++i) {
      if (fft.fft_length[i] < 0) return Fail("the fft has a negative length");
    }
    if (fft.input == fft.output) {
      return Fail("the fft's input and output are one buffer");
    }
    const phal_kir_buffer_t& input = kernel_.buffers[fft.input];
    const phal_kir_buffer_t& output = kernel_.buffers[fft.output];
    const auto [input_type, output_type] = FftElementTypes(
        static_cast<phal_kir_fft_type_t>(type), input.element_type);
    if (input.element_type != input_type ||
        output.element_type != output_type) {
      return Fail(std::string("the ") + kFftTypeNames[type] + " reads " +
                  ElementTypeName(input.element_type) + " and writes " +
                  ElementTypeName(output.element_type) +
                  "; it reads c64, c128 (RFFT: f32, f64) and writes the "
                  "type of the transform");
    }
    if (input.rank < fft.fft_rank || output.rank != input.rank) {
      return Fail("the fft's buffers must have one rank, at least fft_rank");
    }
    const uint32_t batch_rank = input.rank - fft.fft_rank;
    for (uint32_t d = 0; d < input.rank; ++d) {
      int64_t in = input.dims[d];
      int64_t out = output.dims[d];
      if (d >= batch_rank) {
        const int64_t n = fft.fft_length[d - batch_rank];
        const bool last = d + 1 == input.rank;
        const int64_t half = n == 0 ? 0 : n / 2 + 1;
        in = last && type == PHAL_KIR_FFT_TYPE_IRFFT ? half : n;
        out = last && type == PHAL_KIR_FFT_TYPE_RFFT ? half : n;
      }
      if (input.dims[d] != in || output.dims[d] != out) {
        return Fail(std::string("the ") + kFftTypeNames[type] +
                    " of fft_length " + List(fft.fft_length, fft.fft_rank) +
                    " does not fit its buffers' dimensions " +
                    List(input.dims, input.rank) + " and " +
                    List(output.dims, output.rank));
      }
    }
    return OkStatus();
  }

  // A LINALG kernel: the counts of its op, distinct buffers, and each
  // result's shape and type from a's [batch..., m, n].
  Status Linalg(const phal_kir_linalg_t& linalg) const {
    const uint32_t op = EnumValue(linalg.op);
    if (op > PHAL_KIR_LINALG_SVD) {
      return Fail("the linalg kernel has op " + std::to_string(op) +
                  ", which is not a phal_kir_linalg_op_t");
    }
    const std::string name = std::string("the ") + kLinalgOpNames[op];
    if ((linalg.flags & ~kLinalgFlags) != 0) {
      return Fail(name + " has unknown flags " + std::to_string(linalg.flags));
    }
    if (EnumValue(linalg.transpose_a) > PHAL_KIR_TRANSPOSE_ADJOINT) {
      return Fail(name + " has transpose_a " +
                  std::to_string(EnumValue(linalg.transpose_a)) +
                  ", which is not a phal_kir_transpose_t");
    }
    const bool two_operands = op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                              op == PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT;
    const uint32_t results = op == PHAL_KIR_LINALG_SVD ? 3
                             : op == PHAL_KIR_LINALG_LU ||
                                     op == PHAL_KIR_LINALG_QR ||
                                     op == PHAL_KIR_LINALG_EIGH
                                 ? 2
                                 : 1;
    if (linalg.operand_count != (two_operands ? 2u : 1u) ||
        linalg.result_count != results) {
      return Fail(name + " has " +
                  Count(linalg.operand_count, "operand", "operands") + " and " +
                  Count(linalg.result_count, "result", "results") +
                  "; it takes " + (two_operands ? "2" : "1") + " and gives " +
                  std::to_string(results));
    }
    std::vector<uint32_t> used;
    for (uint32_t i = 0; i < linalg.operand_count; ++i) {
      PHAL_RETURN_IF_ERROR(
          Buffer(linalg.operands[i], name + "'s operand " + std::to_string(i)));
      used.push_back(linalg.operands[i]);
    }
    for (uint32_t i = 0; i < linalg.result_count; ++i) {
      PHAL_RETURN_IF_ERROR(
          Buffer(linalg.results[i], name + "'s result " + std::to_string(i)));
      if (std::find(used.begin(), used.end(), linalg.results[i]) !=
          used.end()) {
        return Fail(name + "'s result " + std::to_string(i) +
                    " shares buffer " + std::to_string(linalg.results[i]) +
                    " with another operand or result");
      }
      used.push_back(linalg.results[i]);
    }
    const phal_kir_buffer_t& a = kernel_.buffers[linalg.operands[0]];
    const phal_element_type_t type = a.element_type;
    if (type != PHAL_ELEMENT_TYPE_F32 && type != PHAL_ELEMENT_TYPE_F64 &&
        type != PHAL_ELEMENT_TYPE_C64 && type != PHAL_ELEMENT_TYPE_C128) {
      return Fail(name + " reads " + ElementTypeName(type) +
                  "; it takes f32, f64, c64 or c128");
    }
    if (a.rank < 2) return Fail(name + "'s operand must have rank 2 or more");
    const std::vector<int64_t> batch(a.dims, a.dims + a.rank - 2);
    const int64_t m = a.dims[a.rank - 2];
    const int64_t n = a.dims[a.rank - 1];
    const int64_t k = std::min(m, n);
    const phal_element_type_t real =
        type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_C64
            ? PHAL_ELEMENT_TYPE_F32
            : PHAL_ELEMENT_TYPE_F64;
    auto dims = [&](std::initializer_list<int64_t> tail) {
      std::vector<int64_t> all = batch;
      all.insert(all.end(), tail);
      return all;
    };
    const bool square_op = op == PHAL_KIR_LINALG_CHOLESKY ||
                           op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE ||
                           op == PHAL_KIR_LINALG_EIGH;
    if (square_op && m != n) {
      return Fail(name + "'s operand " + Shape(a) + " must be square");
    }
    std::vector<std::pair<phal_element_type_t, std::vector<int64_t>>> expected;
    switch (op) {
      case PHAL_KIR_LINALG_CHOLESKY:
        expected = {{type, dims({m, n})}};
        break;
      case PHAL_KIR_LINALG_TRIANGULAR_SOLVE: {
        const phal_kir_buffer_t& b = kernel_.buffers[linalg.operands[1]];
        const bool left = (linalg.flags & PHAL_KIR_LINALG_LEFT_SIDE) != 0;
        const bool fits = b.element_type == type && b.rank == a.rank &&
                          std::equal(batch.begin(), batch.end(), b.dims) &&
                          b.dims[left ? b.rank - 2 : b.rank - 1] == m;
        if (!fits) {
          return Fail(name + "'s b " + Shape(b) + " does not fit a " +
                      Shape(a) + (left ? " on the left" : " on the right"));
        }
        expected = {{type, std::vector<int64_t>(b.dims, b.dims + b.rank)}};
        break;
      }
      case PHAL_KIR_LINALG_LU:
        expected = {{type, dims({m, n})}, {PHAL_ELEMENT_TYPE_S32, dims({k})}};
        break;
      case PHAL_KIR_LINALG_QR:
        expected = {{type, dims({m, n})}, {type, dims({k})}};
        break;
      case PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT: {
        const phal_kir_buffer_t& taus = kernel_.buffers[linalg.operands[1]];
        const bool fits = taus.element_type == type &&
                          taus.rank == a.rank - 1 &&
                          std::equal(batch.begin(), batch.end(), taus.dims) &&
                          m >= n && n >= taus.dims[taus.rank - 1];
        if (!fits) {
          return Fail(name + "'s taus " + Shape(taus) + " do not fit a " +
                      Shape(a) + " (m >= n >= taus)");
        }
        expected = {{type, dims({m, n})}};
        break;
      }
      case PHAL_KIR_LINALG_EIGH:
        expected = {{type, dims({n, n})}, {real, dims({n})}};
        break;
      case PHAL_KIR_LINALG_SVD: {
        const bool full = (linalg.flags & PHAL_KIR_LINALG_FULL_MATRICES) != 0;
        expected = {{type, dims({m, full ? m : k})},
                    {real, dims({k})},
                    {type, dims({full ? n : k, n})}};
        break;
      }
    }
    for (uint32_t i = 0; i < linalg.result_count; ++i) {
      const phal_kir_buffer_t& result = kernel_.buffers[linalg.results[i]];
      const auto& [want_type, want_dims] = expected[i];
      if (result.element_type != want_type ||
          std::vector<int64_t>(result.dims, result.dims + result.rank) !=
              want_dims) {
        return Fail(
            name + "'s result " + std::to_string(i) + " is " + Shape(result) +
            "; for a " + Shape(a) + " it is " + ElementTypeName(want_type) +
            List(want_dims.data(), static_cast<uint32_t>(want_dims.size())));
      }
    }
    return OkStatus();
  }

  // "f32[2,8,8]".
  static std::string Shape(const phal_kir_buffer_t& buffer) {
    return ElementTypeName(buffer.element_type) +
           List(buffer.dims, buffer.rank);
  }

  // The input and output types of an fft whose input is `input`: the
  // input's own, with the output's of that precision.
  static std::pair<phal_element_type_t, phal_element_type_t> FftElementTypes(
      phal_kir_fft_type_t type, phal_element_type_t input) {
    const bool single =
        input == PHAL_ELEMENT_TYPE_F32 || input == PHAL_ELEMENT_TYPE_C64;
    const phal_element_type_t real =
        single ? PHAL_ELEMENT_TYPE_F32 : PHAL_ELEMENT_TYPE_F64;
    const phal_element_type_t complex =
        single ? PHAL_ELEMENT_TYPE_C64 : PHAL_ELEMENT_TYPE_C128;
    switch (type) {
      case PHAL_KIR_FFT_TYPE_RFFT:
        return {real, complex};
      case PHAL_KIR_FFT_TYPE_IRFFT:
        return {complex, real};
      default:
        return {complex, complex};
    }
  }

  // "[4,8]".
  static std::string List(const int64_t* values, uint32_t count) {
    std::string text = "[";
    for (uint32_t i = 0; i < count; ++i) {
      text += (i == 0 ? "" : ",") + std::to_string(values[i]);
    }
    return text + "]";
  }

  const phal_kernel_desc_t& kernel_;
};

// The checks of one body node; `fail` prefixes the kernel and body.
template <typename Fail>
Status CheckNode(const phal_kernel_desc_t& kernel, const phal_kir_body_t& body,
                 uint32_t index, const Fail& fail) {
  const phal_kir_node_t& node = body.nodes[index];
  const std::string at = "node " + std::to_string(index);
  if (ElementTypeByteSize(EnumValue(node.type)) == 0) {
    return fail(at + " has no valid element type");
  }
  const KirOpClass op_class = KirOpClassOf(node.op);
  if (op_class == KirOpClass::kUnknown) {
    return Unimplemented(fail(at + " has KIR op " +
                              std::to_string(EnumValue(node.op)) +
                              ", which this ABI does not define")
                             .message());
  }
  if (uint64_t{node.operand_begin} + node.operand_count > body.operand_count) {
    return fail(at + " names operands past the body's operand array");
  }
  for (uint32_t k = 0; k < node.operand_count; ++k) {
    const uint32_t operand = body.operands[node.operand_begin + k];
    if (operand >= index) {
      return fail(at + " uses node " + std::to_string(operand) +
                  ", which does not come before it");
    }
  }
  if (node.op == PHAL_KIR_OP_READ) {
    const int64_t buffer = node.attributes[0];
    if (buffer < 0 || buffer >= kernel.buffer_count) {
      return fail(at + " reads buffer " + std::to_string(buffer) +
                  ", which does not exist; the kernel has " +
                  Count(kernel.buffer_count, "buffer", "buffers"));
    }
    const phal_kir_buffer_t& desc = kernel.buffers[buffer];
    if (node.operand_count != desc.rank) {
      return fail(at + " reads buffer " + std::to_string(buffer) + " of rank " +
                  std::to_string(desc.rank) + " with " +
                  Count(node.operand_count, "index", "indices"));
    }
    if (desc.element_type != node.type) {
      return fail(at + " reads a " + ElementTypeName(desc.element_type) +
                  " buffer as " + ElementTypeName(node.type));
    }
    return OkStatus();
  }
  const uint32_t expected = KirOperandCount(op_class);
  if (node.operand_count == expected) return OkStatus();
  return fail(at + " (" + KirOpName(node.op) + ") takes " +
              Count(expected, "operand", "operands") + ", not " +
              std::to_string(node.operand_count));
}

}  // namespace

const char* KirOpName(phal_kir_op_t op) { return KirOpName(EnumValue(op)); }

const char* KirOpName(uint32_t op) {
  const KirOpFacts* facts = FindOp(op);
  return facts != nullptr ? facts->name : "invalid";
}

KirOpClass KirOpClassOf(phal_kir_op_t op) {
  return KirOpClassOf(EnumValue(op));
}

KirOpClass KirOpClassOf(uint32_t op) {
  const KirOpFacts* facts = FindOp(op);
  return facts != nullptr ? facts->op_class : KirOpClass::kUnknown;
}

uint32_t KirOpAbiVersion(phal_kir_op_t op) {
  return KirOpAbiVersion(EnumValue(op));
}

uint32_t KirOpAbiVersion(uint32_t op) {
  const KirOpFacts* facts = FindOp(op);
  return facts != nullptr ? facts->abi_version : 0;
}

uint32_t KirOperandCount(KirOpClass op_class) {
  switch (op_class) {
    case KirOpClass::kUnary:
      return 1;
    case KirOpClass::kBinary:
      return 2;
    case KirOpClass::kTernary:
      return 3;
    default:
      return 0;
  }
}

const char* KernelKindName(phal_kernel_kind_t kind) {
  return KernelKindName(EnumValue(kind));
}

const char* KernelKindName(uint32_t kind) {
  return kind < std::size(kKernelKindNames) ? kKernelKindNames[kind]
                                            : "invalid";
}

uint32_t KernelKindValue(const phal_kernel_desc_t& kernel) {
  return EnumValue(kernel.kind);
}

uint32_t KernelKindAbiVersion(phal_kernel_kind_t kind) {
  return KernelKindAbiVersion(EnumValue(kind));
}

uint32_t KernelKindAbiVersion(uint32_t kind) {
  if (kind >= PHAL_KERNEL_KIND_LOOP && kind <= PHAL_KERNEL_KIND_COPY) {
    return PHAL_MAKE_VERSION(1, 1);
  }
  if (kind == PHAL_KERNEL_KIND_FFT) return PHAL_MAKE_VERSION(1, 6);
  return kind == PHAL_KERNEL_KIND_LINALG ? PHAL_MAKE_VERSION(1, 14) : 0;
}

const char* KirLinalgOpName(uint32_t op) {
  return op < std::size(kLinalgOpNames) ? kLinalgOpNames[op] : "invalid";
}

const char* KirTransposeName(uint32_t transpose) {
  return transpose < std::size(kTransposeNames) ? kTransposeNames[transpose]
                                                : "invalid";
}

const char* KirFftTypeName(phal_kir_fft_type_t type) {
  return KirFftTypeName(EnumValue(type));
}

const char* KirFftTypeName(uint32_t type) {
  return type < std::size(kFftTypeNames) ? kFftTypeNames[type] : "invalid";
}

Status CheckKernelKind(const phal_kernel_desc_t& kernel,
                       uint64_t supported_kinds, std::string_view implementer) {
  const uint32_t kind = KernelKindValue(kernel);
  if (kind < 64 && (supported_kinds & PHAL_KERNEL_KIND_BIT(kind)) != 0) {
    return OkStatus();
  }
  return Unimplemented("kernel kind " + std::to_string(kind) +
                       " is not implemented by " + std::string(implementer));
}

Status CheckKernelStructure(const phal_kernel_desc_t& kernel) {
  return KernelChecker(kernel).Check();
}

Status CheckKirBody(const phal_kernel_desc_t& kernel,
                    const phal_kir_body_t& body, std::string_view body_name) {
  const auto fail = [&](const std::string& what) {
    const std::string name = kernel.name != nullptr ? kernel.name : "";
    return InvalidArgument("kernel '" + name + "': " + std::string(body_name) +
                           " " + what);
  };
  if (body.node_count > 0 && body.nodes == nullptr) {
    return fail("has nodes but no node array");
  }
  if (body.operand_count > 0 && body.operands == nullptr) {
    return fail("has operands but no operand array");
  }
  if (body.result_count > 0 && body.results == nullptr) {
    return fail("has results but no result array");
  }
  for (uint32_t i = 0; i < body.node_count; ++i) {
    PHAL_RETURN_IF_ERROR(CheckNode(kernel, body, i, fail));
  }
  for (uint32_t r = 0; r < body.result_count; ++r) {
    if (body.results[r] >= body.node_count) {
      return fail("result " + std::to_string(r) + " names node " +
                  std::to_string(body.results[r]) + "; the body has " +
                  Count(body.node_count, "node", "nodes"));
    }
  }
  return OkStatus();
}

uint64_t BufferByteSize(const phal_kir_buffer_t& buffer) {
  uint64_t elements = 1;
  for (uint32_t d = 0; d < buffer.rank; ++d) {
    elements *= static_cast<uint64_t>(buffer.dims[d]);
  }
  return elements * ElementTypeByteSize(buffer.element_type);
}

}  // namespace phal
