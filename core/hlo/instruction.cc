#include "core/hlo/instruction.h"

#include <algorithm>

#include "core/hlo/computation.h"

namespace phal {
namespace {

template <typename T>
bool SameNames(const std::vector<T*>& a, const std::vector<T*>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(), [](const T* x, const T* y) {
        return (x == nullptr || y == nullptr) ? x == y : x->name() == y->name();
      });
}

}  // namespace

HloInstruction::HloInstruction(HloOpcode opcode, std::string name, Shape shape)
    : opcode_(opcode), name_(std::move(name)), shape_(std::move(shape)) {}

void HloInstruction::AppendOperand(HloInstruction* operand) {
  operands_.push_back(operand);
  std::vector<HloInstruction*>& users = operand->users_;
  if (std::find(users.begin(), users.end(), this) == users.end()) {
    users.push_back(this);
  }
}

void HloInstruction::DropOperands() {
  for (HloInstruction* operand : operands_) {
    std::vector<HloInstruction*>& users = operand->users_;
    users.erase(std::remove(users.begin(), users.end(), this), users.end());
  }
  operands_.clear();
}

void HloInstruction::AppendCalledComputation(HloComputation* computation) {
  called_computations_.push_back(computation);
}

void HloInstruction::set_slice(std::vector<int64_t> starts,
                               std::vector<int64_t> limits,
                               std::vector<int64_t> strides) {
  slice_starts_ = std::move(starts);
  slice_limits_ = std::move(limits);
  slice_strides_ = std::move(strides);
}

ComparisonType HloInstruction::EffectiveComparisonType() const {
  if (comparison_type_ != ComparisonType::kDefault) return comparison_type_;
  if (operands_.empty() || operands_[0]->shape().IsTuple()) {
    return ComparisonType::kDefault;
  }
  return DefaultComparisonType(operands_[0]->shape().element_type());
}

void HloInstruction::CopyAttributesFrom(const HloInstruction& source) {
  parameter_number_ = source.parameter_number_;
  literal_ = source.literal_;
  tuple_index_ = source.tuple_index_;
  dimensions_ = source.dimensions_;
  iota_dimension_ = source.iota_dimension_;
  slice_starts_ = source.slice_starts_;
  slice_limits_ = source.slice_limits_;
  slice_strides_ = source.slice_strides_;
  dynamic_slice_sizes_ = source.dynamic_slice_sizes_;
  padding_config_ = source.padding_config_;
  window_ = source.window_;
  convolution_dimension_numbers_ = source.convolution_dimension_numbers_;
  feature_group_count_ = source.feature_group_count_;
  batch_group_count_ = source.batch_group_count_;
  dot_dimension_numbers_ = source.dot_dimension_numbers_;
  gather_dimension_numbers_ = source.gather_dimension_numbers_;
  gather_slice_sizes_ = source.gather_slice_sizes_;
  scatter_dimension_numbers_ = source.scatter_dimension_numbers_;
  indices_are_sorted_ = source.indices_are_sorted_;
  unique_indices_ = source.unique_indices_;
  comparison_direction_ = source.comparison_direction_;
  comparison_type_ = source.comparison_type_;
  exponent_bits_ = source.exponent_bits_;
  mantissa_bits_ = source.mantissa_bits_;
  epsilon_ = source.epsilon_;
  feature_index_ = source.feature_index_;
  is_stable_ = source.is_stable_;
  top_k_ = source.top_k_;
  largest_ = source.largest_;
  fft_type_ = source.fft_type_;
  fft_length_ = source.fft_length_;
  linear_algebra_ = source.linear_algebra_;
  fusion_kind_ = source.fusion_kind_;
  replica_groups_ = source.replica_groups_;
  channel_id_ = source.channel_id_;
  use_global_device_ids_ = source.use_global_device_ids_;
  source_target_pairs_ = source.source_target_pairs_;
  sharding_ = source.sharding_;
}

bool HloInstruction::Identical(const HloInstruction& other) const {
  if (opcode_ != other.opcode_ || name_ != other.name_) return false;
  if (shape_ != other.shape_) return false;
  if (!SameNames(operands_, other.operands_) ||
      !SameNames(called_computations_, other.called_computations_)) {
    return false;
  }
  return parameter_number_ == other.parameter_number_ &&
         literal_ == other.literal_ && tuple_index_ == other.tuple_index_ &&
         dimensions_ == other.dimensions_ &&
         iota_dimension_ == other.iota_dimension_ &&
         slice_starts_ == other.slice_starts_ &&
         slice_limits_ == other.slice_limits_ &&
         slice_strides_ == other.slice_strides_ &&
         dynamic_slice_sizes_ == other.dynamic_slice_sizes_ &&
         padding_config_ == other.padding_config_ && window_ == other.window_ &&
         convolution_dimension_numbers_ ==
             other.convolution_dimension_numbers_ &&
         feature_group_count_ == other.feature_group_count_ &&
         batch_group_count_ == other.batch_group_count_ &&
         dot_dimension_numbers_ == other.dot_dimension_numbers_ &&
         gather_dimension_numbers_ == other.gather_dimension_numbers_ &&
         gather_slice_sizes_ == other.gather_slice_sizes_ &&
         scatter_dimension_numbers_ == other.scatter_dimension_numbers_ &&
         indices_are_sorted_ == other.indices_are_sorted_ &&
         unique_indices_ == other.unique_indices_ &&
         comparison_direction_ == other.comparison_direction_ &&
         comparison_type_ == other.comparison_type_ &&
         exponent_bits_ == other.exponent_bits_ &&
         mantissa_bits_ == other.mantissa_bits_ && epsilon_ == other.epsilon_ &&
         feature_index_ == other.feature_index_ &&
         is_stable_ == other.is_stable_ && top_k_ == other.top_k_ &&
         largest_ == other.largest_ && fft_type_ == other.fft_type_ &&
         fft_length_ == other.fft_length_ &&
         linear_algebra_ == other.linear_algebra_ &&
         fusion_kind_ == other.fusion_kind_ &&
         replica_groups_ == other.replica_groups_ &&
         channel_id_ == other.channel_id_ &&
         use_global_device_ids_ == other.use_global_device_ids_ &&
         source_target_pairs_ == other.source_target_pairs_ &&
         sharding_ == other.sharding_;
}

}  // namespace phal
