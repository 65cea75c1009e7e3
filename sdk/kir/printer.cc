#include "sdk/kir/printer.h"

#include <charconv>
#include <cstring>
#include <sstream>

#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"

namespace phal {
namespace {

template <typename T>
std::string ShortestText(T value) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}

template <typename T>
T ConstantAs(const phal_kir_node_t& node, int word = 0) {
  T value;
  std::memcpy(&value, &node.constant[word], sizeof(T));
  return value;
}

std::string List(const int64_t* values, std::size_t count) {
  std::string text = "[";
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += ",";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

std::string IndexList(const uint32_t* values, std::size_t count) {
  std::string text;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text;
}

const char* DirectionName(int64_t direction) {
  static const char* const kNames[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  return direction >= 0 && direction < 6 ? kNames[direction] : "?";
}

const char* ComparisonTypeText(int64_t type) {
  static const char* const kNames[] = {"float", "totalorder", "signed",
                                       "unsigned"};
  return type >= 0 && type < 4 ? kNames[type] : "?";
}

std::string NodeText(const phal_kir_body_t& body, uint32_t index) {
  const phal_kir_node_t& node = body.nodes[index];
  std::string text = "%" + std::to_string(index) + " = " +
                     ElementTypeName(node.type) + " " + KirOpName(node.op);
  const uint32_t* operands = body.operands + node.operand_begin;
  auto operand_list = [&](uint32_t begin) {
    std::string list;
    for (uint32_t i = begin; i < node.operand_count; ++i) {
      if (i > begin) list += ", ";
      list += "%" + std::to_string(operands[i]);
    }
    return list;
  };
  switch (node.op) {
    case PHAL_KIR_OP_CONSTANT:
      return text + " " + KirConstantToText(node);
    case PHAL_KIR_OP_INDEX:
    case PHAL_KIR_OP_PARAMETER:
      return text + " " + std::to_string(node.attributes[0]);
    case PHAL_KIR_OP_READ:
      return text + " buf" + std::to_string(node.attributes[0]) + "[" +
             operand_list(0) + "]";
    case PHAL_KIR_OP_COMPARE:
      return text + " " + DirectionName(node.attributes[0]) + " " +
             ComparisonTypeText(node.attributes[1]) + " " + operand_list(0);
    case PHAL_KIR_OP_REDUCE_PRECISION:
      return text + " e" + std::to_string(node.attributes[0]) + " m" +
             std::to_string(node.attributes[1]) + " " + operand_list(0);
    default:
      return text + " " + operand_list(0);
  }
}

void PrintBody(std::ostringstream& out, const char* role,
               const phal_kir_body_t& body) {
  out << "  " << role;
  if (body.parameter_count > 0)
    out << " (parameters " << body.parameter_count << ")";
  out << ":\n";
  for (uint32_t i = 0; i < body.node_count; ++i) {
    out << "    " << NodeText(body, i) << "\n";
  }
  out << "    results";
  for (uint32_t i = 0; i < body.result_count; ++i) {
    out << (i == 0 ? " %" : ", %") << body.results[i];
  }
  out << "\n";
}

void PrintConv(std::ostringstream& out, const phal_kir_conv_t& c) {
  const std::size_t n = c.spatial_count;
  out << "  conv input " << c.input << " kernel " << c.kernel << " output "
      << c.output << " accumulate " << ElementTypeName(c.accumulation_type)
      << "\n";
  out << "    input b " << c.input_batch_dimension << " f "
      << c.input_feature_dimension << " spatial "
      << List(c.input_spatial_dimensions, n) << "\n";
  out << "    kernel i " << c.kernel_input_feature_dimension << " o "
      << c.kernel_output_feature_dimension << " spatial "
      << List(c.kernel_spatial_dimensions, n) << "\n";
  out << "    output b " << c.output_batch_dimension << " f "
      << c.output_feature_dimension << " spatial "
      << List(c.output_spatial_dimensions, n) << "\n";
  out << "    strides " << List(c.window_strides, n) << " padding "
      << List(c.padding, 2 * n) << " lhs_dilation " << List(c.lhs_dilation, n)
      << " rhs_dilation " << List(c.rhs_dilation, n) << " reversal [";
  for (std::size_t i = 0; i < n; ++i) {
    out << (i > 0 ? "," : "") << static_cast<int>(c.window_reversal[i]);
  }
  out << "]\n    feature_groups " << c.feature_group_count << " batch_groups "
      << c.batch_group_count << "\n";
  PrintBody(out, "epilogue", c.epilogue);
}

void PrintGather(std::ostringstream& out, const phal_kernel_desc_t& kernel) {
  const phal_kir_gather_t& g = *kernel.u.gather;
  out << "  gather operand " << g.operand << " indices " << g.start_indices
      << " output " << g.output << "\n";
  out << "    offset_dims " << List(g.offset_dims, g.offset_dims_count)
      << " collapsed_slice_dims "
      << List(g.collapsed_slice_dims, g.collapsed_slice_dims_count)
      << " start_index_map " << List(g.start_index_map, g.start_index_map_count)
      << "\n";
  out << "    operand_batching_dims "
      << List(g.operand_batching_dims, g.operand_batching_dims_count)
      << " start_indices_batching_dims "
      << List(g.start_indices_batching_dims,
              g.start_indices_batching_dims_count)
      << " index_vector_dim " << g.index_vector_dim << " slice_sizes "
      << List(g.slice_sizes, kernel.buffers[g.operand].rank) << "\n";
}

void PrintScatter(std::ostringstream& out, const phal_kir_scatter_t& s) {
  out << "  scatter operand " << s.operand << " indices " << s.scatter_indices
      << " updates " << s.updates << " output " << s.output << " unique "
      << s.unique_indices << "\n";
  out << "    update_window_dims "
      << List(s.update_window_dims, s.update_window_dims_count)
      << " inserted_window_dims "
      << List(s.inserted_window_dims, s.inserted_window_dims_count)
      << " scatter_dims_to_operand_dims "
      << List(s.scatter_dims_to_operand_dims,
              s.scatter_dims_to_operand_dims_count)
      << "\n";
  out << "    input_batching_dims "
      << List(s.input_batching_dims, s.input_batching_dims_count)
      << " scatter_indices_batching_dims "
      << List(s.scatter_indices_batching_dims,
              s.scatter_indices_batching_dims_count)
      << " index_vector_dim " << s.index_vector_dim << "\n";
  PrintBody(out, "combiner", s.combiner);
}

}  // namespace

std::string KirConstantToText(const phal_kir_node_t& node) {
  switch (node.type) {
    case PHAL_ELEMENT_TYPE_PRED:
      return (node.constant[0] & 1) != 0 ? "true" : "false";
    case PHAL_ELEMENT_TYPE_S8:
      return std::to_string(ConstantAs<int8_t>(node));
    case PHAL_ELEMENT_TYPE_S16:
      return std::to_string(ConstantAs<int16_t>(node));
    case PHAL_ELEMENT_TYPE_S32:
      return std::to_string(ConstantAs<int32_t>(node));
    case PHAL_ELEMENT_TYPE_S64:
      return std::to_string(ConstantAs<int64_t>(node));
    case PHAL_ELEMENT_TYPE_U8:
      return std::to_string(ConstantAs<uint8_t>(node));
    case PHAL_ELEMENT_TYPE_U16:
      return std::to_string(ConstantAs<uint16_t>(node));
    case PHAL_ELEMENT_TYPE_U32:
      return std::to_string(ConstantAs<uint32_t>(node));
    case PHAL_ELEMENT_TYPE_U64:
      return std::to_string(node.constant[0]);
    case PHAL_ELEMENT_TYPE_F16:
      return ShortestText(HalfToFloat(ConstantAs<uint16_t>(node)));
    case PHAL_ELEMENT_TYPE_BF16:
      return ShortestText(BFloat16ToFloat(ConstantAs<uint16_t>(node)));
    case PHAL_ELEMENT_TYPE_F32:
      return ShortestText(ConstantAs<float>(node));
    case PHAL_ELEMENT_TYPE_F64:
      return ShortestText(ConstantAs<double>(node));
    case PHAL_ELEMENT_TYPE_C64: {
      const uint64_t bits = node.constant[0];
      float parts[2];
      std::memcpy(parts, &bits, sizeof(parts));
      return "(" + ShortestText(parts[0]) + ", " + ShortestText(parts[1]) + ")";
    }
    case PHAL_ELEMENT_TYPE_C128:
      return "(" + ShortestText(ConstantAs<double>(node, 0)) + ", " +
             ShortestText(ConstantAs<double>(node, 1)) + ")";
    default:
      return "?";
  }
}

std::string KernelToText(const phal_kernel_desc_t& kernel) {
  std::ostringstream out;
  out << "kernel " << (kernel.name != nullptr ? kernel.name : "") << " "
      << KernelKindName(kernel.kind) << "\n";
  for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
    const phal_kir_buffer_t& b = kernel.buffers[i];
    static const char* const kAccess[] = {"", "read", "write", "read_write"};
    out << "  buf" << i << " " << ElementTypeName(b.element_type)
        << List(b.dims, b.rank) << " " << kAccess[b.access & 3] << "\n";
  }
  switch (kernel.kind) {
    case PHAL_KERNEL_KIND_LOOP: {
      const phal_kir_loop_t& loop = *kernel.u.loop;
      out << "  loop " << List(loop.dims, loop.rank) << " outputs "
          << IndexList(loop.outputs, loop.output_count) << "\n";
      PrintBody(out, "body", loop.body);
      break;
    }
    case PHAL_KERNEL_KIND_REDUCE: {
      const phal_kir_reduce_t& r = *kernel.u.reduce;
      out << "  reduce " << List(r.dims, r.rank) << " reduced "
          << List(r.reduced_dims, r.reduced_count) << " accumulators "
          << r.accumulator_count << " outputs "
          << IndexList(r.outputs, r.output_count) << "\n";
      PrintBody(out, "init", r.init);
      PrintBody(out, "values", r.values);
      PrintBody(out, "reducer", r.reducer);
      PrintBody(out, "epilogue", r.epilogue);
      break;
    }
    case PHAL_KERNEL_KIND_DOT: {
      const phal_kir_dot_t& d = *kernel.u.dot;
      out << "  dot lhs " << d.lhs << " rhs " << d.rhs << " output " << d.output
          << " accumulate " << ElementTypeName(d.accumulation_type)
          << "\n    batch " << d.batch << " m " << d.m << " n " << d.n << " k "
          << d.k << " lhs_strides " << List(d.lhs_strides, 3) << " rhs_strides "
          << List(d.rhs_strides, 3) << "\n";
      PrintBody(out, "epilogue", d.epilogue);
      break;
    }
    case PHAL_KERNEL_KIND_CONV:
      PrintConv(out, *kernel.u.conv);
      break;
    case PHAL_KERNEL_KIND_GATHER:
      PrintGather(out, kernel);
      break;
    case PHAL_KERNEL_KIND_SCATTER:
      PrintScatter(out, *kernel.u.scatter);
      break;
    case PHAL_KERNEL_KIND_SORT: {
      const phal_kir_sort_t& s = *kernel.u.sort;
      out << "  sort dimension " << s.dimension << " stable " << s.is_stable
          << " operands " << IndexList(s.operands, s.operand_count)
          << " outputs " << IndexList(s.outputs, s.operand_count) << "\n";
      PrintBody(out, "comparator", s.comparator);
      break;
    }
    case PHAL_KERNEL_KIND_COPY:
      out << "  copy source " << kernel.u.copy->source << " destination "
          << kernel.u.copy->destination << "\n";
      break;
    case PHAL_KERNEL_KIND_FFT: {
      const phal_kir_fft_t& f = *kernel.u.fft;
      out << "  fft " << KirFftTypeName(f.fft_type) << " length "
          << List(f.fft_length, f.fft_rank) << " input " << f.input
          << " output " << f.output << "\n";
      break;
    }
    case PHAL_KERNEL_KIND_LINALG: {
      const phal_kir_linalg_t& l = *kernel.u.linalg;
      out << "  linalg " << KirLinalgOpName(EnumValue(l.op));
      const std::pair<uint32_t, const char*> flags[] = {
          {PHAL_KIR_LINALG_LOWER, "lower"},
          {PHAL_KIR_LINALG_LEFT_SIDE, "left_side"},
          {PHAL_KIR_LINALG_UNIT_DIAGONAL, "unit_diagonal"},
          {PHAL_KIR_LINALG_FULL_MATRICES, "full_matrices"}};
      for (const auto& [bit, name] : flags) {
        if ((l.flags & bit) != 0) out << " " << name;
      }
      if (l.op == PHAL_KIR_LINALG_TRIANGULAR_SOLVE) {
        out << " transpose_a " << KirTransposeName(EnumValue(l.transpose_a));
      }
      out << " operands " << IndexList(l.operands, l.operand_count)
          << " results " << IndexList(l.results, l.result_count) << "\n";
      break;
    }
  }
  return out.str();
}

}  // namespace phal
