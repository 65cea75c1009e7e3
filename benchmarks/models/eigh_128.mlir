module @jit_eigh_rebuilt attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x128xf32>) -> (tensor<128xf32> {jax.result_info = "result[0]"}, tensor<128x128xf32> {jax.result_info = "result[1]"}) {
    %0:2 = call @eigh(%arg0) : (tensor<128x128xf32>) -> (tensor<128xf32>, tensor<128x128xf32>)
    %1 = stablehlo.broadcast_in_dim %0#0, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x128xf32>) -> tensor<128x128xf32>
    %3 = stablehlo.multiply %0#1, %2 : tensor<128x128xf32>
    %4 = stablehlo.transpose %0#1, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %5 = stablehlo.dot_general %3, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
    return %0#0, %5 : tensor<128xf32>, tensor<128x128xf32>
  }
  func.func private @eigh(%arg0: tensor<128x128xf32>) -> (tensor<128xf32>, tensor<128x128xf32>) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<128x128xf32>) -> tensor<128x128xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<128x128xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %3 = stablehlo.divide %1, %2 : tensor<128x128xf32>
    %4:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%3) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=128, j=128, k=128, l=128, m=128}, custom>} : (tensor<128x128xf32>) -> (tensor<128x128xf32>, tensor<128xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#2, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x128xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<128x128xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<128x128xi1>, tensor<128x128xf32>
    %11 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<1xi1>) -> tensor<128xi1>
    %14 = stablehlo.select %13, %4#1, %12 : tensor<128xi1>, tensor<128xf32>
    return %14, %10 : tensor<128xf32>, tensor<128x128xf32>
  }
}
