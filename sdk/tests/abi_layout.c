/*
 * Pins the layout of every ABI 1.0 to 1.12 struct and the value of every
 * enumerator on LP64 targets. The 1.0 offsets never change; a minor version
 * only adds members at the end, so only sizes grow. It is compiled as strict
 * C11 (-std=c11 -Wall -Wextra -Werror -pedantic), so it also proves the
 * public headers are valid C; a change that moves a member fails the build.
 */
#include <stddef.h>

#include "polyhal/extension.h"
#include "polyhal/kernel.h"
#include "polyhal/plugin.h"
#include "polyhal/runtime.h"
#include "polyhal/transport.h"
#include "polyhal/types.h"

#define PHAL_PIN_OFFSET(type, member, offset)        \
  _Static_assert(offsetof(type, member) == (offset), \
                 #type "." #member " moved: the ABI is broken")
#define PHAL_PIN_SIZE(type, size) \
  _Static_assert(sizeof(type) == (size), #type " changed size")
#define PHAL_PIN_VALUE(name, value) \
  _Static_assert((name) == (value), #name " changed value")

#include <stdint.h>
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu

PHAL_PIN_SIZE(phal_device_properties_t, 128);
PHAL_PIN_OFFSET(phal_device_properties_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_device_properties_t, next, 8);
PHAL_PIN_OFFSET(phal_device_properties_t, name, 16);
PHAL_PIN_OFFSET(phal_device_properties_t, vendor, 24);
PHAL_PIN_OFFSET(phal_device_properties_t, driver_version, 32);
PHAL_PIN_OFFSET(phal_device_properties_t, features, 40);
PHAL_PIN_OFFSET(phal_device_properties_t, kind, 48);
PHAL_PIN_OFFSET(phal_device_properties_t, ordinal, 52);
PHAL_PIN_OFFSET(phal_device_properties_t, compute_units, 56);
PHAL_PIN_OFFSET(phal_device_properties_t, memory_space_count, 60);
PHAL_PIN_OFFSET(phal_device_properties_t, memory_bytes, 64);
PHAL_PIN_OFFSET(phal_device_properties_t, max_allocation_bytes, 72);
PHAL_PIN_OFFSET(phal_device_properties_t, min_alignment, 80);
PHAL_PIN_OFFSET(phal_device_properties_t, element_types, 88);
PHAL_PIN_OFFSET(phal_device_properties_t, flags, 96);
PHAL_PIN_OFFSET(phal_device_properties_t, uuid, 104);
PHAL_PIN_OFFSET(phal_device_properties_t, kernel_kinds, 120); /* 1.1 */

PHAL_PIN_SIZE(phal_memory_space_info_t, 40);
PHAL_PIN_OFFSET(phal_memory_space_info_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_memory_space_info_t, next, 8);
PHAL_PIN_OFFSET(phal_memory_space_info_t, name, 16);
PHAL_PIN_OFFSET(phal_memory_space_info_t, kind, 24);
PHAL_PIN_OFFSET(phal_memory_space_info_t, capacity_bytes, 32);

PHAL_PIN_SIZE(phal_host_services_t, 56);
PHAL_PIN_OFFSET(phal_host_services_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_host_services_t, next, 8);
PHAL_PIN_OFFSET(phal_host_services_t, status_create, 16);
PHAL_PIN_OFFSET(phal_host_services_t, log, 24);
PHAL_PIN_OFFSET(phal_host_services_t, host_allocate, 32);
PHAL_PIN_OFFSET(phal_host_services_t, host_free, 40);
PHAL_PIN_OFFSET(phal_host_services_t, status_free, 48);

PHAL_PIN_SIZE(phal_plugin_api_t, 360);
PHAL_PIN_OFFSET(phal_plugin_api_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_plugin_api_t, next, 8);
PHAL_PIN_OFFSET(phal_plugin_api_t, abi_version, 16);
PHAL_PIN_OFFSET(phal_plugin_api_t, name, 24);
PHAL_PIN_OFFSET(phal_plugin_api_t, version, 32);
PHAL_PIN_OFFSET(phal_plugin_api_t, shutdown, 40);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_count, 48);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_open, 56);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_close, 64);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_get_properties, 72);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_get_memory_space, 80);
PHAL_PIN_OFFSET(phal_plugin_api_t, buffer_allocate, 88);
PHAL_PIN_OFFSET(phal_plugin_api_t, buffer_free, 96);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_create, 104);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_destroy, 112);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_synchronize, 120);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_copy_from_host, 128);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_copy_to_host, 136);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_copy_buffer, 144);
PHAL_PIN_OFFSET(phal_plugin_api_t, event_create, 152);
PHAL_PIN_OFFSET(phal_plugin_api_t, event_destroy, 160);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_record_event, 168);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_wait_event, 176);
PHAL_PIN_OFFSET(phal_plugin_api_t, event_synchronize, 184);
PHAL_PIN_OFFSET(phal_plugin_api_t, event_query, 192);
PHAL_PIN_OFFSET(phal_plugin_api_t, kernel_emit, 200); /* 1.1 */
PHAL_PIN_OFFSET(phal_plugin_api_t, kernel_destroy, 208);
PHAL_PIN_OFFSET(phal_plugin_api_t, kernel_serialize, 216);
PHAL_PIN_OFFSET(phal_plugin_api_t, kernel_deserialize, 224);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_launch, 232);
_Static_assert(PHAL_PLUGIN_API_MIN_STRUCT_SIZE == 40,
               "the minimal plugin table header changed");
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_0, 200);
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_1, 240);
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_2, 240);

PHAL_PIN_SIZE(phal_plugin_negotiation_t, 40);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, next, 8);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, core_min_version, 16);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, core_max_version, 20);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, host, 24);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, plugin_min_version, 32);
PHAL_PIN_OFFSET(phal_plugin_negotiation_t, plugin_max_version, 36);

PHAL_PIN_SIZE(phal_client_options_t, 56);
PHAL_PIN_OFFSET(phal_client_options_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_client_options_t, next, 8);
PHAL_PIN_OFFSET(phal_client_options_t, plugin_path, 16);
PHAL_PIN_OFFSET(phal_client_options_t, plugin_filter, 24);
PHAL_PIN_OFFSET(phal_client_options_t, log_callback, 32);
PHAL_PIN_OFFSET(phal_client_options_t, log_user_data, 40);
PHAL_PIN_OFFSET(phal_client_options_t, transport, 48);

PHAL_PIN_SIZE(phal_plugin_info_t, 80);
PHAL_PIN_OFFSET(phal_plugin_info_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_plugin_info_t, next, 8);
PHAL_PIN_OFFSET(phal_plugin_info_t, name, 16);
PHAL_PIN_OFFSET(phal_plugin_info_t, description, 24);
PHAL_PIN_OFFSET(phal_plugin_info_t, version, 32);
PHAL_PIN_OFFSET(phal_plugin_info_t, manifest_path, 40);
PHAL_PIN_OFFSET(phal_plugin_info_t, library_path, 48);
PHAL_PIN_OFFSET(phal_plugin_info_t, state, 56);
PHAL_PIN_OFFSET(phal_plugin_info_t, abi_version, 60);
PHAL_PIN_OFFSET(phal_plugin_info_t, device_count, 64);
PHAL_PIN_OFFSET(phal_plugin_info_t, reason, 72);

PHAL_PIN_SIZE(phal_buffer_desc_t, 40);
PHAL_PIN_OFFSET(phal_buffer_desc_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_buffer_desc_t, next, 8);
PHAL_PIN_OFFSET(phal_buffer_desc_t, element_type, 16);
PHAL_PIN_OFFSET(phal_buffer_desc_t, rank, 20);
PHAL_PIN_OFFSET(phal_buffer_desc_t, dims, 24);
PHAL_PIN_OFFSET(phal_buffer_desc_t, memory_space, 32);

PHAL_PIN_OFFSET(phal_compile_options_t, struct_size, 0); /* 1.1 */
PHAL_PIN_OFFSET(phal_compile_options_t, format, 16);
PHAL_PIN_OFFSET(phal_compile_options_t, optimization_level, 20);
PHAL_PIN_OFFSET(phal_compile_options_t, source_name, 24);

PHAL_PIN_OFFSET(phal_kernel_options_t, struct_size, 0); /* 1.1 */
PHAL_PIN_OFFSET(phal_kernel_options_t, next, 8);
PHAL_PIN_OFFSET(phal_kernel_options_t, optimization_level, 16);

PHAL_PIN_SIZE(phal_kir_node_t, 64); /* 1.1 */
PHAL_PIN_OFFSET(phal_kir_node_t, op, 0);
PHAL_PIN_OFFSET(phal_kir_node_t, type, 4);
PHAL_PIN_OFFSET(phal_kir_node_t, operand_begin, 8);
PHAL_PIN_OFFSET(phal_kir_node_t, operand_count, 12);
PHAL_PIN_OFFSET(phal_kir_node_t, attributes, 16);
PHAL_PIN_OFFSET(phal_kir_node_t, constant, 48);

PHAL_PIN_SIZE(phal_kir_body_t, 40);
PHAL_PIN_OFFSET(phal_kir_body_t, nodes, 0);
PHAL_PIN_OFFSET(phal_kir_body_t, node_count, 8);
PHAL_PIN_OFFSET(phal_kir_body_t, operand_count, 12);
PHAL_PIN_OFFSET(phal_kir_body_t, operands, 16);
PHAL_PIN_OFFSET(phal_kir_body_t, results, 24);
PHAL_PIN_OFFSET(phal_kir_body_t, result_count, 32);
PHAL_PIN_OFFSET(phal_kir_body_t, parameter_count, 36);

PHAL_PIN_SIZE(phal_kir_buffer_t, 24);
PHAL_PIN_OFFSET(phal_kir_buffer_t, element_type, 0);
PHAL_PIN_OFFSET(phal_kir_buffer_t, access, 4);
PHAL_PIN_OFFSET(phal_kir_buffer_t, rank, 8);
PHAL_PIN_OFFSET(phal_kir_buffer_t, dims, 16);

PHAL_PIN_SIZE(phal_kir_loop_t, 64);
PHAL_PIN_OFFSET(phal_kir_loop_t, dims, 8);
PHAL_PIN_OFFSET(phal_kir_loop_t, outputs, 16);
PHAL_PIN_OFFSET(phal_kir_loop_t, body, 24);

PHAL_PIN_SIZE(phal_kir_reduce_t, 200);
PHAL_PIN_OFFSET(phal_kir_reduce_t, dims, 8);
PHAL_PIN_OFFSET(phal_kir_reduce_t, reduced_dims, 16);
PHAL_PIN_OFFSET(phal_kir_reduce_t, accumulator_count, 24);
PHAL_PIN_OFFSET(phal_kir_reduce_t, outputs, 32);
PHAL_PIN_OFFSET(phal_kir_reduce_t, init, 40);
PHAL_PIN_OFFSET(phal_kir_reduce_t, values, 80);
PHAL_PIN_OFFSET(phal_kir_reduce_t, reducer, 120);
PHAL_PIN_OFFSET(phal_kir_reduce_t, epilogue, 160);

PHAL_PIN_SIZE(phal_kir_dot_t, 136);
PHAL_PIN_OFFSET(phal_kir_dot_t, accumulation_type, 12);
PHAL_PIN_OFFSET(phal_kir_dot_t, batch, 16);
PHAL_PIN_OFFSET(phal_kir_dot_t, lhs_strides, 48);
PHAL_PIN_OFFSET(phal_kir_dot_t, rhs_strides, 72);
PHAL_PIN_OFFSET(phal_kir_dot_t, epilogue, 96);

PHAL_PIN_SIZE(phal_kernel_desc_t, 48);
PHAL_PIN_OFFSET(phal_kernel_desc_t, name, 16);
PHAL_PIN_OFFSET(phal_kernel_desc_t, kind, 24);
PHAL_PIN_OFFSET(phal_kernel_desc_t, buffer_count, 28);
PHAL_PIN_OFFSET(phal_kernel_desc_t, buffers, 32);
PHAL_PIN_OFFSET(phal_kernel_desc_t, u, 40);

/* ABI 1.3 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_3, 240);
PHAL_PIN_SIZE(phal_extension_base_t, 16);
PHAL_PIN_OFFSET(phal_extension_base_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_extension_base_t, type, 4);
PHAL_PIN_OFFSET(phal_extension_base_t, next, 8);

/* ABI 1.4 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_4, 256);
PHAL_PIN_OFFSET(phal_plugin_api_t, target_get_names, 240);
PHAL_PIN_OFFSET(phal_plugin_api_t, target_device_open, 248);
PHAL_PIN_SIZE(phal_kernel_options_t, 32);
PHAL_PIN_OFFSET(phal_kernel_options_t, dump_directory, 24);
PHAL_PIN_SIZE(phal_compile_options_t, 40);
PHAL_PIN_OFFSET(phal_compile_options_t, dump_directory, 32);

/* ABI 1.5 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_5, 272);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_get_counters, 256);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_reset_counters, 264);
PHAL_PIN_SIZE(phal_device_counter_t, 32);
PHAL_PIN_OFFSET(phal_device_counter_t, name, 0);
PHAL_PIN_OFFSET(phal_device_counter_t, kernel, 8);
PHAL_PIN_OFFSET(phal_device_counter_t, unit, 16);
PHAL_PIN_OFFSET(phal_device_counter_t, value, 24);

/* ABI 1.6 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_6, 272);
PHAL_PIN_SIZE(phal_kir_fft_t, 24);
PHAL_PIN_OFFSET(phal_kir_fft_t, fft_type, 0);
PHAL_PIN_OFFSET(phal_kir_fft_t, input, 4);
PHAL_PIN_OFFSET(phal_kir_fft_t, output, 8);
PHAL_PIN_OFFSET(phal_kir_fft_t, fft_rank, 12);
PHAL_PIN_OFFSET(phal_kir_fft_t, fft_length, 16);

/* ABI 1.7 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_7, 272);

/* ABI 1.8 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_8, 312);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_supports_collective, 272);
PHAL_PIN_OFFSET(phal_plugin_api_t, communicator_create, 280);
PHAL_PIN_OFFSET(phal_plugin_api_t, communicator_destroy, 288);
PHAL_PIN_OFFSET(phal_plugin_api_t, communicator_abort, 296);
PHAL_PIN_OFFSET(phal_plugin_api_t, stream_collective, 304);
PHAL_PIN_SIZE(phal_collective_pair_t, 8);
PHAL_PIN_OFFSET(phal_collective_pair_t, source, 0);
PHAL_PIN_OFFSET(phal_collective_pair_t, target, 4);
PHAL_PIN_SIZE(phal_collective_desc_t, 72);
PHAL_PIN_OFFSET(phal_collective_desc_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_collective_desc_t, next, 8);
PHAL_PIN_OFFSET(phal_collective_desc_t, kind, 16);
PHAL_PIN_OFFSET(phal_collective_desc_t, element_type, 20);
PHAL_PIN_OFFSET(phal_collective_desc_t, reduction, 24);
PHAL_PIN_OFFSET(phal_collective_desc_t, root, 28);
PHAL_PIN_OFFSET(phal_collective_desc_t, outer_count, 32);
PHAL_PIN_OFFSET(phal_collective_desc_t, block_count, 40);
PHAL_PIN_OFFSET(phal_collective_desc_t, pairs, 48);
PHAL_PIN_OFFSET(phal_collective_desc_t, pair_count, 56);
PHAL_PIN_OFFSET(phal_collective_desc_t, timeout_ms, 64);

/* ABI 1.9 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_9, 312);
PHAL_PIN_SIZE(phal_host_message_t, 24);
PHAL_PIN_OFFSET(phal_host_message_t, peer, 0);
PHAL_PIN_OFFSET(phal_host_message_t, tag, 4);
PHAL_PIN_OFFSET(phal_host_message_t, data, 8);
PHAL_PIN_OFFSET(phal_host_message_t, size, 16);
PHAL_PIN_SIZE(phal_host_transport_t, 40);
PHAL_PIN_OFFSET(phal_host_transport_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_host_transport_t, next, 8);
PHAL_PIN_OFFSET(phal_host_transport_t, rank, 16);
PHAL_PIN_OFFSET(phal_host_transport_t, size, 20);
PHAL_PIN_OFFSET(phal_host_transport_t, user_data, 24);
PHAL_PIN_OFFSET(phal_host_transport_t, exchange, 32);
PHAL_PIN_SIZE(phal_global_device_t, 48);
PHAL_PIN_OFFSET(phal_global_device_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_global_device_t, next, 8);
PHAL_PIN_OFFSET(phal_global_device_t, process_index, 16);
PHAL_PIN_OFFSET(phal_global_device_t, device, 24);
PHAL_PIN_OFFSET(phal_global_device_t, plugin_name, 32);
PHAL_PIN_OFFSET(phal_global_device_t, device_name, 40);

/* ABI 1.10 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_10, 312);
PHAL_PIN_SIZE(phal_tcp_job_options_t, 40);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, next, 8);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, coordinator, 16);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, process_index, 24);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, process_count, 28);
PHAL_PIN_OFFSET(phal_tcp_job_options_t, timeout_ms, 32);

/* ABI 1.11 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_11, 312);
PHAL_PIN_SIZE(phal_host_reductions_t, 48);
PHAL_PIN_OFFSET(phal_host_reductions_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_host_reductions_t, type, 4);
PHAL_PIN_OFFSET(phal_host_reductions_t, next, 8);
PHAL_PIN_OFFSET(phal_host_reductions_t, user_data, 16);
PHAL_PIN_OFFSET(phal_host_reductions_t, supports, 24);
PHAL_PIN_OFFSET(phal_host_reductions_t, group_create, 32);
PHAL_PIN_OFFSET(phal_host_reductions_t, all_reduce, 40);

/* ABI 1.12 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_12, 336);
PHAL_PIN_OFFSET(phal_plugin_api_t, device_supports_joined_collective, 312);
PHAL_PIN_OFFSET(phal_plugin_api_t, communicator_make_id, 320);
PHAL_PIN_OFFSET(phal_plugin_api_t, communicator_join, 328);
PHAL_PIN_SIZE(phal_communicator_id_t, 128);
PHAL_PIN_VALUE(PHAL_COMMUNICATOR_ID_SIZE, 128);

/* ABI 1.13 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_13, 360);
PHAL_PIN_OFFSET(phal_plugin_api_t, program_get_formats, 336);
PHAL_PIN_OFFSET(phal_plugin_api_t, program_accepts_op, 344);
PHAL_PIN_OFFSET(phal_plugin_api_t, program_compile, 352);
PHAL_PIN_SIZE(phal_program_op_t, 64);
PHAL_PIN_OFFSET(phal_program_op_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_program_op_t, next, 8);
PHAL_PIN_OFFSET(phal_program_op_t, opcode, 16);
PHAL_PIN_OFFSET(phal_program_op_t, text, 24);
PHAL_PIN_OFFSET(phal_program_op_t, operand_count, 32);
PHAL_PIN_OFFSET(phal_program_op_t, operand_types, 40);
PHAL_PIN_OFFSET(phal_program_op_t, result_count, 48);
PHAL_PIN_OFFSET(phal_program_op_t, result_types, 56);
PHAL_PIN_SIZE(phal_program_value_t, 24);
PHAL_PIN_OFFSET(phal_program_value_t, kind, 0);
PHAL_PIN_OFFSET(phal_program_value_t, parameter, 4);
PHAL_PIN_OFFSET(phal_program_value_t, byte_size, 8);
PHAL_PIN_OFFSET(phal_program_value_t, data, 16);
PHAL_PIN_SIZE(phal_program_step_t, 16);
PHAL_PIN_OFFSET(phal_program_step_t, kernel, 0);
PHAL_PIN_OFFSET(phal_program_step_t, values, 8);
PHAL_PIN_SIZE(phal_kir_graph_t, 56);
PHAL_PIN_OFFSET(phal_kir_graph_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_kir_graph_t, next, 8);
PHAL_PIN_OFFSET(phal_kir_graph_t, value_count, 16);
PHAL_PIN_OFFSET(phal_kir_graph_t, values, 24);
PHAL_PIN_OFFSET(phal_kir_graph_t, step_count, 32);
PHAL_PIN_OFFSET(phal_kir_graph_t, steps, 40);

/* ABI 1.14 */
PHAL_PIN_VALUE(PHAL_PLUGIN_API_STRUCT_SIZE_1_14, 360);
PHAL_PIN_SIZE(phal_kir_linalg_t, 40);
PHAL_PIN_OFFSET(phal_kir_linalg_t, op, 0);
PHAL_PIN_OFFSET(phal_kir_linalg_t, flags, 4);
PHAL_PIN_OFFSET(phal_kir_linalg_t, transpose_a, 8);
PHAL_PIN_OFFSET(phal_kir_linalg_t, operand_count, 12);
PHAL_PIN_OFFSET(phal_kir_linalg_t, operands, 16);
PHAL_PIN_OFFSET(phal_kir_linalg_t, result_count, 24);
PHAL_PIN_OFFSET(phal_kir_linalg_t, results, 28);
PHAL_PIN_OFFSET(phal_kir_graph_t, results, 48);
PHAL_PIN_SIZE(phal_program_desc_t, 80);
PHAL_PIN_OFFSET(phal_program_desc_t, struct_size, 0);
PHAL_PIN_OFFSET(phal_program_desc_t, next, 8);
PHAL_PIN_OFFSET(phal_program_desc_t, name, 16);
PHAL_PIN_OFFSET(phal_program_desc_t, format, 24);
PHAL_PIN_OFFSET(phal_program_desc_t, data, 32);
PHAL_PIN_OFFSET(phal_program_desc_t, size, 40);
PHAL_PIN_OFFSET(phal_program_desc_t, graph, 48);
PHAL_PIN_OFFSET(phal_program_desc_t, parameter_count, 56);
PHAL_PIN_OFFSET(phal_program_desc_t, result_count, 60);
PHAL_PIN_OFFSET(phal_program_desc_t, buffers, 64);
PHAL_PIN_OFFSET(phal_program_desc_t, replica_count, 72);
PHAL_PIN_OFFSET(phal_program_desc_t, partition_count, 76);
PHAL_PIN_VALUE(PHAL_PLUGIN_PROGRAM_HLO_TEXT, 1);
PHAL_PIN_VALUE(PHAL_PLUGIN_PROGRAM_STABLEHLO, 2);
PHAL_PIN_VALUE(PHAL_PLUGIN_PROGRAM_KIR_GRAPH, 3);
PHAL_PIN_VALUE(PHAL_PROGRAM_VALUE_PARAMETER, 1);
PHAL_PIN_VALUE(PHAL_PROGRAM_VALUE_CONSTANT, 2);
PHAL_PIN_VALUE(PHAL_PROGRAM_VALUE_TEMPORARY, 3);

#endif /* LP64 */

PHAL_PIN_VALUE(PHAL_ABI_VERSION, 0x0001000eu);
PHAL_PIN_VALUE(PHAL_MAKE_VERSION(3, 7), 0x00030007u);

PHAL_PIN_VALUE(PHAL_OK, 0);
PHAL_PIN_VALUE(PHAL_CANCELLED, 1);
PHAL_PIN_VALUE(PHAL_UNKNOWN, 2);
PHAL_PIN_VALUE(PHAL_INVALID_ARGUMENT, 3);
PHAL_PIN_VALUE(PHAL_DEADLINE_EXCEEDED, 4);
PHAL_PIN_VALUE(PHAL_NOT_FOUND, 5);
PHAL_PIN_VALUE(PHAL_ALREADY_EXISTS, 6);
PHAL_PIN_VALUE(PHAL_PERMISSION_DENIED, 7);
PHAL_PIN_VALUE(PHAL_RESOURCE_EXHAUSTED, 8);
PHAL_PIN_VALUE(PHAL_FAILED_PRECONDITION, 9);
PHAL_PIN_VALUE(PHAL_ABORTED, 10);
PHAL_PIN_VALUE(PHAL_OUT_OF_RANGE, 11);
PHAL_PIN_VALUE(PHAL_UNIMPLEMENTED, 12);
PHAL_PIN_VALUE(PHAL_INTERNAL, 13);
PHAL_PIN_VALUE(PHAL_UNAVAILABLE, 14);
PHAL_PIN_VALUE(PHAL_DATA_LOSS, 15);
PHAL_PIN_VALUE(PHAL_UNAUTHENTICATED, 16);

PHAL_PIN_VALUE(PHAL_COLLECTIVE_ALL_REDUCE, 0);
PHAL_PIN_VALUE(PHAL_COLLECTIVE_ALL_GATHER, 1);
PHAL_PIN_VALUE(PHAL_COLLECTIVE_REDUCE_SCATTER, 2);
PHAL_PIN_VALUE(PHAL_COLLECTIVE_ALL_TO_ALL, 3);
PHAL_PIN_VALUE(PHAL_COLLECTIVE_PERMUTE, 4);
PHAL_PIN_VALUE(PHAL_COLLECTIVE_BROADCAST, 5);
PHAL_PIN_VALUE(PHAL_REDUCTION_NONE, 0);
PHAL_PIN_VALUE(PHAL_REDUCTION_SUM, 1);
PHAL_PIN_VALUE(PHAL_REDUCTION_PRODUCT, 2);
PHAL_PIN_VALUE(PHAL_REDUCTION_MIN, 3);
PHAL_PIN_VALUE(PHAL_REDUCTION_MAX, 4);
PHAL_PIN_VALUE(PHAL_REDUCTION_AND, 5);
PHAL_PIN_VALUE(PHAL_REDUCTION_OR, 6);

PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_INVALID, 0);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_PRED, 1);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_S8, 2);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_S16, 3);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_S32, 4);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_S64, 5);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_U8, 6);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_U16, 7);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_U32, 8);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_U64, 9);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_F16, 10);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_BF16, 11);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_F32, 12);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_F64, 13);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_C64, 14);
PHAL_PIN_VALUE(PHAL_ELEMENT_TYPE_C128, 15);

PHAL_PIN_VALUE(PHAL_DEVICE_KIND_UNKNOWN, 0);
PHAL_PIN_VALUE(PHAL_DEVICE_KIND_CPU, 1);
PHAL_PIN_VALUE(PHAL_DEVICE_KIND_GPU, 2);
PHAL_PIN_VALUE(PHAL_DEVICE_KIND_ACCELERATOR, 3);
PHAL_PIN_VALUE(PHAL_MEMORY_KIND_DEVICE, 0);
PHAL_PIN_VALUE(PHAL_MEMORY_KIND_HOST_SHARED, 1);
PHAL_PIN_VALUE(PHAL_MEMORY_KIND_UNIFIED, 2);
PHAL_PIN_VALUE(PHAL_LOG_LEVEL_ERROR, 0);
PHAL_PIN_VALUE(PHAL_LOG_LEVEL_WARNING, 1);
PHAL_PIN_VALUE(PHAL_LOG_LEVEL_INFO, 2);
PHAL_PIN_VALUE(PHAL_LOG_LEVEL_DEBUG, 3);
PHAL_PIN_VALUE(PHAL_PLUGIN_STATE_LOADED, 0);
PHAL_PIN_VALUE(PHAL_PLUGIN_STATE_SKIPPED, 1);
PHAL_PIN_VALUE(PHAL_PROGRAM_FORMAT_HLO_TEXT, 1);
PHAL_PIN_VALUE(PHAL_PROGRAM_FORMAT_STABLEHLO_TEXT, 2);
PHAL_PIN_VALUE(PHAL_DEVICE_FLAG_ASYNC_STREAMS, 1);
PHAL_PIN_VALUE(PHAL_DEVICE_FLAG_HOST_ADDRESSABLE, 2);

PHAL_PIN_VALUE(PHAL_KERNEL_KIND_LOOP, 1);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_REDUCE, 2);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_DOT, 3);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_CONV, 4);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_GATHER, 5);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_SCATTER, 6);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_SORT, 7);
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_COPY, 8);
PHAL_PIN_VALUE(PHAL_KIR_OP_CONSTANT, 1);
PHAL_PIN_VALUE(PHAL_KIR_OP_INDEX, 2);
PHAL_PIN_VALUE(PHAL_KIR_OP_READ, 3);
PHAL_PIN_VALUE(PHAL_KIR_OP_PARAMETER, 4);
PHAL_PIN_VALUE(PHAL_KIR_OP_ABS, 16);
PHAL_PIN_VALUE(PHAL_KIR_OP_REDUCE_PRECISION, 43);
PHAL_PIN_VALUE(PHAL_KIR_OP_ADD, 64);
PHAL_PIN_VALUE(PHAL_KIR_OP_COMPARE, 80);
PHAL_PIN_VALUE(PHAL_KIR_OP_SELECT, 96);
PHAL_PIN_VALUE(PHAL_KIR_OP_CLAMP, 97);
PHAL_PIN_VALUE(PHAL_KIR_COMPARE_GE, 5);
PHAL_PIN_VALUE(PHAL_KIR_COMPARISON_UNSIGNED, 3);

/* ABI 1.2 */
PHAL_PIN_VALUE(PHAL_KIR_OP_ERF, 44);

/* ABI 1.3 */
PHAL_PIN_VALUE(PHAL_EXTENSION_TYPE_NONE, 0);
PHAL_PIN_VALUE(PHAL_EXTENSION_TYPE_HOST_REDUCTIONS, 1);

/* ABI 1.4 */
PHAL_PIN_VALUE(PHAL_DEVICE_FLAG_COMPILE_ONLY, 4);

/* ABI 1.6 */
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_FFT, 9);
PHAL_PIN_VALUE(PHAL_KIR_FFT_TYPE_FFT, 0);
PHAL_PIN_VALUE(PHAL_KIR_FFT_TYPE_IFFT, 1);
PHAL_PIN_VALUE(PHAL_KIR_FFT_TYPE_RFFT, 2);
PHAL_PIN_VALUE(PHAL_KIR_FFT_TYPE_IRFFT, 3);

/* ABI 1.14 */
PHAL_PIN_VALUE(PHAL_KERNEL_KIND_LINALG, 10);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_CHOLESKY, 0);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_TRIANGULAR_SOLVE, 1);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_LU, 2);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_QR, 3);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_HOUSEHOLDER_PRODUCT, 4);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_EIGH, 5);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_SVD, 6);
PHAL_PIN_VALUE(PHAL_KIR_TRANSPOSE_NONE, 0);
PHAL_PIN_VALUE(PHAL_KIR_TRANSPOSE_TRANSPOSE, 1);
PHAL_PIN_VALUE(PHAL_KIR_TRANSPOSE_ADJOINT, 2);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_LOWER, 1);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_LEFT_SIDE, 2);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_UNIT_DIAGONAL, 4);
PHAL_PIN_VALUE(PHAL_KIR_LINALG_FULL_MATRICES, 8);

/* A C translation unit may not be empty under -pedantic. */
int phal_abi_layout_checked(void) { return 1; }
