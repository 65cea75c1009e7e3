module @jit_cumulative_logsumexp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x2048xf32>) -> (tensor<128x2048xf32> {jax.result_info = "result[0]"}, tensor<128x2048xf32> {jax.result_info = "result[1]"}) {
    %0 = call @cumlogsumexp(%arg0) : (tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %1 = call @cummin(%arg0) : (tensor<128x2048xf32>) -> tensor<128x2048xf32>
    return %0, %1 : tensor<128x2048xf32>, tensor<128x2048xf32>
  }
  func.func private @cumlogsumexp(%arg0: tensor<128x2048xf32>) -> tensor<128x2048xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2047, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2048>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      %2 = stablehlo.subtract %arg1, %arg2 : tensor<f32>
      %3 = stablehlo.compare NE, %2, %2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
      %5 = stablehlo.abs %2 : tensor<f32>
      %6 = stablehlo.negate %5 : tensor<f32>
      %7 = stablehlo.exponential %6 : tensor<f32>
      %8 = stablehlo.log_plus_one %7 : tensor<f32>
      %9 = stablehlo.add %1, %8 : tensor<f32>
      %10 = stablehlo.select %3, %4, %9 : tensor<i1>, tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<128x2048xf32>, tensor<f32>) -> tensor<128x2048xf32>
    return %0 : tensor<128x2048xf32>
  }
  func.func private @cummin(%arg0: tensor<128x2048xf32>) -> tensor<128x2048xf32> {
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2047, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2048>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<128x2048xf32>, tensor<f32>) -> tensor<128x2048xf32>
    return %1 : tensor<128x2048xf32>
  }
}
