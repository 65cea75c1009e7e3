#include "core/frontend/vhlo_ops.h"

#include <algorithm>
#include <iterator>

namespace phal {
namespace {

// Sorted by name.
constexpr VhloOpInfo kVhloOps[] = {
    {"abs_v1", "0.9.0", "current", ""},
    {"add_v1", "0.9.0", "current", ""},
    {"after_all_v1", "0.9.0", "current", ""},
    {"all_gather_v1", "0.9.0", "1.4.0",
     "all_gather_dim channel_id replica_groups use_global_device_ids"},
    {"all_gather_v2", "1.5.0", "current",
     "all_gather_dim channel_id replica_groups use_global_device_ids"},
    {"all_reduce_v1", "0.9.0", "1.4.0",
     "channel_id replica_groups use_global_device_ids"},
    {"all_reduce_v2", "1.5.0", "current",
     "channel_id replica_groups use_global_device_ids"},
    {"all_to_all_v1", "0.9.0", "1.4.0",
     "channel_id concat_dimension replica_groups split_count split_dimension"},
    {"all_to_all_v2", "1.5.0", "current",
     "channel_id concat_dimension replica_groups split_count split_dimension"},
    {"and_v1", "0.9.0", "current", ""},
    {"async_done_v1", "1.15.0", "current", ""},
    {"async_start_v1", "1.15.0", "current", ""},
    {"atan2_v1", "0.9.0", "current", ""},
    {"batch_norm_grad_v1", "0.9.0", "current", "epsilon feature_index"},
    {"batch_norm_inference_v1", "0.9.0", "current", "epsilon feature_index"},
    {"batch_norm_training_v1", "0.9.0", "current", "epsilon feature_index"},
    {"bitcast_convert_v1", "0.9.0", "current", ""},
    {"broadcast_in_dim_v1", "0.9.0", "current", "broadcast_dimensions"},
    {"broadcast_v1", "0.9.0", "current", "broadcast_sizes"},
    {"call_v1", "0.9.0", "current", "callee"},
    {"case_v1", "0.9.0", "current", ""},
    {"cbrt_v1", "0.9.0", "1.9.0", ""},
    {"cbrt_v2", "1.10.0", "current", "result_accuracy"},
    {"ceil_v1", "0.9.0", "current", ""},
    {"cholesky_v1", "0.9.0", "current", "lower"},
    {"clamp_v1", "0.9.0", "current", ""},
    {"collective_broadcast_v1", "0.16.0", "1.19.0",
     "channel_id replica_groups"},
    {"collective_broadcast_v2", "1.20.0", "current",
     "channel_id has_dynamic_root replica_groups"},
    {"collective_permute_v1", "0.9.0", "current",
     "channel_id source_target_pairs"},
    {"collective_reduce_v1", "1.19.0", "current",
     "channel_id has_dynamic_root replica_groups use_global_device_ids"},
    {"compare_v1", "0.9.0", "current", "compare_type comparison_direction"},
    {"complex_v1", "0.9.0", "current", ""},
    {"composite_v1", "0.19.0", "1.13.0",
     "composite_attributes decomposition name version"},
    {"composite_v2", "1.14.0", "current",
     "composite_attributes decomposition name version"},
    {"concatenate_v1", "0.9.0", "current", "dimension"},
    {"constant_v1", "0.9.0", "current", "value"},
    {"convert_v1", "0.9.0", "current", ""},
    {"convolution_v1", "0.9.0", "current",
     "batch_group_count feature_group_count input_batch_dimension "
     "input_feature_dimension input_spatial_dimensions "
     "kernel_input_feature_dimension kernel_output_feature_dimension "
     "kernel_spatial_dimensions lhs_dilation output_batch_dimension "
     "output_feature_dimension output_spatial_dimensions padding "
     "precision_config rhs_dilation window_reversal window_strides"},
    {"cosine_v1", "0.9.0", "1.9.0", ""},
    {"cosine_v2", "1.10.0", "current", "result_accuracy"},
    {"count_leading_zeros_v1", "0.9.0", "current", ""},
    {"create_token_v1", "0.9.0", "current", ""},
    {"cross-replica-sum_v1", "0.9.0", "current", "replica_groups"},
    {"custom_call_v1", "0.9.0", "1.17.0",
     "api_version backend_config call_target_name called_computations "
     "has_side_effect operand_layouts output_operand_aliases result_layouts"},
    {"custom_call_v2", "1.18.0", "current",
     "api_version backend_config call_target_name called_computations "
     "has_side_effect operand_layouts output_operand_aliases result_layouts "
     "result_tilings"},
    {"divide_v1", "0.9.0", "current", ""},
    {"dot_general_v1", "0.9.0", "1.5.0",
     "lhs_batching_dimensions lhs_contracting_dimensions precision_config "
     "rhs_batching_dimensions rhs_contracting_dimensions"},
    {"dot_general_v2", "1.6.0", "current",
     "accumulation_type allow_imprecise_accumulation lhs_batching_dimensions "
     "lhs_component_count lhs_contracting_dimensions lhs_precision_type "
     "num_primitive_operations precision_config rhs_batching_dimensions "
     "rhs_component_count rhs_contracting_dimensions rhs_precision_type"},
    {"dot_v1", "0.9.0", "current", "precision_config"},
    {"dynamic_broadcast_in_dim_v1", "0.9.0", "current",
     "broadcast_dimensions known_expanding_dimensions "
     "known_nonexpanding_dimensions"},
    {"dynamic_conv_v1", "0.9.0", "0.19.0",
     "batch_group_count feature_group_count input_batch_dimension "
     "input_feature_dimension input_spatial_dimensions "
     "kernel_input_feature_dimension kernel_output_feature_dimension "
     "kernel_spatial_dimensions lhs_dilation output_batch_dimension "
     "output_feature_dimension output_spatial_dimensions padding "
     "precision_config rhs_dilation window_reversal window_strides"},
    {"dynamic_conv_v2", "0.20.0", "current",
     "batch_group_count feature_group_count input_batch_dimension "
     "input_feature_dimension input_spatial_dimensions "
     "kernel_input_feature_dimension kernel_output_feature_dimension "
     "kernel_spatial_dimensions lhs_dilation output_batch_dimension "
     "output_feature_dimension output_spatial_dimensions precision_config "
     "rhs_dilation window_reversal window_strides"},
    {"dynamic_gather_v1", "0.9.0", "1.0.0",
     "collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
     "start_index_map"},
    {"dynamic_gather_v2", "1.1.0", "current",
     "collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
     "operand_batching_dims start_index_map start_indices_batching_dims"},
    {"dynamic_iota_v1", "0.9.0", "current", "iota_dimension"},
    {"dynamic_pad_v1", "0.9.0", "current", ""},
    {"dynamic_reshape_v1", "0.9.0", "current", ""},
    {"dynamic_slice_v1", "0.9.0", "current", "slice_sizes"},
    {"dynamic_update_slice_v1", "0.9.0", "current", ""},
    {"einsum_v1", "0.9.0", "current", "einsum_config"},
    {"exponential_minus_one_v1", "0.9.0", "1.9.0", ""},
    {"exponential_minus_one_v2", "1.10.0", "current", "result_accuracy"},
    {"exponential_v1", "0.9.0", "1.8.0", ""},
    {"exponential_v2", "1.9.0", "current", "result_accuracy"},
    {"fft_v1", "0.9.0", "current", "fft_length fft_type"},
    {"floor_v1", "0.9.0", "current", ""},
    {"func_v1", "0.9.0", "current",
     "arg_attrs function_type res_attrs sym_name sym_visibility"},
    {"gather_v1", "0.9.0", "1.0.0",
     "collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
     "slice_sizes start_index_map"},
    {"gather_v2", "1.1.0", "current",
     "collapsed_slice_dims index_vector_dim indices_are_sorted offset_dims "
     "operand_batching_dims slice_sizes start_index_map "
     "start_indices_batching_dims"},
    {"get_dimension_size_v1", "0.9.0", "current", "dimension"},
    {"get_tuple_element_v1", "0.9.0", "current", "index"},
    {"if_v1", "0.9.0", "current", ""},
    {"imag_v1", "0.9.0", "current", ""},
    {"infeed_v1", "0.9.0", "current", "infeed_config layout"},
    {"iota_v1", "0.9.0", "current", "iota_dimension"},
    {"is_finite_v1", "0.9.0", "current", ""},
    {"log_plus_one_v1", "0.9.0", "1.9.0", ""},
    {"log_plus_one_v2", "1.10.0", "current", "result_accuracy"},
    {"log_v1", "0.9.0", "1.9.0", ""},
    {"log_v2", "1.10.0", "current", "result_accuracy"},
    {"logistic_v1", "0.9.0", "1.9.0", ""},
    {"logistic_v2", "1.10.0", "current", "result_accuracy"},
    {"map_v1", "0.9.0", "current", "dimensions"},
    {"maximum_v1", "0.9.0", "current", ""},
    {"minimum_v1", "0.9.0", "current", ""},
    {"multiply_v1", "0.9.0", "current", ""},
    {"negate_v1", "0.9.0", "current", ""},
    {"not_v1", "0.9.0", "current", ""},
    {"optimization_barrier_v1", "0.9.0", "current", ""},
    {"or_v1", "0.9.0", "current", ""},
    {"outfeed_v1", "0.9.0", "current", "outfeed_config"},
    {"pad_v1", "0.9.0", "current",
     "edge_padding_high edge_padding_low interior_padding"},
    {"partition_id_v1", "0.9.0", "current", ""},
    {"popcnt_v1", "0.9.0", "current", ""},
    {"power_v1", "0.9.0", "current", ""},
    {"real_dynamic_slice_v1", "0.9.0", "current", ""},
    {"real_v1", "0.9.0", "current", ""},
    {"recv_v1", "0.9.0", "1.11.0", "channel_id channel_type is_host_transfer"},
    {"recv_v2", "1.12.0", "current",
     "channel_id channel_type is_host_transfer source_target_pairs"},
    {"reduce_precision_v1", "0.9.0", "current", "exponent_bits mantissa_bits"},
    {"reduce_scatter_v1", "0.9.0", "current",
     "channel_id replica_groups scatter_dimension use_global_device_ids"},
    {"reduce_v1", "0.9.0", "current", "dimensions"},
    {"reduce_window_v1", "0.9.0", "current",
     "base_dilations padding window_dilations window_dimensions "
     "window_strides"},
    {"remainder_v1", "0.9.0", "current", ""},
    {"replica_id_v1", "0.9.0", "current", ""},
    {"reshape_v1", "0.9.0", "current", ""},
    {"return_v1", "0.9.0", "current", ""},
    {"reverse_v1", "0.9.0", "current", "dimensions"},
    {"rng_bit_generator_v1", "0.9.0", "current", "rng_algorithm"},
    {"rng_v1", "0.9.0", "current", "rng_distribution"},
    {"round_nearest_afz_v1", "0.9.0", "current", ""},
    {"round_nearest_even_v1", "0.9.0", "current", ""},
    {"rsqrt_v1", "0.9.0", "1.9.0", ""},
    {"rsqrt_v2", "1.10.0", "current", "result_accuracy"},
    {"scatter_v1", "0.9.0", "1.0.0",
     "index_vector_dim indices_are_sorted inserted_window_dims "
     "scatter_dims_to_operand_dims unique_indices update_window_dims"},
    {"scatter_v2", "1.1.0", "current",
     "index_vector_dim indices_are_sorted input_batching_dims "
     "inserted_window_dims scatter_dims_to_operand_dims "
     "scatter_indices_batching_dims unique_indices update_window_dims"},
    {"select_and_scatter_v1", "0.9.0", "current",
     "padding window_dimensions window_strides"},
    {"select_v1", "0.9.0", "current", ""},
    {"send_v1", "0.9.0", "1.11.0", "channel_id channel_type is_host_transfer"},
    {"send_v2", "1.12.0", "current",
     "channel_id channel_type is_host_transfer source_target_pairs"},
    {"set_dimension_size_v1", "0.9.0", "current", "dimension"},
    {"shift_left_v1", "0.9.0", "current", ""},
    {"shift_right_arithmetic_v1", "0.9.0", "current", ""},
    {"shift_right_logical_v1", "0.9.0", "current", ""},
    {"sign_v1", "0.9.0", "current", ""},
    {"sine_v1", "0.9.0", "1.9.0", ""},
    {"sine_v2", "1.10.0", "current", "result_accuracy"},
    {"slice_v1", "0.9.0", "current", "limit_indices start_indices strides"},
    {"sort_v1", "0.9.0", "current", "dimension is_stable"},
    {"sqrt_v1", "0.9.0", "1.9.0", ""},
    {"sqrt_v2", "1.10.0", "current", "result_accuracy"},
    {"subtract_v1", "0.9.0", "current", ""},
    {"tan_v1", "1.4.0", "1.9.0", ""},
    {"tan_v2", "1.10.0", "current", "result_accuracy"},
    {"tanh_v1", "0.9.0", "1.9.0", ""},
    {"tanh_v2", "1.10.0", "current", "result_accuracy"},
    {"torch_index_select_v1", "0.9.0", "current", "batch_dims dim"},
    {"transpose_v1", "0.9.0", "current", "permutation"},
    {"triangular_solve_v1", "0.9.0", "current",
     "left_side lower transpose_a unit_diagonal"},
    {"tuple_v1", "0.9.0", "current", ""},
    {"unary_einsum_v1", "0.9.0", "current", "einsum_config"},
    {"uniform_dequantize_v1", "0.9.0", "current", ""},
    {"uniform_quantize_v1", "0.9.0", "current", ""},
    {"while_v1", "0.9.0", "current", ""},
    {"xor_v1", "0.9.0", "current", ""},
};

}  // namespace

const VhloOpInfo* FindVhloOp(std::string_view name) {
  const auto* it = std::lower_bound(
      std::begin(kVhloOps), std::end(kVhloOps), name,
      [](const VhloOpInfo& op, std::string_view key) { return op.name < key; });
  if (it == std::end(kVhloOps) || it->name != name) return nullptr;
  return it;
}

std::vector<std::string> VhloOpAttributeNames(const VhloOpInfo& op) {
  std::vector<std::string> names;
  std::string_view rest = op.attribute_names;
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    names.emplace_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return names;
}

}  // namespace phal
