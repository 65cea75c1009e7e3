module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x256xf32>) -> (tensor<512x256xf32> {jax.result_info = "result.Q"}, tensor<256x256xf32> {jax.result_info = "result.R"}) {
    %0:2 = call @qr(%arg0) : (tensor<512x256xf32>) -> (tensor<512x256xf32>, tensor<256x256xf32>)
    return %0#0, %0#1 : tensor<512x256xf32>, tensor<256x256xf32>
  }
  func.func private @qr(%arg0: tensor<512x256xf32>) -> (tensor<512x256xf32>, tensor<256x256xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=512, j=256, k=512, l=256, m=256}, custom>} : (tensor<512x256xf32>) -> (tensor<512x256xf32>, tensor<256xf32>)
    %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k])->([l, m]) {i=512, j=256, k=256, l=512, m=256}, custom>} : (tensor<512x256xf32>, tensor<256xf32>) -> tensor<512x256xf32>
    %2 = stablehlo.slice %0#0 [0:256, 0:256] : (tensor<512x256xf32>) -> tensor<256x256xf32>
    %3 = stablehlo.iota dim = 0 : tensor<256x256xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<256x256xi32>
    %5 = stablehlo.add %3, %4 : tensor<256x256xi32>
    %6 = stablehlo.iota dim = 1 : tensor<256x256xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x256xf32>
    %9 = stablehlo.select %7, %8, %2 : tensor<256x256xi1>, tensor<256x256xf32>
    return %1, %9 : tensor<512x256xf32>, tensor<256x256xf32>
  }
}
