module @jit_sharded_embedding attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x32xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}, %arg1: tensor<16x8xi32> {mhlo.sharding = "{replicated}"}) -> (tensor<16x32xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<256x32xf32>, tensor<16x8xi32>) -> tensor<16x8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x8x32xf32>, tensor<f32>) -> tensor<16x32xf32>
    return %1 : tensor<16x32xf32>
  }
  func.func private @_take(%arg0: tensor<256x32xf32>, %arg1: tensor<16x8xi32>) -> tensor<16x8x32xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x8xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<16x8xi32>, tensor<16x8xi32>) -> tensor<16x8xi1>
    %c_0 = stablehlo.constant dense<256> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16x8xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<16x8xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<16x8xi1>, tensor<16x8xi32>, tensor<16x8xi32>) -> tensor<16x8xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<16x8xi32>) -> tensor<16x8x1xi32>
    %c_1 = stablehlo.constant dense<255> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x8x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<16x8x1xi32>, tensor<16x8x1xi32>) -> tensor<16x8x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<16x8x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<16x8x1xi32>, tensor<16x8x1xi32>) -> tensor<16x8x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<16x8x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<16x8x1xi1>, tensor<i1>) -> tensor<16x8xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 32>}> : (tensor<256x32xf32>, tensor<16x8x1xi32>) -> tensor<16x8x32xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<16x8xi1>) -> tensor<16x8x32xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x8x32xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<16x8x32xi1>, tensor<16x8x32xf32>
    return %16 : tensor<16x8x32xf32>
  }
  func.func private @_where(%arg0: tensor<16x8xi1>, %arg1: tensor<16x8xi32>, %arg2: tensor<16x8xi32>) -> tensor<16x8xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<16x8xi1>, tensor<16x8xi32>
    return %0 : tensor<16x8xi32>
  }
}
