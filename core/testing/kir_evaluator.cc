#include "core/testing/kir_evaluator.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/compiler/kir_ops.h"
#include "core/compiler/kir_printer.h"
#include "core/hlo/computation.h"
#include "core/hlo/instruction.h"
#include "core/hlo/literal.h"
#include "core/reference/convolution.h"
#include "core/reference/dot.h"
#include "core/reference/elementwise.h"
#include "core/reference/gather_scatter.h"
#include "core/reference/sort.h"

namespace phal {
namespace {

std::vector<int64_t> DimsOf(const phal_kir_buffer_t& buffer) {
  return std::vector<int64_t>(buffer.dims, buffer.dims + buffer.rank);
}

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;
  return product;
}

// A literal of `shape` holding a copy of a buffer's bytes.
Literal LiteralFromBytes(const Shape& shape, const uint8_t* bytes) {
  Literal literal(shape);
  if (literal.byte_size() > 0) {
    std::memcpy(literal.data(), bytes, literal.byte_size());
  }
  return literal;
}

Literal BufferLiteral(const phal_kernel_desc_t& kernel,
                      std::span<uint8_t* const> buffers, uint32_t index) {
  const phal_kir_buffer_t& b = kernel.buffers[index];
  return LiteralFromBytes(Shape(b.element_type, DimsOf(b)), buffers[index]);
}

void StoreLiteral(const Literal& literal, uint8_t* destination) {
  if (literal.byte_size() > 0) {
    std::memcpy(destination, literal.data(), literal.byte_size());
  }
}

// Runs elementwise HLO instructions made up for KIR nodes.
Status ApplyElementwise(HloInstruction& instruction,
                        std::span<const Literal* const> operands,
                        Literal* result) {
  *result = Literal(instruction.shape());
  return reference::EvaluateElementwise(instruction, operands, result);
}

Literal Converted(const Literal& value, ElementType type) {
  if (value.element_type() == type) return value;
  HloInstruction convert(HloOpcode::kConvert, "convert",
                         Shape(type, value.shape().dims()));
  Literal result;
  const Literal* operands[] = {&value};
  Status status = ApplyElementwise(convert, operands, &result);
  return status.ok() ? result : Literal();
}

// Evaluates one body over `points` iteration points at once: every node's
// value is a rank-1 literal of `points` elements.
class BodyEvaluator {
 public:
  BodyEvaluator(const phal_kernel_desc_t& kernel,
                std::span<uint8_t* const> buffers, const phal_kir_body_t& body)
      : kernel_(kernel), buffers_(buffers), body_(body) {
    for (uint32_t i = 0; i < body.node_count; ++i) {
      const phal_kir_node_t& node = body.nodes[i];
      std::optional<HloOpcode> opcode = OpcodeForKirOp(node.op);
      if (!opcode) {
        instructions_.push_back(nullptr);
        continue;
      }
      auto instruction = std::make_unique<HloInstruction>(
          *opcode, "n" + std::to_string(i), Shape(node.type, {0}));
      if (node.op == PHAL_KIR_OP_COMPARE) {
        instruction->set_comparison_direction(
            HloComparisonDirection(node.attributes[0]));
        instruction->set_comparison_type(HloComparisonType(node.attributes[1]));
      }
      if (node.op == PHAL_KIR_OP_REDUCE_PRECISION) {
        instruction->set_exponent_bits(node.attributes[0]);
        instruction->set_mantissa_bits(node.attributes[1]);
      }
      instructions_.push_back(std::move(instruction));
    }
  }

  // `indices[d]` holds INDEX d at every point (s64); `parameters[p]` the
  // value of parameter p at every point. Returns the results' values.
  StatusOr<std::vector<Literal>> Run(int64_t points,
                                     const std::vector<Literal>& indices,
                                     const std::vector<Literal>& parameters) {
    std::vector<Literal> values(body_.node_count);
    for (uint32_t i = 0; i < body_.node_count; ++i) {
      PHAL_ASSIGN_OR_RETURN(
          values[i], EvaluateNode(i, points, indices, parameters, values));
    }
    std::vector<Literal> results;
    for (uint32_t i = 0; i < body_.result_count; ++i) {
      results.push_back(values[body_.results[i]]);
    }
    return results;
  }

 private:
  Status NodeError(uint32_t index, const std::string& message) const {
    return Internal(std::string("kernel ") + kernel_.name + ": node %" +
                    std::to_string(index) + " (" +
                    KirOpName(body_.nodes[index].op) + "): " + message);
  }

  StatusOr<Literal> EvaluateNode(uint32_t index, int64_t points,
                                 const std::vector<Literal>& indices,
                                 const std::vector<Literal>& parameters,
                                 const std::vector<Literal>& values) {
    const phal_kir_node_t& node = body_.nodes[index];
    const Shape shape(node.type, {points});
    const uint32_t* operand_ids = body_.operands + node.operand_begin;
    switch (node.op) {
      case PHAL_KIR_OP_CONSTANT: {
        Literal literal(shape);
        const std::size_t size = ElementTypeByteSize(node.type);
        for (int64_t p = 0; p < points; ++p) {
          std::memcpy(literal.data() + p * size, node.constant, size);
        }
        return literal;
      }
      case PHAL_KIR_OP_INDEX: {
        const auto d = static_cast<std::size_t>(node.attributes[0]);
        if (d >= indices.size()) return NodeError(index, "no such dimension");
        return indices[d];
      }
      case PHAL_KIR_OP_PARAMETER: {
        const auto p = static_cast<std::size_t>(node.attributes[0]);
        if (p >= parameters.size()) return NodeError(index, "no parameter");
        return parameters[p];
      }
      case PHAL_KIR_OP_READ:
        return Read(index, node, points, operand_ids, values);
      default:
        break;
    }
    HloInstruction* instruction = instructions_[index].get();
    if (instruction == nullptr) return NodeError(index, "unknown op");
    instruction->mutable_shape() = shape;
    std::vector<const Literal*> operands;
    for (uint32_t i = 0; i < node.operand_count; ++i) {
      operands.push_back(&values[operand_ids[i]]);
    }
    Literal result;
    Status status = ApplyElementwise(*instruction, operands, &result);
    if (!status.ok()) return NodeError(index, status.message());
    return result;
  }

  StatusOr<Literal> Read(uint32_t index, const phal_kir_node_t& node,
                         int64_t points, const uint32_t* operand_ids,
                         const std::vector<Literal>& values) {
    const auto buffer = static_cast<uint32_t>(node.attributes[0]);
    if (buffer >= kernel_.buffer_count) return NodeError(index, "no buffer");
    const phal_kir_buffer_t& b = kernel_.buffers[buffer];
    if (b.element_type != node.type || node.operand_count != b.rank) {
      return NodeError(
          index, "type or rank differs from buf" + std::to_string(buffer));
    }
    Literal literal(Shape(node.type, {points}));
    const std::size_t size = ElementTypeByteSize(node.type);
    for (int64_t p = 0; p < points; ++p) {
      int64_t offset = 0;
      for (uint32_t d = 0; d < b.rank; ++d) {
        const int64_t i = values[operand_ids[d]].data_as<int64_t>()[p];
        if (i < 0 || i >= b.dims[d]) {
          return NodeError(index, "index " + std::to_string(i) +
                                      " out of bounds in dimension " +
                                      std::to_string(d) + " of buf" +
                                      std::to_string(buffer));
        }
        offset = offset * b.dims[d] + i;
      }
      std::memcpy(literal.data() + p * size,
                  buffers_[buffer] + offset * static_cast<int64_t>(size), size);
    }
    return literal;
  }

  const phal_kernel_desc_t& kernel_;
  std::span<uint8_t* const> buffers_;
  const phal_kir_body_t& body_;
  std::vector<std::unique_ptr<HloInstruction>> instructions_;
};

// INDEX values of every point of `dims`, in row-major order.
std::vector<Literal> IterationIndices(const std::vector<int64_t>& dims) {
  const int64_t points = Product(dims);
  std::vector<Literal> indices;
  int64_t inner = points;
  for (int64_t dim : dims) {
    Literal index(Shape(PHAL_ELEMENT_TYPE_S64, {points}));
    inner = dim == 0 ? 0 : inner / dim;
    for (int64_t p = 0; p < points; ++p) {
      index.data_as<int64_t>()[p] = (p / inner) % dim;
    }
    indices.push_back(std::move(index));
  }
  return indices;
}

// Writes `values` (one element per point) into buffer `index`, which must
// have exactly their type and element count.
Status StoreValues(const phal_kernel_desc_t& kernel,
                   std::span<uint8_t* const> buffers, uint32_t index,
                   const Literal& values) {
  const phal_kir_buffer_t& b = kernel.buffers[index];
  if (values.element_type() != b.element_type ||
      values.ElementCount() != Product(DimsOf(b))) {
    return Internal(std::string("kernel ") + kernel.name + ": result of " +
                    values.shape().ToString() + " does not fit buf" +
                    std::to_string(index));
  }
  StoreLiteral(values, buffers[index]);
  return OkStatus();
}

Status EvaluateLoop(const phal_kernel_desc_t& kernel,
                    std::span<uint8_t* const> buffers) {
  const phal_kir_loop_t& loop = *kernel.u.loop;
  const std::vector<int64_t> dims(loop.dims, loop.dims + loop.rank);
  const int64_t points = Product(dims);
  if (points == 0) return OkStatus();
  BodyEvaluator body(kernel, buffers, loop.body);
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> results,
                        body.Run(points, IterationIndices(dims), {}));
  for (uint32_t i = 0; i < loop.output_count; ++i) {
    PHAL_RETURN_IF_ERROR(
        StoreValues(kernel, buffers, loop.outputs[i], results[i]));
  }
  return OkStatus();
}

// Gathers elements `positions` of `values` into a new literal.
Literal Take(const Literal& values, const std::vector<int64_t>& positions) {
  const std::size_t size = ElementTypeByteSize(values.element_type());
  Literal result(
      Shape(values.element_type(), {static_cast<int64_t>(positions.size())}));
  for (std::size_t i = 0; i < positions.size(); ++i) {
    std::memcpy(result.data() + i * size,
                values.data() + static_cast<std::size_t>(positions[i]) * size,
                size);
  }
  return result;
}

Literal Repeat(const Literal& scalar, int64_t count) {
  std::vector<int64_t> positions(static_cast<std::size_t>(count), 0);
  return Take(scalar, positions);
}

Status EvaluateReduce(const phal_kernel_desc_t& kernel,
                      std::span<uint8_t* const> buffers) {
  const phal_kir_reduce_t& r = *kernel.u.reduce;
  const std::vector<int64_t> dims(r.dims, r.dims + r.rank);
  std::vector<bool> reduced(dims.size(), false);
  for (uint32_t i = 0; i < r.reduced_count; ++i) {
    reduced[static_cast<std::size_t>(r.reduced_dims[i])] = true;
  }
  std::vector<int64_t> output_dims;
  std::vector<int64_t> reduced_sizes;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    (reduced[d] ? reduced_sizes : output_dims).push_back(dims[d]);
  }
  const int64_t outputs = Product(output_dims);
  const int64_t steps = Product(reduced_sizes);
  if (outputs == 0) return OkStatus();

  BodyEvaluator init(kernel, buffers, r.init);
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> init_values, init.Run(1, {}, {}));
  std::vector<Literal> accumulators;
  for (const Literal& value : init_values) {
    accumulators.push_back(Repeat(value, outputs));
  }
  if (steps > 0) {
    BodyEvaluator values_body(kernel, buffers, r.values);
    PHAL_ASSIGN_OR_RETURN(
        std::vector<Literal> values,
        values_body.Run(Product(dims), IterationIndices(dims), {}));
    // Position in `values` of (output point o, reduced point s).
    const std::vector<int64_t> strides = RowMajorStrides(dims);
    const std::vector<int64_t> output_strides = RowMajorStrides(output_dims);
    const std::vector<int64_t> reduced_strides = RowMajorStrides(reduced_sizes);
    BodyEvaluator reducer(kernel, buffers, r.reducer);
    for (int64_t s = 0; s < steps; ++s) {
      std::vector<int64_t> positions;
      for (int64_t o = 0; o < outputs; ++o) {
        int64_t position = 0;
        std::size_t out_d = 0;
        std::size_t red_d = 0;
        for (std::size_t d = 0; d < dims.size(); ++d) {
          int64_t i = 0;
          if (reduced[d]) {
            i = (s / reduced_strides[red_d]) % reduced_sizes[red_d];
            ++red_d;
          } else {
            i = (o / output_strides[out_d]) % output_dims[out_d];
            ++out_d;
          }
          position += i * strides[d];
        }
        positions.push_back(position);
      }
      std::vector<Literal> parameters = accumulators;
      for (const Literal& value : values) {
        parameters.push_back(Take(value, positions));
      }
      PHAL_ASSIGN_OR_RETURN(accumulators, reducer.Run(outputs, {}, parameters));
    }
  }
  BodyEvaluator epilogue(kernel, buffers, r.epilogue);
  PHAL_ASSIGN_OR_RETURN(
      std::vector<Literal> results,
      epilogue.Run(outputs, IterationIndices(output_dims), accumulators));
  for (uint32_t i = 0; i < r.output_count; ++i) {
    PHAL_RETURN_IF_ERROR(
        StoreValues(kernel, buffers, r.outputs[i], results[i]));
  }
  return OkStatus();
}

// Runs an epilogue over `dims` with parameter 0 `sum` and stores its result.
Status RunEpilogue(const phal_kernel_desc_t& kernel,
                   std::span<uint8_t* const> buffers,
                   const phal_kir_body_t& body,
                   const std::vector<int64_t>& dims, const Literal& sum,
                   uint32_t output) {
  const int64_t points = Product(dims);
  if (points == 0) return OkStatus();
  Literal flat(Shape(sum.element_type(), {points}));
  StoreLiteral(sum, flat.data());
  BodyEvaluator epilogue(kernel, buffers, body);
  PHAL_ASSIGN_OR_RETURN(std::vector<Literal> results,
                        epilogue.Run(points, IterationIndices(dims), {flat}));
  return StoreValues(kernel, buffers, output, results[0]);
}

// Reads a [batch, rows, columns] operand through the dot's strides.
Literal StridedOperand(const phal_kernel_desc_t& kernel,
                       std::span<uint8_t* const> buffers, uint32_t buffer,
                       const int64_t* strides, int64_t batch, int64_t rows,
                       int64_t columns) {
  const ElementType type = kernel.buffers[buffer].element_type;
  const std::size_t size = ElementTypeByteSize(type);
  Literal result(Shape(type, {batch, rows, columns}));
  int64_t out = 0;
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < columns; ++j, ++out) {
        const int64_t offset = b * strides[0] + i * strides[1] + j * strides[2];
        std::memcpy(result.data() + out * static_cast<int64_t>(size),
                    buffers[buffer] + offset * static_cast<int64_t>(size),
                    size);
      }
    }
  }
  return result;
}

Status EvaluateDot(const phal_kernel_desc_t& kernel,
                   std::span<uint8_t* const> buffers) {
  const phal_kir_dot_t& d = *kernel.u.dot;
  const ElementType type = d.accumulation_type;
  Literal lhs = Converted(
      StridedOperand(kernel, buffers, d.lhs, d.lhs_strides, d.batch, d.m, d.k),
      type);
  Literal rhs = Converted(
      StridedOperand(kernel, buffers, d.rhs, d.rhs_strides, d.batch, d.k, d.n),
      type);
  HloInstruction dot(HloOpcode::kDot, "dot", Shape(type, {d.batch, d.m, d.n}));
  dot.set_dot_dimension_numbers(DotDimensionNumbers{{0}, {0}, {2}, {1}});
  PHAL_ASSIGN_OR_RETURN(Literal sum, reference::EvaluateDot(dot, lhs, rhs));
  return RunEpilogue(kernel, buffers, d.epilogue, {d.batch, d.m, d.n}, sum,
                     d.output);
}

Status EvaluateConv(const phal_kernel_desc_t& kernel,
                    std::span<uint8_t* const> buffers) {
  const phal_kir_conv_t& c = *kernel.u.conv;
  const ElementType type = c.accumulation_type;
  const std::vector<int64_t> output_dims = DimsOf(kernel.buffers[c.output]);
  HloInstruction conv(HloOpcode::kConvolution, "conv",
                      Shape(type, output_dims));
  ConvolutionDimensionNumbers numbers;
  const std::size_t n = c.spatial_count;
  numbers.input_batch_dimension = c.input_batch_dimension;
  numbers.input_feature_dimension = c.input_feature_dimension;
  numbers.input_spatial_dimensions.assign(c.input_spatial_dimensions,
                                          c.input_spatial_dimensions + n);
  numbers.kernel_input_feature_dimension = c.kernel_input_feature_dimension;
  numbers.kernel_output_feature_dimension = c.kernel_output_feature_dimension;
  numbers.kernel_spatial_dimensions.assign(c.kernel_spatial_dimensions,
                                           c.kernel_spatial_dimensions + n);
  numbers.output_batch_dimension = c.output_batch_dimension;
  numbers.output_feature_dimension = c.output_feature_dimension;
  numbers.output_spatial_dimensions.assign(c.output_spatial_dimensions,
                                           c.output_spatial_dimensions + n);
  conv.set_convolution_dimension_numbers(numbers);
  Window window;
  const phal_kir_buffer_t& kernel_buffer = kernel.buffers[c.kernel];
  for (std::size_t i = 0; i < n; ++i) {
    WindowDimension w;
    w.size = kernel_buffer.dims[c.kernel_spatial_dimensions[i]];
    w.stride = c.window_strides[i];
    w.padding_low = c.padding[2 * i];
    w.padding_high = c.padding[2 * i + 1];
    w.base_dilation = c.lhs_dilation[i];
    w.window_dilation = c.rhs_dilation[i];
    w.window_reversal = c.window_reversal[i] != 0;
    window.dimensions.push_back(w);
  }
  conv.set_window(window);
  conv.set_feature_group_count(c.feature_group_count);
  conv.set_batch_group_count(c.batch_group_count);
  Literal input = Converted(BufferLiteral(kernel, buffers, c.input), type);
  Literal weights = Converted(BufferLiteral(kernel, buffers, c.kernel), type);
  PHAL_ASSIGN_OR_RETURN(Literal sum,
                        reference::EvaluateConvolution(conv, input, weights));
  return RunEpilogue(kernel, buffers, c.epilogue, output_dims, sum, c.output);
}

std::vector<int64_t> Vector(const int64_t* values, uint32_t count) {
  return count == 0 ? std::vector<int64_t>()
                    : std::vector<int64_t>(values, values + count);
}

Status EvaluateGather(const phal_kernel_desc_t& kernel,
                      std::span<uint8_t* const> buffers) {
  const phal_kir_gather_t& g = *kernel.u.gather;
  const phal_kir_buffer_t& output = kernel.buffers[g.output];
  HloInstruction gather(HloOpcode::kGather, "gather",
                        Shape(output.element_type, DimsOf(output)));
  GatherDimensionNumbers numbers;
  numbers.offset_dims = Vector(g.offset_dims, g.offset_dims_count);
  numbers.collapsed_slice_dims =
      Vector(g.collapsed_slice_dims, g.collapsed_slice_dims_count);
  numbers.start_index_map = Vector(g.start_index_map, g.start_index_map_count);
  numbers.index_vector_dim = g.index_vector_dim;
  numbers.operand_batching_dims =
      Vector(g.operand_batching_dims, g.operand_batching_dims_count);
  numbers.start_indices_batching_dims = Vector(
      g.start_indices_batching_dims, g.start_indices_batching_dims_count);
  gather.set_gather_dimension_numbers(numbers);
  gather.set_gather_slice_sizes(
      Vector(g.slice_sizes, kernel.buffers[g.operand].rank));
  PHAL_ASSIGN_OR_RETURN(Literal result,
                        reference::EvaluateGather(
                            gather, BufferLiteral(kernel, buffers, g.operand),
                            BufferLiteral(kernel, buffers, g.start_indices)));
  return StoreValues(kernel, buffers, g.output, result);
}

// Rebuilds a parameter-and-scalar-op body as an HLO computation, so the
// reference's scatter and sort can call it.
StatusOr<std::unique_ptr<HloComputation>> LiftScalarBody(
    const phal_kir_body_t& body, const std::vector<ElementType>& parameters) {
  auto computation = std::make_unique<HloComputation>("body");
  for (std::size_t p = 0; p < parameters.size(); ++p) {
    auto parameter = std::make_unique<HloInstruction>(HloOpcode::kParameter,
                                                      "p" + std::to_string(p),
                                                      Shape(parameters[p], {}));
    parameter->set_parameter_number(static_cast<int64_t>(p));
    computation->AddInstruction(std::move(parameter));
  }
  std::vector<HloInstruction*> values;
  for (uint32_t i = 0; i < body.node_count; ++i) {
    const phal_kir_node_t& node = body.nodes[i];
    const Shape shape(node.type, {});
    if (node.op == PHAL_KIR_OP_PARAMETER) {
      values.push_back(computation->parameter_instruction(node.attributes[0]));
      continue;
    }
    std::unique_ptr<HloInstruction> instruction;
    if (node.op == PHAL_KIR_OP_CONSTANT) {
      instruction = std::make_unique<HloInstruction>(
          HloOpcode::kConstant, "n" + std::to_string(i), shape);
      Literal literal(shape);
      std::memcpy(literal.data(), node.constant, literal.byte_size());
      instruction->set_literal(std::move(literal));
    } else {
      std::optional<HloOpcode> opcode = OpcodeForKirOp(node.op);
      if (!opcode) {
        return Unimplemented(std::string("KIR op ") + KirOpName(node.op) +
                             " in a scalar body");
      }
      instruction = std::make_unique<HloInstruction>(
          *opcode, "n" + std::to_string(i), shape);
      instruction->set_comparison_direction(
          HloComparisonDirection(node.attributes[0]));
      instruction->set_comparison_type(HloComparisonType(node.attributes[1]));
      instruction->set_exponent_bits(node.attributes[0]);
      instruction->set_mantissa_bits(node.attributes[1]);
      for (uint32_t o = 0; o < node.operand_count; ++o) {
        instruction->AppendOperand(
            values[body.operands[node.operand_begin + o]]);
      }
    }
    values.push_back(computation->AddInstruction(std::move(instruction)));
  }
  if (body.result_count == 1) {
    computation->set_root_instruction(values[body.results[0]]);
  } else {
    std::vector<Shape> shapes;
    auto tuple =
        std::make_unique<HloInstruction>(HloOpcode::kTuple, "results", Shape());
    for (uint32_t i = 0; i < body.result_count; ++i) {
      tuple->AppendOperand(values[body.results[i]]);
      shapes.push_back(values[body.results[i]]->shape());
    }
    tuple->mutable_shape() = Shape::Tuple(shapes);
    computation->set_root_instruction(
        computation->AddInstruction(std::move(tuple)));
  }
  return computation;
}

// Lifted bodies only hold scalar elementwise ops, which the reference runs
// directly; the runner is never asked for anything.
class NoRunner : public reference::ComputationRunner {
 public:
  StatusOr<Literal> Run(const HloComputation& computation,
                        std::span<const Literal* const>) override {
    return Internal("unexpected call of " + computation.name());
  }
};

Status EvaluateScatter(const phal_kernel_desc_t& kernel,
                       std::span<uint8_t* const> buffers) {
  const phal_kir_scatter_t& s = *kernel.u.scatter;
  const phal_kir_buffer_t& output = kernel.buffers[s.output];
  const ElementType type = output.element_type;
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloComputation> combiner,
                        LiftScalarBody(s.combiner, {type, type}));
  HloInstruction scatter(HloOpcode::kScatter, "scatter",
                         Shape(type, DimsOf(output)));
  ScatterDimensionNumbers numbers;
  numbers.update_window_dims =
      Vector(s.update_window_dims, s.update_window_dims_count);
  numbers.inserted_window_dims =
      Vector(s.inserted_window_dims, s.inserted_window_dims_count);
  numbers.scatter_dims_to_operand_dims = Vector(
      s.scatter_dims_to_operand_dims, s.scatter_dims_to_operand_dims_count);
  numbers.index_vector_dim = s.index_vector_dim;
  numbers.input_batching_dims =
      Vector(s.input_batching_dims, s.input_batching_dims_count);
  numbers.scatter_indices_batching_dims = Vector(
      s.scatter_indices_batching_dims, s.scatter_indices_batching_dims_count);
  scatter.set_scatter_dimension_numbers(numbers);
  scatter.set_unique_indices(s.unique_indices != 0);
  scatter.AppendCalledComputation(combiner.get());
  const Literal operand = BufferLiteral(kernel, buffers, s.operand);
  const Literal indices = BufferLiteral(kernel, buffers, s.scatter_indices);
  const Literal updates = BufferLiteral(kernel, buffers, s.updates);
  const Literal* operands[] = {&operand, &indices, &updates};
  NoRunner runner;
  PHAL_ASSIGN_OR_RETURN(Literal result,
                        reference::EvaluateScatter(scatter, operands, &runner));
  return StoreValues(kernel, buffers, s.output, result);
}

Status EvaluateSort(const phal_kernel_desc_t& kernel,
                    std::span<uint8_t* const> buffers) {
  const phal_kir_sort_t& s = *kernel.u.sort;
  std::vector<Literal> operands;
  std::vector<ElementType> parameter_types;
  std::vector<Shape> shapes;
  for (uint32_t i = 0; i < s.operand_count; ++i) {
    operands.push_back(BufferLiteral(kernel, buffers, s.operands[i]));
    parameter_types.push_back(operands.back().element_type());
    parameter_types.push_back(operands.back().element_type());
    shapes.push_back(operands.back().shape());
  }
  PHAL_ASSIGN_OR_RETURN(std::unique_ptr<HloComputation> comparator,
                        LiftScalarBody(s.comparator, parameter_types));
  HloInstruction sort(HloOpcode::kSort, "sort",
                      s.operand_count == 1 ? shapes[0] : Shape::Tuple(shapes));
  sort.set_dimensions({s.dimension});
  sort.set_is_stable(s.is_stable != 0);
  sort.AppendCalledComputation(comparator.get());
  std::vector<const Literal*> pointers;
  for (const Literal& operand : operands) pointers.push_back(&operand);
  NoRunner runner;
  PHAL_ASSIGN_OR_RETURN(Literal result,
                        reference::EvaluateSort(sort, pointers, &runner));
  if (s.operand_count == 1) {
    return StoreValues(kernel, buffers, s.outputs[0], result);
  }
  for (uint32_t i = 0; i < s.operand_count; ++i) {
    PHAL_RETURN_IF_ERROR(
        StoreValues(kernel, buffers, s.outputs[i], result.tuple_elements()[i]));
  }
  return OkStatus();
}

Status EvaluateCopy(const phal_kernel_desc_t& kernel,
                    std::span<uint8_t* const> buffers) {
  const phal_kir_copy_t& c = *kernel.u.copy;
  const phal_kir_buffer_t& source = kernel.buffers[c.source];
  const int64_t bytes =
      Product(DimsOf(source)) *
      static_cast<int64_t>(ElementTypeByteSize(source.element_type));
  if (bytes > 0) std::memmove(buffers[c.destination], buffers[c.source], bytes);
  return OkStatus();
}

}  // namespace

Status EvaluateKernel(const phal_kernel_desc_t& kernel,
                      std::span<uint8_t* const> buffers) {
  if (buffers.size() != kernel.buffer_count) {
    return InvalidArgument("kernel " + std::string(kernel.name) + " takes " +
                           std::to_string(kernel.buffer_count) +
                           " buffers, got " + std::to_string(buffers.size()));
  }
  switch (kernel.kind) {
    case PHAL_KERNEL_KIND_LOOP:
      return EvaluateLoop(kernel, buffers);
    case PHAL_KERNEL_KIND_REDUCE:
      return EvaluateReduce(kernel, buffers);
    case PHAL_KERNEL_KIND_DOT:
      return EvaluateDot(kernel, buffers);
    case PHAL_KERNEL_KIND_CONV:
      return EvaluateConv(kernel, buffers);
    case PHAL_KERNEL_KIND_GATHER:
      return EvaluateGather(kernel, buffers);
    case PHAL_KERNEL_KIND_SCATTER:
      return EvaluateScatter(kernel, buffers);
    case PHAL_KERNEL_KIND_SORT:
      return EvaluateSort(kernel, buffers);
    case PHAL_KERNEL_KIND_COPY:
      return EvaluateCopy(kernel, buffers);
  }
  return InvalidArgument("unknown kernel kind " +
                         std::to_string(static_cast<int>(kernel.kind)));
}

}  // namespace phal
