// One HLO operation: an opcode, a name unique in its computation, a result
// shape, operands, called computations and the typed attributes its opcode
// uses. Attributes an opcode does not use keep their defaults.
#ifndef POLYHAL_CORE_HLO_INSTRUCTION_H_
#define POLYHAL_CORE_HLO_INSTRUCTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/hlo/comparison.h"
#include "core/hlo/dimension_numbers.h"
#include "core/hlo/fft_type.h"
#include "core/hlo/linear_algebra_options.h"
#include "core/hlo/literal.h"
#include "core/hlo/opcode.h"
#include "core/hlo/replica_groups.h"
#include "core/hlo/shape.h"
#include "core/hlo/sharding.h"
#include "core/hlo/window.h"

namespace phal {

class HloComputation;

class HloInstruction {
 public:
  HloInstruction(HloOpcode opcode, std::string name, Shape shape);
  HloInstruction(const HloInstruction&) = delete;
  HloInstruction& operator=(const HloInstruction&) = delete;

  // --- Identity and graph -------------------------------------------------

  // What the instruction computes.
  HloOpcode opcode() const { return opcode_; }
  // Name without the leading '%', unique within the module's computation.
  const std::string& name() const { return name_; }
  // Result shape (with the layout the text stated, if any).
  const Shape& shape() const { return shape_; }
  Shape& mutable_shape() { return shape_; }

  // Operands in order. They belong to the same computation as this
  // instruction and appear before it in the computation's post order.
  const std::vector<HloInstruction*>& operands() const { return operands_; }
  HloInstruction* operand(int64_t index) const {
    return operands_[static_cast<std::size_t>(index)];
  }
  int64_t operand_count() const {
    return static_cast<int64_t>(operands_.size());
  }
  // Appends `operand` and records this instruction among its users.
  void AppendOperand(HloInstruction* operand);
  // Disconnects the instruction from its operands (each forgets it as a
  // user), for a front end that replaces an instruction it has not added.
  void DropOperands();
  // Instructions that use this one as an operand, in the order they were
  // connected; an instruction using it twice appears once.
  const std::vector<HloInstruction*>& users() const { return users_; }

  // Computations this instruction calls, in the order the role accessors
  // below document. They are owned by the module.
  const std::vector<HloComputation*>& called_computations() const {
    return called_computations_;
  }
  void AppendCalledComputation(HloComputation* computation);

  // The computation that owns this instruction; null until added to one.
  HloComputation* parent() const { return parent_; }
  void set_parent(HloComputation* parent) { parent_ = parent; }

  // --- Called computations by role ---------------------------------------
  // Each returns null when the instruction has no such computation.

  // The applied computation of call, fusion, map, reduce, reduce-window,
  // scatter (the update combiner), sort (the comparator), all-reduce and
  // reduce-scatter (the reduction).
  HloComputation* to_apply() const { return CalledComputation(0); }
  // while: condition (called_computations()[0]) and body ([1]).
  HloComputation* while_condition() const { return CalledComputation(0); }
  HloComputation* while_body() const { return CalledComputation(1); }
  // select-and-scatter: select ([0]) and scatter ([1]).
  HloComputation* select() const { return CalledComputation(0); }
  HloComputation* scatter() const { return CalledComputation(1); }
  // conditional: the branches. With a pred selector, branch 0 is the
  // true_computation and branch 1 the false_computation; with an s32 index
  // i, branch i runs (the last one when i is out of range).
  const std::vector<HloComputation*>& branch_computations() const {
    return called_computations_;
  }
  HloComputation* true_computation() const { return CalledComputation(0); }
  HloComputation* false_computation() const { return CalledComputation(1); }

  // --- Attributes ----------------------------------------------------------

  // parameter: index of this parameter in its computation's signature.
  int64_t parameter_number() const { return parameter_number_; }
  void set_parameter_number(int64_t number) { parameter_number_ = number; }

  // constant: the value; its shape equals shape() (layout aside).
  const Literal& literal() const { return literal_; }
  void set_literal(Literal literal) { literal_ = std::move(literal); }

  // get-tuple-element: which element of the operand tuple.
  int64_t tuple_index() const { return tuple_index_; }
  void set_tuple_index(int64_t index) { tuple_index_ = index; }

  // The text's dimensions={...}: broadcast (the result dimension each
  // operand dimension maps to), transpose (the permutation: result dim i is
  // operand dim dimensions[i]), reverse and reduce (the dimensions acted
  // on), concatenate and sort (one element: the dimension); all-gather,
  // reduce-scatter and the array form of all-to-all (one element: the
  // dimension gathered, scattered, or split and concatenated).
  const std::vector<int64_t>& dimensions() const { return dimensions_; }
  int64_t dimensions(int64_t index) const {
    return dimensions_[static_cast<std::size_t>(index)];
  }
  void set_dimensions(std::vector<int64_t> dimensions) {
    dimensions_ = std::move(dimensions);
  }

  // iota: the dimension along which values increase.
  int64_t iota_dimension() const { return iota_dimension_; }
  void set_iota_dimension(int64_t dimension) { iota_dimension_ = dimension; }

  // slice: per dimension, start (inclusive), limit (exclusive) and stride.
  const std::vector<int64_t>& slice_starts() const { return slice_starts_; }
  const std::vector<int64_t>& slice_limits() const { return slice_limits_; }
  const std::vector<int64_t>& slice_strides() const { return slice_strides_; }
  void set_slice(std::vector<int64_t> starts, std::vector<int64_t> limits,
                 std::vector<int64_t> strides);

  // dynamic-slice: the size of the slice in each dimension.
  const std::vector<int64_t>& dynamic_slice_sizes() const {
    return dynamic_slice_sizes_;
  }
  void set_dynamic_slice_sizes(std::vector<int64_t> sizes) {
    dynamic_slice_sizes_ = std::move(sizes);
  }

  // pad: low, high and interior padding per dimension.
  const PaddingConfig& padding_config() const { return padding_config_; }
  void set_padding_config(PaddingConfig config) {
    padding_config_ = std::move(config);
  }

  // reduce-window, select-and-scatter and convolution: the window. For a
  // convolution it has one dimension per spatial dimension.
  const Window& window() const { return window_; }
  void set_window(Window window) { window_ = std::move(window); }

  // convolution: dimension roles (the text's dim_labels).
  const ConvolutionDimensionNumbers& convolution_dimension_numbers() const {
    return convolution_dimension_numbers_;
  }
  void set_convolution_dimension_numbers(ConvolutionDimensionNumbers numbers) {
    convolution_dimension_numbers_ = std::move(numbers);
  }
  // convolution: number of groups the input features (and the kernel's
  // output features) are split into; 1 for an ordinary convolution.
  int64_t feature_group_count() const { return feature_group_count_; }
  void set_feature_group_count(int64_t count) { feature_group_count_ = count; }
  // convolution: number of groups the batch is split into; 1 usually.
  int64_t batch_group_count() const { return batch_group_count_; }
  void set_batch_group_count(int64_t count) { batch_group_count_ = count; }

  // dot: batch and contracting dimensions of both operands.
  const DotDimensionNumbers& dot_dimension_numbers() const {
    return dot_dimension_numbers_;
  }
  void set_dot_dimension_numbers(DotDimensionNumbers numbers) {
    dot_dimension_numbers_ = std::move(numbers);
  }

  // gather: dimension numbers and the size of the slice taken from the
  // operand at each index.
  const GatherDimensionNumbers& gather_dimension_numbers() const {
    return gather_dimension_numbers_;
  }
  void set_gather_dimension_numbers(GatherDimensionNumbers numbers) {
    gather_dimension_numbers_ = std::move(numbers);
  }
  const std::vector<int64_t>& gather_slice_sizes() const {
    return gather_slice_sizes_;
  }
  void set_gather_slice_sizes(std::vector<int64_t> sizes) {
    gather_slice_sizes_ = std::move(sizes);
  }

  // scatter: dimension numbers.
  const ScatterDimensionNumbers& scatter_dimension_numbers() const {
    return scatter_dimension_numbers_;
  }
  void set_scatter_dimension_numbers(ScatterDimensionNumbers numbers) {
    scatter_dimension_numbers_ = std::move(numbers);
  }
  // gather and scatter: promises the indices are sorted (a hint; results
  // are unspecified when the promise is false).
  bool indices_are_sorted() const { return indices_are_sorted_; }
  void set_indices_are_sorted(bool sorted) { indices_are_sorted_ = sorted; }
  // scatter: promises no two updates hit the same element.
  bool unique_indices() const { return unique_indices_; }
  void set_unique_indices(bool unique) { unique_indices_ = unique; }

  // compare: the relation and the ordering of the operands.
  ComparisonDirection comparison_direction() const {
    return comparison_direction_;
  }
  void set_comparison_direction(ComparisonDirection direction) {
    comparison_direction_ = direction;
  }
  // As written in the text (kDefault when absent).
  ComparisonType comparison_type() const { return comparison_type_; }
  void set_comparison_type(ComparisonType type) { comparison_type_ = type; }
  // The ordering actually used: comparison_type(), or the element type's
  // default when the text named none.
  ComparisonType EffectiveComparisonType() const;

  // reduce-precision: bits kept of the exponent and the mantissa.
  int64_t exponent_bits() const { return exponent_bits_; }
  void set_exponent_bits(int64_t bits) { exponent_bits_ = bits; }
  int64_t mantissa_bits() const { return mantissa_bits_; }
  void set_mantissa_bits(int64_t bits) { mantissa_bits_ = bits; }

  // batch-norm-*: the epsilon added to the variance and the feature
  // dimension of the operand.
  float epsilon() const { return epsilon_; }
  void set_epsilon(float epsilon) { epsilon_ = epsilon; }
  int64_t feature_index() const { return feature_index_; }
  void set_feature_index(int64_t index) { feature_index_ = index; }

  // sort: equal elements keep their relative order.
  bool is_stable() const { return is_stable_; }
  void set_is_stable(bool stable) { is_stable_ = stable; }

  // topk: how many elements to keep along the last dimension, and whether
  // the largest (true, the default) or the smallest are kept.
  int64_t top_k() const { return top_k_; }
  void set_top_k(int64_t k) { top_k_ = k; }
  bool largest() const { return largest_; }
  void set_largest(bool largest) { largest_ = largest; }

  // fft: which transform, and the length of each transformed dimension:
  // the operand's (RFFT) or the result's (IRFFT) trailing dimensions.
  FftType fft_type() const { return fft_type_; }
  void set_fft_type(FftType type) { fft_type_ = type; }
  const std::vector<int64_t>& fft_length() const { return fft_length_; }
  void set_fft_length(std::vector<int64_t> length) {
    fft_length_ = std::move(length);
  }

  // cholesky, triangular-solve: the triangle, side and transpose
  // (linear_algebra_options.h).
  const LinearAlgebraOptions& linear_algebra() const { return linear_algebra_; }
  void set_linear_algebra(LinearAlgebraOptions options) {
    linear_algebra_ = options;
  }

  // fusion: XLA's fusion kind ("kLoop", "kInput", "kOutput", "kCustom").
  // Informational; a fusion computes what calling to_apply() computes.
  const std::string& fusion_kind() const { return fusion_kind_; }
  void set_fusion_kind(std::string kind) { fusion_kind_ = std::move(kind); }

  // --- Several processes ---------------------------------------------------
  // process_groups.h turns these into the groups of processes a collective
  // exchanges data between.

  // all-reduce, all-gather, reduce-scatter, all-to-all and
  // collective-broadcast: the replica_groups as written (empty: one group
  // of all).
  const ReplicaGroups& replica_groups() const { return replica_groups_; }
  void set_replica_groups(ReplicaGroups groups) {
    replica_groups_ = std::move(groups);
  }
  // Collectives: channel_id=N; nullopt when the text has none. A channel
  // (id > 0) makes a collective cross-partition.
  const std::optional<int64_t>& channel_id() const { return channel_id_; }
  void set_channel_id(std::optional<int64_t> id) { channel_id_ = id; }
  // all-reduce, all-gather, reduce-scatter: the replica groups hold
  // flattened process ids (replica * num_partitions + partition).
  bool use_global_device_ids() const { return use_global_device_ids_; }
  void set_use_global_device_ids(bool use) { use_global_device_ids_ = use; }
  // collective-permute: (source, target) pairs of replica ids (partition
  // ids with a channel).
  const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs() const {
    return source_target_pairs_;
  }
  void set_source_target_pairs(std::vector<std::pair<int64_t, int64_t>> pairs) {
    source_target_pairs_ = std::move(pairs);
  }

  // Any instruction: the sharding=... annotation of its value, if the text
  // had one. It guides partitioning and does not change what the
  // instruction computes.
  const std::optional<HloSharding>& sharding() const { return sharding_; }
  void set_sharding(std::optional<HloSharding> sharding) {
    sharding_ = std::move(sharding);
  }

  // Copies every attribute (not opcode, name, shape, operands or called
  // computations) from `source`, so a rewrite can clone an instruction
  // without listing the attributes itself.
  void CopyAttributesFrom(const HloInstruction& source);

  // True when opcode, name, shape (layout included), operands (by name),
  // called computations (by name) and every attribute are equal.
  bool Identical(const HloInstruction& other) const;

 private:
  HloComputation* CalledComputation(std::size_t index) const {
    return index < called_computations_.size() ? called_computations_[index]
                                               : nullptr;
  }

  HloOpcode opcode_;
  std::string name_;
  Shape shape_;
  std::vector<HloInstruction*> operands_;
  std::vector<HloInstruction*> users_;
  std::vector<HloComputation*> called_computations_;
  HloComputation* parent_ = nullptr;

  int64_t parameter_number_ = 0;
  Literal literal_;
  int64_t tuple_index_ = 0;
  std::vector<int64_t> dimensions_;
  int64_t iota_dimension_ = 0;
  std::vector<int64_t> slice_starts_;
  std::vector<int64_t> slice_limits_;
  std::vector<int64_t> slice_strides_;
  std::vector<int64_t> dynamic_slice_sizes_;
  PaddingConfig padding_config_;
  Window window_;
  ConvolutionDimensionNumbers convolution_dimension_numbers_;
  int64_t feature_group_count_ = 1;
  int64_t batch_group_count_ = 1;
  DotDimensionNumbers dot_dimension_numbers_;
  GatherDimensionNumbers gather_dimension_numbers_;
  std::vector<int64_t> gather_slice_sizes_;
  ScatterDimensionNumbers scatter_dimension_numbers_;
  bool indices_are_sorted_ = false;
  bool unique_indices_ = false;
  ComparisonDirection comparison_direction_ = ComparisonDirection::kEq;
  ComparisonType comparison_type_ = ComparisonType::kDefault;
  int64_t exponent_bits_ = 0;
  int64_t mantissa_bits_ = 0;
  float epsilon_ = 0.0f;
  int64_t feature_index_ = 0;
  bool is_stable_ = false;
  int64_t top_k_ = 0;
  bool largest_ = true;
  FftType fft_type_ = FftType::kFft;
  std::vector<int64_t> fft_length_;
  LinearAlgebraOptions linear_algebra_;
  std::string fusion_kind_;
  ReplicaGroups replica_groups_;
  std::optional<int64_t> channel_id_;
  bool use_global_device_ids_ = false;
  std::vector<std::pair<int64_t, int64_t>> source_target_pairs_;
  std::optional<HloSharding> sharding_;
};

}  // namespace phal

#endif  // POLYHAL_CORE_HLO_INSTRUCTION_H_
