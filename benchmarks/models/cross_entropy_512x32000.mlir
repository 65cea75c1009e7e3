module @jit_cross_entropy_large_vocab attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x32000xf32>, %arg1: tensor<512xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<512x32000xf32> {jax.result_info = "result[1]"}) {
    %0:3 = call @log_softmax(%arg0) : (tensor<512x32000xf32>) -> (tensor<512x32000xf32>, tensor<512x32000xf32>, tensor<512x1xf32>)
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<512xi32>) -> tensor<512x1xi32>
    %2:2 = call @take_along_axis(%0#0, %1) : (tensor<512x32000xf32>, tensor<512x1xi32>) -> (tensor<512x1xf32>, tensor<512x1x1xi32>)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2#0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<512x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %4 = stablehlo.divide %3, %cst_0 : tensor<f32>
    %5 = stablehlo.negate %4 : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.negate %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %7 = stablehlo.divide %6, %cst_2 : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<512x1xf32>
    %9 = call @take_along_axis_0(%2#1, %8) : (tensor<512x1x1xi32>, tensor<512x1xf32>) -> tensor<512x32000xf32>
    %10 = call @log_softmax_1(%0#1, %0#2, %9) : (tensor<512x32000xf32>, tensor<512x1xf32>, tensor<512x32000xf32>) -> tensor<512x32000xf32>
    return %5, %10 : tensor<f32>, tensor<512x32000xf32>
  }
  func.func private @log_softmax(%arg0: tensor<512x32000xf32>) -> (tensor<512x32000xf32>, tensor<512x32000xf32>, tensor<512x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<512x32000xf32>, tensor<f32>) -> tensor<512xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<512xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<512xf32>) -> tensor<512x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<512x1xf32>) -> tensor<512x32000xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<512x32000xf32>
    %6 = stablehlo.exponential %5 : tensor<512x32000xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<512x32000xf32>, tensor<f32>) -> tensor<512xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<512xf32>) -> tensor<512x1xf32>
    %9 = stablehlo.log %8 : tensor<512x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<512x1xf32>) -> tensor<512x32000xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<512x32000xf32>
    return %11, %6, %8 : tensor<512x32000xf32>, tensor<512x32000xf32>, tensor<512x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<512x32000xf32>, %arg1: tensor<512x1xi32>) -> (tensor<512x1xf32>, tensor<512x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<512x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<512x1xi32>, tensor<512x1xi32>) -> tensor<512x1xi1>
    %c_0 = stablehlo.constant dense<32000> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<512x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<512x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<512x1xi1>, tensor<512x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<512x1xi32>) -> tensor<512x1x1xi32>
    %c_1 = stablehlo.constant dense<31999> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<512x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<512x1x1xi32>, tensor<512x1x1xi32>) -> tensor<512x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<512x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<512x1x1xi32>, tensor<512x1x1xi32>) -> tensor<512x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<512x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<512x1x1xi1>, tensor<i1>) -> tensor<512x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<512x32000xf32>, tensor<512x1x1xi32>) -> tensor<512x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<512x1xi1>, tensor<512x1xf32>
    return %15, %5 : tensor<512x1xf32>, tensor<512x1x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<512x1x1xi32>, %arg1: tensor<512x1xf32>) -> tensor<512x32000xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x32000xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<512x32000xf32>, tensor<512x1x1xi32>, tensor<512x1xf32>) -> tensor<512x32000xf32>
    return %1 : tensor<512x32000xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<512x32000xf32>, %arg1: tensor<512x1xf32>, %arg2: tensor<512x32000xf32>) -> tensor<512x32000xf32> {
    %0 = stablehlo.negate %arg2 : tensor<512x32000xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<512x32000xf32>, tensor<f32>) -> tensor<512xf32>
    %2 = stablehlo.reshape %1 : (tensor<512xf32>) -> tensor<512x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<512x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<512x1xf32>, tensor<f32>) -> tensor<512xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<512xf32>) -> tensor<512x32000xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<512x32000xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<512x32000xf32>
    return %7 : tensor<512x32000xf32>
  }
}
