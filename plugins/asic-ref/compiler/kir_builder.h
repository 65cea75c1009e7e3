// Builds KIR bodies and loop/reduce descriptions in memory the builder
// owns: how the compiler expresses convolution, gather and the dots the
// matrix unit does not take as ordinary loops and reductions over index
// arithmetic (which the vector unit then runs).
#ifndef POLYHAL_PLUGINS_ASIC_REF_COMPILER_KIR_BUILDER_H_
#define POLYHAL_PLUGINS_ASIC_REF_COMPILER_KIR_BUILDER_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

#include "polyhal/kernel.h"

namespace phal::asic_ref {

class BodyBuilder {
 public:
  using Node = uint32_t;

  Node Constant(phal_element_type_t type, uint64_t bits);
  Node Int(int64_t value) {
    return Constant(PHAL_ELEMENT_TYPE_S64, static_cast<uint64_t>(value));
  }
  // Zero of `type`.
  Node Zero(phal_element_type_t type) { return Constant(type, 0); }
  Node Index(int64_t dimension);
  Node Parameter(uint32_t index, phal_element_type_t type);
  Node Read(uint32_t buffer, phal_element_type_t type,
            std::span<const Node> indices);
  // The element at row-major `offset` of a buffer of `dims`.
  Node ReadLinear(uint32_t buffer, phal_element_type_t type,
                  std::span<const int64_t> dims, Node offset);
  Node Op(phal_kir_op_t op, phal_element_type_t type,
          std::initializer_list<Node> operands, int64_t attribute0 = 0,
          int64_t attribute1 = 0);
  Node Convert(Node value, phal_element_type_t type) {
    return TypeOf(value) == type ? value
                                 : Op(PHAL_KIR_OP_CONVERT, type, {value});
  }

  // s64 helpers.
  Node Add(Node a, Node b) { return Op(PHAL_KIR_OP_ADD, kS64, {a, b}); }
  Node Sub(Node a, Node b) { return Op(PHAL_KIR_OP_SUBTRACT, kS64, {a, b}); }
  Node Mul(Node a, Node b) { return Op(PHAL_KIR_OP_MULTIPLY, kS64, {a, b}); }
  Node Div(Node a, Node b) { return Op(PHAL_KIR_OP_DIVIDE, kS64, {a, b}); }
  Node Rem(Node a, Node b) { return Op(PHAL_KIR_OP_REMAINDER, kS64, {a, b}); }
  Node Min(Node a, Node b) { return Op(PHAL_KIR_OP_MINIMUM, kS64, {a, b}); }
  Node Max(Node a, Node b) { return Op(PHAL_KIR_OP_MAXIMUM, kS64, {a, b}); }
  Node Compare(Node a, Node b, phal_kir_comparison_direction_t direction);
  Node And(Node a, Node b) {
    return Op(PHAL_KIR_OP_AND, PHAL_ELEMENT_TYPE_PRED, {a, b});
  }
  Node Select(Node predicate, Node on_true, Node on_false) {
    return Op(PHAL_KIR_OP_SELECT, TypeOf(on_true),
              {predicate, on_true, on_false});
  }
  // `value` clamped into [0, limit - 1].
  Node ClampIndex(Node value, int64_t limit) {
    return Max(Min(value, Int(limit - 1)), Int(0));
  }

  void Result(Node node) { results_.push_back(node); }
  phal_element_type_t TypeOf(Node node) const { return nodes_[node].type; }

  // The body; valid while the builder lives and is not changed.
  phal_kir_body_t Body() const;

 private:
  static constexpr phal_element_type_t kS64 = PHAL_ELEMENT_TYPE_S64;
  Node Push(phal_kir_node_t node, std::span<const Node> operands);

  std::vector<phal_kir_node_t> nodes_;
  std::vector<uint32_t> operands_;
  std::vector<uint32_t> results_;
  uint32_t parameter_count_ = 0;
};

// The dimension numbers gather and scatter share, in gather's names
// (scatter: inserted_window_dims, input_batching_dims,
// scatter_dims_to_operand_dims, scatter_indices_batching_dims).
struct SliceDims {
  uint32_t indices_buffer = 0;
  const phal_kir_buffer_t* indices = nullptr;
  int64_t index_vector_dim = 0;
  std::span<const int64_t> start_index_map;
  std::span<const int64_t> collapsed_dims;
  std::span<const int64_t> operand_batching_dims;
  std::span<const int64_t> indices_batching_dims;
};

// The operand index an element of a gather's output (or a scatter's
// update) names, per operand dimension: the start index vector at the
// element's `batch` position (each component through `start`, which may
// clamp it), plus the batching position, plus the `window` offsets on the
// dimensions that are neither collapsed nor batching.
std::vector<BodyBuilder::Node> SliceIndex(
    BodyBuilder& v, const SliceDims& dims, uint32_t operand_rank,
    std::span<const BodyBuilder::Node> batch,
    std::span<const BodyBuilder::Node> window,
    const std::function<BodyBuilder::Node(int64_t, BodyBuilder::Node)>& start);

// A loop or reduce description that owns its arrays and bodies.
struct OwnedLoop {
  std::vector<int64_t> dims;
  std::vector<uint32_t> outputs;
  BodyBuilder body;
  phal_kir_loop_t Describe() const;
};

struct OwnedReduce {
  std::vector<int64_t> dims;
  std::vector<int64_t> reduced_dims;
  std::vector<uint32_t> outputs;
  uint32_t accumulator_count = 1;
  BodyBuilder init, values, reducer, epilogue;
  phal_kir_reduce_t Describe() const;
};

}  // namespace phal::asic_ref

#endif  // POLYHAL_PLUGINS_ASIC_REF_COMPILER_KIR_BUILDER_H_
