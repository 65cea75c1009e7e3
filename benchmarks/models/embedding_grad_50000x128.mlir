module @jit_embedding_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<50000x128xf32>, %arg1: tensor<65536xi32>, %arg2: tensor<65536x128xf32>) -> (tensor<50000x128xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<50000x128xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<65536xi32>, tensor<65536xi32>) -> tensor<65536xi1>
    %c_0 = stablehlo.constant dense<50000> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<65536xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<65536xi1>, tensor<65536xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<65536xi32>) -> tensor<65536x1xi32>
    %7 = "stablehlo.scatter"(%0, %6, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %11 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %11 : tensor<f32>
    }) : (tensor<50000x128xf32>, tensor<65536x1xi32>, tensor<65536x128xf32>) -> tensor<50000x128xf32>
    %cst_1 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<50000x128xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<50000x128xf32>
    %10 = stablehlo.subtract %arg0, %9 : tensor<50000x128xf32>
    return %10 : tensor<50000x128xf32>
  }
}
